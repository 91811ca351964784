package mockombi

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Fault kinds accepted in Fault.Kind.
const (
	FaultStatus           = ""                   // Status with Body, or an Ombi-style {"error":...} body
	FaultReset            = "reset"              // hijack and reset the connection
	FaultTruncate         = "truncate"           // valid start of JSON, then close
	FaultMalformed        = "malformed"          // 200 with invalid JSON
	FaultOversized        = "oversized"          // 200 streaming Size bytes of a JSON array
	FaultEmpty            = "empty"              // 200 with no body
	FaultHTML             = "html"               // Status with an HTML page
	FaultBusinessError    = "business_error"     // 200 RequestEngineResult with isError
	FaultWrongContentType = "wrong_content_type" // the real answer served as text/html
)

// defaultOversize is the streamed size when an oversized fault gives none.
const defaultOversize = 64 << 20

// Fault is an injected failure matched before routing by method and path glob.
type Fault struct {
	// Method is the HTTP method; "" or "*" matches any.
	Method string `json:"method"`
	// Path is a glob over the literal request path, compared case-insensitively:
	// path.Match per segment, "*" one segment, "**" any rest. It may be written
	// below BasePath or with it, escaped ("The%20Matrix") or not.
	Path string `json:"path"`
	// Status is the answer status; 0 means 500 (200 for the 200-kinds). A
	// kind "" fault with Status 0 only delays and adds headers, then the
	// request proceeds normally.
	Status int `json:"status"`
	// Headers are added to the answer, e.g. {"Retry-After": "30"}.
	Headers map[string]string `json:"headers"`
	// Body replaces the default body. For business_error a JSON object is
	// merged into the RequestEngineResult; other text becomes errorMessage.
	Body string `json:"body"`
	// DelayMS delays the answer (any kind).
	DelayMS int `json:"delay_ms"`
	// Kind selects the failure; see the Fault* constants.
	Kind string `json:"kind"`
	// Size is the streamed byte count for oversized; 0 means 64 MiB.
	Size int64 `json:"size"`
	// Times is how often the fault fires before it is spent; 0 means always.
	Times int `json:"times"`
}

// activeFault is an injected fault with its remaining count.
type activeFault struct {
	f     Fault
	id    int
	fired int
}

// faultSet holds the injected faults in injection order.
type faultSet struct {
	mu     sync.Mutex
	nextID int
	faults []*activeFault
}

// add validates and stores f.
func (fs *faultSet) add(f Fault) error {
	switch f.Kind {
	case FaultStatus, FaultReset, FaultTruncate, FaultMalformed, FaultOversized,
		FaultEmpty, FaultHTML, FaultBusinessError, FaultWrongContentType:
	default:
		return fmt.Errorf("inject fault: unknown kind %q", f.Kind)
	}
	if f.Path == "" {
		return fmt.Errorf("inject fault: path is required")
	}
	for _, seg := range strings.Split(f.Path, "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("inject fault: bad path glob %q: %w", f.Path, err)
		}
	}
	if f.Status != 0 && (f.Status < 100 || f.Status > 999) {
		return fmt.Errorf("inject fault: status %d out of range", f.Status)
	}
	if f.Times < 0 || f.DelayMS < 0 || f.Size < 0 {
		return fmt.Errorf("inject fault: times, delay_ms and size must not be negative")
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.nextID++
	f.Headers = cloneMap(f.Headers)
	fs.faults = append(fs.faults, &activeFault{f: f, id: fs.nextID})
	return nil
}

// clear removes every fault.
func (fs *faultSet) clear() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.faults = nil
}

// match returns the first live fault for method and any of the path forms,
// spends one use and names it for the journal.
func (fs *faultSet) match(method string, paths ...string) (Fault, string, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, af := range fs.faults {
		if af.f.Method != "" && af.f.Method != "*" && !strings.EqualFold(af.f.Method, method) {
			continue
		}
		if !slices.ContainsFunc(paths, func(p string) bool { return globMatch(af.f.Path, p) }) {
			continue
		}
		af.fired++
		if af.f.Times > 0 && af.fired >= af.f.Times {
			fs.faults = append(fs.faults[:i:i], fs.faults[i+1:]...)
		}
		return af.f, faultName(af), true
	}
	return Fault{}, "", false
}

// faultName is how the journal names a fault: its kind (or status_NNN / delay)
// and its injection number.
func faultName(af *activeFault) string {
	kind := af.f.Kind
	if kind == "" {
		if af.f.Status == 0 {
			kind = "delay"
		} else {
			kind = "status_" + strconv.Itoa(af.f.Status)
		}
	}
	return fmt.Sprintf("%s#%d", kind, af.id)
}

// globMatch matches a slash-separated glob against a path, case-insensitively.
func globMatch(glob, p string) bool {
	g := splitPath(strings.ToLower(glob))
	s := splitPath(strings.ToLower(p))
	for i, seg := range g {
		if seg == "**" {
			return true
		}
		if i >= len(s) {
			return false
		}
		if ok, _ := path.Match(seg, s[i]); !ok {
			return false
		}
	}
	return len(g) == len(s)
}

// applyFault answers r according to f. It returns false when the request must
// continue to its normal handler (delay-only and wrong_content_type faults).
func (s *Server) applyFault(w http.ResponseWriter, r *http.Request, f Fault) bool {
	if f.DelayMS > 0 {
		select {
		case <-time.After(time.Duration(f.DelayMS) * time.Millisecond):
		case <-r.Context().Done():
			return true
		}
	}
	for k, v := range f.Headers {
		w.Header().Set(k, v)
	}
	status := func(def int) int {
		if f.Status != 0 {
			return f.Status
		}
		return def
	}
	switch f.Kind {
	case FaultStatus:
		if f.Status == 0 {
			return false
		}
		if f.Body != "" {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(f.Status)
			_, _ = w.Write([]byte(f.Body))
			return true
		}
		writeOmbiError(w, f.Status, fmt.Sprintf("%d %s", f.Status, http.StatusText(f.Status)))
	case FaultHTML:
		body := f.Body
		if body == "" {
			code := status(http.StatusBadGateway)
			body = fmt.Sprintf("<html>\r\n<head><title>%d %s</title></head>\r\n<body>\r\n<center><h1>%d %s</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
				code, http.StatusText(code), code, http.StatusText(code))
		}
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(status(http.StatusBadGateway))
		_, _ = w.Write([]byte(body))
	case FaultEmpty:
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(status(http.StatusOK))
	case FaultMalformed:
		body := f.Body
		if body == "" {
			body = `{"collection":[{"id":1,"title":"Half a record",]`
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(status(http.StatusOK))
		_, _ = w.Write([]byte(body))
	case FaultBusinessError:
		res := map[string]any{"result": false, "message": nil, "isError": true,
			"errorMessage": "Mock business error", "errorCode": nil, "requestId": 0}
		if f.Body != "" {
			var extra map[string]any
			if json.Unmarshal([]byte(f.Body), &extra) == nil {
				for k, v := range extra {
					res[k] = v
				}
			} else {
				res["errorMessage"] = f.Body
			}
		}
		writeJSON(w, status(http.StatusOK), res)
	case FaultTruncate:
		body := f.Body
		if body == "" {
			body = `{"collection":[{"id":1,"title":"Cut short","overview":"This answer stops in the mid`
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)*4))
		w.WriteHeader(status(http.StatusOK))
		_, _ = w.Write([]byte(body))
		_ = http.NewResponseController(w).Flush()
		panic(http.ErrAbortHandler)
	case FaultReset:
		resetConnection(w)
	case FaultOversized:
		size := f.Size
		if size == 0 {
			size = defaultOversize
		}
		streamOversized(w, r, status(http.StatusOK), size)
	case FaultWrongContentType:
		return false
	}
	return true
}

// resetConnection hijacks the connection and closes it with an RST where the
// transport allows, else aborts the handler.
func resetConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0)
	}
	_ = conn.Close()
}

// streamOversized writes size bytes of a valid JSON array of movie-like
// records, generated into one reused 64 KiB buffer, stopping when the client
// goes away. Memory stays constant whatever the size.
func streamOversized(w http.ResponseWriter, r *http.Request, status int, size int64) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
	w.WriteHeader(status)
	if size < 2 {
		_, _ = w.Write([]byte("[]")[:size])
		return
	}
	const (
		chunk = 64 << 10
		pad   = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore. "
	)
	buf := make([]byte, 0, chunk+512)
	written := int64(0)
	flush := func() bool {
		if r.Context().Err() != nil {
			return false
		}
		n, err := w.Write(buf)
		written += int64(n)
		buf = buf[:0]
		return err == nil
	}
	buf = append(buf, '[')
	// records while a full one, its comma and the closing bracket still fit
	for id := int64(1); ; id++ {
		mark := len(buf)
		if id > 1 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"id":`...)
		buf = strconv.AppendInt(buf, id, 10)
		buf = append(buf, `,"title":"Oversized record `...)
		buf = strconv.AppendInt(buf, id, 10)
		buf = append(buf, `","overview":"`...)
		buf = append(buf, pad...)
		buf = append(buf, `"}`...)
		if written+int64(len(buf))+1 > size {
			buf = buf[:mark]
			break
		}
		if len(buf) >= chunk && !flush() {
			return
		}
	}
	// pad with whitespace, which keeps the array valid, then close it
	for written+int64(len(buf))+1 < size {
		n := min(size-1-written-int64(len(buf)), int64(cap(buf)-len(buf)))
		for range n {
			buf = append(buf, ' ')
		}
		if len(buf) == cap(buf) && !flush() {
			return
		}
	}
	buf = append(buf, ']')
	flush()
}

// cloneMap copies a string map.
func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

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
	// Status is the answer status: 0 (the kind's default: 502 for html, 200
	// for the 200-kinds) or 200-599. A kind "" fault with Status 0 only
	// delays and adds headers, then the request proceeds normally.
	Status int `json:"status"`
	// Headers are added to the answer, e.g. {"Retry-After": "30"}: valid
	// names, each once ignoring case, no hop-by-hop or framing header.
	Headers map[string]string `json:"headers"`
	// Body replaces the default body (at most MaxFaultBody bytes). For
	// business_error a JSON object is merged into the RequestEngineResult;
	// other text becomes errorMessage. The control API also takes it as a
	// JSON value rather than a string.
	Body string `json:"body"`
	// DelayMS delays the answer (any kind), at most MaxFaultDelay.
	DelayMS int `json:"delay_ms"`
	// Kind selects the failure; see the Fault* constants.
	Kind string `json:"kind"`
	// Size is the streamed byte count for oversized; 0 means 64 MiB.
	Size int64 `json:"size"`
	// Chunked, for oversized only, streams the answer without a
	// Content-Length (chunked transfer encoding): an answer of unknown
	// length, which a client can only refuse while it reads.
	Chunked bool `json:"chunked"`
	// Times is how often the fault fires before it is spent; 0 means always.
	Times int `json:"times"`
}

// Fault bounds, checked when a fault is added.
const (
	// MaxFaultDelay is the longest delay_ms a fault may ask for.
	MaxFaultDelay = 5 * time.Minute
	// MaxFaultSize is the largest size an oversized fault may stream.
	MaxFaultSize = 1 << 40
	// MaxFaultBody is the longest body a fault may carry: room for the
	// oversized collections a budget check serves (tens of thousands of
	// records), far below what would strain the mock.
	MaxFaultBody = 32 << 20
	// maxFaultHeaders is how many headers one fault may add.
	maxFaultHeaders = 64
	// maxFaultHeaderValue is the longest header value a fault may add.
	maxFaultHeaderValue = 8 << 10
)

// ActiveFault is an injected fault as the control API lists it: its id, its
// journal name, the fault, how often it fired and how often it still will
// (nil: always).
type ActiveFault struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Fault
	Fired     int  `json:"fired"`
	Remaining *int `json:"remaining"`
}

// activeFault is an injected fault with its remaining count.
type activeFault struct {
	f     Fault
	id    int
	fired int
}

// view is the listed form of af.
func (af *activeFault) view() ActiveFault {
	v := ActiveFault{ID: af.id, Name: faultName(af), Fault: af.f, Fired: af.fired}
	v.Headers = cloneMap(af.f.Headers)
	if af.f.Times > 0 {
		left := af.f.Times - af.fired
		v.Remaining = &left
	}
	return v
}

// faultSet holds the injected faults in injection order.
type faultSet struct {
	mu     sync.Mutex
	nextID int
	faults []*activeFault
}

// add validates and stores f and returns its id.
func (fs *faultSet) add(f Fault) (int, error) {
	if err := validateFault(f); err != nil {
		return 0, err
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.nextID++
	f.Headers = cloneMap(f.Headers)
	fs.faults = append(fs.faults, &activeFault{f: f, id: fs.nextID})
	return fs.nextID, nil
}

// validateFault checks every field of f; the error names the field by its
// JSON name.
func validateFault(f Fault) error {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("inject fault: %s: %s", field, fmt.Sprintf(format, args...))
	}
	switch f.Kind {
	case FaultStatus, FaultReset, FaultTruncate, FaultMalformed, FaultOversized,
		FaultEmpty, FaultHTML, FaultBusinessError, FaultWrongContentType:
	default:
		return bad("kind", "unknown kind %q; want one of \"\", reset, truncate, malformed, oversized, empty, html, business_error, wrong_content_type", f.Kind)
	}
	if f.Method != "" && f.Method != "*" && !isToken(f.Method) {
		return bad("method", "%q is not an HTTP method", f.Method)
	}
	if f.Path == "" {
		return bad("path", "required, e.g. \"/api/v1/Status\" or \"/api/**\"")
	}
	if !strings.HasPrefix(f.Path, "/") {
		return bad("path", "%q must start with /", f.Path)
	}
	for _, seg := range strings.Split(f.Path, "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return bad("path", "bad glob %q: %v", f.Path, err)
		}
	}
	if f.Status != 0 && (f.Status < 200 || f.Status > 599) {
		return bad("status", "%d is out of range; want 0 (the kind's default) or 200-599", f.Status)
	}
	if f.DelayMS < 0 || time.Duration(f.DelayMS)*time.Millisecond > MaxFaultDelay {
		return bad("delay_ms", "%d is out of range; want 0-%d", f.DelayMS, MaxFaultDelay.Milliseconds())
	}
	if f.Chunked && f.Kind != FaultOversized {
		return bad("chunked", "only for kind oversized, not %q", f.Kind)
	}
	if f.Size < 0 || f.Size > MaxFaultSize {
		return bad("size", "%d is out of range; want 0-%d", f.Size, int64(MaxFaultSize))
	}
	if f.Times < 0 {
		return bad("times", "%d must not be negative (0 means always)", f.Times)
	}
	if len(f.Body) > MaxFaultBody {
		return bad("body", "%d bytes is longer than %d", len(f.Body), MaxFaultBody)
	}
	if len(f.Headers) > maxFaultHeaders {
		return bad("headers", "%d headers, at most %d", len(f.Headers), maxFaultHeaders)
	}
	seen := map[string]string{}
	names := make([]string, 0, len(f.Headers))
	for k := range f.Headers {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		v := f.Headers[k]
		field := "headers." + k
		if !isToken(k) {
			return bad(field, "%q is not a valid header name", k)
		}
		canon := http.CanonicalHeaderKey(k)
		if prev, ok := seen[canon]; ok {
			return bad(field, "given twice (as %q and %q); header names ignore case", prev, k)
		}
		seen[canon] = k
		if forbiddenFaultHeader(canon) {
			return bad(field, "%s is a hop-by-hop or framing header the mock sets itself; use kind truncate, oversized or reset to break framing", canon)
		}
		if len(v) > maxFaultHeaderValue {
			return bad(field, "value of %d bytes is longer than %d", len(v), maxFaultHeaderValue)
		}
		for i := 0; i < len(v); i++ {
			if c := v[i]; (c < 0x20 && c != '\t') || c == 0x7f {
				return bad(field, "value holds control character %#02x", c)
			}
		}
	}
	return nil
}

// forbiddenFaultHeader reports the headers a fault must not set: hop-by-hop
// headers and the ones that frame the message.
func forbiddenFaultHeader(canon string) bool {
	switch canon {
	case "Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authenticate", "Proxy-Authorization",
		"Te", "Trailer", "Transfer-Encoding", "Upgrade", "Content-Length", "Host":
		return true
	}
	return false
}

// isToken reports whether s is an RFC 9110 token (method and header names).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// list returns every live fault in injection order.
func (fs *faultSet) list() []ActiveFault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := make([]ActiveFault, 0, len(fs.faults))
	for _, af := range fs.faults {
		out = append(out, af.view())
	}
	return out
}

// get returns the live fault with id.
func (fs *faultSet) get(id int) (ActiveFault, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, af := range fs.faults {
		if af.id == id {
			return af.view(), true
		}
	}
	return ActiveFault{}, false
}

// remove deletes the live fault with id; false when there is none.
func (fs *faultSet) remove(id int) bool {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, af := range fs.faults {
		if af.id == id {
			fs.faults = slices.Delete(fs.faults, i, i+1)
			return true
		}
	}
	return false
}

// clear removes every fault; ids keep counting up.
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
		streamOversized(w, r, status(http.StatusOK), size, f.Chunked)
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
// goes away. Memory stays constant whatever the size. The length is
// announced unless chunked.
func streamOversized(w http.ResponseWriter, r *http.Request, status int, size int64, chunked bool) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	if !chunked {
		w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
	}
	w.WriteHeader(status)
	if chunked {
		// the header goes out now, without a length, however short the body
		_ = http.NewResponseController(w).Flush()
	}
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

package harness

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Bounds of what a wireLog keeps.
const (
	wireFrames    = 8       // frames written, newest kept
	wireFrameHead = 240     // bytes kept of each
	wireReadTail  = 600     // bytes kept of what was read
	wireLineMax   = 8 << 20 // longest frame read whose id is looked at
	wireShown     = 4       // unanswered and late requests named
)

// wireLog keeps the end of a session's traffic, with times, for the
// report of a server that did not answer: the last frames the harness
// wrote to the server (its stdin, or POSTs to its MCP endpoint), how much
// it read back, when it last did, and the last bytes. It shows whether a
// request left the harness, what came back last, and so which side the
// session waits on.
//
// It also pairs requests with answers by JSON-RPC id: a request written
// (a frame with a method and an id) is pending until a frame read carries
// its id and no method. So the report names the request the session waits
// on, and an answer that came only after the suite cancelled its request
// (the client sends notifications/cancelled when its deadline passes) is
// told apart from a server that was never asked.
type wireLog struct {
	start time.Time
	// to and from name the two directions: "stdin" and "stdout" for a
	// stdio session.
	to, from string

	read TailBuffer // what was read: its last wireReadTail bytes and its count

	mu        sync.Mutex
	sent      []wireFrame // ring of the last wireFrames frames
	sentN     int         // frames written in all
	lastRead  time.Duration
	lastWrite time.Duration
	// lastAsk is when the last frame other than a cancellation was written.
	lastAsk time.Duration

	pending   map[string]wireRequest   // requests with no answer read yet, by id
	cancelled map[string]time.Duration // requests the suite cancelled, when
	late      []wireLate               // answers read after their cancellation, the last wireShown
}

// wireFrame is one frame written: when, its size, its head and the
// write's error.
type wireFrame struct {
	at   time.Duration
	size int
	head string
	err  error
}

func newWireLog() *wireLog {
	return &wireLog{start: time.Now(), to: "stdin", from: "stdout", read: TailBuffer{Max: wireReadTail}}
}

// newHTTPWireLog is a wireLog for a Streamable HTTP session: every
// request body sent is a frame written, every response body is read.
func newHTTPWireLog() *wireLog {
	return &wireLog{start: time.Now(), to: "the MCP endpoint", from: "the MCP endpoint's answers", read: TailBuffer{Max: wireReadTail}}
}

// wireTransport records an HTTP session's traffic in a wireLog: each
// request (method, path and body) as a frame written as it is sent (and
// again with its error if it failed), and each response body as it is
// read.
type wireTransport struct {
	rt  http.RoundTripper
	log *wireLog
}

func (t wireTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	head := req.Method + " " + req.URL.Path
	var body []byte
	if req.GetBody != nil {
		if rc, err := req.GetBody(); err == nil {
			body, _ = io.ReadAll(io.LimitReader(rc, wireLineMax))
			_ = rc.Close()
		}
	}
	n := t.log.add(head, len(body), body)
	resp, err := t.rt.RoundTrip(req)
	if err != nil {
		t.log.failed(n, err)
	}
	if resp != nil {
		r := &wireReader{r: resp.Body, log: t.log, whole: true}
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			r.whole, r.events = false, true
		}
		resp.Body = wireBody{ReadCloser: resp.Body, r: r}
	}
	return resp, err
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the
// wrapped transport.
func (t wireTransport) CloseIdleConnections() {
	if c, ok := t.rt.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

type wireBody struct {
	io.ReadCloser
	r io.Reader
}

func (b wireBody) Read(p []byte) (int, error) { return b.r.Read(p) }

// reader records what is read from r, a stream of frames one per line.
func (l *wireLog) reader(r io.Reader) io.Reader { return &wireReader{r: r, log: l} }

// wrote records one frame about to be written (the SDK writes one frame
// per call), before it is written so that its answer cannot be read first;
// it returns the frame's number for failed.
func (l *wireLog) wrote(p []byte) int {
	return l.add("", len(p), p)
}

// add records one frame about to be written: its head (a prefix, for HTTP
// the method and path), its size and its JSON-RPC body.
func (l *wireLog) add(head string, size int, body []byte) int {
	head = strings.TrimSpace(head + " " + strings.TrimRight(string(body), "\n"))
	f := wireFrame{at: time.Since(l.start), size: size, head: clip(head, wireFrameHead)}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastWrite = f.at
	l.track(body, f.at)
	if len(l.sent) < wireFrames {
		l.sent = append(l.sent, f)
	} else {
		l.sent[l.sentN%wireFrames] = f
	}
	l.sentN++
	return l.sentN - 1
}

// failed records the error of writing frame n, if the log still keeps it.
func (l *wireLog) failed(n int, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n >= l.sentN-len(l.sent) {
		l.sent[n%wireFrames].err = err
	}
}

type wireReader struct {
	r      io.Reader
	log    *wireLog
	whole  bool
	events bool
	line   []byte
	over   bool // the current frame outgrew wireLineMax and is not looked at
}

func (r *wireReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n > 0 {
		l := r.log
		_, _ = l.read.Write(p[:n])
		l.mu.Lock()
		l.lastRead = time.Since(l.start)
		l.mu.Unlock()
		r.scan(p[:n])
	}
	if err != nil && len(r.line) > 0 {
		r.frame()
	}
	return n, err
}

// scan splits what was read into frames.
func (r *wireReader) scan(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if r.whole || i < 0 {
			r.grow(p)
			return
		}
		r.grow(p[:i])
		r.frame()
		p = p[i+1:]
	}
}

func (r *wireReader) grow(p []byte) {
	if r.over || len(r.line)+len(p) > wireLineMax {
		r.over, r.line = true, r.line[:0]
		return
	}
	r.line = append(r.line, p...)
}

// frame hands the frame gathered to the log and starts the next.
func (r *wireReader) frame() {
	line := r.line
	if r.events {
		line = bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
	}
	if !r.over {
		r.log.answered(line)
	}
	r.line, r.over = r.line[:0], false
}

// count is how many bytes were read.
func (l *wireLog) count() int64 { return l.read.Total() }

// String is the report: the frames written, oldest first, and the read
// side, times since the session started.
func (l *wireLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b strings.Builder
	now := time.Since(l.start)
	fmt.Fprintf(&b, "at +%s: %d frames written to %s", secs(now), l.sentN, l.to)
	if l.sentN > len(l.sent) {
		fmt.Fprintf(&b, ", the last %d:", len(l.sent))
	} else if l.sentN > 0 {
		b.WriteString(":")
	}
	for i := range l.sent {
		f := l.sent[(l.sentN-len(l.sent)+i)%len(l.sent)]
		fmt.Fprintf(&b, "\n  +%s %d B %s", secs(f.at), f.size, f.head)
		if f.err != nil {
			fmt.Fprintf(&b, " (write failed: %v)", f.err)
		}
	}
	n := l.read.Total()
	if n == 0 {
		fmt.Fprintf(&b, "\nnothing read from %s", l.from)
	} else {
		fmt.Fprintf(&b, "\n%d B read from %s, the last at +%s, ending: %s", n, l.from, secs(l.lastRead), strings.TrimRight(l.read.String(), "\n"))
	}
	l.waitingOn(&b, now, n)
	return b.String()
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3fs", d.Seconds()) }

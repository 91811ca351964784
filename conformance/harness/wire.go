package harness

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Bounds of what a wireLog keeps.
const (
	wireFrames    = 8   // frames written, newest kept
	wireFrameHead = 240 // bytes kept of each
	wireReadTail  = 600 // bytes kept of what was read
)

// wireLog keeps the end of a session's traffic, with times, for the
// report of a server that did not answer: the last frames the harness
// wrote to the server (its stdin, or POSTs to its MCP endpoint), how much
// it read back, when it last did, and the last bytes. It shows whether a
// request left the harness, what came back last, and so which side the
// session waits on.
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
}

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
	if req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			b, _ := io.ReadAll(io.LimitReader(body, wireFrameHead))
			_ = body.Close()
			head += " " + string(b)
		}
	}
	t.log.wrote([]byte(head), nil)
	resp, err := t.rt.RoundTrip(req)
	if err != nil {
		t.log.wrote([]byte(head), err)
	}
	if resp != nil {
		resp.Body = wireBody{ReadCloser: resp.Body, r: t.log.reader(resp.Body)}
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

// reader records what is read from r.
func (l *wireLog) reader(r io.Reader) io.Reader { return wireReader{r: r, log: l} }

// wrote records one frame written (the SDK writes one frame per call) and
// the write's error.
func (l *wireLog) wrote(p []byte, err error) {
	f := wireFrame{at: time.Since(l.start), size: len(p), head: clip(strings.TrimRight(string(p), "\n"), wireFrameHead), err: err}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastWrite = f.at
	if len(l.sent) < wireFrames {
		l.sent = append(l.sent, f)
	} else {
		l.sent[l.sentN%wireFrames] = f
	}
	l.sentN++
}

type wireReader struct {
	r   io.Reader
	log *wireLog
}

func (r wireReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n > 0 {
		l := r.log
		_, _ = l.read.Write(p[:n])
		l.mu.Lock()
		l.lastRead = time.Since(l.start)
		l.mu.Unlock()
	}
	return n, err
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
	switch {
	case l.sentN == 0:
	case n == 0:
		fmt.Fprintf(&b, "\nwaiting on the server: nothing came back at all; the suite wrote last at +%s", secs(l.lastWrite))
	case l.lastWrite >= l.lastRead:
		fmt.Fprintf(&b, "\nwaiting on the server: nothing came back for %s (since +%s), though the suite wrote after that, last at +%s", secs(now-l.lastRead), secs(l.lastRead), secs(l.lastWrite))
	default:
		fmt.Fprintf(&b, "\nwaiting on the suite: the server's side was read last (+%s) and the suite wrote nothing after it for %s", secs(l.lastRead), secs(now-l.lastRead))
	}
	return b.String()
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3fs", d.Seconds()) }

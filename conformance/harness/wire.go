package harness

import (
	"fmt"
	"io"
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

// wireLog keeps the end of a stdio session's traffic, with times, for the
// report of a server that did not answer: the last frames the harness
// wrote to the server's stdin, and how much it read from the server's
// stdout, when it last did, and the last bytes. It shows whether a request
// left the harness and what came back last.
type wireLog struct {
	start time.Time

	read TailBuffer // what was read: its last wireReadTail bytes and its count

	mu       sync.Mutex
	sent     []wireFrame // ring of the last wireFrames frames
	sentN    int         // frames written in all
	lastRead time.Duration
}

type wireFrame struct {
	at   time.Duration
	size int
	head string
	err  error
}

func newWireLog() *wireLog {
	return &wireLog{start: time.Now(), read: TailBuffer{Max: wireReadTail}}
}

// reader records what is read from r.
func (l *wireLog) reader(r io.Reader) io.Reader { return wireReader{r: r, log: l} }

// wrote records one frame written (the SDK writes one frame per call) and
// the write's error.
func (l *wireLog) wrote(p []byte, err error) {
	f := wireFrame{at: time.Since(l.start), size: len(p), head: clip(strings.TrimRight(string(p), "\n"), wireFrameHead), err: err}
	l.mu.Lock()
	defer l.mu.Unlock()
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
	fmt.Fprintf(&b, "at +%s: %d frames written to stdin", secs(now), l.sentN)
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
		b.WriteString("\nnothing read from stdout")
		return b.String()
	}
	fmt.Fprintf(&b, "\n%d B read from stdout, the last at +%s, ending: %s", n, secs(l.lastRead), strings.TrimRight(l.read.String(), "\n"))
	return b.String()
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3fs", d.Seconds()) }

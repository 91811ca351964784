package harness

import (
	"strings"
	"sync"
)

// TailBuffer is an io.Writer that keeps only the last Max bytes written to it.
// It is safe for concurrent use. The zero value keeps 64 KiB.
type TailBuffer struct {
	Max int // bytes kept; 0 = 64 KiB

	mu  sync.Mutex
	buf []byte
	n   int64 // total bytes ever written
}

// Write appends p, discarding the oldest bytes beyond Max.
func (b *TailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	limit := b.Max
	if limit <= 0 {
		limit = 64 << 10
	}
	b.n += int64(len(p))
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - limit; over > 0 {
		b.buf = append(b.buf[:0:0], b.buf[over:]...)
	}
	return len(p), nil
}

// Total is how many bytes were ever written.
func (b *TailBuffer) Total() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}

// Since returns what was written after the first total bytes, as far as
// it is still kept.
func (b *TailBuffer) Since(total int64) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	after := int(b.n - total)
	if after <= 0 {
		return ""
	}
	return string(b.buf[max(len(b.buf)-after, 0):])
}

// String returns everything kept.
func (b *TailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// Tail returns at most the last n lines kept, trimmed, or "(empty)".
func (b *TailBuffer) Tail(n int) string {
	s := strings.TrimSpace(b.String())
	if s == "" {
		return "(empty)"
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

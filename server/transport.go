package server

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFrameDepth bounds the JSON nesting of one inbound JSON-RPC frame. The
// SDK's decoder fails the whole session on a frame nested deeper than 1000
// levels; a guarded transport answers such a frame with a JSON-RPC
// invalid-params error instead and keeps serving. No tool input comes close:
// the deepest strict schema nests under ten levels.
const MaxFrameDepth = 128

// maxFrameBytes matches the SDK's default line cap for stdio frames.
const maxFrameBytes = mcp.DefaultMaxLineLength

// NewStdioTransport returns the newline-delimited JSON-RPC transport over in
// and out that the server runs on: the SDK's IOTransport behind a guard that
// refuses over-deep frames with a JSON-RPC error rather than ending the
// session.
func NewStdioTransport(in io.ReadCloser, out io.WriteCloser) mcp.Transport {
	w := &lockedWriter{w: out}
	return &mcp.IOTransport{Reader: &frameGuard{src: bufio.NewReaderSize(in, 64*1024), in: in, out: w}, Writer: w}
}

// lockedWriter serialises whole frames: the SDK writes one frame per call,
// and the guard writes its refusals through the same lock.
type lockedWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return l.w.Close() }

// frameGuard passes inbound frames through unchanged, except frames nested
// deeper than MaxFrameDepth, which it answers itself.
type frameGuard struct {
	src     *bufio.Reader
	in      io.Closer
	out     io.Writer
	pending []byte
}

func (g *frameGuard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		line, err := readFrame(g.src)
		if len(bytes.TrimSpace(line)) > 0 {
			if jsonDepth(line) > MaxFrameDepth {
				if werr := g.refuse(line); werr != nil {
					return 0, werr
				}
			} else {
				g.pending = line
			}
		}
		if err != nil {
			if len(g.pending) > 0 {
				break
			}
			return 0, err
		}
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

func (g *frameGuard) Close() error { return g.in.Close() }

// readFrame reads one line; a line longer than maxFrameBytes is returned
// whole up to the cap and then passed on, for the SDK to reject.
func readFrame(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) && len(buf) < maxFrameBytes {
			continue
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			return buf, nil
		}
		return buf, err
	}
}

// refuse answers an over-deep request with -32602; notifications get no
// answer.
func (g *frameGuard) refuse(line []byte) error {
	id, ok := topLevelID(line)
	if !ok {
		return nil
	}
	msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"message":"invalid params: JSON nested deeper than %d levels"}}`+"\n", id, MaxFrameDepth)
	_, err := io.WriteString(g.out, msg)
	return err
}

// jsonDepth returns the maximum nesting depth of arrays and objects in a JSON
// text, ignoring brackets inside strings.
func jsonDepth(b []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// topLevelID returns the raw JSON of the "id" member of the top-level object,
// when it is a number or a string.
func topLevelID(b []byte) (string, bool) {
	depth := 0
	inString, escaped := false, false
	keyStart := -1
	var lastKey string
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if depth == 1 && keyStart >= 0 {
					lastKey = string(b[keyStart:i])
					keyStart = -1
				}
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			if depth == 1 && expectingKey(b, i) {
				keyStart = i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ':':
			if depth == 1 && lastKey == "id" {
				return scanScalar(b[i+1:])
			}
		}
	}
	return "", false
}

// expectingKey reports whether the string starting at i is an object key:
// the previous significant byte is '{' or ','.
func expectingKey(b []byte, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch b[j] {
		case ' ', '\t', '\r', '\n':
			continue
		case '{', ',':
			return true
		default:
			return false
		}
	}
	return false
}

// scanScalar reads a JSON number or string value at the start of b.
func scanScalar(b []byte) (string, bool) {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return "", false
	}
	if b[0] == '"' {
		for i := 1; i < len(b); i++ {
			switch b[i] {
			case '\\':
				i++
			case '"':
				return string(b[:i+1]), true
			}
		}
		return "", false
	}
	end := bytes.IndexAny(b, ",} \t\r\n")
	if end <= 0 {
		return "", false
	}
	tok := b[:end]
	for _, c := range tok {
		if !(c >= '0' && c <= '9' || c == '-' || c == '.' || c == 'e' || c == 'E' || c == '+') {
			return "", false
		}
	}
	return string(tok), true
}

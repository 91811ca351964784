package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFrameDepth bounds the JSON nesting of one inbound JSON-RPC frame. The
// SDK's decoder fails the whole session on a frame nested deeper than 1000
// levels; the guard answers such a frame with a JSON-RPC invalid-params
// error instead and keeps serving. No tool input comes close: the deepest
// strict schema nests under ten levels.
const MaxFrameDepth = 128

// MaxFrameBytes bounds one inbound stdio frame (one line, its newline not
// counted). A longer frame is answered with -32600 "frame is over N bytes"
// and the session keeps serving; the rest of its line is read and dropped
// as it arrives, so a frame of any length costs at most this much memory.
// Valid tool inputs are a few KiB.
const MaxFrameBytes = 4 << 20

// drainTimeout bounds how long the guard, once stdin is exhausted, waits for
// the requests it handed on to be answered before it reports EOF. It is
// longer than any handler runs (the upstream deadline is at most 10
// minutes). Lines are read into a buffer that doubles up to growJumpBytes,
// then takes MaxFrameBytes at once; one over retainLineBytes is let go.
const (
	drainTimeout    = 15 * time.Minute
	growJumpBytes   = 256 << 10
	retainLineBytes = 1 << 20
)

// NewStdioTransport returns the newline-delimited JSON-RPC transport over in
// and out that the server runs on: the SDK's IOTransport behind a thin guard
// that
//
//   - answers itself, with a JSON-RPC error, every frame the SDK would fail
//     the session on or would answer under another id (-32700 for a line that
//     is not JSON, -32600 for JSON that is not one request, notification or
//     response object, for an id the SDK cannot echo exactly and for an id
//     already in flight, -32602 for a frame nested deeper than MaxFrameDepth,
//     -32600 for a frame over MaxFrameBytes), echoing the frame's id as sent,
//     and keeps serving; a UTF-8 byte order mark before a frame is ignored;
//   - hands every other frame to the SDK as it came, so the SDK answers it
//     under the client's own id;
//   - gives an error the SDK left without a code one, drops the response to
//     a request the client cancelled, and reports EOF to the SDK only once
//     every request handed on has been answered, so a client may pipe
//     requests and close stdin.
func NewStdioTransport(in io.ReadCloser, out io.WriteCloser) mcp.Transport {
	return &stdioGuard{
		src:      bufio.NewReaderSize(in, 64*1024),
		in:       in,
		out:      &frameWriter{out: out},
		inflight: map[jsonrpc.ID]bool{},
		changed:  make(chan struct{}, 1),
	}
}

// stdioGuard is the transport: it reads stdin for the SDK, one checked frame
// at a time, and keeps the ids of the requests it handed on until they are
// answered.
type stdioGuard struct {
	src     *bufio.Reader // read only by the SDK's read goroutine, as are line, pending and readErr
	in      io.Closer
	line    []byte // the frame being read
	pending []byte // frame not yet read by the SDK
	readErr error  // sticky: stdin is exhausted or broken
	out     *frameWriter

	mu       sync.Mutex
	inflight map[jsonrpc.ID]bool // requests handed on and not answered: whether cancelled
	closed   bool
	changed  chan struct{} // poked when inflight shrinks or the guard closes
}

func (g *stdioGuard) Connect(ctx context.Context) (mcp.Connection, error) {
	// The guard hands on no frame over MaxFrameBytes; the SDK's cap is a
	// backstop.
	c, err := (&mcp.IOTransport{Reader: g, Writer: g.out, MaxLineLength: 2 * MaxFrameBytes}).Connect(ctx)
	if err != nil {
		return nil, err
	}
	return guardedConn{c, g}, nil
}

func (g *stdioGuard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		if g.readErr != nil {
			if errors.Is(g.readErr, io.EOF) {
				g.drain()
			}
			return 0, g.readErr
		}
		line, size, err := g.readLine()
		if err != nil {
			g.readErr = err
		}
		var werr error
		if size > MaxFrameBytes {
			werr = g.refuseOversize(line, size)
		} else {
			g.pending, werr = g.admit(line)
		}
		if cap(g.line) > retainLineBytes {
			g.line = nil
		}
		if werr != nil {
			g.readErr = werr
			return 0, werr
		}
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// Close closes stdin and ends a drain in progress.
func (g *stdioGuard) Close() error {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.poke()
	return g.in.Close()
}

func (g *stdioGuard) poke() {
	select {
	case g.changed <- struct{}{}:
	default:
	}
}

// drain waits until every request handed to the SDK has been answered, the
// transport is closed, or drainTimeout has passed. When stdout fails the SDK
// stops writing answers, and closes the transport once its handlers are done.
func (g *stdioGuard) drain() {
	timer := time.NewTimer(drainTimeout)
	defer timer.Stop()
	for {
		g.mu.Lock()
		done := len(g.inflight) == 0 || g.closed
		g.mu.Unlock()
		if done {
			return
		}
		select {
		case <-g.changed:
		case <-timer.C:
			return
		}
	}
}

// readLine reads the next line and returns it without its newline, with the
// line's full length. At most MaxFrameBytes bytes are kept: the rest of a
// longer line is read and dropped as it arrives.
func (g *stdioGuard) readLine() ([]byte, int, error) {
	g.line = g.line[:0]
	size := 0
	for {
		chunk, err := g.src.ReadSlice('\n')
		if err == nil {
			chunk = chunk[:len(chunk)-1]
		}
		size += len(chunk)
		keep := chunk[:min(MaxFrameBytes-len(g.line), len(chunk))]
		if need := len(g.line) + len(keep); need > cap(g.line) {
			c := max(2*cap(g.line), need)
			if c > growJumpBytes {
				c = MaxFrameBytes
			}
			g.line = append(make([]byte, 0, c), g.line...)
		}
		g.line = append(g.line, keep...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return g.line, size, err
		}
	}
}

// admit checks one frame. It returns the frame to hand to the SDK, as it
// came, or nil when the guard answered the frame itself or drops it; the
// error is a failure to write that answer.
func (g *stdioGuard) admit(line []byte) ([]byte, error) {
	line = trimFrame(line)
	if len(line) == 0 {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil || m == nil {
		var syntax *json.SyntaxError
		switch {
		case errors.As(err, &syntax):
			return nil, g.refuse(nil, jsonrpc.CodeParseError, "parse error: frame is not valid JSON")
		case line[0] == '[':
			return nil, g.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batch arrays are not supported (MCP 2025-11-25); send one message object per line")
		}
		return nil, g.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: frame is not a JSON-RPC message object")
	}
	rawID, method := m["id"], m["method"]
	isCall := method != nil
	isResponse := !isCall && (m["result"] != nil || m["error"] != nil)
	var id []byte // the id an answer echoes: null for a response, or an id not a string or number
	if !isResponse && usableID(rawID) {
		id = rawID
	}
	depth, members := frameShape(line)
	var version string
	switch {
	case depth > MaxFrameDepth && id == nil:
		return nil, nil // nothing to answer, as for any notification
	case depth > MaxFrameDepth:
		return nil, g.refuse(id, jsonrpc.CodeInvalidParams, fmt.Sprintf("invalid params: JSON nested deeper than %d levels", MaxFrameDepth))
	case members != len(m):
		return nil, g.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: duplicate member")
	case json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0":
		return nil, g.refuse(id, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	case rawID != nil && !usableID(rawID):
		return nil, g.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: id must be a string or an integer")
	case !isCall && !isResponse:
		return nil, g.refuse(id, jsonrpc.CodeInvalidRequest, `invalid request: "method" is missing`)
	case isResponse && (rawID == nil || m["result"] != nil && m["error"] != nil):
		return nil, g.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: a response carries an id and exactly one of result or error")
	case isCall && (method[0] != '"' || len(method) == 2):
		return nil, g.refuse(id, jsonrpc.CodeInvalidRequest, `invalid request: "method" must be a non-empty string`)
	}
	key, carried := carriedID(rawID)
	switch {
	case isResponse && !carried:
		return nil, nil // answers nothing: the SDK's own requests have integer ids
	case rawID != nil && !carried:
		return nil, g.refuse(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: id %s cannot be echoed exactly; send a string or an integer of at most 2^53 in magnitude", id))
	}
	// What the checks above let through, the SDK's decoder takes; this
	// makes sure of it.
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return nil, g.refuse(id, jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
	}
	cancel := string(method) == `"notifications/cancelled"`
	switch {
	case isResponse:
	case rawID == nil && cancel && !g.cancel(m["params"]):
		return nil, nil
	case rawID == nil:
	case cancel:
		return nil, g.refuse(id, jsonrpc.CodeInvalidRequest, "invalid request: notifications/cancelled is a notification and takes no id")
	case !g.handOn(key):
		return nil, g.refuse(id, jsonrpc.CodeInvalidRequest, "invalid request: request id already in use by a request in flight")
	}
	return append(line, '\n'), nil
}

// handOn records a request handed to the SDK, unless its id is in flight.
func (g *stdioGuard) handOn(id jsonrpc.ID) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, busy := g.inflight[id]; busy {
		return false
	}
	g.inflight[id] = false
	return true
}

// cancel marks the request a notifications/cancelled names, so that its
// response is not sent. It reports whether the notification goes on to the
// SDK: not when it names an id the SDK would read as another.
func (g *stdioGuard) cancel(params json.RawMessage) bool {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil || p["requestId"] == nil {
		return true
	}
	id, ok := carriedID(p["requestId"])
	if ok {
		g.mu.Lock()
		if _, inflight := g.inflight[id]; inflight {
			g.inflight[id] = true
		}
		g.mu.Unlock()
	}
	return ok
}

// answered forgets a request as its response goes out, and reports whether
// the client cancelled it.
func (g *stdioGuard) answered(id jsonrpc.ID) (cancelled, known bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	cancelled, known = g.inflight[id]
	delete(g.inflight, id)
	return cancelled, known
}

// refuse writes the guard's own error answer; id nil is written as null.
func (g *stdioGuard) refuse(id []byte, code int64, message string) error {
	if id == nil {
		id = []byte("null")
	}
	msg, _ := json.Marshal(message)
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	b = strconv.AppendInt(append(b, `,"error":{"code":`...), code, 10)
	b = append(append(append(b, `,"message":`...), msg...), "}}\n"...)
	return g.out.writeFrame(b)
}

// refuseOversize answers a frame over MaxFrameBytes. Its id is echoed when
// it shows in the frame's first 64 KiB.
func (g *stdioGuard) refuseOversize(head []byte, size int) error {
	var id []byte
	if raw, ok := topLevelID(trimFrame(head[:min(len(head), 64<<10)])); ok {
		id = []byte(raw)
	}
	return g.refuse(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: frame is over %d bytes (%d bytes); it was discarded", MaxFrameBytes, size))
}

// guardedConn is the SDK's connection with the outbound side of the guard.
type guardedConn struct {
	mcp.Connection
	g *stdioGuard
}

// Write sends a response to a request the client cancelled nowhere, and an
// error the SDK did not classify with a JSON-RPC code.
func (c guardedConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return c.Connection.Write(ctx, msg)
	}
	cancelled, known := c.g.answered(resp.ID)
	if known {
		defer c.g.poke()
	}
	if cancelled {
		return nil
	}
	return c.Connection.Write(ctx, withCode(resp))
}

// withCode gives an error response the SDK would write with code 0 (its
// code for an error it did not classify) a JSON-RPC code.
func withCode(resp *jsonrpc.Response) *jsonrpc.Response {
	if resp.Error == nil {
		return resp
	}
	var wire *jsonrpc.Error
	if errors.As(resp.Error, &wire) && wire.Code != 0 {
		return resp
	}
	coded := *resp
	coded.Error = &jsonrpc.Error{Code: uncodedErrorCode(resp.Error.Error()), Message: resp.Error.Error()}
	return &coded
}

// uncodedErrorCode classifies the SDK's errors that carry no code: requests
// out of session order are invalid requests, a missing params member is
// invalid params, anything else is an internal error.
func uncodedErrorCode(message string) int64 {
	switch {
	case strings.Contains(message, "invalid during session initialization"),
		strings.Contains(message, `duplicate "initialize"`),
		strings.Contains(message, `duplicate "notifications/initialized"`):
		return jsonrpc.CodeInvalidRequest
	case strings.Contains(message, `missing required "params"`):
		return jsonrpc.CodeInvalidParams
	}
	return jsonrpc.CodeInternalError
}

// frameWriter is stdout, shared by the SDK and the guard's own answers. The
// SDK writes its frames one after another, each ending in a newline; mu is
// held from a frame's first byte to its newline, so an answer of the guard
// never lands inside one.
type frameWriter struct {
	out  io.WriteCloser
	mu   sync.Mutex
	open bool // the SDK is part way through a frame and holds mu
}

func (w *frameWriter) Write(p []byte) (int, error) {
	if !w.open {
		w.mu.Lock()
		w.open = true
	}
	n, err := w.out.Write(p)
	if err != nil || bytes.HasSuffix(p, []byte("\n")) {
		w.open = false
		w.mu.Unlock()
	}
	return n, err
}

func (w *frameWriter) writeFrame(b []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err := w.out.Write(b)
	return err
}

func (w *frameWriter) Close() error { return w.out.Close() }

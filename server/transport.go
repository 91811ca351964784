package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFrameDepth bounds the JSON nesting of one inbound JSON-RPC frame. The
// SDK's decoder fails the whole session on a frame nested deeper than 1000
// levels; a guarded transport answers such a frame with a JSON-RPC
// invalid-params error instead and keeps serving. No tool input comes close:
// the deepest strict schema nests under ten levels.
const MaxFrameDepth = 128

// MaxFrameBytes bounds one inbound stdio frame (one line, its newline not
// counted). A longer frame is answered with -32600 "frame is over N bytes"
// and the session keeps serving; the rest of its line is read and dropped
// as it arrives, so a frame of any length costs at most this much memory.
// Valid tool inputs are a few KiB.
const MaxFrameBytes = 4 << 20

// drainTimeout bounds how long the transport waits, once stdin is
// exhausted, for the requests it has already received to be answered before
// it reports EOF and the session ends. It is longer than any handler runs
// (the upstream deadline is at most 10 minutes); it only matters if the SDK
// drops a response without writing it.
const drainTimeout = 15 * time.Minute

// retainLineBytes is the largest line buffer kept between frames; a larger
// one, grown for a big frame, is let go. growJumpBytes is where the line
// buffer stops doubling and is given MaxFrameBytes at once.
const (
	retainLineBytes = 1 << 20
	growJumpBytes   = 256 << 10
)

var utf8BOM = []byte("\xef\xbb\xbf")

// NewStdioTransport returns the newline-delimited JSON-RPC transport over in
// and out that the server runs on: the SDK's IOTransport behind a guard
// (stdioGuard) that
//
//   - answers every malformed frame itself with a JSON-RPC error (-32700 for
//     a line that is not JSON, -32600 for JSON that is not one request,
//     notification or response object, -32602 for a frame nested deeper than
//     MaxFrameDepth, -32600 for a frame over MaxFrameBytes) and keeps
//     serving; a UTF-8 byte order mark before a frame is ignored;
//   - hands the SDK only frames it has validated and rebuilt, with every
//     request id replaced by a synthetic integer, and puts the client's id
//     back, byte for byte, into the response the SDK writes (the SDK writes
//     one frame per Write call); an error the SDK left without a code is
//     given one;
//   - reports EOF to the SDK only once every request it received has been
//     answered, so a client may pipe requests and close stdin.
func NewStdioTransport(in io.ReadCloser, out io.WriteCloser) mcp.Transport {
	g := &stdioGuard{
		src:          bufio.NewReaderSize(in, 64*1024),
		in:           in,
		out:          out,
		inflight:     map[int64]*inflightRequest{},
		byKey:        map[string]int64{},
		changed:      make(chan struct{}, 1),
		drainTimeout: drainTimeout,
	}
	// The guard never hands on a frame over MaxFrameBytes plus a rebuilt
	// envelope; the SDK's own cap is a backstop.
	return &mcp.IOTransport{Reader: g, Writer: responseWriter{g}, MaxLineLength: 2 * MaxFrameBytes}
}

// stdioGuard is the inbound side of the stdio transport (the SDK reads
// canonical frames from it) and owns the id map the outbound side
// (responseWriter) consults.
type stdioGuard struct {
	// Reader side: used only by the SDK's read goroutine.
	src     *bufio.Reader
	in      io.Closer
	line    []byte // the frame being read
	pending []byte // canonical frame not yet read by the SDK
	readErr error  // sticky: stdin is exhausted or broken

	wmu sync.Mutex // serialises whole frames on out
	out io.WriteCloser

	mu           sync.Mutex
	next         int64                      // last synthetic id handed out
	inflight     map[int64]*inflightRequest // synthetic id -> request
	byKey        map[string]int64           // idKey of a client id -> synthetic id, while unanswered
	closed       bool
	writeErr     error
	changed      chan struct{} // poked when inflight shrinks or the guard closes
	drainTimeout time.Duration
}

// inflightRequest is a request handed to the SDK and not yet answered.
type inflightRequest struct {
	raw       []byte // the id exactly as the client sent it
	key       string
	cancelled bool // the client cancelled it: its response is not sent
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
// transport is closed, stdout has failed, or drainTimeout has passed.
func (g *stdioGuard) drain() {
	timer := time.NewTimer(g.drainTimeout)
	defer timer.Stop()
	for {
		g.mu.Lock()
		done := len(g.inflight) == 0 || g.closed || g.writeErr != nil
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
		if keep := min(MaxFrameBytes-len(g.line), len(chunk)); keep > 0 {
			if need := len(g.line) + keep; need > cap(g.line) {
				// Double small lines; past growJumpBytes go straight to the
				// cap rather than copying a big line again and again.
				c := max(2*cap(g.line), need)
				if c > growJumpBytes {
					c = MaxFrameBytes
				}
				grown := make([]byte, len(g.line), c)
				copy(grown, g.line)
				g.line = grown
			}
			g.line = append(g.line, chunk[:keep]...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return g.line, size, err
		}
	}
}

// admit checks one frame. It returns the canonical frame to hand to the SDK,
// or nil when the guard answered the frame itself or drops it; the error is
// a failure to write that answer.
func (g *stdioGuard) admit(line []byte) ([]byte, error) {
	line = trimFrame(line)
	if len(line) == 0 {
		return nil, nil
	}
	if !json.Valid(line) {
		return nil, g.refuse(nil, jsonrpc.CodeParseError, "parse error: frame is not valid JSON")
	}
	switch line[0] {
	case '{':
	case '[':
		return nil, g.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batch arrays are not supported (MCP 2025-11-25); send one message object per line")
	default:
		return nil, g.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: frame is not a JSON-RPC message object")
	}
	if jsonDepth(line) > MaxFrameDepth {
		// An over-deep notification is dropped: it has no id to answer.
		if id, ok := topLevelID(line); ok {
			return nil, g.refuse([]byte(id), jsonrpc.CodeInvalidParams, fmt.Sprintf("invalid params: JSON nested deeper than %d levels", MaxFrameDepth))
		}
		return nil, nil
	}
	var m frameMembers
	if !m.parse(line) {
		return nil, g.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: frame is not a JSON-RPC message object")
	}
	if m.dup != "" {
		return nil, g.refuse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: duplicate member %q", m.dup))
	}
	var id []byte // the client's id when it is usable
	if m.id != nil && usableID(m.id) {
		id = m.id
	}
	if m.jsonrpc == nil || m.jsonrpc[0] != '"' || decodeString(m.jsonrpc) != "2.0" {
		return nil, g.refuse(id, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	if m.id != nil && id == nil {
		return nil, g.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: id must be a string or a number")
	}
	if m.method == nil {
		if m.result != nil || m.err != nil {
			return g.admitResponse(&m)
		}
		return nil, g.refuse(id, jsonrpc.CodeInvalidRequest, `invalid request: "method" is missing`)
	}
	if m.method[0] != '"' {
		return nil, g.refuse(id, jsonrpc.CodeInvalidRequest, `invalid request: "method" must be a string`)
	}
	method := decodeString(m.method)
	methodJSON, _ := json.Marshal(method) // clean UTF-8 for the SDK's decoder
	if method == "notifications/cancelled" {
		if id != nil {
			return nil, g.refuse(id, jsonrpc.CodeInvalidRequest, "invalid request: notifications/cancelled is a notification and takes no id")
		}
		return g.admitCancel(methodJSON, m.params), nil
	}
	if id == nil {
		return canonicalMessage(0, methodJSON, m.params), nil
	}
	key := idKey(id)
	g.mu.Lock()
	if _, busy := g.byKey[key]; busy {
		g.mu.Unlock()
		return nil, g.refuse(id, jsonrpc.CodeInvalidRequest, "invalid request: request id already in use by a request in flight")
	}
	g.next++
	syn := g.next
	g.inflight[syn] = &inflightRequest{raw: bytes.Clone(id), key: key}
	g.byKey[key] = syn
	g.mu.Unlock()
	return canonicalMessage(syn, methodJSON, m.params), nil
}

// admitResponse checks a client's response to a server-to-client request.
// The SDK issues integer ids, so a response with any other id answers
// nothing and is dropped.
func (g *stdioGuard) admitResponse(m *frameMembers) ([]byte, error) {
	if m.id == nil || (m.result != nil) == (m.err != nil) {
		return nil, g.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: a response carries an id and exactly one of result or error")
	}
	var errJSON []byte
	if m.err != nil {
		var ok bool
		if errJSON, ok = canonicalWireError(m.err); !ok {
			return nil, g.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: a response error is an object with an integer code and a string message")
		}
	}
	n, err := strconv.ParseInt(string(m.id), 10, 64)
	if err != nil {
		return nil, nil
	}
	b := append([]byte(`{"jsonrpc":"2.0","id":`), strconv.FormatInt(n, 10)...)
	if m.err != nil {
		b = append(append(b, `,"error":`...), errJSON...)
	} else {
		b = append(append(b, `,"result":`...), m.result...)
	}
	return append(b, "}\n"...), nil
}

// admitCancel rewrites a notifications/cancelled to name the synthetic id of
// the request it cancels, and marks that request so its response is not
// sent. A cancellation of anything else is a no-op and is dropped: it must
// not reach a request that merely shares a synthetic id with it.
func (g *stdioGuard) admitCancel(methodJSON, params []byte) []byte {
	if len(params) == 0 || params[0] != '{' {
		return nil
	}
	start, end := -1, -1
	objectMembers(params, func(key string, s, e int) {
		if key == "requestId" && start < 0 {
			start, end = s, e
		}
	})
	if start < 0 || !usableID(params[start:end]) {
		return nil
	}
	g.mu.Lock()
	syn, ok := g.byKey[idKey(params[start:end])]
	if ok {
		g.inflight[syn].cancelled = true
	}
	g.mu.Unlock()
	if !ok {
		return nil
	}
	rewritten := slices.Concat(params[:start], strconv.AppendInt(nil, syn, 10), params[end:])
	return canonicalMessage(0, methodJSON, rewritten)
}

// refuse writes the guard's own error answer; id nil is written as null.
func (g *stdioGuard) refuse(id []byte, code int64, message string) error {
	if id == nil {
		id = []byte("null")
	}
	msg, _ := json.Marshal(message)
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, code, 10)
	b = append(append(append(b, `,"message":`...), msg...), "}}\n"...)
	g.wmu.Lock()
	defer g.wmu.Unlock()
	_, err := g.out.Write(b)
	return err
}

// refuseOversize answers a frame over MaxFrameBytes. Its id is echoed when
// the kept head of the frame shows one at the top level of an object.
func (g *stdioGuard) refuseOversize(head []byte, size int) error {
	var id []byte
	head = trimFrame(head)
	if len(head) > 0 && head[0] == '{' {
		if raw, ok := topLevelID(head); ok {
			id = []byte(raw)
		}
	}
	return g.refuse(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: frame is over %d bytes (%d bytes); it was discarded", MaxFrameBytes, size))
}

// responseWriter is the outbound side: the SDK writes one frame per call.
type responseWriter struct{ g *stdioGuard }

func (w responseWriter) Write(p []byte) (int, error) {
	g := w.g
	frame, syn := g.restore(p)
	var err error
	if frame != nil {
		g.wmu.Lock()
		_, err = g.out.Write(frame)
		g.wmu.Unlock()
	}
	if syn != 0 {
		g.mu.Lock()
		delete(g.inflight, syn)
		if err != nil && g.writeErr == nil {
			g.writeErr = err
		}
		g.mu.Unlock()
		g.poke()
	}
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w responseWriter) Close() error { return w.g.out.Close() }

// restore maps an outbound response back to the client's id. It returns the
// frame to write (nil to suppress the response to a cancelled request) and
// the synthetic id it answered, 0 for frames that are not responses to a
// request the guard handed on (server-to-client requests, notifications),
// which pass through unchanged.
func (g *stdioGuard) restore(p []byte) ([]byte, int64) {
	body := bytes.TrimRight(p, "\r\n")
	idStart, idEnd, errStart, errEnd := -1, -1, -1, -1
	hasMethod := false
	ok := objectMembers(body, func(key string, s, e int) {
		switch key {
		case "id":
			idStart, idEnd = s, e
		case "method":
			hasMethod = true
		case "error":
			errStart, errEnd = s, e
		}
	})
	if !ok || hasMethod || idStart < 0 {
		return p, 0
	}
	syn, err := strconv.ParseInt(string(body[idStart:idEnd]), 10, 64)
	if err != nil {
		return p, 0
	}
	g.mu.Lock()
	req := g.inflight[syn]
	var raw []byte
	cancelled := false
	if req != nil {
		raw, cancelled = req.raw, req.cancelled
		// Free the client's id before the answer is out: the client may
		// reuse it as soon as it reads the answer.
		if g.byKey[req.key] == syn {
			delete(g.byKey, req.key)
		}
	}
	g.mu.Unlock()
	if req == nil {
		return p, 0
	}
	if cancelled {
		return nil, syn
	}
	edits := []edit{{idStart, idEnd, raw}}
	if errStart >= 0 {
		if e, ok := codeEdit(body[errStart:errEnd]); ok {
			e.start += errStart
			e.end += errStart
			edits = append(edits, e)
		}
	}
	return append(splice(body, edits), '\n'), syn
}

// codeEdit gives an error object that carries code 0 (the SDK's code for an
// error it did not classify) a JSON-RPC code.
func codeEdit(errObj []byte) (edit, bool) {
	cs, ce, ms, me := -1, -1, -1, -1
	objectMembers(errObj, func(key string, s, e int) {
		switch key {
		case "code":
			cs, ce = s, e
		case "message":
			ms, me = s, e
		}
	})
	if cs < 0 || string(errObj[cs:ce]) != "0" {
		return edit{}, false
	}
	var message string
	if ms >= 0 && errObj[ms] == '"' {
		message = decodeString(errObj[ms:me])
	}
	return edit{cs, ce, strconv.AppendInt(nil, uncodedErrorCode(message), 10)}, true
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

// canonicalMessage builds the frame handed to the SDK: a request with
// synthetic id syn, or a notification when syn is 0.
func canonicalMessage(syn int64, methodJSON, params []byte) []byte {
	b := make([]byte, 0, len(methodJSON)+len(params)+64)
	b = append(b, `{"jsonrpc":"2.0"`...)
	if syn != 0 {
		b = strconv.AppendInt(append(b, `,"id":`...), syn, 10)
	}
	b = append(append(b, `,"method":`...), methodJSON...)
	if params != nil {
		b = append(append(b, `,"params":`...), params...)
	}
	return append(b, "}\n"...)
}

// canonicalWireError rebuilds a client's response error object as the SDK
// decodes it: an integer code, a string message and optional data.
func canonicalWireError(raw []byte) ([]byte, bool) {
	if raw[0] != '{' {
		return nil, false
	}
	var code, message, data []byte
	objectMembers(raw, func(key string, s, e int) {
		switch key {
		case "code":
			code = raw[s:e]
		case "message":
			message = raw[s:e]
		case "data":
			data = raw[s:e]
		}
	})
	if code == nil || message == nil || message[0] != '"' {
		return nil, false
	}
	n, err := strconv.ParseInt(string(code), 10, 64)
	if err != nil {
		return nil, false
	}
	msg, _ := json.Marshal(decodeString(message))
	b := strconv.AppendInt([]byte(`{"code":`), n, 10)
	b = append(append(b, `,"message":`...), msg...)
	if data != nil {
		b = append(append(b, `,"data":`...), data...)
	}
	return append(b, '}'), true
}

// frameMembers are the raw values of the JSON-RPC members of one frame, nil
// when absent; other members are ignored.
type frameMembers struct {
	jsonrpc, id, method, params, result, err []byte
	dup                                      string // a member given twice
}

func (m *frameMembers) parse(b []byte) bool {
	return objectMembers(b, func(key string, s, e int) {
		var slot *[]byte
		switch key {
		case "jsonrpc":
			slot = &m.jsonrpc
		case "id":
			slot = &m.id
		case "method":
			slot = &m.method
		case "params":
			slot = &m.params
		case "result":
			slot = &m.result
		case "error":
			slot = &m.err
		default:
			return
		}
		if *slot != nil && m.dup == "" {
			m.dup = key
		}
		*slot = b[s:e]
	})
}

// trimFrame drops a leading UTF-8 byte order mark and surrounding JSON
// whitespace.
func trimFrame(b []byte) []byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	b = bytes.TrimPrefix(b, utf8BOM)
	return bytes.Trim(b, " \t\r\n")
}

// usableID reports whether a raw JSON value is a request id this transport
// echoes: a string or a number.
func usableID(raw []byte) bool {
	return len(raw) > 0 && (raw[0] == '"' || raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9')
}

// idKey identifies a client id: strings by their decoded value, numbers by
// their text.
func idKey(raw []byte) string {
	if raw[0] == '"' {
		return "s" + decodeString(raw)
	}
	return "n" + string(raw)
}

// decodeString decodes a raw JSON string.
func decodeString(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 && len(raw) >= 2 {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// edit replaces b[start:end] with repl.
type edit struct {
	start, end int
	repl       []byte
}

func splice(b []byte, edits []edit) []byte {
	slices.SortFunc(edits, func(a, b edit) int { return a.start - b.start })
	out := make([]byte, 0, len(b)+64)
	at := 0
	for _, e := range edits {
		out = append(append(out, b[at:e.start]...), e.repl...)
		at = e.end
	}
	return append(out, b[at:]...)
}

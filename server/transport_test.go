package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestJSONDepth(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{`{}`, 1},
		{`{"a":[1,{"b":2}]}`, 3},
		{`{"a":"[[[[{{{{"}`, 1},
		{`{"a":"\"[[["}`, 1},
		{strings.Repeat("[", 2000) + strings.Repeat("]", 2000), 2000},
	}
	for _, tt := range tests {
		if got := jsonDepth([]byte(tt.in)); got != tt.want {
			t.Errorf("jsonDepth(%.40q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestTopLevelID(t *testing.T) {
	tests := []struct {
		in     string
		want   string
		wantOK bool
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"x"}`, "7", true},
		{`{"jsonrpc":"2.0","method":"x","params":{"id":9},"id":"abc"}`, `"abc"`, true},
		{`{"params":{"id":9},"method":"notifications/x"}`, "", false},
		{`{"method":"x","params":{"q":"\"id\":5"},"id": 12 }`, "12", true},
		{`{"id":null}`, "", false},
	}
	for _, tt := range tests {
		got, ok := topLevelID([]byte(tt.in))
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("topLevelID(%s) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

// ---- stdio contract harness ----

// testFrameCap is the documented inbound frame cap the contract holds the
// transport to.
const testFrameCap = MaxFrameBytes

const initFrame = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"transport-test","version":"0"}}}`

const initializedFrame = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// wireResp is one outbound frame as a client sees it; ID keeps the exact
// bytes of the id.
type wireResp struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	line string
}

func (r wireResp) String() string { return strings.TrimSpace(r.line) }

// stdioPeer drives a server over NewStdioTransport through pipes, the way a
// client process drives ombi-mcp over stdin/stdout.
type stdioPeer struct {
	t         testing.TB
	transport mcp.Transport
	sendq     chan io.Reader
	lines     chan wireResp
	done      chan struct{} // closed when Server.Run has returned
	runErr    error         // what Server.Run returned
	cancel    context.CancelFunc
	closeOnce sync.Once
}

func newTransportServer(t testing.TB) *mcp.Server {
	t.Helper()
	s, err := New(Options{URL: "http://127.0.0.1:1", AuthMode: AuthAPIKey, APIKey: "k-transport-test", Timeout: 2 * time.Second})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s
}

func startPeer(t testing.TB, s *mcp.Server) *stdioPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	p := &stdioPeer{
		t:         t,
		transport: NewStdioTransport(inR, outW),
		sendq:     make(chan io.Reader, 64),
		lines:     make(chan wireResp, 1024),
		done:      make(chan struct{}),
		cancel:    cancel,
	}
	go func() { // stdin: frames in order, then EOF
		for r := range p.sendq {
			_, _ = io.Copy(inW, r)
		}
		_ = inW.Close()
	}()
	go func() { // stdout
		defer close(p.lines)
		br := bufio.NewReader(outR)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				var r wireResp
				if jerr := json.Unmarshal(line, &r); jerr != nil {
					r.Method = "<unparsable output>"
				}
				r.line = string(line)
				p.lines <- r
			}
			if err != nil {
				_, _ = io.Copy(io.Discard, outR)
				return
			}
		}
	}()
	go func() {
		p.runErr = s.Run(ctx, p.transport)
		_ = outW.Close()
		_ = inR.Close()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.closeStdin()
		cancel()
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			t.Errorf("server did not stop")
		}
	})
	return p
}

func (p *stdioPeer) send(frames ...string) {
	for _, f := range frames {
		p.sendq <- strings.NewReader(f + "\n")
	}
}

func (p *stdioPeer) sendReader(r io.Reader) { p.sendq <- r }

func (p *stdioPeer) closeStdin() { p.closeOnce.Do(func() { close(p.sendq) }) }

// wait returns what Server.Run returned, or an error if it has not
// returned within timeout.
func (p *stdioPeer) wait(timeout time.Duration) error {
	select {
	case <-p.done:
		return p.runErr
	case <-time.After(timeout):
		return fmt.Errorf("server.Run did not return within %v", timeout)
	}
}

// until collects outbound frames until one has the raw id want, and reports
// whether it arrived before the session ended or the timeout.
func (p *stdioPeer) until(want string, timeout time.Duration) ([]wireResp, bool) {
	var got []wireResp
	deadline := time.After(timeout)
	for {
		select {
		case r, ok := <-p.lines:
			if !ok {
				return got, false
			}
			got = append(got, r)
			if r.Method == "" && string(r.ID) == want {
				return got, true
			}
		case <-deadline:
			return got, false
		}
	}
}

// rest collects every outbound frame until stdout closes.
func (p *stdioPeer) rest(timeout time.Duration) ([]wireResp, bool) {
	var got []wireResp
	deadline := time.After(timeout)
	for {
		select {
		case r, ok := <-p.lines:
			if !ok {
				return got, true
			}
			got = append(got, r)
		case <-deadline:
			return got, false
		}
	}
}

func (p *stdioPeer) initialize(t testing.TB) {
	t.Helper()
	p.send(initFrame, initializedFrame)
	got, ok := p.until(`"init"`, 5*time.Second)
	if !ok || got[len(got)-1].Error != nil {
		t.Fatalf("initialize not answered: %v", got)
	}
}

func ping(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` }

// repeatReader yields n bytes: prefix, then fill bytes, then suffix, without
// holding the whole frame in memory.
type repeatReader struct {
	prefix, suffix string
	fill           byte
	n, off         int
}

func frameOf(prefix string, fill byte, suffix string, n int) *repeatReader {
	return &repeatReader{prefix: prefix, suffix: suffix, fill: fill, n: n}
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.off >= r.n {
		return 0, io.EOF
	}
	i := 0
	for i < len(p) && r.off < r.n {
		switch {
		case r.off < len(r.prefix):
			p[i] = r.prefix[r.off]
		case r.off >= r.n-len(r.suffix):
			p[i] = r.suffix[r.off-(r.n-len(r.suffix))]
		default:
			p[i] = r.fill
		}
		i++
		r.off++
	}
	return i, nil
}

// ---- hostile frames ----

const noAnswer = 1 // hostileFrame.code: the frame must not be answered

type hostileFrame struct {
	name  string
	frame string // one line, newline added
	code  int64  // expected error code; 0 means a result; noAnswer
	id    string // expected raw id of the answer
	msg   string // substring of the error message, when checked
}

func hostileFrames() []hostileFrame {
	return []hostileFrame{
		// not JSON: -32700, id null
		{"garbage text", `hello world`, -32700, "null", "parse error"},
		{"unterminated object", `{`, -32700, "null", ""},
		{"missing closing brace", `{"jsonrpc":"2.0","id":1,"method":"ping"`, -32700, "null", ""},
		{"extra closing brace", `{"jsonrpc":"2.0","id":1,"method":"ping"}}`, -32700, "null", ""},
		{"two values on one line", `{"jsonrpc":"2.0","id":1,"method":"ping"} {"jsonrpc":"2.0","id":2,"method":"ping"}`, -32700, "null", ""},
		{"single quotes", `{'jsonrpc':'2.0','id':1,'method':'ping'}`, -32700, "null", ""},
		{"trailing comma", `{"jsonrpc":"2.0","id":1,"method":"ping",}`, -32700, "null", ""},
		{"leading zero id", `{"jsonrpc":"2.0","id":01,"method":"ping"}`, -32700, "null", ""},
		{"NaN id", `{"jsonrpc":"2.0","id":NaN,"method":"ping"}`, -32700, "null", ""},
		{"bad escape", `{"jsonrpc":"2.0","id":"\x","method":"ping"}`, -32700, "null", ""},
		{"raw control byte in string", "{\"jsonrpc\":\"2.0\",\"id\":\"a\x01b\",\"method\":\"ping\"}", -32700, "null", ""},
		{"binary bytes", "\x00\x01\x02\xff", -32700, "null", ""},
		{"lone closing brace", `}`, -32700, "null", ""},
		{"bare word", `truex`, -32700, "null", ""},
		{"UTF-16 BOM", "\xff\xfe{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", -32700, "null", ""},
		{"BOM then garbage", "\xef\xbb\xbfnope", -32700, "null", ""},
		// valid JSON, not a request: -32600
		{"empty batch", `[]`, -32600, "null", "batch"},
		{"batch of one request", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600, "null", "batch"},
		{"batch of numbers", `[1,2,3]`, -32600, "null", "batch"},
		{"string frame", `"ping"`, -32600, "null", ""},
		{"number frame", `42`, -32600, "null", ""},
		{"null frame", `null`, -32600, "null", ""},
		{"boolean frame", `true`, -32600, "null", ""},
		{"empty object", `{}`, -32600, "null", ""},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":101,"method":"ping"}`, -32600, "101", "jsonrpc"},
		{"jsonrpc missing", `{"id":102,"method":"ping"}`, -32600, "102", "jsonrpc"},
		{"jsonrpc a number", `{"jsonrpc":2.0,"id":103,"method":"ping"}`, -32600, "103", "jsonrpc"},
		{"jsonrpc 1.0 notification", `{"jsonrpc":"1.0","method":"notifications/initialized"}`, -32600, "null", "jsonrpc"},
		{"id object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null", "id"},
		{"id array", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, -32600, "null", "id"},
		{"id true", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, "null", "id"},
		{"id false", `{"jsonrpc":"2.0","id":false,"method":"ping"}`, -32600, "null", "id"},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, "null", "id"},
		{"method missing", `{"jsonrpc":"2.0","id":104}`, -32600, "104", "method"},
		{"method a number", `{"jsonrpc":"2.0","id":105,"method":5}`, -32600, "105", "method"},
		{"method null", `{"jsonrpc":"2.0","id":106,"method":null}`, -32600, "106", "method"},
		{"method an object", `{"jsonrpc":"2.0","id":107,"method":{"name":"ping"}}`, -32600, "107", "method"},
		{"duplicate id member", `{"jsonrpc":"2.0","id":108,"id":109,"method":"ping"}`, -32600, "null", "duplicate"},
		{"response with result and error", `{"jsonrpc":"2.0","id":110,"result":{},"error":{"code":-1,"message":"x"}}`, -32600, "null", ""},
		{"response with fractional error code", `{"jsonrpc":"2.0","id":111,"error":{"code":1.5,"message":"x"}}`, -32600, "null", ""},
		{"response with string error", `{"jsonrpc":"2.0","id":112,"error":"boom"}`, -32600, "null", ""},
		{"cancel sent as a request", `{"jsonrpc":"2.0","id":113,"method":"notifications/cancelled","params":{"requestId":1}}`, -32600, "113", ""},
		{"id 1e400", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, -32600, "1e400", "id"},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, "1.5", "id"},
		{"id -0", `{"jsonrpc":"2.0","id":-0,"method":"ping"}`, -32600, "-0", "id"},
		{"id past 2^53", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, -32600, "9007199254740993", "id"},
		{"string id with a needless escape", `{"jsonrpc":"2.0","id":"\u0041","method":"ping"}`, -32600, `"\u0041"`, "id"},
		{"string id with invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":\"a\xffb\",\"method\":\"ping\"}", -32600, "\"a\xffb\"", "id"},
		// answered by the server, session continues
		{"unknown method", `{"jsonrpc":"2.0","id":120,"method":"no/such/method"}`, -32601, "120", ""},
		{"params a number", `{"jsonrpc":"2.0","id":121,"method":"ping","params":5}`, -32602, "121", ""},
		{"second initialize", strings.Replace(initFrame, `"init"`, "122", 1), -32600, "122", "initialize"},
		{"notification with an id", `{"jsonrpc":"2.0","id":123,"method":"notifications/initialized"}`, -32600, "123", ""},
		{"deep frame", `{"jsonrpc":"2.0","id":124,"method":"ping","params":{"a":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}}`, -32602, "124", "nested deeper"},
		{"deep batch", strings.Repeat("[", 2000) + strings.Repeat("]", 2000), -32600, "null", "batch"},
		{"deep frame with a string id", `{"jsonrpc":"2.0","method":"ping","params":` + strings.Repeat(`{"a":`, 500) + `1` + strings.Repeat("}", 500) + `,"id":"deep"}`, -32602, `"deep"`, "nested deeper"},
		{"deep notification", `{"jsonrpc":"2.0","method":"notifications/x","params":` + strings.Repeat("[", 500) + strings.Repeat("]", 500) + `}`, noAnswer, "", ""},
		{"invalid UTF-8 in method", "{\"jsonrpc\":\"2.0\",\"id\":125,\"method\":\"pi\xffng\"}", -32601, "125", ""},
		{"invalid UTF-8 in params", "{\"jsonrpc\":\"2.0\",\"id\":126,\"method\":\"ping\",\"params\":{\"x\":\"\xc3\x28\"}}", 0, "126", ""},
		{"lone surrogate in params", `{"jsonrpc":"2.0","id":127,"method":"ping","params":{"x":"\ud800"}}`, 0, "127", ""},
		{"BOM before a ping", "\xef\xbb\xbf" + ping("128"), 0, "128", ""},
		{"CRLF ping", ping("129") + "\r", 0, "129", ""},
		{"upper-case members", `{"JSONRPC":"2.0","ID":130,"METHOD":"ping"}`, -32600, "null", ""},
		// not answered, session continues
		{"empty line", ``, noAnswer, "", ""},
		{"whitespace line", " \t ", noAnswer, "", ""},
		{"unknown notification", `{"jsonrpc":"2.0","method":"notifications/whatever"}`, noAnswer, "", ""},
		{"response to nothing", `{"jsonrpc":"2.0","id":131,"result":{}}`, noAnswer, "", ""},
		{"response with string id", `{"jsonrpc":"2.0","id":"x","result":{}}`, noAnswer, "", ""},
		{"cancel of an unknown request", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"nope"}}`, noAnswer, "", ""},
		{"cancel with an object request id", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}`, noAnswer, "", ""},
		{"cancel with a fractional request id", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.5}}`, noAnswer, "", ""},
		{"response with a fractional id", `{"jsonrpc":"2.0","id":1.5,"result":{}}`, noAnswer, "", ""},
	}
}

// checkAnswer checks the frames a hostile frame drew (everything before the
// following ping's answer).
func checkAnswer(t *testing.T, h hostileFrame, got []wireResp) {
	t.Helper()
	if h.code == noAnswer {
		if len(got) != 0 {
			t.Errorf("frame drew %d answers, want none: %v", len(got), got)
		}
		return
	}
	if len(got) != 1 {
		t.Errorf("frame drew %d answers, want 1: %v", len(got), got)
		return
	}
	r := got[0]
	if string(r.ID) != h.id {
		t.Errorf("answer id = %s, want %s: %v", r.ID, h.id, r)
	}
	switch {
	case h.code == 0 && r.Error != nil:
		t.Errorf("answer is an error, want a result: %v", r)
	case h.code != 0 && r.Error == nil:
		t.Errorf("answer is a result, want error %d: %v", h.code, r)
	case h.code != 0 && r.Error.Code != h.code:
		t.Errorf("error code = %d, want %d: %v", r.Error.Code, h.code, r)
	case h.code != 0 && h.msg != "" && !strings.Contains(strings.ToLower(r.Error.Message), h.msg):
		t.Errorf("error message %q lacks %q", r.Error.Message, h.msg)
	}
}

// drive sends one hostile frame then a ping, and returns what the frame
// drew and whether the ping was answered (the session kept serving).
func drive(p *stdioPeer, h hostileFrame, seq int) ([]wireResp, bool) {
	after := fmt.Sprintf(`"after-%d"`, seq)
	p.send(h.frame, ping(after))
	want := 1
	if h.code == noAnswer {
		want = 0
	}
	var drew []wireResp
	got, ok := p.until(after, 5*time.Second)
	if ok {
		drew = got[:len(got)-1]
	}
	// An answer from a handler may trail the ping's answer.
	for ok && len(drew) < want {
		select {
		case r, open := <-p.lines:
			if !open {
				return drew, ok
			}
			drew = append(drew, r)
		case <-time.After(5 * time.Second):
			return drew, ok
		}
	}
	return drew, ok
}

// TestTransport_hostileFrames runs each hostile frame in a session of its
// own and counts the sessions it ended: none may.
func TestTransport_hostileFrames(t *testing.T) {
	s := newTransportServer(t)
	frames := hostileFrames()
	ended := 0
	for i, h := range frames {
		t.Run(h.name, func(t *testing.T) {
			p := startPeer(t, s)
			p.initialize(t)
			drew, ok := drive(p, h, i)
			if !ok {
				ended++
				t.Fatalf("session ended: the ping after the frame was not answered (drew %v)", drew)
			}
			checkAnswer(t, h, drew)
		})
	}
	t.Logf("hostile frame kinds tried: %d, sessions ended: %d", len(frames), ended)
}

// TestTransport_hostileFramesOneSession sends every hostile frame through
// one session, which must serve to the end and then stop cleanly.
func TestTransport_hostileFramesOneSession(t *testing.T) {
	p := startPeer(t, newTransportServer(t))
	p.initialize(t)
	frames := hostileFrames()
	for i, h := range frames {
		drew, ok := drive(p, h, i)
		if !ok {
			t.Fatalf("session ended after %q (drew %v)", h.name, drew)
		}
		t.Run(h.name, func(t *testing.T) { checkAnswer(t, h, drew) })
	}
	p.closeStdin()
	if extra, ok := p.rest(10 * time.Second); !ok || len(extra) != 0 {
		t.Fatalf("after EOF: stdout still open (%v) or extra frames %v", !ok, extra)
	}
	if err := p.wait(10 * time.Second); err != nil {
		t.Fatalf("Run = %v, want nil after EOF", err)
	}
	t.Logf("hostile frames through one session: %d, the session served them all and stopped cleanly at EOF", len(frames))
	g := p.transport.(*stdioGuard)
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.inflight) != 0 {
		t.Fatalf("in-flight set not emptied: %d ids", len(g.inflight))
	}
}

// TestTransport_idsEchoedExactly: every answer carries the id exactly as
// the client sent it. An id the SDK writes back as sent (a string in the
// form Go's encoder writes, an integer of at most 2^53 in magnitude) is
// served; any other string or number id is refused by the transport, under
// that id.
func TestTransport_idsEchoedExactly(t *testing.T) {
	p := startPeer(t, newTransportServer(t))
	p.initialize(t)
	served := []string{
		`0`, `-1`, `9007199254740992`, `-9007199254740992`,
		`""`, `"a"`, `"a\"b"`, `"é"`, `"😀"`, `"<&>"`, `"\n"`, `"\u0001"`, `"\u2028"`, `"` + strings.Repeat("x", 300) + `"`,
		`"1"`, `"null"`,
	}
	refused := []string{
		`1.5`, `-0`, `1e2`, `1E+2`, `1.0`, `1e400`, `-1e-400`,
		`123456789012345678901234567890`, `9007199254740993`, `-9223372036854775809`,
		`"\u0041"`, `"\/"`, `"\ud83d\ude00"`, `"\ud800"`, "\"a\xffb\"", "\"\u2028\"",
	}
	tried, exact, results, refusals := 0, 0, 0, 0
	defer func() {
		t.Logf("ids tried: %d, answered with the exact id: %d", tried, exact)
		t.Logf("pings served: %d, pings refused by the transport under their id: %d", results, refusals)
	}()
	for _, tc := range []struct {
		frame, id string
		code      int64 // 0: a result
	}{
		{`{"jsonrpc":"2.0","id":25,"method":"no/such"}`, `25`, -32601},
		{`{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`, `"b"`, -32602},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, `7`, 0},
		{`{"jsonrpc":"2.0","id":2.5,"method":"no/such"}`, `2.5`, -32600},
		{`{"jsonrpc":"2.0","id":"\u0042","method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`, `"\u0042"`, -32600},
		{`{"jsonrpc":"1.0","id":3.25,"method":"ping"}`, `3.25`, -32600},
		{`{"jsonrpc":"2.0","id":99999999999999999999999,"method":5}`, `99999999999999999999999`, -32600},
		{`{"jsonrpc":"2.0","id":7.0e0,"method":"tools/list"}`, `7.0e0`, -32600},
	} {
		tried++
		p.send(tc.frame)
		got, ok := p.until(tc.id, 5*time.Second)
		if !ok {
			t.Fatalf("%s not answered with id %s; got %v", tc.frame, tc.id, got)
		}
		exact++
		switch r := got[len(got)-1]; {
		case tc.code == 0 && r.Error != nil:
			t.Errorf("%s: %v, want a result", tc.frame, r)
		case tc.code != 0 && (r.Error == nil || r.Error.Code != tc.code):
			t.Errorf("%s: %v, want error %d", tc.frame, r, tc.code)
		}
	}
	for _, id := range append(served, refused...) {
		tried++
		p.send(ping(id))
		got, ok := p.until(id, 5*time.Second)
		if !ok {
			t.Fatalf("ping id %s not answered with that exact id; got %v", id, got)
		}
		exact++
		if len(got) != 1 {
			t.Errorf("ping id %s drew extra frames: %v", id, got[:len(got)-1])
		}
		r := got[len(got)-1]
		if slices.Contains(served, id) {
			results++
			if r.Error != nil || string(r.Result) != "{}" {
				t.Errorf("ping id %s: %v, want the result {}", id, r)
			}
			continue
		}
		refusals++
		if r.Error == nil || r.Error.Code != -32600 || !strings.Contains(r.Error.Message, "id") {
			t.Errorf("ping id %s: %v, want -32600 naming the id", id, r)
		}
	}
}

// TestTransport_answersQueuedRequestsBeforeEOF: requests already written
// when stdin closes are all answered, then Run returns nil.
func TestTransport_answersQueuedRequestsBeforeEOF(t *testing.T) {
	s := newTransportServer(t)
	requests, once := 0, 0
	defer func() { t.Logf("requests received before EOF: %d, answered exactly once: %d", requests, once) }()
	for round := range 3 {
		p := startPeer(t, s)
		var b strings.Builder
		b.WriteString(initFrame + "\n" + initializedFrame + "\n")
		want := map[string]bool{`"init"`: true}
		b.WriteString(ping("1") + "\n")
		b.WriteString(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n")
		want["1"], want["2"] = true, true
		for i := range 20 {
			id := fmt.Sprintf(`"p-%d-%d"`, round, i)
			b.WriteString(ping(id) + "\n")
			want[id] = true
		}
		b.WriteString(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_search","arguments":{"action":"text","media":"movie","query":"x"}}}` + "\n")
		want["3"] = true
		p.sendReader(strings.NewReader(b.String()))
		p.closeStdin()
		got, ok := p.rest(20 * time.Second)
		if !ok {
			t.Fatalf("stdout did not close after EOF")
		}
		seen := map[string]int{}
		for _, r := range got {
			seen[string(r.ID)]++
			if r.Error != nil && r.Error.Code == 0 {
				t.Errorf("error with code 0: %v", r)
			}
		}
		for id := range want {
			requests++
			if seen[id] != 1 {
				t.Errorf("round %d: request %s answered %d times, want 1", round, id, seen[id])
				continue
			}
			once++
		}
		if len(got) != len(want) {
			t.Errorf("round %d: %d answers for %d requests: %v", round, len(got), len(want), got)
		}
		if err := p.wait(10 * time.Second); err != nil {
			t.Fatalf("Run = %v, want nil", err)
		}
	}
}

// TestTransport_oversizeFrame: a frame over the cap is refused with a
// message naming the cap, without being buffered; the session keeps
// serving. A frame right at the cap is served.
func TestTransport_oversizeFrame(t *testing.T) {
	p := startPeer(t, newTransportServer(t))
	p.initialize(t)
	capMsg := fmt.Sprintf("over %d bytes", testFrameCap)

	// Exactly at the cap: a valid frame, answered by the server.
	pre, suf := `{"jsonrpc":"2.0","id":"at-cap","method":"ping","params":{"_meta":{"pad":"`, `"}}}`
	p.sendReader(frameOf(pre, 'a', suf+"\n", testFrameCap+1))
	if got, ok := p.until(`"at-cap"`, 10*time.Second); !ok || got[len(got)-1].Error != nil {
		t.Fatalf("frame of exactly %d bytes: %v", testFrameCap, got)
	}

	for _, tc := range []struct {
		name   string
		prefix string
		size   int
		id     string
	}{
		{"one byte over", `{"jsonrpc":"2.0","id":"over-1","method":"ping","params":{"_meta":{"pad":"`, testFrameCap + 1, `"over-1"`},
		{"15 MiB request", `{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"read_search","arguments":{"query":"`, 15 << 20, `77`},
		{"100 MB garbage", `garbage`, 100_000_000, `null`},
		{"100 MB batch", `[{"jsonrpc":"2.0","id":5,"method":"ping"},"`, 100_000_000, `null`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			p.sendReader(frameOf(tc.prefix, 'a', "\"}}}\n", tc.size+1))
			got, ok := p.until(tc.id, 30*time.Second)
			runtime.ReadMemStats(&after)
			if !ok {
				t.Fatalf("no answer with id %s; got %v", tc.id, got)
			}
			r := got[len(got)-1]
			if r.Error == nil || (r.Error.Code != -32600 && r.Error.Code != -32700) || !strings.Contains(r.Error.Message, capMsg) {
				t.Fatalf("answer %v, want -32600 naming %q", r, capMsg)
			}
			allocated := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d-byte frame: %.1f MiB allocated while refusing it (heap in use %.1f MiB)", tc.size, float64(allocated)/(1<<20), float64(after.HeapInuse)/(1<<20))
			if allocated > 2*testFrameCap {
				t.Errorf("refusing a %d-byte frame allocated %d bytes, want under %d", tc.size, allocated, 2*testFrameCap)
			}
			p.send(ping(`"after-big"`))
			if got, ok := p.until(`"after-big"`, 5*time.Second); !ok {
				t.Fatalf("session ended after the big frame: %v", got)
			}
		})
	}
}

// slowServer is a bare server with a tool that blocks until cancelled and a
// tool that pings the client back, to exercise cancellation and
// server-to-client requests through the transport.
func slowServer(t testing.TB, started, cancelled chan<- struct{}) *mcp.Server {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "0"}, nil)
	s.AddTool(&mcp.Tool{Name: "block", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			started <- struct{}{}
			<-ctx.Done()
			cancelled <- struct{}{}
			return nil, ctx.Err()
		})
	s.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if err := req.Session.Ping(ctx, nil); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, nil
		})
	return s
}

// TestTransport_cancellationAndServerRequests: notifications/cancelled
// reaches the request it names (by the client's id), the cancelled request
// is not answered, a duplicate in-flight id is refused, and server-to-client
// requests and the client's responses pass through untouched.
func TestTransport_cancellationAndServerRequests(t *testing.T) {
	started, cancelled := make(chan struct{}, 1), make(chan struct{}, 1)
	p := startPeer(t, slowServer(t, started, cancelled))
	p.initialize(t)

	p.send(`{"jsonrpc":"2.0","id":"slow-1","method":"tools/call","params":{"name":"block","arguments":{}}}`)
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler of slow-1 did not start")
	}
	p.send(`{"jsonrpc":"2.0","id":"slow-1","method":"ping"}`)
	got, ok := p.until(`"slow-1"`, 5*time.Second)
	if !ok || got[len(got)-1].Error == nil || got[len(got)-1].Error.Code != -32600 {
		t.Fatalf("duplicate in-flight id: %v, want -32600", got)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow-1","reason":"test"}}`)
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler of slow-1 was not cancelled")
	}
	p.send(ping(`"after-cancel"`))
	got, ok = p.until(`"after-cancel"`, 5*time.Second)
	if !ok {
		t.Fatalf("ping after cancel: %v", got)
	}
	for _, r := range got {
		if string(r.ID) == `"slow-1"` {
			t.Errorf("cancelled request answered: %v", r)
		}
	}

	p.send(`{"jsonrpc":"2.0","id":"ask-1","method":"tools/call","params":{"name":"ask","arguments":{}}}`)
	var call wireResp
	select {
	case call = <-p.lines:
	case <-time.After(5 * time.Second):
		t.Fatal("no server-to-client ping")
	}
	if call.Method != "ping" || len(call.ID) == 0 {
		t.Fatalf("want a server-to-client ping request, got %v", call)
	}
	p.send(`{"jsonrpc":"2.0","id":` + string(call.ID) + `,"result":{}}`)
	got, ok = p.until(`"ask-1"`, 5*time.Second)
	if !ok || got[len(got)-1].Error != nil {
		t.Fatalf("ask-1: %v", got)
	}
}

func TestTransport_noCodeZeroErrors(t *testing.T) {
	p := startPeer(t, newTransportServer(t))
	// Before initialize.
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	got, ok := p.until(`1`, 5*time.Second)
	if !ok || got[len(got)-1].Error == nil || got[len(got)-1].Error.Code == 0 {
		t.Fatalf("tools/list before initialize: %v, want a coded error", got)
	}
	p.initialize(t)
	p.send(strings.Replace(initFrame, `"init"`, "2", 1))
	got, ok = p.until(`2`, 5*time.Second)
	if !ok || got[len(got)-1].Error == nil || got[len(got)-1].Error.Code == 0 {
		t.Fatalf("second initialize: %v, want a coded error", got)
	}
}

func TestTransport_bytesOfRefusalAreJSON(t *testing.T) {
	p := startPeer(t, newTransportServer(t))
	p.send("\x00<&>\"\\")
	got, ok := p.until(`null`, 5*time.Second)
	if !ok {
		t.Fatalf("no answer: %v", got)
	}
	if !json.Valid(bytes.TrimSpace([]byte(got[0].line))) {
		t.Fatalf("refusal is not JSON: %q", got[0].line)
	}
}

// brokenWriter fails every write, as stdout does once the client is gone.
type brokenWriter struct{}

func (brokenWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }
func (brokenWriter) Close() error              { return nil }

// TestTransport_brokenStdoutEndsTheSession: with stdout gone, requests
// already received cannot be answered; the session still ends promptly at
// EOF instead of waiting for those answers.
func TestTransport_brokenStdoutEndsTheSession(t *testing.T) {
	frames := initFrame + "\n" + initializedFrame + "\n" + ping("1") + "\n" + ping("2") + "\n"
	done := make(chan error, 1)
	go func() {
		done <- newTransportServer(t).Run(context.Background(), NewStdioTransport(io.NopCloser(strings.NewReader(frames)), brokenWriter{}))
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return within 10s of EOF with stdout broken")
	}
}

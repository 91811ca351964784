package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Transports a Target can speak.
const (
	TransportStdio = "stdio" // newline-delimited JSON-RPC on stdin/stdout (the default)
	TransportHTTP  = "http"  // MCP Streamable HTTP
)

// AddrPlaceholder is replaced, in every argument of an HTTP target's
// command line, by the loopback host:port the harness chose for it.
const AddrPlaceholder = "{addr}"

// DefaultMCPPath is the MCP endpoint path of an HTTP target unless
// Target.MCPPath says otherwise.
const DefaultMCPPath = "/mcp"

// healthPath is polled until the started HTTP server is ready.
const healthPath = "/healthz"

// readyPoll is how often the harness looks whether a started HTTP server
// is ready.
const readyPoll = 20 * time.Millisecond

// IsHTTP reports whether the target speaks Streamable HTTP (a server the
// harness starts with {addr}, or one already running at URL).
func (t Target) IsHTTP() bool { return t.Transport == TransportHTTP || t.URL != "" }

func (t Target) mcpPath() string {
	if t.MCPPath == "" {
		return DefaultMCPPath
	}
	return t.MCPPath
}

// CheckTarget reports a target the harness cannot start: no command, an
// unknown transport, an HTTP command without {addr}, or a URL that is not
// http(s).
func CheckTarget(t Target) error {
	switch {
	case t.URL != "":
		if !strings.HasPrefix(t.URL, "http://") && !strings.HasPrefix(t.URL, "https://") {
			return fmt.Errorf("check target: --url %q is not an http or https URL", t.URL)
		}
		return nil
	case len(t.Command) == 0:
		return errors.New("check target: no server command given")
	case t.Transport != "" && t.Transport != TransportStdio && t.Transport != TransportHTTP:
		return fmt.Errorf("check target: transport %q is not stdio or http", t.Transport)
	case t.Transport == TransportHTTP && !slices.ContainsFunc(t.Command, func(a string) bool { return strings.Contains(a, AddrPlaceholder) }):
		return fmt.Errorf("check target: an http server command must contain %s where the listen address goes, e.g. \"ombi-mcp --http %s\"", AddrPlaceholder, AddrPlaceholder)
	case t.MCPPath != "" && !strings.HasPrefix(t.MCPPath, "/"):
		return fmt.Errorf("check target: MCP path %q must start with /", t.MCPPath)
	}
	return nil
}

// RunningServer describes, for a Target with a URL, the server already
// running there: the configuration it was started with and the upstream it
// was pointed at. Start and StartRaw serve only that configuration on that
// upstream; any other would need a restart, which the harness cannot give
// a server it did not start.
type RunningServer struct {
	Config   Config
	Upstream *Upstream
}

// UnavailableError is returned by Start and StartRaw when the target cannot
// serve what is asked: a server already running at a URL asked for another
// configuration or upstream.
type UnavailableError struct{ Reason string }

func (e *UnavailableError) Error() string { return "server unavailable: " + e.Reason }

// normal is cfg with the defaults Env applies and its bundles sorted.
func (c Config) normal() Config {
	if c.Bundles == "" {
		c.Bundles = AllBundles
	}
	if c.AuthMode == "" {
		c.AuthMode = "jwt"
	}
	if c.Timeout == "" {
		c.Timeout = "10s"
	}
	b := strings.Split(c.Bundles, ",")
	for i := range b {
		b[i] = strings.TrimSpace(b[i])
	}
	slices.Sort(b)
	c.Bundles = strings.Join(b, ",")
	return c
}

func (c Config) describe() string {
	c = c.normal()
	s := fmt.Sprintf("OMBI_BUNDLES=%s OMBI_AUTH_MODE=%s OMBI_TIMEOUT=%s", c.Bundles, c.AuthMode, c.Timeout)
	for _, kv := range c.Env { // names only: values may be credentials
		name, _, _ := strings.Cut(kv, "=")
		s += " " + name + "=…"
	}
	return s
}

// unavailable refuses, for a URL target, a configuration or upstream other
// than the running server's; nil when the request can be served.
func (h *Harness) unavailable(cfg Config) error {
	r := h.Running
	if h.Target.URL == "" || r == nil {
		return nil
	}
	want, have := cfg.normal(), r.Config.normal()
	var reason string
	switch {
	case r.Upstream != nil && h.Upstream != r.Upstream:
		reason = "needs a server pointed at an upstream of its own (a private mock); --url judges one running server, which cannot be restarted"
	case want.Bundles != have.Bundles || want.AuthMode != have.AuthMode || want.Timeout != have.Timeout || !slices.Equal(want.Env, have.Env):
		reason = fmt.Sprintf("needs a server started with %s; --url judges one running server (%s), which cannot be restarted", want.describe(), have.describe())
	default:
		return nil
	}
	if h.Unavailable != nil {
		h.Unavailable(reason) // may not return (a test framework's skip)
	}
	return &UnavailableError{Reason: reason}
}

// httpEndpoint is where one HTTP server under test is reached, with the
// process the harness started for it (nil for a URL target).
type httpEndpoint struct {
	url    string
	proc   *proc
	client *http.Client
	wire   *wireLog // the client's traffic
}

// close stops the process: SIGTERM to its group at once (an HTTP server
// has no stdin to end on; stdin is closed too), then as proc.Close does:
// StopGrace, SIGTERM again, StopGrace, SIGKILL. A server that died of the
// SIGTERM it was sent stopped cleanly.
func (e *httpEndpoint) close() error {
	e.client.CloseIdleConnections()
	if e.proc == nil {
		return nil
	}
	e.proc.signal(syscall.SIGTERM)
	err := e.proc.Close()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGTERM {
			return nil
		}
	}
	return err
}

// openHTTP makes the endpoint of one HTTP server: for a URL target the URL
// itself; otherwise it picks a free loopback address, starts the command
// with {addr} replaced, and waits until GET /healthz answers 200 (a server
// without that route, answering 404 or 405, is taken as ready once it
// answers at all), the process exits, or deadline passes.
func (h *Harness) openHTTP(ctx context.Context, cfg Config, stderr *TailBuffer, deadline time.Time) (*httpEndpoint, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	wire := newHTTPWireLog()
	var rt http.RoundTripper = wireTransport{rt: tr, log: wire}
	if cfg.Token != "" {
		rt = bearer{rt: rt, token: cfg.Token}
	}
	e := &httpEndpoint{client: &http.Client{Transport: rt}, wire: wire}
	if h.Target.URL != "" {
		e.url = h.Target.URL
		return e, nil
	}
	if err := CheckTarget(h.Target); err != nil {
		return nil, &HarnessError{Action: "start server " + h.Target.String(), Err: err, Stderr: "(not started)"}
	}
	for attempt := 1; ; attempt++ {
		addr, err := freeLoopbackAddr()
		if err != nil {
			return nil, &HarnessError{Action: "start server " + h.Target.String(), Err: err, Stderr: "(not started)"}
		}
		command := make([]string, len(h.Target.Command))
		for i, a := range h.Target.Command {
			command[i] = strings.ReplaceAll(a, AddrPlaceholder, addr)
		}
		p, err := startProc(command, h.Env(cfg), stderr, h.StopGrace, h.Processes)
		if err != nil {
			return nil, &HarnessError{Action: "start server " + h.Target.String(), Err: err, Stderr: stderr.Tail(20)}
		}
		e.proc = p
		// Whatever an HTTP server writes on stdout is kept with its stderr.
		go func() { _, _ = io.Copy(stderr, p.stdout) }()
		e.url = "http://" + addr + h.Target.mcpPath()
		err = e.awaitReady(ctx, addr, deadline)
		if err == nil {
			return e, nil
		}
		exited := p.hasExited()
		p.kill()
		_ = p.Close() // its output is all read
		if attempt < startAttempts && exited && saysInUse(stderr.Tail(5)) && time.Now().Before(deadline) {
			continue // another socket took the port first: another port
		}
		return nil, &HarnessError{
			Action: fmt.Sprintf("start %s: await GET http://%s%s", h.Target, addr, healthPath),
			Err:    err,
			Stderr: stderr.Tail(20),
		}
	}
}

// startAttempts is how many ports an HTTP server is started on before its
// start fails: more than one only when it exits saying its port is in use.
const startAttempts = 3

// saysInUse reports whether a server's last lines say its address was in
// use (as Go, Node and Python each say it).
func saysInUse(tail string) bool {
	low := strings.ToLower(tail)
	return strings.Contains(low, "address already in use") || strings.Contains(low, "eaddrinuse")
}

func (e *httpEndpoint) awaitReady(ctx context.Context, addr string, deadline time.Time) error {
	tick := time.NewTicker(readyPoll)
	defer tick.Stop()
	last := errors.New("nothing listening yet")
	for {
		select {
		case <-e.proc.exited:
			return fmt.Errorf("the server exited before it was ready (%s); last probe: %v", e.proc.exitStatus(), last)
		default:
		}
		ok, err := e.probe(ctx, "http://"+addr+healthPath, deadline)
		if ok {
			return nil
		}
		last = err
		if time.Now().After(deadline) {
			return fmt.Errorf("not ready by the start timeout: %v", last)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		case <-e.proc.exited:
		}
	}
}

// probe sends one GET /healthz and reports whether the server is ready.
func (e *httpEndpoint) probe(ctx context.Context, url string, deadline time.Time) (bool, error) {
	if d := time.Now().Add(time.Second); d.Before(deadline) {
		deadline = d
	}
	pctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	req, err := http.NewRequestWithContext(pctx, http.MethodGet, url, nil)
	if err != nil {
		return false, err
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return false, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	_ = resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK, http.StatusNotFound, http.StatusMethodNotAllowed:
		return true, nil
	}
	return false, fmt.Errorf("GET %s answered %s", healthPath, resp.Status)
}

// bearer adds a bearer token to every request it sends.
type bearer struct {
	rt    http.RoundTripper
	token string
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.rt.RoundTrip(r)
}

// Endpoint is the MCP endpoint URL of an HTTP server ("" on stdio).
func (s *Server) Endpoint() string {
	if s.http == nil {
		return ""
	}
	return s.http.url
}

// Terminate sends SIGTERM to the server's process group, as a service
// manager stopping it would, and returns at once; Close still stops it for
// good. It does nothing for a server the harness did not start.
func (s *Server) Terminate() {
	if s.proc != nil {
		s.proc.signal(syscall.SIGTERM)
	}
}

// Exited reports whether the process the harness started has exited.
func (s *Server) Exited() bool {
	if s.proc == nil {
		return false
	}
	select {
	case <-s.proc.exited:
		return true
	default:
		return false
	}
}

// freeLoopbackAddr returns a 127.0.0.1 address whose port was free a moment
// ago, for a server the harness starts. The port is drawn below the
// kernels' ephemeral ranges (Linux from 32768, others from 49152): a port
// the kernel hands out for port 0 could go to another socket of this
// machine between the pick and the server's own bind, and the server would
// then fail to start, or another server answer in its place.
func freeLoopbackAddr() (string, error) {
	for range 64 {
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(pickLow+rand.IntN(pickSpan))))
		if err != nil {
			continue // taken
		}
		addr := ln.Addr().String()
		_ = ln.Close()
		return addr, nil
	}
	return "", fmt.Errorf("pick a free loopback port: 64 ports from %d to %d were taken", pickLow, pickLow+pickSpan-1)
}

// The ports freeLoopbackAddr draws from: 20000 to 31999.
const (
	pickLow  = 20000
	pickSpan = 12000
)

// startHTTP is Start for an HTTP target: it opens the endpoint (starting
// the server unless it runs at a URL) and initializes an MCP session over
// the SDK's Streamable HTTP client transport.
func (h *Harness) startHTTP(ctx context.Context, cfg Config) (*Server, error) {
	if err := h.unavailable(cfg); err != nil {
		return nil, err
	}
	s := &Server{h: h, cfg: cfg, stderr: &TailBuffer{}}
	deadline := time.Now().Add(h.startTimeout())
	e, err := h.openHTTP(ctx, cfg, s.stderr, deadline)
	if err != nil {
		return nil, err
	}
	s.http, s.proc, s.wire = e, e.proc, e.wire
	var t mcp.Transport = &mcp.StreamableClientTransport{Endpoint: e.url, HTTPClient: e.client}
	if h.Trace != nil {
		t = &mcp.LoggingTransport{Transport: t, Writer: h.Trace}
	}
	cctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	cs, err := s.newClient().Connect(cctx, t, &mcp.ClientSessionOptions{ProtocolVersion: ProtocolVersion})
	if err != nil {
		action := fmt.Sprintf("start %s: await initialize response at %s (protocol %s)", h.Target, e.url, ProtocolVersion)
		if cctx.Err() != nil && ctx.Err() == nil {
			report := h.timedOut(action, err, h.startTimeout(), e.proc, s.stderr, e.wire)
			_ = e.close()
			return nil, report
		}
		_ = e.close()
		return nil, &HarnessError{Action: action, Err: err, Stderr: s.stderr.Tail(20)}
	}
	s.session = cs
	return s, nil
}

// newClient is the MCP client every session of the harness uses.
func (s *Server) newClient() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "ombi-conformance", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			s.listChanged.Add(1)
		},
	})
}

// closeHTTP ends the session (a server that issued a session id is sent
// DELETE), then stops the process the harness started.
func (s *Server) closeHTTP() error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		if s.session != nil {
			_ = s.session.Close()
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
	return s.http.close()
}

// startRawHTTP is StartRaw for an HTTP target: every frame sent is one
// POST, and the frames of its answer (a JSON body or the data of each
// server-sent event) are read as a stdio session reads lines.
func (h *Harness) startRawHTTP(ctx context.Context, cfg Config) (*RawSession, *RawMessage, error) {
	if err := h.unavailable(cfg); err != nil {
		return nil, nil, err
	}
	r := &RawSession{h: h, cfg: cfg, stderr: &TailBuffer{}, lines: make(chan []byte, 64)}
	e, err := h.openHTTP(ctx, cfg, r.stderr, time.Now().Add(h.startTimeout()))
	if err != nil {
		return nil, nil, err
	}
	fw := &frameWriter{e: e, lines: r.lines, timeout: h.callTimeout(cfg), stderr: r.stderr}
	r.proc, r.stdin, r.wire = e.proc, fw, e.wire
	r.stop = func() {
		_ = e.close()
		fw.shut()
	}
	init := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"ombi-conformance-raw","version":"1"}}}`, ProtocolVersion)
	fail := func(err error) (*RawSession, *RawMessage, error) {
		if e.proc != nil {
			e.proc.kill()
		}
		r.Close()
		if he, ok := errors.AsType[*HarnessError](err); ok {
			he.Stderr = r.stderr.Tail(20)
		}
		return nil, nil, err
	}
	if err := r.Send(init); err != nil {
		return fail(err)
	}
	msg, err := r.Await(ctx, "1", h.startTimeout())
	if err != nil {
		return fail(err)
	}
	fw.initialized()
	if err := r.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		return fail(err)
	}
	return r, msg, nil
}

// frameWriter posts each frame written to it to the MCP endpoint and
// queues the frames of the answer on lines.
type frameWriter struct {
	e       *httpEndpoint
	lines   chan []byte
	timeout time.Duration
	stderr  *TailBuffer

	mu        sync.Mutex
	sessionID string // Mcp-Session-Id the server issued, if any
	version   string // MCP-Protocol-Version sent once initialized
	closed    bool
}

func (w *frameWriter) initialized() {
	w.mu.Lock()
	w.version = ProtocolVersion
	w.mu.Unlock()
}

// shut ends the frame stream: Await then sees the session closed.
func (w *frameWriter) shut() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.closed = true
		close(w.lines)
	}
}

func (w *frameWriter) push(frame []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.lines <- frame
	}
}

func (w *frameWriter) Write(p []byte) (int, error) {
	frame := bytes.TrimSpace(p)
	ctx, cancel := context.WithTimeout(context.Background(), w.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.e.url, bytes.NewReader(frame))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	w.mu.Lock()
	if w.sessionID != "" {
		req.Header.Set("Mcp-Session-Id", w.sessionID)
	}
	if w.version != "" {
		req.Header.Set("MCP-Protocol-Version", w.version)
	}
	w.mu.Unlock()
	resp, err := w.e.client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("post frame to %s: %w", w.e.url, err)
	}
	defer resp.Body.Close()
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		w.mu.Lock()
		w.sessionID = id
		w.mu.Unlock()
	}
	ct := strings.ToLower(resp.Header.Get("Content-Type"))
	switch {
	case resp.StatusCode == http.StatusAccepted:
		return len(p), nil
	case strings.HasPrefix(ct, "text/event-stream") && resp.StatusCode == http.StatusOK:
		return len(p), w.readEvents(resp.Body, requestIDOf(frame))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return 0, fmt.Errorf("read answer from %s: %w", w.e.url, err)
	}
	body = bytes.TrimSpace(body)
	if strings.HasPrefix(ct, "application/json") && json.Valid(body) && len(body) > 0 {
		if body[0] == '[' {
			var batch []json.RawMessage
			_ = json.Unmarshal(body, &batch)
			for _, m := range batch {
				w.push(m)
			}
		} else {
			w.push(body)
		}
		return len(p), nil
	}
	return 0, fmt.Errorf("post frame to %s: HTTP %s with no JSON-RPC answer: %s", w.e.url, resp.Status, clip(string(body), 300))
}

// readEvents queues the data of every server-sent event until the answer
// to the request with id arrives or the stream ends.
func (w *frameWriter) readEvents(body io.Reader, id string) error {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	var data []byte
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if len(bytes.TrimSpace(data)) > 0 {
				frame := bytes.Clone(bytes.TrimSpace(data))
				w.push(frame)
				if id != "" && responseIDOf(frame) == id {
					return nil
				}
			}
			data = data[:0]
		case bytes.HasPrefix(line, []byte("data:")):
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))...)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read event stream from %s: %w", w.e.url, err)
	}
	return nil
}

// requestIDOf returns the id of a request frame as JSON text, "" for a
// notification.
func requestIDOf(frame []byte) string {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(frame, &m) != nil || m.Method == "" {
		return ""
	}
	return strings.TrimSpace(string(m.ID))
}

// responseIDOf returns the id of a response frame as JSON text, "" for
// anything else.
func responseIDOf(frame []byte) string {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(frame, &m) != nil || m.Method != "" {
		return ""
	}
	return strings.TrimSpace(string(m.ID))
}

// stdioHint is added to a stdio start failure when the server wrote nothing
// at all on stdout: it may be a server that speaks only Streamable HTTP.
func stdioHint(stdoutBytes int64) string {
	if stdoutBytes > 0 {
		return ""
	}
	return "; the server wrote nothing on stdout: if it speaks Streamable HTTP, run with --transport http and " + AddrPlaceholder + " where its listen address goes in --server (e.g. --server \"my-server --port-flag " + AddrPlaceholder + "\")"
}

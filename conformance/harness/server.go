package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// ProtocolVersion is the MCP revision the harness pins.
const ProtocolVersion = "2025-11-25"

// AllBundles is the OMBI_BUNDLES value that enables every tool.
const AllBundles = "core,moderation,administration"

// Target is the server under test: a command line and extra environment,
// and how to speak MCP to it.
type Target struct {
	Command []string // program and arguments; required unless URL is set
	Env     []string // extra KEY=VALUE entries added after the harness contract
	// Transport is TransportStdio ("" too) or TransportHTTP; an HTTP
	// command line carries AddrPlaceholder where its listen address goes.
	Transport string
	// MCPPath is the MCP endpoint path of an HTTP server; "" = "/mcp".
	MCPPath string
	// URL is the MCP endpoint of a Streamable HTTP server already running;
	// Command is then not used (see RunningServer).
	URL string
}

// String renders the command line, shell-quoted where needed, or the URL
// of a server already running.
func (t Target) String() string {
	if t.URL != "" {
		return t.URL
	}
	parts := make([]string, len(t.Command))
	for i, a := range t.Command {
		if a == "" || strings.ContainsAny(a, " \t\"'\\$") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts[i] = a
	}
	return strings.Join(parts, " ")
}

// SplitCommand splits a command line on blanks, honouring single and double
// quotes and backslash escapes, the way a POSIX shell would for plain words.
func SplitCommand(s string) ([]string, error) {
	var (
		out   []string
		cur   strings.Builder
		inTok bool
		quote rune
	)
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else if r == '\\' && quote == '"' && i+1 < len(rs) {
				i++
				cur.WriteRune(rs[i])
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inTok = r, true
		case r == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			inTok = true
		case r == ' ' || r == '\t' || r == '\n':
			if inTok {
				out = append(out, cur.String())
				cur.Reset()
				inTok = false
			}
		default:
			cur.WriteRune(r)
			inTok = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("split command %q: unterminated quote", s)
	}
	if inTok {
		out = append(out, cur.String())
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("split command %q: empty", s)
	}
	return out, nil
}

// Harness starts servers under test against one upstream.
type Harness struct {
	Target       Target
	Upstream     *Upstream
	Validator    *spec.Validator
	StartTimeout time.Duration // initialize deadline; 0 = 15s
	CallTimeout  time.Duration // per request deadline; 0 = 30s
	// StopGrace is how long closing a server waits after closing its stdin
	// before SIGTERM to its process group, and after SIGTERM before SIGKILL;
	// 0 = DefaultStopGrace (2s).
	StopGrace time.Duration
	// Processes, when not nil, records every server process started, so
	// that the run can stop whatever is left when it ends (Processes.Close).
	// Copies of the Harness share it.
	Processes *Processes
	Trace     io.Writer // wire trace of every session; nil = none
	// Schemas, when not nil, shares the compiled advertised outputSchemas
	// between the servers of a run (copies of the Harness share it).
	Schemas *SchemaCache
	// Running describes the server at Target.URL; Start refuses other
	// configurations with an *UnavailableError. Nil accepts any.
	Running *RunningServer
	// Unavailable, when not nil, is called with the reason before Start
	// or StartRaw returns an *UnavailableError (a suite can skip the check
	// there, e.g. with ginkgo.Skip, which does not return).
	Unavailable func(reason string)
}

// Config selects how one server process is started.
type Config struct {
	Bundles  string   // OMBI_BUNDLES; "" = all three bundles
	AuthMode string   // OMBI_AUTH_MODE; "" = jwt
	Timeout  string   // OMBI_TIMEOUT; "" = 10s
	Env      []string // extra KEY=VALUE entries, applied last
	// Token, for an HTTP target, is sent by the harness's own client as
	// "Authorization: Bearer TOKEN" on every request (readiness probes
	// included); "" = none. How the server learns it is up to Env.
	Token string
}

func (h *Harness) startTimeout() time.Duration {
	if h.StartTimeout > 0 {
		return h.StartTimeout
	}
	return 15 * time.Second
}

// callTimeout is how long one request to a server started with cfg may go
// unanswered: CallTimeout when set; by default 30s, and at least three
// times the upstream deadline the server was given (OMBI_TIMEOUT, 10s
// unless the check sets it), so that a server stuck upstream answers with
// its own timeout error well before the harness gives up on it.
func (h *Harness) callTimeout(cfg Config) time.Duration {
	if h.CallTimeout > 0 {
		return h.CallTimeout
	}
	upstream := 10 * time.Second
	if d, err := time.ParseDuration(cfg.Timeout); err == nil && d > 0 {
		upstream = d
	}
	return max(30*time.Second, 3*upstream)
}

// Env returns the complete child environment for cfg.
func (h *Harness) Env(cfg Config) []string {
	if cfg.Bundles == "" {
		cfg.Bundles = AllBundles
	}
	if cfg.AuthMode == "" {
		cfg.AuthMode = "jwt"
	}
	if cfg.Timeout == "" {
		cfg.Timeout = "10s"
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OMBI_") {
			env = append(env, kv)
		}
	}
	env = append(env, h.Upstream.Env(cfg.AuthMode)...)
	env = append(env, "OMBI_BUNDLES="+cfg.Bundles, "OMBI_TIMEOUT="+cfg.Timeout)
	env = append(env, h.Target.Env...)
	return append(env, cfg.Env...)
}

// Server is one running server process with an initialized MCP session.
type Server struct {
	h       *Harness
	cfg     Config
	proc    *proc
	stderr  *TailBuffer
	session *mcp.ClientSession
	http    *httpEndpoint // HTTP targets; nil on stdio
	wire    *wireLog      // stdio targets: the end of the session's traffic

	listChanged atomic.Int32

	mu         sync.Mutex
	tools      []*mcp.Tool
	advertised map[string]*jsonschema.Schema
}

// HarnessError is a failure of the harness to drive the server at all: the
// binary is not an MCP server, exited, or did not answer in time.
type HarnessError struct {
	Action string // what was awaited, e.g. "initialize response"
	Err    error
	Stderr string // last lines the server wrote to stderr
	// Stacks is what a stdio server that hung wrote to stderr on SIGQUIT
	// (a Go server prints every goroutine's stack); "" when none.
	Stacks string
	// Wire is the end of a session's traffic when an answer did not come:
	// the last frames written, what was read last, and which side acted
	// last (see wireLog); "" when none.
	Wire string
	// Suite is the stacks of the suite's own goroutines when an answer did
	// not come (the MCP client and the embedded mock run in the suite's
	// process); "" when none.
	Suite string
	// Upstream is the embedded mock's requests in flight and its last
	// journal entries when an answer did not come; "" when none or live.
	Upstream string
}

func (e *HarnessError) Error() string {
	msg := fmt.Sprintf("%s: %v\nlast seen on server stderr:\n%s", e.Action, e.Err, indent(e.Stderr))
	if e.Wire != "" {
		msg += "\nthe session's traffic:\n" + indent(e.Wire)
	}
	if e.Upstream != "" {
		msg += "\nthe upstream (embedded mock) at that moment:\n" + indent(e.Upstream)
	}
	if e.Stacks != "" {
		msg += "\nwhat the server wrote on SIGQUIT (its goroutines, for a Go server):\n" + indent(e.Stacks)
	}
	if e.Suite != "" {
		msg += "\nthe suite's own goroutines at that moment:\n" + indent(e.Suite)
	}
	return msg
}

// stacksWait is how long a hung server gets to write its stacks on SIGQUIT.
const stacksWait = 2 * time.Second

// stacksLines bounds the SIGQUIT output a report carries.
const stacksLines = 600

// stacks sends SIGQUIT to the server process p, which hung, and returns
// what it wrote to stderr until it exited or stacksWait passed (at most
// stacksLines lines); "" when p is nil or gone. The server is not usable
// afterwards: the caller closes it, as it would a hung server anyway.
func stacks(p *proc, stderr *TailBuffer) string {
	if p == nil || p.pid() == 0 {
		return ""
	}
	before := stderr.Total()
	_ = syscall.Kill(p.pgid, syscall.SIGQUIT)
	select {
	case <-p.exited:
	case <-time.After(stacksWait):
	}
	out := strings.TrimRight(stderr.Since(before), "\n")
	if lines := strings.Split(out, "\n"); len(lines) > stacksLines {
		out = strings.Join(lines[:stacksLines], "\n") + fmt.Sprintf("\n… (%d more lines)", len(lines)-stacksLines)
	}
	return out
}

func (e *HarnessError) Unwrap() error { return e.Err }

func indent(s string) string {
	return "  | " + strings.ReplaceAll(s, "\n", "\n  | ")
}

// Start spawns the target with cfg, negotiates protocol 2025-11-25 and
// returns the session. Any failure is a *HarnessError naming what was
// awaited and the last stderr lines; the process is stopped by then.
func (h *Harness) Start(ctx context.Context, cfg Config) (*Server, error) {
	if h.Target.IsHTTP() {
		return h.startHTTP(ctx, cfg)
	}
	s := &Server{h: h, cfg: cfg, stderr: &TailBuffer{}}
	p, err := startProc(h.Target.Command, h.Env(cfg), s.stderr, h.StopGrace, h.Processes)
	if err != nil {
		return nil, &HarnessError{Action: "start server " + h.Target.String(), Err: err, Stderr: s.stderr.Tail(20)}
	}
	s.proc = p
	s.wire = newWireLog()
	stdout := s.wire.reader(p.stdout)
	var t mcp.Transport = &mcp.IOTransport{Reader: io.NopCloser(stdout), Writer: procStdin{p, s.wire}}
	if h.Trace != nil {
		t = &mcp.LoggingTransport{Transport: t, Writer: h.Trace}
	}
	client := s.newClient()
	cctx, cancel := context.WithTimeout(ctx, h.startTimeout())
	defer cancel()
	type result struct {
		cs  *mcp.ClientSession
		err error
	}
	done := make(chan result, 1)
	go func() {
		cs, err := client.Connect(cctx, t, &mcp.ClientSessionOptions{ProtocolVersion: ProtocolVersion})
		done <- result{cs, err}
	}()
	action := fmt.Sprintf("start %s: await initialize response (protocol %s)", h.Target, ProtocolVersion)
	var (
		r      result
		report *HarnessError // where the start was stuck, taken before the kill
	)
	select {
	case r = <-done:
	case <-cctx.Done():
		select {
		case r = <-done: // answered right at the deadline
		default:
			report = h.timedOut(action, cctx.Err(), h.startTimeout(), p, s.stderr, s.wire)
			// No answer in time: kill the server now instead of granting it
			// the graceful shutdown the SDK starts when Connect fails.
			p.kill()
			select {
			case r = <-done:
			case <-time.After(p.closeBound()):
				r = result{err: cctx.Err()}
			}
			if r.err == nil {
				_ = r.cs.Close()
				r = result{err: cctx.Err()}
			}
		}
	}
	if r.err != nil {
		p.kill()
		_ = p.Close() // reaps it and drains stderr, so the tail below is complete
		if report != nil {
			report.Err = fmt.Errorf("%w%s", report.Err, stdioHint(s.wire.count()))
			return nil, report
		}
		err := r.err
		if cctx.Err() != nil {
			err = fmt.Errorf("no answer within %s (%w)%s", h.startTimeout(), r.err, stdioHint(s.wire.count()))
		}
		return nil, &HarnessError{Action: action, Err: err, Stderr: s.stderr.Tail(20), Wire: s.wire.String()}
	}
	s.session = r.cs
	return s, nil
}

// procStdin is the SDK transport's writer: the server's stdin, whose Close
// stops the server (see proc.Close). Every frame is noted in the wire log.
type procStdin struct {
	p    *proc
	wire *wireLog
}

func (w procStdin) Write(b []byte) (int, error) {
	f := w.wire.wrote(b)
	n, err := w.p.stdin.Write(b)
	if err != nil {
		w.wire.failed(f, err)
	}
	return n, err
}

func (w procStdin) Close() error { return w.p.Close() }

// Close ends the session and stops the server: it closes stdin, waits
// StopGrace, sends SIGTERM to the server's process group, waits StopGrace
// again, then sends SIGKILL to the group. It returns within 2*StopGrace+3s
// whatever the server does, and nothing of the group is left running when
// it returns nil or an error about signals. The error is the server's exit
// error, or says which signal was needed.
func (s *Server) Close() error {
	if s.http != nil {
		return s.closeHTTP()
	}
	if s.proc == nil {
		return nil
	}
	sessionDone := make(chan struct{})
	go func() {
		defer close(sessionDone)
		if s.session != nil {
			_ = s.session.Close() // returns proc.Close's error, got below
		}
	}()
	err := s.proc.Close()
	select {
	case <-sessionDone:
	case <-time.After(time.Second):
		// The server is stopped and its stdout closed; the session's own
		// goroutines end without us.
	}
	return err
}

// Stderr returns the last n lines the server wrote to stderr.
func (s *Server) Stderr(n int) string { return s.stderr.Tail(n) }

// StderrAll returns everything kept of the server's stderr.
func (s *Server) StderrAll() string { return s.stderr.String() }

// Config returns the configuration the server was started with.
func (s *Server) Config() Config { return s.cfg }

// InitializeResult returns the negotiated initialize result.
func (s *Server) InitializeResult() *mcp.InitializeResult { return s.session.InitializeResult() }

// ListChangedSeen reports how many tools/list_changed notifications arrived.
func (s *Server) ListChangedSeen() int { return int(s.listChanged.Load()) }

// Tools lists every tool (all pages), caching the result for the session.
func (s *Server) Tools(ctx context.Context) ([]*mcp.Tool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tools != nil {
		return s.tools, nil
	}
	tools, err := s.ListTools(ctx)
	if err != nil {
		return nil, err
	}
	s.tools = tools
	s.advertised = map[string]*jsonschema.Schema{}
	for _, t := range tools {
		if t.OutputSchema == nil {
			continue
		}
		raw, err := json.Marshal(t.OutputSchema)
		if err != nil {
			continue
		}
		if sch := s.h.Schemas.compile(t.Name, raw); sch != nil {
			s.advertised[t.Name] = sch
		}
	}
	return tools, nil
}

// harnessErr is the error of a request that failed: when the harness's own
// deadline (cctx, derived from ctx) passed, the full report of a request
// with no answer (timedOut); otherwise the error with the stderr tail.
// ListTools sends tools/list (every page) and returns what it lists,
// without the cache Tools keeps.
func (s *Server) ListTools(ctx context.Context) ([]*mcp.Tool, error) {
	cctx, cancel := context.WithTimeout(ctx, s.h.callTimeout(s.cfg))
	defer cancel()
	var tools []*mcp.Tool
	for t, err := range s.session.Tools(cctx, nil) {
		if err != nil {
			return nil, s.harnessErr("await tools/list response", err, ctx, cctx)
		}
		tools = append(tools, t)
	}
	return tools, nil
}

func (s *Server) harnessErr(action string, err error, ctx, cctx context.Context) error {
	if cctx.Err() != nil && ctx.Err() == nil {
		return s.timedOut(action, err)
	}
	return &HarnessError{Action: action, Err: err, Stderr: s.stderr.Tail(20)}
}

// ResetMock puts the embedded mock back to its seed (store, journal, faults,
// quirks) and rotates its auth, so every JWT a running server holds becomes
// invalid.
func (h *Harness) ResetMock() error { return h.Upstream.Reset() }

// InjectFault installs one upstream fault in the embedded mock.
func (h *Harness) InjectFault(f mockombi.Fault) error { return h.Upstream.InjectFault(f) }

// SetQuirk switches one named quirk of the embedded mock.
func (h *Harness) SetQuirk(name string, on bool) error { return h.Upstream.SetQuirk(name, on) }

// Canaries returns every secret the embedded mock planted.
func (h *Harness) Canaries() ([]mockombi.Canary, error) { return h.Upstream.Canaries() }

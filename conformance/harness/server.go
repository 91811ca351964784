package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
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

// Target is the server under test: a command line and extra environment.
type Target struct {
	Command []string // program and arguments; required
	Env     []string // extra KEY=VALUE entries added after the harness contract
}

// String renders the command line, shell-quoted where needed.
func (t Target) String() string {
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
	Trace        io.Writer     // wire trace of every session; nil = none
}

// Config selects how one server process is started.
type Config struct {
	Bundles  string   // OMBI_BUNDLES; "" = all three bundles
	AuthMode string   // OMBI_AUTH_MODE; "" = jwt
	Timeout  string   // OMBI_TIMEOUT; "" = 10s
	Env      []string // extra KEY=VALUE entries, applied last
}

func (h *Harness) startTimeout() time.Duration {
	if h.StartTimeout > 0 {
		return h.StartTimeout
	}
	return 15 * time.Second
}

func (h *Harness) callTimeout() time.Duration {
	if h.CallTimeout > 0 {
		return h.CallTimeout
	}
	return 30 * time.Second
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
	cmd     *exec.Cmd
	stderr  *TailBuffer
	session *mcp.ClientSession

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
}

func (e *HarnessError) Error() string {
	return fmt.Sprintf("%s: %v\nlast seen on server stderr:\n%s", e.Action, e.Err, indent(e.Stderr))
}

func (e *HarnessError) Unwrap() error { return e.Err }

func indent(s string) string {
	return "  | " + strings.ReplaceAll(s, "\n", "\n  | ")
}

// Start spawns the target with cfg, negotiates protocol 2025-11-25 and
// returns the session. Any failure is a *HarnessError naming what was
// awaited and the last stderr lines.
func (h *Harness) Start(ctx context.Context, cfg Config) (*Server, error) {
	if len(h.Target.Command) == 0 {
		return nil, &HarnessError{Action: "start server", Err: errors.New("no command given"), Stderr: ""}
	}
	s := &Server{h: h, cfg: cfg, stderr: &TailBuffer{}}
	s.cmd = exec.Command(h.Target.Command[0], h.Target.Command[1:]...)
	s.cmd.Env = h.Env(cfg)
	s.cmd.Stderr = s.stderr
	var t mcp.Transport = &mcp.CommandTransport{Command: s.cmd, TerminateDuration: 2 * time.Second}
	if h.Trace != nil {
		t = &mcp.LoggingTransport{Transport: t, Writer: h.Trace}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "ombi-conformance", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			s.listChanged.Add(1)
		},
	})
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
	var r result
	select {
	case r = <-done:
	case <-time.After(h.startTimeout() + 5*time.Second):
		s.kill()
		r.err = fmt.Errorf("no answer within %s", h.startTimeout())
	}
	if r.err != nil {
		s.kill()
		err := r.err
		if cctx.Err() != nil {
			err = fmt.Errorf("no answer within %s (%w)", h.startTimeout(), r.err)
		}
		return nil, &HarnessError{
			Action: fmt.Sprintf("start %s: await initialize response (protocol %s)", h.Target, ProtocolVersion),
			Err:    err,
			Stderr: s.stderr.Tail(20),
		}
	}
	s.session = r.cs
	return s, nil
}

func (s *Server) kill() {
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
	}
}

// Close ends the session (closing stdin, then SIGTERM, then SIGKILL).
func (s *Server) Close() error {
	if s.session == nil {
		s.kill()
		return nil
	}
	done := make(chan error, 1)
	go func() { done <- s.session.Close() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		s.kill()
		return errors.New("close server: still running after 10s; killed")
	}
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
	cctx, cancel := context.WithTimeout(ctx, s.h.callTimeout())
	defer cancel()
	var tools []*mcp.Tool
	for t, err := range s.session.Tools(cctx, nil) {
		if err != nil {
			return nil, s.harnessErr("await tools/list response", err, cctx)
		}
		tools = append(tools, t)
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
		if sch, err := spec.Compile("mem://advertised/"+t.Name+".json", raw, false); err == nil {
			s.advertised[t.Name] = sch
		}
	}
	return tools, nil
}

func (s *Server) harnessErr(action string, err error, ctx context.Context) error {
	if ctx.Err() != nil {
		err = fmt.Errorf("no answer within %s (%w)", s.h.callTimeout(), err)
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

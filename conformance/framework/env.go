package checks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// Suite is the state every check shares during one run: the harness, the
// schema tables, the servers started so far and the counters for the
// summary. It lives in the closures of the spec tree, never in a global.
type Suite struct {
	opts   Options
	h      *harness.Harness
	tables map[string]Table

	mu      sync.Mutex
	servers map[string]*harness.Server
	calls   int
	quirks  map[string]bool // quirks a check switched, to restore

	checks Declared // the checks declared on the spec tree

	scope   *scope // what the preflight learned; nil before it
	profile string // the profile the run judges in (ProfileDesign before the preflight)

	anyMu    sync.Mutex
	reaching map[string]json.RawMessage        // per tool: arguments whose call reached upstream
	links    map[*harness.Server][]resourceRef // per server: the resource links its tools returned
	mockPool *mockPool                         // ids and titles of the mock's data
}

func configKey(c harness.Config) string {
	return fmt.Sprintf("%s|%s|%s|%s|%s", c.Bundles, c.AuthMode, c.Timeout, strings.Join(c.Env, ","), c.Token)
}

// shared returns a running server for cfg, started on first use and reused
// by later checks with the same configuration.
func (s *Suite) shared(ctx context.Context, cfg harness.Config) *harness.Server {
	ginkgo.GinkgoHelper()
	cfg = s.withMode(cfg)
	key := configKey(cfg)
	s.mu.Lock()
	srv := s.servers[key]
	s.mu.Unlock()
	if srv != nil {
		return srv
	}
	srv = s.start(ctx, cfg)
	s.mu.Lock()
	s.servers[key] = srv
	s.mu.Unlock()
	return srv
}

// fresh starts a server for this check only; it is closed when the check ends.
func (s *Suite) fresh(ctx context.Context, cfg harness.Config) *harness.Server {
	ginkgo.GinkgoHelper()
	if s.h.Target.URL != "" {
		ginkgo.Skip("needs a fresh server process; --url judges one running server, which cannot be restarted")
	}
	srv := s.start(ctx, s.withMode(cfg))
	ginkgo.DeferCleanup(srv.Close)
	return srv
}

func (s *Suite) start(ctx context.Context, cfg harness.Config) *harness.Server {
	ginkgo.GinkgoHelper()
	s.requireMode(cfg.AuthMode)
	srv, err := s.h.Start(ctx, cfg)
	if err != nil {
		s.fail(nil, "start the server under test (OMBI_BUNDLES=%q OMBI_AUTH_MODE=%q): %v", cfg.Bundles, cfg.AuthMode, err)
	}
	if _, err := srv.Tools(ctx); err != nil {
		_ = srv.Close()
		s.fail(nil, "list tools of the server under test: %v", err)
	}
	return srv
}

// closeAll stops every shared server.
func (s *Suite) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	var wg sync.WaitGroup
	for k, srv := range s.servers {
		wg.Add(1)
		go func() { // each close may wait out a grace period: in parallel
			defer wg.Done()
			_ = srv.Close()
		}()
		delete(s.servers, k)
	}
	wg.Wait()
}

// call performs one tools/call and fails the check on a harness error or on
// any violation of the central result checks (structuredContent against the
// advertised and the spec outputSchema, text block, isError == !ok).
func (s *Suite) call(ctx context.Context, srv *harness.Server, tool string, args any) *harness.Outcome {
	ginkgo.GinkgoHelper()
	o := s.callUnchecked(ctx, srv, tool, args)
	if len(o.Violations) > 0 {
		var lines []string
		for _, v := range o.Violations {
			lines = append(lines, "  "+clauseLine(v.Clause)+"\n    observed: "+v.Message)
		}
		s.fail(o, "the result breaks the central result contract:\n%s", strings.Join(lines, "\n"))
	}
	return o
}

// callUnchecked performs one tools/call and fails only on a harness error.
func (s *Suite) callUnchecked(ctx context.Context, srv *harness.Server, tool string, args any) *harness.Outcome {
	ginkgo.GinkgoHelper()
	s.requireTool(tool)
	var (
		o   *harness.Outcome
		err error
	)
	if raw, ok := args.(json.RawMessage); ok {
		o, err = srv.CallRaw(ctx, tool, raw)
	} else {
		o, err = srv.Call(ctx, tool, args)
	}
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
	if err != nil {
		s.forget(srv)
		s.fail(nil, "call %s: %v", tool, err)
	}
	return o
}

// forget drops a shared server after a harness error, so the next check
// starts a fresh process instead of inheriting a dead session.
func (s *Suite) forget(srv *harness.Server) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, x := range s.servers {
		if x == srv {
			delete(s.servers, k)
			go func() { _ = srv.Close() }()
		}
	}
}

// clean clears the journal and faults and restores quirks a check switched.
func (s *Suite) clean() {
	ginkgo.GinkgoHelper()
	up := s.h.Upstream
	if up.IsLive() {
		if up.Mock() != nil { // the proxy in front of a live Ombi: its faults only
			if err := up.ClearFaults(); err != nil {
				s.fail(nil, "clear faults: %v", err)
			}
		}
		return
	}
	if err := up.ClearFaults(); err != nil {
		s.fail(nil, "clear faults: %v", err)
	}
	s.mu.Lock()
	quirks := s.quirks
	s.quirks = map[string]bool{}
	s.mu.Unlock()
	for name, was := range quirks {
		if err := up.SetQuirk(name, was); err != nil {
			s.fail(nil, "restore quirk %s: %v", name, err)
		}
	}
}

// setQuirk switches a quirk for the current check; clean restores it.
func (s *Suite) setQuirk(name string, on bool) {
	ginkgo.GinkgoHelper()
	s.mu.Lock()
	if _, seen := s.quirks[name]; !seen {
		s.quirks[name] = defaultQuirkOn(name)
	}
	s.mu.Unlock()
	if err := s.h.Upstream.SetQuirk(name, on); err != nil {
		s.fail(nil, "set quirk: %v", err)
	}
}

// defaultQuirkOn is the state a check's quirk is restored to: the mock's
// default.
func defaultQuirkOn(name string) bool {
	on, _ := mockombi.QuirkDefault(name)
	return on
}

// injectFault installs an upstream fault for the current check.
func (s *Suite) injectFault(f mockombi.Fault) {
	ginkgo.GinkgoHelper()
	if err := s.h.Upstream.InjectFault(f); err != nil {
		s.fail(nil, "%v", err)
	}
}

// fail ends the current check with a message naming the check, its clause,
// what was observed (call, envelope, journal) and a command that reruns it.
func (s *Suite) fail(o *harness.Outcome, format string, a ...any) {
	ginkgo.GinkgoHelper()
	ginkgo.Fail(s.failure(o, fmt.Sprintf(format, a...)))
}

func (s *Suite) failure(o *harness.Outcome, msg string) string {
	c := s.checks.current()
	var b strings.Builder
	fmt.Fprintf(&b, "check %s failed\n", c.ID)
	if c.Clause != "" {
		fmt.Fprintf(&b, "clause: %s\n", clauseLine(c.Clause))
	}
	fmt.Fprintf(&b, "observed: %s\n", msg)
	if o != nil {
		b.WriteString(o.Describe())
	}
	fmt.Fprintf(&b, "rerun: %s", s.rerun(c.ID))
	return b.String()
}

// rerun is the command that runs one check again exactly as it ran: the
// invocation's flags, the run's seed (property cases and spec order derive
// from it) and a focus on the check alone; a non-default case count comes
// first as the environment it was read from.
func (s *Suite) rerun(checkID string) string {
	words := s.opts.Rerun
	if len(words) == 0 {
		words = []string{"ombi-conformance", "--server", ShellQuote(s.h.Target.String())}
	}
	var b strings.Builder
	if v := os.Getenv(ChecksEnv); v != "" {
		fmt.Fprintf(&b, "%s=%s ", ChecksEnv, ShellWord(v))
	}
	fmt.Fprintf(&b, "%s --seed %d --focus %s", strings.Join(words, " "), ginkgo.GinkgoRandomSeed(), ShellQuote(regexp.QuoteMeta(checkID)))
	return b.String()
}

// ShellWord quotes s for a POSIX shell when it needs quoting.
func ShellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,") == "" {
		return s
	}
	return ShellQuote(s)
}

// ShellQuote quotes s for a POSIX shell.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// expect fails the check unless cond holds.
func (s *Suite) expect(cond bool, o *harness.Outcome, format string, a ...any) {
	ginkgo.GinkgoHelper()
	if !cond {
		s.fail(o, format, a...)
	}
}

// errs collects the failures of a check that inspects many cases, so the
// check reports all of them at once.
type errs []string

func (e *errs) addf(format string, a ...any) { *e = append(*e, fmt.Sprintf(format, a...)) }

func (s *Suite) expectNone(e errs, what string) {
	ginkgo.GinkgoHelper()
	if len(e) == 0 {
		return
	}
	sort.Strings(e)
	if len(e) > 40 {
		e = append(e[:40], fmt.Sprintf("… and %d more", len(e)-40))
	}
	s.fail(nil, "%s:\n  - %s", what, strings.Join(e, "\n  - "))
}

// allConfig starts servers with every bundle enabled and the run's auth
// mode (jwt unless a live run says otherwise).
func (s *Suite) allConfig() harness.Config {
	return s.withMode(harness.Config{Bundles: harness.AllBundles})
}

// withMode gives a configuration without an auth mode the run's: a live
// run's configured mode, else the first the server started in (jwt for a
// server that supports both).
func (s *Suite) withMode(cfg harness.Config) harness.Config {
	if cfg.AuthMode != "" {
		return cfg
	}
	switch {
	case s.opts.OmbiURL != "" && s.opts.AuthMode != "":
		cfg.AuthMode = s.opts.AuthMode
	case s.scope != nil && s.scope.mode != "":
		cfg.AuthMode = s.scope.mode
	default:
		cfg.AuthMode = "jwt"
	}
	return cfg
}

// table returns the schema table of a tool, failing the check if none.
func (s *Suite) table(tool string) Table {
	ginkgo.GinkgoHelper()
	t, ok := s.tables[tool]
	if !ok {
		s.fail(nil, "no schema table for %s in the fixtures", tool)
	}
	return t
}

// validExample returns the first valid example of a tool.
func (s *Suite) validExample(tool string) json.RawMessage {
	ginkgo.GinkgoHelper()
	t := s.table(tool)
	if len(t.Valid) == 0 {
		s.fail(nil, "the schema table of %s has no valid example", tool)
	}
	return t.Valid[0].Args
}

func validateRaw(sch *jsonschema.Schema, raw []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("decode example: %w", err)
	}
	return sch.Validate(inst)
}

package framework

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2"

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
}

// Harness is the run's harness: the target, the upstream, the validator.
func (s *Suite) Harness() *harness.Harness { return s.h }

// Options are the options the run was prepared with.
func (s *Suite) Options() Options { return s.opts }

// Tables are the schema tables of the run, by tool; nil for a listing.
func (s *Suite) Tables() map[string]Table { return s.tables }

// Current is the check of the running spec.
func (s *Suite) Current() Check { return s.checks.Current() }

// CountCall counts a tools/call a check made other than through Call or
// CallUnchecked, for the summary.
func (s *Suite) CountCall() {
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
}

func configKey(c harness.Config) string {
	return fmt.Sprintf("%s|%s|%s|%s|%s", c.Bundles, c.AuthMode, c.Timeout, strings.Join(c.Env, ","), c.Token)
}

// Shared returns a running server for cfg, started on first use and reused
// by later checks with the same configuration.
func (s *Suite) Shared(ctx context.Context, cfg harness.Config) *harness.Server {
	ginkgo.GinkgoHelper()
	cfg = s.WithMode(cfg)
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

// Fresh starts a server for this check only; it is closed when the check ends.
func (s *Suite) Fresh(ctx context.Context, cfg harness.Config) *harness.Server {
	ginkgo.GinkgoHelper()
	if s.h.Target.URL != "" {
		ginkgo.Skip("needs a fresh server process; --url judges one running server, which cannot be restarted")
	}
	srv := s.start(ctx, s.WithMode(cfg))
	ginkgo.DeferCleanup(srv.Close)
	return srv
}

func (s *Suite) start(ctx context.Context, cfg harness.Config) *harness.Server {
	ginkgo.GinkgoHelper()
	s.RequireMode(cfg.AuthMode)
	s.liveMode(cfg)
	srv, err := s.h.Start(ctx, cfg)
	if err != nil {
		s.Fail(nil, "start the server under test (OMBI_BUNDLES=%q OMBI_AUTH_MODE=%q): %v", cfg.Bundles, cfg.AuthMode, err)
	}
	if _, err := srv.Tools(ctx); err != nil {
		_ = srv.Close()
		s.Fail(nil, "list tools of the server under test: %v", err)
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

// Call performs one tools/call and fails the check on a harness error or on
// any violation of the central result checks (structuredContent against the
// advertised and the spec outputSchema, text block, isError == !ok).
func (s *Suite) Call(ctx context.Context, srv *harness.Server, tool string, args any) *harness.Outcome {
	ginkgo.GinkgoHelper()
	o := s.CallUnchecked(ctx, srv, tool, args)
	if len(o.Violations) > 0 {
		var lines []string
		for _, v := range o.Violations {
			lines = append(lines, "  "+ClauseLine(v.Clause)+"\n    observed: "+v.Message)
		}
		s.Fail(o, "the result breaks the central result contract:\n%s", strings.Join(lines, "\n"))
	}
	return o
}

// CallUnchecked performs one tools/call and fails only on a harness error.
func (s *Suite) CallUnchecked(ctx context.Context, srv *harness.Server, tool string, args any) *harness.Outcome {
	ginkgo.GinkgoHelper()
	s.RequireTool(tool)
	var (
		o   *harness.Outcome
		err error
	)
	if raw, ok := args.(json.RawMessage); ok {
		o, err = srv.CallRaw(ctx, tool, raw)
	} else {
		o, err = srv.Call(ctx, tool, args)
	}
	s.CountCall()
	if err != nil {
		s.Forget(srv)
		s.Fail(nil, "call %s: %v", tool, err)
	}
	return o
}

// Forget drops a shared server after a harness error, so the next check
// starts a fresh process instead of inheriting a dead session.
func (s *Suite) Forget(srv *harness.Server) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, x := range s.servers {
		if x == srv {
			delete(s.servers, k)
			go func() { _ = srv.Close() }()
		}
	}
}

// Clean clears the journal and faults and restores quirks a check switched.
func (s *Suite) Clean() {
	ginkgo.GinkgoHelper()
	up := s.h.Upstream
	if up.IsLive() {
		if up.Mock() != nil { // the proxy in front of a live Ombi: its faults only
			if err := up.ClearFaults(); err != nil {
				s.Fail(nil, "clear faults: %v", err)
			}
		}
		return
	}
	if err := up.ClearFaults(); err != nil {
		s.Fail(nil, "clear faults: %v", err)
	}
	s.mu.Lock()
	quirks := s.quirks
	s.quirks = map[string]bool{}
	s.mu.Unlock()
	for name, was := range quirks {
		if err := up.SetQuirk(name, was); err != nil {
			s.Fail(nil, "restore quirk %s: %v", name, err)
		}
	}
}

// SetQuirk switches a quirk for the current check; Clean restores it.
func (s *Suite) SetQuirk(name string, on bool) {
	ginkgo.GinkgoHelper()
	s.SkipLive("needs the mock's quirk " + name + "; a live Ombi behaves as it does")
	s.mu.Lock()
	if _, seen := s.quirks[name]; !seen {
		s.quirks[name] = defaultQuirkOn(name)
	}
	s.mu.Unlock()
	if err := s.h.Upstream.SetQuirk(name, on); err != nil {
		s.Fail(nil, "set quirk: %v", err)
	}
}

// defaultQuirkOn is the state a check's quirk is restored to: the mock's
// default.
func defaultQuirkOn(name string) bool {
	on, _ := mockombi.QuirkDefault(name)
	return on
}

// InjectFault installs an upstream fault for the current check.
func (s *Suite) InjectFault(f mockombi.Fault) {
	ginkgo.GinkgoHelper()
	if err := s.h.Upstream.InjectFault(f); err != nil {
		s.Fail(nil, "%v", err)
	}
}

// Fail ends the current check with a message naming the check, its clause,
// what was observed (call, envelope, journal) and a command that reruns it.
func (s *Suite) Fail(o *harness.Outcome, format string, a ...any) {
	ginkgo.GinkgoHelper()
	msg := fmt.Sprintf(format, a...)
	s.skipMissing(o, msg)
	ginkgo.Fail(s.failure(o, msg))
}

func (s *Suite) failure(o *harness.Outcome, msg string) string {
	c := s.checks.Current()
	var b strings.Builder
	fmt.Fprintf(&b, "check %s failed\n", c.ID)
	if c.Clause != "" {
		fmt.Fprintf(&b, "clause: %s\n", ClauseLine(c.Clause))
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

// Expect fails the check unless cond holds.
func (s *Suite) Expect(cond bool, o *harness.Outcome, format string, a ...any) {
	ginkgo.GinkgoHelper()
	if !cond {
		s.Fail(o, format, a...)
	}
}

// ExpectNone fails the check when it found failures, listing them all (at
// most 40, sorted) under what: for a check that inspects many cases.
func (s *Suite) ExpectNone(failures []string, what string) {
	ginkgo.GinkgoHelper()
	if len(failures) == 0 {
		return
	}
	e := slices.Clone(failures)
	sort.Strings(e)
	if len(e) > 40 {
		e = append(e[:40], fmt.Sprintf("… and %d more", len(e)-40))
	}
	s.Fail(nil, "%s:\n  - %s", what, strings.Join(e, "\n  - "))
}

// AllConfig starts servers with every bundle enabled and the run's auth
// mode (jwt unless a live run says otherwise).
func (s *Suite) AllConfig() harness.Config {
	return s.WithMode(harness.Config{Bundles: harness.AllBundles})
}

// WithMode gives a configuration without an auth mode the run's: a live
// run's configured mode, else the first the server started in (jwt for a
// server that supports both).
func (s *Suite) WithMode(cfg harness.Config) harness.Config {
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

// SchemaTable returns the schema table of a tool, failing the check if none.
func (s *Suite) SchemaTable(tool string) Table {
	ginkgo.GinkgoHelper()
	t, ok := s.tables[tool]
	if !ok {
		s.Fail(nil, "no schema table for %s in the fixtures", tool)
	}
	return t
}

// ValidExample returns the first valid example of a tool.
func (s *Suite) ValidExample(tool string) json.RawMessage {
	ginkgo.GinkgoHelper()
	t := s.SchemaTable(tool)
	if len(t.Valid) == 0 {
		s.Fail(nil, "the schema table of %s has no valid example", tool)
	}
	return t.Valid[0].Args
}

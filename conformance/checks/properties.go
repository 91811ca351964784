package checks

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2"
	"pgregory.net/rapid"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/gen"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// Default cases per property check. The leak, fault and fuzz properties
// have one check per catalogue tool, budget and fabricate one per
// read-only tool; the defaults give each property some hundreds of cases
// per run.
var propertyCases = map[string]int{"leak": 12, "budget": 16, "fabricate": 10, "faults": 12, "fuzz": 12}

// properties is the state the property checks share: case counters for
// the summary. It lives in the closures of the spec tree.
type properties struct {
	s *Suite

	mu     sync.Mutex
	tried  map[string]int // property -> generated cases run
	shrunk map[string]int // property -> runs spent shrinking a failure
	failed map[string]int // property -> checks falsified
}

// propertyAreas declares the property checks of the leak, budget, errors
// and fuzz areas and prints, after the suite, how many cases each tried.
func (s *Suite) propertyAreas() {
	p := &properties{s: s, tried: map[string]int{}, shrunk: map[string]int{}, failed: map[string]int{}}
	p.leakProperty()
	p.budgetProperty()
	p.fabricateProperty()
	p.memoryCheck()
	p.faultProperty()
	p.fuzzProperty()
	ginkgo.ReportAfterSuite("property cases", func(ginkgo.Report) { p.summary(s.summaryOut()) })
}

// perToolProperty is a property with one check per catalogue tool.
type perToolProperty struct {
	describe          string // the container's text
	area              string // the area label
	clause, qualifier string // check id: clause.qualifier.TOOL
	readOnly          bool   // only the read-only tools
	check             func(ctx context.Context, t spec.Tool)
}

// perTool declares a property's checks: each starts a private mock of its
// own, and the check of a read-only tool carries the read-only label.
func (p *properties) perTool(d perToolProperty) {
	labels := ginkgo.Label(d.area, LabelOwnMock, "property")
	if d.readOnly {
		labels = append(labels, LabelReadOnly)
	}
	ginkgo.Describe(d.describe, labels, func() {
		for _, t := range spec.Tools() {
			if d.readOnly && !t.Annotations.ReadOnlyHint {
				continue
			}
			tool := t
			toolLabels := ginkgo.Label()
			if t.Annotations.ReadOnlyHint && !d.readOnly {
				toolLabels = ginkgo.Label(LabelReadOnly)
			}
			p.s.ClauseItFor(d.clause, d.qualifier+"."+t.Name, toolLabels, func(ctx ginkgo.SpecContext) {
				d.check(ctx, tool)
			})
		}
	})
}

// toolEnv starts what a generated-payload property needs for one tool: a
// private mock (with opts) and server, the tool's argument generator and
// the cache of its unfaulted runs.
func (p *properties) toolEnv(tool string, opts mockombi.Options) (*propEnv, *rapid.Generator[json.RawMessage], *controls) {
	ginkgo.GinkgoHelper()
	env := p.env(opts, p.s.allConfig())
	args, err := gen.Args(tool)
	if err != nil {
		p.s.fail(nil, "%v", err)
	}
	return env, args, newControls(env, tool)
}

// drawCase draws a tool's arguments and runs them unfaulted: the case's
// report, the run, and the calls whose answers a case can replace. A nil
// run is a harness failure, which the report says.
func (p *properties) drawCase(ctx context.Context, t *rapid.T, ctl *controls, args *rapid.Generator[json.RawMessage]) (*caseReport, *control, []int) {
	a := p.drawArgs(t, ctl.tool, args)
	rep := &caseReport{Tool: ctl.tool, Args: string(a)}
	c, err := ctl.get(ctx, a)
	if err != nil {
		rep.Observed = fmt.Sprintf("the unfaulted call failed at the harness level: %v", err)
		return rep, nil, nil
	}
	var targets []int
	for i := range c.calls {
		if _, ok := c.bodies[i]; ok {
			targets = append(targets, i)
		}
	}
	return rep, c, targets
}

// edgeExamples calls each with one valid table example per action (at
// most max actions) and its unfaulted run; an example each does not use
// (it returns false) leaves its action to the next one.
func (p *properties) edgeExamples(ctx context.Context, ctl *controls, max int, each func(ex framework.Example, c *control) bool) {
	ginkgo.GinkgoHelper()
	seenAction := map[string]bool{}
	for _, ex := range p.s.tables[ctl.tool].Valid {
		if len(seenAction) >= max {
			break
		}
		action := exampleAction(ex.Args)
		if seenAction[action] {
			continue
		}
		c, err := ctl.get(ctx, ex.Args)
		if err != nil {
			p.s.fail(nil, "the unfaulted call of %s %s failed at the harness level: %v", ctl.tool, clip(ex.Args, 200), err)
		}
		if each(ex, c) {
			seenAction[action] = true
		}
	}
}

// summaryOut is where the run prints its progress and summary.
func (s *Suite) summaryOut() io.Writer {
	if s.opts.Out == nil {
		return io.Discard
	}
	return s.opts.Out
}

func (p *properties) count(name string, tried, shrunk int, failed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tried[name] += tried
	p.shrunk[name] += shrunk
	if failed {
		p.failed[name]++
	}
}

func (p *properties) summary(w io.Writer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.tried) == 0 {
		return
	}
	names := make([]string, 0, len(p.tried))
	for n := range p.tried {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "\nproperty cases tried (%s=N for more):\n", framework.ChecksEnv)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %6d cases (+%d runs shrinking), %d checks falsified\n", n, p.tried[n], p.shrunk[n], p.failed[n])
	}
}

// cases returns how many cases one check of a property tries.
func cases(property string) int {
	if v, err := strconv.Atoi(os.Getenv(framework.ChecksEnv)); err == nil && v > 0 {
		return v
	}
	return propertyCases[property]
}

// rapidSeed derives the rapid seed of one check from the run seed (the
// --seed flag, else Ginkgo's time-based seed) and the check id, so a check
// replays alone with --seed N --focus ID.
func rapidSeed(runSeed int64, checkID string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s", runSeed, checkID)
	if v := h.Sum64(); v != 0 {
		return v
	}
	return 1
}

// configureRapid sets rapid's process-wide knobs for the next Check: they
// exist only as command-line flags.
func configureRapid(checks int, seed uint64) error {
	for name, value := range map[string]string{
		"rapid.checks":     strconv.Itoa(checks),
		"rapid.seed":       strconv.FormatUint(seed, 10),
		"rapid.nofailfile": "true",
		"rapid.shrinktime": "5s",
	} {
		if err := flag.Set(name, value); err != nil {
			return fmt.Errorf("configure rapid: %w", err)
		}
	}
	return nil
}

// caseReport is what a property records about the case it is falsifying,
// for the reproducer.
type caseReport struct {
	Tool     string
	Args     string
	Upstream string // the planted payload or fault
	Observed string // what broke the property
	Excerpt  string // the offending output, secret highlighted
	Outcome  *harness.Outcome
}

// propTB is the rapid.TB the properties run under: it records instead of
// failing the Ginkgo spec, so only the shrunk case is reported.
type propTB struct {
	name   string
	failed bool
	logs   []string
}

type propStop struct{}

func (t *propTB) Helper()                       {}
func (t *propTB) Name() string                  { return t.name }
func (t *propTB) Logf(format string, a ...any)  { t.logs = append(t.logs, fmt.Sprintf(format, a...)) }
func (t *propTB) Log(a ...any)                  { t.logs = append(t.logs, fmt.Sprint(a...)) }
func (t *propTB) Skipf(format string, a ...any) { t.Logf(format, a...); panic(propStop{}) }
func (t *propTB) Skip(a ...any)                 { t.Log(a...); panic(propStop{}) }
func (t *propTB) SkipNow()                      { panic(propStop{}) }
func (t *propTB) Errorf(format string, a ...any) {
	t.failed = true
	t.Logf(format, a...)
}
func (t *propTB) Error(a ...any) { t.failed = true; t.Log(a...) }
func (t *propTB) Fatalf(format string, a ...any) {
	t.Errorf(format, a...)
	panic(propStop{})
}
func (t *propTB) Fatal(a ...any) { t.Error(a...); panic(propStop{}) }
func (t *propTB) FailNow()       { t.failed = true; panic(propStop{}) }
func (t *propTB) Fail()          { t.failed = true }
func (t *propTB) Failed() bool   { return t.failed }

// check runs one property with rapid under the current spec: n cases,
// seeded from the run seed and the check id, shrunk on failure; body
// returns nil when the case holds, or the report of a falsified case.
func (p *properties) check(property string, body func(t *rapid.T) *caseReport) {
	ginkgo.GinkgoHelper()
	c := p.s.Current()
	runSeed := ginkgo.GinkgoRandomSeed()
	n := cases(property)
	if err := configureRapid(n, rapidSeed(runSeed, c.ID)); err != nil {
		p.s.fail(nil, "%v", err)
	}
	var (
		last          *caseReport
		tried, shrunk int
	)
	tb := &propTB{name: c.ID}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(propStop); !ok {
					panic(r)
				}
			}
		}()
		rapid.Check(tb, func(t *rapid.T) {
			if last == nil {
				tried++
			} else {
				shrunk++
			}
			if rep := body(t); rep != nil {
				last = rep
				t.Fatalf("%s", rep.Observed)
			}
		})
	}()
	p.count(property, tried, shrunk, tb.failed)
	if !tb.failed {
		return
	}
	p.s.fail(nil, "%s", p.reproducer(property, c.ID, runSeed, tried, shrunk, last, tb))
}

// edgeReport describes a falsified fixed edge case of a property: the
// case, and the rerun line (edge cases need no seed).
func (p *properties) edgeReport(property string, r *caseReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "property %s falsified by a fixed edge case (tried on every run, whatever the seed):\n", property)
	p.describeCase(&b, r)
	return b.String()
}

// describeCase writes the tool, arguments, upstream, what broke and the
// call of one case.
func (p *properties) describeCase(b *strings.Builder, r *caseReport) {
	fmt.Fprintf(b, "  tool:      %s\n  arguments: %s\n", r.Tool, ClipString(r.Args, 600))
	if r.Upstream != "" {
		fmt.Fprintf(b, "  upstream:  %s\n", ClipString(r.Upstream, 1200))
	}
	fmt.Fprintf(b, "  broken:    %s\n", r.Observed)
	if r.Excerpt != "" {
		fmt.Fprintf(b, "  output:    %s\n", r.Excerpt)
	}
	if r.Outcome != nil {
		b.WriteString(IndentLines(r.Outcome.Describe(), "  | "))
	}
}

func (p *properties) reproducer(property, checkID string, runSeed int64, tried, shrunk int, r *caseReport, tb *propTB) string {
	var b strings.Builder
	fmt.Fprintf(&b, "property %s falsified at case %d (then %d runs shrinking it); the shrunk case:\n", property, tried, shrunk)
	if r == nil {
		fmt.Fprintf(&b, "  (no case recorded)\n  rapid: %s\n", strings.Join(tb.logs, "\n  rapid: "))
	} else {
		p.describeCase(&b, r)
	}
	fmt.Fprintf(&b, "the rerun line below replays this case: same seed (%d), same cases", runSeed)
	return b.String()
}

// IndentLines puts prefix before every line of s.
func IndentLines(s, prefix string) string {
	s = strings.TrimRight(s, "\n")
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix) + "\n"
}

// ClipString cuts s to n bytes, saying how long it was.
func ClipString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("… (%d bytes)", len(s))
}

// propEnv is the private upstream and server of one property check, so a
// check replays alone exactly as it ran in the whole suite.
type propEnv struct {
	p   *properties
	h   harness.Harness
	up  *harness.Upstream
	cfg harness.Config
	srv *harness.Server
}

// env starts a private mock with opts; the server is started on first use
// with cfg. Both stop when the check ends.
func (p *properties) env(opts mockombi.Options, cfg harness.Config) *propEnv {
	ginkgo.GinkgoHelper()
	up, err := harness.StartMock(opts)
	if err != nil {
		p.s.fail(nil, "start a private mock: %v", err)
	}
	e := &propEnv{p: p, h: *p.s.h, up: up, cfg: cfg}
	e.h.Upstream = up
	ginkgo.DeferCleanup(func() {
		if e.srv != nil {
			_ = e.srv.Close()
		}
		_ = up.Close()
	})
	return e
}

// variant is another server configuration on the same private mock (for
// example a short OMBI_TIMEOUT); its server stops when the check ends.
func (e *propEnv) variant(cfg harness.Config) *propEnv {
	v := &propEnv{p: e.p, h: e.h, up: e.up, cfg: cfg}
	ginkgo.DeferCleanup(func() {
		if v.srv != nil {
			_ = v.srv.Close()
		}
	})
	return v
}

// server returns the running server, starting one if none runs.
func (e *propEnv) server(ctx context.Context) (*harness.Server, error) {
	if e.srv != nil {
		return e.srv, nil
	}
	srv, err := e.h.Start(ctx, e.cfg)
	if err != nil {
		return nil, err
	}
	if _, err := srv.Tools(ctx); err != nil {
		_ = srv.Close()
		return nil, err
	}
	e.srv = srv
	return srv, nil
}

// restart drops the running server (after a crash or a hang).
func (e *propEnv) restart() {
	if e.srv != nil {
		srv := e.srv
		e.srv = nil
		go func() { _ = srv.Close() }()
	}
}

// call makes one tools/call; a harness error (the server died or hung)
// restarts the server and is returned.
func (e *propEnv) call(ctx context.Context, tool string, args json.RawMessage) (*harness.Outcome, error) {
	srv, err := e.server(ctx)
	if err != nil {
		return nil, err
	}
	o, err := srv.CallRaw(ctx, tool, args)
	e.p.s.CountCall()
	if err != nil {
		e.restart()
		return nil, err
	}
	return o, nil
}

// stderrSince returns what the server wrote to stderr after before.
func (e *propEnv) stderrSince(before string) string {
	if e.srv == nil {
		return ""
	}
	after := e.srv.StderrAll()
	if strings.HasPrefix(after, before) {
		return after[len(before):]
	}
	return after
}

func (e *propEnv) stderr() string {
	if e.srv == nil {
		return ""
	}
	return e.srv.StderrAll()
}

// fetch replays a journaled GET against the mock (with the headers the
// server sent) and returns the answer's status and body.
func (e *propEnv) fetch(c mockombi.Call) (int, []byte) {
	target := c.Path
	if c.Query != "" {
		target += "?" + c.Query
	}
	req := httptest.NewRequest(c.Method, target, nil)
	for k, v := range c.Header {
		req.Header[k] = append([]string(nil), v...)
	}
	rec := httptest.NewRecorder()
	e.up.Mock().Handler().ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

// globEscape turns a literal request path into a fault glob that matches
// only it.
func globEscape(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// faultFor targets a fault at exactly one journaled call.
func faultFor(c mockombi.Call, f mockombi.Fault) mockombi.Fault {
	f.Method, f.Path = c.Method, globEscape(pathOnly(c.Path))
	return f
}

// isMutation reports whether an upstream call can change state.
func isMutation(c mockombi.Call) bool {
	switch c.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// secret is one value that must never appear in any output.
type secret struct{ name, value string }

// secrets lists the mock's canaries and the credentials the server was
// given or issued (see upstreamSecrets).
func (e *propEnv) secrets() []secret { return upstreamSecrets(e.up) }

// upstreamSecrets lists the mock's canaries and the credentials a server
// of it was given or issued: API key, passwords, and every JWT seen on the
// wire; for a live Ombi, the credentials the run was given and the JWTs.
func upstreamSecrets(up *harness.Upstream) []secret {
	var out []secret
	if up.IsLive() { // the credentials the run was given
		creds := up.Credentials()
		for _, c := range []secret{{"the configured API key", creds.APIKey}, {"the configured password", creds.Password}} {
			if len(c.value) >= 6 {
				out = append(out, c)
			}
		}
	} else {
		cs, _ := up.Canaries()
		for _, c := range cs {
			out = append(out, secret{"canary " + c.Name + " (" + c.Where + ")", c.Value})
		}
		creds := up.Mock().Credentials()
		out = append(out, secret{"the configured API key", creds.APIKey})
		for _, u := range creds.Users {
			out = append(out, secret{"the password of " + u.Username, u.Password})
		}
	}
	seen := map[string]bool{}
	for _, c := range up.Journal() {
		if tok, ok := strings.CutPrefix(c.Header.Get("Authorization"), "Bearer "); ok && !seen[tok] {
			seen[tok] = true
			out = append(out, secret{"the JWT issued to the server", tok})
		}
	}
	return out
}

// findSecret searches texts (named outputs) for any form of any secret and
// returns a description and a highlighted excerpt of the first hit.
func findSecret(secrets []secret, texts [][2]string) (string, string, bool) {
	for _, s := range secrets {
		for _, f := range canaryForms(s.value) {
			for _, t := range texts {
				if i := strings.Index(t[1], f); i >= 0 {
					lo, hi := max(0, i-80), min(len(t[1]), i+len(f)+80)
					ex := t[0] + ": …" + t[1][lo:i] + "»" + f + "«" + t[1][i+len(f):hi] + "…"
					return fmt.Sprintf("%s carries %s as %q", t[0], s.name, f), ex, true
				}
			}
		}
	}
	return "", "", false
}

// outputs names every text of an outcome a secret must not appear in.
func outputs(o *harness.Outcome, stderr string) [][2]string {
	out := [][2]string{{"server stderr", stderr}}
	if o == nil {
		return out
	}
	out = append(out, [2]string{"structuredContent", string(o.Structured)}, [2]string{"text content", o.Text})
	if o.RPCError != nil {
		out = append(out, [2]string{"JSON-RPC error", o.RPCError.Message + " " + string(o.RPCError.Data)})
	}
	return out
}

// centralBreach describes the first central result violation, if any.
func centralBreach(o *harness.Outcome) string {
	if o == nil || len(o.Violations) == 0 {
		return ""
	}
	v := o.Violations[0]
	return fmt.Sprintf("central result check %s: %s", v.Clause, v.Message)
}

package checks

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// This file declares the any area: the rules every Ombi MCP server keeps,
// whatever its tools are called, judged on every tool it lists (the checks
// of ProfileAny; a run in ProfileDesign runs them too). The rules are the
// ANY-* clauses; docs/judging-your-server.md explains each.

// Bounds of the any area.
const (
	// anyExplore is how many schema-valid argument objects each tool is
	// called with.
	anyExplore = 8
	// anyResultMax bounds the bytes of one result (text and structured).
	anyResultMax = 256 << 10
	// anyDescriptionMax bounds a tool description.
	anyDescriptionMax = 4096
	// anyHangTimeout is the OMBI_TIMEOUT of the server a hang is judged
	// on, and anyHangBound how long it may take to give up.
	anyHangTimeout = 500 * time.Millisecond
	anyHangBound   = 15 * time.Second
)

func (s *Suite) anyArea() {
	var tools []*mcp.Tool
	if s.Listed() != nil {
		tools = s.Listed()
	}
	// a live run without --allow-mutations calls read-only tools only
	effect := func(readOnly bool) ginkgo.Labels {
		if readOnly {
			return ginkgo.Label(LabelReadOnly)
		}
		return nil
	}
	ginkgo.Describe("any", ginkgo.Label(framework.LabelAny), func() {
		for _, t := range tools {
			s.ClauseItFor("ANY-SURFACE-001", t.Name, func() { s.anySurface(t) }, ginkgo.Label(LabelReadOnly), ownTool(t.Name))
		}
		// the journal and faults: the embedded mock's, or those of the
		// proxy in front of a live Ombi
		ginkgo.Context("with the upstream's journal", ginkgo.Label(LabelNeedsJournal), func() {
			ginkgo.BeforeEach(s.clean)
			ginkgo.BeforeEach(s.keepMockState)
			for _, t := range tools {
				ro := effect(t.Annotations != nil && t.Annotations.ReadOnlyHint)
				s.ClauseItFor("ANY-EXPLORE-001", t.Name, func(ctx ginkgo.SpecContext) { s.anyExplore(ctx, t) }, ownTool(t.Name), ro)
				s.ClauseItFor("ANY-REFUSE-001", t.Name, func(ctx ginkgo.SpecContext) { s.anyRefuse(ctx, t) }, ownTool(t.Name), ro)
				s.ClauseItFor("ANY-FAULTS-001", t.Name, func(ctx ginkgo.SpecContext) { s.anyFaults(ctx, t) }, ownTool(t.Name), ro)
				s.ClauseItFor("ANY-REDIRECT-001", t.Name, func(ctx ginkgo.SpecContext) { s.anyRedirect(ctx, t) }, ownTool(t.Name), ro)
			}
			for _, kind := range []string{"read", "write"} {
				read := kind == "read"
				s.ClauseItFor("ANY-TIMEOUT-001", kind, func(ctx ginkgo.SpecContext) { s.anyHang(ctx, tools, kind) }, effect(read))
			}
		})
	})
}

// keepMockState puts the embedded mock's data back as it was when the check
// ends: the area calls the server's tools, its write tools too, with
// arguments drawn from their schemas and the mock's ids, which may delete or
// change the seed entities that the design's checks in the same process
// name. The mock's logins and tokens stay as they are (RestoreState). A live run's proxy
// holds no data and is left alone.
func (s *Suite) keepMockState() {
	ginkgo.GinkgoHelper()
	m := s.h.Upstream.Mock()
	if m == nil || s.h.Upstream.IsLive() {
		return
	}
	var snap bytes.Buffer
	if err := m.WriteState(&snap); err != nil {
		s.fail(nil, "keep the mock's state: %v", err)
	}
	ginkgo.DeferCleanup(func() {
		if err := m.RestoreState(snap.Bytes()); err != nil {
			ginkgo.Fail(fmt.Sprintf("put the mock's state back after the check: %v", err))
		}
	})
}

// anySurface judges what tools/list says of one tool: its name, its
// description, its input and output schemas (JSON Schema 2020-12, objects,
// portable to the model APIs) and its annotations.
func (s *Suite) anySurface(t *mcp.Tool) {
	ginkgo.GinkgoHelper()
	var e errs
	if !framework.ValidToolName(t.Name) {
		e.addf("the name %q is not 1 to 128 of A-Z a-z 0-9 _ - .", t.Name)
	}
	switch d := strings.TrimSpace(t.Description); {
	case d == "":
		e.addf("no description: a model picks tools by it")
	case len(d) > anyDescriptionMax:
		e.addf("the description has %d bytes, more than %d", len(d), anyDescriptionMax)
	}
	for _, sc := range []struct {
		name string
		raw  any
		must bool
	}{{"inputSchema", t.InputSchema, true}, {"outputSchema", t.OutputSchema, false}} {
		if sc.raw == nil {
			if sc.must {
				e.addf("no inputSchema")
			}
			continue
		}
		raw, _ := json.Marshal(sc.raw)
		if _, err := spec.Compile("mem://any/"+t.Name+"/"+sc.name+".json", raw, false); err != nil {
			e.addf("the %s does not compile as JSON Schema 2020-12: %v", sc.name, err)
			continue
		}
		var top map[string]any
		if json.Unmarshal(raw, &top) != nil || top["type"] != "object" {
			e.addf("the %s is not a schema of type object: %s", sc.name, ClipString(string(raw), 200))
		}
		if sc.name == "inputSchema" {
			for _, p := range spec.CheckPortable(raw) {
				e.addf("the inputSchema is not portable to the model APIs: %s", p)
			}
		}
	}
	switch a := t.Annotations; {
	case a == nil:
		e.addf("no annotations: readOnlyHint and destructiveHint tell a client what the tool may change")
	case !a.ReadOnlyHint && a.DestructiveHint == nil:
		e.addf("a tool that is not read-only states no destructiveHint (MCP's default is true: every write would count as destructive)")
	}
	s.expectNone(e, "ANY-SURFACE-001: tools/list describes "+t.Name+" in ways a client cannot rely on")
}

// anyServer is the shared server the any checks call, in the run's mode.
func (s *Suite) anyServer(ctx context.Context) *harness.Server {
	ginkgo.GinkgoHelper()
	return s.shared(ctx, s.allConfig())
}

// anyCall calls a tool and judges what every call must keep, whatever its
// arguments: an answer in time, no credential, HTML, stack trace or control
// character in what it says, a bounded size, upstream calls to Ombi's
// routes with the mode's credentials, and the effects its annotations
// allow. It returns the outcome and the breaches found.
func (s *Suite) anyCall(ctx context.Context, srv *harness.Server, t *mcp.Tool, args json.RawMessage) (*harness.Outcome, []string) {
	ginkgo.GinkgoHelper()
	before := srv.StderrAll()
	o, err := srv.CallRaw(ctx, t.Name, args)
	s.CountCall()
	if err != nil {
		s.forget(srv)
		return nil, []string{fmt.Sprintf("the call got no answer: %v", err)}
	}
	o.Violations = nil // the design's result contract, which the any profile does not hold servers to
	stderr := strings.TrimPrefix(srv.StderrAll(), before)
	var out []string
	if what, ex, leaked := findSecret(upstreamSecrets(s.h.Upstream), outputs(o, stderr)); leaked {
		out = append(out, fmt.Sprintf("ANY-LEAK-001: %s: %s", what, ex))
	}
	out = append(out, hygiene(o)...)
	out = append(out, s.upstreamOracle(o.Journal, t)...)
	return o, out
}

// anyExplore calls a tool with schema-valid arguments drawn from its own
// input schema and seeded with the mock's ids and titles: each call
// answers a result (never a JSON-RPC error) that its outputSchema, if any,
// accepts, and keeps the rules of anyCall.
func (s *Suite) anyExplore(ctx context.Context, t *mcp.Tool) {
	ginkgo.GinkgoHelper()
	srv := s.anyServer(ctx)
	argsList, err := s.validArgs(t, anyExplore)
	if err != nil {
		s.fail(nil, "ANY-EXPLORE-001: %s: %v", t.Name, err)
	}
	if len(argsList) == 0 {
		skipAs(framework.StateNotApplicable, "the suite drew no argument object "+t.Name+"'s input schema accepts")
	}
	out := outputSchema(t)
	for _, args := range argsList {
		o, breaches := s.anyCall(ctx, srv, t, args)
		if o != nil && o.RPCError != nil {
			breaches = append(breaches, fmt.Sprintf("ANY-EXPLORE-001: schema-valid arguments answered a JSON-RPC error (%d %s): a tool's failure is a result with isError true", o.RPCError.Code, o.RPCError.Message))
		}
		if o != nil && o.Result != nil && !o.Result.IsError && out != nil && o.Result.StructuredContent != nil {
			if err := validateJSON(out, o.Structured); err != nil {
				breaches = append(breaches, fmt.Sprintf("ANY-EXPLORE-001: structuredContent does not validate against the tool's outputSchema: %v", err))
			}
		}
		if o != nil && o.Result != nil && !o.Result.IsError && len(o.Journal) > 0 {
			s.noteReaching(t.Name, args)
		}
		if len(breaches) > 0 && o != nil {
			if small, so, sb := s.shrink(ctx, srv, t, args, breaches); len(small) < len(args) {
				sb = append(sb, fmt.Sprintf("(shrunk from the arguments drawn, %s: the optional members left out change nothing)", args))
				o, breaches = so, sb
			}
		}
		s.expectNoBreach(o, breaches)
	}
}

// shrink leaves out the optional members of a call's arguments one at a
// time, keeping each omission after which the call still breaks the same
// rules, so that a failure shows the smallest call that breaks them.
func (s *Suite) shrink(ctx context.Context, srv *harness.Server, t *mcp.Tool, args json.RawMessage, breaches []string) (json.RawMessage, *harness.Outcome, []string) {
	ginkgo.GinkgoHelper()
	_, schema, compiled, err := inputSchema(t)
	var obj map[string]any
	if err != nil || json.Unmarshal(args, &obj) != nil {
		return args, nil, nil
	}
	required := map[string]bool{}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				required[name] = true
			}
		}
	}
	want := breachClauses(breaches)
	best, bestOut, bestBreaches := args, (*harness.Outcome)(nil), breaches
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if required[k] {
			continue
		}
		v := obj[k]
		delete(obj, k)
		cand, _ := json.Marshal(obj)
		if validateJSON(compiled, cand) == nil {
			if o, b := s.anyCall(ctx, srv, t, cand); o != nil && slices.Equal(breachClauses(b), want) {
				best, bestOut, bestBreaches = cand, o, b
				continue
			}
		}
		obj[k] = v
	}
	return best, bestOut, bestBreaches
}

// breachClauses are the clauses a call's breaches name, sorted.
func breachClauses(breaches []string) []string {
	var out []string
	for _, b := range breaches {
		if id, _, ok := strings.Cut(b, ": "); ok && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// anyRefuse calls a tool with arguments its own schema refuses (a required
// member missing, a member of the wrong type, an unknown member, a value
// outside an enum): each is refused, as a result with isError true or a
// JSON-RPC invalid-params error, and sends no upstream write.
func (s *Suite) anyRefuse(ctx context.Context, t *mcp.Tool) {
	ginkgo.GinkgoHelper()
	srv := s.anyServer(ctx)
	cases := invalidArgs(t)
	if len(cases) == 0 {
		skipAs(framework.StateNotApplicable, t.Name+"'s input schema refuses nothing the suite can build (no required, typed, enumerated or closed members)")
	}
	for _, c := range cases {
		o, breaches := s.anyCall(ctx, srv, t, c.args)
		if o != nil {
			refused := (o.Result != nil && o.Result.IsError) || (o.RPCError != nil && o.RPCError.Code == -32602)
			if !refused {
				breaches = append(breaches, fmt.Sprintf("ANY-REFUSE-001: arguments with %s were not refused (want isError true, or JSON-RPC -32602)", c.why))
			}
			for _, call := range o.Journal {
				if isWrite(call) {
					breaches = append(breaches, fmt.Sprintf("ANY-REFUSE-001: arguments with %s sent an upstream write: %s", c.why, callLine(call)))
				}
			}
		}
		s.expectNoBreach(o, breaches)
	}
}

// expectNoBreach fails the check with the breaches of one call, the call
// and its upstream traffic.
func (s *Suite) expectNoBreach(o *harness.Outcome, breaches []string) {
	ginkgo.GinkgoHelper()
	if len(breaches) == 0 {
		return
	}
	s.fail(o, "%s", strings.Join(breaches, "\n"))
}

// anyFault is one upstream condition a tool must survive.
type anyFault struct {
	name  string
	fault mockombi.Fault
	// result: the condition is a valid Ombi answer, so a success is
	// allowed (the data must still be clean); otherwise isError true.
	result bool
	// transform: a 200 answer made from the real one (GET calls only).
	transform func(any) any
}

// anyFaults are the upstream conditions of ANY-FAULTS-001.
func anyFaults() []anyFault {
	ombiStack := "System.NullReferenceException: Object reference not set to an instance of an object.\n" +
		"   at Ombi.Core.Engine.MovieRequestEngine.GetRequests(Int32 count) in /src/Ombi.Core/Engine/MovieRequestEngine.cs:line 241\n" +
		"   at Ombi.Controllers.V1.RequestController.GetRequests() in /src/Ombi/Controllers/V1/RequestController.cs:line 62"
	return []anyFault{
		{name: "401", fault: mockombi.Fault{Status: http.StatusUnauthorized}},
		{name: "403", fault: mockombi.Fault{Status: http.StatusForbidden}},
		{name: "404", fault: mockombi.Fault{Status: http.StatusNotFound}},
		{name: "429", fault: mockombi.Fault{Status: http.StatusTooManyRequests, Headers: map[string]string{"Retry-After": "1"}}},
		{name: "500", fault: mockombi.Fault{Status: http.StatusInternalServerError}},
		{name: "503", fault: mockombi.Fault{Status: http.StatusServiceUnavailable}},
		{name: "html", fault: mockombi.Fault{Kind: mockombi.FaultHTML}},
		{name: "stack trace", fault: mockombi.Fault{Status: http.StatusInternalServerError, Headers: map[string]string{"Content-Type": "text/plain"}, Body: ombiStack}},
		// a tool may not read the answer of a write it only starts
		{name: "malformed", result: true, fault: mockombi.Fault{Kind: mockombi.FaultMalformed}},
		{name: "oversized", fault: mockombi.Fault{Kind: mockombi.FaultOversized, Size: 16 << 20}},
		{name: "null strings", result: true, transform: func(v any) any { return mapStrings(v, func(string) any { return nil }) }},
		{name: "deep nesting", result: true, transform: func(v any) any { return nest(v, anyNesting) }},
		{name: "control characters", result: true, transform: func(v any) any {
			return mapStrings(v, func(s string) any { return "\u202e" + s + "\u0007\u001b[31m\u2066" })
		}},
	}
}

// anyNesting is how deep the deep-nesting condition wraps Ombi's answer.
const anyNesting = 5000

// nest wraps v in depth one-element arrays.
func nest(v any, depth int) any {
	for range depth {
		v = []any{v}
	}
	return v
}

// anyFaults calls a tool, with arguments that reached upstream, once under
// each upstream condition of anyFaults: it answers a result, isError true
// (or, for a valid Ombi answer, a clean success), sends no write twice,
// and keeps the rules of anyCall.
func (s *Suite) anyFaults(ctx context.Context, t *mcp.Tool) {
	ginkgo.GinkgoHelper()
	srv := s.anyServer(ctx)
	args, calls := s.reachingArgs(ctx, srv, t)
	var failed []string
	var first *harness.Outcome // the first call that broke a rule
	for _, f := range anyFaults() {
		s.clean()
		if f.transform != nil {
			n := s.plantTransformed(calls, f.transform)
			if n == 0 {
				continue
			}
		} else {
			fault := f.fault
			fault.Path = "/**"
			if err := s.h.Upstream.InjectFault(fault); err != nil {
				s.fail(nil, "inject the %s fault: %v", f.name, err)
			}
		}
		o, breaches := s.anyCall(ctx, srv, t, args)
		if o != nil {
			switch {
			case o.RPCError != nil:
				breaches = append(breaches, fmt.Sprintf("ANY-FAULTS-001: answered a JSON-RPC error (%d %s): an upstream failure is a result with isError true", o.RPCError.Code, o.RPCError.Message))
			case !f.result && !o.Result.IsError:
				breaches = append(breaches, "ANY-FAULTS-001: answered a success (isError false) though Ombi failed: "+ClipString(o.Text, 200))
			}
		}
		for _, b := range breaches {
			failed = append(failed, fmt.Sprintf("under %s: %s", f.name, b))
		}
		if len(breaches) > 0 && first == nil {
			first = o
		}
	}
	s.clean()
	if len(failed) > 0 {
		s.fail(first, "ANY-FAULTS-001: %s with %s, under upstream conditions (the call shown is the first that broke a rule):\n  - %s", t.Name, args, strings.Join(failed, "\n  - "))
	}
}

// anyRedirect answers the calls of a tool with a redirect to another
// origin (a decoy on a loopback port of its own): no credential of the
// server's may reach the decoy.
func (s *Suite) anyRedirect(ctx context.Context, t *mcp.Tool) {
	ginkgo.GinkgoHelper()
	srv := s.anyServer(ctx)
	args, _ := s.reachingArgs(ctx, srv, t)
	d := startDecoy()
	defer d.close()
	if err := s.h.Upstream.InjectFault(mockombi.Fault{Path: "/**", Status: http.StatusTemporaryRedirect, Headers: map[string]string{"Location": d.url + "/api/v1/elsewhere"}}); err != nil {
		s.fail(nil, "inject the redirect: %v", err)
	}
	o, breaches := s.anyCall(ctx, srv, t, args)
	for _, r := range d.requests() {
		for _, sec := range upstreamSecrets(s.h.Upstream) {
			if sec.value != "" && strings.Contains(r, sec.value) {
				breaches = append(breaches, fmt.Sprintf("ANY-REDIRECT-001: %s reached another origin, following a redirect: %s", sec.name, ClipString(strings.ReplaceAll(r, sec.value, "«"+sec.name+"»"), 300)))
			}
		}
	}
	if o != nil && o.RPCError == nil && o.Result != nil && !o.Result.IsError {
		breaches = append(breaches, "ANY-REDIRECT-001: a redirect to another origin answered a success; the server cannot have Ombi's answer")
	}
	s.expectNoBreach(o, breaches)
}

// anyHang makes Ombi hang on the first tool of kind (read or write) whose calls
// reach upstream: with OMBI_TIMEOUT at anyHangTimeout the tool answers,
// isError true, within anyHangBound.
func (s *Suite) anyHang(ctx context.Context, tools []*mcp.Tool, kind string) {
	ginkgo.GinkgoHelper()
	cfg := s.allConfig()
	cfg.Timeout = anyHangTimeout.String()
	srv := s.shared(ctx, cfg)
	for _, t := range tools {
		if t.Annotations == nil || t.Annotations.ReadOnlyHint != (kind == "read") {
			continue
		}
		args, ok := s.tryReaching(ctx, srv, t)
		if !ok {
			continue
		}
		s.clean()
		if err := s.h.Upstream.InjectFault(mockombi.Fault{Path: "/**", DelayMS: int((anyHangBound + 30*time.Second) / time.Millisecond)}); err != nil {
			s.fail(nil, "inject the hang: %v", err)
		}
		cctx, cancel := context.WithTimeout(ctx, anyHangBound)
		defer cancel()
		start := time.Now()
		o, breaches := s.anyCall(cctx, srv, t, args)
		took := time.Since(start)
		if o == nil {
			breaches = append(breaches, fmt.Sprintf("ANY-TIMEOUT-001: %s with %s: no answer within %s while Ombi hung (OMBI_TIMEOUT=%s)", t.Name, args, anyHangBound, anyHangTimeout))
		} else if o.RPCError != nil || !o.Result.IsError {
			breaches = append(breaches, fmt.Sprintf("ANY-TIMEOUT-001: %s answered in %s, but not a result with isError true, while Ombi hung", t.Name, took.Round(time.Millisecond)))
		}
		_ = s.h.Upstream.ClearFaults()
		s.expectNoBreach(o, breaches)
		return
	}
	skipAs(framework.StateNotApplicable, "no "+kind+" tool of the server reached upstream")
}

// reachingArgs returns arguments whose call reached upstream and the
// upstream calls it made; the check is not applicable when none does.
func (s *Suite) reachingArgs(ctx context.Context, srv *harness.Server, t *mcp.Tool) (json.RawMessage, []mockombi.Call) {
	ginkgo.GinkgoHelper()
	args, ok := s.tryReaching(ctx, srv, t)
	if !ok {
		skipAs(framework.StateNotApplicable, "no schema-valid call of "+t.Name+" reached upstream")
	}
	s.clean()
	o, err := srv.CallRaw(ctx, t.Name, args)
	if err != nil {
		s.fail(nil, "call %s: %v", t.Name, err)
	}
	return args, o.Journal
}

// tryReaching finds arguments whose call answers a success after reaching
// upstream, remembered per tool.
func (s *Suite) tryReaching(ctx context.Context, srv *harness.Server, t *mcp.Tool) (json.RawMessage, bool) {
	ginkgo.GinkgoHelper()
	s.anyMu.Lock()
	args, ok := s.reaching[t.Name]
	s.anyMu.Unlock()
	if ok {
		return args, true
	}
	cands, err := s.validArgs(t, 3*anyExplore)
	if err != nil {
		return nil, false
	}
	for _, ex := range s.tables[t.Name].Valid { // a catalogue tool's own examples
		cands = append(cands, s.ownArgs(t.Name, ex.Args))
	}
	var fallback json.RawMessage
	for _, a := range cands {
		s.clean()
		o, err := srv.CallRaw(ctx, t.Name, a)
		if err != nil || len(o.Journal) == 0 {
			continue
		}
		if o.Result != nil && !o.Result.IsError {
			s.noteReaching(t.Name, a)
			return a, true
		}
		if fallback == nil {
			fallback = a
		}
	}
	if fallback != nil {
		s.noteReaching(t.Name, fallback)
	}
	return fallback, fallback != nil
}

func (s *Suite) noteReaching(tool string, args json.RawMessage) {
	s.anyMu.Lock()
	defer s.anyMu.Unlock()
	if s.reaching == nil {
		s.reaching = map[string]json.RawMessage{}
	}
	if _, ok := s.reaching[tool]; !ok {
		s.reaching[tool] = args
	}
}

// plantTransformed answers each GET the tool made with the mock's real
// answer passed through transform; it returns how many it planted.
func (s *Suite) plantTransformed(calls []mockombi.Call, transform func(any) any) int {
	ginkgo.GinkgoHelper()
	n := 0
	for _, c := range calls {
		if c.Method != http.MethodGet || c.Status != http.StatusOK {
			continue
		}
		real, ok := s.upstreamJSON(c)
		if !ok {
			continue
		}
		body, _ := json.Marshal(transform(real))
		f := faultFor(c, mockombi.Fault{Status: http.StatusOK, Body: string(body)})
		if err := s.h.Upstream.InjectFault(f); err != nil {
			s.fail(nil, "plant an answer: %v", err)
		}
		n++
	}
	return n
}

// upstreamJSON is the upstream's own answer to a GET the server made, asked
// again with the server's credentials (through the proxy, a live Ombi's),
// when it is 200 with JSON that is not null.
func (s *Suite) upstreamJSON(c mockombi.Call) (any, bool) {
	header := http.Header{}
	for _, h := range []string{"ApiKey", "UserName", "Authorization", "Accept"} {
		if v := c.Header.Get(h); v != "" {
			header.Set(h, v)
		}
	}
	rec := s.mockDirect(http.MethodGet, pathOnly(c.Path)+query(c.Query), header)
	var v any
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &v) != nil || v == nil {
		return nil, false
	}
	return v, true
}

func query(q string) string {
	if q == "" {
		return ""
	}
	return "?" + q
}

// isWrite reports whether an upstream call can change Ombi's state: any
// method but GET, HEAD and OPTIONS, except the POSTs Ombi serves as reads
// (the searches the route ledger gives read tools) and the login, which
// issues a token and changes nothing (a server may log in again after a
// failed login; the upstream oracle leaves logins aside too).
func isWrite(c mockombi.Call) bool {
	if !isMutation(c) || isLogin(c) {
		return false
	}
	r, ok := ledgerRoute(c)
	return !ok || !strings.HasPrefix(r.Tool, "read_")
}

// writtenTwice names the writes one call sent more than once (same method,
// path and body).
func writtenTwice(calls []mockombi.Call) []string {
	seen := map[string]int{}
	var out []string
	for _, c := range calls {
		if !isWrite(c) {
			continue
		}
		key := c.Method + " " + pathOnly(c.Path) + " " + string(c.Body)
		seen[key]++
		if seen[key] == 2 {
			out = append(out, "ANY-EFFECTS-001: the same write was sent twice: "+callLine(c))
		}
	}
	return out
}

// upstreamOracle judges the upstream calls of one tools/call: each is a
// route of Ombi (one the mock serves or the ledger lists), with a body and
// query Ombi reads (no member or parameter its action does not have), and
// the credentials of the mode; a read-only tool writes nothing; no write
// is sent twice.
func (s *Suite) upstreamOracle(calls []mockombi.Call, t *mcp.Tool) []string {
	var out []string
	mode := s.withMode(harness.Config{}).AuthMode
	creds := s.h.Upstream.Credentials()
	readOnly := t.Annotations != nil && t.Annotations.ReadOnlyHint
	for _, c := range calls {
		if isLogin(c) {
			continue
		}
		r, known := ledgerRoute(c)
		switch {
		case c.Route == "" && !known:
			out = append(out, "ANY-UPSTREAM-001: "+c.Method+" "+pathOnly(c.Path)+" is not a route of Ombi's API")
		}
		if known && len(c.Body) > 0 {
			if extra := unknownMembers(c.Body, r.Body); len(extra) > 0 {
				out = append(out, fmt.Sprintf("ANY-UPSTREAM-001: %s %s sent body members Ombi's model for it does not have: %s (it reads %s)", c.Method, pathOnly(c.Path), strings.Join(extra, ", "), strings.Join(r.Body, ", ")))
			}
		}
		if known && c.Query != "" {
			if extra := unknownParams(c.Query, r.Query); len(extra) > 0 {
				out = append(out, fmt.Sprintf("ANY-UPSTREAM-001: %s %s sent query parameters Ombi's action for it does not read: %s (it reads %s)", c.Method, pathOnly(c.Path), strings.Join(extra, ", "), cmp.Or(strings.Join(r.Query, ", "), "none")))
			}
		}
		switch mode {
		case "api_key":
			if c.Header.Get("ApiKey") != creds.APIKey {
				out = append(out, "ANY-UPSTREAM-001: "+c.Method+" "+pathOnly(c.Path)+" did not carry the configured ApiKey")
			}
		default:
			if !strings.HasPrefix(c.Header.Get("Authorization"), "Bearer ") {
				out = append(out, "ANY-UPSTREAM-001: "+c.Method+" "+pathOnly(c.Path)+" was sent without the bearer token")
			}
		}
		if readOnly && isWrite(c) {
			out = append(out, "ANY-EFFECTS-001: "+t.Name+" is annotated readOnlyHint true but sent a write: "+callLine(c))
		}
		if !readOnly && t.Annotations != nil && t.Annotations.DestructiveHint != nil && !*t.Annotations.DestructiveHint && c.Method == http.MethodDelete {
			out = append(out, "ANY-EFFECTS-001: "+t.Name+" is annotated destructiveHint false but sent a DELETE: "+callLine(c))
		}
	}
	return append(out, writtenTwice(calls)...)
}

// ledgerRoute finds the route of the ledger a call matches (method and
// path template, case-insensitively as Ombi routes), with the body members
// of every branch that routes there.
func ledgerRoute(c mockombi.Call) (spec.Route, bool) {
	path := strings.Split(strings.Trim(pathOnly(c.Path), "/"), "/")
	var found spec.Route
	ok := false
	for _, r := range spec.Routes() {
		if !strings.EqualFold(r.Method, c.Method) {
			continue
		}
		tmpl := strings.Split(strings.Trim(r.Path, "/"), "/")
		if len(tmpl) != len(path) {
			continue
		}
		match := true
		for i, seg := range tmpl {
			if !strings.HasPrefix(seg, "{") && !strings.EqualFold(seg, path[i]) {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		if !ok {
			found, ok = r, true
			continue
		}
		for _, m := range r.Body {
			if !slices.Contains(found.Body, m) {
				found.Body = append(found.Body, m)
			}
		}
		for _, q := range r.Query {
			if !slices.Contains(found.Query, q) {
				found.Query = append(found.Query, q)
			}
		}
	}
	return found, ok
}

// unknownParams lists the query parameters of a call that match none of
// the route's, ignoring case as ASP.NET binds.
func unknownParams(rawQuery string, params []string) []string {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return []string{rawQuery}
	}
	return notAmong(q, params)
}

// unknownMembers lists the top-level members of a JSON object body that
// match none of the route's members, ignoring case as Newtonsoft binds.
func unknownMembers(body json.RawMessage, members []string) []string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(body, &obj) != nil {
		return nil
	}
	return notAmong(obj, members)
}

// notAmong lists, sorted, the keys of m that match none of names,
// ignoring case.
func notAmong[V any](m map[string]V, names []string) []string {
	var out []string
	for k := range m {
		if !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, k) }) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

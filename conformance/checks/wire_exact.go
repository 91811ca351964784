package checks

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// This file runs the exact-wire cases of testdata/wire-exact.json: for one
// branch call, every upstream call it must make, written as data (method,
// literal escaped path, query, the complete JSON body by deep equality),
// their number and order, nothing else sent; optionally upstream answers
// injected first (faults) and what the result must then say (outcome,
// warnings, truncation, data members that must hold or be absent). One
// generic check runs them all: a new branch is a new data case, not code.

//go:embed testdata/wire-exact.json
var wireExactJSON []byte

// Sentinels of the case data.
const (
	// exactAny, as a whole string in an expected body, matches any value
	// (the member must be present): for fields the documents leave open.
	exactAny = "${any}"
	// exactAbsent, as an expected data or metric value, requires that the
	// member does not exist.
	exactAbsent = "$absent"
	// exactAnyOutcome, as expect.code, accepts any outcome: the case pins
	// only the wire (a write against an id upstream does not hold).
	exactAnyOutcome = "*"
)

// exactFile is testdata/wire-exact.json.
type exactFile struct {
	// Vars are values read from the embedded mock (as its principal API
	// key) right before a case runs, referenced as ${NAME} or
	// ${NAME.member.0.member} in any string of a case.
	Vars  map[string]exactVar `json:"vars"`
	Cases []exactCase         `json:"cases"`
}

// exactVar is one mock read: GET Get (which may itself hold ${...}), then
// in an array answer the first element whose members equal Where, then
// the JSON pointer Pick.
type exactVar struct {
	Get   string         `json:"get"`
	Where map[string]any `json:"where"`
	Pick  string         `json:"pick"`
}

// exactCase is one check: a single step (Args, Faults, Calls, Expect) or
// Steps run in order on one server.
type exactCase struct {
	Name   string `json:"name"`   // check qualifier, tool.branch[.variant]
	Clause string `json:"clause"` // clause id the check carries
	Tool   string `json:"tool"`
	Config string `json:"config"` // jwt (default), api_key or plain (the mock's plain user)
	// Env are deployment settings the server is started with, KEY=VALUE
	// (${...} resolved), e.g. the tester profiles OMBI_PROFILES provisions.
	Env   []string    `json:"env"`
	Rule  string      `json:"rule"` // the design rule pinned, quoted in failures
	Steps []exactStep `json:"steps"`
	exactStep
}

// exactStep is one tools/call and what it must send and answer.
type exactStep struct {
	Tool   string           `json:"tool,omitempty"` // in Steps: "" = the case's
	Args   json.RawMessage  `json:"args,omitempty"`
	Faults []mockombi.Fault `json:"faults,omitempty"`
	Calls  []exactCall      `json:"calls"`
	Expect exactExpect      `json:"expect"`
	// Capture keeps members of this step's result data for later steps:
	// variable name -> JSON pointer into data (e.g. a settings revision).
	Capture map[string]string `json:"capture,omitempty"`
}

// exactCall is one expected upstream call. Query nil means no query
// string; a missing Body means no body.
type exactCall struct {
	Method string              `json:"method"`
	Path   string              `json:"path"`
	Query  map[string][]string `json:"query,omitempty"`
	Body   json.RawMessage     `json:"body,omitempty"`
	// BodyWith is deep-merged into Body (objects member by member, any
	// other value replaced): a saved document with one change applied.
	BodyWith json.RawMessage `json:"body_with,omitempty"`
}

// exactExpect is what the result must say.
type exactExpect struct {
	Code       string                     `json:"code,omitempty"` // "" = ok; an error code; "*" = any
	Truncated  *bool                      `json:"truncated,omitempty"`
	Warnings   []string                   `json:"warnings,omitempty"` // each a substring of some warning
	NoWarnings bool                       `json:"no_warnings,omitempty"`
	Data       map[string]json.RawMessage `json:"data,omitempty"`    // JSON pointer into data -> value or "$absent"
	Metrics    map[string]json.RawMessage `json:"metrics,omitempty"` // metric name -> value or "$absent"
}

// exactCases decodes the embedded case file.
func exactCases() (exactFile, error) {
	var f exactFile
	d := json.NewDecoder(bytes.NewReader(wireExactJSON))
	d.DisallowUnknownFields()
	if err := d.Decode(&f); err != nil {
		return f, fmt.Errorf("decode testdata/wire-exact.json: %w", err)
	}
	return f, nil
}

// steps returns the case's steps, the inline one when Steps is empty.
func (c exactCase) steps() []exactStep {
	if len(c.Steps) == 0 {
		st := c.exactStep
		st.Tool = c.Tool
		return []exactStep{st}
	}
	out := make([]exactStep, len(c.Steps))
	for i, st := range c.Steps {
		if st.Tool == "" {
			st.Tool = c.Tool
		}
		out[i] = st
	}
	return out
}

// readOnly reports whether every step calls a read-only tool.
func (c exactCase) readOnly() bool {
	for _, st := range c.steps() {
		t, ok := spec.Lookup(st.Tool)
		if !ok || !t.Annotations.ReadOnlyHint {
			return false
		}
	}
	return true
}

func (s *Suite) exactWire() {
	f, err := exactCases()
	if err != nil {
		ginkgo.Describe("wire exact", ginkgo.Label("wire"), func() {
			s.ClauseItFor("VERIFY-ROUTING-LEDGER-001", "exact.cases", func() { s.fail(nil, "%v", err) })
		})
		return
	}
	ginkgo.Describe("wire exact", ginkgo.Label("wire", "exact"), func() {
		ginkgo.BeforeEach(s.clean)
		for _, c := range f.Cases {
			labels := ginkgo.Label()
			if c.readOnly() {
				labels = ginkgo.Label(LabelReadOnly)
			}
			s.ClauseItFor(c.Clause, "exact."+c.Name, func(ctx ginkgo.SpecContext) {
				s.runExact(ctx, f.Vars, c)
			}, labels)
		}
	})
}

// exactConfig is the server configuration a case names.
func (s *Suite) exactConfig(name string) harness.Config {
	ginkgo.GinkgoHelper()
	if s.live() && name != "plain" { // the principal the live run was given
		return s.allConfig()
	}
	switch name {
	case "", "jwt":
		return jwtConfig()
	case "api_key":
		return apiKeyConfig()
	case "plain":
		return s.plainUserConfig()
	}
	s.fail(nil, "wire-exact case: unknown config %q", name)
	return harness.Config{}
}

func (s *Suite) runExact(ctx ginkgo.SpecContext, vars map[string]exactVar, c exactCase) {
	ginkgo.GinkgoHelper()
	if c.Config == "api_key" && s.h.Upstream.Credentials().UserName != "" && strings.Contains(c.Rule, "bare API key") {
		s.skipLive("the case judges a bare API key, with no user; the run was given a UserName")
	}
	r := &exactResolver{s: s, defs: vars, values: map[string]any{}}
	cfg := s.exactConfig(c.Config)
	for _, kv := range c.Env {
		v, err := r.text(kv)
		if err != nil {
			s.fail(nil, "wire-exact case %s: env %s: %v", c.Name, kv, err)
		}
		cfg.Env = append(append([]string(nil), cfg.Env...), fmt.Sprint(v))
	}
	srv := s.shared(ctx, cfg)
	for i, st := range c.steps() {
		if i > 0 {
			s.clean()
		}
		var step exactStep
		if err := r.render(st, &step); err != nil {
			s.fail(nil, "wire-exact case %s: %v", c.Name, err)
		}
		for j := range step.Calls {
			if err := step.Calls[j].applyWith(); err != nil {
				s.fail(nil, "wire-exact case %s: call %d: %v", c.Name, j+1, err)
			}
		}
		for _, flt := range step.Faults {
			if flt.Body != "" && flt.Kind == "" && flt.Headers == nil {
				flt.Headers = map[string]string{"Content-Type": "application/json"}
			}
			s.injectFault(flt)
		}
		args := step.Args
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		o := s.call(ctx, srv, step.Tool, args)
		var e errs
		exactCalls(&e, step.Calls, s.withoutPrincipal(upstreamCalls(o), identityIn(step.Calls)))
		wireOK := len(e) == 0
		exactResult(&e, step.Expect, o)
		if len(e) > 0 && wireOK {
			s.skipLiveRefusal(o, e)
		}
		if len(e) > 0 {
			where := fmt.Sprintf("step %d %s %s", i+1, step.Tool, clip(args, 300))
			s.fail(o, "%s: %s\nrule: %s\n  - %s", c.Name, where, c.Rule, strings.Join(e, "\n  - "))
		}
		if len(step.Capture) > 0 {
			data, err := decodeNumbers(o.Envelope.Data)
			if err != nil {
				s.fail(o, "%s: step %d: data does not decode for capture: %v", c.Name, i+1, err)
			}
			for name, ptr := range step.Capture {
				v, ok := jsonPointer(data, ptr)
				if !ok {
					s.fail(o, "%s: step %d: nothing at %s to capture as ${%s}", c.Name, i+1, ptr, name)
				}
				r.values[name] = v
			}
		}
	}
}

// applyWith merges BodyWith into Body.
func (c *exactCall) applyWith() error {
	if len(c.BodyWith) == 0 {
		return nil
	}
	base, err := decodeNumbers(c.Body)
	if err != nil {
		return fmt.Errorf("body: %w", err)
	}
	with, err := decodeNumbers(c.BodyWith)
	if err != nil {
		return fmt.Errorf("body_with: %w", err)
	}
	b, err := json.Marshal(deepMerge(base, with))
	if err != nil {
		return err
	}
	c.Body, c.BodyWith = b, nil
	return nil
}

func deepMerge(base, with any) any {
	bm, ok1 := base.(map[string]any)
	wm, ok2 := with.(map[string]any)
	if !ok1 || !ok2 {
		return with
	}
	out := make(map[string]any, len(bm))
	for k, v := range bm {
		out[k] = v
	}
	for k, v := range wm {
		out[k] = deepMerge(out[k], v)
	}
	return out
}

// identityIn is the path of Ombi's calling-user route when the calls
// name it, else "".
func identityIn(calls []exactCall) string {
	for _, c := range calls {
		if c.Method == "GET" && c.Path == identityPath {
			return identityPath
		}
	}
	return ""
}

// exactCalls compares the journal with the expected calls, one by one.
func exactCalls(e *errs, want []exactCall, got []mockombi.Call) {
	if len(got) != len(want) {
		e.addf("want exactly %d upstream calls, got %d:\n%s", len(want), len(got), callsDiff(wantedCalls(want), sentCalls(got), "      "))
	}
	for i := range min(len(got), len(want)) {
		w, g := want[i], got[i]
		if g.Method != w.Method || g.Path != w.Path {
			e.addf("call %d: want %s %s (literal spelling, escaping and case), got %s %s", i+1, w.Method, w.Path, g.Method, g.Path)
			continue
		}
		if !exactQuery(g.Query, w.Query) {
			e.addf("call %d %s %s: want query %q, got %q", i+1, w.Method, w.Path, url.Values(w.Query).Encode(), g.Query)
		}
		switch {
		case len(w.Body) == 0 && len(g.Body) != 0:
			e.addf("call %d %s %s: the route takes no body, got %s", i+1, w.Method, w.Path, g.Body)
		case len(w.Body) != 0 && !exactJSONEqual(w.Body, g.Body):
			e.addf("call %d %s %s: want the body %s (complete, by deep equality), got %s\n%s", i+1, w.Method, w.Path, w.Body, orNone(g.Body), bodyDiff(w.Body, g.Body, "      "))
		}
	}
}

func orNone(b json.RawMessage) string {
	if len(b) == 0 {
		return "no body"
	}
	return string(b)
}

// exactQuery compares a raw query string with the expected values (nil:
// none at all).
func exactQuery(raw string, want map[string][]string) bool {
	if len(want) == 0 {
		return raw == ""
	}
	got, err := url.ParseQuery(raw)
	return err == nil && reflect.DeepEqual(map[string][]string(got), want)
}

// exactJSONEqual compares two JSON texts by deep equality; "${any}" in
// want matches any present value.
func exactJSONEqual(want, got json.RawMessage) bool {
	w, err1 := decodeNumbers(want)
	g, err2 := decodeNumbers(got)
	return err1 == nil && err2 == nil && wildEqual(w, g)
}

func decodeNumbers(b []byte) (any, error) {
	v, err := decodeNumbered(b)
	if err != nil {
		return nil, err
	}
	return normNumbers(v), nil
}

// decodeNumbered decodes JSON keeping each number as the json.Number
// written.
func decodeNumbered(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	return v, d.Decode(&v)
}

// normNumbers turns every json.Number into its canonical float text, so
// 1 and 1.0 compare equal.
func normNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x.String()
	case map[string]any:
		for k, c := range x {
			x[k] = normNumbers(c)
		}
	case []any:
		for i, c := range x {
			x[i] = normNumbers(c)
		}
	}
	return v
}

func wildEqual(want, got any) bool {
	if s, ok := want.(string); ok && s == exactAny {
		return true
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k, wv := range w {
			gv, has := g[k]
			if !has || !wildEqual(wv, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !wildEqual(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(want, got)
}

// exactResult checks the outcome, warnings, truncation, data members and
// metrics a step expects.
func exactResult(e *errs, x exactExpect, o *harness.Outcome) {
	if o.Envelope == nil {
		e.addf("no envelope in the result")
		return
	}
	switch {
	case x.Code == exactAnyOutcome:
	case x.Code == "" && !o.Envelope.OK:
		e.addf("want an ok result, got %q", o.ErrorCode())
	case x.Code != "" && o.ErrorCode() != x.Code:
		e.addf("want the tool error %s, got %q", x.Code, map[bool]string{true: "ok", false: o.ErrorCode()}[o.Envelope.OK])
	}
	if x.Truncated != nil && o.Envelope.Truncated != *x.Truncated {
		e.addf("want truncated %v, got %v (warnings %q)", *x.Truncated, o.Envelope.Truncated, o.Envelope.Warnings)
	}
	for _, w := range x.Warnings {
		found := false
		for _, got := range o.Envelope.Warnings {
			found = found || strings.Contains(got, w)
		}
		if !found {
			e.addf("want a warning saying %q, got %q", w, o.Envelope.Warnings)
		}
	}
	if x.NoWarnings && len(o.Envelope.Warnings) > 0 {
		e.addf("want no warning, got %q", o.Envelope.Warnings)
	}
	if len(x.Data) == 0 && len(x.Metrics) == 0 {
		return
	}
	data, err := decodeNumbers(o.Envelope.Data)
	if err != nil {
		e.addf("data does not decode: %v", err)
		return
	}
	for _, ptr := range sortedKeys(x.Data) {
		exactMember(e, "data"+ptr, x.Data[ptr], data, ptr)
	}
	if len(x.Metrics) > 0 {
		byName := map[string]any{}
		m, _ := data.(map[string]any)
		vs, _ := m["values"].([]any)
		for _, v := range vs {
			if mv, ok := v.(map[string]any); ok {
				if n, ok := mv["name"].(string); ok {
					byName[n] = mv
				}
			}
		}
		for _, name := range sortedKeys(x.Metrics) {
			exactMember(e, "metric "+name, x.Metrics[name], byName, "/"+escapePtr(name)+"/value")
		}
	}
}

// exactMember checks one member of doc at pointer ptr against want.
func exactMember(e *errs, what string, want json.RawMessage, doc any, ptr string) {
	got, has := jsonPointer(doc, ptr)
	var w any
	if string(bytes.TrimSpace(want)) == `"`+exactAbsent+`"` {
		if has {
			e.addf("%s must be absent (upstream never gave it), got %s", what, compact(got))
		}
		return
	}
	w, err := decodeNumbers(want)
	if err != nil {
		e.addf("%s: bad expected value %s", what, want)
		return
	}
	if !has {
		e.addf("%s: want %s, but it is absent", what, want)
		return
	}
	if !wildEqual(w, got) {
		e.addf("%s: want %s, got %s", what, compact(w), compact(got))
	}
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func escapePtr(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// jsonPointer resolves an RFC 6901 pointer in a decoded document.
func jsonPointer(doc any, ptr string) (any, bool) {
	if ptr == "" {
		return doc, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := cur.(type) {
		case map[string]any:
			v, ok := x[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(x) || fmt.Sprint(i) != tok {
				return nil, false
			}
			cur = x[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// exactResolver resolves the ${...} references of one case from the
// embedded mock (in a live run, the live Ombi, read with the run's
// credentials), each variable once per case.
type exactResolver struct {
	s      *Suite
	defs   map[string]exactVar
	values map[string]any
	depth  int
}

var exactRef = regexp.MustCompile(`\$\{([A-Za-z0-9_]+)((?:\.[A-Za-z0-9_]+)*)\}`)

// render substitutes every reference in a step: a string that is one whole
// reference becomes the referenced JSON value, any other reference in a
// string its text.
func (r *exactResolver) render(in exactStep, out *exactStep) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	doc, err := decodeNumbers(b)
	if err != nil {
		return err
	}
	doc, err = r.walk(doc)
	if err != nil {
		return err
	}
	b, err = json.Marshal(doc)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

func (r *exactResolver) walk(v any) (any, error) {
	switch x := v.(type) {
	case string:
		return r.text(x)
	case map[string]any:
		for k, c := range x {
			nv, err := r.walk(c)
			if err != nil {
				return nil, err
			}
			x[k] = nv
		}
	case []any:
		for i, c := range x {
			nv, err := r.walk(c)
			if err != nil {
				return nil, err
			}
			x[i] = nv
		}
	}
	return v, nil
}

func (r *exactResolver) text(s string) (any, error) {
	if s == exactAny || !strings.Contains(s, "${") {
		return s, nil
	}
	if m := exactRef.FindStringSubmatch(s); m != nil && m[0] == s {
		return r.value(m[1], m[2])
	}
	var firstErr error
	out := exactRef.ReplaceAllStringFunc(s, func(ref string) string {
		m := exactRef.FindStringSubmatch(ref)
		v, err := r.value(m[1], m[2])
		if err != nil {
			firstErr = err
			return ref
		}
		if str, ok := v.(string); ok {
			return str
		}
		return compact(v)
	})
	return out, firstErr
}

// value resolves NAME and a dotted member path.
func (r *exactResolver) value(name, members string) (any, error) {
	v, err := r.variable(name)
	if err != nil {
		return nil, err
	}
	ptr := strings.ReplaceAll(members, ".", "/")
	got, ok := jsonPointer(v, ptr)
	if !ok {
		return nil, fmt.Errorf("${%s%s}: the mock's value has no member %s: %s", name, members, ptr, clip(mustJSON(v), 300))
	}
	return got, nil
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func (r *exactResolver) variable(name string) (any, error) {
	if v, ok := r.values[name]; ok {
		return v, nil
	}
	def, ok := r.defs[name]
	if !ok {
		return nil, fmt.Errorf("unknown variable ${%s}", name)
	}
	if r.depth > 8 {
		return nil, fmt.Errorf("variable ${%s}: references nest too deep", name)
	}
	r.depth++
	path, err := r.text(def.Get)
	r.depth--
	if err != nil {
		return nil, err
	}
	p, _ := path.(string)
	var doc any
	if code := r.s.mockRaw("GET", p, &doc); code != 200 {
		r.s.skipLive(fmt.Sprintf("the case reads ${%s} from GET %s, which the live Ombi answered %d", name, p, code))
		return nil, fmt.Errorf("variable ${%s}: the mock answered %d to GET %s", name, code, p)
	}
	doc = normNumbers(doc)
	if len(def.Where) > 0 {
		arr, _ := doc.([]any)
		var found any
		for _, el := range arr {
			m, _ := el.(map[string]any)
			match := m != nil
			for k, want := range def.Where {
				match = match && fmt.Sprint(m[k]) == fmt.Sprint(want)
			}
			if match {
				found = el
				break
			}
		}
		if found == nil {
			r.s.skipLive(fmt.Sprintf("the case reads ${%s} from GET %s, where the live Ombi has nothing with %v", name, p, def.Where))
			return nil, fmt.Errorf("variable ${%s}: no element of GET %s has %v", name, p, def.Where)
		}
		doc = found
	}
	if def.Pick != "" {
		v, ok := jsonPointer(doc, def.Pick)
		if !ok {
			r.s.skipLive(fmt.Sprintf("the case reads ${%s} from GET %s, where the live Ombi has nothing at %s", name, p, def.Pick))
			return nil, fmt.Errorf("variable ${%s}: GET %s has nothing at %s", name, p, def.Pick)
		}
		doc = v
	}
	r.values[name] = doc
	return doc, nil
}

package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// harness is the server running in-process against a loopback mockombi,
// spoken to through go-sdk in-memory transports.
type harness struct {
	mock      *mockombi.Server
	session   *mcp.ClientSession
	validator *spec.Validator
}

func startMock(t testing.TB, o mockombi.Options) *mockombi.Server {
	t.Helper()
	m, err := mockombi.New(o)
	if err != nil {
		t.Fatalf("new mockombi: %v", err)
	}
	if err := m.Start("127.0.0.1:0"); err != nil {
		t.Fatalf("start mockombi: %v", err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m
}

// jwtOptions are server Options logging in as the mock's admin user.
func jwtOptions(t testing.TB, m *mockombi.Server) Options {
	t.Helper()
	for _, u := range m.Credentials().Users {
		if u.Role == mockombi.RoleAdmin {
			return Options{URL: m.URL(), AuthMode: AuthJWT, Username: u.Username, Password: u.Password, Timeout: 5 * time.Second}
		}
	}
	t.Fatal("mockombi has no admin user")
	return Options{}
}

func newHarness(t testing.TB, m *mockombi.Server, o Options) *harness {
	t.Helper()
	s, err := New(o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "server-test", Version: "0"}, nil).
		Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	v, err := spec.NewValidator()
	if err != nil {
		t.Fatalf("NewValidator: %v", err)
	}
	return &harness{mock: m, session: cs, validator: v}
}

// result is a decoded envelope plus the raw tool result.
type result struct {
	OK        bool            `json:"ok"`
	Operation string          `json:"operation"`
	Data      json.RawMessage `json:"data"`
	Error     *envelopeError  `json:"error"`
	Warnings  []string        `json:"warnings"`
	Truncated bool            `json:"truncated"`
	raw       []byte
	links     []*mcp.ResourceLink // the blocks after the text block
}

// call invokes a tool and checks the result contract on every answer: the
// envelope validates against the tool's outputSchema, one text block carries
// the same JSON, any further block is a resource link to an ombi:// URI of
// a successful result, isError == !ok, and the serialised result fits the
// budget.
func (h *harness) call(t testing.TB, tool string, args any) result {
	t.Helper()
	res, err := h.session.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatalf("encode structuredContent: %v", err)
	}
	if err := h.validator.ValidateOutput(tool, raw); err != nil {
		t.Fatalf("%s %v: envelope violates outputSchema: %v\n%s", tool, args, err, raw)
	}
	if len(res.Content) == 0 {
		t.Fatalf("%s: no content block", tool)
	}
	var links []*mcp.ResourceLink
	for _, c := range res.Content[1:] {
		l, ok := c.(*mcp.ResourceLink)
		if !ok || !strings.HasPrefix(l.URI, "ombi://") || res.IsError {
			t.Fatalf("%s: a block after the text block is %T (isError %v), want a resource link to an ombi:// URI of a successful result", tool, c, res.IsError)
		}
		links = append(links, l)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content is %T, want text", tool, res.Content[0])
	}
	var fromText, fromStruct any
	if err := json.Unmarshal([]byte(text.Text), &fromText); err != nil {
		t.Fatalf("%s: text block is not JSON: %v", tool, err)
	}
	_ = json.Unmarshal(raw, &fromStruct)
	if !jsonEqual(fromText, fromStruct) {
		t.Fatalf("%s: text block differs from structuredContent", tool)
	}
	if len(text.Text) > maxResultBytes {
		t.Fatalf("%s: result is %d bytes, over budget", tool, len(text.Text))
	}
	var r result
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("decode envelope: %v", err)
	}
	r.raw, r.links = raw, links
	if res.IsError == r.OK {
		t.Fatalf("%s: isError=%v but ok=%v", tool, res.IsError, r.OK)
	}
	return r
}

func (h *harness) upstreamCalls() []mockombi.Call {
	var out []mockombi.Call
	for _, c := range h.mock.Journal() {
		if c.Route != mockombi.RouteToken {
			out = append(out, c)
		}
	}
	return out
}

func TestServer_toolsListPerBundles(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	tests := []struct {
		bundles []string
		tools   []string // Options.Tools
		want    int
	}{
		{nil, nil, 18},
		{[]string{spec.BundleCore, spec.BundleModeration}, nil, 23},
		{[]string{spec.BundleCore, spec.BundleModeration, spec.BundleAdministration}, nil, 31},
		{[]string{spec.BundleAdministration}, nil, 8},
		// A tool subset narrows the bundles; a named tool of a disabled bundle stays off.
		{[]string{spec.BundleCore, spec.BundleModeration}, []string{"read_search", "write_request_moderate", "read_logs"}, 2},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.bundles, ",")+"/"+strings.Join(tt.tools, ","), func(t *testing.T) {
			o := jwtOptions(t, m)
			o.Bundles, o.Tools = tt.bundles, tt.tools
			h := newHarness(t, m, o)
			var names []string
			for tool, err := range h.session.Tools(context.Background(), nil) {
				if err != nil {
					t.Fatal(err)
				}
				names = append(names, tool.Name)
				st, _ := spec.Lookup(tool.Name)
				in, _ := spec.PublishedInputSchema(tool.Name)
				out, _ := spec.OutputSchema(tool.Name)
				if !sameJSON(t, tool.InputSchema, in) || !sameJSON(t, tool.OutputSchema, out) {
					t.Errorf("%s: advertised schemas differ from spec", tool.Name)
				}
				if tool.Annotations == nil || tool.Annotations.ReadOnlyHint != st.Annotations.ReadOnlyHint ||
					*tool.Annotations.DestructiveHint != st.Annotations.DestructiveHint {
					t.Errorf("%s: annotations differ from spec", tool.Name)
				}
			}
			if len(names) != tt.want {
				t.Fatalf("tools/list has %d tools, want %d: %v", len(names), tt.want, names)
			}
			init := h.session.InitializeResult()
			// resources when read_reference, read_library or read_logs is
			// listed (resources_test.go)
			wantCaps := `{"tools":{}}`
			if slices.ContainsFunc(names, func(n string) bool { return n == "read_reference" || n == "read_library" || n == "read_logs" }) {
				wantCaps = `{"resources":{},"tools":{}}`
			}
			if caps, _ := json.Marshal(init.Capabilities); init.ServerInfo.Name != Name || string(caps) != wantCaps {
				t.Fatalf("initialize: server %q capabilities %s, want ombi-mcp and only tools and resources, without listChanged or subscribe", init.ServerInfo.Name, caps)
			}
			if init.ProtocolVersion != "2025-11-25" {
				t.Fatalf("protocol version = %s", init.ProtocolVersion)
			}
		})
	}
}

func sameJSON(t testing.TB, got any, want json.RawMessage) bool {
	t.Helper()
	var w any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	return jsonEqual(got, w)
}

func TestServer_disabledBundleRefusedAtCallTime(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	h := newHarness(t, m, jwtOptions(t, m))
	r := h.call(t, "write_request_moderate", map[string]any{"action": "approve", "media": "tv", "request_id": 456})
	if r.OK || r.Error.Code != codeForbidden || !strings.Contains(r.Error.Message, "moderation") {
		t.Fatalf("envelope = %s", r.raw)
	}
	if calls := h.upstreamCalls(); len(calls) != 0 {
		t.Fatalf("upstream was called: %+v", calls)
	}
}

func TestServer_protocolErrors(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	h := newHarness(t, m, jwtOptions(t, m))
	tests := []struct {
		name string
		tool string
		args any
	}{
		{"unknown tool", "no_such_tool", map[string]any{}},
		{"arguments not an object", "read_search", []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h.session.CallTool(context.Background(), &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
			var rpc *jsonrpc.Error
			if !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeInvalidParams {
				t.Fatalf("error = %v, want JSON-RPC -32602", err)
			}
		})
	}
}

func TestServer_invalidArgumentsNeverReachUpstream(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	h := newHarness(t, m, jwtOptions(t, m))
	tests := []struct {
		tool      string
		args      map[string]any
		wantField string
	}{
		{"read_search", map[string]any{}, "/action"},
		{"read_search", map[string]any{"action": "text", "media": "movie", "query": "x", "extra": 1}, "/extra"},
		{"read_search", map[string]any{"action": "text", "media": "movie", "query": "   "}, "/query"},
		{"read_search", map[string]any{"action": "multi", "query": "x", "include": []string{}}, "/include"},
		{"read_media", map[string]any{"action": "details", "target": map[string]any{"media": "movie", "provider": "imdb", "id": "../x"}}, "/target/id"},
		{"read_discover", map[string]any{"action": "advanced_movie", "decade": 1990, "release_year": 2001}, "/release_year"},
		{"read_discover", map[string]any{"action": "browse", "media": "tv", "list": "now_playing"}, "/list"},
		{"read_reference", map[string]any{"action": "keyword", "keyword_id": 0}, "/keyword_id"},
		{"read_requests", map[string]any{"action": "list", "media": "album", "status": "unavailable"}, "/status"},
	}
	for _, tt := range tests {
		t.Run(tt.tool+tt.wantField, func(t *testing.T) {
			h.mock.ClearJournal()
			r := h.call(t, tt.tool, tt.args)
			if r.OK || r.Error.Code != codeInvalidArgument || r.Error.Field != tt.wantField || r.Error.Retryable {
				t.Fatalf("envelope = %s, want INVALID_ARGUMENT field %s", r.raw, tt.wantField)
			}
			if calls := h.mock.Journal(); len(calls) != 0 {
				t.Fatalf("upstream traffic on invalid input: %+v", calls)
			}
		})
	}
}

// TestUnsupported_answersHonestly: a registered tool without handlers
// answers UNSUPPORTED_CAPABILITY for valid arguments and sends nothing.
func TestUnsupported_answersHonestly(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	c, err := newClient(jwtOptions(t, m))
	if err != nil {
		t.Fatal(err)
	}
	v, err := spec.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	d := &deps{client: c, validator: v, log: Options{}.logger()}
	st, _ := spec.Lookup("read_search")
	res, err := d.serve(st, unsupported("read_search").handle)(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{
		Name: "read_search", Arguments: json.RawMessage(`{"action":"text","media":"movie","query":"x"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	raw := res.StructuredContent.(json.RawMessage)
	if err := v.ValidateOutput("read_search", raw); err != nil {
		t.Fatal(err)
	}
	var r result
	_ = json.Unmarshal(raw, &r)
	if r.OK || r.Error.Code != codeUnsupportedCapability || !res.IsError {
		t.Fatalf("envelope = %s", raw)
	}
	if calls := m.Journal(); len(calls) != 0 {
		t.Fatalf("upstream traffic: %+v", calls)
	}
}

func TestRegistry_matchesCatalogue(t *testing.T) {
	var got []string
	for _, tl := range tools(&deps{}) {
		got = append(got, tl.name)
	}
	var want []string
	for _, tl := range spec.Tools() {
		want = append(want, tl.Name)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("registry = %v\ncatalogue = %v", got, want)
	}
}

// TestServer_errorBoundaries injects each upstream failure on one read
// (read_search text movie) and checks the mapped code and retryable flag.
func TestServer_errorBoundaries(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	o := jwtOptions(t, m)
	o.Timeout = 300 * time.Millisecond
	o.MaxBodyBytes = 1 << 20
	h := newHarness(t, m, o)
	const p = "/api/v1/Search/movie/*"
	tests := []struct {
		name       string
		fault      mockombi.Fault
		code       string
		retryable  bool
		status     int
		retryAfter int
	}{
		{"401 plain text", mockombi.Fault{Status: 401, Body: "Invalid API Key"}, codeAuthenticationFailed, false, 401, 0},
		{"403", mockombi.Fault{Status: 403}, codeForbidden, false, 403, 0},
		{"404 html", mockombi.Fault{Status: 404, Kind: mockombi.FaultHTML}, codeNotFound, false, 404, 0},
		{"409", mockombi.Fault{Status: 409}, codeConflict, false, 409, 0},
		{"429 with Retry-After", mockombi.Fault{Status: 429, Headers: map[string]string{"Retry-After": "17"}}, codeRateLimited, true, 429, 17},
		{"429 without Retry-After", mockombi.Fault{Status: 429}, codeRateLimited, true, 429, 0},
		{"500 with error body", mockombi.Fault{Status: 500}, codeUpstreamRejected, true, 500, 0},
		{"503 html", mockombi.Fault{Status: 503, Kind: mockombi.FaultHTML}, codeUpstreamRejected, true, 503, 0},
		{"malformed", mockombi.Fault{Kind: mockombi.FaultMalformed}, codeUpstreamSchemaMismatch, false, 0, 0},
		{"truncated", mockombi.Fault{Kind: mockombi.FaultTruncate}, "", false, 0, 0},
		{"empty", mockombi.Fault{Kind: mockombi.FaultEmpty}, codeUpstreamSchemaMismatch, false, 0, 0},
		{"wrong content type", mockombi.Fault{Kind: mockombi.FaultWrongContentType}, codeUpstreamSchemaMismatch, false, 0, 0},
		{"oversized", mockombi.Fault{Kind: mockombi.FaultOversized, Size: 4 << 20}, codeUpstreamSchemaMismatch, false, 0, 0},
		{"reset", mockombi.Fault{Kind: mockombi.FaultReset}, codeUpstreamRejected, true, 0, 0},
		{"past the deadline", mockombi.Fault{DelayMS: 2000}, codeTimeout, true, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m.ClearFaults()
			f := tt.fault
			f.Method, f.Path, f.Times = "GET", p, 0
			if err := m.InjectFault(f); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(m.ClearFaults)
			r := h.call(t, "read_search", map[string]any{"action": "text", "media": "movie", "query": "matrix"})
			if r.OK {
				t.Fatalf("ok despite fault: %s", r.raw)
			}
			e := r.Error
			if tt.code == "" { // a cut body is either a lost connection or bad JSON
				if e.Code != codeUpstreamSchemaMismatch && !(e.Code == codeUpstreamRejected && e.Retryable) {
					t.Fatalf("error = %+v", e)
				}
				return
			}
			if e.Code != tt.code || e.Retryable != tt.retryable || e.HTTPStatus != tt.status {
				t.Fatalf("error = %+v, want %s retryable=%v status=%d", e, tt.code, tt.retryable, tt.status)
			}
			if (tt.retryAfter == 0) != (e.RetryAfterSeconds == nil) || (e.RetryAfterSeconds != nil && *e.RetryAfterSeconds != tt.retryAfter) {
				t.Fatalf("retry_after_seconds = %v, want %d", e.RetryAfterSeconds, tt.retryAfter)
			}
			for _, c := range m.Canaries() {
				if strings.Contains(string(r.raw), c.Value) {
					t.Fatalf("canary %s in the result: %s", c.Name, r.raw)
				}
			}
		})
	}
}

// TestServer_jwtRenewalAfterRotation: after the mock invalidates every
// token, a read logs in exactly once more and succeeds.
func TestServer_jwtRenewalAfterRotation(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	h := newHarness(t, m, jwtOptions(t, m))
	args := map[string]any{"action": "countries"}
	h.call(t, "read_reference", args)
	m.RotateAuth()
	m.ClearJournal()
	h.call(t, "read_reference", args)
	var logins, unauthorized, reads int
	for _, c := range m.Journal() {
		switch {
		case c.Route == mockombi.RouteToken:
			logins++
		case c.Status == 401:
			unauthorized++
		default:
			reads++
		}
		if c.Header.Get("ApiKey") != "" {
			t.Fatalf("jwt mode sent ApiKey: %+v", c)
		}
	}
	if logins != 1 || unauthorized != 1 || reads != 1 {
		t.Fatalf("journal after rotation: logins=%d 401s=%d reads=%d, want 1/1/1", logins, unauthorized, reads)
	}
}

// TestServer_apiKeyNeverCallsToken: api_key mode sends ApiKey (+UserName)
// and never Authorization or the Token route.
func TestServer_apiKeyNeverCallsToken(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	h := newHarness(t, m, Options{URL: m.URL(), AuthMode: AuthAPIKey, APIKey: m.Credentials().APIKey, UserName: "admin", Timeout: 5 * time.Second})
	h.call(t, "read_reference", map[string]any{"action": "issue_categories"})
	h.call(t, "read_search", map[string]any{"action": "text", "media": "tv", "query": "x"})
	calls := m.Journal()
	if len(calls) != 2 {
		t.Fatalf("journal = %+v", calls)
	}
	for _, c := range calls {
		if c.Route == mockombi.RouteToken || c.Header.Get("Authorization") != "" || c.Header.Get("ApiKey") == "" || c.Header.Get("UserName") != "admin" {
			t.Fatalf("call = %+v", c)
		}
	}
}

// exactWireCase is the part of a case of the suite's exact-wire table
// (conformance/checks/testdata/wire-exact.json) this package's tests replay: the
// call and the upstream calls it must send, in order.
type exactWireCase struct {
	Name   string          `json:"name"`
	Tool   string          `json:"tool"`
	Config string          `json:"config"` // jwt (default), api_key or plain
	Args   json.RawMessage `json:"args"`
	Calls  []struct {
		Method string              `json:"method"`
		Path   string              `json:"path"`
		Query  map[string][]string `json:"query"`
	} `json:"calls"`
	Faults json.RawMessage `json:"faults"`
	Steps  json.RawMessage `json:"steps"`
	Env    json.RawMessage `json:"env"`
}

// standaloneWireCases reads the exact-wire table and keeps the cases that
// need nothing but the seeded mock and a configuration this package builds:
// no faults, steps, deployment settings, ${...} variables or plain user.
func standaloneWireCases(t *testing.T) []exactWireCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "conformance", "checks", "testdata", "wire-exact.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []json.RawMessage `json:"cases"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var out []exactWireCase
	for _, raw := range doc.Cases {
		var c exactWireCase
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		if c.Faults != nil || c.Steps != nil || c.Env != nil || c.Config == "plain" || bytes.Contains(raw, []byte("${")) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// TestServer_branchesHitTheirLedgerRoutes replays the suite's standalone
// exact-wire cases (one table of branch-to-route facts, as data) against
// the mock and checks the journal: exactly the case's calls (method,
// escaped path and query), in order, and never a local page forwarded
// upstream. The table's own test checks every call against the ledger.
func TestServer_branchesHitTheirLedgerRoutes(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	bundles := []string{"core", "moderation", "administration"}
	jwt := jwtOptions(t, m)
	jwt.Bundles = bundles
	harnesses := map[string]*harness{
		"jwt":     newHarness(t, m, jwt),
		"api_key": newHarness(t, m, Options{URL: m.URL(), AuthMode: AuthAPIKey, APIKey: m.Credentials().APIKey, Timeout: 5 * time.Second, Bundles: bundles}),
	}
	cases := standaloneWireCases(t)
	if len(cases) < 200 {
		t.Fatalf("%d standalone exact-wire cases, want at least 200", len(cases))
	}
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			cfg := tt.Config
			if cfg == "" {
				cfg = "jwt"
			}
			h := harnesses[cfg]
			var args map[string]any
			if err := json.Unmarshal(tt.Args, &args); err != nil {
				t.Fatal(err)
			}
			m.Reset()
			h.call(t, "read_settings", map[string]any{"section": "ombi"}) // after the reset's new keys: a JWT login outside the journal slice
			m.ClearJournal()
			h.call(t, tt.Tool, args)
			var got, want []string
			for _, c := range m.Journal() {
				if c.Route == "POST /api/v1/Token" {
					continue
				}
				q, err := url.ParseQuery(c.Query)
				if err != nil {
					t.Fatalf("journal query %q: %v", c.Query, err)
				}
				if q.Has("offset") || q.Has("limit") || q.Has("page") {
					t.Fatalf("local page forwarded: %+v", c)
				}
				got = append(got, c.Method+" "+c.Path+" "+canonicalQuery(q))
			}
			for _, c := range tt.Calls {
				want = append(want, c.Method+" "+c.Path+" "+canonicalQuery(c.Query))
			}
			if !slices.Equal(got, want) {
				t.Fatalf("upstream calls =\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		})
	}
}

// canonicalQuery spells a query with its keys sorted ("" for none).
func canonicalQuery(q url.Values) string { return q.Encode() }

// TestServer_upstreamQuirks: the known upstream faults give the behaviour
// the verification document records.
func TestServer_upstreamQuirks(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	h := newHarness(t, m, jwtOptions(t, m))

	t.Run("ratings route gone: exact-match fallback, labelled, warned", func(t *testing.T) {
		if err := m.SetQuirk(mockombi.QuirkRatingsRottenTomatoes, true); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = m.SetQuirk(mockombi.QuirkRatingsRottenTomatoes, false) })
		m.ClearJournal()
		r := h.call(t, "read_media", map[string]any{"action": "ratings", "media": "movie", "title": "the matrix", "year": 1999})
		if !r.OK || len(r.Warnings) != 1 || !strings.Contains(string(r.Data), `"tmdb_vote_average"`) || strings.Contains(string(r.Data), "rotten") {
			t.Fatalf("envelope = %s", r.raw)
		}
		var routes []string
		for _, c := range h.upstreamCalls() {
			routes = append(routes, c.Route)
		}
		want := []string{"GET /api/v2/Search/ratings/movie/{name}/{year}", "GET /api/v1/Search/movie/{searchTerm}"}
		if !slices.Equal(routes, want) {
			t.Fatalf("routes = %v, want %v", routes, want)
		}
	})

	t.Run("language mojibake is skipped for a clean label", func(t *testing.T) {
		if err := m.SetQuirk(mockombi.QuirkLanguageMojibake, true); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = m.SetQuirk(mockombi.QuirkLanguageMojibake, false) })
		r := h.call(t, "read_reference", map[string]any{"action": "languages", "page": map[string]any{"limit": 100}})
		if !r.OK {
			t.Fatalf("envelope = %s", r.raw)
		}
		var page struct {
			Items []reference `json:"items"`
		}
		if err := json.Unmarshal(r.Data, &page); err != nil {
			t.Fatal(err)
		}
		corrupted := 0
		for _, it := range page.Items {
			if mojibake(it.Name) {
				corrupted++
			}
		}
		if corrupted != len(r.Warnings) {
			t.Fatalf("%d corrupted labels emitted but %d warnings: %s", corrupted, len(r.Warnings), r.raw)
		}
	})

	t.Run("v1 TV search labels TVDB and TVMaze, never TMDB", func(t *testing.T) {
		r := h.call(t, "read_search", map[string]any{"action": "text", "media": "tv", "query": "breaking"})
		if !r.OK || strings.Contains(string(r.Data), `"tmdb"`) || !strings.Contains(string(r.Data), `"tvdb"`) {
			t.Fatalf("envelope = %s", r.raw)
		}
	})
}

// TestServer_protocolNegotiation: 2025-11-25 is served, older revisions the
// SDK knows are echoed, and a client preferring a newer draft falls back to
// 2025-11-25.
func TestServer_protocolNegotiation(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	tests := []struct{ ask, want string }{
		{"2025-11-25", "2025-11-25"},
		{"2025-06-18", "2025-06-18"},
		{"2024-11-05", "2024-11-05"},
		{"", "2025-11-25"}, // the SDK default client tries its newest first
	}
	for _, tt := range tests {
		t.Run(tt.ask, func(t *testing.T) {
			s, err := New(jwtOptions(t, m))
			if err != nil {
				t.Fatal(err)
			}
			ct, st := mcp.NewInMemoryTransports()
			ss, err := s.Connect(context.Background(), st, nil)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "negotiation-test", Version: "0"}, nil).
				Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: tt.ask})
			if err != nil {
				t.Fatalf("connect asking %q: %v", tt.ask, err)
			}
			t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
			if got := cs.InitializeResult().ProtocolVersion; got != tt.want {
				t.Fatalf("negotiated %s, want %s", got, tt.want)
			}
		})
	}
}

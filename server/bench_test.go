package server

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// BenchmarkReadSearch measures one read_search call end to end in-process:
// MCP client -> in-memory transport -> server (validation, handler, client,
// projection, budget) -> loopback mockombi -> back.
func BenchmarkReadSearch(b *testing.B) {
	m := startMock(b, mockombi.Options{})
	h := newHarness(b, m, jwtOptions(b, m))
	args := map[string]any{"action": "text", "media": "movie", "query": "matrix"}
	if r := h.call(b, "read_search", args); !r.OK {
		b.Fatalf("read_search failed: %s", r.raw)
	}
	params := &mcp.CallToolParams{Name: "read_search", Arguments: args}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := h.session.CallTool(context.Background(), params)
		if err != nil || res.IsError {
			b.Fatalf("call: %v %v", err, res)
		}
	}
}

// BenchmarkSDKFloor is BenchmarkReadSearch's floor in process: the same
// go-sdk client, in-memory transport and server session, with one tool
// that answers at once with the very result read_search returned. What
// BenchmarkReadSearch allocates beyond it is the server's and the mock's.
func BenchmarkSDKFloor(b *testing.B) {
	m := startMock(b, mockombi.Options{})
	h := newHarness(b, m, jwtOptions(b, m))
	args := map[string]any{"action": "text", "media": "movie", "query": "matrix"}
	r := h.call(b, "read_search", args)
	if !r.OK {
		b.Fatalf("read_search failed: %s", r.raw)
	}
	res, err := h.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_search", Arguments: args})
	if err != nil {
		b.Fatal(err)
	}
	text := resultText(res)
	s := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "0"}, nil)
	s.AddTool(&mcp.Tool{Name: "read_search", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: json.RawMessage(text)}, nil
		})
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "floor", Version: "0"}, nil).
		Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	params := &mcp.CallToolParams{Name: "read_search", Arguments: args}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cs.CallTool(ctx, params); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkToolsListBytes reports the size of tools/list per bundle set:
// the whole answer, and the part a model reads (name, description, input
// schema), so the trend of the model-visible catalogue is measured; then
// that part per tool (tool=<name>), split into description and input
// schema.
func BenchmarkToolsListBytes(b *testing.B) {
	m := startMock(b, mockombi.Options{})
	for _, bundles := range [][]string{{"core"}, {"core", "moderation"}, {"core", "moderation", "administration"}} {
		b.Run(strings.Join(bundles, "+"), func(b *testing.B) {
			o := jwtOptions(b, m)
			o.Bundles = bundles
			h := newHarness(b, m, o)
			var total, visible, tools int
			for b.Loop() {
				res, err := h.session.ListTools(context.Background(), nil)
				if err != nil {
					b.Fatal(err)
				}
				all, _ := json.Marshal(res)
				total, visible, tools = len(all), 0, len(res.Tools)
				for _, t := range res.Tools {
					in, _ := json.Marshal(t.InputSchema)
					visible += len(t.Name) + len(t.Description) + len(in)
				}
			}
			b.ReportMetric(float64(total), "list-bytes")
			b.ReportMetric(float64(visible), "model-visible-bytes")
			b.ReportMetric(float64(visible)/float64(tools), "model-visible-bytes/tool")
		})
	}
	// one line per tool, so each tool's trend shows from run to run
	o := jwtOptions(b, m)
	o.Bundles = []string{"core", "moderation", "administration"}
	res, err := newHarness(b, m, o).session.ListTools(context.Background(), nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, t := range res.Tools {
		b.Run("tool="+t.Name, func(b *testing.B) {
			var in []byte
			for b.Loop() {
				if in, err = json.Marshal(t.InputSchema); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(t.Name)+len(t.Description)+len(in)), "model-visible-bytes")
			b.ReportMetric(float64(len(t.Description)), "description-bytes")
			b.ReportMetric(float64(len(in)), "input-schema-bytes")
		})
	}
}

// BenchmarkServePath measures the server's own work for one call, without
// the SDK's JSON-RPC framing and without the mock: the registered handler
// (validation, handler, upstream client, projection, hygiene, budget,
// envelope) is called directly, and upstream is a loopback handler
// answering the bytes the mock answered for the same route. B/op and
// allocs/op are then what the server allocates per call. The cases are a
// small search, a full 100-record page near the 64 KiB budget and a page
// the budget must cut.
func BenchmarkServePath(b *testing.B) {
	cases := servePathCases
	mocks := map[string]*mockombi.Server{}
	for _, tc := range cases {
		if mocks[tc.data] == nil {
			mocks[tc.data] = startMock(b, mockombi.Options{DataSet: tc.data})
		}
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			m := mocks[tc.data]
			raw, err := json.Marshal(tc.args)
			if err != nil {
				b.Fatal(err)
			}
			req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: tc.tool, Arguments: raw}}
			// one call through the mock records the upstream answer
			m.ClearJournal()
			h := servePathHandler(b, Options{URL: m.URL(), AuthMode: AuthAPIKey, APIKey: m.Credentials().APIKey}, tc.tool)
			if res, err := h(context.Background(), req); err != nil || res.IsError {
				b.Fatalf("%s through the mock: %v %s", tc.tool, err, resultText(res))
			}
			calls := m.Journal()
			if len(calls) != 1 {
				b.Fatalf("%s made %d upstream calls, want 1", tc.tool, len(calls))
			}
			body, header := recordedAnswer(b, m, calls[0])
			h = servePathHandler(b, Options{URL: cannedUpstream(b, body, header), AuthMode: AuthAPIKey, APIKey: "bench"}, tc.tool)
			var size int
			b.ReportAllocs()
			for b.Loop() {
				res, err := h(context.Background(), req)
				if err != nil || res.IsError {
					b.Fatalf("call: %v %s", err, resultText(res))
				}
				size = len(res.StructuredContent.(json.RawMessage))
			}
			b.ReportMetric(float64(size), "result-bytes")
			b.ReportMetric(float64(len(body)), "upstream-bytes")
		})
	}
}

// servePathHandler is the tool handler New registers for name, built from o.
func servePathHandler(b *testing.B, o Options, name string) mcp.ToolHandler {
	b.Helper()
	d := optionDeps(b, o)
	for _, t := range tools(d) {
		if t.name != name {
			continue
		}
		for _, st := range spec.Tools() {
			if st.Name == name {
				return d.serve(st, t.handle)
			}
		}
	}
	b.Fatalf("no tool %s", name)
	return nil
}

// optionDeps is the handler dependencies New builds from o: its upstream
// client (idle connections closed when tb ends), the validator and o's
// logger.
func optionDeps(tb testing.TB, o Options) *deps {
	tb.Helper()
	client, err := newClient(o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(client.CloseIdle)
	v, err := spec.NewValidator()
	if err != nil {
		tb.Fatal(err)
	}
	return &deps{client: client, validator: v, log: o.logger()}
}

// recordedAnswer is the mock's answer to the journaled call c, sent again.
func recordedAnswer(b *testing.B, m *mockombi.Server, c mockombi.Call) ([]byte, http.Header) {
	b.Helper()
	url := m.URL() + c.Path
	if c.Query != "" {
		url += "?" + c.Query
	}
	req, err := http.NewRequest(c.Method, url, nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header = c.Header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("%s %s: %d %v", c.Method, c.Path, resp.StatusCode, err)
	}
	return body, resp.Header
}

// cannedUpstream serves body with header to every request on a loopback
// port.
func cannedUpstream(b *testing.B, body []byte, header http.Header) string {
	b.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ct := header.Get("Content-Type")
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", ct)
		_, _ = w.Write(body)
	})}
	go func() { _ = srv.Serve(ln) }()
	b.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}

// resultText is the text block of a tool result, for failure messages.
func resultText(res *mcp.CallToolResult) string {
	if res == nil || len(res.Content) == 0 {
		return "no result"
	}
	if t, ok := res.Content[0].(*mcp.TextContent); ok {
		return t.Text
	}
	return "no text block"
}

// servePathCases are the calls BenchmarkServePath makes: a small search,
// a full 100-record page near the 64 KiB budget and a page the budget must
// cut; BenchmarkFit takes the first two.
var servePathCases = []struct {
	name, data, tool string
	args             map[string]any
}{
	{"read_search", "", "read_search", map[string]any{"action": "text", "media": "movie", "query": "matrix"}},
	{"read_requests_100", "large", "read_requests", map[string]any{"action": "list", "media": "movie", "page": map[string]any{"limit": 100}}},
	{"read_requests_cut", "large", "read_requests", map[string]any{"action": "list", "media": "tv", "page": map[string]any{"limit": 100}}},
}

// BenchmarkFit measures the result budget and hygiene (fit: the generic
// copy, cleaning, caps, serialisation) on the data read_search's and
// read_requests' handlers return from the mock: a search page, a page of
// 100 requests.
func BenchmarkFit(b *testing.B) {
	for _, tc := range servePathCases[:2] {
		m := startMock(b, mockombi.Options{DataSet: tc.data})
		d := optionDeps(b, Options{URL: m.URL(), AuthMode: AuthAPIKey, APIKey: m.Credentials().APIKey})
		raw, err := json.Marshal(tc.args)
		if err != nil {
			b.Fatal(err)
		}
		var data any
		for _, t := range tools(d) {
			if t.name == tc.tool {
				data, err = t.handle(context.Background(), &call{tool: tc.tool, args: raw})
			}
		}
		if err != nil || data == nil {
			b.Fatalf("%s: %v", tc.tool, err)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				fit(success(tc.tool, data, nil))
			}
		})
	}
}

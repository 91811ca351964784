package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
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

// BenchmarkToolsListBytes reports the size of tools/list per bundle set:
// the whole answer, and the part a model reads (name, description, input
// schema), so the trend of the model-visible catalogue is measured.
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
}

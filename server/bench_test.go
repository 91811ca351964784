package server

import (
	"context"
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

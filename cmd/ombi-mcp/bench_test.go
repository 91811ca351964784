package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// noopEnv makes the test binary a no-op go-sdk MCP server over stdio: one
// tool that answers at once. It is the MCP half of the floor a tool call
// through ombi-mcp is measured against.
const noopEnv = "OMBI_MCP_BENCH_NOOP_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(noopEnv) != "" {
		os.Exit(serveNoop())
	}
	os.Exit(m.Run())
}

func serveNoop() int {
	s := mcp.NewServer(&mcp.Implementation{Name: "noop", Version: "0"}, nil)
	s.AddTool(&mcp.Tool{Name: "noop", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "{}"}}}, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// BenchmarkFloorRatio measures a tool call through ombi-mcp over stdio
// against its floor, in the same run and interleaved: a no-op go-sdk tool
// call over stdio plus the very upstream requests the ombi-mcp call made
// (read from the mock's journal), sent directly. It reports the median and
// p99 of both and their ratios (goal: median ratio at most 1.2).
func BenchmarkFloorRatio(b *testing.B) {
	cases := []struct {
		name string
		tool string
		args map[string]any
	}{
		{"read_search", "read_search", map[string]any{"action": "text", "media": "movie", "query": "matrix"}},
		{"write_issue_comment", "write_issue_comment", map[string]any{"issue_id": 1, "comment": "Playback fails at the same point on a second device."}},
	}
	bin := buildBinary(b)
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	m := startLoopbackMock(b)
	env := []string{"OMBI_URL=" + m.URL(), "OMBI_AUTH_MODE=api_key", "OMBI_API_KEY=" + m.Credentials().APIKey,
		"OMBI_TIMEOUT=5s", "OMBI_BUNDLES=core,moderation,administration"}
	server := connectStdio(b, exec.Command(bin), env)
	noop := connectStdio(b, exec.Command(self), []string{noopEnv + "=1"})
	client := &http.Client{}

	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			ctx := context.Background()
			params := &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args}
			m.ClearJournal()
			callTool(b, server, params)
			upstream := m.Journal() // what one call sends: the floor sends the same
			if len(upstream) == 0 {
				b.Fatalf("%s made no upstream call", tc.tool)
			}
			floor := func() time.Duration {
				start := time.Now()
				callTool(b, noop, &mcp.CallToolParams{Name: "noop", Arguments: map[string]any{}})
				for _, c := range upstream {
					replay(b, ctx, client, m.URL(), c)
				}
				return time.Since(start)
			}
			through := func() time.Duration {
				start := time.Now()
				callTool(b, server, params)
				return time.Since(start)
			}
			for range 20 { // warm up connections and caches on both sides
				floor()
				through()
			}
			var fs, ts []time.Duration
			for i := 0; b.Loop(); i++ {
				if i%2 == 0 {
					fs, ts = append(fs, floor()), append(ts, through())
				} else {
					ts, fs = append(ts, through()), append(fs, floor())
				}
			}
			fm, tm, fp, tp := quantile(fs, 0.5), quantile(ts, 0.5), quantile(fs, 0.99), quantile(ts, 0.99)
			b.ReportMetric(float64(tm.Microseconds()), "median-µs")
			b.ReportMetric(float64(fm.Microseconds()), "floor-median-µs")
			b.ReportMetric(float64(tm)/float64(fm), "x-floor-median")
			b.ReportMetric(float64(tp)/float64(fp), "x-floor-p99")
		})
	}
}

func connectStdio(b *testing.B, cmd *exec.Cmd, env []string) *mcp.ClientSession {
	b.Helper()
	cmd.Env = append(os.Environ(), env...)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close() })
	return cs
}

func callTool(b *testing.B, cs *mcp.ClientSession, params *mcp.CallToolParams) {
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		b.Fatalf("call %s: %v %+v", params.Name, err, res)
	}
}

// replay sends one journaled upstream request again, as the server sent it.
func replay(b *testing.B, ctx context.Context, client *http.Client, base string, c mockombi.Call) {
	var body io.Reader
	if len(c.Body) > 0 {
		body = bytes.NewReader(c.Body)
	}
	url := base + c.Path
	if c.Query != "" {
		url += "?" + c.Query
	}
	req, err := http.NewRequestWithContext(ctx, c.Method, url, body)
	if err != nil {
		b.Fatal(err)
	}
	for k, v := range c.Header {
		req.Header[k] = v
	}
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
}

func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(int(float64(len(s))*q), len(s)-1)]
}

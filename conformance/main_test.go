package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ombi-mcp/ombi-mcp/internal/stdio"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// fakeEnv selects what the test binary does when the suite starts it as a
// server under test.
const fakeEnv = "CONFORMANCE_TEST_FAKE_SERVER"

// TestMain lets this test binary double as a misbehaving server, and builds
// ombi-conformance once for the command tests.
func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		os.Exit(fakeServer(mode))
	}
	dir, err := os.MkdirTemp("", "ombi-conformance-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	bins.dir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

func fakeServer(mode string) int {
	switch mode {
	case "exit":
		fmt.Fprintln(os.Stderr, "fake server: OMBI_SETTING_X is missing, refusing to start")
		return 3
	case "hang":
		fmt.Fprintln(os.Stderr, "fake server: warming up forever")
		time.Sleep(10 * time.Minute)
		return 0
	case "garbage":
		fmt.Fprintln(os.Stderr, "fake server: speaking plain text")
		buf := make([]byte, 4096)
		for {
			if _, err := os.Stdin.Read(buf); err != nil {
				return 0
			}
			fmt.Println("hello, this is not JSON-RPC")
		}
	case "stall":
		// A minimal MCP server whose tool answers its first ten calls and
		// then never again.
		s := mcp.NewServer(&mcp.Implementation{Name: "fake-stall", Version: "0.0.1"}, nil)
		var calls atomic.Int32
		s.AddTool(&mcp.Tool{Name: "read_search", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if calls.Add(1) > 10 {
					<-ctx.Done()
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "{}"}}}, nil
			})
		if err := s.Run(context.Background(), &mcp.IOTransport{Reader: stdio.Pollable(os.Stdin), Writer: stdio.Pollable(os.Stdout)}); err != nil {
			return 1
		}
		return 0
	case "mcp":
		// A minimal MCP server: answers initialize and tools/list, and
		// declares listChanged (which the suite rejects).
		s := mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "0.0.1"}, &mcp.ServerOptions{
			Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
		})
		s.AddTool(&mcp.Tool{Name: "read_search", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "{}"}}}, nil
			})
		if err := s.Run(context.Background(), &mcp.IOTransport{Reader: stdio.Pollable(os.Stdin), Writer: stdio.Pollable(os.Stdout)}); err != nil {
			return 1
		}
		return 0
	}
	return 4
}

// bins holds the binaries built for the command tests.
var bins struct {
	dir        string
	once, mcpo sync.Once
	cli, mcp   string
	err, mcpe  error
}

func goBuild(dir, pkg, name string) (string, error) {
	out := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", out, pkg)
	b, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return out, nil
}

// cliBinary builds ombi-conformance once.
func cliBinary(t *testing.T) string {
	t.Helper()
	bins.once.Do(func() {
		bins.cli, bins.err = goBuild(bins.dir, "github.com/ombi-mcp/ombi-mcp/cmd/ombi-conformance", "ombi-conformance")
	})
	if bins.err != nil {
		t.Fatal(bins.err)
	}
	return bins.cli
}

// serverBinary builds the reference server once.
func serverBinary(t *testing.T) string {
	t.Helper()
	bins.mcpo.Do(func() {
		bins.mcp, bins.mcpe = goBuild(bins.dir, "github.com/ombi-mcp/ombi-mcp/cmd/ombi-mcp", "ombi-mcp")
	})
	if bins.mcpe != nil {
		t.Fatal(bins.mcpe)
	}
	return bins.mcp
}

type cliRun struct {
	code           int
	stdout, stderr string
}

// runCLI runs ombi-conformance with args and extra environment.
func runCLI(t *testing.T, env []string, args ...string) cliRun {
	t.Helper()
	return runCLIWithin(t, 3*time.Minute, env, args...)
}

// runCLIWithin runs ombi-conformance with args and extra environment,
// failing the test when it has not finished within limit.
func runCLIWithin(t *testing.T, limit time.Duration, env []string, args ...string) cliRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, cliBinary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 10 * time.Second // do not wait for grandchildren holding the pipes
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := cliRun{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run ombi-conformance: %v", err)
	}
	if ctx.Err() != nil {
		t.Fatalf("ombi-conformance %v did not finish within %v", args, limit)
	}
	return r
}

// startMock starts a mockombi with opts on a loopback port chosen at run
// time, closed when the test ends.
func startMock(t *testing.T, opts mockombi.Options) *mockombi.Server {
	t.Helper()
	m, err := mockombi.New(opts)
	if err == nil {
		err = m.Start("127.0.0.1:0")
	}
	if err != nil {
		t.Fatalf("start a mock Ombi: %v", err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m
}

func selfCommand(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustContain(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, clipText(got))
		}
	}
}

func clipText(s string) string {
	if len(s) > 4000 {
		return s[:2000] + "\n…\n" + s[len(s)-2000:]
	}
	return s
}

var _ io.Writer = (*bytes.Buffer)(nil)

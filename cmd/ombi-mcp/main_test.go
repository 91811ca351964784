package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

func TestRun_flagsAndConfiguration(t *testing.T) {
	full := map[string]string{"OMBI_URL": "http://127.0.0.1:1", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k-secret-value"}
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		wantCode int
		wantOut  []string
		denyOut  []string
	}{
		{"help", []string{"--help"}, nil, 0, []string{"OMBI_URL", "OMBI_BUNDLES"}, nil},
		{"version", []string{"--version"}, nil, 0, []string{"ombi-mcp dev"}, nil},
		{"no configuration", nil, map[string]string{}, 2, []string{"OMBI_URL", "OMBI_AUTH_MODE"}, nil},
		{"bad bundle", nil, map[string]string{"OMBI_URL": "http://h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k-secret-value", "OMBI_BUNDLES": "everything"}, 2, []string{"OMBI_BUNDLES"}, []string{"k-secret-value"}},
		{"unknown flag", []string{"--nope"}, full, 2, nil, nil},
		{"stray argument", []string{"serve"}, full, 2, []string{"unexpected arguments"}, nil},
		{"bad log level", []string{"--log-level", "loud"}, full, 2, []string{"--log-level"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := run(tt.args, func(k string) string { return tt.env[k] }, &stderr)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, stderr.String())
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
				}
			}
			for _, d := range tt.denyOut {
				if strings.Contains(stderr.String(), d) {
					t.Errorf("stderr leaks %q", d)
				}
			}
		})
	}
}

// TestBinary_stdio builds the binary and drives it as an independent client
// would: over stdio, against a loopback mockombi, with all bundles enabled.
func TestBinary_stdio(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "ombi-mcp")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	m := mockombi.New(mockombi.Options{})
	if err := m.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })

	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(),
		"OMBI_URL="+m.URL(), "OMBI_AUTH_MODE=api_key", "OMBI_API_KEY="+m.Credentials().APIKey,
		"OMBI_BUNDLES=core,moderation,administration", "OMBI_TIMEOUT=5s")
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "0"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, stderr.String())
	}
	n := 0
	for _, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 31 {
		t.Fatalf("tools/list has %d tools, want 31", n)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_search", Arguments: map[string]any{"action": "text", "media": "movie", "query": "matrix"}})
	if err != nil {
		t.Fatalf("call read_search: %v", err)
	}
	if res.IsError {
		t.Fatalf("read_search failed: %v", res.StructuredContent)
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("close session: %v", err)
	}
	if strings.Contains(stderr.String(), m.Credentials().APIKey) {
		t.Fatal("stderr carries the API key")
	}
	if !strings.Contains(stderr.String(), "tool call") {
		t.Fatalf("stderr has no per-call log line:\n%s", stderr.String())
	}
}

// syncBuffer is a bytes.Buffer safe to write from the process-copying
// goroutine while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

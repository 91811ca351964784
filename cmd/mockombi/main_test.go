package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

func TestParseFlags(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		args    []string
		check   func(t *testing.T, c config)
		wantErr string
	}{
		{"defaults", nil, func(t *testing.T, c config) {
			if c.addr != "127.0.0.1:5099" || c.opts.APIKey != mockombi.DefaultAPIKey || c.opts.Users != nil || c.opts.Log == nil {
				t.Errorf("config = %+v", c)
			}
		}, ""},
		{"everything", []string{"--addr", "127.0.0.1:0", "--api-key", "k", "--user", "alice:pw:admin", "--user", "bob:b:c:user",
			"--data", "large", "--base-path", "/ombi", "--latency", "50ms", "--token-ttl", "1h", "--static", dir, "--quiet"}, func(t *testing.T, c config) {
			want := []mockombi.User{{Username: "alice", Password: "pw", Role: "admin"}, {Username: "bob", Password: "b:c", Role: "user"}}
			if len(c.opts.Users) != 2 || c.opts.Users[0] != want[0] || c.opts.Users[1].Role != "user" {
				t.Errorf("users = %+v", c.opts.Users)
			}
			if c.opts.APIKey != "k" || c.opts.DataSet != "large" || c.opts.BasePath != "/ombi" || c.opts.Latency != 50*time.Millisecond ||
				c.opts.TokenTTL != time.Hour || c.opts.StaticDir != dir || c.opts.Log != nil {
				t.Errorf("config = %+v", c.opts)
			}
		}, ""},
		{"bad role", []string{"--user", "a:b:root"}, nil, "role must be"},
		{"bad user", []string{"--user", "nobody"}, nil, "NAME:PASSWORD:ROLE"},
		{"bad data set", []string{"--data", "huge"}, nil, "--data"},
		{"static must exist", []string{"--static", dir + "/nope"}, nil, "not a directory"},
		{"stray argument", []string{"extra"}, nil, "unexpected argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseFlags(tt.args, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

// syncBuffer is a goroutine-safe buffer.
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

func TestRun_startsServesAndShutsDown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--base-path", "/ombi"}, &stdout, &stderr) }()
	urlRE := regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+/ombi)`)
	var url string
	for url == "" {
		if m := urlRE.FindStringSubmatch(stdout.String()); m != nil {
			url = m[1]
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("no listening line after 5s: %q", stdout.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if time.Since(start) > time.Second {
		t.Errorf("startup took %v", time.Since(start))
	}
	for _, want := range []string{"ApiKey: " + mockombi.DefaultAPIKey, "user admin / OmbiAdmin1! (admin)", "user power / OmbiPower1! (power_user)"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q: %s", want, stdout.String())
		}
	}
	resp, err := http.Get(url + "/api/v1/Status")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status = %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run did not return after cancel")
	}
	if !strings.Contains(stderr.String(), `"path":"/ombi/api/v1/Status"`) {
		t.Errorf("no JSON request log line on stderr: %q", stderr.String())
	}
}

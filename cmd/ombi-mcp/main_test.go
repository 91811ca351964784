package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
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
		{"empty token", nil, map[string]string{"OMBI_URL": "http://h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k-secret-value", "OMBI_MCP_TOKEN": ""}, 2, []string{"OMBI_MCP_TOKEN: set but empty"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, lookup(tt.env), &stdout, &stderr)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, stderr.String())
			}
			// help and version answer on stdout, everything else on stderr
			out := &stderr
			if code == 0 {
				out = &stdout
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\nstdout:\n%s\nstderr:\n%s", w, stdout.String(), stderr.String())
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

// lookup is a lookupEnv reading env: a key in env is set, even to "".
func lookup(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}
}

// TestBinary_stdio builds the binary and drives it as an independent client
// would: over stdio, against a loopback mockombi, with all bundles enabled.
func TestBinary_stdio(t *testing.T) {
	bin := buildBinary(t)
	m := startLoopbackMock(t)

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

func buildBinary(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ombi-mcp")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startLoopbackMock starts a mockombi with its seed data on a free loopback
// port, stopped when the test ends.
func startLoopbackMock(t testing.TB) *mockombi.Server {
	t.Helper()
	m, err := mockombi.New(mockombi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m
}

// fillReader yields an endless run of one byte.
type fillReader byte

func (f fillReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(f)
	}
	return len(p), nil
}

// bigFrame is one line of n bytes (newline not counted): prefix, filler,
// suffix.
func bigFrame(prefix, suffix string, n int) io.Reader {
	return io.MultiReader(strings.NewReader(prefix), io.LimitReader(fillReader('a'), int64(n-len(prefix)-len(suffix))), strings.NewReader(suffix+"\n"))
}

// TestBinary_malformedFramesThenEOF pipes the real binary a session mixing
// valid requests with odd ids, malformed frames and frames far over the
// cap, then closes stdin at once: every request is answered exactly once
// with its exact id (served, or refused when the SDK could not write the id
// back as sent), every malformed frame draws its JSON-RPC error, and the
// process exits 0.
func TestBinary_malformedFramesThenEOF(t *testing.T) {
	bin := buildBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = append(os.Environ(), "OMBI_URL=http://127.0.0.1:1", "OMBI_AUTH_MODE=api_key", "OMBI_API_KEY=k-e2e-secret", "OMBI_TIMEOUT=2s")
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})

	type frame struct {
		body    io.Reader
		id      string // raw id of the one answer expected; "" for none
		code    int64  // expected error code; 0 for a result
		hostile bool   // a malformed frame
	}
	line := func(s, id string, code int64, hostile bool) frame {
		return frame{strings.NewReader(s + "\n"), id, code, hostile}
	}
	ping := func(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` }
	frames := []frame{
		line(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"0"}}}`, `"init"`, 0, false),
		line(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "", 0, false),
		// ids the SDK cannot write back as sent are refused under the id
		line(ping(`1.5`), `1.5`, -32600, false),
		line(ping(`123456789012345678901234567890`), `123456789012345678901234567890`, -32600, false),
		line(ping(`-0`), `-0`, -32600, false),
		line(ping(`1e2`), `1e2`, -32600, false),
		line(ping(`1e400`), `1e400`, -32600, false),
		line(ping(`"\u0041"`), `"\u0041"`, -32600, false),
		line(ping(`"é"`), `"é"`, 0, false),
		line(`this is not json`, "null", -32700, true),
		line(`{"jsonrpc":"2.0","id":1,"method":"ping"`, "null", -32700, true),
		line("\xef\xbb\xbf"+ping(`200`), `200`, 0, true),
		line(`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`, "null", -32600, true),
		line(`[]`, "null", -32600, true),
		line(`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "null", -32600, true),
		line(`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, "null", -32600, true),
		line(`{"jsonrpc":"2.0","id":true,"method":"ping"}`, "null", -32600, true),
		line(`{"jsonrpc":"1.0","id":201,"method":"ping"}`, `201`, -32600, true),
		line(`{"jsonrpc":"2.0","id":202}`, `202`, -32600, true),
		line(`{"jsonrpc":"2.0","id":203,"method":7}`, `203`, -32600, true),
		line(`{"jsonrpc":"2.0","id":204,"method":"ping","params":{"a":`+strings.Repeat("[", 2000)+strings.Repeat("]", 2000)+`}}`, `204`, -32602, true),
		line(`{"jsonrpc":"2.0","id":205,"method":"no/such/method"}`, `205`, -32601, true),
		{bigFrame(`{"jsonrpc":"2.0","id":206,"method":"tools/call","params":{"name":"read_search","arguments":{"query":"`, `"}}}`, 15<<20), `206`, -32600, true},
		{bigFrame(`garbage`, ``, 100_000_000), "null", -32600, true},
		line(``, "", 0, true),
		line(`{"jsonrpc":"2.0","method":"notifications/nothing"}`, "", 0, true),
		line(ping(`300`), `300`, 0, false),
		line(`{"jsonrpc":"2.0","id":301,"method":"tools/list"}`, `301`, 0, false),
		line(`{"jsonrpc":"2.0","id":302,"method":"tools/call","params":{"name":"read_search","arguments":{"action":"text","media":"movie","query":"matrix"}}}`, `302`, 0, false),
		line(ping(`"last"`), `"last"`, 0, false),
	}
	go func() {
		for _, f := range frames {
			if _, err := io.Copy(stdin, f.body); err != nil {
				break
			}
		}
		_ = stdin.Close()
	}()

	type answer struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		line string
	}
	byID := map[string][]answer{}
	var all []answer
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 64<<10), 8<<20)
	for sc.Scan() {
		var a answer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Errorf("stdout line is not JSON: %.200q", sc.Text())
			continue
		}
		a.line = sc.Text()
		byID[string(a.ID)] = append(byID[string(a.ID)], a)
		all = append(all, a)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read stdout: %v", err)
	}
	werr := cmd.Wait()
	if werr != nil {
		t.Errorf("exit: %v, want 0; stderr:\n%s", werr, tail(stderr.String(), 2000))
	}

	hostile, requests := 0, 0
	wantNull := map[int64]int{}
	for _, f := range frames {
		if f.hostile {
			hostile++
		}
		switch f.id {
		case "":
		case "null":
			wantNull[f.code]++
		default:
			requests++
			got := byID[f.id]
			if len(got) != 1 {
				t.Errorf("id %s answered %d times, want once", f.id, len(got))
				continue
			}
			switch a := got[0]; {
			case f.code == 0 && a.Error != nil:
				t.Errorf("id %s: error %d %q, want a result", f.id, a.Error.Code, a.Error.Message)
			case f.code != 0 && (a.Error == nil || a.Error.Code != f.code):
				t.Errorf("id %s: %.300s, want error %d", f.id, a.line, f.code)
			}
		}
	}
	gotNull := map[int64]int{}
	for _, a := range byID["null"] {
		if a.Error == nil {
			t.Errorf("result with id null: %s", a.line)
			continue
		}
		gotNull[a.Error.Code]++
	}
	for code, n := range wantNull {
		if gotNull[code] != n {
			t.Errorf("id-null errors with code %d: %d, want %d", code, gotNull[code], n)
		}
	}
	for _, a := range all {
		if a.Error != nil && a.Error.Code == 0 {
			t.Errorf("error with code 0: %s", a.line)
		}
	}
	if len(all) != requests+len(byID["null"]) {
		t.Errorf("%d answers, want %d", len(all), requests+len(byID["null"]))
	}
	ended := 0
	if werr != nil || len(byID[`"last"`]) != 1 {
		ended = 1
	}
	t.Logf("malformed frame kinds tried: %d, sessions ended: %d; %d requests, all answered: %v", hostile, ended, requests, !t.Failed())
	if rss, ok := maxRSS(cmd.ProcessState); ok {
		t.Logf("peak RSS of the server after a 15 MiB and a 100 MB frame: %.1f MiB", float64(rss)/(1<<20))
		if rss > 96<<20 {
			t.Errorf("peak RSS %d bytes, want under 96 MiB", rss)
		}
	}
	if strings.Contains(stderr.String(), "k-e2e-secret") {
		t.Error("stderr carries the API key")
	}
}

// maxRSS is the peak resident set of an exited process, where the platform
// reports it (getrusage ru_maxrss: KiB on Linux, bytes on macOS).
func maxRSS(ps *os.ProcessState) (int64, bool) {
	v := reflect.ValueOf(ps.SysUsage())
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return 0, false
	}
	f := v.Elem().FieldByName("Maxrss")
	if !f.IsValid() || !f.CanInt() {
		return 0, false
	}
	if runtime.GOOS == "darwin" {
		return f.Int(), true
	}
	return f.Int() << 10, true
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
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

func TestRun_httpFlags(t *testing.T) {
	full := map[string]string{"OMBI_URL": "http://127.0.0.1:1", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k-secret-value"}
	with := func(k, v string) map[string]string {
		m := map[string]string{k: v}
		for a, b := range full {
			m[a] = b
		}
		return m
	}
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		wantOut string
		denyOut string
	}{
		{"every interface", []string{"--http", ":8080"}, full, "--http-allow-remote", ""},
		{"remote address", []string{"--http", "0.0.0.0:8080"}, full, "not a loopback address", ""},
		{"no port", []string{"--http", "127.0.0.1"}, full, "host:port", ""},
		{"relative path", []string{"--http", "127.0.0.1:0", "--http-path", "mcp"}, full, "--http-path", ""},
		{"short token", []string{"--http", "127.0.0.1:0"}, with("OMBI_MCP_TOKEN", "tiny-secret"), "OMBI_MCP_TOKEN", "tiny-secret"},
		{"empty token", []string{"--http", "127.0.0.1:0"}, with("OMBI_MCP_TOKEN", ""), "OMBI_MCP_TOKEN: set but empty", ""},
		{"missing token file", []string{"--http", "127.0.0.1:0"}, with("OMBI_MCP_TOKEN_FILE", "/nonexistent/ombi-mcp/token"), "OMBI_MCP_TOKEN_FILE", ""},
		{"bad origin", []string{"--http", "127.0.0.1:0"}, with("OMBI_MCP_ALLOWED_ORIGINS", "evil.example/x"), "OMBI_MCP_ALLOWED_ORIGINS", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tt.args, lookup(tt.env), &stdout, &stderr); code != 2 {
				t.Fatalf("exit %d, want 2; stderr:\n%s", code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.wantOut) {
				t.Errorf("stderr lacks %q:\n%s", tt.wantOut, stderr.String())
			}
			if tt.denyOut != "" && strings.Contains(stderr.String(), tt.denyOut) {
				t.Errorf("stderr leaks %q", tt.denyOut)
			}
		})
	}
}

// TestBinary_startupLog reads the binary's startup lines: they name the
// bundles in effect (core when OMBI_BUNDLES is unset), and serving a
// non-loopback address without a token warns, naming the address.
func TestBinary_startupLog(t *testing.T) {
	bin := buildBinary(t)
	env := []string{"OMBI_URL=http://127.0.0.1:1", "OMBI_AUTH_MODE=api_key", "OMBI_API_KEY=k-startup-secret"}
	t.Run("stdio", func(t *testing.T) {
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), env...)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		pipe, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(pipe)
		var line string
		for sc.Scan() {
			if strings.Contains(sc.Text(), `msg="serving on stdio"`) {
				line = sc.Text()
				break
			}
		}
		_ = stdin.Close()
		_, _ = io.Copy(io.Discard, pipe)
		if err := cmd.Wait(); err != nil {
			t.Errorf("exit: %v", err)
		}
		if !strings.Contains(line, " bundles=core") {
			t.Errorf("startup line does not name the bundles in effect: %q", line)
		}
	})
	t.Run("http loopback", func(t *testing.T) {
		srv := startHTTPBinary(t, bin, env)
		log := srv.stderr.String()
		if !regexp.MustCompile(`msg=starting .* bundles=core`).MatchString(log) {
			t.Errorf("startup line does not name the bundles in effect:\n%s", log)
		}
		if strings.Contains(log, "level=WARN") {
			t.Errorf("warned on a loopback address:\n%s", log)
		}
	})
	t.Run("http every interface", func(t *testing.T) {
		srv := startHTTPBinary(t, bin, env, "--http", "0.0.0.0:0", "--http-allow-remote")
		log := srv.stderr.String()
		if !regexp.MustCompile(`level=WARN msg=".*without.*OMBI_MCP_TOKEN.*" addr=\S+:\d+`).MatchString(log) {
			t.Errorf("no warning naming the address and OMBI_MCP_TOKEN:\n%s", log)
		}
	})
}

// httpServer is the binary serving Streamable HTTP on a loopback port it
// chose itself (--http 127.0.0.1:0), found in its "serving" log line.
type httpServer struct {
	cmd    *exec.Cmd
	base   string // http://127.0.0.1:PORT
	stderr *syncBuffer
	exited chan error
}

func startHTTPBinary(t testing.TB, bin string, env []string, args ...string) *httpServer {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &httpServer{cmd: cmd, stderr: &syncBuffer{}, exited: make(chan error, 1)}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			_, _ = s.stderr.Write([]byte(line + "\n"))
			if strings.Contains(line, `msg="serving streamable http"`) {
				for _, f := range strings.Fields(line) {
					if a, ok := strings.CutPrefix(f, "addr="); ok {
						addr <- a
					}
				}
			}
		}
		s.exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
		}
	})
	select {
	case a := <-addr:
		s.base = "http://" + a
	case err := <-s.exited:
		t.Fatalf("ombi-mcp --http exited before serving: %v\n%s", err, s.stderr.String())
	case <-time.After(20 * time.Second):
		t.Fatalf("ombi-mcp --http did not log its address:\n%s", s.stderr.String())
	}
	return s
}

func connectHTTP(t testing.TB, endpoint string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect %s: %v", endpoint, err)
	}
	return cs
}

// TestBinary_http drives the binary over Streamable HTTP against a loopback
// mockombi, then sends SIGTERM while a call waits on the slow upstream: the
// call gets its answer and the process exits 0.
func TestBinary_http(t *testing.T) {
	bin := buildBinary(t)
	m, err := mockombi.New(mockombi.Options{Latency: 600 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	const token = "e2e-bearer-token-0123456789"
	srv := startHTTPBinary(t, bin, []string{
		"OMBI_URL=" + m.URL(), "OMBI_AUTH_MODE=api_key", "OMBI_API_KEY=" + m.Credentials().APIKey,
		"OMBI_BUNDLES=core,moderation,administration", "OMBI_TIMEOUT=5s", "OMBI_MCP_TOKEN=" + token,
	})
	resp, err := http.Get(srv.base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET /healthz = %d", resp.StatusCode)
	}
	resp, err = http.Post(srv.base+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != 401 || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Fatalf("POST /mcp without the token = %d %q, want 401 with a Bearer challenge", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}

	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "0"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: srv.base + "/mcp", HTTPClient: &http.Client{Transport: bearer(token)}},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, srv.stderr.String())
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
	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	got := make(chan answer, 1)
	go func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_search", Arguments: map[string]any{"action": "text", "media": "movie", "query": "matrix"}})
		got <- answer{res, err}
	}()
	time.Sleep(200 * time.Millisecond) // the call waits on the upstream
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	a := <-got
	if a.err != nil || a.res.IsError {
		t.Fatalf("the call in flight at SIGTERM did not finish: %v %v\n%s", a.res, a.err, srv.stderr.String())
	}
	select {
	case err := <-srv.exited:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", err, srv.stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("still running 15s after SIGTERM:\n%s", srv.stderr.String())
	}
	log := srv.stderr.String()
	for _, secret := range []string{token, m.Credentials().APIKey} {
		if strings.Contains(log, secret) {
			t.Errorf("stderr carries a secret")
		}
	}
	if !strings.Contains(log, "tool call") || !strings.Contains(log, "shutting down") {
		t.Errorf("stderr lacks the call or the shutdown line:\n%s", log)
	}
}

// bearer is a RoundTripper adding Authorization: Bearer.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// officialScenarios are the server scenarios of the official MCP
// conformance suite that apply to a domain server (the others need the
// suite's own fixture tools, resources, prompts or sampling; the table with
// every scenario's result is docs/official-conformance.md), plus its DNS
// rebinding check.
// server-sse-multiple-streams opens its concurrent streams only on a
// session id, which a stateless server never issues: against ombi-mcp it
// ends with one warning and no failure (server/http_test.go
// TestHTTP_concurrentPOSTs runs its probe without the session id).
var officialScenarios = []string{"server-initialize", "ping", "tools-list", "resources-list", "server-sse-multiple-streams", "dns-rebinding-protection"}

// officialEnv names the directory where npm ci installed
// @modelcontextprotocol/conformance (conformance/official; make
// official-conformance sets it).
const officialEnv = "OMBI_MCP_OFFICIAL_CONFORMANCE"

var officialSummary = regexp.MustCompile(`Passed: (\d+)/(\d+), (\d+) failed, (\d+) warnings`)

// TestOfficialConformance runs the official MCP conformance suite's server
// scenarios against the binary serving Streamable HTTP, pointed at a
// loopback mockombi.
func TestOfficialConformance(t *testing.T) {
	_, cli := npmInstalled(t, officialEnv, "@modelcontextprotocol/conformance", "dist", "index.js")
	bin := buildBinary(t)
	m := startLoopbackMock(t)
	srv := startHTTPBinary(t, bin, []string{
		"OMBI_URL=" + m.URL(), "OMBI_AUTH_MODE=api_key", "OMBI_API_KEY=" + m.Credentials().APIKey,
		"OMBI_BUNDLES=core,moderation,administration",
	})
	stopWhenDone(t, srv)
	for _, sc := range officialScenarios {
		t.Run(sc, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "node", cli, "server", "--url", srv.base+"/mcp", "--scenario", sc, "-o", t.TempDir())
			cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
			out, err := cmd.CombinedOutput()
			text := ansi.ReplaceAllString(string(out), "")
			sum := officialSummary.FindStringSubmatch(text)
			if err != nil || sum == nil || sum[3] != "0" {
				t.Fatalf("official scenario %s: %v\n%s\nserver stderr:\n%s", sc, err, text, tail(srv.stderr.String(), 4000))
			}
			t.Logf("%s: %s", sc, sum[0])
			for _, l := range strings.Split(text, "\n") {
				if strings.Contains(l, "WARNING") {
					t.Logf("  %s", strings.TrimSpace(l))
				}
			}
		})
	}
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// BenchmarkCallLatency_httpVsStdio measures one tools/call through the
// binary over stdio and over Streamable HTTP in the same run, alternating
// the two against one loopback mockombi, and reports each median.
func BenchmarkCallLatency_httpVsStdio(b *testing.B) {
	bin := buildBinary(b)
	m := startLoopbackMock(b)
	env := []string{"OMBI_URL=" + m.URL(), "OMBI_AUTH_MODE=api_key", "OMBI_API_KEY=" + m.Credentials().APIKey, "OMBI_TIMEOUT=5s"}
	ctx := context.Background()

	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	stdio, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = stdio.Close() })
	srv := startHTTPBinary(b, bin, env)
	b.Cleanup(func() {
		_ = srv.cmd.Process.Signal(syscall.SIGTERM)
		<-srv.exited
	})
	remote := connectHTTP(b, srv.base+"/mcp")
	b.Cleanup(func() { _ = remote.Close() })

	params := &mcp.CallToolParams{Name: "read_reference", Arguments: map[string]any{"action": "genres", "media": "movie"}}
	call := func(cs *mcp.ClientSession) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, params)
		d := time.Since(start)
		if err != nil || res.IsError {
			b.Fatalf("call: %v %v", res, err)
		}
		return d
	}
	for range 20 { // warm both up: connections, login-free api_key, caches
		call(stdio)
		call(remote)
	}
	var overStdio, overHTTP []time.Duration
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			overStdio = append(overStdio, call(stdio))
			overHTTP = append(overHTTP, call(remote))
		} else {
			overHTTP = append(overHTTP, call(remote))
			overStdio = append(overStdio, call(stdio))
		}
	}
	ms, mh := median(overStdio), median(overHTTP)
	b.ReportMetric(float64(ms.Microseconds()), "stdio-median-µs/call")
	b.ReportMetric(float64(mh.Microseconds()), "http-median-µs/call")
	b.ReportMetric(float64(mh)/float64(ms), "http/stdio")
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// TestDocs_clientsSeveralInstances runs the several-instances block of
// docs/clients.md as written (from an empty directory, HOME a temporary
// one, the built binary first on PATH), with its two listen ports moved to
// free ones: both instances serve, and each requires the bearer token the
// block wrote to its token file.
func TestDocs_clientsSeveralInstances(t *testing.T) {
	doc, err := os.ReadFile("../../docs/clients.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "## Several instances behind a reverse proxy")
	_, block, ok := strings.Cut(section, "```sh\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("docs/clients.md has no sh block under \"Several instances behind a reverse proxy\"")
	}
	bin := buildBinary(t)
	var ports []string
	for _, p := range []string{"8081", "8082"} {
		if !strings.Contains(block, "127.0.0.1:"+p) {
			t.Fatalf("the block does not serve 127.0.0.1:%s:\n%s", p, block)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		_, free, _ := net.SplitHostPort(ln.Addr().String())
		_ = ln.Close()
		block = strings.ReplaceAll(block, "127.0.0.1:"+p, "127.0.0.1:"+free)
		ports = append(ports, free)
	}
	home := t.TempDir()
	cmd := exec.Command("bash", "-c", block+"wait\n")
	cmd.Dir = t.TempDir()
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "OMBI_") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "PATH=")
	}), "HOME="+home, "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) // the shell and the two instances it started
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	})
	for _, port := range ports {
		base := "http://127.0.0.1:" + port
		deadline := time.Now().Add(20 * time.Second)
		for {
			resp, err := http.Get(base + "/healthz")
			if err == nil {
				_ = resp.Body.Close()
				if resp.StatusCode == 200 {
					break
				}
			}
			select {
			case err := <-exited:
				t.Fatalf("the block ended (%v) before %s served:\n%s", err, base, out.String())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s did not serve within 20s:\n%s", base, out.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
		ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
		if st, _, _ := postMCP(t, base+"/mcp", ping, ""); st != http.StatusUnauthorized {
			t.Errorf("%s/mcp without the token = %d, want 401:\n%s", base, st, out.String())
		}
		tokenFile := filepath.Join(home, ".config", "ombi-mcp", "token")
		token, err := os.ReadFile(tokenFile)
		if err != nil {
			t.Fatalf("the block wrote no token file: %v", err)
		}
		if st, _, body := postMCP(t, base+"/mcp", ping, strings.TrimSpace(string(token))); st != 200 || !strings.Contains(body, `"result"`) {
			t.Errorf("%s/mcp with the token = %d %s", base, st, body)
		}
		if fi, err := os.Stat(tokenFile); err != nil || fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("token file mode %v, %v: want readable by its owner only", fi.Mode(), err)
		}
	}
}

// postMCP posts one JSON-RPC body to an MCP endpoint, with a bearer token
// when one is given.
func postMCP(t *testing.T, endpoint, body, token string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = http.Header{
		"Content-Type":         {"application/json"},
		"Accept":               {"application/json, text/event-stream"},
		"Mcp-Protocol-Version": {"2025-11-25"},
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

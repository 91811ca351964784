package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

const testToken = "0123456789abcdef-test-token"

// httpInstance is one ombi-mcp HTTP endpoint on a loopback port.
type httpInstance struct {
	url   string // MCP endpoint
	base  string // scheme://host:port
	logs  *syncBuf
	calls atomic.Int64 // MCP requests served
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startHTTPInstance serves a server built from o over Streamable HTTP on
// an httptest server (127.0.0.1, a port chosen at run time).
func startHTTPInstance(t testing.TB, o Options) *httpInstance {
	t.Helper()
	in := &httpInstance{logs: &syncBuf{}}
	o.Logger = slog.New(quietSessions{slog.NewTextHandler(in.logs, &slog.HandlerOptions{Level: slog.LevelDebug})})
	s, err := New(o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	h, err := NewHTTPHandler(s, o, "")
	if err != nil {
		t.Fatalf("NewHTTPHandler: %v", err)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == DefaultMCPPath {
			in.calls.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	in.base, in.url = ts.URL, ts.URL+DefaultMCPPath
	return in
}

// connectHTTP opens an MCP client session to endpoint over the SDK's
// Streamable HTTP client transport.
func connectHTTP(t testing.TB, endpoint string, hc *http.Client) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect %s: %v", endpoint, err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// post sends one raw JSON-RPC body and returns the answer.
func post(t testing.TB, endpoint, body string, hdr map[string]string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("post: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func envelopeOf(t testing.TB, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	raw, _ := json.Marshal(res.StructuredContent)
	var env map[string]any
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatalf("structuredContent %s: %v", raw, err)
	}
	return env
}

func TestHTTP_sameToolsAndEnvelopeAsStdio(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	in := startHTTPInstance(t, allBundles(jwtOptions(t, m)))
	cs := connectHTTP(t, in.url, nil)
	ctx := context.Background()
	if got := cs.InitializeResult().ProtocolVersion; got != "2025-11-25" {
		t.Errorf("protocolVersion = %q", got)
	}
	var names []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	if len(names) != len(spec.Tools()) {
		t.Errorf("tools/list over HTTP: %d tools, want %d", len(names), len(spec.Tools()))
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_reference", Arguments: map[string]any{"action": "genres", "media": "movie"}})
	if err != nil {
		t.Fatal(err)
	}
	env := envelopeOf(t, res)
	if env["ok"] != true || env["operation"] != "read_reference" || res.IsError {
		t.Errorf("envelope %v, isError %v", env, res.IsError)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !textMatches(text, res.StructuredContent) {
		t.Errorf("text block differs from structuredContent: %s", text)
	}

	// A disabled bundle is refused as on stdio.
	core := startHTTPInstance(t, jwtOptions(t, m))
	res, err = connectHTTP(t, core.url, nil).CallTool(ctx, &mcp.CallToolParams{Name: "write_job_run", Arguments: map[string]any{"job": "sonarr"}})
	if err != nil {
		t.Fatal(err)
	}
	if env := envelopeOf(t, res); !res.IsError || env["error"].(map[string]any)["code"] != codeForbidden {
		t.Errorf("disabled bundle over HTTP: %v", env)
	}
}

func textMatches(text string, v any) bool {
	var a, b any
	raw, _ := json.Marshal(v)
	return json.Unmarshal([]byte(text), &a) == nil && json.Unmarshal(raw, &b) == nil && fmt.Sprint(a) == fmt.Sprint(b)
}

func TestHTTP_malformedRequestsAreJSONRPCErrors(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	in := startHTTPInstance(t, jwtOptions(t, m))
	deep := strings.Repeat("[", 1000) + strings.Repeat("]", 1000)
	huge := strings.Repeat("A", MaxFrameBytes)
	tests := []struct {
		name     string
		body     string
		wantCode int
		status   int
	}{
		{"unknown method", `{"jsonrpc":"2.0","id":"u","method":"tools/frobnicate","params":{}}`, -32601, 200},
		{"missing params", `{"jsonrpc":"2.0","id":2,"method":"tools/call"}`, -32602, 200},
		{"id on a notification", `{"jsonrpc":"2.0","id":3,"method":"notifications/initialized"}`, -32600, 200},
		{"bad params", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":42}}`, -32602, 200},
		{"nested too deep", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read_search","arguments":{"query":` + deep + `}}}`, -32602, 200},
		{"over the frame cap", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"read_search","arguments":{"query":"` + huge + `"}}}`, -32600, 200},
		{"not JSON", `nonsense`, 0, 400},
		{"batch", `[{"jsonrpc":"2.0","id":7,"method":"ping"}]`, 0, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, _, body := post(t, in.url, tt.body, nil)
			if status != tt.status {
				t.Fatalf("status %d, want %d: %s", status, tt.status, clipText(body))
			}
			if tt.wantCode == 0 {
				return
			}
			var msg struct {
				ID    json.RawMessage `json:"id"`
				Error *struct {
					Code int `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(body), &msg); err != nil || msg.Error == nil || msg.Error.Code != tt.wantCode {
				t.Fatalf("answer %s, want JSON-RPC error %d", clipText(body), tt.wantCode)
			}
			if want, _ := topLevelID([]byte(tt.body)); string(msg.ID) != want {
				t.Errorf("id %s, want %s", msg.ID, want)
			}
		})
	}
}

func clipText(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

func TestHTTP_originTokenAndHealth(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	o := jwtOptions(t, m)
	o.MCPToken = testToken
	o.AllowedOrigins = []string{"https://app.example"}
	in := startHTTPInstance(t, o)
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}`
	bearer := map[string]string{"Authorization": "Bearer " + testToken}
	with := func(extra map[string]string) map[string]string {
		h := map[string]string{"Authorization": "Bearer " + testToken}
		for k, v := range extra {
			h[k] = v
		}
		return h
	}
	tests := []struct {
		name   string
		hdr    map[string]string
		status int
	}{
		{"token, no origin", bearer, 200},
		{"scheme in other case", map[string]string{"Authorization": "bearer " + testToken}, 200},
		{"no token", nil, 401},
		{"wrong token", map[string]string{"Authorization": "Bearer " + strings.ToUpper(testToken)}, 401},
		{"basic auth", map[string]string{"Authorization": "Basic " + testToken}, 401},
		{"loopback origin", with(map[string]string{"Origin": "http://localhost:3000"}), 200},
		{"loopback ip origin", with(map[string]string{"Origin": "http://127.0.0.1:9"}), 200},
		{"allowed origin", with(map[string]string{"Origin": "https://APP.example"}), 200},
		{"foreign origin", with(map[string]string{"Origin": "http://evil.example"}), 403},
		{"rebinding origin", with(map[string]string{"Origin": "http://evil.example:80", "Host": "evil.example"}), 403},
		{"null origin", with(map[string]string{"Origin": "null"}), 403},
		{"foreign origin without token", map[string]string{"Origin": "http://evil.example"}, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, in.url, strings.NewReader(ping))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range tt.hdr {
				if k == "Host" {
					req.Host = v
					continue
				}
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			if tt.status == 401 {
				if c := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(c, "Bearer ") {
					t.Errorf("WWW-Authenticate = %q, want a Bearer challenge", c)
				}
			}
			if strings.Contains(string(body), testToken) {
				t.Errorf("the answer echoes the token: %s", body)
			}
		})
	}
	// The health route needs no token.
	resp, err := http.Get(in.base + HealthPath)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("GET %s = %d, want 200", HealthPath, resp.StatusCode)
	}
	// A session with the token works end to end.
	hc := &http.Client{Transport: headerTransport{"Authorization": "Bearer " + testToken}}
	res, err := connectHTTP(t, in.url, hc).CallTool(context.Background(), &mcp.CallToolParams{Name: "read_reference", Arguments: map[string]any{"action": "genres", "media": "movie"}})
	if err != nil || res.IsError {
		t.Fatalf("call with the token: %v %v", res, err)
	}
	if strings.Contains(in.logs.String(), testToken) {
		t.Errorf("the log carries the token")
	}
	if !strings.Contains(in.logs.String(), "refused http request") {
		t.Errorf("refusals are not logged:\n%s", in.logs.String())
	}
}

// headerTransport adds fixed headers to every request.
type headerTransport map[string]string

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestHTTP_loadBalancedSession serves one client session from two
// independent instances behind a round-robin reverse proxy: the server is
// stateless, so no request needs the instance that served the one before.
func TestHTTP_loadBalancedSession(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	a := startHTTPInstance(t, allBundles(jwtOptions(t, m)))
	b := startHTTPInstance(t, allBundles(jwtOptions(t, m)))
	var next atomic.Uint64
	backends := []*url.URL{mustURL(t, a.base), mustURL(t, b.base)}
	proxy := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.SetURL(backends[next.Add(1)%2])
	}}
	lb := httptest.NewServer(proxy)
	t.Cleanup(lb.Close)

	cs := connectHTTP(t, lb.URL+DefaultMCPPath, nil)
	ctx := context.Background()
	n := 0
	for _, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatalf("tools/list through the balancer: %v", err)
		}
		n++
	}
	if n != len(spec.Tools()) {
		t.Errorf("tools/list through the balancer: %d tools", n)
	}
	calls := []mcp.CallToolParams{
		{Name: "read_reference", Arguments: map[string]any{"action": "genres", "media": "movie"}},
		{Name: "read_search", Arguments: map[string]any{"action": "text", "media": "movie", "query": "Alien"}},
		{Name: "read_requests", Arguments: map[string]any{"action": "list", "media": "movie"}},
		{Name: "no_such_tool", Arguments: map[string]any{}},
	}
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Go(func() {
			p := calls[i%len(calls)]
			res, err := cs.CallTool(ctx, &p)
			switch {
			case p.Name == "no_such_tool":
				if err == nil {
					errs <- fmt.Errorf("call %d: an unknown tool must be a JSON-RPC error", i)
				}
			case err != nil:
				errs <- fmt.Errorf("call %d %s: %v", i, p.Name, err)
			case res.IsError:
				errs <- fmt.Errorf("call %d %s: tool error %v", i, p.Name, res.StructuredContent)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Errorf("ping through the balancer: %v", err)
	}
	if a.calls.Load() < 10 || b.calls.Load() < 10 {
		t.Errorf("round robin did not spread the session: %d and %d requests", a.calls.Load(), b.calls.Load())
	}
	t.Logf("one session, %d requests on instance A and %d on instance B", a.calls.Load(), b.calls.Load())
}

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestHTTP_concurrentPOSTs is the probe of the official
// server-sse-multiple-streams scenario, which that scenario only runs
// against a server that issues a session id: concurrent POSTs (here with
// the older protocol header it sends) are all served.
func TestHTTP_concurrentPOSTs(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	in := startHTTPInstance(t, jwtOptions(t, m))
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			status, hdr, body := post(t, in.url, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":{}}`, 1000+i), map[string]string{"MCP-Protocol-Version": "2025-03-26"})
			if status != 200 || !strings.Contains(hdr.Get("Content-Type"), "application/json") || !strings.Contains(body, `"tools"`) {
				t.Errorf("POST %d: status %d %s: %s", i, status, hdr.Get("Content-Type"), clipText(body))
			}
		})
	}
	wg.Wait()
}

// TestRunHTTP_gracefulShutdown cancels the serving context while a call
// waits on a slow upstream: the call still gets its answer, /healthz turns
// 503 meanwhile, and RunHTTP returns nil.
func TestRunHTTP_gracefulShutdown(t *testing.T) {
	m := startMock(t, mockombi.Options{Latency: 700 * time.Millisecond})
	o := jwtOptions(t, m)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- RunHTTP(ctx, o, HTTPConfig{Addr: "127.0.0.1:0", Listening: func(a net.Addr) { addrc <- a }})
	}()
	var base string
	select {
	case a := <-addrc:
		base = "http://" + a.String()
	case err := <-done:
		t.Fatalf("RunHTTP: %v", err)
	}
	cs := connectHTTP(t, base+DefaultMCPPath, nil)
	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	got := make(chan answer, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_reference", Arguments: map[string]any{"action": "genres", "media": "movie"}})
		got <- answer{res, err}
	}()
	time.Sleep(200 * time.Millisecond) // the call is in flight upstream
	cancel()
	time.Sleep(50 * time.Millisecond)
	if resp, err := http.Get(base + HealthPath); err == nil {
		_ = resp.Body.Close()
		t.Errorf("a new connection was accepted during shutdown (GET %s = %d)", HealthPath, resp.StatusCode)
	}
	a := <-got
	if a.err != nil || a.res.IsError {
		t.Fatalf("the call in flight did not finish: %v %v", a.res, a.err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("RunHTTP after shutdown: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("RunHTTP did not return after the call finished")
	}
}

func TestHTTPHandler_drainTurnsHealth503(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	o := jwtOptions(t, m)
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHTTPHandler(s, o, "/custom")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		drain  bool
		path   string
		method string
		want   int
	}{
		{false, HealthPath, http.MethodGet, 200},
		{false, "/mcp", http.MethodPost, 404},
		{false, "/custom", http.MethodGet, 405},
		{true, HealthPath, http.MethodGet, 503},
	} {
		if tc.drain {
			h.Drain()
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if rec.Code != tc.want {
			t.Errorf("%s %s (draining %v) = %d, want %d", tc.method, tc.path, tc.drain, rec.Code, tc.want)
		}
	}
}

func TestHTTPConfig_Validate(t *testing.T) {
	tests := []struct {
		cfg HTTPConfig
		ok  bool
	}{
		{HTTPConfig{Addr: "127.0.0.1:8080"}, true},
		{HTTPConfig{Addr: "127.0.0.2:0"}, true},
		{HTTPConfig{Addr: "[::1]:8080"}, true},
		{HTTPConfig{Addr: "localhost:8080"}, true},
		{HTTPConfig{Addr: "0.0.0.0:8080"}, false},
		{HTTPConfig{Addr: ":8080"}, false},
		{HTTPConfig{Addr: "media.example:8080"}, false},
		{HTTPConfig{Addr: "0.0.0.0:8080", AllowRemote: true}, true},
		{HTTPConfig{Addr: ":8080", AllowRemote: true}, true},
		{HTTPConfig{Addr: "127.0.0.1"}, false},
		{HTTPConfig{Addr: "127.0.0.1:8080", Path: "mcp"}, false},
		{HTTPConfig{Addr: "127.0.0.1:8080", Path: HealthPath}, false},
		{HTTPConfig{Addr: "127.0.0.1:8080", Path: "/v1/mcp"}, true},
	}
	for _, tt := range tests {
		if err := tt.cfg.Validate(); (err == nil) != tt.ok {
			t.Errorf("Validate(%+v) = %v, want ok %v", tt.cfg, err, tt.ok)
		}
	}
}

func TestHTTP_optionsFromEnv(t *testing.T) {
	base := map[string]string{"OMBI_URL": "http://ombi:5000", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k"}
	env := func(extra map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) {
			if v, ok := extra[k]; ok {
				return v, true
			}
			v, ok := base[k]
			return v, ok
		}
	}
	o, err := OptionsFromEnv(env(map[string]string{EnvMCPToken: " " + testToken + " ", EnvAllowedOrigins: "https://a.example, http://b.example:8080"}))
	if err != nil || o.MCPToken != testToken || len(o.AllowedOrigins) != 2 {
		t.Fatalf("OptionsFromEnv = %+v, %v", o, err)
	}
	_, err = OptionsFromEnv(env(map[string]string{EnvMCPToken: "short-secret"}))
	if err == nil || !strings.Contains(err.Error(), EnvMCPToken) || strings.Contains(err.Error(), "short-secret") {
		t.Errorf("short token: %v; want an error naming %s without its value", err, EnvMCPToken)
	}
	for _, bad := range []string{"a.example", "https://a.example/path", "ftp://a.example", "null"} {
		if _, err := OptionsFromEnv(env(map[string]string{EnvAllowedOrigins: bad})); err == nil || !strings.Contains(err.Error(), EnvAllowedOrigins) {
			t.Errorf("origin %q: %v; want an error naming %s", bad, err, EnvAllowedOrigins)
		}
	}
	if _, err := OptionsFromEnv(env(map[string]string{EnvAllowedOrigins: "*"})); err != nil {
		t.Errorf("origin *: %v", err)
	}
}

func TestOptionsFromEnv_mcpToken(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("token", testToken+"\n")
	empty := write("empty", "")
	blank := write("blank", " \n\t\n")
	short := write("short", "tiny-secret\n")
	missing := filepath.Join(dir, "no-such-token")
	base := map[string]string{"OMBI_URL": "http://ombi:5000", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k"}
	tests := []struct {
		name      string
		env       map[string]string
		wantToken string
		wantErr   []string // what the error names; nil: no error
	}{
		{name: "unset", env: map[string]string{}},
		{name: "given", env: map[string]string{EnvMCPToken: " " + testToken + " "}, wantToken: testToken},
		{name: "given but empty", env: map[string]string{EnvMCPToken: ""}, wantErr: []string{EnvMCPToken, "empty"}},
		{name: "given but blank", env: map[string]string{EnvMCPToken: " \t"}, wantErr: []string{EnvMCPToken, "empty"}},
		{name: "file", env: map[string]string{EnvMCPTokenFile: good}, wantToken: testToken},
		{name: "file missing", env: map[string]string{EnvMCPTokenFile: missing}, wantErr: []string{EnvMCPTokenFile, missing}},
		{name: "file unreadable", env: map[string]string{EnvMCPTokenFile: dir}, wantErr: []string{EnvMCPTokenFile, dir}},
		{name: "file empty", env: map[string]string{EnvMCPTokenFile: empty}, wantErr: []string{EnvMCPTokenFile, empty, "empty"}},
		{name: "file blank", env: map[string]string{EnvMCPTokenFile: blank}, wantErr: []string{EnvMCPTokenFile, blank, "empty"}},
		{name: "file named but empty", env: map[string]string{EnvMCPTokenFile: ""}, wantErr: []string{EnvMCPTokenFile, "empty"}},
		{name: "file token too short", env: map[string]string{EnvMCPTokenFile: short}, wantErr: []string{EnvMCPTokenFile, "16"}},
		{name: "both", env: map[string]string{EnvMCPToken: testToken, EnvMCPTokenFile: good}, wantErr: []string{EnvMCPToken, EnvMCPTokenFile}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := maps.Clone(base)
			maps.Copy(e, tt.env)
			o, err := OptionsFromEnv(env(e))
			if tt.wantErr == nil {
				if err != nil || o.MCPToken != tt.wantToken {
					t.Fatalf("OptionsFromEnv: token %q, %v; want %q", o.MCPToken, err, tt.wantToken)
				}
				return
			}
			if err == nil {
				t.Fatalf("OptionsFromEnv: no error, token %q; want an error naming %q", o.MCPToken, tt.wantErr)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
			if se := (*settingError)(nil); !errors.As(err, &se) || !strings.HasPrefix(se.Setting, tt.wantErr[0]) {
				t.Errorf("error %q is not a *settingError of %s", err, tt.wantErr[0])
			}
			for _, secret := range []string{testToken, "tiny-secret"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error %q carries the token", err)
				}
			}
		})
	}
}

// TestRunHTTP_warnsWithoutTokenOffLoopback: serving a non-loopback address
// without a bearer token logs a warning naming the address and how to set a
// token; loopback, or a token, stays quiet.
func TestRunHTTP_warnsWithoutTokenOffLoopback(t *testing.T) {
	tests := []struct {
		name     string
		addr     string
		token    string
		wantWarn bool
	}{
		{"loopback", "127.0.0.1:0", "", false},
		{"localhost", "localhost:0", "", false},
		{"every IPv4 interface", "0.0.0.0:0", "", true},
		{"every interface", ":0", "", true},
		{"every IPv4 interface with a token", "0.0.0.0:0", testToken, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logs := &syncBuf{}
			o := Options{URL: "http://127.0.0.1:1", AuthMode: AuthAPIKey, APIKey: "k", MCPToken: tt.token,
				Logger: slog.New(slog.NewTextHandler(logs, nil))}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			bound := make(chan net.Addr, 1)
			done := make(chan error, 1)
			go func() {
				done <- RunHTTP(ctx, o, HTTPConfig{Addr: tt.addr, AllowRemote: true, Listening: func(a net.Addr) { bound <- a }})
			}()
			var addr net.Addr
			select {
			case addr = <-bound:
			case err := <-done:
				t.Fatalf("RunHTTP: %v", err)
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("RunHTTP: %v", err)
			}
			var warns []string
			for _, l := range strings.Split(logs.String(), "\n") {
				if strings.Contains(l, "level=WARN") {
					warns = append(warns, l)
				}
			}
			if !tt.wantWarn {
				if len(warns) > 0 {
					t.Fatalf("warned on %s:\n%s", tt.addr, strings.Join(warns, "\n"))
				}
				return
			}
			if len(warns) != 1 {
				t.Fatalf("%d warnings, want 1:\n%s", len(warns), logs.String())
			}
			for _, w := range []string{"addr=" + addr.String(), "without", EnvMCPToken, EnvMCPTokenFile} {
				if !strings.Contains(warns[0], w) {
					t.Errorf("warning lacks %q: %s", w, warns[0])
				}
			}
		})
	}
}

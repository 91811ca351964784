package mockombi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
)

func TestServer_CORS(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		name       string
		c          call
		wantStatus int
		wantHeader map[string]string
		wantAbsent []string
	}{
		{"preflight", call{method: "OPTIONS", path: "/api/v1/Request/movie", header: map[string]string{
			"Origin": "http://localhost:3577", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type"}},
			204, map[string]string{"Access-Control-Allow-Origin": "http://localhost:3577", "Access-Control-Allow-Methods": "GET, POST, PUT, DELETE, PATCH, OPTIONS"}, nil},
		{"simple request echoes the origin", call{method: "GET", path: "/api/v1/Status", header: map[string]string{"Origin": "http://ui.example"}},
			200, map[string]string{"Access-Control-Allow-Origin": "http://ui.example", "Access-Control-Allow-Credentials": "true"}, nil},
		{"no origin, no CORS headers", call{method: "GET", path: "/api/v1/Status"}, 200, nil, []string{"Access-Control-Allow-Origin"}},
		{"401 still carries CORS", call{method: "GET", path: "/api/v1/Request/movie", header: map[string]string{"Origin": "http://ui.example"}},
			401, map[string]string{"Access-Control-Allow-Origin": "http://ui.example"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, tt.c)
			if res.status != tt.wantStatus {
				t.Fatalf("status %d, want %d", res.status, tt.wantStatus)
			}
			for k, v := range tt.wantHeader {
				if got := res.header.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			for _, k := range tt.wantAbsent {
				if res.header.Get(k) != "" {
					t.Errorf("%s present", k)
				}
			}
		})
	}
	res := do(t, s, tests[0].c)
	allow := strings.ToLower(res.header.Get("Access-Control-Allow-Headers"))
	for _, h := range []string{"authorization", "apikey", "username", "content-type"} {
		if !strings.Contains(allow, h) {
			t.Errorf("Allow-Headers %q lacks %s", allow, h)
		}
	}
}

func TestServer_basePath(t *testing.T) {
	s := newTestServer(t, Options{BasePath: "/ombi"})
	url := startServer(t, s)
	if !strings.HasSuffix(url, "/ombi") || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("URL() = %q", url)
	}
	tests := []struct {
		path string
		want int
	}{
		{"/ombi/api/v1/Status", 200},
		{"/OMBI/api/v1/Status", 200},
		{"/api/v1/Status", 404},
		{"/ombiX/api/v1/Status", 404},
	}
	for _, tt := range tests {
		resp, err := http.Get(strings.TrimSuffix(url, "/ombi") + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("GET %s = %d, want %d", tt.path, resp.StatusCode, tt.want)
		}
	}
}

func TestServer_static(t *testing.T) {
	dir := t.TempDir()
	index := []byte("<!doctype html><base href=\"/\"><app-root></app-root>\n")
	script := bytes.Repeat([]byte{0x00, 0xff, 'a', '\n'}, 1000)
	if err := os.WriteFile(filepath.Join(dir, "index.html"), index, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "translations"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main-ABC123.js"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "translations", "en.json"), []byte(`{"Login":"Login"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, Options{StaticDir: dir})
	tests := []struct {
		name       string
		path       string
		wantStatus int
		wantBody   []byte
	}{
		{"root", "/", 200, index},
		{"asset byte for byte", "/main-ABC123.js", 200, script},
		{"nested with query", "/translations/en.json?v=1234", 200, []byte(`{"Login":"Login"}`)},
		{"SPA route falls back", "/discover/movie", 200, index},
		{"traversal stays inside", "/../../etc/passwd", 200, index},
		{"unknown API route is not the SPA", "/api/v1/Nope", 404, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, call{method: "GET", path: tt.path})
			if res.status != tt.wantStatus || (tt.wantBody != nil && !bytes.Equal(res.body, tt.wantBody)) {
				t.Fatalf("GET %s = %d %q", tt.path, res.status, truncate(string(res.body), 80))
			}
		})
	}
}

func TestServer_latencyAndLog(t *testing.T) {
	var mu sync.Mutex
	var buf bytes.Buffer
	w := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	})
	s := newTestServer(t, Options{Latency: 30 * time.Millisecond, Log: w})
	start := time.Now()
	do(t, s, call{method: "GET", path: "/api/v1/Status?x=1"})
	if time.Since(start) < 30*time.Millisecond {
		t.Errorf("latency not applied")
	}
	start = time.Now()
	do(t, s, call{method: "GET", path: "/_mock/journal"})
	if time.Since(start) >= 30*time.Millisecond {
		t.Errorf("latency applied to a control call")
	}
	mu.Lock()
	defer mu.Unlock()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("log lines = %q, want one (control calls are not logged)", lines)
	}
	var entry map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &entry); err != nil {
		t.Fatal(err)
	}
	if entry["method"] != "GET" || entry["path"] != "/api/v1/Status" || entry["query"] != "x=1" || entry["status"] != float64(200) || entry["route"] != RouteStatus {
		t.Errorf("log entry = %v", entry)
	}
}

// writerFunc adapts a function to io.Writer.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestServer_startAndClose(t *testing.T) {
	s := newTestServer(t, Options{})
	if s.URL() != "" {
		t.Fatalf("URL before Start = %q", s.URL())
	}
	url := startServer(t, s)
	resp, err := http.Get(url + "/api/v1/Status")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "200" {
		t.Fatalf("status body %q", body)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(url + "/api/v1/Status"); err == nil {
		t.Fatal("server still answering after Close")
	}
	if err := s.Start("256.0.0.1:0"); err == nil {
		t.Fatal("Start on a bad address succeeded")
	}
}

func TestServer_dataSets(t *testing.T) {
	tests := []struct {
		name      string
		dataSet   string
		minMovies int
		minTV     int
	}{
		{"default", "", 10, 5},
		{"large", DataSetLarge, 2500, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, Options{DataSet: tt.dataSet})
			var movies, tv int
			do(t, s, call{method: "GET", path: "/api/v1/Request/movie/total", header: apiKey()}).json(t, &movies)
			do(t, s, call{method: "GET", path: "/api/v1/Request/tv/total", header: apiKey()}).json(t, &tv)
			if movies < tt.minMovies || tv < tt.minTV {
				t.Fatalf("totals movie=%d tv=%d", movies, tv)
			}
		})
	}
	if s, err := New(Options{DataSet: "huge"}); s != nil || err == nil {
		t.Fatalf("New with an unknown data set = %v, %v; want no server and an error", s, err)
	}
}

func TestServer_largeDataSetIsDeterministic(t *testing.T) {
	a := newTestServer(t, Options{DataSet: DataSetLarge})
	b := newTestServer(t, Options{DataSet: DataSetLarge})
	p := "/api/v2/Requests/tv/5/0/requestedDate/desc"
	ra := do(t, a, call{method: "GET", path: p, header: apiKey()})
	rb := do(t, b, call{method: "GET", path: p, header: apiKey()})
	if ra.status != 200 || !bytes.Equal(ra.body, rb.body) {
		t.Fatalf("large data set differs between runs (%d)", ra.status)
	}
	var huge map[string]any
	do(t, a, call{method: "GET", path: "/api/v2/Search/tv/moviedb/" + itoa(db.LargeShowID(1)), header: apiKey()}).json(t, &huge)
	seasons, _ := huge["seasonRequests"].([]any)
	if len(seasons) != db.HugeSeasons {
		t.Fatalf("huge show has %d seasons, want %d", len(seasons), db.HugeSeasons)
	}
}

func TestAllowHeaders_eachOnce(t *testing.T) {
	tests := []struct{ requested, want string }{
		{"", corsHeaders},
		{"authorization, X-Custom", corsHeaders + ", X-Custom"},
		{"X-Custom,x-custom", corsHeaders + ", X-Custom"},
	}
	for _, tt := range tests {
		if got := allowHeaders(tt.requested); got != tt.want {
			t.Errorf("allowHeaders(%q) = %q, want %q", tt.requested, got, tt.want)
		}
	}
}

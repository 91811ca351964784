package mockombi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// testNow is the fixed clock of unit tests: after every seeded request.
var testNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// newTestServer builds a mock with a fixed clock.
func newTestServer(t *testing.T, opts Options) *Server {
	t.Helper()
	if opts.Clock == nil {
		opts.Clock = func() time.Time { return testNow }
	}
	return mustNew(t, opts)
}

// mustNew builds a mock from opts as given, failing the test on an error.
func mustNew(tb testing.TB, opts Options) *Server {
	tb.Helper()
	s, err := New(opts)
	if err != nil {
		tb.Fatalf("new mock: %v", err)
	}
	return s
}

// getJSON sends a call and decodes a 200 answer.
func getJSON(t *testing.T, s *Server, c call, v any) {
	t.Helper()
	res := do(t, s, c)
	if res.status != 200 {
		t.Fatalf("%s %s = %d %s", c.method, c.path, res.status, truncate(string(res.body), 300))
	}
	res.json(t, v)
}

// call is one request to send through Handler().
type call struct {
	method string
	path   string
	header map[string]string
	body   string
}

// result is a recorded answer.
type result struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the body into v or fails the test.
func (r result) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode body %q: %v", truncate(string(r.body), 300), err)
	}
}

// truncate shortens long strings for failure messages.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// do sends c through the handler in process.
func do(t *testing.T, s *Server, c call) result {
	t.Helper()
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	req := httptest.NewRequest(c.method, c.path, body)
	if c.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	return result{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// login returns a bearer header map for a user of DefaultUsers.
func login(t *testing.T, s *Server, user, password string) map[string]string {
	t.Helper()
	res := do(t, s, call{method: "POST", path: s.basePath + "/api/v1/Token", body: `{"username":"` + user + `","password":"` + password + `","rememberMe":false}`})
	if res.status != http.StatusOK {
		t.Fatalf("login %s: status %d body %s", user, res.status, res.body)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	res.json(t, &tok)
	return map[string]string{"Authorization": "Bearer " + tok.AccessToken}
}

// asAdmin, asPower and asUser log in as the default accounts.
func asAdmin(t *testing.T, s *Server) map[string]string {
	t.Helper()
	return login(t, s, "admin", "OmbiAdmin1!")
}

func asPower(t *testing.T, s *Server) map[string]string {
	t.Helper()
	return login(t, s, "power", "OmbiPower1!")
}

func asUser(t *testing.T, s *Server) map[string]string {
	t.Helper()
	return login(t, s, "user", "OmbiUser1!")
}

// apiKey is the header map of an API-key call.
func apiKey() map[string]string { return map[string]string{"ApiKey": DefaultAPIKey} }

// startServer listens on a loopback port and closes at cleanup.
func startServer(t *testing.T, s *Server) string {
	t.Helper()
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s.URL()
}

// compactJSON re-encodes JSON for comparisons.
func compactJSON(t *testing.T, b []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatalf("compact %q: %v", truncate(string(b), 200), err)
	}
	return buf.String()
}

// itoa formats an int.
func itoa(i int) string { return strconv.Itoa(i) }

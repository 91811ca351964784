package mockombi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// upstreamKey is the API key of the Ombi behind the proxy in these tests:
// not the mock's own, so a call the proxy answered itself would fail.
const upstreamKey = "upstream-0123456789abcdef0123456789"

// startUpstream starts a mock standing for a real Ombi, with its own API
// key and every answer journaled whole; its data is the example file
// unless opts names a data set.
func startUpstream(t *testing.T, opts Options) (*Server, string) {
	t.Helper()
	if opts.DataSet == "" {
		opts.DataFile = exampleData
	}
	opts.APIKey, opts.JournalResponses, opts.JournalBodyBytes = upstreamKey, true, -1
	s := newTestServer(t, opts)
	return s, startServer(t, s)
}

// startProxy starts a mock with opts (Proxy among them), answers journaled.
func startProxy(t *testing.T, opts Options) (*Server, string) {
	t.Helper()
	opts.JournalResponses, opts.JournalBodyBytes = true, -1
	s := newTestServer(t, opts)
	return s, startServer(t, s)
}

// noRedirects is a client that hands back redirects rather than following them.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// send makes c over HTTP to base and reads the whole answer.
func send(t *testing.T, base string, c call) result {
	t.Helper()
	req, err := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
	if err != nil {
		t.Fatal(err)
	}
	if c.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	resp, err := noRedirects.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", c.method, c.path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read answer: %v", c.method, c.path, err)
	}
	return result{status: resp.StatusCode, header: resp.Header, body: b}
}

// bodyText is the text of a journaled body (raw JSON, or a JSON string
// holding other text).
func bodyText(raw json.RawMessage) string {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// lastCall is the latest journaled call of s.
func lastCall(t *testing.T, s *Server) Call {
	t.Helper()
	j := s.Journal()
	if len(j) == 0 {
		t.Fatal("the journal is empty")
	}
	return j[len(j)-1]
}

func TestProxy_passesCallsThrough(t *testing.T) {
	up, upURL := startUpstream(t, Options{})
	p, base := startProxy(t, Options{Proxy: upURL})
	key := map[string]string{"ApiKey": upstreamKey}
	tests := []struct {
		name       string
		c          call
		status     int
		route      string
		wantInBody string
	}{
		{"anonymous GET", call{method: "GET", path: "/api/v1/Status"}, 200, RouteStatus, "200"},
		{"GET with query", call{method: "GET", path: "/api/v1/Status?probe=1&x=%20y"}, 200, RouteStatus, "200"},
		{"the upstream's settings", call{method: "GET", path: "/api/v1/Settings/customization", header: key}, 200,
			"GET /api/v1/Settings/customization", `"applicationName":"Example Ombi"`},
		{"login", call{method: "POST", path: "/api/v1/Token", body: `{"username":"alice","password":"ExampleAlice1!"}`}, 200,
			RouteToken, `"access_token"`},
		{"POST with the upstream's key", call{method: "POST", path: "/api/v1/Request/movie", header: map[string]string{"ApiKey": upstreamKey, "UserName": "alice"},
			body: `{"theMovieDbId":438631}`}, 200, RouteRequestMovie, `"result":true`},
		{"the mock's own key is refused upstream", call{method: "GET", path: "/api/v1/Settings/customization", header: map[string]string{"ApiKey": DefaultAPIKey}},
			401, "GET /api/v1/Settings/customization", "Invalid API Key"},
		{"no route", call{method: "GET", path: "/api/v1/NoSuchThing"}, 404, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := send(t, base, tt.c)
			if res.status != tt.status || !strings.Contains(string(res.body), tt.wantInBody) {
				t.Fatalf("%s %s = %d %s", tt.c.method, tt.c.path, res.status, truncate(string(res.body), 200))
			}
			got := lastCall(t, up)
			path, query, _ := strings.Cut(tt.c.path, "?")
			if got.Method != tt.c.method || got.Path != path || got.Query != query || bodyText(got.Body) != tt.c.body {
				t.Errorf("upstream saw %s %s ? %s %s", got.Method, got.Path, got.Query, got.Body)
			}
			for k, v := range tt.c.header {
				if got.Header.Get(k) != v {
					t.Errorf("upstream saw %s: %q, want %q", k, got.Header.Get(k), v)
				}
			}
			if got.Status != res.status || bodyText(got.ResponseBody) != string(res.body) ||
				got.ResponseHeader.Get("Content-Type") != res.header.Get("Content-Type") {
				t.Errorf("answer differs from the upstream's:\n%d %s %s\n%d %s %s", res.status, res.header.Get("Content-Type"), truncate(string(res.body), 200),
					got.Status, got.ResponseHeader.Get("Content-Type"), truncate(bodyText(got.ResponseBody), 200))
			}
			mine := lastCall(t, p)
			if mine.Method != tt.c.method || mine.Path != path || mine.Query != query || mine.Status != tt.status ||
				mine.Route != tt.route || bodyText(mine.Body) != tt.c.body || bodyText(mine.ResponseBody) != string(res.body) {
				t.Errorf("proxy journal = %s %s ? %s %d route %q", mine.Method, mine.Path, mine.Query, mine.Status, mine.Route)
			}
		})
	}
}

func TestProxy_faultsAnswerBeforeForwarding(t *testing.T) {
	up, upURL := startUpstream(t, Options{})
	p, base := startProxy(t, Options{Proxy: upURL})
	tests := []struct {
		name      string
		fault     Fault
		status    int
		ctype     string
		forwarded bool
	}{
		{"status", Fault{Path: "/api/v1/Status", Status: 503}, 503, "application/json", false},
		{"html", Fault{Path: "/api/v1/**", Kind: FaultHTML}, 502, "text/html", false},
		{"business error", Fault{Method: "GET", Path: "/api/v1/Status", Kind: FaultBusinessError}, 200, "application/json; charset=utf-8", false},
		{"delay only", Fault{Path: "/api/v1/Status", DelayMS: 20, Headers: map[string]string{"X-Slow": "1"}}, 200, "application/json; charset=utf-8", true},
		{"wrong content type", Fault{Path: "/api/v1/Status", Kind: FaultWrongContentType}, 200, "text/html; charset=utf-8", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := p.AddFault(tt.fault)
			if err != nil {
				t.Fatal(err)
			}
			defer p.RemoveFault(id)
			mark := up.JournalMark()
			res := send(t, base, call{method: "GET", path: "/api/v1/Status"})
			if res.status != tt.status || res.header.Get("Content-Type") != tt.ctype {
				t.Errorf("answer = %d %s %s", res.status, res.header.Get("Content-Type"), res.body)
			}
			if seen := len(up.JournalSince(mark)); (seen == 1) != tt.forwarded {
				t.Errorf("upstream saw %d calls, forwarded %v", seen, tt.forwarded)
			}
			if tt.fault.Headers != nil && res.header.Get("X-Slow") != "1" {
				t.Errorf("the fault's header is missing: %v", res.header)
			}
			wantRoute := "" // as for any call a fault answers
			if tt.forwarded {
				wantRoute = RouteStatus
			}
			if c := lastCall(t, p); c.Fault == "" || c.Route != wantRoute || c.Status != tt.status {
				t.Errorf("proxy journal = %d route %q fault %q", c.Status, c.Route, c.Fault)
			}
		})
	}
	// a reset fault answers nothing and forwards nothing
	if _, err := p.AddFault(Fault{Path: "/api/v1/Status", Kind: FaultReset, Times: 1}); err != nil {
		t.Fatal(err)
	}
	mark := up.JournalMark()
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}} // a reused connection would be retried
	if _, err := fresh.Get(base + "/api/v1/Status"); err == nil {
		t.Error("a reset fault answered")
	}
	if seen := len(up.JournalSince(mark)); seen != 0 {
		t.Errorf("upstream saw %d calls behind a reset fault", seen)
	}
}

func TestProxy_credentialsReachUpstreamOnly(t *testing.T) {
	up, upURL := startUpstream(t, Options{})
	var logged bytes.Buffer
	log := &lockedWriter{w: &logged}
	file := filepath.Join(t.TempDir(), "recorded.json")
	p, base := startProxy(t, Options{Proxy: upURL, Record: file, Log: log})
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	send(t, base, call{method: "POST", path: "/api/v1/Token", body: `{"username":"alice","password":"ExampleAlice1!"}`}).json(t, &tok)
	if !jwtPattern.MatchString(tok.AccessToken) {
		t.Fatalf("no JWT from the login: %q", tok.AccessToken)
	}
	calls := []call{
		{method: "GET", path: "/api/v1/Settings/customization", header: map[string]string{"ApiKey": upstreamKey}},
		{method: "GET", path: "/api/v1/Settings/customization?apikey=" + upstreamKey},
		{method: "GET", path: "/api/v1/Identity", header: map[string]string{"Authorization": "Bearer " + tok.AccessToken}},
		{method: "POST", path: "/api/v1/Identity/Users", header: map[string]string{"ApiKey": upstreamKey},
			body: `{"userName":"dora","password":"DoraSecret1!","emailAddress":"dora@example.test"}`},
	}
	for _, c := range calls {
		if res := send(t, base, c); res.status != 200 && res.status != 405 {
			t.Errorf("%s %s = %d %s", c.method, c.path, res.status, truncate(string(res.body), 200))
		}
		got := lastCall(t, up)
		for k, v := range c.header {
			if got.Header.Get(k) != v {
				t.Errorf("upstream got %s %q, want %q", k, got.Header.Get(k), v)
			}
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	recorded, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	log.mu.Lock()
	logText := logged.String()
	log.mu.Unlock()
	for where, text := range map[string]string{"the request log": logText, "the recording": string(recorded)} {
		for _, secret := range []string{upstreamKey, tok.AccessToken, "ExampleAlice1!", "DoraSecret1!", "dora@example.test", "alice@example.test"} {
			if strings.Contains(text, secret) {
				t.Errorf("%s holds %q", where, secret)
			}
		}
		if jwtPattern.MatchString(text) {
			t.Errorf("%s holds a JWT", where)
		}
	}
	if !strings.Contains(logText, `"query":"apikey=REDACTED"`) {
		t.Errorf("the log does not show the redacted query:\n%s", logText)
	}
}

func TestProxy_unreachableUpstream(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p, base := startProxy(t, Options{Proxy: "http://" + addr + "/ombi"})
	res := send(t, base, call{method: "GET", path: "/api/v1/Settings/ombi?apikey=" + upstreamKey,
		header: map[string]string{"ApiKey": upstreamKey, "Authorization": "Bearer secret-token-value"}})
	var e struct {
		Error string `json:"error"`
	}
	res.json(t, &e)
	if res.status != http.StatusBadGateway || !strings.Contains(e.Error, "http://"+addr+"/ombi") || !strings.Contains(e.Error, "connection refused") {
		t.Errorf("answer = %d %s", res.status, res.body)
	}
	if strings.Contains(string(res.body), upstreamKey) || strings.Contains(string(res.body), "secret-token-value") {
		t.Errorf("the 502 names a credential: %s", res.body)
	}
	if c := lastCall(t, p); c.Status != http.StatusBadGateway || c.Route != "GET /api/v1/Settings/ombi" {
		t.Errorf("journal = %d %q", c.Status, c.Route)
	}
}

func TestProxy_answersAsGiven(t *testing.T) {
	var followed atomic.Int32
	seen := make(chan http.Header, 10)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header.Clone()
		switch r.URL.Path {
		case "/ombi/api/v1/Landing":
			http.Redirect(w, r, "/ombi/api/v1/Elsewhere?from=landing", http.StatusFound)
		case "/ombi/api/v1/Plain":
			w.Header()["Content-Type"] = nil
			w.Header().Set("Connection", "X-Hop")
			w.Header().Set("X-Hop", "1")
			w.Header().Set("X-Ombi", "yes")
			_, _ = io.WriteString(w, "<p>no content type</p>")
		default:
			followed.Add(1)
			w.WriteHeader(http.StatusTeapot)
		}
	}))
	t.Cleanup(up.Close)
	_, base := startProxy(t, Options{Proxy: up.URL + "/ombi/"})
	tests := []struct {
		path   string
		status int
		header map[string]string // "" : absent
		inBody string
	}{
		{"/api/v1/Landing", http.StatusFound, map[string]string{"Location": "/ombi/api/v1/Elsewhere?from=landing"}, "Found"},
		{"/api/v1/Plain", http.StatusOK, map[string]string{"Content-Type": "", "X-Hop": "", "X-Ombi": "yes"}, "<p>no content type</p>"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res := send(t, base, call{method: "GET", path: tt.path, header: map[string]string{"Connection": "X-Client-Hop", "X-Client-Hop": "1",
				"Accept-Encoding": "gzip", "Accept": "application/json"}})
			if res.status != tt.status || !strings.Contains(string(res.body), tt.inBody) {
				t.Errorf("answer = %d %s", res.status, res.body)
			}
			for k, v := range tt.header {
				if got := res.header.Get(k); got != v {
					t.Errorf("%s: %q, want %q", k, got, v)
				}
			}
			h := <-seen
			if h.Get("X-Client-Hop") != "" || h.Get("Accept-Encoding") != "" || h.Get("Accept") != "application/json" ||
				!strings.HasPrefix(h.Get("User-Agent"), "Go-http-client/") {
				t.Errorf("upstream saw %v", h)
			}
		})
	}
	if n := followed.Load(); n != 0 {
		t.Errorf("the proxy followed the redirect (%d calls)", n)
	}
}

func TestProxy_basePaths(t *testing.T) {
	tests := []struct {
		name, mockBase, upBase string
		path                   string
		status                 int
		upPath                 string // "" when the call must not be forwarded
	}{
		{"no prefixes", "", "", "/api/v1/Status", 200, "/api/v1/Status"},
		{"the mock's prefix is stripped", "/ombi", "", "/ombi/api/v1/Status", 200, "/api/v1/Status"},
		{"the upstream's prefix is added", "", "/sub", "/api/v1/Status", 200, "/sub/api/v1/Status"},
		{"both, any case", "/ombi", "/sub", "/OMBI/api/v1/Status", 200, "/sub/api/v1/Status"},
		{"escapes kept", "/ombi", "/sub", "/ombi/api/v1/Search/movie/The%20Matrix", 401, "/sub/api/v1/Search/movie/The%20Matrix"},
		{"outside the mock's prefix", "/ombi", "/sub", "/api/v1/Status", 404, ""},
		{"control API", "/ombi", "/sub", "/ombi/_mock/info", 200, ""},
		{"dashboard", "/ombi", "/sub", "/ombi/_mock/", 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up, upURL := startUpstream(t, Options{BasePath: tt.upBase})
			_, base := startProxy(t, Options{Proxy: upURL + "/", BasePath: tt.mockBase})
			base = strings.TrimSuffix(base, tt.mockBase)
			res := send(t, base, call{method: "GET", path: tt.path})
			if res.status != tt.status {
				t.Errorf("GET %s = %d %s", tt.path, res.status, truncate(string(res.body), 200))
			}
			j := up.Journal()
			switch {
			case tt.upPath == "" && len(j) != 0:
				t.Errorf("forwarded to %s", j[0].Path)
			case tt.upPath != "" && (len(j) != 1 || j[0].Path != tt.upPath):
				t.Errorf("upstream journal = %+v, want %s", j, tt.upPath)
			}
		})
	}
}

func TestProxy_options(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"not http", Options{Proxy: "ftp://ombi.example"}, "want the http(s) base URL"},
		{"no host", Options{Proxy: "http://"}, "want the http(s) base URL"},
		{"a query", Options{Proxy: "http://ombi.example/?x=1"}, "want the http(s) base URL"},
		{"credentials in the URL", Options{Proxy: "https://me:pw@ombi.example"}, "credentials in the URL"},
		{"record without proxy", Options{Record: filepath.Join(dir, "r.json")}, "Record needs Proxy"},
		{"record into no directory", Options{Proxy: "http://127.0.0.1:1", Record: filepath.Join(dir, "none", "r.json")}, "options: Record: write recording"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New = %v, want %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "pw@") {
				t.Errorf("the error repeats the credentials: %v", err)
			}
		})
	}
}

// replayCall is a call of the record/replay round trip; scrubbed when its
// answer holds something the recording replaces (e-mail addresses, secrets).
type replayCall struct {
	c        call
	scrubbed bool
}

func TestRecordReplay_roundTrip(t *testing.T) {
	up, upURL := startUpstream(t, Options{DataSet: DataSetDefault})
	file := filepath.Join(t.TempDir(), "recorded.json")
	p, base := startProxy(t, Options{Proxy: upURL, Record: file})
	key := map[string]string{"ApiKey": upstreamKey}
	calls := []replayCall{
		{call{method: "POST", path: "/api/v1/Token", body: `{"username":"admin","password":"OmbiAdmin1!","rememberMe":false}`}, true},
		{call{method: "GET", path: "/api/v1/Status"}, false},
		{call{method: "GET", path: "/api/v1/Search/movie/The%20Matrix", header: key}, false},
		{call{method: "GET", path: "/api/v1/Identity/Users", header: key}, true},
		{call{method: "GET", path: "/api/v1/Settings/ombi", header: key}, true},
		{call{method: "GET", path: "/api/v1/Request/movie/total", header: key}, false},
		{call{method: "POST", path: "/api/v1/Request/movie", header: key, body: `{"theMovieDbId":438631,"languageCode":"en"}`}, false},
		{call{method: "GET", path: "/api/v1/Request/movie/total", header: key}, false},
		{call{method: "GET", path: "/api/v1/Status?apikey=" + upstreamKey}, false},
		{call{method: "GET", path: "/api/v1/Status", header: map[string]string{"ApiKey": "wrong"}}, false},
		{call{method: "GET", path: "/api/v1/Settings/about", header: key}, true},
	}
	var answers []result
	for _, rc := range calls {
		answers = append(answers, send(t, base, rc.c))
	}
	if answers[5].status != 200 || bytes.Equal(answers[5].body, answers[7].body) {
		t.Fatalf("the movie request total did not change: %s then %s", answers[5].body, answers[7].body)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	recorded, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{upstreamKey, "OmbiAdmin1!", "eyJ"} {
		if bytes.Contains(recorded, []byte(secret)) {
			t.Errorf("the recording holds %q", secret)
		}
	}
	for _, addr := range emailPattern.FindAll(recorded, -1) {
		if !bytes.HasSuffix(addr, []byte("@example.invalid")) {
			t.Errorf("the recording holds the e-mail address %s", addr)
		}
	}
	for _, c := range up.Canaries() {
		if strings.Contains(c.Where, "users.json") || strings.Contains(c.Where, "settings.json#/ombi/") || strings.Contains(c.Where, "#/about/") {
			if bytes.Contains(recorded, []byte(c.Value)) {
				t.Errorf("the recording holds the canary %s (%s)", c.Name, c.Where)
			}
		}
	}

	// offline: the same calls, answered from the file
	r := newTestServer(t, Options{DataFile: file})
	offline := startServer(t, r)
	for i, rc := range calls {
		got, want := send(t, offline, rc.c), answers[i]
		if got.status != want.status || got.header.Get("Content-Type") != want.header.Get("Content-Type") {
			t.Errorf("%s %s: replay %d %s, recorded %d %s", rc.c.method, rc.c.path, got.status, got.header.Get("Content-Type"),
				want.status, want.header.Get("Content-Type"))
		}
		if rc.scrubbed {
			if err := sameButScrubbed(want.body, got.body); err != nil {
				t.Errorf("%s %s: %v", rc.c.method, rc.c.path, err)
			}
		} else if !bytes.Equal(got.body, want.body) {
			t.Errorf("%s %s: replay differs:\n%s", rc.c.method, rc.c.path, firstDiff(want.body, got.body))
		}
	}
	more := []struct {
		name   string
		c      call
		status int
		body   []byte // nil: not a recorded answer
	}{
		{"the last answer of a call repeats", calls[7].c, 200, answers[7].body},
		{"paths match ignoring case", call{method: "GET", path: "/API/v1/search/MOVIE/The%20Matrix"}, 200, answers[2].body},
		{"a JSON-equal body matches", call{method: "POST", path: "/api/v1/Request/movie", header: key,
			body: "{ \"languageCode\": \"en\",\n \"theMovieDbId\": 438631 }"}, 200, answers[6].body},
		{"another password logs in alike", call{method: "POST", path: "/api/v1/Token", body: `{"username":"admin","password":"x","rememberMe":false}`}, 200, nil},
		{"another body is the mock's own call", call{method: "POST", path: "/api/v1/Request/movie", header: key, body: `{"theMovieDbId":603}`}, 401, nil},
		{"another query is the mock's own call", call{method: "GET", path: "/api/v1/Settings/ombi?x=1", header: key}, 401, nil},
	}
	for _, tt := range more {
		t.Run(tt.name, func(t *testing.T) {
			got := send(t, offline, tt.c)
			if got.status != tt.status || (tt.body != nil && !bytes.Equal(got.body, tt.body)) {
				t.Errorf("%s %s = %d %s", tt.c.method, tt.c.path, got.status, truncate(string(got.body), 200))
			}
			if c := lastCall(t, r); got.status == 200 && c.Route == "" {
				t.Errorf("journal route is empty for %s %s", tt.c.method, tt.c.path)
			}
		})
	}
	// a reset starts the recordings over
	r.Reset()
	if got := send(t, offline, calls[5].c); !bytes.Equal(got.body, answers[5].body) {
		t.Errorf("after a reset: %s, want %s", got.body, answers[5].body)
	}
}

// sameButScrubbed compares two JSON answers: equal but for strings the
// replay holds a placeholder in.
func sameButScrubbed(want, got []byte) error {
	var a, b any
	if err := json.Unmarshal(want, &a); err != nil {
		return err
	}
	if err := json.Unmarshal(got, &b); err != nil {
		return err
	}
	placeholders := 0
	var walk func(a, b any, at string) error
	walk = func(a, b any, at string) error {
		switch x := a.(type) {
		case map[string]any:
			y, ok := b.(map[string]any)
			if !ok || len(x) != len(y) {
				return errors.New(at + ": objects differ")
			}
			for k := range x {
				if err := walk(x[k], y[k], at+"."+k); err != nil {
					return err
				}
			}
		case []any:
			y, ok := b.([]any)
			if !ok || len(x) != len(y) {
				return errors.New(at + ": arrays differ")
			}
			for i := range x {
				if err := walk(x[i], y[i], at+"["+itoa(i)+"]"); err != nil {
					return err
				}
			}
		case string:
			y, ok := b.(string)
			if ok && y != x && (strings.Contains(y, redactedValue) || strings.Contains(y, "@"+emailDomain)) {
				placeholders++
				return nil
			}
			if !ok || y != x {
				return errors.New(at + ": " + x + " became " + truncate(y, 80))
			}
		default:
			if !jsonEqual(x, b) {
				return errors.New(at + ": values differ")
			}
		}
		return nil
	}
	if err := walk(a, b, "$"); err != nil {
		return err
	}
	if placeholders == 0 {
		return errors.New("nothing was scrubbed")
	}
	return nil
}

// jsonEqual compares two decoded JSON scalars.
func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestRecord_writtenWhileRunning(t *testing.T) {
	_, upURL := startUpstream(t, Options{})
	file := filepath.Join(t.TempDir(), "recorded.json")
	_, base := startProxy(t, Options{Proxy: upURL, Record: file})
	waitFor := func(want ...string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			b, err := os.ReadFile(file)
			if err == nil && json.Valid(b) && allIn(string(b), want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("after 5s the recording is %s (%v), want %q in it", b, err, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitFor(`"recordings": []`)
	send(t, base, call{method: "GET", path: "/api/v1/Status"})
	waitFor(`"path": "/api/v1/Status"`)
	send(t, base, call{method: "GET", path: "/api/v1/Settings/customization", header: map[string]string{"ApiKey": upstreamKey}})
	waitFor(`"path": "/api/v1/Status"`, `"path": "/api/v1/Settings/customization"`, `Example Ombi`)
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(file), ".*.tmp")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// allIn reports whether every one of subs is in s.
func allIn(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

func TestRecordings_inDataDocuments(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want string // a problem; "" for a valid document
	}{
		{"valid", `{"recordings":[{"method":"GET","path":"/api/v1/Status","status":200,"headers":{"Content-Type":"application/json"},"response":"200"}]}`, ""},
		{"base64", `{"recordings":[{"method":"GET","path":"/images/a.png","status":200,"response":"","response_base64":"iVBORw0="}]}`, ""},
		{"no method", `{"recordings":[{"path":"/api/v1/Status","status":200,"response":""}]}`, "$.recordings[0].method: required"},
		{"relative path", `{"recordings":[{"method":"GET","path":"api/v1/Status","status":200,"response":""}]}`, "$.recordings[0].path"},
		{"query in the path", `{"recordings":[{"method":"GET","path":"/api/v1/Status?x=1","status":200,"response":""}]}`, "the query goes in query"},
		{"status", `{"recordings":[{"method":"GET","path":"/","status":99,"response":""}]}`, "$.recordings[0].status: 99 is out of range"},
		{"bad base64", `{"recordings":[{"method":"GET","path":"/","status":200,"response":"","response_base64":"***"}]}`, "$.recordings[0].response_base64"},
		{"framing header", `{"recordings":[{"method":"GET","path":"/","status":200,"headers":{"Content-Length":"3"},"response":""}]}`, `$.recordings[0].headers["Content-Length"]`},
		{"unknown field", `{"recordings":[{"method":"GET","path":"/","status":200,"response":"","answer":""}]}`, "$.recordings[0].answer: unknown field"},
		{"wrong type", `{"recordings":[{"method":"GET","path":"/","status":"200","response":""}]}`, "$.recordings[0].status: want an integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseState([]byte(tt.doc), "state", nil)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var se *StateError
			if !errors.As(err, &se) || !strings.Contains(strings.Join(se.Problems, "\n"), tt.want) {
				t.Fatalf("problems = %v, want %q", err, tt.want)
			}
		})
	}

	// the state round trip keeps them, POST /_mock/state replaces them
	doc := `{"recordings":[{"method":"GET","path":"/api/v1/Status","status":200,"headers":{"Content-Type":"application/json"},"response":"\"recorded <b>\""}]}`
	file := filepath.Join(t.TempDir(), "rec.json")
	if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	s := newDataServer(t, file)
	if res := do(t, s, call{method: "GET", path: "/api/v1/status"}); string(res.body) != `"recorded <b>"` {
		t.Errorf("replay = %s", res.body)
	}
	exported := stateOf(t, s)
	if !bytes.Contains(exported, []byte(`"response": "\"recorded <b>\""`)) {
		t.Errorf("the export lacks the recording:\n%s", exported)
	}
	again := filepath.Join(t.TempDir(), "again.json")
	if err := os.WriteFile(again, exported, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := stateOf(t, newDataServer(t, again)); !bytes.Equal(got, exported) {
		t.Errorf("reloaded export differs:\n%s", firstDiff(exported, got))
	}
	if err := s.ReplaceState([]byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if res := do(t, s, call{method: "GET", path: "/api/v1/Status"}); string(res.body) != "200" {
		t.Errorf("after replacing the state: %s", res.body)
	}
}

func TestScrubber(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"secret members", `{"apiKey":"k-123456","nested":{"Password":"p","list":["a@b.example"]},"userAccessToken":"t"}`,
			`{"apiKey":"REDACTED","nested":{"Password":"REDACTED","list":["user1@example.invalid"]},"userAccessToken":"REDACTED"}`},
		{"spacing and escapes kept", "{ \"name\" : \"a \\\"b\\\"\",\n  \"token\" :  \"x\\ty\" }", "{ \"name\" : \"a \\\"b\\\"\",\n  \"token\" :  \"REDACTED\" }"},
		{"only string values", `{"password":null,"tokens":["x"],"secret":{"a":"b"},"hasToken":true}`, `{"password":null,"tokens":["x"],"secret":{"a":"b"},"hasToken":true}`},
		{"e-mail addresses numbered", `["A@X.example","b@y.example","a@x.example","user9@example.invalid"]`,
			`["user1@example.invalid","user2@example.invalid","user1@example.invalid","user3@example.invalid"]`},
		{"JWT anywhere", `not JSON eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl end`, `not JSON REDACTED end`},
		{"member names stay", `{"webhookUrl":"https://hooks.example/x","email":"z@q.example"}`, `{"webhookUrl":"REDACTED","email":"user1@example.invalid"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(newScrubber().body([]byte(tt.in))); got != tt.want {
				t.Errorf("scrub\n%s\n= %s\nwant %s", tt.in, got, tt.want)
			}
		})
	}
	for q, want := range map[string]string{
		"":                                 "",
		"apikey=abc&x=1":                   "apikey=REDACTED&x=1",
		"x=%20y&ApiKey=abc&access_token=t": "x=%20y&ApiKey=REDACTED&access_token=REDACTED",
		"search=a%40b.example":             "search=user1%40example.invalid",
	} {
		if got := newScrubber().query(q); got != want {
			t.Errorf("query(%q) = %q, want %q", q, got, want)
		}
	}
	// a credential the calls carried goes wherever it stands in a string, never in a number
	sc := newScrubber()
	req := httptest.NewRequest("POST", "/api/v1/Token?apikey=123456", strings.NewReader(""))
	req.Header.Set("Authorization", "Bearer opaque-token-1")
	sc.learn(req, []byte(`{"userName":"x","password":"hunter22"}`))
	in := `{"id":1234567,"note":"key 123456, token opaque-token-1, pw hunter22","n":[123456]}`
	if got, want := string(sc.body([]byte(in))), `{"id":1234567,"note":"key REDACTED, token REDACTED, pw REDACTED","n":[123456]}`; got != want {
		t.Errorf("scrub with learnt credentials = %s, want %s", got, want)
	}
	if got := redactQuery("apikey=abc&search=a%40b.example"); got != "apikey=REDACTED&search=a%40b.example" {
		t.Errorf("redactQuery = %q", got)
	}
}

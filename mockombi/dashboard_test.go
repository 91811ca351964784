package mockombi

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestDashboard_servedWithAssets(t *testing.T) {
	s := newTestServer(t, Options{BasePath: "/ombi"})
	for _, tt := range []struct {
		path, ctype, want string
	}{
		{"/_mock/", "text/html", `<script src="dashboard.js" defer></script>`},
		{"/ombi/_mock/", "text/html", `id="fault-form"`},
		{"/_mock/dashboard.js", "text/javascript", `api("POST", "faults"`},
		{"/_mock/dashboard.css", "text/css", `#journal-section`},
	} {
		res := do(t, s, call{method: "GET", path: tt.path})
		if res.status != 200 || !strings.HasPrefix(res.header.Get("Content-Type"), tt.ctype) || !strings.Contains(string(res.body), tt.want) {
			t.Errorf("GET %s = %d %s", tt.path, res.status, res.header.Get("Content-Type"))
		}
		if csp := res.header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "connect-src 'self'") {
			t.Errorf("GET %s CSP = %q", tt.path, csp)
		}
	}
	for _, p := range []string{"/_mock", "/ombi/_mock"} {
		if res := do(t, s, call{method: "GET", path: p}); res.status != 301 || res.header.Get("Location") != p+"/" {
			t.Errorf("GET %s = %d Location %q", p, res.status, res.header.Get("Location"))
		}
	}
	if res := do(t, s, call{method: "POST", path: "/_mock/"}); res.status != 405 {
		t.Errorf("POST /_mock/ = %d", res.status)
	}
	if len(s.Journal()) != 0 {
		t.Error("dashboard requests were journaled")
	}
	// the page loads nothing from elsewhere
	for _, name := range []string{"dashboard/index.html", "dashboard/dashboard.js", "dashboard/dashboard.css"} {
		b, _ := dashboardFiles.ReadFile(name)
		if strings.Contains(string(b), "http://") || strings.Contains(string(b), "https://") || strings.Contains(string(b), "innerHTML") {
			t.Errorf("%s refers to an external asset or uses innerHTML", name)
		}
	}
}

// TestDashboard_inChromium loads the dashboard in headless Chromium and uses
// it as a developer would: the page shows a call made meanwhile, a fault is
// added from the form and removed from the table, a bad fault shows the
// API's message, a quirk is switched, and reset clears the journal. With
// MOCKOMBI_DASHBOARD_SCREENSHOT=<file.png> it also writes a screenshot.
func TestDashboard_inChromium(t *testing.T) {
	s, err := New(Options{JournalResponses: true})
	if err != nil {
		t.Fatal(err)
	}
	base := startServer(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	b := startBrowser(t)
	p := b.newPage(ctx, 1400, 1000)
	p.navigate(ctx, base+"/_mock/")
	wait := func(what, expr string) {
		t.Helper()
		wctx, wcancel := context.WithTimeout(ctx, 15*time.Second)
		defer wcancel()
		p.waitFor(wctx, what, expr)
	}
	get := func(path string, header ...string) int {
		t.Helper()
		req, _ := http.NewRequest("GET", base+path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}

	wait("the page to load", `document.body.dataset.state === "ready"`)
	wait("the credentials", `document.querySelector("#api-key").textContent === "`+DefaultAPIKey+`" &&
		!!document.querySelector('#users tr[data-user="admin"]')`)
	wait("the quirks", `document.querySelectorAll("#quirks input[data-quirk]").length === `+strconv.Itoa(len(s.Quirks())))

	// a call made meanwhile shows up in the journal, with its bodies on click
	if st := get("/api/v1/Search/movie/matrix", "ApiKey", DefaultAPIKey); st != 200 {
		t.Fatalf("search = %d", st)
	}
	wait("the search call in the journal", `!!document.querySelector('tr.call[data-path="/api/v1/Search/movie/matrix"][data-status="200"]')`)
	p.run(ctx, `document.querySelector('tr.call[data-path="/api/v1/Search/movie/matrix"]').click()`)
	wait("the expanded response body", `[...document.querySelectorAll("tr.detail pre")].some(e => e.textContent.includes('"title": "The Matrix"'))`)

	// add a fault from the form
	p.run(ctx, `(() => {
		const f = document.querySelector("#fault-form");
		f.elements.method.value = "GET";
		f.elements.path.value = "/api/v1/Request/count";
		f.elements.status.value = "429";
		f.elements.times.value = "1";
		f.elements.headers.value = "Retry-After: 30";
		f.querySelector("button[type=submit]").click();
	})()`)
	wait("the new fault in the table", `!!document.querySelector('tr.fault[data-path="/api/v1/Request/count"]')`)
	faults := s.Faults()
	if len(faults) != 1 || faults[0].Status != 429 || faults[0].Method != "GET" || faults[0].Times != 1 || faults[0].Headers["Retry-After"] != "30" {
		t.Fatalf("faults after the form = %+v", faults)
	}
	if st := get("/api/v1/Request/count"); st != 429 {
		t.Fatalf("the fault did not fire: %d", st)
	}
	wait("the fired fault in the journal", `!!document.querySelector('tr.call[data-fault="`+faults[0].Name+`"][data-status="429"]')`)
	wait("the spent fault to leave the table", `!document.querySelector('tr.fault[data-path="/api/v1/Request/count"]')`)

	// add another and delete it from the table
	p.run(ctx, `(() => {
		const f = document.querySelector("#fault-form");
		f.reset();
		f.elements.path.value = "/api/v1/Status";
		f.elements.kind.value = "html";
		f.querySelector("button[type=submit]").click();
	})()`)
	wait("the html fault in the table", `!!document.querySelector('tr.fault[data-path="/api/v1/Status"]')`)
	if got := s.Faults(); len(got) != 1 || got[0].Kind != FaultHTML {
		t.Fatalf("faults = %+v", got)
	}
	p.run(ctx, `document.querySelector('tr.fault[data-path="/api/v1/Status"] button.delete-fault').click()`)
	wait("the deleted fault to leave the table", `!document.querySelector('tr.fault') && !document.querySelector("#faults-empty").hidden`)
	if got := s.Faults(); len(got) != 0 {
		t.Fatalf("faults after delete = %+v", got)
	}

	// a refused fault shows the API's message and adds nothing
	p.run(ctx, `(() => {
		const f = document.querySelector("#fault-form");
		f.reset();
		f.elements.path.value = "/api/v1/Status";
		f.elements.status.value = "101";
		f.querySelector("button[type=submit]").click();
	})()`)
	wait("the validation message", `document.querySelector("#fault-error").textContent.includes("status: 101 is out of range")`)
	if got := s.Faults(); len(got) != 0 {
		t.Fatalf("a refused fault was added: %+v", got)
	}

	// quirks switch from their checkbox
	p.run(ctx, `document.querySelector('input[data-quirk="`+QuirkVoteRead500+`"]').click()`)
	deadline := time.Now().Add(10 * time.Second)
	for !s.quirk(QuirkVoteRead500) {
		if time.Now().After(deadline) {
			t.Fatal("the quirk checkbox did not switch the quirk on")
		}
		time.Sleep(50 * time.Millisecond)
	}

	// each quirk shows its explanation
	wait("the quirks' explanations", `document.querySelector('li[data-quirk="`+QuirkTVSearchLINQ+`"] .why').textContent.includes("EF Core")`)

	// add a stub from the form: it answers instead of the route, the
	// journal names it, and the route hits count the calls
	p.run(ctx, `(() => {
		const f = document.querySelector("#stub-form");
		f.elements.method.value = "GET";
		f.elements.path.value = "/api/v1/Request/movie/info/{requestId}";
		f.elements.status.value = "202";
		f.elements.headers.value = "X-Stubbed: yes";
		f.elements.body.value = '{"stubbed":true}';
		f.querySelector("button[type=submit]").click();
	})()`)
	wait("the new stub in the table", `!!document.querySelector('tr.stub[data-path="/api/v1/Request/movie/info/{requestId}"]')`)
	stubs := s.Stubs()
	if len(stubs) != 1 || stubs[0].Status != 202 || stubs[0].Headers["X-Stubbed"] != "yes" || stubs[0].Body != `{"stubbed":true}` {
		t.Fatalf("stubs after the form = %+v", stubs)
	}
	for _, id := range []string{"1", "2"} {
		if st := get("/api/v1/Request/movie/info/"+id, "ApiKey", DefaultAPIKey); st != 202 {
			t.Fatalf("the stub did not answer: %d", st)
		}
	}
	if st := get("/api/v1/NoSuchRoute", "ApiKey", DefaultAPIKey); st != 404 {
		t.Fatalf("unknown route = %d", st)
	}
	wait("the stubbed calls in the journal", `document.querySelectorAll('tr.call[data-stub="`+stubs[0].Name+`"][data-status="202"]').length === 2`)
	wait("the stub's hits", `!!document.querySelector('tr.stub[data-hits="2"]')`)
	wait("the route's hit count", `!!document.querySelector('tr.route[data-route="GET /api/v1/Request/movie/info/{requestId}"][data-hits="2"]') &&
		!!document.querySelector('tr.route[data-route="GET /api/v1/Search/movie/{searchTerm}"][data-hits="1"]')`)
	wait("the unmatched call", `!!document.querySelector('tr.unmatched-call[data-path="/api/v1/NoSuchRoute"]') &&
		!document.querySelector('tr.unmatched-call[data-path="/api/v1/Search/movie/matrix"]')`)

	// a refused stub shows the field at fault and adds nothing
	p.run(ctx, `(() => {
		const f = document.querySelector("#stub-form");
		f.reset();
		f.elements.path.value = "/api/v1/Status";
		f.elements.status.value = "99";
		f.querySelector("button[type=submit]").click();
	})()`)
	wait("the stub's validation message", `document.querySelector("#stub-error").textContent.includes("status: 99 is out of range")`)
	if got := s.Stubs(); len(got) != 1 {
		t.Fatalf("stubs after a refused one = %+v", got)
	}

	if path := os.Getenv("MOCKOMBI_DASHBOARD_SCREENSHOT"); path != "" {
		dashboardScreenshot(ctx, t, s, p, base, path)
	}

	// reset (confirmed) empties the journal and switches the quirk back off
	p.run(ctx, `window.confirm = () => true; document.querySelector("#reset").click()`)
	wait("the emptied journal", `!document.querySelector("tr.call") && !document.querySelector("#journal-empty").hidden`)
	if s.quirk(QuirkVoteRead500) || len(s.Journal()) != 0 {
		t.Fatal("reset from the dashboard did not reset the mock")
	}
}

// dashboardScreenshot fills the page with a realistic session and writes a
// PNG of it to path (docs/img/mockombi-dashboard.png).
func dashboardScreenshot(ctx context.Context, t *testing.T, s *Server, p *tab, base, path string) {
	t.Helper()
	do := func(method, path, body string, header ...string) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return // the reset fault answers nothing
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	_ = s.SetQuirk(QuirkTVSearchLINQ, false)
	s.ClearJournal()
	if _, err := s.AddFault(Fault{Method: "GET", Path: "/api/v2/Requests/**", Status: 503, Headers: map[string]string{"Retry-After": "30"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddFault(Fault{Method: "POST", Path: "/api/v1/Request/movie", Kind: FaultBusinessError, Times: 1,
		Body: `{"errorCode":"MovieRequestQuotaExceeded","errorMessage":"You have exceeded your Movie request quota!"}`}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddFault(Fault{Path: "/api/v1/Search/tv/*", DelayMS: 1500}); err != nil {
		t.Fatal(err)
	}
	key := []string{"ApiKey", DefaultAPIKey, "UserName", "user"}
	do("POST", "/api/v1/Token", `{"username":"user","password":"OmbiUser1!","rememberMe":false}`)
	do("GET", "/api/v1/Status", "")
	do("GET", "/api/v1/Search/movie/matrix", "", key...)
	do("GET", "/api/v2/Search/movie/603", "", key...)
	do("POST", "/api/v1/Request/movie", `{"theMovieDbId":105}`, key...)
	do("POST", "/api/v1/Request/movie", `{"theMovieDbId":105}`, key...)
	do("GET", "/api/v2/Requests/movie/10/0/requestedDate/desc", "", key...)
	do("GET", "/api/v1/Request/movie", "", "Authorization", "Bearer expired")
	do("GET", "/api/v1/Issues/categories", "", key...)
	do("GET", "/api/v1/Request/movie/info/3", "", key...) // the stub the test added
	do("GET", "/api/v1/Requests/movie", "", key...)       // no such route
	wctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	p.waitFor(wctx, "the session in the journal", `document.querySelectorAll("tr.call").length === 11 && document.querySelectorAll("tr.fault").length === 2 &&
		!document.querySelector('input[data-quirk="`+QuirkTVSearchLINQ+`"]').checked`)
	p.run(ctx, `document.querySelector('tr.call[data-fault^="business_error"]').click()`)
	p.waitFor(wctx, "the expanded call", `!!document.querySelector("tr.detail")`)
	p.run(ctx, `say("", false); document.querySelector("#fault-error").textContent = ""; document.querySelector("#fault-form").reset();
		document.querySelector("#stub-error").textContent = ""; document.querySelector("#stub-form").reset()`)
	height := 1300
	for range 3 { // the journal's height follows the viewport's: settle
		if err := p.b.call(ctx, p.session, "Emulation.setDeviceMetricsOverride",
			map[string]any{"width": 1400, "height": height, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
			t.Fatal(err)
		}
		if err := p.eval(ctx, `document.documentElement.scrollHeight`, &height); err != nil {
			t.Fatal(err)
		}
		height = min(height+24, 3000)
	}
	time.Sleep(300 * time.Millisecond)
	png, err := p.screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", path, len(png))
	s.ClearFaults()
}

// TestDashboard_ownRequestsNotJournaled: the browser's automatic
// /favicon.ico and the dashboard's icon are answered by the mock and kept
// out of the journal; a frontend served at the root keeps its own icon, and
// every API path (and anything under a base path) is still an upstream call.
func TestDashboard_ownRequestsNotJournaled(t *testing.T) {
	static := t.TempDir()
	for name, body := range map[string]string{"index.html": "<!doctype html><title>ui</title>", "favicon.ico": "frontend icon"} {
		if err := os.WriteFile(filepath.Join(static, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name          string
		opts          Options
		method, path  string
		wantStatus    int
		wantType      string // Content-Type prefix; "" to skip
		wantJournaled bool
	}{
		{"browser icon", Options{}, "GET", "/favicon.ico", 200, "image/", false},
		{"browser icon, HEAD", Options{}, "HEAD", "/favicon.ico", 200, "image/", false},
		{"browser icon with a base path", Options{BasePath: "/ombi"}, "GET", "/favicon.ico", 200, "image/", false},
		{"browser icon beside a frontend under a base path", Options{BasePath: "/ombi", StaticDir: static}, "GET", "/favicon.ico", 200, "image/", false},
		{"dashboard icon", Options{}, "GET", "/_mock/favicon.svg", 200, "image/svg+xml", false},
		{"dashboard icon under a base path", Options{BasePath: "/ombi"}, "GET", "/ombi/_mock/favicon.svg", 200, "image/svg+xml", false},
		{"frontend's own icon", Options{StaticDir: static}, "GET", "/favicon.ico", 200, "", true},
		{"icon path under the base path", Options{BasePath: "/ombi"}, "GET", "/ombi/favicon.ico", 404, "", true},
		{"other method on the icon path", Options{}, "POST", "/favicon.ico", 404, "", true},
		{"API path", Options{}, "GET", "/api/v1/favicon.ico", 404, "", true},
		{"API call", Options{}, "GET", "/api/v1/Status", 200, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, tt.opts)
			res := do(t, s, call{method: tt.method, path: tt.path})
			if res.status != tt.wantStatus || !strings.HasPrefix(res.header.Get("Content-Type"), tt.wantType) {
				t.Errorf("%s %s = %d %q, want %d %q", tt.method, tt.path, res.status, res.header.Get("Content-Type"), tt.wantStatus, tt.wantType)
			}
			if j := s.Journal(); (len(j) == 1) != tt.wantJournaled || len(j) > 1 {
				t.Errorf("%s %s: journal holds %d calls, want journaled %v", tt.method, tt.path, len(j), tt.wantJournaled)
			}
		})
	}
	s := newTestServer(t, Options{})
	if page := do(t, s, call{method: "GET", path: "/_mock/"}); !strings.Contains(string(page.body), `<link rel="icon" href="favicon.svg"`) {
		t.Error("the dashboard page does not name its own icon: browsers would ask for /favicon.ico")
	}
}

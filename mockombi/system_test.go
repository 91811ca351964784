package mockombi

import (
	"net/http"
	"strings"
	"testing"
)

func TestSystemAuthLevels(t *testing.T) {
	ok := http.StatusOK
	cases := []authCase{
		{"GET", "/api/v1/Status", "", ok, ok, ok, ok},
		{"GET", "/api/v1/Status/info", "", ok, ok, ok, ok},
		{"GET", "/api/v1/Status/Wizard", "", ok, ok, ok, ok},
		{"GET", "/api/v1/Update", "", ok, ok, ok, ok},
		{"GET", "/api/v1/Stats?from=2026-01-01T00:00:00Z&to=2026-12-31T00:00:00Z", "", 401, 403, 403, ok},
		{"GET", "/api/v1/Job/update", "", 401, 403, 403, ok},
		{"GET", "/api/v2/System/news", "", 401, 403, 403, ok},
		{"GET", "/api/v2/System/logs", "", 401, 403, 403, ok},
		{"GET", "/api/v2/System/logs/log20261129.txt", "", 401, 403, 403, ok},
		{"GET", "/api/v2/System/logs/download/log20261129.txt", "", 401, 403, 403, ok},
		{"POST", "/api/v1/Logging", `{"level":4,"description":"boom"}`, 401, ok, ok, ok},
		{"GET", "/health", "", ok, ok, ok, ok},
	}
	for _, job := range jobNames {
		cases = append(cases, authCase{"POST", "/api/v1/Job/" + job, "", 401, 403, 403, ok})
	}
	checkAuthLevels(t, cases)
}

func TestSystemStatusAndJobs(t *testing.T) {
	s := newTestServer(t, Options{})
	bodies := []struct {
		method, path, want string
	}{
		{"GET", "/api/v1/Status", `200`},
		{"GET", "/api/v1/Status/info", `"` + ombiVersion + `"`},
		{"GET", "/api/v1/Status/Wizard", `{"result":true}`},
		{"GET", "/api/v1/Job/update", `false`},
		{"POST", "/api/v1/Job/arrAvailability", `true`},
		{"POST", "/api/v1/Job/PLEXCONTENTCACHER", `true`},
	}
	for _, b := range bodies {
		res := do(t, s, call{method: b.method, path: b.path, header: actingAs("api")})
		if got := strings.TrimSpace(string(res.body)); res.status != 200 || got != b.want {
			t.Errorf("%s %s = %d %s, want %s", b.method, b.path, res.status, got, b.want)
		}
	}
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Job/format-disk", header: actingAs("api")}), http.StatusNotFound)
	s.store.Read(func(st *store) {
		if st.System.JobRuns["arrAvailability"] != 1 || st.System.JobRuns["plexcontentcacher"] != 1 {
			t.Errorf("job runs = %v", st.System.JobRuns)
		}
	})
}

func TestSystemStats(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		query                   string
		movies, tv, completedTV float64
		movieUser, tvUser       bool
	}{
		{"?from=2026-10-01T00:00:00Z&to=2026-10-31T00:00:00Z", 6, 3, 1, true, true},
		{"?from=2026-11-01&to=2026-11-30", 4, 3, 0, true, true},
		{"?from=2026-01-01&to=2026-01-31", 0, 0, 0, false, false},
		{"", 10, 6, 1, true, true},
	}
	for _, tc := range tests {
		var stats map[string]any
		res := do(t, s, call{method: "GET", path: "/api/v1/Stats" + tc.query, header: actingAs("admin")})
		mustStatus(t, res, http.StatusOK)
		res.json(t, &stats)
		if stats["totalMovieRequests"] != tc.movies || stats["totalTvRequests"] != tc.tv ||
			stats["completedRequestsMovies"] != tc.movies || stats["completedRequestsTv"] != tc.completedTV ||
			stats["totalRequests"] != tc.movies+tc.tv || stats["totalIssues"] != 0.0 ||
			(stats["mostRequestedUserMovie"] != nil) != tc.movieUser || (stats["mostRequestedUserTv"] != nil) != tc.tvUser {
			t.Errorf("stats%s = %v", tc.query, stats)
		}
	}
	res := do(t, s, call{method: "GET", path: "/api/v1/Stats?from=2026-10-01&to=2026-10-31", header: actingAs("admin")})
	var stats map[string]any
	res.json(t, &stats)
	user, _ := stats["mostRequestedUserMovie"].(map[string]any)
	if user == nil || user["userAccessToken"] == nil || !strings.HasPrefix(user["userAccessToken"].(string), "CANARY-") {
		t.Errorf("most requesting user lacks its access token canary: %v", user)
	}

	if err := s.SetQuirk(QuirkStatsNullReference, true); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"", "?from=2026-01-01", "?to=2026-12-01", "?from=2026-01-01&to=2026-01-31"} {
		mustStatus(t, do(t, s, call{method: "GET", path: "/api/v1/Stats" + q, header: actingAs("admin")}), http.StatusInternalServerError)
	}
	mustStatus(t, do(t, s, call{method: "GET", path: "/api/v1/Stats?from=2026-01-01&to=2026-12-31", header: actingAs("admin")}), http.StatusOK)
}

func TestSystemLogs(t *testing.T) {
	s := newTestServer(t, Options{})
	var names []string
	do(t, s, call{method: "GET", path: "/api/v2/System/logs", header: actingAs("admin")}).json(t, &names)
	if strings.Join(names, ",") != "log20261129.txt,log20261128.txt,log20261127.txt" {
		t.Fatalf("logs = %v", names)
	}
	if err := s.SetQuirk(QuirkLogsStringArray, false); err != nil {
		t.Fatal(err)
	}
	var legacy []map[string]any
	do(t, s, call{method: "GET", path: "/api/v2/System/logs", header: actingAs("admin")}).json(t, &legacy)
	if len(legacy) != 3 || legacy[0]["name"] != "log20261129.txt" || legacy[0]["size"].(float64) <= 0 {
		t.Fatalf("legacy logs = %v", legacy)
	}

	res := do(t, s, call{method: "GET", path: "/api/v2/System/logs/log20261129.txt", header: actingAs("admin")})
	mustStatus(t, res, http.StatusOK)
	if !strings.HasPrefix(res.header.Get("Content-Type"), "text/plain") {
		t.Errorf("log content type %q", res.header.Get("Content-Type"))
	}
	text := string(res.body)
	for _, c := range []string{"log_connection_string", "log_plex_token"} {
		if !strings.Contains(text, canaryValueOf(t, s, c)) {
			t.Errorf("log text lacks canary %s", c)
		}
	}
	if n := strings.Count(text, "\n"); n != 400 {
		t.Errorf("default latest log has %d lines, want 400", n)
	}
	mustStatus(t, do(t, s, call{method: "GET", path: "/api/v2/System/logs/log19990101.txt", header: actingAs("admin")}), http.StatusNotFound)
	mustStatus(t, do(t, s, call{method: "GET", path: "/api/v2/System/logs/..%2Fappsettings.json", header: actingAs("admin")}), http.StatusNotFound)
	dl := do(t, s, call{method: "GET", path: "/api/v2/System/logs/download/log20261128.txt", header: actingAs("admin")})
	if dl.header.Get("Content-Type") != "application/octet-stream" || !strings.Contains(string(dl.body), canaryValueOf(t, s, "log_sonarr_apikey")) {
		t.Errorf("download = %v %s", dl.header, truncate(string(dl.body), 100))
	}
}

func TestSystemLogsLarge(t *testing.T) {
	s := newTestServer(t, Options{DataSet: DataSetLarge})
	res := do(t, s, call{method: "GET", path: "/api/v2/System/logs/log20261129.txt", header: actingAs("admin")})
	if n := strings.Count(string(res.body), "\n"); n != 100000 {
		t.Fatalf("large latest log has %d lines, want 100000", n)
	}
}

func TestSystemNews(t *testing.T) {
	s := newTestServer(t, Options{})
	var html string
	do(t, s, call{method: "GET", path: "/api/v2/System/news", header: actingAs("admin")}).json(t, &html)
	if !strings.HasPrefix(html, "<h1") {
		t.Fatalf("news string = %q", html)
	}
	if err := s.SetQuirk(QuirkNewsHTML, true); err != nil {
		t.Fatal(err)
	}
	res := do(t, s, call{method: "GET", path: "/api/v2/System/news", header: actingAs("admin")})
	if !strings.HasPrefix(res.header.Get("Content-Type"), "text/html") || !strings.HasPrefix(string(res.body), "<h1") {
		t.Fatalf("news_html = %s %q", res.header.Get("Content-Type"), truncate(string(res.body), 50))
	}
}

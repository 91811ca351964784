package mockombi

import (
	"strings"
	"testing"
)

// TestRouteHits: each route counts the calls it matched (a stubbed call
// counts for its route), the control API lists them, and clearing the
// journal sets them back to 0.
func TestRouteHits(t *testing.T) {
	s := newTestServer(t, Options{})
	key := apiKey()
	if _, err := s.AddStub(Stub{Method: "GET", Path: "/api/v1/Request/count", Status: 200, Body: "{}"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []call{
		{method: "GET", path: "/api/v1/Status"},
		{method: "GET", path: "/api/v1/status/"},
		{method: "HEAD", path: "/api/v1/Status"},
		{method: "GET", path: "/api/v1/Search/movie/matrix", header: key},
		{method: "GET", path: "/api/v1/Request/count"},
		{method: "GET", path: "/api/v1/NoSuchRoute", header: key},
	} {
		do(t, s, c)
	}
	want := map[string]int64{"GET /api/v1/Status": 3, "GET /api/v1/Search/movie/{searchTerm}": 1, "GET /api/v1/Request/count": 1}
	var list []RouteHits
	getJSON(t, s, call{method: "GET", path: "/_mock/routes"}, &list)
	if len(list) < 100 {
		t.Fatalf("only %d routes listed", len(list))
	}
	for _, r := range list {
		if got := r.Hits; got != want[r.Method+" "+r.Path] {
			t.Errorf("%s %s: %d hits, want %d", r.Method, r.Path, got, want[r.Method+" "+r.Path])
		}
	}
	s.ClearJournal()
	for _, r := range s.RouteHits() {
		if r.Hits != 0 {
			t.Errorf("after ClearJournal %s %s has %d hits", r.Method, r.Path, r.Hits)
		}
	}
}

// TestUnmatched: calls that no route (nor stub, recording or file)
// answered are journaled as unmatched and listed apart; matched calls,
// answered or refused, are not.
func TestUnmatched(t *testing.T) {
	s := newTestServer(t, Options{BasePath: "/ombi"})
	key := apiKey()
	tests := []struct {
		c         call
		status    int
		unmatched bool
	}{
		{call{method: "GET", path: "/ombi/api/v1/Status"}, 200, false},
		{call{method: "GET", path: "/ombi/api/v1/NoSuchRoute", header: key}, 404, true},
		{call{method: "DELETE", path: "/ombi/api/v1/Status", header: key}, 405, true},
		{call{method: "GET", path: "/ombi/api/v1/Request/movie", header: map[string]string{"ApiKey": "wrong"}}, 401, false},
		{call{method: "GET", path: "/elsewhere/api/v1/Status"}, 404, true},
		{call{method: "GET", path: "/ombi/some/page"}, 404, true},
	}
	for _, tt := range tests {
		if res := do(t, s, tt.c); res.status != tt.status {
			t.Fatalf("%s %s = %d, want %d", tt.c.method, tt.c.path, res.status, tt.status)
		}
	}
	var want []string
	for i, c := range s.Journal() {
		if c.Unmatched != tests[i].unmatched {
			t.Errorf("%s %s: unmatched %v, want %v", c.Method, c.Path, c.Unmatched, tests[i].unmatched)
		}
		if tests[i].unmatched {
			want = append(want, c.Method+" "+c.Path)
		}
	}
	var list []Call
	getJSON(t, s, call{method: "GET", path: "/_mock/unmatched"}, &list)
	var got []string
	for _, c := range list {
		got = append(got, c.Method+" "+c.Path)
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("GET /_mock/unmatched = %v, want %v", got, want)
	}
	s.ClearJournal()
	if res := do(t, s, call{method: "GET", path: "/_mock/unmatched"}); string(res.body) != "[]" {
		t.Errorf("unmatched after a clear = %s", res.body)
	}
}

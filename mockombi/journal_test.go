package mockombi

import (
	"encoding/json"
	"testing"
)

func TestJournal_recordsCallsInOrder(t *testing.T) {
	s := newTestServer(t, Options{BasePath: "/ombi"})
	h := asUser(t, s) // call 1
	h["X-Trace"] = "abc"
	calls := []call{
		{method: "GET", path: "/ombi/api/v1/Search/movie/The%20Matrix?lang=en", header: h},
		{method: "POST", path: "/ombi/api/v1/Request/Movie/", header: h, body: `{"theMovieDbId":105}`},
		{method: "POST", path: "/ombi/api/v1/Logging", header: h, body: `not json`},
		{method: "GET", path: "/ombi/_mock/journal"}, // control: never journaled
		{method: "GET", path: "/elsewhere/api/v1/Status"},
	}
	for _, c := range calls {
		do(t, s, c)
	}
	j := s.Journal()
	tests := []struct {
		i      int
		method string
		path   string
		query  string
		route  string
		status int
		body   string
	}{
		{0, "POST", "/ombi/api/v1/Token", "", RouteToken, 200, ""},
		{1, "GET", "/ombi/api/v1/Search/movie/The%20Matrix", "lang=en", RouteSearchMovie, 200, ""},
		{2, "POST", "/ombi/api/v1/Request/Movie/", "", RouteRequestMovie, 200, `{"theMovieDbId":105}`},
		{3, "POST", "/ombi/api/v1/Logging", "", "POST /api/v1/Logging", 400, `"not json"`},
		{4, "GET", "/elsewhere/api/v1/Status", "", "", 404, ""},
	}
	if len(j) != len(tests) {
		t.Fatalf("journal has %d calls, want %d: %+v", len(j), len(tests), j)
	}
	for _, tt := range tests {
		c := j[tt.i]
		if c.Seq != tt.i+1 || c.Method != tt.method || c.Path != tt.path || c.Query != tt.query || c.Route != tt.route || c.Status != tt.status {
			t.Errorf("call %d = %+v, want %+v", tt.i, c, tt)
		}
		if tt.body != "" && string(c.Body) != tt.body {
			t.Errorf("call %d body = %s, want %s", tt.i, c.Body, tt.body)
		}
	}
	if j[1].Header.Get("X-Trace") != "abc" || j[1].Header.Get("Authorization") == "" {
		t.Errorf("headers not recorded: %v", j[1].Header)
	}
	if _, err := json.Marshal(j); err != nil {
		t.Errorf("journal does not marshal: %v", err)
	}
}

func TestJournal_handsOutCopies(t *testing.T) {
	s := newTestServer(t, Options{})
	do(t, s, call{method: "POST", path: "/api/v1/Token/requirePassword", header: map[string]string{"X-A": "1"}, body: `{"username":"x"}`})
	j := s.Journal()
	j[0].Header.Set("X-A", "changed")
	j[0].Body[2] = 'Z'
	j[0].Path = "/changed"
	again := s.Journal()
	if again[0].Header.Get("X-A") != "1" || string(again[0].Body) != `{"username":"x"}` || again[0].Path != "/api/v1/Token/requirePassword" {
		t.Fatalf("journal changed through a copy: %+v", again[0])
	}
}

func TestJournal_clear(t *testing.T) {
	s := newTestServer(t, Options{})
	do(t, s, call{method: "GET", path: "/api/v1/Status"})
	s.ClearJournal()
	do(t, s, call{method: "GET", path: "/api/v1/Status"})
	j := s.Journal()
	if len(j) != 1 || j[0].Seq != 1 {
		t.Fatalf("journal after clear = %+v", j)
	}
}

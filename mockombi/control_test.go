package mockombi

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestControl_API(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	do(t, s, call{method: "GET", path: "/api/v1/Status"})
	tests := []struct {
		name       string
		c          call
		wantStatus int
		check      func(t *testing.T, res result)
	}{
		{"journal lists upstream calls only", call{method: "GET", path: "/_mock/journal"}, 200, func(t *testing.T, res result) {
			var j []Call
			res.json(t, &j)
			if len(j) != 2 || j[1].Path != "/api/v1/Status" {
				t.Errorf("journal = %+v", j)
			}
		}},
		{"credentials", call{method: "GET", path: "/_mock/credentials"}, 200, func(t *testing.T, res result) {
			want := `{"api_key":"` + DefaultAPIKey + `","users":[{"username":"admin","password":"OmbiAdmin1!","role":"admin"},{"username":"power","password":"OmbiPower1!","role":"power_user"},{"username":"user","password":"OmbiUser1!","role":"user"}]}`
			if got := compactJSON(t, res.body); got != want {
				t.Errorf("credentials = %s", got)
			}
		}},
		{"canaries", call{method: "GET", path: "/_mock/canaries"}, 200, func(t *testing.T, res result) {
			var cs []Canary
			res.json(t, &cs)
			seen := map[string]bool{}
			for _, c := range cs {
				prefix := "CANARY-" + strings.TrimSuffix(c.Name, ".normalized") + "-"
				if !strings.HasPrefix(strings.ToUpper(c.Value), strings.ToUpper(prefix)) || c.Where == "" || seen[c.Value] {
					t.Errorf("canary %+v malformed or repeated", c)
				}
				seen[c.Value] = true
			}
			if len(cs) < 10 {
				t.Errorf("only %d canaries", len(cs))
			}
		}},
		{"quirks state", call{method: "GET", path: "/_mock/quirks"}, 200, func(t *testing.T, res result) {
			var list []QuirkState
			res.json(t, &list)
			q := map[string]bool{}
			for _, qs := range list {
				q[qs.Name] = qs.Enabled
				if qs.Enabled != qs.Default || !strings.HasSuffix(qs.Explanation, ".") || len(qs.Explanation) < 40 {
					t.Errorf("quirk %+v: want its default state and a one-sentence explanation", qs)
				}
			}
			if len(q) != 11 || !q[QuirkTVV1Engine] || !q[QuirkLogsStringArray] || !q[QuirkV1TVTVDBInMovieDBID] || !q[QuirkTVSearchLINQ] || !q[QuirkPlexServersWrapper] || q[QuirkVoteRead500] {
				t.Errorf("quirks = %v", q)
			}
		}},
		{"set quirk", call{method: "POST", path: "/_mock/quirks", body: `{"name":"vote_read_500","enabled":true}`}, 204, nil},
		{"unknown quirk", call{method: "POST", path: "/_mock/quirks", body: `{"name":"nope","enabled":true}`}, 400, nil},
		{"quirk without enabled", call{method: "POST", path: "/_mock/quirks", body: `{"name":"tv_search_linq"}`}, 400, nil},
		{"inject fault", call{method: "POST", path: "/_mock/faults", body: `{"method":"GET","path":"/api/v1/Request/count","status":429,"headers":{"Retry-After":"7"},"times":1}`}, 201, nil},
		{"bad fault", call{method: "POST", path: "/_mock/faults", body: `{"path":"/x","kind":"boom"}`}, 400, nil},
		{"fault fires once", call{method: "GET", path: "/api/v1/Request/count"}, 429, func(t *testing.T, res result) {
			if res.header.Get("Retry-After") != "7" {
				t.Errorf("Retry-After = %q", res.header.Get("Retry-After"))
			}
		}},
		{"then spent", call{method: "GET", path: "/api/v1/Request/count"}, 200, nil},
		{"clear faults", call{method: "DELETE", path: "/_mock/faults"}, 204, nil},
		{"rotate auth", call{method: "POST", path: "/_mock/auth/rotate"}, 204, nil},
		{"old token rejected", call{method: "GET", path: "/api/v1/Request/movie/remaining", header: h}, 401, nil},
		{"clear journal", call{method: "DELETE", path: "/_mock/journal"}, 204, func(t *testing.T, _ result) {
			if len(s.Journal()) != 0 {
				t.Errorf("journal not cleared")
			}
		}},
		{"unknown control route", call{method: "GET", path: "/_mock/nope"}, 404, nil},
		{"control ignores a bad ApiKey", call{method: "GET", path: "/_mock/journal", header: map[string]string{"ApiKey": "wrong"}}, 200, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, tt.c)
			if res.status != tt.wantStatus {
				t.Fatalf("%s %s = %d %s, want %d", tt.c.method, tt.c.path, res.status, res.body, tt.wantStatus)
			}
			if tt.check != nil {
				tt.check(t, res)
			}
		})
	}
	if !s.quirk(QuirkVoteRead500) {
		t.Error("quirk not switched on")
	}
}

func TestControl_resetRestoresSeed(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asPower(t, s)
	var before int
	do(t, s, call{method: "GET", path: "/api/v1/Request/movie/total", header: h}).json(t, &before)
	res := do(t, s, call{method: "POST", path: "/api/v1/Request/movie", header: h, body: `{"theMovieDbId":105}`})
	if !strings.Contains(string(res.body), `"result":true`) {
		t.Fatalf("create = %s", res.body)
	}
	_ = s.InjectFault(Fault{Path: "/api/v1/Status", Status: 500})
	_ = s.SetQuirk(QuirkV2ListNullReference, true)
	_ = s.SetQuirk(QuirkLogsStringArray, false)
	if res := do(t, s, call{method: "POST", path: "/_mock/reset"}); res.status != http.StatusNoContent {
		t.Fatalf("reset = %d", res.status)
	}
	h = asPower(t, s) // reset rotates auth
	var after int
	do(t, s, call{method: "GET", path: "/api/v1/Request/movie/total", header: h}).json(t, &after)
	if after != before {
		t.Errorf("total after reset = %d, want %d", after, before)
	}
	if res := do(t, s, call{method: "GET", path: "/api/v1/Status"}); res.status != 200 {
		t.Errorf("fault survived reset: %d", res.status)
	}
	if s.quirk(QuirkV2ListNullReference) || !s.quirk(QuirkLogsStringArray) {
		t.Errorf("quirks not back to defaults")
	}
	if j := s.Journal(); len(j) != 3 {
		t.Errorf("journal after reset has %d calls, want the 3 made since", len(j))
	}
}

func TestControl_underBasePath(t *testing.T) {
	s := newTestServer(t, Options{BasePath: "/ombi/"})
	for _, p := range []string{"/_mock/credentials", "/ombi/_mock/credentials"} {
		res := do(t, s, call{method: "GET", path: p})
		var c Credentials
		if res.status != 200 || json.Unmarshal(res.body, &c) != nil || c.APIKey != DefaultAPIKey {
			t.Errorf("GET %s = %d %s", p, res.status, res.body)
		}
	}
}

func TestQuirks_names(t *testing.T) {
	s := newTestServer(t, Options{})
	want := []string{"language_mojibake", "logs_string_array", "news_html", "plex_servers_wrapper", "ratings_rotten_tomatoes",
		"stats_null_reference", "tv_search_linq", "tv_v1_engine", "v1_tv_tvdb_in_moviedbid", "v2_list_null_reference", "vote_read_500"}
	if got := strings.Join(s.Quirks(), ","); got != strings.Join(want, ",") {
		t.Fatalf("Quirks() = %s", got)
	}
	if err := s.SetQuirk("nope", true); err == nil || !strings.HasPrefix(err.Error(), "set quirk: ") {
		t.Fatalf("SetQuirk(nope) = %v", err)
	}
}

// With NoControl the mock is a black box: every /_mock/ path is answered as
// Ombi answers a route it does not have, and nothing it asks for happens,
// while Ombi's API (and the Go journal) work as ever.
func TestControl_off(t *testing.T) {
	s := newTestServer(t, Options{NoControl: true})
	tests := []struct {
		method, path, body string
	}{
		{"GET", "/_mock", ""},
		{"GET", "/_mock/", ""},
		{"GET", "/_mock/journal", ""},
		{"GET", "/_mock/credentials", ""},
		{"GET", "/_mock/state", ""},
		{"POST", "/_mock/faults", `{"path":"/api/v1/Status","status":500}`},
		{"POST", "/_mock/reset", ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			res := do(t, s, call{method: tt.method, path: tt.path, body: tt.body})
			if res.status != http.StatusNotFound && res.status != http.StatusUnauthorized {
				t.Errorf("%s %s = %d %s, want Ombi's answer to a route it does not have", tt.method, tt.path, res.status, res.body)
			}
			if strings.Contains(string(res.body), DefaultAPIKey) {
				t.Errorf("%s %s leaks the API key: %s", tt.method, tt.path, res.body)
			}
		})
	}
	if len(s.Faults()) != 0 {
		t.Errorf("a fault was injected through the switched-off control API: %v", s.Faults())
	}
	if res := do(t, s, call{method: "GET", path: "/api/v1/Status"}); res.status != http.StatusOK {
		t.Errorf("GET /api/v1/Status = %d, want 200", res.status)
	}
	if j := s.Journal(); len(j) == 0 {
		t.Errorf("the Go journal recorded nothing")
	}
}

package mockombi

import (
	"strings"
	"testing"
)

func TestRequests_quotaExceeded(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	var free []int
	s.store.Read(func(st *store) {
		for _, m := range st.Search.Movies {
			if st.Requests.MovieByTMDB(m.TheMovieDbID) == nil {
				free = append(free, m.TheMovieDbID)
			}
		}
	})
	for i := 0; i < 10; i++ {
		if er := engine(t, s, call{method: "POST", path: "/api/v1/Request/movie", header: h, body: `{"theMovieDbId":` + itoa(free[i]) + `}`}); er["result"] != true {
			t.Fatalf("request %d: %v", i, er)
		}
	}
	er := engine(t, s, call{method: "POST", path: "/api/v1/Request/movie", header: h, body: `{"theMovieDbId":` + itoa(free[10]) + `}`})
	if er["result"] != false || er["errorCode"] != "MovieRequestQuotaExceeded" || er["errorMessage"] != "You have exceeded your Movie request quota!" {
		t.Fatalf("11th request = %v", er)
	}
	var q map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/movie/remaining", header: h}, &q)
	if q["remaining"] != float64(0) || q["limit"] != float64(10) {
		t.Errorf("quota = %v", q)
	}
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/movie/remaining", header: asAdmin(t, s)}, &q)
	if q["hasLimit"] != false {
		t.Errorf("admin quota = %v", q)
	}
}

func TestRequests_quotaFollowsUserLimits(t *testing.T) {
	s := newTestServer(t, Options{})
	admin := asAdmin(t, s)
	id := stableUUIDOf(t, s, "power")
	var before map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/movie/remaining", header: asPower(t, s)}, &before)
	if before["hasLimit"] != false {
		t.Fatalf("power user quota = %v, want no limit", before)
	}
	body := `{"id":"` + id + `","userName":"power","claims":[{"value":"PowerUser","enabled":true},{"value":"RequestMovie","enabled":true}],"movieRequestLimit":2,"episodeRequestLimit":0,"musicRequestLimit":0}`
	if res := do(t, s, call{method: "PUT", path: "/api/v1/Identity", header: admin, body: body}); !strings.Contains(string(res.body), `"successful":true`) {
		t.Fatalf("update user = %d %s", res.status, res.body)
	}
	h := asPower(t, s)
	var q map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/movie/remaining", header: h}, &q)
	// the power user's last request (2026-11-21) lies outside the weekly window
	if q["hasLimit"] != true || q["limit"] != float64(2) || q["remaining"] != float64(2) || q["nextRequest"] != "2026-11-29T12:00:00Z" {
		t.Fatalf("quota after the limit = %v", q)
	}
	engine(t, s, call{method: "POST", path: "/api/v1/Request/movie", header: h, body: `{"theMovieDbId":13}`})
	engine(t, s, call{method: "POST", path: "/api/v1/Request/movie", header: h, body: `{"theMovieDbId":1891}`})
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/movie/remaining", header: h}, &q)
	if q["remaining"] != float64(0) || q["nextRequest"] != "2026-12-06T12:00:00Z" {
		t.Fatalf("quota when spent = %v", q)
	}
	if er := engine(t, s, call{method: "POST", path: "/api/v1/Request/movie", header: h, body: `{"theMovieDbId":105}`}); er["errorCode"] != "MovieRequestQuotaExceeded" {
		t.Fatalf("over the limit = %v", er)
	}
}

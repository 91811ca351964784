package mockombi

import (
	"testing"
)

// engine decodes a RequestEngineResult answer (HTTP 200).
func engine(t *testing.T, s *Server, c call) map[string]any {
	t.Helper()
	var er map[string]any
	getJSON(t, s, c, &er)
	for _, k := range []string{"result", "message", "isError", "errorMessage", "errorCode", "requestId"} {
		if _, ok := er[k]; !ok {
			t.Fatalf("engine result lacks %s: %v", k, er)
		}
	}
	return er
}

// page decodes a RequestsViewModel.
type page struct {
	Collection []map[string]any `json:"collection"`
	Total      int              `json:"total"`
}

func TestRequests_createdRequestShowsEverywhere(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	var q0, q1 map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/movie/remaining", header: h}, &q0)
	var c0, c1 map[string]int
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/count"}, &c0)
	var before page
	getJSON(t, s, call{method: "GET", path: "/api/v2/Requests/movie/pending/100/0/requestedDate/desc", header: h}, &before)

	er := engine(t, s, call{method: "POST", path: "/api/v1/Request/movie", header: h, body: `{"theMovieDbId":13}`})
	id := er["requestId"].(float64)

	var after page
	getJSON(t, s, call{method: "GET", path: "/api/v2/Requests/movie/pending/100/0/requestedDate/desc", header: h}, &after)
	if after.Total != before.Total+1 || after.Collection[0]["id"] != id || after.Collection[0]["title"] != "Forrest Gump" {
		t.Errorf("v2 pending list: total %d→%d, first %v", before.Total, after.Total, after.Collection[0]["title"])
	}
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/count"}, &c1)
	if c1["pending"] != c0["pending"]+1 {
		t.Errorf("counts %v → %v", c0, c1)
	}
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/movie/remaining", header: h}, &q1)
	if q0["remaining"] != float64(10) || q1["remaining"] != float64(9) || q1["hasLimit"] != true || q1["nextRequest"] != "2026-12-06T12:00:00Z" {
		t.Errorf("quota %v → %v", q0, q1)
	}
	var recent []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v2/Requests/recentlyRequested", header: h}, &recent)
	if recent[0]["requestId"] != id || recent[0]["mediaId"] != "13" || recent[0]["username"] != "user" {
		t.Errorf("recent[0] = %v", recent[0])
	}
	var search []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Search/movie/forrest", header: h}, &search)
	if search[0]["requested"] != true || search[0]["requestId"] != id {
		t.Errorf("search overlay = %v", search[0])
	}
	var hasReq bool
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/userhasrequest?userId=" + stableUUIDOf(t, s, "user"), header: h}, &hasReq)
	if !hasReq {
		t.Error("userhasrequest = false")
	}
}

// stableUUIDOf finds an account id by user name.
func stableUUIDOf(t *testing.T, s *Server, name string) string {
	t.Helper()
	var id string
	s.store.Read(func(st *store) {
		if a := st.Users.ByName(name); a != nil {
			id = a.ID
		}
	})
	if id == "" {
		t.Fatalf("no user %s", name)
	}
	return id
}

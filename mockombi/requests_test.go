package mockombi

import (
	"encoding/json"
	"strings"
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

func TestRequests_createMovie(t *testing.T) {
	tests := []struct {
		name      string
		as        func(t *testing.T, s *Server) map[string]string
		body      string
		wantOK    bool
		wantCode  any
		wantMsg   string
		wantError string
		approved  bool
	}{
		{"plain user: pending", asUser, `{"theMovieDbId":105,"languageCode":"en","requestOnBehalf":null,"qualityPathOverride":null,"rootFolderOverride":null,"is4KRequest":false}`, true, nil, "Back to the Future (1985) has been successfully added!", "", false},
		{"admin: auto-approved", asAdmin, `{"theMovieDbId":105}`, true, nil, "Back to the Future (1985) has been successfully added!", "", true},
		{"already requested", asUser, `{"theMovieDbId":603}`, false, "AlreadyRequested", "", `"The Matrix" has already been requested`, false},
		{"unknown movie", asUser, `{"theMovieDbId":424242}`, false, nil, "There was an issue adding this movie!", "Please try again later", false},
		{"on behalf needs power user", asUser, `{"theMovieDbId":105,"requestOnBehalf":"x"}`, false, nil, "You do not have the correct permissions to request on behalf of users!", "You do not have the correct permissions to request on behalf of users!", false},
		{"overrides need power user", asUser, `{"theMovieDbId":105,"rootFolderOverride":1}`, false, nil, "You do not have the correct permissions!", "You do not have the correct permissions!", false},
		{"power user on behalf", asPower, `{"theMovieDbId":105,"requestOnBehalf":"` + stableUUID("user:nobody") + `"}`, true, nil, "Back to the Future (1985) has been successfully added!", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, Options{})
			h := tt.as(t, s)
			er := engine(t, s, call{method: "POST", path: "/api/v1/Request/Movie/", header: h, body: tt.body})
			if er["result"] != tt.wantOK || er["errorCode"] != tt.wantCode || er["isError"] == tt.wantOK {
				t.Fatalf("result = %v", er)
			}
			if tt.wantMsg != "" && er["message"] != tt.wantMsg || tt.wantError != "" && er["errorMessage"] != tt.wantError {
				t.Fatalf("messages = %q / %q", er["message"], er["errorMessage"])
			}
			if !tt.wantOK {
				return
			}
			id := int(er["requestId"].(float64))
			var got map[string]any
			getJSON(t, s, call{method: "GET", path: "/api/v1/Request/movie/info/" + itoa(id), header: h}, &got)
			if got["theMovieDbId"] != float64(105) || got["approved"] != tt.approved || got["requestStatus"] == "" || got["requestType"] != float64(1) {
				t.Errorf("stored request = %v", got)
			}
		})
	}
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
		if a := st.users.byName(name); a != nil {
			id = a.ID
		}
	})
	if id == "" {
		t.Fatalf("no user %s", name)
	}
	return id
}

func TestRequests_quotaExceeded(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	var free []int
	s.store.Read(func(st *store) {
		for _, m := range st.search.movies {
			if st.requests.movieByTMDB(m.TheMovieDbID) == nil {
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

func TestRequests_createTV(t *testing.T) {
	tests := []struct {
		name      string
		path      string
		body      string
		wantOK    bool
		wantCode  any
		wantError string
		wantEps   map[int]int // season → episodes in the new child
		newParent bool
	}{
		{"episodes of a new show", "/api/v2/Requests/tv", `{"theMovieDbId":2316,"seasons":[{"seasonNumber":1,"episodes":[{"episodeNumber":1},{"episodeNumber":2}]}]}`, true, nil, "", map[int]int{1: 2}, true},
		{"first season", "/api/v2/Requests/tv", `{"theMovieDbId":2316,"firstSeason":true}`, true, nil, "", map[int]int{1: 6}, true},
		{"latest season", "/api/v2/Requests/tv", `{"theMovieDbId":2316,"latestSeason":true}`, true, nil, "", map[int]int{9: 25}, true},
		{"all seasons skip specials", "/api/v2/Requests/tv", `{"theMovieDbId":1399,"requestAll":true}`, true, nil, "", nil, false},
		{"v1 by TVDB id", "/api/v1/Request/tv", `{"tvDbId":73244,"requestAll":false,"seasons":[{"seasonNumber":2,"episodes":[{"episodeNumber":3}]}]}`, true, nil, "", map[int]int{2: 1}, true},
		{"existing parent, new episodes only", "/api/v2/Requests/tv", `{"theMovieDbId":1396,"seasons":[{"seasonNumber":1,"episodes":[{"episodeNumber":1}]},{"seasonNumber":4,"episodes":[{"episodeNumber":1},{"episodeNumber":2}]}]}`, true, nil, "", map[int]int{4: 2}, false},
		{"all in the first child", "/api/v2/Requests/tv", `{"theMovieDbId":1396,"seasons":[{"seasonNumber":1,"episodes":[{"episodeNumber":1}]}]}`, false, nil, "We already have episodes requested from series Breaking Bad", nil, false},
		{"all in later children", "/api/v2/Requests/tv", `{"theMovieDbId":1396,"seasons":[{"seasonNumber":3,"episodes":[{"episodeNumber":1}]}]}`, false, "AlreadyRequested", "This has already been requested", nil, false},
		{"overrides need power user", "/api/v2/Requests/tv", `{"theMovieDbId":2316,"firstSeason":true,"languageProfile":1}`, false, "NoPermissions", "You do not have the correct permissions!", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, Options{})
			h := asUser(t, s)
			var parentsBefore int
			getJSON(t, s, call{method: "GET", path: "/api/v1/Request/tv/total", header: h}, &parentsBefore)
			er := engine(t, s, call{method: "POST", path: tt.path, header: h, body: tt.body})
			if er["result"] != tt.wantOK || er["errorCode"] != tt.wantCode || (tt.wantError != "" && er["errorMessage"] != tt.wantError) {
				t.Fatalf("result = %v", er)
			}
			if !tt.wantOK {
				return
			}
			if er["message"] != nil {
				t.Errorf("TV success message = %v, want null", er["message"])
			}
			var parentsAfter int
			getJSON(t, s, call{method: "GET", path: "/api/v1/Request/tv/total", header: h}, &parentsAfter)
			if tt.newParent != (parentsAfter == parentsBefore+1) {
				t.Errorf("parents %d → %d", parentsBefore, parentsAfter)
			}
			childID := er["requestId"].(float64)
			var list page
			getJSON(t, s, call{method: "GET", path: "/api/v2/Requests/tv/pending/100/0/requestedDate/desc", header: h}, &list)
			child := list.Collection[0]
			if child["id"] != childID || child["parentRequest"] == nil || child["requestedUser"] == nil {
				t.Fatalf("newest pending child = %v", child["id"])
			}
			got := map[int]int{}
			for _, sr := range child["seasonRequests"].([]any) {
				season := sr.(map[string]any)
				got[int(season["seasonNumber"].(float64))] = len(season["episodes"].([]any))
			}
			if tt.wantEps != nil && !mapsEqual(got, tt.wantEps) {
				t.Errorf("episodes = %v, want %v", got, tt.wantEps)
			}
			if _, special := got[0]; special {
				t.Errorf("specials requested: %v", got)
			}
		})
	}
}

// mapsEqual compares two int maps.
func mapsEqual(a, b map[int]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestRequests_albumAndCollection(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	er := engine(t, s, call{method: "POST", path: "/api/v1/request/music", header: h, body: `{"foreignAlbumId":"48117b82-8a0f-3a8b-a4d5-64ad6e81da4d"}`})
	if er["result"] != true || er["message"] != "Discovery has been successfully added!" {
		t.Fatalf("album = %v", er)
	}
	// upstream has no duplicate rule for albums
	if er := engine(t, s, call{method: "POST", path: "/api/v1/request/music", header: h, body: `{"foreignAlbumId":"48117b82-8a0f-3a8b-a4d5-64ad6e81da4d"}`}); er["result"] != true {
		t.Fatalf("second album request = %v", er)
	}
	if er := engine(t, s, call{method: "POST", path: "/api/v1/request/music", header: h, body: `{"foreignAlbumId":"nope"}`}); er["message"] != "There was an issue adding this album!" {
		t.Fatalf("unknown album = %v", er)
	}
	var albums page
	getJSON(t, s, call{method: "GET", path: "/api/v2/Requests/album/10/0/requestedDate/desc", header: h}, &albums)
	if albums.Total != 5 || albums.Collection[0]["title"] != "Discovery" {
		t.Errorf("albums = %d %v", albums.Total, albums.Collection[0]["title"])
	}
	p := asPower(t, s)
	er = engine(t, s, call{method: "POST", path: "/api/v2/Requests/movie/collection/264", header: p})
	if er["result"] != true || er["message"] != "The collection Back to the Future Collection has been successfully added!" || er["requestId"] == float64(0) {
		t.Fatalf("collection = %v", er)
	}
	var movies []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/movie/search/back%20to", header: p}, &movies)
	if len(movies) != 3 {
		t.Errorf("collection created %d requests, want 3", len(movies))
	}
	if res := do(t, s, call{method: "POST", path: "/api/v2/Requests/movie/collection/1", header: p}); res.status != 500 {
		t.Errorf("unknown collection = %d", res.status)
	}
}

func TestRequests_moderation(t *testing.T) {
	tests := []struct {
		name     string
		method   string
		path     string
		body     string
		wantOK   bool
		wantMsg  any
		wantCode any
		check    string // GET path whose JSON must contain want
		want     string
	}{
		{"approve movie", "POST", "/api/v1/Request/movie/approve", `{"id":3,"is4K":false}`, true, nil, nil, "/api/v1/Request/movie/info/3", `"approved":true`},
		{"deny movie", "PUT", "/api/v1/Request/movie/deny", `{"id":3,"is4K":false,"reason":"No space"}`, true, "Request successfully deleted", nil, "/api/v1/Request/movie/info/3", `"deniedReason":"No space"`},
		{"available movie", "POST", "/api/v1/Request/movie/available", `{"id":2}`, true, "Request is now available", nil, "/api/v1/Request/movie/info/2", `"requestStatus":"Common.Available"`},
		{"unavailable movie", "POST", "/api/v1/Request/movie/unavailable", `{"id":1}`, true, "Request is now unavailable", nil, "/api/v1/Request/movie/info/1", `"available":false`},
		{"approve 4K", "POST", "/api/v1/Request/movie/approve", `{"id":4,"is4K":true}`, true, nil, nil, "/api/v1/Request/movie/info/4", `"approved4K":true`},
		{"missing movie", "POST", "/api/v1/Request/movie/approve", `{"id":999}`, false, nil, nil, "", ""},
		{"approve tv child", "POST", "/api/v1/Request/tv/approve", `{"id":3}`, true, nil, nil, "/api/v1/Request/tv/2/child", `"approved":true`},
		{"deny tv child", "PUT", "/api/v1/Request/tv/deny", `{"id":5,"reason":"Later"}`, true, nil, nil, "/api/v1/Request/tv/4/child", `"deniedReason":"Later"`},
		{"available tv child", "POST", "/api/v1/Request/tv/available", `{"id":2}`, true, "Request is now available", nil, "/api/v1/Request/tv/1/child", `"requestStatus":"Common.Available"`},
		{"missing tv child", "POST", "/api/v1/Request/tv/approve", `{"id":999}`, false, nil, "ChildRequestDoesNotExist", "", ""},
		{"approve album", "POST", "/api/v1/request/music/approve", `{"id":2}`, true, nil, nil, "/api/v1/request/music/search/random", `"approved":true`},
		{"deny album", "PUT", "/api/v1/request/music/deny", `{"id":2,"reason":"Lossy"}`, true, "Request successfully deleted", nil, "/api/v1/request/music/search/random", `"deniedReason":"Lossy"`},
		{"missing album", "POST", "/api/v1/request/music/available", `{"id":999}`, false, nil, nil, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, Options{})
			h := asPower(t, s)
			er := engine(t, s, call{method: tt.method, path: tt.path, header: h, body: tt.body})
			if er["result"] != tt.wantOK || er["message"] != tt.wantMsg || er["errorCode"] != tt.wantCode {
				t.Fatalf("result = %v", er)
			}
			if !tt.wantOK {
				if !strings.Contains(er["errorMessage"].(string), "does not exist") {
					t.Errorf("errorMessage = %v", er["errorMessage"])
				}
				return
			}
			res := do(t, s, call{method: "GET", path: tt.check, header: h})
			if !strings.Contains(string(res.body), tt.want) {
				t.Errorf("%s lacks %s: %s", tt.check, tt.want, truncate(string(res.body), 400))
			}
		})
	}
}

func TestRequests_delete(t *testing.T) {
	tests := []struct {
		name       string
		as         func(t *testing.T, s *Server) map[string]string
		path       string
		wantStatus int
		wantBody   string
		gone       string // GET that must now answer 204
	}{
		{"movie", asPower, "/api/v1/Request/movie/3", 200, `"result":true`, "/api/v1/Request/movie/info/3"},
		{"missing movie dereferences null", asAdmin, "/api/v1/Request/movie/999", 500, `{"error":"Object reference not set to an instance of an object."}`, ""},
		{"album", asAdmin, "/api/v1/request/music/1", 200, `"result":true`, ""},
		{"tv parent with its children", asPower, "/api/v1/Request/tv/1", 200, ``, "/api/v1/Request/tv/1"},
		{"missing tv parent", asPower, "/api/v1/Request/tv/999", 500, `"error"`, ""},
		{"last tv child takes the parent", asPower, "/api/v1/Request/tv/child/3", 200, `"result":true`, "/api/v1/Request/tv/2"},
		{"tv child among siblings", asPower, "/api/v1/Request/tv/child/2", 200, `"result":true`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, Options{})
			h := tt.as(t, s)
			res := do(t, s, call{method: "DELETE", path: tt.path, header: h})
			if res.status != tt.wantStatus || !strings.Contains(string(res.body), tt.wantBody) || (tt.wantBody == "" && len(res.body) != 0) {
				t.Fatalf("= %d %s", res.status, res.body)
			}
			if tt.gone != "" {
				if res := do(t, s, call{method: "GET", path: tt.gone, header: h}); res.status != 204 {
					t.Errorf("%s after delete = %d", tt.gone, res.status)
				}
			}
		})
	}
	s := newTestServer(t, Options{})
	h := asPower(t, s)
	do(t, s, call{method: "DELETE", path: "/api/v1/Request/tv/1", header: h})
	var kids []any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/tv/1/child", header: h}, &kids)
	if len(kids) != 0 {
		t.Errorf("children survive their parent: %d", len(kids))
	}
}

func TestRequests_deleteOwnRequests(t *testing.T) {
	s := newTestServer(t, Options{Users: []User{{Username: "user", Password: "pw", Role: RoleUser}}})
	s.store.Write(func(st *store) {
		acc := st.users.byName("user")
		acc.Roles = append(acc.Roles, ombiRoleManageOwnRequests)
	})
	h := login(t, s, "user", "pw")
	// movie 7 is the user's own, movie 3 is plexfan's
	if er := engine(t, s, call{method: "DELETE", path: "/api/v1/Request/movie/7", header: h}); er["result"] != true {
		t.Errorf("own delete = %v", er)
	}
	if er := engine(t, s, call{method: "DELETE", path: "/api/v1/Request/movie/3", header: h}); er["result"] != false || er["errorCode"] != "NoPermissions" {
		t.Errorf("foreign delete = %v", er)
	}
}

func TestRequests_listsV2(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	tests := []struct {
		name       string
		path       string
		wantStatus int
		wantTotal  int
		wantFirst  any // id of the first item
		wantBody   string
	}{
		{"movies newest first", "/api/v2/Requests/movie/3/0/requestedDate/desc", 200, 10, float64(10), ""},
		{"sort name ignores case, asc", "/api/v2/Requests/movie/3/0/TITLE/ASC", 200, 10, float64(6), ""},
		{"paging keeps total", "/api/v2/Requests/movie/2/9/requestedDate/desc", 200, 10, float64(1), ""},
		{"past the end", "/api/v2/Requests/movie/10/50/requestedDate/desc", 200, 10, nil, ""},
		{"available", "/api/v2/Requests/movie/available/10/0/requestedDate/desc", 200, 2, float64(4), ""},
		{"availble alias", "/api/v2/Requests/movie/availble/10/0/requestedDate/desc", 200, 2, float64(4), ""},
		{"pending (a pending 4K half counts)", "/api/v2/Requests/movie/pending/10/0/requestedDate/asc", 200, 5, float64(3), ""},
		{"processing", "/api/v2/Requests/movie/processing/10/0/requestedDate/asc", 200, 3, float64(2), ""},
		{"denied", "/api/v2/Requests/movie/denied/10/0/requestedDate/asc", 200, 1, float64(5), ""},
		{"unavailable", "/api/v2/Requests/movie/unavailable/10/0/requestedDate/asc", 200, 3, float64(2), ""},
		{"dotted sort falls back", "/api/v2/Requests/movie/1/0/requestedUser.userName/desc", 200, 10, float64(10), ""},
		{"unknown sort property", "/api/v2/Requests/movie/10/0/requestDate/desc", 500, 0, nil, `{"error":"Object reference not set to an instance of an object."}`},
		{"unknown sort on an empty filter", "/api/v2/Requests/album/unavailable/10/0/nope/desc", 404, 0, nil, ""},
		{"tv children", "/api/v2/Requests/tv/10/0/requestedDate/desc", 200, 6, float64(6), ""},
		{"tv sort by title", "/api/v2/Requests/tv/1/0/title/asc", 200, 6, float64(1), ""},
		{"albums", "/api/v2/Requests/Album/10/0/requestedDate/desc", 200, 3, float64(3), ""},
		{"album availble is not a route", "/api/v2/Requests/album/availble/10/0/requestedDate/desc", 404, 0, nil, ""},
		{"unknown status", "/api/v2/Requests/movie/all/10/0/requestedDate/desc", 404, 0, nil, ""},
		{"non-int count", "/api/v2/Requests/movie/x/0/requestedDate/desc", 404, 0, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, call{method: "GET", path: tt.path, header: h})
			if res.status != tt.wantStatus {
				t.Fatalf("= %d %s", res.status, truncate(string(res.body), 200))
			}
			if tt.wantBody != "" && string(res.body) != tt.wantBody {
				t.Fatalf("body = %s", res.body)
			}
			if res.status != 200 {
				return
			}
			var p page
			res.json(t, &p)
			if p.Total != tt.wantTotal || p.Collection == nil {
				t.Fatalf("total = %d (collection nil=%v), want %d", p.Total, p.Collection == nil, tt.wantTotal)
			}
			var first any
			if len(p.Collection) > 0 {
				first = p.Collection[0]["id"]
			}
			if first != tt.wantFirst {
				t.Errorf("first id = %v, want %v", first, tt.wantFirst)
			}
		})
	}
}

func TestRequests_v2ChildShape(t *testing.T) {
	s := newTestServer(t, Options{})
	var p page
	getJSON(t, s, call{method: "GET", path: "/api/v2/Requests/tv/1/0/id/asc", header: apiKey()}, &p)
	child := p.Collection[0]
	parent := child["parentRequest"].(map[string]any)
	siblings := parent["childRequests"].([]any)
	if parent["id"] != float64(1) || parent["externalProviderId"] != float64(1396) || len(siblings) != 1 || siblings[0].(map[string]any)["id"] != float64(2) {
		t.Fatalf("parent = %v", parent)
	}
	ep := child["seasonRequests"].([]any)[0].(map[string]any)["episodes"].([]any)[0].(map[string]any)
	if ep["airDateDisplay"] != "01/20/2008 00:00:00" || ep["requestStatus"] != "Common.Available" || ep["sonarrEpisodeId"] == nil {
		t.Errorf("episode = %v", ep)
	}
	user := child["requestedUser"].(map[string]any)
	if !strings.HasPrefix(user["userAccessToken"].(string), "CANARY-") || user["passwordHash"] != nil {
		t.Errorf("requestedUser = %v", user)
	}
	if _, leaked := user["passwordHash"]; leaked {
		t.Error("passwordHash serialised; it is [JsonIgnore] upstream")
	}
}

func TestRequests_listsV1(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	tests := []struct {
		name      string
		path      string
		wantTotal int
		wantFirst any
		noSeasons bool
	}{
		{"movies, title asc", "/api/v1/Request/movie/5/0/3/0/0", 10, float64(6), false},
		{"movies available", "/api/v1/Request/movie/5/0/2/0/1", 2, float64(4), false},
		{"movies pending approval", "/api/v1/Request/movie/5/0/1/5/0", 4, float64(3), false},
		{"tv ignores the path filters", "/api/v1/Request/tv/5/0/1/5/1", 5, float64(1), false},
		{"tv filters come from the query", "/api/v1/Request/tv/5/0/1/0/0?availabilityType=1", 1, float64(1), false},
		{"tvlite has no seasons", "/api/v1/Request/tvlite/5/0/4/0/0", 5, float64(5), true},
		{"albums", "/api/v1/request/music/5/0/2/0/0", 3, float64(3), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p page
			getJSON(t, s, call{method: "GET", path: tt.path, header: h}, &p)
			if p.Total != tt.wantTotal || len(p.Collection) == 0 || p.Collection[0]["id"] != tt.wantFirst {
				t.Fatalf("total %d first %v, want %d %v", p.Total, firstID(p), tt.wantTotal, tt.wantFirst)
			}
			if tt.noSeasons {
				kids := p.Collection[0]["childRequests"].([]any)
				if n := len(kids[0].(map[string]any)["seasonRequests"].([]any)); n != 0 {
					t.Errorf("tvlite child has %d seasons", n)
				}
			}
		})
	}
}

// firstID is the id of a page's first item, nil when empty.
func firstID(p page) any {
	if len(p.Collection) == 0 {
		return nil
	}
	return p.Collection[0]["id"]
}

func TestRequests_readsAndSearch(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	tests := []struct {
		name       string
		path       string
		wantStatus int
		want       string
	}{
		{"movie info", "/api/v1/Request/movie/info/1", 200, `"title":"The Matrix"`},
		{"missing movie info", "/api/v1/Request/movie/info/999", 204, ""},
		{"tv parent", "/api/v1/Request/tv/1", 200, `"childRequests":[{`},
		{"missing tv parent", "/api/v1/Request/tv/999", 204, ""},
		{"children", "/api/v1/Request/tv/1/child", 200, `"parentRequestId":1`},
		{"all movies", "/api/v1/Request/movie", 200, `"theMovieDbId":603`},
		{"all tv", "/api/v1/Request/tv", 200, `"tvDbId":81189`},
		{"all albums", "/api/v1/request/music", 200, `"foreignAlbumId"`},
		{"movie search", "/api/v1/Request/movie/search/matrix", 200, `"The Matrix"`},
		{"tv search", "/api/v1/Request/tv/search/breaking", 200, `"Breaking Bad"`},
		{"album search by artist", "/api/v1/request/music/search/radiohead", 200, `"OK Computer"`},
		{"totals", "/api/v1/Request/movie/total", 200, `10`},
		{"tv quota: no limit set for episodes beyond the seeded", "/api/v1/Request/tv/remaining", 200, `"limit":100`},
		{"album quota", "/api/v1/request/music/remaining", 200, `"limit":5`},
		{"counts are anonymous", "/api/v1/Request/count", 200, `{"approved":5,"available":3,"denied":2,"pending":6}`},
		{"userhasrequest unknown user", "/api/v1/Request/userhasrequest?userId=nobody", 200, `false`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, call{method: "GET", path: tt.path, header: h})
			if res.status != tt.wantStatus || !strings.Contains(string(res.body), tt.want) {
				t.Fatalf("= %d %s", res.status, truncate(string(res.body), 300))
			}
		})
	}
}

func TestRequests_recentlyRequested(t *testing.T) {
	s := newTestServer(t, Options{})
	var recent []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v2/Requests/recentlyRequested", header: apiKey()}, &recent)
	byType := map[float64]int{}
	last := "9999"
	for _, r := range recent {
		byType[r["type"].(float64)]++
		d := r["requestDate"].(string)
		if d > last {
			t.Errorf("not newest first: %s after %s", d, last)
		}
		last = d
		if _, ok := r["denied"].(bool); !ok {
			t.Errorf("denied not a bool: %v", r)
		}
	}
	if byType[1] != 7 || byType[0] != 6 || byType[2] != 3 {
		t.Errorf("per type = %v, want 7 movies, 6 tv children, 3 albums", byType)
	}
	for _, r := range recent {
		if r["type"] == float64(0) && r["requestId"] == float64(1) && r["mediaId"] != "1396" {
			t.Errorf("tv row = %v", r)
		}
	}
}

func TestRequests_optionsSubscribeReprocessRetry(t *testing.T) {
	s := newTestServer(t, Options{})
	p := asPower(t, s)
	u := asUser(t, s)
	tests := []struct {
		name       string
		c          call
		wantStatus int
		want       string
		then       call
		thenWant   string
	}{
		{"movie advanced options replace", call{method: "POST", path: "/api/v2/Requests/movie/advancedoptions", header: p, body: `{"requestId":2,"qualityOverride":7}`}, 200, `"result":true`,
			call{method: "GET", path: "/api/v1/Request/movie/info/2", header: p}, `"qualityOverride":7,`},
		{"movie advanced options missing", call{method: "POST", path: "/api/v2/Requests/movie/advancedoptions", header: p, body: `{"requestId":99}`}, 200, `"errorMessage":"Request does not exist"`, call{}, ""},
		{"tv advanced options", call{method: "POST", path: "/api/v2/Requests/tv/advancedoptions", header: p, body: `{"requestId":2,"rootPathOverride":3,"qualityOverride":4,"languageProfile":0}`}, 200, `"result":true`,
			call{method: "GET", path: "/api/v1/Request/tv/2", header: p}, `"languageProfile":null,"overview"`},
		{"tv advanced options missing", call{method: "POST", path: "/api/v2/Requests/tv/advancedoptions", header: p, body: `{"requestId":99}`}, 200, `"errorCode":"RequestDoesNotExist"`, call{}, ""},
		{"tv root", call{method: "PUT", path: "/api/v1/Request/tv/root/2/9", header: p}, 200, `true`, call{method: "GET", path: "/api/v1/Request/tv/2", header: p}, `"rootFolder":9`},
		{"tv quality", call{method: "PUT", path: "/api/v1/Request/tv/quality/2/8", header: p}, 200, `true`, call{method: "GET", path: "/api/v1/Request/tv/2", header: p}, `"qualityOverride":8`},
		{"tv root missing", call{method: "PUT", path: "/api/v1/Request/tv/root/99/9", header: p}, 500, `"error"`, call{}, ""},
		{"advanced options need power user", call{method: "POST", path: "/api/v2/Requests/movie/advancedoptions", header: u, body: `{"requestId":2}`}, 403, ``, call{}, ""},
		{"subscribe", call{method: "POST", path: "/api/v1/Request/movie/subscribe/3", header: u}, 200, `true`, call{method: "GET", path: "/api/v1/Request/movie/info/3", header: u}, `"subscribed":true`},
		{"unsubscribe", call{method: "POST", path: "/api/v1/Request/movie/unsubscribe/2", header: u}, 200, `true`, call{method: "GET", path: "/api/v1/Request/movie/info/2", header: u}, `"subscribed":false`},
		{"reprocess movie", call{method: "POST", path: "/api/v2/Requests/reprocess/Movie/2/false", header: p}, 200, `"result":true`, call{}, ""},
		{"reprocess by number", call{method: "POST", path: "/api/v2/Requests/reprocess/1/2/true", header: p}, 200, `"result":true`, call{}, ""},
		{"reprocess tv child", call{method: "POST", path: "/api/v2/Requests/reprocess/TvShow/3/false", header: p}, 200, `"result":true`, call{}, ""},
		{"reprocess missing", call{method: "POST", path: "/api/v2/Requests/reprocess/Movie/99/false", header: p}, 200, `"errorMessage":"Request does not exist"`, call{}, ""},
		{"reprocess album is a bad request", call{method: "POST", path: "/api/v2/Requests/reprocess/Album/1/false", header: p}, 400, `"status":400`, call{}, ""},
		{"reprocess bad type", call{method: "POST", path: "/api/v2/Requests/reprocess/Book/1/false", header: p}, 400, `"status":400`, call{}, ""},
		{"retry queue", call{method: "GET", path: "/api/v1/RequestRetry", header: asAdmin(t, s)}, 200, `"failedId":1`, call{}, ""},
		{"retry delete", call{method: "DELETE", path: "/api/v1/RequestRetry/1", header: asAdmin(t, s)}, 200, `true`,
			call{method: "GET", path: "/api/v1/RequestRetry", header: asAdmin(t, s)}, `"failedId":2`},
		{"retry delete missing", call{method: "DELETE", path: "/api/v1/RequestRetry/77", header: asAdmin(t, s)}, 500, `"error"`, call{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, tt.c)
			if res.status != tt.wantStatus || !strings.Contains(string(res.body), tt.want) {
				t.Fatalf("= %d %s", res.status, truncate(string(res.body), 300))
			}
			if tt.then.path == "" {
				return
			}
			res = do(t, s, tt.then)
			if !strings.Contains(string(res.body), tt.thenWant) {
				t.Errorf("%s lacks %s", tt.then.path, tt.thenWant)
			}
		})
	}
	var queue []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/RequestRetry", header: asAdmin(t, s)}, &queue)
	if len(queue) != 1 {
		t.Errorf("queue = %d rows, want 1 (one deleted, one completed)", len(queue))
	}
}

func TestRequests_quirks(t *testing.T) {
	tests := []struct {
		name       string
		quirk      string
		path       string
		wantStatus int
		want       string
	}{
		{"v2 list null reference on a non-empty page", QuirkV2ListNullReference, "/api/v2/Requests/movie/10/0/requestedDate/desc", 500, `{"error":"Object reference not set to an instance of an object."}`},
		{"tv children too", QuirkV2ListNullReference, "/api/v2/Requests/tv/10/0/requestedDate/desc", 500, `Object reference`},
		{"an empty page still answers", QuirkV2ListNullReference, "/api/v2/Requests/movie/10/500/requestedDate/desc", 200, `"collection":[]`},
		{"LINQ failure with stack frames", QuirkTVSearchLINQ, "/api/v1/Request/tv/search/breaking", 500, `could not be translated`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, Options{})
			if err := s.SetQuirk(tt.quirk, true); err != nil {
				t.Fatal(err)
			}
			res := do(t, s, call{method: "GET", path: tt.path, header: apiKey()})
			if res.status != tt.wantStatus || !strings.Contains(string(res.body), tt.want) {
				t.Fatalf("= %d %s", res.status, truncate(string(res.body), 300))
			}
			if tt.quirk == QuirkTVSearchLINQ {
				var e struct{ Error string }
				if err := json.Unmarshal(res.body, &e); err != nil {
					t.Fatal(err)
				}
				var canary string
				for _, c := range s.Canaries() {
					if c.Name == "build_path" {
						canary = c.Value
					}
				}
				if canary == "" || !strings.Contains(e.Error, canary) || !strings.Contains(e.Error, "   at Ombi.Core.Engine.TvRequestEngine") {
					t.Errorf("stack frames with the build-path canary missing: %s", e.Error)
				}
			}
		})
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

func TestRequests_fourK(t *testing.T) {
	tests := []struct {
		name     string
		feature  bool
		body     string
		wantOK   bool
		has4K    bool
		approved any
	}{
		{"feature off: 4K on an existing request is a duplicate", false, `{"theMovieDbId":27205,"is4KRequest":true}`, false, false, nil},
		{"feature on: 4K added to the existing request", true, `{"theMovieDbId":27205,"is4KRequest":true}`, true, true, nil},
		{"feature on: a second 4K request is a duplicate", true, `{"theMovieDbId":157336,"is4KRequest":true}`, false, true, nil},
		{"feature off: a new 4K request is an ordinary one", false, `{"theMovieDbId":105,"is4KRequest":true}`, true, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, Options{})
			admin := asAdmin(t, s)
			if tt.feature {
				if res := do(t, s, call{method: "POST", path: "/api/v2/Features/enable", header: admin, body: `{"name":"Movie4KRequests","enabled":true}`}); res.status != 200 {
					t.Fatalf("enable feature = %d %s", res.status, res.body)
				}
			}
			er := engine(t, s, call{method: "POST", path: "/api/v1/Request/movie", header: asUser(t, s), body: tt.body})
			if er["result"] != tt.wantOK {
				t.Fatalf("result = %v", er)
			}
			if !tt.wantOK {
				if er["errorCode"] != "AlreadyRequested" {
					t.Errorf("errorCode = %v", er["errorCode"])
				}
				return
			}
			var got map[string]any
			getJSON(t, s, call{method: "GET", path: "/api/v1/Request/movie/info/" + itoa(int(er["requestId"].(float64))), header: admin}, &got)
			if got["has4KRequest"] != tt.has4K || (tt.has4K && got["approved4K"] != false) || (!tt.has4K && got["approved"] != tt.approved) {
				t.Errorf("stored = has4K %v approved %v approved4K %v", got["has4KRequest"], got["approved"], got["approved4K"])
			}
		})
	}
}

func TestRequests_hideRequestsUsers(t *testing.T) {
	s := newTestServer(t, Options{})
	admin := asAdmin(t, s)
	var ombi map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Settings/ombi", header: admin}, &ombi)
	ombi["hideRequestsUsers"] = true
	body, _ := json.Marshal(ombi)
	if res := do(t, s, call{method: "POST", path: "/api/v1/Settings/ombi", header: admin, body: string(body)}); res.status != 200 {
		t.Fatalf("save settings = %d %s", res.status, res.body)
	}
	userID := stableUUIDOf(t, s, "user")
	tests := []struct {
		name    string
		as      map[string]string
		path    string
		onlyOwn bool
	}{
		{"plain user, v2 movies", asUser(t, s), "/api/v2/Requests/movie/100/0/requestedDate/desc", true},
		{"plain user, v2 tv", asUser(t, s), "/api/v2/Requests/tv/100/0/requestedDate/desc", true},
		{"power user sees all", asPower(t, s), "/api/v2/Requests/movie/100/0/requestedDate/desc", false},
		{"API key sees all", apiKey(), "/api/v2/Requests/movie/100/0/requestedDate/desc", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p page
			getJSON(t, s, call{method: "GET", path: tt.path, header: tt.as}, &p)
			own := 0
			for _, it := range p.Collection {
				if it["requestedUserId"] == userID {
					own++
				}
			}
			if tt.onlyOwn != (own == len(p.Collection)) || own == 0 {
				t.Fatalf("%d of %d rows are the user's", own, len(p.Collection))
			}
		})
	}
	var recent []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v2/Requests/recentlyRequested", header: asUser(t, s)}, &recent)
	for _, r := range recent {
		if r["userId"] != userID {
			t.Errorf("recently requested shows another user's row: %v", r["title"])
		}
	}
}

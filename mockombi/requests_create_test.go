package mockombi

import (
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
)

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
		{"power user on behalf", asPower, `{"theMovieDbId":105,"requestOnBehalf":"` + db.StableUUID("user:nobody") + `"}`, true, nil, "Back to the Future (1985) has been successfully added!", "", false},
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

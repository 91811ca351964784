package mockombi

import (
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
)

// tvParentByTVDB reads every TV parent request and returns the one of the
// TVDB id (nil when there is none).
func tvParentByTVDB(t *testing.T, s *Server, tvdb int) map[string]any {
	t.Helper()
	var all []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/tv", header: apiKey()}, &all)
	for _, p := range all {
		if p["tvDbId"] == float64(tvdb) {
			return p
		}
	}
	return nil
}

// childOf returns the child request of id among the parent's children.
func childOf(t *testing.T, s *Server, parent map[string]any, id float64) map[string]any {
	t.Helper()
	var kids []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/tv/" + itoa(int(parent["id"].(float64))) + "/child", header: apiKey()}, &kids)
	for _, c := range kids {
		if c["id"] == id {
			return c
		}
	}
	t.Fatalf("parent %v has no child %v", parent["id"], id)
	return nil
}

// Ombi v4.59.3's v1 TV route (TvRequestEngine.RequestTvShow with the v1
// view model): on-behalf only for an account in role PowerUser or Admin
// (the API key's system account holds none), refused without an
// errorCode; no permission check on the overrides; a new show's parent
// without root folder, quality or language profile; an existing show's
// parent with a positive root folder and quality overwritten and the
// language profile left alone. The v2 route is unchanged.
func TestRequests_createTVv1(t *testing.T) {
	const refusal = "You do not have the correct permissions to request on behalf of users!"
	userID := db.StableUUID("user:user")
	tests := []struct {
		name     string
		as       func(t *testing.T, s *Server) map[string]string
		path     string
		body     string
		tvdb     int
		wantOK   bool
		wantUser string // the new child's requester, when checked
		// the parent's options after the call; nil = null
		wantRoot, wantQuality, wantLanguage any
	}{
		{"new show: overrides are not stored", asAdmin, "/api/v1/Request/tv",
			`{"tvDbId":73244,"requestAll":true,"rootFolderOverride":7,"qualityPathOverride":8,"languageProfile":9}`, 73244, true, "", nil, nil, nil},
		{"new show: a plain user's overrides are dropped, not refused", asUser, "/api/v1/Request/tv",
			`{"tvDbId":73244,"firstSeason":true,"rootFolderOverride":7,"qualityPathOverride":8,"languageProfile":9}`, 73244, true, "", nil, nil, nil},
		{"existing show: root and quality overwrite the parent's, language dropped", asAdmin, "/api/v1/Request/tv",
			`{"tvDbId":71663,"requestAll":true,"rootFolderOverride":7,"qualityPathOverride":8,"languageProfile":9}`, 71663, true, "", 7.0, 8.0, 1.0},
		{"existing show: only the positive override overwrites", asAdmin, "/api/v1/Request/tv",
			`{"tvDbId":81189,"seasons":[{"seasonNumber":4,"episodes":[{"episodeNumber":1}]}],"rootFolderOverride":0,"qualityPathOverride":9}`, 81189, true, "", 1.0, 9.0, nil},
		{"existing show: no override keeps the parent's", asAdmin, "/api/v1/Request/tv",
			`{"tvDbId":71663,"requestAll":true}`, 71663, true, "", 2.0, 6.0, 1.0},
		{"power user on behalf", asPower, "/api/v1/Request/tv",
			`{"tvDbId":73244,"requestAll":true,"requestOnBehalf":"` + userID + `"}`, 73244, true, userID, nil, nil, nil},
		{"API key impersonating an admin on behalf", func(*testing.T, *Server) map[string]string {
			return map[string]string{"ApiKey": DefaultAPIKey, "UserName": "admin"}
		}, "/api/v1/Request/tv",
			`{"tvDbId":73244,"requestAll":true,"requestOnBehalf":"` + userID + `"}`, 73244, true, userID, nil, nil, nil},
		{"plain user on behalf is refused", asUser, "/api/v1/Request/tv",
			`{"tvDbId":73244,"requestAll":true,"requestOnBehalf":"` + userID + `"}`, 73244, false, "", nil, nil, nil},
		{"bare API key on behalf is refused", func(*testing.T, *Server) map[string]string { return apiKey() }, "/api/v1/Request/tv",
			`{"tvDbId":73244,"requestAll":true,"requestOnBehalf":"` + userID + `"}`, 73244, false, "", nil, nil, nil},
		{"bare API key on behalf of an existing show is refused before anything changes", func(*testing.T, *Server) map[string]string { return apiKey() }, "/api/v1/Request/tv",
			`{"tvDbId":71663,"requestAll":true,"requestOnBehalf":"` + userID + `","rootFolderOverride":7}`, 71663, false, "", 2.0, 6.0, 1.0},
		{"v2: bare API key on behalf is allowed", func(*testing.T, *Server) map[string]string { return apiKey() }, "/api/v2/Requests/tv",
			`{"theMovieDbId":2316,"requestAll":true,"requestOnBehalf":"` + userID + `"}`, 73244, true, userID, nil, nil, nil},
		{"v2: a new show keeps its overrides", asAdmin, "/api/v2/Requests/tv",
			`{"theMovieDbId":2316,"requestAll":true,"rootFolderOverride":7,"qualityPathOverride":8,"languageProfile":9}`, 73244, true, "", 7.0, 8.0, 9.0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, Options{})
			h := tt.as(t, s)
			var before int
			getJSON(t, s, call{method: "GET", path: "/api/v1/Request/tv/total", header: h}, &before)
			er := engine(t, s, call{method: "POST", path: tt.path, header: h, body: tt.body})
			if er["result"] != tt.wantOK {
				t.Fatalf("result = %v", er)
			}
			parent := tvParentByTVDB(t, s, tt.tvdb)
			if !tt.wantOK {
				// v1's refusal sets message and errorMessage, no errorCode
				if er["errorCode"] != nil || er["message"] != refusal || er["errorMessage"] != refusal || er["isError"] != true || er["requestId"] != 0.0 {
					t.Fatalf("refusal = %v", er)
				}
				var after int
				getJSON(t, s, call{method: "GET", path: "/api/v1/Request/tv/total", header: h}, &after)
				if after != before {
					t.Errorf("parents %d → %d after a refusal", before, after)
				}
			} else {
				if parent == nil {
					t.Fatalf("no parent request of TVDB %d", tt.tvdb)
				}
				if tt.wantUser != "" {
					if c := childOf(t, s, parent, er["requestId"].(float64)); c["requestedUserId"] != tt.wantUser {
						t.Errorf("child requested by %v, want %s", c["requestedUserId"], tt.wantUser)
					}
				}
			}
			if parent == nil {
				return
			}
			for _, f := range []struct {
				key  string
				want any
			}{{"rootFolder", tt.wantRoot}, {"qualityOverride", tt.wantQuality}, {"languageProfile", tt.wantLanguage}} {
				if parent[f.key] != f.want {
					t.Errorf("parent %s = %v, want %v", f.key, parent[f.key], f.want)
				}
			}
		})
	}
}

// With tv_v1_engine off the v1 route follows the v2 rules: a bare API
// key may request on behalf, and a new show keeps its overrides.
func TestRequests_createTVv1_quirkOff(t *testing.T) {
	userID := db.StableUUID("user:user")
	for _, on := range []bool{true, false} {
		s := newTestServer(t, Options{})
		if err := s.SetQuirk(QuirkTVV1Engine, on); err != nil {
			t.Fatal(err)
		}
		er := engine(t, s, call{method: "POST", path: "/api/v1/Request/tv", header: apiKey(),
			body: `{"tvDbId":73244,"requestAll":true,"requestOnBehalf":"` + userID + `","rootFolderOverride":7}`})
		if er["result"] != !on {
			t.Fatalf("quirk %v: result = %v", on, er)
		}
		if on {
			continue
		}
		if p := tvParentByTVDB(t, s, 73244); p == nil || p["rootFolder"] != 7.0 {
			t.Errorf("quirk off: parent %v, want rootFolder 7", p)
		}
	}
}

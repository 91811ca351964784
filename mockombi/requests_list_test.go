package mockombi

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

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
		// v4.59.3's TV request search always fails (tv_search_linq, on by default)
		{"tv search", "/api/v1/Request/tv/search/breaking", 500, `could not be translated`},
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

// TestRequests_tvChildrenParentRequest models TvRequestEngine.GetAllChldren
// (src/Ombi.Core/Engine/TvRequestEngine.cs), which loads the children through
// TvRequestRepository.GetChild (src/Ombi.Store/Repository/Requests/TvRequestRepository.cs:
// Include(ParentRequest)): every child carries parentRequest, whose
// childRequests hold the other loaded children (the loop back to the child
// itself and the siblings' own parentRequest are dropped by Newtonsoft's
// ReferenceLoopHandling.Ignore, Startup.cs); issues are not loaded (null).
// With hideRequestsUsers only the caller's children are loaded.
func TestRequests_tvChildrenParentRequest(t *testing.T) {
	s := newTestServer(t, Options{})
	var kids []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/tv/1/child", header: asAdmin(t, s)}, &kids)
	if len(kids) != 2 {
		t.Fatalf("Breaking Bad has %d children, want 2", len(kids))
	}
	for _, k := range kids {
		pr, ok := k["parentRequest"].(map[string]any)
		if !ok || pr["id"] != float64(1) || pr["title"] != "Breaking Bad" || pr["externalProviderId"] != float64(1396) {
			t.Fatalf("child %v: parentRequest = %v, want the Breaking Bad parent", k["id"], k["parentRequest"])
		}
		if k["issues"] != nil {
			t.Errorf("child %v: issues = %v, want null (not included)", k["id"], k["issues"])
		}
		sib, _ := pr["childRequests"].([]any)
		if len(sib) != 1 {
			t.Fatalf("child %v: parentRequest.childRequests = %v, want the one sibling", k["id"], sib)
		}
		other := sib[0].(map[string]any)
		if other["id"] == k["id"] {
			t.Errorf("child %v lists itself under its parent (a reference loop)", k["id"])
		}
		if _, has := other["parentRequest"]; has {
			t.Errorf("sibling %v carries parentRequest (a reference loop)", other["id"])
		}
		if seasons, _ := other["seasonRequests"].([]any); len(seasons) == 0 {
			t.Errorf("sibling %v has no seasonRequests (GetChild includes them)", other["id"])
		}
	}

	admin := asAdmin(t, s)
	var ombi map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Settings/ombi", header: admin}, &ombi)
	ombi["hideRequestsUsers"] = true
	body, _ := json.Marshal(ombi)
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Settings/ombi", header: admin, body: string(body)}), http.StatusOK)
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/tv/1/child", header: asUser(t, s)}, &kids)
	if len(kids) != 1 || kids[0]["requestedUserId"] != stableUUIDOf(t, s, "user") {
		t.Fatalf("hidden: the user sees %d children, want only their own", len(kids))
	}
	if sib := kids[0]["parentRequest"].(map[string]any)["childRequests"].([]any); len(sib) != 0 {
		t.Errorf("hidden: parentRequest.childRequests = %v, want none (other users' children are not loaded)", sib)
	}
}

package mockombi

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestLibraryAuthLevels(t *testing.T) {
	ok := http.StatusOK
	cases := []authCase{
		{"GET", "/api/v2/Calendar", "", 401, ok, ok, ok},
		{"GET", "/api/v1/RecentlyAdded/movies", "", 401, ok, ok, ok},
		{"GET", "/api/v1/RecentlyAdded/tv", "", 401, ok, ok, ok},
		{"GET", "/api/v1/RecentlyAdded/tv/grouped", "", 401, ok, ok, ok},
		{"GET", "/api/v1/LandingPage", "", ok, ok, ok, ok},
		{"POST", "/api/v1/CustomPage", `{"title":"x","html":"<p>x</p>"}`, 401, 403, 403, 403},
	}
	for _, p := range []string{"tv/371980", "poster", "poster/movie/693134", "poster/tv/371980", "poster/tv/tmdb/95396",
		"background/movie/693134", "banner/movie/693134", "background/tv/371980", "background/tv/tmdb/95396",
		"background", "background/info"} {
		cases = append(cases, authCase{"GET", "/api/v1/Images/" + p, "", ok, ok, ok, ok})
	}
	checkAuthLevels(t, cases)
}

func TestLibraryImages(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		path, prefix string
	}{
		{"/api/v1/Images/poster/movie/693134", "https://assets.fanart.tv/fanart/movies/693134/movieposter/"},
		{"/api/v1/Images/background/movie/693134", "https://assets.fanart.tv/fanart/movies/693134/moviebackground/"},
		{"/api/v1/Images/banner/movie/693134", "https://assets.fanart.tv/fanart/movies/693134/moviebanner/"},
		{"/api/v1/Images/poster/tv/371980", "https://assets.fanart.tv/fanart/tv/371980/tvposter/"},
		{"/api/v1/Images/background/tv/371980", "https://assets.fanart.tv/fanart/tv/371980/showbackground/"},
		{"/api/v1/Images/poster/tv/tmdb/95396", "https://image.tmdb.org/t/p/w500/"},
		{"/api/v1/Images/background/tv/tmdb/95396", "https://image.tmdb.org/t/p/original/"},
		{"/api/v1/Images/poster", "https://image.tmdb.org/t/p/original/"},
		{"/api/v1/Images/tv/0", ""},
	}
	for _, tc := range tests {
		var url string
		res := do(t, s, call{method: "GET", path: tc.path})
		res.json(t, &url)
		if (tc.prefix == "" && url != "") || !strings.HasPrefix(url, tc.prefix) {
			t.Errorf("%s = %q, want prefix %q", tc.path, url, tc.prefix)
		}
	}
	var bg map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Images/background"}).json(t, &bg)
	if len(bg) != 1 || bg["url"] == "" {
		t.Errorf("background = %v", bg)
	}
	do(t, s, call{method: "GET", path: "/api/v1/Images/background/info"}).json(t, &bg)
	if len(bg) != 2 || bg["name"] == nil {
		t.Errorf("background/info = %v", bg)
	}
}

func TestLibraryRecentlyAddedAndCalendar(t *testing.T) {
	now := testNow
	s := newTestServer(t, Options{Clock: func() time.Time { return now }})
	tests := []struct {
		path   string
		titles string
	}{
		{"/api/v1/RecentlyAdded/movies", "Conclave,Flow,Anora"},
		{"/api/v1/RecentlyAdded/tv", "Severance,Severance,The Bear"},
		{"/api/v1/RecentlyAdded/tv/grouped", "Severance,The Bear"},
	}
	for _, tc := range tests {
		var items []map[string]any
		do(t, s, call{method: "GET", path: tc.path, header: actingAs("user")}).json(t, &items)
		var titles []string
		for _, it := range items {
			titles = append(titles, it["title"].(string))
			if _, ok := it["offsetDays"]; ok || it["addedAt"] == nil || it["mediaInfo"] == nil && it["id"].(float64) == 101 {
				t.Errorf("%s item = %v", tc.path, it)
			}
		}
		if strings.Join(titles, ",") != tc.titles {
			t.Errorf("%s = %v, want %s", tc.path, titles, tc.titles)
		}
	}

	// Two days later the oldest movie has left the 7-day window.
	now = testNow.Add(2 * 24 * time.Hour)
	var movies []any
	do(t, s, call{method: "GET", path: "/api/v1/RecentlyAdded/movies", header: actingAs("user")}).json(t, &movies)
	if len(movies) != 2 {
		t.Errorf("recently added 2 days later = %d movies, want 2", len(movies))
	}
	now = testNow

	var cal []map[string]any
	do(t, s, call{method: "GET", path: "/api/v2/Calendar", header: actingAs("user")}).json(t, &cal)
	if len(cal) != 5 {
		t.Fatalf("calendar has %d entries, want 5 within ±90 days", len(cal))
	}
	want := map[string][2]string{
		"Nosferatu":     {"teal", "#0d5a3e"},
		"Shogun":        {"blue", "#ff0000"},
		"Severance":     {"#469c83", "#ff0000"},
		"The Brutalist": {"red", "#0d5a3e"},
		"Random Access Memories (10th Anniversary)": {"gray", "#797979"},
	}
	for _, c := range cal {
		w := want[c["title"].(string)]
		if c["backgroundColor"] != w[0] || c["borderColor"] != w[1] {
			t.Errorf("calendar %v colours %v/%v, want %v", c["title"], c["backgroundColor"], c["borderColor"], w)
		}
		if ep, _ := c["extraParams"].([]any); len(ep) != 1 {
			t.Errorf("calendar %v extraParams = %v", c["title"], c["extraParams"])
		}
	}
}

func TestLibraryLandingAndCustomPage(t *testing.T) {
	s := newTestServer(t, Options{})
	var landing map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/LandingPage"}).json(t, &landing)
	if landing["totalServers"].(float64) != 3 || landing["fullyAvailable"] != true {
		t.Fatalf("landing = %v", landing)
	}
	var page map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/CustomPage"}).json(t, &page)
	if page["title"] != "House rules" {
		t.Fatalf("custom page = %v", page)
	}
	s.store.Write(func(st *store) {
		a := st.Users.ByName("power")
		a.Roles = append(a.Roles, "EditCustomPage")
	})
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/CustomPage", header: actingAs("power"),
		body: `{"title":"New rules","html":"<p>hi</p>","fontAwesomeIcon":"fa-star"}`}), http.StatusOK)
	do(t, s, call{method: "GET", path: "/api/v1/CustomPage"}).json(t, &page)
	if page["title"] != "New rules" || page["id"].(float64) != 34 {
		t.Fatalf("custom page after save = %v", page)
	}
}

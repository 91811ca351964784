package mockombi

import (
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

func TestSearch_reference(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	var genres []state.IDName
	getJSON(t, s, call{method: "GET", path: "/api/v2/search/Genres/movie", header: h}, &genres)
	if len(genres) != 19 || genres[0] != (state.IDName{ID: 28, Name: "Action"}) {
		t.Errorf("movie genres = %v", genres)
	}
	getJSON(t, s, call{method: "GET", path: "/api/v2/search/Genres/tv", header: h}, &genres)
	if len(genres) != 16 {
		t.Errorf("tv genres = %d", len(genres))
	}
	var countries []string
	getJSON(t, s, call{method: "GET", path: "/api/v1/Identity/streamingcountry", header: h}, &countries)
	// the 45 properties of TMDB WatchProviders.Results
	if len(countries) != 45 || countries[0] != "AR" || countries[44] != "ZA" {
		t.Errorf("countries = %v", countries)
	}
	var langs []map[string]string
	getJSON(t, s, call{method: "GET", path: "/api/v2/Search/Languages", header: h}, &langs)
	if len(langs) < 20 || langs[5]["name"] != "日本語" {
		t.Errorf("languages = %v", langs[:6])
	}
}

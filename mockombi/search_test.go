package mockombi

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

func TestSearch_lists(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	tests := []struct {
		name   string
		c      call
		check  func(t *testing.T, got []map[string]any)
		minLen int
	}{
		{"v1 movie text search", call{method: "GET", path: "/api/v1/Search/movie/matrix"}, func(t *testing.T, got []map[string]any) {
			first := got[0]
			if first["id"] != float64(603) || first["theMovieDbId"] != "603" || first["type"] != float64(1) || first["imdbId"] != nil {
				t.Errorf("first = id %v tmdb %v type %v imdb %v", first["id"], first["theMovieDbId"], first["type"], first["imdbId"])
			}
			if first["requested"] != true || first["available"] != true || first["requestId"] != float64(1) || first["plexUrl"] == nil {
				t.Errorf("request overlay missing: %v", first)
			}
			if first["spokenLanguages"] == nil || first["plexRatingKey"] == nil {
				t.Errorf("undocumented fields missing")
			}
		}, 3},
		{"v1 movie search no hit", call{method: "GET", path: "/api/v1/Search/movie/zzzz"}, nil, 0},
		{"v1 refine with year", call{method: "POST", path: "/api/v1/Search/movie", body: `{"searchTerm":"matrix","year":2003,"languageCode":"en"}`}, func(t *testing.T, got []map[string]any) {
			for _, m := range got {
				if !strings.HasPrefix(m["releaseDate"].(string), "2003") {
					t.Errorf("year filter let %v through", m["title"])
				}
			}
		}, 2},
		{"v1 actor", call{method: "POST", path: "/api/v1/Search/movie/actor", body: `{"searchTerm":"keanu"}`}, func(t *testing.T, got []map[string]any) {
			if got[0]["title"] != "The Matrix" {
				t.Errorf("first = %v", got[0]["title"])
			}
		}, 3},
		{"v1 similar", call{method: "POST", path: "/api/v1/Search/movie/similar", body: `{"theMovieDbId":603}`}, nil, 1},
		{"v1 similar GET", call{method: "GET", path: "/api/v1/Search/movie/603/similar"}, nil, 1},
		{"v1 popular", call{method: "GET", path: "/api/v1/Search/movie/popular"}, nil, 5},
		{"v1 tv search keeps TVDB in theMovieDbId", call{method: "GET", path: "/api/v1/Search/tv/breaking"}, func(t *testing.T, got []map[string]any) {
			if got[0]["id"] != float64(81189) || got[0]["theMovieDbId"] != "81189" || got[0]["theTvDbId"] != nil || got[0]["seriesId"] != float64(169) {
				t.Errorf("ids = %v %v %v %v", got[0]["id"], got[0]["theMovieDbId"], got[0]["theTvDbId"], got[0]["seriesId"])
			}
			if got[0]["requested"] != true || got[0]["network"] != "AMC" {
				t.Errorf("tv result %v", got[0])
			}
		}, 1},
		{"v1 tv trending", call{method: "GET", path: "/api/v1/Search/tv/trending"}, nil, 3},
		{"v1 artist (forignArtistId typo)", call{method: "GET", path: "/api/v1/Search/music/artist/radio"}, func(t *testing.T, got []map[string]any) {
			if got[0]["forignArtistId"] != "a74b1b7f-71a5-4011-9441-d0b5e4122711" {
				t.Errorf("artist = %v", got[0])
			}
		}, 1},
		{"v1 album", call{method: "GET", path: "/api/v1/Search/music/album/computer"}, func(t *testing.T, got []map[string]any) {
			if got[0]["requested"] != true || got[0]["type"] != float64(2) {
				t.Errorf("album = %v", got[0])
			}
		}, 1},
		{"v1 artist albums", call{method: "GET", path: "/api/v1/Search/music/artist/album/056e4f3e-d505-4dad-8ec1-d04f521cbb56"}, nil, 2},
		{"v2 movie browse window", call{method: "GET", path: "/api/v2/search/Movie/popular/2/3"}, nil, 3},
		{"v2 movie browse past the end", call{method: "GET", path: "/api/v2/Search/movie/popular/500/20"}, nil, 0},
		{"v2 requested movies", call{method: "GET", path: "/api/v2/Search/movie/requested/0/100"}, nil, 10},
		{"v2 tv browse uses TMDB ids", call{method: "GET", path: "/api/v2/search/Tv/popular/0/20"}, func(t *testing.T, got []map[string]any) {
			for _, v := range got {
				if v["theMovieDbId"] != itoa(int(v["id"].(float64))) {
					t.Errorf("v2 browse ids %v/%v", v["id"], v["theMovieDbId"])
				}
			}
		}, 3},
		{"v2 tv requested", call{method: "GET", path: "/api/v2/Search/tv/requested/0/10"}, func(t *testing.T, got []map[string]any) {
			if got[0]["seasonRequests"] == nil || got[0]["requested"] != true {
				t.Errorf("requested tv = %v", got[0])
			}
		}, 5},
		{"v2 advanced search", call{method: "POST", path: "/api/v2/Search/advancedSearch/movie/0/50", body: `{"type":"movie","decade":1990,"genreIds":[878],"keywordIds":[],"watchProviders":[]}`}, func(t *testing.T, got []map[string]any) {
			for _, m := range got {
				d := m["releaseDate"].(string)
				if d < "1990" || d >= "2000" {
					t.Errorf("%v out of decade", m["title"])
				}
			}
		}, 3},
		{"v2 multi", call{method: "POST", path: "/api/v2/Search/multi/the", body: `{"movies":true,"tvShows":true,"music":true,"people":false}`}, func(t *testing.T, got []map[string]any) {
			types := map[string]bool{}
			for _, m := range got {
				types[m["mediaType"].(string)] = true
				if _, ok := m["id"].(string); !ok {
					t.Errorf("multi id not a string: %v", m["id"])
				}
			}
			if !types["movie"] || !types["tv"] || !types["Artist"] || types["person"] {
				t.Errorf("media types = %v", types)
			}
			if got[0]["mediaType"] != "Artist" || got[0]["poster"] != nil {
				t.Errorf("artists must come first without a poster: %v", got[0])
			}
			for _, m := range got {
				title := m["title"].(string)
				if hasYear := strings.HasSuffix(title, ")"); hasYear != (m["mediaType"] == "movie") {
					t.Errorf("%s title %q: only movies get a year", m["mediaType"], title)
				}
			}
		}, 5},
		{"v2 multi all false", call{method: "POST", path: "/api/v2/Search/multi/the", body: `{"movies":false,"tvShows":false,"music":false,"people":false}`}, nil, 0},
		{"v2 multi people", call{method: "POST", path: "/api/v2/Search/multi/nolan", body: `{"movies":false,"tvShows":false,"music":false,"people":true}`}, func(t *testing.T, got []map[string]any) {
			if got[0]["mediaType"] != "person" || got[0]["title"] != "Christopher Nolan" {
				t.Errorf("people = %v", got)
			}
		}, 1},
		{"stream", call{method: "GET", path: "/api/v2/Search/stream/movie/603"}, func(t *testing.T, got []map[string]any) {
			if got[0]["streamingProvider"] == nil || got[0]["order"] == nil {
				t.Errorf("stream = %v", got)
			}
		}, 1},
		{"keywords", call{method: "GET", path: "/api/v1/TheMovieDb/Keywords?searchTerm=space"}, nil, 3},
		{"watch providers", call{method: "GET", path: "/api/v1/TheMovieDb/WatchProviders/tv?searchTerm=net"}, func(t *testing.T, got []map[string]any) {
			if got[0]["provider_name"] != "Netflix" {
				t.Errorf("providers = %v", got)
			}
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.c.header = h
			var got []map[string]any
			getJSON(t, s, tt.c, &got)
			if got == nil || len(got) < tt.minLen || (tt.minLen == 0 && len(got) != 0) {
				t.Fatalf("got %d results (nil=%v), want at least %d", len(got), got == nil, tt.minLen)
			}
			if tt.check != nil && len(got) > 0 {
				tt.check(t, got)
			}
		})
	}
}

func TestSearch_details(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	tests := []struct {
		name  string
		path  string
		check func(t *testing.T, got map[string]any)
	}{
		{"v2 movie by TMDB", "/api/v2/search/Movie/27205", func(t *testing.T, got map[string]any) {
			if got["imdbId"] != "tt1375666" || got["requested"] != true || got["approved"] != true {
				t.Errorf("details = %v %v %v", got["imdbId"], got["requested"], got["approved"])
			}
			credits := got["credits"].(map[string]any)
			if len(credits["crew"].([]any)) == 0 || got["externalIds"].(map[string]any)["imdbId"] != "tt1375666" {
				t.Errorf("credits/externalIds = %v", credits)
			}
		}},
		{"v2 movie by IMDb", "/api/v2/Search/movie/imdb/TT0133093", func(t *testing.T, got map[string]any) {
			coll := got["belongsToCollection"].(map[string]any)
			if got["id"] != float64(603) || coll["id"] != float64(2344) {
				t.Errorf("imdb details id %v collection %v", got["id"], coll)
			}
		}},
		{"v2 movie by request", "/api/v2/Search/movie/request/2", func(t *testing.T, got map[string]any) {
			if got["id"] != float64(27205) {
				t.Errorf("id = %v", got["id"])
			}
		}},
		{"v2 unknown movie is the empty view", "/api/v2/Search/movie/99999999", func(t *testing.T, got map[string]any) {
			if got["id"] != float64(0) || got["title"] != nil {
				t.Errorf("unknown = %v", got)
			}
		}},
		{"v1 movie info", "/api/v1/Search/movie/info/603", func(t *testing.T, got map[string]any) {
			if got["imdbId"] != "tt0133093" || got["releaseDates"] == nil {
				t.Errorf("info = %v", got)
			}
		}},
		{"v2 tv by TMDB with episode flags", "/api/v2/search/Tv/moviedb/1396", func(t *testing.T, got map[string]any) {
			seasons := got["seasonRequests"].([]any)
			s1 := seasons[0].(map[string]any)
			ep := s1["episodes"].([]any)[0].(map[string]any)
			if len(seasons) != 5 || ep["available"] != true || ep["requestStatus"] != "Common.Available" || s1["seasonAvailable"] != true {
				t.Errorf("seasons %d ep %v", len(seasons), ep)
			}
			s4 := seasons[3].(map[string]any)
			if s4["episodes"].([]any)[0].(map[string]any)["requested"] != false {
				t.Errorf("season 4 shown as requested")
			}
			if got["requested"] != true || got["partlyAvailable"] != true || got["network"].(map[string]any)["name"] != "AMC" {
				t.Errorf("flags %v %v", got["requested"], got["partlyAvailable"])
			}
		}},
		{"v2 tv/{id} is a TMDB alias", "/api/v2/Search/tv/1396", func(t *testing.T, got map[string]any) {
			if got["title"] != "Breaking Bad" {
				t.Errorf("title = %v", got["title"])
			}
		}},
		{"v2 tv by parent request", "/api/v2/Search/tv/request/2", func(t *testing.T, got map[string]any) {
			if got["title"] != "Severance" {
				t.Errorf("title = %v", got["title"])
			}
		}},
		{"v1 tv info: TVDB in theMovieDbId, flags not set", "/api/v1/Search/tv/info/81189", func(t *testing.T, got map[string]any) {
			if got["theMovieDbId"] != "81189" || got["requested"] != false || got["rating"] != "Ombi.Api.TvMaze.Models.Rating" {
				t.Errorf("tv info = %v %v %v", got["theMovieDbId"], got["requested"], got["rating"])
			}
			ep := got["seasonRequests"].([]any)[0].(map[string]any)["episodes"].([]any)[0].(map[string]any)
			if ep["requested"] != false || ep["title"] != "Pilot" || ep["airDateDisplay"] != "01/20/2008 00:00:00" {
				t.Errorf("episode = %v", ep)
			}
		}},
		{"collection", "/api/v2/Search/movie/collection/2344", func(t *testing.T, got map[string]any) {
			parts := got["collection"].([]any)
			if got["name"] != "The Matrix Collection" || len(parts) != 3 || parts[0].(map[string]any)["title"] != "The Matrix" {
				t.Errorf("collection = %v", got)
			}
		}},
		{"actor movie credits are snake_case", "/api/v2/Search/actor/6384/movie", func(t *testing.T, got map[string]any) {
			cast := got["cast"].([]any)
			if got["id"] != float64(6384) || len(cast) != 3 || cast[0].(map[string]any)["release_date"] == nil {
				t.Errorf("credits = %v", got)
			}
		}},
		{"actor tv credits", "/api/v2/Search/actor/17419/tv", func(t *testing.T, got map[string]any) {
			if len(got["cast"].([]any)) != 2 {
				t.Errorf("credits = %v", got)
			}
		}},
		{"artist", "/api/v2/Search/artist/a74b1b7f-71a5-4011-9441-d0b5e4122711", func(t *testing.T, got map[string]any) {
			if got["name"] != "Radiohead" || len(got["releaseGroups"].([]any)) != 3 {
				t.Errorf("artist = %v", got)
			}
		}},
		{"artist by album request", "/api/v2/Search/artist/request/2", func(t *testing.T, got map[string]any) {
			if got["name"] != "Daft Punk" {
				t.Errorf("artist = %v", got["name"])
			}
		}},
		{"release group", "/api/v2/Search/artist/album/b1392450-e666-3926-a536-22c65f834433", func(t *testing.T, got map[string]any) {
			if got["title"] != "OK Computer" {
				t.Errorf("release group = %v", got)
			}
		}},
		{"album art", "/api/v2/Search/releasegroupart/b1392450-e666-3926-a536-22c65f834433", func(t *testing.T, got map[string]any) {
			if !strings.HasPrefix(got["image"].(string), "https://coverartarchive.org/") {
				t.Errorf("art = %v", got)
			}
		}},
		{"movie ratings", "/api/v2/Search/ratings/movie/the%20matrix/1999", func(t *testing.T, got map[string]any) {
			if _, ok := got["critics_score"].(float64); !ok || got["audience_rating"] == nil {
				t.Errorf("ratings = %v", got)
			}
		}},
		{"tv ratings", "/api/v2/Search/ratings/tv/Breaking%20Bad/2008", func(t *testing.T, got map[string]any) {
			if got["class"] == nil || got["score"] == nil {
				t.Errorf("ratings = %v", got)
			}
		}},
		{"keyword", "/api/v1/TheMovieDb/Keywords/9715", func(t *testing.T, got map[string]any) {
			if got["name"] != "superhero" {
				t.Errorf("keyword = %v", got)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got map[string]any
			getJSON(t, s, call{method: "GET", path: tt.path, header: h}, &got)
			tt.check(t, got)
		})
	}
}

func TestSearch_edgeStatuses(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	tests := []struct {
		name string
		c    call
		want int
	}{
		{"v1 tv info unknown → 204", call{method: "GET", path: "/api/v1/Search/tv/info/1"}, 204},
		{"v2 tv unknown → 204", call{method: "GET", path: "/api/v2/Search/tv/moviedb/1"}, 204},
		{"v2 tv non-int id → 400", call{method: "GET", path: "/api/v2/Search/tv/moviedb/abc"}, 400},
		{"browse non-int → 400", call{method: "GET", path: "/api/v2/Search/movie/popular/x/20"}, 400},
		{"movie by unknown request → 500", call{method: "GET", path: "/api/v2/Search/movie/request/999"}, 500},
		{"ratings unknown title → 204", call{method: "GET", path: "/api/v2/Search/ratings/movie/nothing/1999"}, 204},
		{"keyword unknown → 404", call{method: "GET", path: "/api/v1/TheMovieDb/Keywords/1"}, 404},
		{"multi without body → 400", call{method: "POST", path: "/api/v2/Search/multi/x"}, 400},
		{"refine without body → 400", call{method: "POST", path: "/api/v1/Search/movie/actor"}, 400},
		{"anonymous search → 401", call{method: "GET", path: "/api/v1/Search/movie/x", header: map[string]string{}}, 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.c.header == nil {
				tt.c.header = h
			}
			if res := do(t, s, tt.c); res.status != tt.want {
				t.Fatalf("= %d %s, want %d", res.status, res.body, tt.want)
			}
		})
	}
}

func TestSearch_quirks(t *testing.T) {
	tests := []struct {
		name  string
		quirk string
		on    bool
		path  string
		check func(t *testing.T, res result)
	}{
		{"ratings 500 like Rotten Tomatoes gone", QuirkRatingsRottenTomatoes, true, "/api/v2/Search/ratings/movie/The%20Matrix/1999", func(t *testing.T, res result) {
			if res.status != 500 || !strings.Contains(string(res.body), `"error":"Response status code does not indicate success: 404 (Not Found)."`) {
				t.Errorf("= %d %s", res.status, res.body)
			}
		}},
		{"tv ratings too", QuirkRatingsRottenTomatoes, true, "/api/v2/Search/ratings/tv/Breaking%20Bad/2008", func(t *testing.T, res result) {
			if res.status != 500 {
				t.Errorf("= %d", res.status)
			}
		}},
		{"mojibake languages", QuirkLanguageMojibake, true, "/api/v2/Search/Languages", func(t *testing.T, res result) {
			var langs []map[string]string
			res.json(t, &langs)
			bad, clean := 0, 0
			for _, l := range langs {
				switch {
				case strings.Trim(l["name"], "?") == "" || strings.Contains(l["name"], "\uFFFD"):
					bad++
				case l["english_name"] != "":
					clean++
				}
			}
			if bad < 5 || langs[0]["name"] != "English" {
				t.Errorf("mojibake names = %d, first %v", bad, langs[0])
			}
		}},
		{"v1 tv ids without the quirk", QuirkV1TVTVDBInMovieDBID, false, "/api/v1/Search/tv/breaking", func(t *testing.T, res result) {
			var got []map[string]any
			res.json(t, &got)
			if got[0]["theMovieDbId"] != "1396" || got[0]["theTvDbId"] != "81189" || got[0]["id"] != float64(81189) {
				t.Errorf("ids = %v %v %v", got[0]["id"], got[0]["theMovieDbId"], got[0]["theTvDbId"])
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, Options{})
			if err := s.SetQuirk(tt.quirk, tt.on); err != nil {
				t.Fatal(err)
			}
			tt.check(t, do(t, s, call{method: "GET", path: tt.path, header: apiKey()}))
		})
	}
}

func TestSearch_undocumentedFieldsEverywhere(t *testing.T) {
	s := newTestServer(t, Options{})
	paths := map[string]string{
		"/api/v1/Search/movie/inception":     "plexRatingKey",
		"/api/v1/Search/tv/severance":        "contentRatings",
		"/api/v1/Search/music/album/rainbow": "barcode",
		"/api/v1/Search/music/artist/daft":   "aliases",
	}
	for p, field := range paths {
		var got []map[string]any
		getJSON(t, s, call{method: "GET", path: p, header: apiKey()}, &got)
		if len(got) == 0 {
			t.Fatalf("%s: no results", p)
		}
		raw, _ := json.Marshal(got[0])
		if !strings.Contains(string(raw), `"`+field+`"`) {
			t.Errorf("%s: undocumented field %q missing in %s", p, field, truncate(string(raw), 200))
		}
	}
}

// TestSearch_actorCreditsModel models ActorCredits
// (src/Ombi.Api.External/ExternalApis/TheMovieDb/Models/ActorCredits.cs): the
// actor routes return TMDB's credits deserialised into Cast/Crew, so TV
// credits (TMDB's name, first_air_date) come back with title,
// original_title and release_date null, and neither form carries keys the
// model lacks (name, first_air_date, episode_count, order).
func TestSearch_actorCreditsModel(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	var tv, movie struct {
		Cast []map[string]any `json:"cast"`
		Crew []map[string]any `json:"crew"`
		ID   int              `json:"id"`
	}
	getJSON(t, s, call{method: "GET", path: "/api/v2/Search/actor/17419/tv", header: h}, &tv)
	if len(tv.Cast) == 0 || tv.ID != 17419 {
		t.Fatalf("tv credits = %+v", tv)
	}
	for _, c := range tv.Cast {
		for _, k := range []string{"title", "original_title", "release_date"} {
			if v, has := c[k]; !has || v != nil {
				t.Errorf("tv credit %v: %s = %v (present %v), want null", c["id"], k, v, has)
			}
		}
		for _, k := range []string{"name", "original_name", "first_air_date", "episode_count", "origin_country"} {
			if _, has := c[k]; has {
				t.Errorf("tv credit %v carries %s, which ActorCredits.Cast has no property for", c["id"], k)
			}
		}
		if c["character"] == nil || c["poster_path"] == nil || c["video"] != false {
			t.Errorf("tv credit %v = %v", c["id"], c)
		}
	}
	getJSON(t, s, call{method: "GET", path: "/api/v2/Search/actor/6384/movie", header: h}, &movie)
	if len(movie.Cast) == 0 {
		t.Fatalf("movie credits = %+v", movie)
	}
	for _, c := range movie.Cast {
		if _, has := c["order"]; has || c["title"] == nil || c["release_date"] == nil {
			t.Errorf("movie credit %v = %v, want title and release_date, no order", c["id"], c)
		}
	}
}

// TestSearch_artistInformationModel models ArtistInformation, BandMember,
// ArtistLinks and ReleaseGroup (src/Ombi.Core/Models/Search/V2/Music/) as
// MusicSearchEngineV2.GetArtistInformation and GetAlbum fill them: a
// release group is a SearchViewModel with type RequestType.Album (2) and the
// MusicBrainz primary type as releaseType, and ExistingRule
// (src/Ombi.Core/Rule/Rules/Search/ExistingRule.cs) sets requested,
// requestId, approved and available from the album request; members carry
// isCurrentMember; links is the ArtistLinks object.
func TestSearch_artistInformationModel(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	var a map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v2/Search/artist/a74b1b7f-71a5-4011-9441-d0b5e4122711", header: h}, &a)
	groups, _ := a["releaseGroups"].([]any)
	if len(groups) != 3 {
		t.Fatalf("releaseGroups = %v", a["releaseGroups"])
	}
	var okComputer map[string]any
	for _, g := range groups {
		rg := g.(map[string]any)
		if rg["type"] != float64(2) || rg["releaseType"] != "Album" {
			t.Errorf("release group %v: type %v releaseType %v, want 2 and \"Album\"", rg["title"], rg["type"], rg["releaseType"])
		}
		for _, k := range []string{"requested", "requestId", "approved", "available", "monitored", "percentOfTracks", "partiallyAvailable", "fullyAvailable", "subscribed", "showSubscribe"} {
			if _, has := rg[k]; !has {
				t.Errorf("release group %v lacks %s", rg["title"], k)
			}
		}
		if rg["id"] == "b1392450-e666-3926-a536-22c65f834433" {
			okComputer = rg
		}
	}
	if okComputer == nil || okComputer["requested"] != true || okComputer["requestId"] != float64(1) || okComputer["available"] != true {
		t.Errorf("OK Computer (album request 1, available) = %v", okComputer)
	}
	members, _ := a["members"].([]any)
	if len(members) == 0 {
		t.Fatalf("members = %v", a["members"])
	}
	for _, m := range members {
		mm := m.(map[string]any)
		if _, has := mm["isActive"]; has || mm["isCurrentMember"] != true {
			t.Errorf("member %v, want isCurrentMember (not isActive)", mm)
		}
	}
	links, ok := a["links"].(map[string]any)
	if !ok || len(links) != len(artistLinkFields(&state.ArtistLinks{})) {
		t.Errorf("links = %v, want the ArtistLinks object", a["links"])
	}
	if a["endYear"] != "" || a["isEnded"] != true || a["type"] != "Group" {
		t.Errorf("endYear %v isEnded %v type %v", a["endYear"], a["isEnded"], a["type"])
	}
	var rg map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v2/Search/artist/album/b1392450-e666-3926-a536-22c65f834433", header: h}, &rg)
	if rg["type"] != float64(2) || rg["releaseType"] != "Album" || rg["requested"] != true || rg["id"] != "b1392450-e666-3926-a536-22c65f834433" {
		t.Errorf("GET artist/album = %v, want the same ReleaseGroup", rg)
	}
}

// TestSearch_tvRatingIsVoteAverage models the TV rating mappings
// (src/Ombi.Mapping/Profiles/TvProfile.cs and TvProfileV2.cs): rating is
// TMDB's vote_average (a float) as a string, so the details page's
// rating * 10 is a percentage; v1 search maps TVMaze's relevance score
// instead. SiteRating is never assigned in v4.59.3 (always 0).
func TestSearch_tvRatingIsVoteAverage(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	var details map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v2/Search/tv/moviedb/1396", header: h}, &details)
	if details["rating"] != "8.2" || details["siteRating"] != float64(0) {
		t.Errorf("Breaking Bad details: rating %v siteRating %v, want \"8.2\" and 0", details["rating"], details["siteRating"])
	}
	var browse []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v2/Search/tv/popular/0/20", header: h}, &browse)
	for _, sh := range browse {
		r, _ := sh["rating"].(string)
		if v, err := strconv.ParseFloat(r, 64); err != nil || v < 0 || v > 10 {
			t.Errorf("%v: rating %q is not a 0-10 vote average", sh["title"], r)
		}
	}
	var v1 []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Search/tv/Breaking%20Bad", header: h}, &v1)
	if len(v1) == 0 || v1[0]["rating"] != "1" {
		t.Errorf("v1 search: rating = %v, want TVMaze's score for an exact match", v1)
	}
}

// TestSearch_tvImagePaths models the two TV models: SearchTvShowViewModel
// (src/Ombi.Core/Models/Search/SearchTvShowViewModel.cs, the v1 search and
// the v2 browse lists) carries TMDB's posterPath and backdropPath;
// SearchFullInfoTvShowViewModel (.../Search/V2/SearchFullInfoTvShowViewModel.cs,
// the v2 details and recently requested) has neither, only banner and images.
func TestSearch_tvImagePaths(t *testing.T) {
	s := newTestServer(t, Options{})
	h := asUser(t, s)
	var details map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v2/Search/tv/moviedb/1396", header: h}, &details)
	var requested []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v2/Search/tv/requested/0/5", header: h}, &requested)
	for _, v := range append(requested, details) {
		for _, k := range []string{"posterPath", "backdropPath"} {
			if _, has := v[k]; has {
				t.Errorf("%v: v2 TV details carry %s", v["title"], k)
			}
		}
		if _, has := v["banner"]; !has {
			t.Errorf("%v: v2 TV details lack banner", v["title"])
		}
	}
	var browse []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v2/Search/tv/popular/0/20", header: h}, &browse)
	for _, v := range browse {
		if p, _ := v["posterPath"].(string); p == "" || v["backdropPath"] == nil {
			t.Errorf("%v: browse list posterPath %v backdropPath %v", v["title"], v["posterPath"], v["backdropPath"])
		}
	}
}

// TestSearch_movieList4KFields models SearchMovieViewModel
// (src/Ombi.Core/Models/Search/SearchMovieViewModel.cs), whose 4K properties
// every list result carries at their defaults, and ExistingRule, which
// copies a request's 4K state, sets requested only for a non-4K request
// date, denied as Denied ?? false, and never copies the request's root or
// quality override.
func TestSearch_movieList4KFields(t *testing.T) {
	s := newTestServer(t, Options{})
	var list []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v2/Search/movie/popular/0/50", header: asUser(t, s)}, &list)
	if len(list) == 0 {
		t.Fatal("no popular movies")
	}
	keys := []string{"has4KRequest", "approved4K", "markedAsApproved4K", "requestedDate4k", "available4K", "markedAsAvailable4K", "denied4K", "markedAsDenied4K", "deniedReason4K"}
	for _, m := range list {
		for _, k := range keys {
			if _, has := m[k]; !has {
				t.Errorf("%v lacks %s", m["title"], k)
			}
		}
		if m["requested"] == true && m["denied"] == nil {
			t.Errorf("%v: requested with denied null, want Denied ?? false", m["title"])
		}
		if m["rootPathOverride"] != float64(0) || m["qualityOverride"] != float64(0) {
			t.Errorf("%v: overrides %v/%v copied from the request", m["title"], m["rootPathOverride"], m["qualityOverride"])
		}
	}
}

// TestSearch_seasonBackReferencesNull models TvSearchEngineV2
// (src/Ombi.Core/Engine/V2/TvSearchEngineV2.cs), which builds the episode
// tree with new SeasonRequests/EpisodeRequests: their childRequest and
// season navigations are serialised as null, not left out.
func TestSearch_seasonBackReferencesNull(t *testing.T) {
	s := newTestServer(t, Options{})
	var details map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v2/Search/tv/moviedb/1396", header: asUser(t, s)}, &details)
	seasons, _ := details["seasonRequests"].([]any)
	if len(seasons) == 0 {
		t.Fatal("no seasons")
	}
	for _, se := range seasons {
		sm := se.(map[string]any)
		if v, has := sm["childRequest"]; !has || v != nil {
			t.Fatalf("season %v: childRequest %v (present %v), want null", sm["seasonNumber"], v, has)
		}
		for _, e := range sm["episodes"].([]any) {
			if v, has := e.(map[string]any)["season"]; !has || v != nil {
				t.Fatalf("season %v episode: season %v (present %v), want null", sm["seasonNumber"], v, has)
			}
		}
	}
	// request records serialise the same navigations as loaded or looped:
	// a movie request's issues are not included (null)
	var mr map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/movie/info/1", header: asAdmin(t, s)}, &mr)
	if v, has := mr["issues"]; !has || v != nil {
		t.Errorf("movie request issues = %v (present %v), want null: MovieRequestRepository does not include them", v, has)
	}
}

// TestSearch_artistLinks: a relation fills the ArtistLinks property of its
// name, compared ignoring case, with http made https; a relation without a
// URL fills nothing and a later one of the same name wins.
func TestSearch_artistLinks(t *testing.T) {
	tests := []struct {
		name  string
		links []*state.Link
		want  state.ArtistLinks
	}{
		{"none", nil, state.ArtistLinks{}},
		{"by name ignoring case", []*state.Link{{Name: ref("LastFM"), URL: ref("http://last.fm/x")}, {Name: ref("musicbrainz"), URL: ref("https://mb.example")}},
			state.ArtistLinks{LastFm: ref("https://last.fm/x")}},
		{"later wins, empty url skipped", []*state.Link{{Name: ref("discogs"), URL: ref("https://a.example")}, {Name: ref("Discogs"), URL: ref("https://b.example")},
			{Name: ref("discogs"), URL: ref("")}, nil, {Name: ref("discogs")}},
			state.ArtistLinks{Discogs: ref("https://b.example")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := artistLinks(&db.CatalogArtist{Links: tt.links}); !reflect.DeepEqual(got, tt.want) {
				g, _ := state.Encode(got)
				w, _ := state.Encode(tt.want)
				t.Errorf("artistLinks = %s, want %s", g, w)
			}
		})
	}
}

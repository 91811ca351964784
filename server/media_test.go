package server

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

func decodeWire[T any](t *testing.T, raw string) T {
	t.Helper()
	var w T
	if err := json.Unmarshal([]byte(raw), &w); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return w
}

func ids(pairs ...string) []identifier {
	out := []identifier{}
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, identifier{Namespace: pairs[i], Value: pairs[i+1]})
	}
	return out
}

// TestProjectVideo_namespaces pins the identifier rules of 04-results one by
// one: labels follow the origin route, never the field name.
func TestProjectVideo_namespaces(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		media  string
		origin origin
		want   []identifier
	}{
		{"v1 TVMaze route: theMovieDbId is TVDB, seriesId is TVMaze", `{"id":81189,"theMovieDbId":"81189","seriesId":169,"imdbId":"tt0903747"}`, "tv", originTVMaze,
			ids(nsTVDB, "81189", nsTVMaze, "169", nsIMDB, "tt0903747")},
		{"v2 TMDB route: theMovieDbId is TMDB, seriesId is not TVMaze", `{"id":1396,"theMovieDbId":"1396","seriesId":1396,"theTvDbId":"81189"}`, "tv", originTMDB,
			ids(nsTMDB, "1396", nsTVDB, "81189")},
		{"v2 browse member without theMovieDbId: id labelled TMDB", `{"id":550,"title":"Fight Club"}`, "movie", originTMDB,
			ids(nsTMDB, "550")},
		{"v1 TVMaze member without theMovieDbId: id labelled TVDB", `{"id":81189,"seriesId":169}`, "tv", originTVMaze,
			ids(nsTVDB, "81189", nsTVMaze, "169")},
		{"collection id is not the movie id", `{"id":550,"theMovieDbId":"550","belongsToCollection":{"id":10,"name":"Saga"}}`, "movie", originTMDB,
			ids(nsTMDB, "550")},
		{"same namespace and value never twice", `{"id":81189,"theMovieDbId":"81189","theTvDbId":"81189","seriesId":169}`, "tv", originTVMaze,
			ids(nsTVDB, "81189", nsTVMaze, "169")},
		{"imdb from externalIds", `{"id":550,"externalIds":{"imdbId":"tt0137523"}}`, "movie", originTMDB,
			ids(nsTMDB, "550", nsIMDB, "tt0137523")},
		{"malformed imdb dropped", `{"id":550,"imdbId":"not-an-imdb-id"}`, "movie", originTMDB,
			ids(nsTMDB, "550")},
		{"zero and empty ids omitted", `{"id":0,"theMovieDbId":"0","theTvDbId":"","seriesId":0}`, "tv", originTMDB,
			ids()},
		{"numeric theMovieDbId (request models)", `{"theMovieDbId":603}`, "movie", originTMDB,
			ids(nsTMDB, "603")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := decodeWire[ombi.Media](t, tt.in)
			got := projectVideo(&w, tt.media, tt.origin).Identifiers
			if !slices.Equal(got, tt.want) {
				t.Fatalf("identifiers = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestProjectMulti(t *testing.T) {
	tests := []struct {
		in        string
		wantMedia string
		wantIDs   []identifier
		wantTitle string
		wantYear  int
	}{
		{`{"id":"603","mediaType":"movie","title":"The Matrix (1999)"}`, "movie", ids(nsTMDB, "603"), "The Matrix", 1999},
		{`{"id":"1396","mediaType":"TV","title":"Breaking Bad (2008)"}`, "tv", ids(nsTMDB, "1396"), "Breaking Bad", 2008},
		{`{"id":"f59c5520-5f46-4d2c-b2c4-822eabf53419","mediaType":"Artist","title":"Linkin Park"}`, "artist", ids(nsMusicBrainz, "f59c5520-5f46-4d2c-b2c4-822eabf53419"), "Linkin Park", 0},
		{`{"id":"6384","mediaType":"person","title":"Keanu Reeves"}`, "person", ids(nsTMDB, "6384"), "Keanu Reeves", 0},
		{`{"id":"x1","mediaType":"podcast","title":"Show"}`, "unknown", ids(nsUnknown, "x1"), "Show", 0},
		{`{"id":"7","mediaType":"artist","title":"Band (2001)"}`, "artist", ids(nsMusicBrainz, "7"), "Band (2001)", 0},
	}
	for _, tt := range tests {
		t.Run(tt.wantTitle, func(t *testing.T) {
			w := decodeWire[ombi.Multi](t, tt.in)
			r := projectMulti(&w)
			if r.Media != tt.wantMedia || !slices.Equal(r.Identifiers, tt.wantIDs) || r.Title != tt.wantTitle {
				t.Fatalf("got %+v", r)
			}
			if (tt.wantYear == 0) != (r.Year == nil) || (r.Year != nil && *r.Year != tt.wantYear) {
				t.Fatalf("year = %v, want %d", r.Year, tt.wantYear)
			}
		})
	}
}

// TestProjectVideo_allowlist: undocumented upstream fields never pass and
// missing optional fields stay absent (never false or zero).
func TestProjectVideo_allowlist(t *testing.T) {
	in := `{"id":550,"title":"Fight Club","plexUrl":"http://plex.local/?X-Plex-Token=CANARY1",
		"requestedUser":{"email":"canary2@example.com","userAccessToken":"CANARY3"},
		"undocumented":{"deep":[{"secret":"CANARY4"}]},"quality":"CANARY5"}`
	w := decodeWire[ombi.Media](t, in)
	b, _ := json.Marshal(projectVideo(&w, "movie", originTMDB))
	for _, canary := range []string{"CANARY", "plex", "email", "undocumented"} {
		if strings.Contains(string(b), canary) {
			t.Fatalf("projection carries %q: %s", canary, b)
		}
	}
	for _, absent := range []string{"available", "requested", "year", "genres", "credits", "seasons", "request_targets", "overview"} {
		if strings.Contains(string(b), `"`+absent+`"`) {
			t.Fatalf("missing optional field %q was emitted: %s", absent, b)
		}
	}
	w = decodeWire[ombi.Media](t, `{"id":1,"available":false,"requested":false,"requestId":0}`)
	b, _ = json.Marshal(projectVideo(&w, "movie", originTMDB))
	if !strings.Contains(string(b), `"available":false`) || !strings.Contains(string(b), `"requested":false`) || strings.Contains(string(b), "request_targets") {
		t.Fatalf("present false flags must stay, zero request id must not become a target: %s", b)
	}
}

func TestProjectVideo_requestTargetsAndDetails(t *testing.T) {
	w := decodeWire[ombi.Media](t, `{"id":1396,"requestId":12,"requested":true,"genres":[{"id":18,"name":"Drama"}],
		"cast":[{"person":"Bryan Cranston","character":"Walter White"}],"firstAired":"2008-01-20",
		"seasonRequests":[{"seasonNumber":1,"episodes":[{"episodeNumber":1,"title":"Pilot","available":true}]}]}`)
	r := projectVideo(&w, "tv", originTMDB)
	if len(r.RequestTargets) != 1 || r.RequestTargets[0] != (target{Kind: "tv_parent", ID: 12}) {
		t.Fatalf("request_targets = %v", r.RequestTargets)
	}
	if !slices.Equal(r.Genres, []string{"Drama"}) || len(r.Credits) != 1 || r.Credits[0].Name != "Bryan Cranston" || r.Credits[0].PersonID != 0 {
		t.Fatalf("genres/credits = %v %v", r.Genres, r.Credits)
	}
	if r.Year == nil || *r.Year != 2008 || len(r.Seasons) != 1 || r.Seasons[0].Episodes[0].Title != "Pilot" || r.Seasons[0].Episodes[0].Requested != nil {
		t.Fatalf("year/seasons = %v %+v", r.Year, r.Seasons)
	}
	movie := decodeWire[ombi.Media](t, `{"id":603,"credits":{"cast":[{"id":6384,"name":"Keanu Reeves","character":"Neo"}],"crew":[{"id":9339,"name":"Lana Wachowski","job":"Director","department":"Directing"}]}}`)
	got := projectVideo(&movie, "movie", originTMDB).Credits
	want := []credit{{Name: "Keanu Reeves", PersonID: 6384, Role: "Neo", Department: "Acting"}, {Name: "Lana Wachowski", PersonID: 9339, Role: "Director", Department: "Directing"}}
	if !slices.Equal(got, want) {
		t.Fatalf("credits = %v", got)
	}
}

func TestProjectSeasons_bounded(t *testing.T) {
	var eps []ombi.Episode
	for i := 1; i <= 150; i++ {
		eps = append(eps, ombi.Episode{EpisodeNumber: i})
	}
	got := projectSeasons([]ombi.Season{{SeasonNumber: 1, Episodes: eps}, {SeasonNumber: 2, Episodes: eps[:3]}})
	if len(got[0].Episodes) != maxNested || !got[0].Truncated || got[1].Truncated || len(got[1].Episodes) != 3 {
		t.Fatalf("seasons = %d/%v, %d/%v", len(got[0].Episodes), got[0].Truncated, len(got[1].Episodes), got[1].Truncated)
	}
}

func TestProjectSeasons_keys(t *testing.T) {
	ep := func(ns ...int) []ombi.Episode {
		var out []ombi.Episode
		for _, n := range ns {
			out = append(out, ombi.Episode{EpisodeNumber: n, Title: fmt.Sprint("e", n)})
		}
		return out
	}
	got := projectSeasons([]ombi.Season{{SeasonNumber: 1, Episodes: ep(1, 2, 1)}, {SeasonNumber: 2, Episodes: ep(1)}, {SeasonNumber: 1, Episodes: ep(2, 3)}})
	want := []season{
		{SeasonNumber: 1, Episodes: []episode{{EpisodeNumber: 1, Title: "e1"}, {EpisodeNumber: 2, Title: "e2"}, {EpisodeNumber: 3, Title: "e3"}}},
		{SeasonNumber: 2, Episodes: []episode{{EpisodeNumber: 1, Title: "e1"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("seasons = %+v, want %+v", got, want)
	}
}

func TestProjectMusic(t *testing.T) {
	a := decodeWire[ombi.Artist](t, `{"artistName":"Linkin Park","forignArtistId":"f59c5520","foreignArtistId":"other"}`)
	if r := projectArtist(&a); !slices.Equal(r.Identifiers, ids(nsMusicBrainz, "f59c5520")) || r.Media != "artist" {
		t.Fatalf("artist = %+v", r)
	}
	al := decodeWire[ombi.Album](t, `{"title":"Meteora","foreignAlbumId":"abc","foreignArtistId":"f59c5520","releaseDate":"2003-03-25T00:00:00Z","requestId":4}`)
	r := projectAlbum(&al)
	if !slices.Equal(r.Identifiers, ids(nsMusicBrainz, "abc")) || r.Year == nil || *r.Year != 2003 || r.RequestTargets[0] != (target{Kind: "album", ID: 4}) {
		t.Fatalf("album = %+v", r)
	}
}

func TestOverlayEpisodes(t *testing.T) {
	seasons := []season{{SeasonNumber: 1, Episodes: []episode{{EpisodeNumber: 1}, {EpisodeNumber: 2}}}}
	overlayEpisodes(seasons, []ombi.TVChild{{SeasonRequests: []ombi.Season{{SeasonNumber: 1, Episodes: []ombi.Episode{{EpisodeNumber: 2, Available: ptr(true)}}}}}})
	e1, e2 := seasons[0].Episodes[0], seasons[0].Episodes[1]
	if e1.Requested != nil || e1.Available != nil {
		t.Fatalf("episode 1 = %+v, want untouched", e1)
	}
	if e2.Requested == nil || !*e2.Requested || e2.Available == nil || !*e2.Available {
		t.Fatalf("episode 2 = %+v, want requested and available", e2)
	}
}

func TestReadMedia_branches(t *testing.T) {
	notFound := func(t *testing.T, env map[string]any) {
		if env["ok"] != false || env["error"].(map[string]any)["code"] != codeNotFound {
			t.Fatalf("env = %v", env)
		}
	}
	tests := []branchCase{
		{name: "details movie tmdb", tool: "read_media",
			args:  `{"action":"details","target":{"media":"movie","provider":"tmdb","id":603}}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/movie/603", reply: `{"id":603,"title":"The Matrix","imdbId":"tt0133093","belongsToCollection":{"id":2344},"genres":[{"id":28,"name":"Action"}]}`}},
			check: func(t *testing.T, env map[string]any) {
				wantIDs(t, okItems(t, env)[0], `[{"namespace":"tmdb","value":"603"},{"namespace":"imdb","value":"tt0133093"}]`)
				if pg := page(env); pg["mode"] != "none" || pg["returned"] != 1.0 {
					t.Fatalf("page = %v", pg)
				}
			}},
		{name: "details movie imdb", tool: "read_media",
			args:  `{"action":"details","target":{"media":"movie","provider":"imdb","id":"tt0133093"}}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/movie/imdb/tt0133093", reply: `{"id":603,"title":"The Matrix"}`}}},
		{name: "details tv tmdb uses moviedb route", tool: "read_media",
			args:  `{"action":"details","target":{"media":"tv","provider":"tmdb","id":123}}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/tv/moviedb/123", reply: `{"id":123,"theMovieDbId":"123","seriesId":123,"title":"Show"}`}},
			check: func(t *testing.T, env map[string]any) {
				wantIDs(t, okItems(t, env)[0], `[{"namespace":"tmdb","value":"123"}]`)
			}},
		{name: "details tv tvdb overlays request state from the v1 scan", tool: "read_media",
			args: `{"action":"details","target":{"media":"tv","provider":"tvdb","id":81189}}`,
			wires: []wire{
				{method: "GET", path: "/api/v1/Search/tv/info/81189", reply: `{"id":81189,"theMovieDbId":"81189","seriesId":169,"requested":false,"seasonRequests":[{"seasonNumber":1,"episodes":[{"episodeNumber":1},{"episodeNumber":2}]}]}`},
				{method: "GET", path: "/api/v1/Request/tv", reply: `[{"id":7,"tvDbId":1},{"id":12,"tvDbId":81189,"childRequests":[{"seasonRequests":[{"seasonNumber":1,"episodes":[{"episodeNumber":2,"requested":true,"available":true}]}]}]}]`},
			},
			check: func(t *testing.T, env map[string]any) {
				item := okItems(t, env)[0].(map[string]any)
				wantIDs(t, item, `[{"namespace":"tvdb","value":"81189"},{"namespace":"tvmaze","value":"169"}]`)
				if item["requested"] != true {
					t.Fatalf("item = %v", item)
				}
				sameAs(t, item["request_targets"], `[{"kind":"tv_parent","id":12}]`)
				sameAs(t, item["seasons"], `[{"season_number":1,"episodes":[{"episode_number":1},{"episode_number":2,"requested":true,"available":true}],"truncated":false}]`)
			}},
		{name: "details tv tvdb unrequested after a complete scan", tool: "read_media",
			args: `{"action":"details","target":{"media":"tv","provider":"tvdb","id":81189}}`,
			wires: []wire{
				{method: "GET", path: "/api/v1/Search/tv/info/81189", reply: `{"id":81189,"requested":true}`},
				{method: "GET", path: "/api/v1/Request/tv", reply: `[]`},
			},
			check: func(t *testing.T, env map[string]any) {
				if okItems(t, env)[0].(map[string]any)["requested"] != false {
					t.Fatal("want requested false")
				}
			}},
		{name: "details tv tvdb 204 is NOT_FOUND", tool: "read_media",
			args:  `{"action":"details","target":{"media":"tv","provider":"tvdb","id":5}}`,
			wires: []wire{{method: "GET", path: "/api/v1/Search/tv/info/5", status: 204}},
			check: notFound},
		{name: "details artist", tool: "read_media",
			args:  `{"action":"details","target":{"media":"artist","provider":"musicbrainz","id":"f59c"}}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/artist/f59c", reply: `{"id":"f59c","name":"Linkin Park"}`}}},
		{name: "details album", tool: "read_media",
			args:  `{"action":"details","target":{"media":"album","provider":"musicbrainz","id":"abc"}}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/artist/album/abc", reply: `{"id":"abc","title":"Meteora","releaseDate":"2003-03-25"}`}}},
		{name: "by_request movie", tool: "read_media", args: `{"action":"by_request","media":"movie","request_id":9}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/movie/request/9", reply: `{"id":603}`}}},
		{name: "by_request tv", tool: "read_media", args: `{"action":"by_request","media":"tv","request_id":9}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/tv/request/9", reply: `{"id":1396,"seriesId":1396}`}},
			check: func(t *testing.T, env map[string]any) {
				wantIDs(t, okItems(t, env)[0], `[{"namespace":"tmdb","value":"1396"}]`)
			}},
		{name: "by_request album reads the artist", tool: "read_media", args: `{"action":"by_request","media":"album","request_id":9}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/artist/request/9", reply: `{"id":"f59c","name":"Linkin Park"}`}}},
		{name: "movie_localized", tool: "read_media", args: `{"action":"movie_localized","tmdb_id":603,"language":"fr"}`,
			wires: []wire{{method: "POST", path: "/api/v1/Search/movie/info", body: `{"theMovieDbId":603,"languageCode":"fr"}`, reply: `{"id":603,"title":"Matrix"}`}}},
		{name: "ratings primary", tool: "read_media", args: `{"action":"ratings","media":"movie","title":"The Matrix","year":1999}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/ratings/movie/The%20Matrix/1999", reply: `{"critics_rating":"Certified Fresh","critics_score":88,"audience_rating":"Upright","audience_score":85}`}},
			check: func(t *testing.T, env map[string]any) {
				if r := okItems(t, env)[0].(map[string]any)["ratings"].([]any); len(r) != 4 || len(env["warnings"].([]any)) != 0 {
					t.Fatalf("env = %v", env)
				}
			}},
		{name: "ratings fallback on 404: exact title and year only", tool: "read_media", args: `{"action":"ratings","media":"movie","title":"the matrix","year":1999}`,
			wires: []wire{
				{method: "GET", path: "/api/v2/Search/ratings/movie/the%20matrix/1999", status: 404},
				{method: "GET", path: "/api/v1/Search/movie/the%20matrix", reply: `[{"id":1,"title":"The Matrix Resurrections","releaseDate":"2021-12-22","voteAverage":6.5},{"id":603,"title":"The Matrix","releaseDate":"1999-03-30","voteAverage":8.2,"voteCount":24000}]`},
			},
			check: func(t *testing.T, env map[string]any) {
				item := okItems(t, env)[0].(map[string]any)
				sameAs(t, item["ratings"], `[{"name":"tmdb_vote_average","value":8.2,"category":"tmdb"},{"name":"tmdb_vote_count","value":24000,"category":"tmdb"}]`)
				if len(env["warnings"].([]any)) != 1 {
					t.Fatalf("env = %v", env)
				}
				wantIDs(t, item, `[{"namespace":"tmdb","value":"603"}]`)
			}},
		{name: "ratings tv fallback on 500 labels the TVMaze rating", tool: "read_media", args: `{"action":"ratings","media":"tv","title":"Breaking Bad","year":2008}`,
			wires: []wire{
				{method: "GET", path: "/api/v2/Search/ratings/tv/Breaking%20Bad/2008", status: 500},
				{method: "GET", path: "/api/v1/Search/tv/Breaking%20Bad", reply: `[{"id":81189,"theMovieDbId":"81189","seriesId":169,"title":"Breaking Bad","firstAired":"2008-01-20","siteRating":9}]`},
			},
			check: func(t *testing.T, env map[string]any) {
				item := okItems(t, env)[0].(map[string]any)
				wantIDs(t, item, `[{"namespace":"tvdb","value":"81189"},{"namespace":"tvmaze","value":"169"}]`)
				sameAs(t, item["ratings"], `[{"name":"tvmaze_site_rating","value":9,"category":"tvmaze"}]`)
			}},
		{name: "ratings 500 and no exact match in the fallback keeps the 500", tool: "read_media", args: `{"action":"ratings","media":"movie","title":"Matrix","year":1999}`,
			wires: []wire{
				{method: "GET", path: "/api/v2/Search/ratings/movie/Matrix/1999", status: 500},
				{method: "GET", path: "/api/v1/Search/movie/Matrix", reply: `[{"id":603,"title":"The Matrix","releaseDate":"1999-03-30","voteAverage":8.2}]`},
			},
			check: func(t *testing.T, env map[string]any) {
				e := env["error"].(map[string]any)
				if e["code"] != codeUpstreamRejected || e["retryable"] != true {
					t.Fatalf("a failed ratings route whose fallback found nothing must stay a retryable upstream failure, not an invented 404: %v", e)
				}
			}},
		{name: "ratings fallback without an exact match is NOT_FOUND", tool: "read_media", args: `{"action":"ratings","media":"movie","title":"Matrix","year":1999}`,
			wires: []wire{
				{method: "GET", path: "/api/v2/Search/ratings/movie/Matrix/1999", reply: `{}`},
				{method: "GET", path: "/api/v1/Search/movie/Matrix", reply: `[{"id":603,"title":"The Matrix","releaseDate":"1999-03-30","voteAverage":8.2}]`},
			},
			check: notFound},
		{name: "ratings never fall back on 403", tool: "read_media", args: `{"action":"ratings","media":"movie","title":"Matrix","year":1999}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/ratings/movie/Matrix/1999", status: 403}},
			check: func(t *testing.T, env map[string]any) {
				if env["error"].(map[string]any)["code"] != codeForbidden {
					t.Fatalf("env = %v", env)
				}
			}},
		{name: "streaming tv uses TMDB", tool: "read_media", args: `{"action":"streaming","media":"tv","tmdb_id":1396}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/stream/tv/1396", reply: `[{"order":1,"streamingProvider":"Netflix","logo":"/n.png"},{"order":2,"streamingProvider":"Netflix"}]`}},
			check: func(t *testing.T, env map[string]any) {
				sameAs(t, okItems(t, env)[0].(map[string]any)["providers"], `[{"name":"Netflix"}]`)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

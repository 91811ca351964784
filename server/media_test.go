package server

import (
	"encoding/json"
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

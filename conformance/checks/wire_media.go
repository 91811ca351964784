package checks

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// mediaAreas declares the checks of read_search, read_discover, read_media
// and read_reference in the wire, errors and auth areas, and the write
// replay and credential leak checks that guard every tool.
func (s *Suite) mediaAreas() {
	s.mediaWire()
	s.mediaProjection()
	s.mediaErrors()
	s.mediaAuth()
}

// Seed records the media checks read (TMDB, TVDB, MusicBrainz ids).
const (
	mdArtist = "a74b1b7f-71a5-4011-9441-d0b5e4122711"
	mdAlbum  = "b1392450-e666-3926-a536-22c65f834433"
	mdTerm   = "Alien: Resurrection/2 x" // a space, a colon and a slash in one term
)

// mdWireCases are one call of every branch of the four tools.
func mdWireCases() []mdWire {
	esc := url.PathEscape(mdTerm)
	page := map[string]any{"offset": 0, "limit": 5}
	cases := []mdWire{
		{name: "read_search.text.movie", tool: "read_search", args: map[string]any{"action": "text", "media": "movie", "query": mdTerm, "page": page}, method: "GET", path: "/api/v1/Search/movie/" + esc},
		{name: "read_search.text.tv", tool: "read_search", args: map[string]any{"action": "text", "media": "tv", "query": mdTerm, "page": page}, method: "GET", path: "/api/v1/Search/tv/" + esc},
		{name: "read_search.text.artist", tool: "read_search", args: map[string]any{"action": "text", "media": "artist", "query": mdTerm}, method: "GET", path: "/api/v1/Search/music/artist/" + esc},
		{name: "read_search.text.album", tool: "read_search", args: map[string]any{"action": "text", "media": "album", "query": mdTerm}, method: "GET", path: "/api/v1/Search/music/album/" + esc},
		{name: "read_search.multi", tool: "read_search", args: map[string]any{"action": "multi", "query": mdTerm, "include": []string{"tv_shows", "people"}, "page": page},
			method: "POST", path: "/api/v2/Search/multi/" + esc, body: `{"movies":false,"tvShows":true,"music":false,"people":true}`},
		{name: "read_search.movie_refine", tool: "read_search", args: map[string]any{"action": "movie_refine", "query": "Matrix", "year": 1999, "language": "de"},
			method: "POST", path: "/api/v1/Search/movie", body: `{"searchTerm":"Matrix","year":1999,"languageCode":"de"}`},
		{name: "read_search.actor", tool: "read_search", args: map[string]any{"action": "actor", "query": "Keanu Reeves", "language": "en"},
			method: "POST", path: "/api/v1/Search/movie/actor", body: `{"searchTerm":"Keanu Reeves","languageCode":"en"}`},
		{name: "read_discover.similar", tool: "read_discover", args: map[string]any{"action": "similar", "tmdb_id": 603, "language": "en", "page": page},
			method: "POST", path: "/api/v2/Search/movie/similar", body: `{"theMovieDbId":603,"languageCode":"en"}`},
		{name: "read_discover.collection", tool: "read_discover", args: map[string]any{"action": "collection", "collection_id": 2344, "page": page}, method: "GET", path: "/api/v2/Search/movie/collection/2344"},
		{name: "read_discover.credits.movie", tool: "read_discover", args: map[string]any{"action": "credits", "person_id": 6384, "person_name": "Keanu Reeves", "media": "movie"}, method: "GET", path: "/api/v2/Search/actor/6384/movie"},
		{name: "read_discover.credits.tv", tool: "read_discover", args: map[string]any{"action": "credits", "person_id": 17419, "person_name": "Bryan Cranston", "media": "tv"},
			method: "GET", path: "/api/v2/Search/actor/17419/tv", extra: []string{"/api/v2/Search/tv/moviedb/"}},
		{name: "read_discover.artist_albums", tool: "read_discover", args: map[string]any{"action": "artist_albums", "artist_id": mdArtist}, method: "GET", path: "/api/v1/Search/music/artist/album/" + mdArtist},
		{name: "read_discover.advanced_movie", tool: "read_discover", args: map[string]any{"action": "advanced_movie", "release_year": 1999, "decade": 1990, "genre_ids": []int{28}, "keyword_ids": []int{310}, "watch_provider_ids": []int{8}, "page": map[string]any{"offset": 10, "limit": 5}},
			method: "POST", path: "/api/v2/Search/advancedSearch/movie/10/5", body: `{"type":"movie","releaseYear":1999,"decade":1990,"genreIds":[28],"keywordIds":[310],"watchProviders":[8]}`},
		{name: "read_media.details.movie.tmdb", tool: "read_media", args: mdDetails("movie", "tmdb", 603), method: "GET", path: "/api/v2/Search/movie/603"},
		{name: "read_media.details.movie.imdb", tool: "read_media", args: mdDetails("movie", "imdb", "tt0133093"), method: "GET", path: "/api/v2/Search/movie/imdb/tt0133093"},
		{name: "read_media.details.tv.tmdb", tool: "read_media", args: mdDetails("tv", "tmdb", 1396), method: "GET", path: "/api/v2/Search/tv/moviedb/1396"},
		{name: "read_media.details.tv.tvdb", tool: "read_media", args: mdDetails("tv", "tvdb", 81189), method: "GET", path: "/api/v1/Search/tv/info/81189", extra: []string{"/api/v1/Request/tv"}},
		{name: "read_media.details.artist", tool: "read_media", args: mdDetails("artist", "musicbrainz", mdArtist), method: "GET", path: "/api/v2/Search/artist/" + mdArtist},
		{name: "read_media.details.album", tool: "read_media", args: mdDetails("album", "musicbrainz", mdAlbum), method: "GET", path: "/api/v2/Search/artist/album/" + mdAlbum},
		{name: "read_media.movie_localized", tool: "read_media", args: map[string]any{"action": "movie_localized", "tmdb_id": 603, "language": "fr"},
			method: "POST", path: "/api/v1/Search/movie/info", body: `{"theMovieDbId":603,"languageCode":"fr"}`},
		{name: "read_media.ratings.movie", tool: "read_media", args: map[string]any{"action": "ratings", "media": "movie", "title": "The Matrix", "year": 1999},
			method: "GET", path: "/api/v2/Search/ratings/movie/The%20Matrix/1999", extra: []string{"/api/v1/Search/movie/"}},
		{name: "read_media.ratings.tv", tool: "read_media", args: map[string]any{"action": "ratings", "media": "tv", "title": "Breaking Bad", "year": 2008},
			method: "GET", path: "/api/v2/Search/ratings/tv/Breaking%20Bad/2008", extra: []string{"/api/v1/Search/tv/"}},
		{name: "read_reference.genres.movie", tool: "read_reference", args: map[string]any{"action": "genres", "media": "movie", "page": page}, method: "GET", path: "/api/v2/Search/Genres/movie"},
		{name: "read_reference.genres.tv", tool: "read_reference", args: map[string]any{"action": "genres", "media": "tv"}, method: "GET", path: "/api/v2/Search/Genres/tv"},
		{name: "read_reference.languages", tool: "read_reference", args: map[string]any{"action": "languages", "page": page}, method: "GET", path: "/api/v2/Search/Languages"},
		{name: "read_reference.keywords", tool: "read_reference", args: map[string]any{"action": "keywords", "query": "space travel/x", "page": page},
			method: "GET", path: "/api/v1/TheMovieDb/Keywords", query: url.Values{"searchTerm": {"space travel/x"}}},
		{name: "read_reference.keyword", tool: "read_reference", args: map[string]any{"action": "keyword", "keyword_id": 310}, method: "GET", path: "/api/v1/TheMovieDb/Keywords/310"},
		{name: "read_reference.watch_providers.movie", tool: "read_reference", args: map[string]any{"action": "watch_providers", "media": "movie"}, method: "GET", path: "/api/v1/TheMovieDb/WatchProviders/movie"},
		{name: "read_reference.watch_providers.tv.query", tool: "read_reference", args: map[string]any{"action": "watch_providers", "media": "tv", "query": "Net flix"},
			method: "GET", path: "/api/v1/TheMovieDb/WatchProviders/tv", query: url.Values{"searchTerm": {"Net flix"}}},
		{name: "read_reference.countries", tool: "read_reference", args: map[string]any{"action": "countries"}, method: "GET", path: "/api/v1/Identity/streamingcountry"},
		{name: "read_reference.issue_categories", tool: "read_reference", args: map[string]any{"action": "issue_categories"}, method: "GET", path: "/api/v1/Issues/categories"},
	}
	for _, m := range []struct{ list, seg string }{{"popular", "popular"}, {"now_playing", "nowplaying"}, {"top_rated", "toprated"}, {"upcoming", "upcoming"}, {"seasonal", "seasonal"}, {"requested", "requested"}} {
		cases = append(cases, mdWire{name: "read_discover.browse.movie." + m.list, tool: "read_discover", args: map[string]any{"action": "browse", "media": "movie", "list": m.list},
			method: "GET", path: "/api/v2/Search/movie/" + m.seg + "/0/25"})
	}
	for _, t := range []struct{ list, seg string }{{"popular", "popular"}, {"anticipated", "anticipated"}, {"most_watched", "mostwatched"}, {"trending", "trending"}, {"requested", "requested"}} {
		cases = append(cases, mdWire{name: "read_discover.browse.tv." + t.list, tool: "read_discover", args: map[string]any{"action": "browse", "media": "tv", "list": t.list, "page": map[string]any{"offset": 20, "limit": 10}},
			method: "GET", path: "/api/v2/Search/tv/" + t.seg + "/20/10"})
	}
	for _, r := range []struct{ media, seg string }{{"movie", "movie"}, {"tv", "tv"}, {"album", "artist"}} {
		cases = append(cases, mdWire{name: "read_media.by_request." + r.media, tool: "read_media", args: map[string]any{"action": "by_request", "media": r.media, "request_id": 1},
			method: "GET", path: "/api/v2/Search/" + r.seg + "/request/1"})
	}
	for _, m := range []string{"movie", "tv"} {
		cases = append(cases, mdWire{name: "read_media.streaming." + m, tool: "read_media", args: map[string]any{"action": "streaming", "media": m, "tmdb_id": 1396},
			method: "GET", path: "/api/v2/Search/stream/" + m + "/1396"})
	}
	return cases
}

func mdDetails(media, provider string, id any) map[string]any {
	return map[string]any{"action": "details", "target": map[string]any{"media": media, "provider": provider, "id": id}}
}

func (s *Suite) mediaWire() {
	ginkgo.Describe("wire media", ginkgo.Label("wire", LabelReadOnly, "media"), func() {
		ginkgo.BeforeEach(s.clean)
		for _, tc := range mdWireCases() {
			s.ClauseItFor("VERIFY-ROUTING-LEDGER-001", tc.name, func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, apiKeyConfig())
				o := s.call(ctx, srv, tc.tool, tc.args)
				calls := upstreamCalls(o)
				s.expect(len(calls) > 0, o, "want %s %s upstream, got no call", tc.method, tc.path)
				c := calls[0]
				s.expect(c.Method == tc.method && c.Path == tc.path, o, "want %s %s first (literal spelling, escaping and case), got %s", tc.method, tc.path, callLine(c))
				s.expect(mdQueryEqual(c.Query, tc.query), o, "want query %q (a local page is never forwarded), got %q", tc.query.Encode(), c.Query)
				if tc.body == "" {
					s.expect(len(c.Body) == 0, o, "the route takes no body, got %s", c.Body)
				} else {
					s.expect(sameJSON(c.Body, tc.body), o, "want body %s, got %s\n%s", tc.body, c.Body, bodyDiff([]byte(tc.body), c.Body, "  "))
				}
				for _, x := range calls[1:] {
					allowed := false
					for _, p := range tc.extra {
						allowed = allowed || (x.Method == "GET" && strings.HasPrefix(x.Path, p))
					}
					s.expect(allowed, o, "an upstream call the ledger does not list for %s: %s", tc.name, callLine(x))
				}
				for _, x := range calls {
					s.expect(x.Path != "/api/v2/Search/tv/81189", o, "TVDB details must never use the v2 TMDB route: %s", callLine(x))
				}
			})
		}
	})
}

// mdClip renders tool arguments for a failure message.
func mdClip(args map[string]any) string {
	b, _ := json.Marshal(args)
	return clip(b, 120)
}

// mdOutput is the whole text a result shows a client.
func mdOutput(o *harness.Outcome) string { return string(o.Structured) + "\n" + o.Text }

func (s *Suite) mediaProjection() {
	ginkgo.Describe("wire media projection", ginkgo.Label("wire", LabelReadOnly, "media"), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("RESULTS-PROJECTION-001", "media.undocumented-fields", func(ctx ginkgo.SpecContext) {
			values, err := mdUndocumented()
			if err != nil {
				s.fail(nil, "%v", err)
			}
			s.expect(len(values) > 10, nil, "the seed must carry undocumented fields with distinctive values; found %d", len(values))
			srv := s.shared(ctx, apiKeyConfig())
			var e errs
			for _, tc := range []struct {
				tool string
				args map[string]any
			}{
				{"read_search", map[string]any{"action": "text", "media": "movie", "query": "Matrix"}},
				{"read_search", map[string]any{"action": "text", "media": "tv", "query": "Breaking"}},
				{"read_search", map[string]any{"action": "text", "media": "artist", "query": "Radiohead"}},
				{"read_search", map[string]any{"action": "text", "media": "album", "query": "Computer"}},
				{"read_media", mdDetails("movie", "tmdb", 603)},
				{"read_media", mdDetails("tv", "tmdb", 1396)},
				{"read_media", mdDetails("tv", "tvdb", 81189)},
				{"read_media", mdDetails("artist", "musicbrainz", mdArtist)},
				{"read_media", mdDetails("album", "musicbrainz", mdAlbum)},
				{"read_discover", map[string]any{"action": "collection", "collection_id": 2344}},
				{"read_discover", map[string]any{"action": "browse", "media": "tv", "list": "popular"}},
				{"read_discover", map[string]any{"action": "credits", "person_id": 6384, "person_name": "Keanu Reeves", "media": "movie"}},
				{"read_discover", map[string]any{"action": "artist_albums", "artist_id": mdArtist}},
			} {
				o := s.call(ctx, srv, tc.tool, tc.args)
				s.expect(o.OK(), o, "the read must succeed against the mock")
				out := mdOutput(o)
				for _, v := range values {
					if strings.Contains(out, v) {
						e.addf("%s %s passes through the undocumented upstream value %q", tc.tool, mdClip(tc.args), v)
					}
				}
			}
			s.expectNone(e, "undocumented upstream fields reached the result")
		})

		s.ClauseItFor("RESULTS-PROJECTION-001", "read_search.absent-available", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			s.injectFault(mockombi.Fault{Method: "GET", Path: searchMoviePrefix + "*", Status: 200, Headers: map[string]string{"Content-Type": "application/json"},
				Body: `[{"id":603,"theMovieDbId":603,"title":"The Matrix","overview":"A hacker.","releaseDate":"1999-03-31T00:00:00"}]`})
			o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Matrix"})
			items := s.mdItems(o)
			s.expect(len(items) == 1, o, "want the one upstream record, got %d", len(items))
			for _, k := range []string{"available", "requested", "approved", "denied"} {
				_, has := items[0].Raw[k]
				s.expect(!has, o, "upstream sent no %s; the record must not carry %s (absent, never false)", k, k)
			}
		})

		s.ClauseItFor("RESULTS-PROJECTION-001", "read_search.text.tv.v1-namespaces", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "tv", "query": "Breaking"})
			var raw []map[string]any
			s.mockRaw("GET", "/api/v1/Search/tv/Breaking", &raw)
			items := s.mdItems(o)
			s.liveNeedsData(len(raw) > 0, `show matching the search "Breaking"`)
			s.expect(len(raw) > 0 && len(items) == len(raw), o, "want one result per upstream record (%d), got %d", len(raw), len(items))
			for i, it := range items {
				r := raw[i]
				tvdb, maze := mdText(r["theMovieDbId"]), mdText(r["seriesId"])
				s.expect(len(it.ids("tmdb")) == 0, o, "a v1 TV search record carries no TMDB id; %q got tmdb %v", it.Title, it.ids("tmdb"))
				s.expect(strings.Join(it.ids("tvdb"), ",") == tvdb, o, "%q: want tvdb %s (v1 theMovieDbId), got %v", it.Title, tvdb, it.ids("tvdb"))
				if maze != "" {
					s.expect(strings.Join(it.ids("tvmaze"), ",") == maze, o, "%q: want tvmaze %s (v1 seriesId), got %v", it.Title, maze, it.ids("tvmaze"))
				}
			}
		})

		s.ClauseItFor("RESULTS-PROJECTION-001", "read_media.details.tv.tmdb-namespaces", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			o := s.call(ctx, srv, "read_media", mdDetails("tv", "tmdb", 1396))
			var raw map[string]any
			s.mockRaw("GET", "/api/v2/Search/tv/moviedb/1396", &raw)
			items := s.mdItems(o)
			s.expect(len(items) == 1, o, "details return one record, got %d", len(items))
			it := items[0]
			s.expect(strings.Join(it.ids("tmdb"), ",") == mdText(raw["theMovieDbId"]), o, "want tmdb %v, got %v", raw["theMovieDbId"], it.ids("tmdb"))
			if tv := mdText(raw["theTvDbId"]); tv != "" {
				s.expect(strings.Join(it.ids("tvdb"), ",") == tv, o, "want tvdb %s, got %v", tv, it.ids("tvdb"))
			}
			for _, v := range it.ids("tvmaze") {
				s.expect(v != mdText(raw["seriesId"]), o, "v2 seriesId %v is not a TVmaze id", raw["seriesId"])
			}
		})

		s.ClauseItFor("RESULTS-PROJECTION-001", "read_search.multi.media-type-case", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			s.injectFault(mockombi.Fault{Method: "POST", Path: "/api/v2/Search/multi/*", Status: 200, Headers: map[string]string{"Content-Type": "application/json"},
				Body: `[{"id":"` + mdArtist + `","title":"Radiohead","mediaType":"Artist"},{"id":"603","title":"The Matrix","mediaType":"MOVIE"}]`})
			o := s.call(ctx, srv, "read_search", map[string]any{"action": "multi", "query": "Radiohead", "include": []string{"music", "movies"}})
			items := s.mdItems(o)
			s.expect(len(items) == 2, o, "want both upstream records, got %d", len(items))
			s.expect(items[0].Media == "artist" && strings.Join(items[0].ids("musicbrainz"), ",") == mdArtist, o, "mediaType Artist is an artist with a musicbrainz id, got %+v", items[0])
			s.expect(items[1].Media == "movie" && strings.Join(items[1].ids("tmdb"), ",") == "603", o, "mediaType MOVIE is a movie with a tmdb id, got %+v", items[1])
		})

		s.ClauseItFor("RESULTS-PROJECTION-001", "media.identifiers-unique", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			var e errs
			for _, args := range []map[string]any{mdDetails("movie", "tmdb", 603), mdDetails("tv", "tmdb", 1396), mdDetails("tv", "tvdb", 81189), mdDetails("movie", "imdb", "tt0133093")} {
				o := s.call(ctx, srv, "read_media", args)
				for _, it := range s.mdItems(o) {
					seen := map[mdIdentifier]bool{}
					for _, id := range it.Identifiers {
						if seen[id] {
							e.addf("%s: %q lists %s %s twice", mdClip(args), it.Title, id.Namespace, id.Value)
						}
						seen[id] = true
					}
				}
			}
			s.expectNone(e, "a namespace and value pair appears twice")
		})

		s.ClauseItFor("RESULTS-PROJECTION-001", "read_media.details.movie.collection-id", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			var raw struct {
				ID         int `json:"id"`
				Collection struct {
					ID int `json:"id"`
				} `json:"belongsToCollection"`
			}
			s.mockRaw("GET", "/api/v2/Search/movie/603", &raw)
			s.liveNeedsData(raw.Collection.ID != 0 && raw.Collection.ID != raw.ID, "movie 603 in a collection")
			s.expect(raw.Collection.ID != 0 && raw.Collection.ID != raw.ID, nil, "the seed movie 603 must belong to a collection")
			o := s.call(ctx, srv, "read_media", mdDetails("movie", "tmdb", 603))
			items := s.mdItems(o)
			s.expect(len(items) == 1, o, "details return one record, got %d", len(items))
			s.expect(strings.Join(items[0].ids("tmdb"), ",") == fmt.Sprint(raw.ID), o, "the movie's tmdb id is %d (never the collection %d), got %v", raw.ID, raw.Collection.ID, items[0].ids("tmdb"))
		})
	})
}

package server

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file serves Ombi's Search controllers (v1 and v2): the read_search
// and read_discover handlers (read_media's are in media.go). The client
// methods (one upstream operation each) and wire shapes are in
// internal/ombi/search.go.

// ---- read_search ----

type searchInput struct {
	Action   string   `json:"action"`
	Media    string   `json:"media"`
	Query    string   `json:"query"`
	Include  []string `json:"include"`
	Year     *int     `json:"year"`
	Language string   `json:"language"`
	Page     *pageArg `json:"page"`
}

// readSearch serves read_search: text (one media kind, never fanned out),
// multi, movie_refine and actor. Upstream returns one unpaged result set;
// the window is sliced locally and the total stays unknown.
// Implements S-ROUTING-0098, S-ROUTING-0099, S-ROUTING-0100, S-ROUTING-0101, S-ROUTING-0102, S-ROUTING-0103 (read_search routing).
func readSearch(d *deps) tool {
	return tool{name: "read_search", handle: func(ctx context.Context, c *call) (any, error) {
		var in searchInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		check := nonBlank // movie_refine and actor send the query in a body
		if in.Action == "text" || in.Action == "multi" {
			check = pathText // the query is a path segment
		}
		if err := check("/query", in.Query); err != nil {
			return nil, err
		}
		items, err := d.search(ctx, in)
		if err != nil {
			return nil, err
		}
		window, pg := localPage(items, in.Page, false, unitMedia)
		return newMediaPage(window, pg), nil
	}}
}

func (d *deps) search(ctx context.Context, in searchInput) ([]mediaRecord, error) {
	cl := d.client
	switch in.Action {
	case "text":
		switch in.Media {
		case "movie":
			return videos(cl.SearchMovie(ctx, in.Query))("movie", originTMDB)
		case "tv":
			return videos(cl.SearchTV(ctx, in.Query))("tv", originTVMaze)
		case "artist":
			ws, err := cl.SearchArtist(ctx, in.Query)
			return mapAll(ws, projectArtist), err
		case "album":
			ws, err := cl.SearchAlbum(ctx, in.Query)
			return mapAll(ws, projectAlbum), err
		}
	case "multi":
		var f ombi.MultiFilter
		for _, inc := range in.Include {
			switch inc {
			case "movies":
				f.Movies = true
			case "tv_shows":
				f.TVShows = true
			case "music":
				f.Music = true
			case "people":
				f.People = true
			}
		}
		ws, err := cl.SearchMulti(ctx, in.Query, f)
		return mapAll(ws, projectMulti), err
	case "movie_refine":
		return videos(cl.SearchMovieRefine(ctx, ombi.MovieRefineBody{SearchTerm: in.Query, Year: in.Year, LanguageCode: in.Language}))("movie", originTMDB)
	case "actor":
		return videos(cl.SearchActor(ctx, ombi.ActorBody{SearchTerm: in.Query, LanguageCode: in.Language}))("movie", originTMDB)
	}
	return nil, &unsupportedError{Message: "read_search: unknown branch"}
}

// videos projects a decoded list of movie or TV records once its origin is
// known: videos(client call)(media, origin).
func videos(ws []ombi.Media, err error) func(media string, o origin) ([]mediaRecord, error) {
	return func(media string, o origin) ([]mediaRecord, error) {
		if err != nil {
			return nil, err
		}
		out := make([]mediaRecord, 0, len(ws))
		for i := range ws {
			out = append(out, projectVideo(&ws[i], media, o))
		}
		return out, nil
	}
}

func mapAll[W any](ws []W, f func(*W) mediaRecord) []mediaRecord {
	out := make([]mediaRecord, 0, len(ws))
	for i := range ws {
		out = append(out, f(&ws[i]))
	}
	return out
}

var titleYear = regexp.MustCompile(`^(.*\S) \(([0-9]{4})\)$`)

// projectMulti labels multi-search ids: movie, tv and person results are
// TMDB ids; Artist (any case) is a MusicBrainz id; anything else is unknown.
func projectMulti(w *ombi.Multi) mediaRecord {
	var s idSet
	r := mediaRecord{Title: w.Title, Overview: w.Overview}
	switch strings.ToLower(strings.TrimSpace(w.MediaType)) {
	case "movie":
		r.Media = "movie"
		s.add(nsTMDB, string(w.ID))
	case "tv":
		r.Media = "tv"
		s.add(nsTMDB, string(w.ID))
	case "person":
		r.Media = "person"
		s.add(nsTMDB, string(w.ID))
	case "artist":
		r.Media = "artist"
		s.add(nsMusicBrainz, string(w.ID))
	default:
		r.Media = "unknown"
		s.add(nsUnknown, string(w.ID))
	}
	if r.Media == "movie" || r.Media == "tv" {
		if m := titleYear.FindStringSubmatch(w.Title); m != nil {
			r.Title = m[1]
			r.Year = yearOf(m[2])
		}
	}
	r.Identifiers = s.list()
	return r
}

func projectArtist(w *ombi.Artist) mediaRecord {
	var s idSet
	id := w.ForignArtistID
	if id == "" {
		id = w.ForeignArtistID
	}
	s.add(nsMusicBrainz, id)
	return mediaRecord{Media: "artist", Identifiers: s.list(), Title: w.ArtistName, Overview: w.Overview}
}

func projectAlbum(w *ombi.Album) mediaRecord {
	var s idSet
	s.add(nsMusicBrainz, w.ForeignAlbumID)
	r := mediaRecord{Media: "album", Identifiers: s.list(), Title: w.Title, Year: yearOf(w.ReleaseDate), Available: w.Available, Requested: w.Requested}
	if id := w.RequestID.Positive(); id > 0 {
		r.RequestTargets = []target{{Kind: "album", ID: id}}
	}
	return r
}

// ---- read_discover ----

type discoverInput struct {
	Action           string   `json:"action"`
	Media            string   `json:"media"`
	List             string   `json:"list"`
	TMDBID           int      `json:"tmdb_id"`
	Language         string   `json:"language"`
	CollectionID     int      `json:"collection_id"`
	PersonID         int      `json:"person_id"`
	PersonName       string   `json:"person_name"`
	ArtistID         string   `json:"artist_id"`
	ReleaseYear      *int     `json:"release_year"`
	Decade           *int     `json:"decade"`
	GenreIDs         []int    `json:"genre_ids"`
	KeywordIDs       []int    `json:"keyword_ids"`
	WatchProviderIDs []int    `json:"watch_provider_ids"`
	Page             *pageArg `json:"page"`
}

// browseSegments maps public list names to Ombi's route segments.
var browseSegments = map[string]string{
	"popular": "popular", "now_playing": "nowplaying", "top_rated": "toprated", "upcoming": "upcoming",
	"seasonal": "seasonal", "requested": "requested", "anticipated": "anticipated",
	"most_watched": "mostwatched", "trending": "trending",
}

// readDiscover serves read_discover: browse and advanced_movie page
// upstream (offset -> currentPosition, limit -> amountToLoad); similar,
// collection, credits and artist_albums slice locally.
// Implements S-ROUTING-0104 to S-ROUTING-0116 (read_discover routing) and S-RESULTS-0035, S-RESULTS-0037.
func readDiscover(d *deps) tool {
	return tool{name: "read_discover", handle: func(ctx context.Context, c *call) (any, error) {
		var in discoverInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		cl := d.client
		switch in.Action {
		case "browse":
			offset, limit := in.Page.window()
			list := browseSegments[in.List]
			var items []mediaRecord
			var err error
			if in.Media == "tv" {
				items, err = videos(cl.BrowseTV(ctx, list, offset, limit))("tv", originTMDB)
			} else {
				items, err = videos(cl.BrowseMovies(ctx, list, offset, limit))("movie", originTMDB)
			}
			if err != nil {
				return nil, err
			}
			for i := range items {
				items[i].Seasons = nil // browse drops seasonRequests (04-results)
			}
			items = items[:min(len(items), limit)]
			pg := upstreamPage(offset, limit, len(items), unitMedia)
			if in.List == "requested" {
				pg.NextOffset, pg.HasMore = nil, nil
				c.truncate("the requested list comes from Ombi's bounded recently-requested feed: it may be incomplete and its continuation is unknown")
			}
			return newMediaPage(items, pg), nil
		case "advanced_movie":
			if in.Decade != nil && in.ReleaseYear != nil && (*in.ReleaseYear < *in.Decade || *in.ReleaseYear > *in.Decade+9) {
				return nil, &ombi.ArgumentError{Field: "/release_year", Message: "release_year must fall within decade (decade <= release_year <= decade+9)"}
			}
			offset, limit := in.Page.window()
			items, err := videos(cl.AdvancedMovies(ctx, offset, limit, ombi.DiscoverBody{
				Type: "movie", ReleaseYear: in.ReleaseYear, Decade: in.Decade,
				GenreIDs: in.GenreIDs, KeywordIDs: in.KeywordIDs, WatchProviders: in.WatchProviderIDs,
			}))("movie", originTMDB)
			if err != nil {
				return nil, err
			}
			items = items[:min(len(items), limit)]
			return newMediaPage(items, upstreamPage(offset, limit, len(items), unitMedia)), nil
		case "similar":
			items, err := videos(cl.SimilarMovies(ctx, ombi.MovieInfoBody{TheMovieDbID: in.TMDBID, LanguageCode: in.Language}))("movie", originTMDB)
			if err != nil {
				return nil, err
			}
			window, pg := localPage(items, in.Page, false, unitMedia)
			return newMediaPage(window, pg), nil
		case "collection":
			coll, err := cl.MovieCollection(ctx, in.CollectionID)
			if err != nil {
				return nil, err
			}
			if coll.Collection == nil {
				// an answer without its member list says nothing of the
				// members: never a complete, empty collection
				return nil, &ombi.SchemaError{Op: "GET /api/v2/Search/movie/collection/{collectionId}", Reason: "no collection member list in the answer"}
			}
			items, _ := videos(*coll.Collection, nil)("movie", originTMDB)
			window, pg := localPage(items, in.Page, true, unitMedia)
			return newMediaPage(window, pg), nil
		case "credits":
			if err := nonBlank("/person_name", in.PersonName); err != nil {
				return nil, err
			}
			return d.credits(ctx, c, in)
		case "artist_albums":
			if err := pathText("/artist_id", in.ArtistID); err != nil {
				return nil, err
			}
			ws, err := cl.ArtistAlbums(ctx, in.ArtistID)
			if err != nil {
				return nil, err
			}
			window, pg := localPage(mapAll(ws, projectAlbum), in.Page, true, unitMedia)
			return newMediaPage(window, pg), nil
		}
		return nil, &unsupportedError{Message: "read_discover: unknown branch"}
	}}
}

// maxEnrich bounds the TV detail reads that fill missing credit titles.
const maxEnrich = 25

// credits projects a person's credits: one media record per credited title
// carrying the caller-supplied person name (Ombi returns only the person id).
// TV entries without a title are enriched from their TMDB detail records,
// within the returned window only.
func (d *deps) credits(ctx context.Context, c *call, in discoverInput) (any, error) {
	ac, err := d.client.ActorCredits(ctx, in.PersonID, in.Media)
	if err != nil {
		return nil, err
	}
	index := map[string]int{}
	var items []mediaRecord
	add := func(e ombi.CreditEntry, cr credit) {
		n := e.ID.Positive() // TMDB ids are ints; anything else is not a usable credit
		if n == 0 {
			return
		}
		id := strconv.Itoa(n)
		if i, ok := index[id]; ok {
			items[i].Credits = append(items[i].Credits, cr)
			return
		}
		var s idSet
		s.add(nsTMDB, id)
		title := e.Title
		if title == "" {
			title = e.Name
		}
		index[id] = len(items)
		items = append(items, mediaRecord{Media: in.Media, Identifiers: s.list(), Title: title, Year: yearOf(e.ReleaseDate, e.FirstAirDate), Credits: []credit{cr}})
	}
	if ac.Cast == nil && ac.Crew == nil {
		// an answer without a cast or crew list says nothing of the
		// credits: never a complete, empty list
		return nil, &ombi.SchemaError{Op: "GET /api/v2/Search/actor/{personId}/" + in.Media, Reason: "no cast or crew list in the answer"}
	}
	for _, e := range deref(ac.Cast) {
		add(e, credit{Name: in.PersonName, PersonID: in.PersonID, Role: e.Character, Department: "Acting"})
	}
	for _, e := range deref(ac.Crew) {
		add(e, credit{Name: in.PersonName, PersonID: in.PersonID, Role: e.Job, Department: e.Department})
	}
	window, pg := localPage(items, in.Page, true, unitMedia)
	var lost []string // TV credits whose title read failed
	var lostErr error
	if in.Media == "tv" {
		enriched := 0
		for i := range window {
			if window[i].Title != "" {
				continue
			}
			if enriched == maxEnrich {
				c.warn("some TV credit titles stay unresolved: at most %d detail reads per call", maxEnrich)
				break
			}
			enriched++
			id, _ := strconv.Atoi(window[i].Identifiers[0].Value) // set from an int above
			det, err := d.client.TVByTMDB(ctx, id)
			if err != nil {
				c.warn("could not read the title of TV credit tmdb %d", id)
				lost, lostErr = append(lost, "tmdb "+strconv.Itoa(id)), err
				continue
			}
			window[i].Title = det.Title
			if window[i].Year == nil {
				window[i].Year = yearOf(det.FirstAired, det.ReleaseDate)
			}
		}
	}
	if len(lost) > 0 {
		// a compound read that lost parts: PARTIAL_FAILURE with what is known
		// (04-results), the unread titles left out
		return nil, &partialError{data: newMediaPage(window, pg), cause: lostErr,
			what: fmt.Sprintf("the titles of %d TV credits could not be read (GET /api/v2/Search/tv/moviedb/{id}): %s", len(lost), strings.Join(lost, ", "))}
	}
	return newMediaPage(window, pg), nil
}

// deref is the slice p points at, nil for nil.
func deref[T any](p *[]T) []T {
	if p == nil {
		return nil
	}
	return *p
}

// pathText checks a value that becomes a path segment: non-blank, and not
// "." or ".." (which would change the route), blamed on its field.
func pathText(field, s string) error {
	if err := nonBlank(field, s); err != nil {
		return err
	}
	if t := strings.TrimSpace(s); t == "." || t == ".." {
		return &ombi.ArgumentError{Field: field, Message: "must not be \".\" or \"..\" (it would change the upstream route)"}
	}
	return nil
}

// nonBlank re-checks that free text holds non-whitespace (RT-TEXT-NONBLANK).
func nonBlank(field, s string) error {
	if strings.TrimSpace(s) == "" {
		return &ombi.ArgumentError{Field: field, Message: "must contain non-whitespace text"}
	}
	return nil
}

package server

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file holds the media_page family: its output types and the
// projection helpers every media tool uses; and the read_media handler
// (details, by request, ratings, streaming). The wire shapes of Ombi's
// search and detail models are in internal/ombi/media.go.

// Identifier namespaces (04-results $defs/identifier).
const (
	nsTMDB        = "tmdb"
	nsTVDB        = "tvdb"
	nsIMDB        = "imdb"
	nsMusicBrainz = "musicbrainz"
	nsTVMaze      = "tvmaze"
	nsUnknown     = "provider_unknown"
)

// Output types of the media_page family.
type (
	mediaPage struct {
		Kind  string        `json:"kind"` // "media_page"
		Items []mediaRecord `json:"items"`
		Page  paging        `json:"page"`
	}
	mediaRecord struct {
		Media          string       `json:"media"`
		Identifiers    []identifier `json:"identifiers"`
		Title          string       `json:"title,omitempty"`
		Overview       string       `json:"overview,omitempty"`
		Year           *int         `json:"year,omitempty"`
		Available      *bool        `json:"available,omitempty"`
		Requested      *bool        `json:"requested,omitempty"`
		RequestTargets []target     `json:"request_targets,omitempty"`
		Genres         []string     `json:"genres,omitempty"`
		Credits        []credit     `json:"credits,omitempty"`
		Providers      []provider   `json:"providers,omitempty"`
		Ratings        []reference  `json:"ratings,omitempty"`
		Seasons        []season     `json:"seasons,omitempty"`
	}
	identifier struct {
		Namespace string `json:"namespace"`
		Value     string `json:"value"`
	}
	target struct {
		Kind string `json:"kind"`
		ID   int    `json:"id"`
	}
	credit struct {
		Name       string `json:"name"`
		PersonID   int    `json:"person_id,omitempty"`
		Role       string `json:"role,omitempty"`
		Department string `json:"department,omitempty"`
	}
	provider struct {
		Name string `json:"name"`
	}
	season struct {
		SeasonNumber int       `json:"season_number"`
		Episodes     []episode `json:"episodes"`
		Truncated    bool      `json:"truncated"`
	}
	episode struct {
		EpisodeNumber int    `json:"episode_number"`
		Title         string `json:"title,omitempty"`
		Requested     *bool  `json:"requested,omitempty"`
		Available     *bool  `json:"available,omitempty"`
	}
)

func newMediaPage(items []mediaRecord, pg paging) mediaPage {
	if items == nil {
		items = []mediaRecord{}
	}
	return mediaPage{Kind: "media_page", Items: items, Page: pg}
}

// origin says how a route's ids are labelled: per ORIGIN ROUTE, never per
// field name (04-results media_page).
type origin int

const (
	// originTMDB: movie routes and the TMDB-keyed v2 TV routes (browse,
	// moviedb, by_request, multi). theMovieDbId (or id) is a TMDB id and
	// seriesId echoes it, so seriesId is never labelled tvmaze.
	originTMDB origin = iota
	// originTVMaze: the TVMaze-backed v1 TV routes (Search/tv/{term},
	// Search/tv/info/{tvdbId}). theMovieDbId (or id) carries the TVDB id and
	// seriesId the TVMaze id.
	originTVMaze
)

// idSet collects identifiers, never the same namespace+value twice and
// never an empty or zero value. A record has a handful, so a scan finds
// the duplicates without a map per record.
type idSet struct {
	ids []identifier
}

func (s *idSet) add(ns, value string) {
	value = strings.TrimSpace(value)
	if value == "" || value == "0" {
		return
	}
	id := identifier{Namespace: ns, Value: value}
	if slices.Contains(s.ids, id) {
		return
	}
	s.ids = append(s.ids, id)
}

func (s *idSet) list() []identifier {
	if s.ids == nil {
		return []identifier{}
	}
	return s.ids
}

var imdbPattern = regexp.MustCompile(`^tt[0-9]{5,12}$`)

// videoIDs labels the ids of a movie or TV record by its origin route.
func videoIDs(w *ombi.Media, o origin) []identifier {
	var s idSet
	primary := w.TheMovieDbID
	if primary == "" {
		primary = w.ID // browse/collection members and MovieFullInfoViewModel
	}
	switch o {
	case originTVMaze:
		s.add(nsTVDB, string(primary))
		s.add(nsTVDB, string(w.TheTvDbID))
		s.add(nsTVMaze, string(w.SeriesID))
	default:
		s.add(nsTMDB, string(primary))
		s.add(nsTVDB, string(w.TheTvDbID))
	}
	imdb := w.ImdbID
	if imdb == "" && w.ExternalIDs != nil {
		imdb = w.ExternalIDs.ImdbID
	}
	if imdbPattern.MatchString(imdb) {
		s.add(nsIMDB, imdb)
	}
	return s.list()
}

// projectVideo projects one movie or TV record. media is "movie" or "tv".
func projectVideo(w *ombi.Media, media string, o origin) mediaRecord {
	r := mediaRecord{
		Media:       media,
		Identifiers: videoIDs(w, o),
		Title:       w.Title,
		Overview:    w.Overview,
		Year:        yearOf(w.ReleaseDate, w.FirstAired),
		Available:   w.Available,
		Requested:   w.Requested,
	}
	if id := w.RequestID.Positive(); id > 0 {
		kind := "movie"
		if media == "tv" {
			kind = "tv_parent"
		}
		r.RequestTargets = []target{{Kind: kind, ID: id}}
	}
	for _, g := range w.Genres {
		if g.Name != "" {
			r.Genres = append(r.Genres, g.Name)
		}
	}
	for _, g := range w.Genre {
		if g != "" {
			r.Genres = append(r.Genres, g)
		}
	}
	r.Credits = projectCredits(w)
	r.Seasons = projectSeasons(w.SeasonRequests)
	return r
}

func projectCredits(w *ombi.Media) []credit {
	var out []credit
	if w.Credits != nil {
		for _, c := range w.Credits.Cast {
			if c.Name != "" {
				out = append(out, credit{Name: c.Name, PersonID: c.ID.Positive(), Role: c.Character, Department: "Acting"})
			}
		}
		for _, c := range w.Credits.Crew {
			if c.Name != "" {
				out = append(out, credit{Name: c.Name, PersonID: c.ID.Positive(), Role: c.Job, Department: c.Department})
			}
		}
	}
	for _, c := range w.Cast { // v2 TV: TVMaze-style cast, person ids not TMDB
		if c.Person != "" {
			out = append(out, credit{Name: c.Person, Role: c.Character, Department: "Acting"})
		}
	}
	return out
}

// projectSeasons keeps at most maxNested episodes per season, marking a
// cut season truncated. A season number upstream lists twice becomes one
// season and an episode number listed twice in a season one episode (the
// first listing wins): a season and an episode are keys, never repeated.
func projectSeasons(in []ombi.Season) []season {
	var out []season
	at := map[int]int{} // season number -> index in out
	for _, s := range in {
		if s.SeasonNumber < 0 {
			continue
		}
		i, ok := at[s.SeasonNumber]
		if !ok {
			i = len(out)
			at[s.SeasonNumber] = i
			out = append(out, season{SeasonNumber: s.SeasonNumber, Episodes: []episode{}})
		}
		se := &out[i]
		for _, e := range s.Episodes {
			if e.EpisodeNumber < 0 || slices.ContainsFunc(se.Episodes, func(x episode) bool { return x.EpisodeNumber == e.EpisodeNumber }) {
				continue
			}
			if len(se.Episodes) == maxNested {
				se.Truncated = true
				break
			}
			se.Episodes = append(se.Episodes, episode{EpisodeNumber: e.EpisodeNumber, Title: e.Title, Requested: e.Requested, Available: e.Available})
		}
	}
	return out
}

// yearOf reads the year of the first date that starts with four digits.
func yearOf(dates ...string) *int {
	for _, d := range dates {
		if len(d) >= 4 {
			if y, err := strconv.Atoi(d[:4]); err == nil && y > 0 {
				return &y
			}
		}
	}
	return nil
}

// ---- read_media ----

type mediaInput struct {
	Action    string       `json:"action"`
	Target    *mediaTarget `json:"target"`
	Media     string       `json:"media"`
	RequestID int          `json:"request_id"`
	TMDBID    int          `json:"tmdb_id"`
	Language  string       `json:"language"`
	Title     string       `json:"title"`
	Year      int          `json:"year"`
}

type mediaTarget struct {
	Media    string      `json:"media"`
	Provider string      `json:"provider"`
	ID       ombi.FlexID `json:"id"`
}

// readMedia serves read_media: details by explicit provider, by_request,
// movie_localized, ratings (with the exact-match fallback) and streaming.
// Every branch answers one record.
// Implements S-ROUTING-0118 to S-ROUTING-0132 (read_media routing and TV identifier labels) and S-RESULTS-0028, S-RESULTS-0030.
func readMedia(d *deps) tool {
	return tool{name: "read_media", handle: func(ctx context.Context, c *call) (any, error) {
		var in mediaInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		var rec mediaRecord
		var err error
		switch in.Action {
		case "details":
			rec, err = d.details(ctx, c, in.Target)
		case "by_request":
			rec, err = d.byRequest(ctx, in)
		case "movie_localized":
			var w ombi.Media
			if w, err = d.client.MovieLocalized(ctx, ombi.MovieInfoBody{TheMovieDbID: in.TMDBID, LanguageCode: in.Language}); err == nil {
				rec = projectVideo(&w, "movie", originTMDB)
			}
		case "ratings":
			if err := pathText("/title", in.Title); err != nil {
				return nil, err
			}
			rec, err = d.ratings(ctx, c, in)
		case "streaming":
			rec, err = d.streaming(ctx, in)
		default:
			err = &unsupportedError{Message: "read_media: unknown branch"}
		}
		var part *partialError
		if errors.As(err, &part) && part.data == nil {
			part.data = newMediaPage([]mediaRecord{rec}, singlePage(1, unitMedia))
		}
		if err != nil {
			return nil, err
		}
		return newMediaPage([]mediaRecord{rec}, singlePage(1, unitMedia)), nil
	}}
}

func (d *deps) details(ctx context.Context, c *call, t *mediaTarget) (mediaRecord, error) {
	cl := d.client
	if t == nil {
		return mediaRecord{}, &ombi.ArgumentError{Field: "/target", Message: "target is required"}
	}
	if err := pathText("/target/id", string(t.ID)); err != nil {
		return mediaRecord{}, err
	}
	switch t.Media + "/" + t.Provider {
	case "movie/tmdb":
		w, err := cl.MovieDetails(ctx, t.ID.Positive())
		return projectVideo(&w, "movie", originTMDB), err
	case "movie/imdb":
		w, err := cl.MovieByIMDB(ctx, string(t.ID))
		return projectVideo(&w, "movie", originTMDB), err
	case "tv/tmdb":
		w, err := cl.TVByTMDB(ctx, t.ID.Positive())
		return projectVideo(&w, "tv", originTMDB), err
	case "tv/tvdb":
		return d.tvdbDetails(ctx, c, t.ID.Positive())
	case "artist/musicbrainz":
		w, err := cl.ArtistDetails(ctx, string(t.ID))
		return projectArtistInfo(&w), err
	case "album/musicbrainz":
		w, err := cl.AlbumDetails(ctx, string(t.ID))
		var s idSet
		s.add(nsMusicBrainz, w.ID)
		return mediaRecord{Media: "album", Identifiers: s.list(), Title: w.Title, Year: yearOf(w.ReleaseDate)}, err
	}
	return mediaRecord{}, &unsupportedError{Message: "read_media: unknown target"}
}

func projectArtistInfo(w *ombi.ArtistInfo) mediaRecord {
	var s idSet
	s.add(nsMusicBrainz, w.ID)
	return mediaRecord{Media: "artist", Identifiers: s.list(), Title: w.Name, Overview: w.Overview}
}

// maxScan bounds the v1 TV parent scan.
const maxScan = 1000

// tvdbDetails reads the TVMaze-backed v1 info route, whose request state is
// unreliable, and overlays requested, request_targets and episode flags from
// a bounded scan of v1 TV parents matching tvDbId or imdbId.
func (d *deps) tvdbDetails(ctx context.Context, c *call, tvdbID int) (mediaRecord, error) {
	w, err := d.client.TVByTVDB(ctx, tvdbID)
	if err != nil {
		return mediaRecord{}, err
	}
	rec := projectVideo(&w, "tv", originTVMaze)
	rec.Requested, rec.RequestTargets = nil, nil
	parents, err := d.client.TVRequests(ctx)
	if err != nil {
		// a compound read that lost a part: PARTIAL_FAILURE with the details
		// (04-results), request state left unknown; the caller adds the page
		return rec, &partialError{cause: err, what: "request state unknown: the bounded scan of TV requests (GET /api/v1/Request/tv) failed"}
	}
	complete := len(parents) <= maxScan
	parents = parents[:min(len(parents), maxScan)]
	imdb := w.ImdbID
	for _, p := range parents {
		if p.TvDbID.Positive() != tvdbID && (imdb == "" || p.ImdbID != imdb) {
			continue
		}
		if id := p.ID.Positive(); id > 0 {
			rec.Requested = ptr(true)
			rec.RequestTargets = append(rec.RequestTargets, target{Kind: "tv_parent", ID: id})
		}
		overlayEpisodes(rec.Seasons, p.ChildRequests)
	}
	if rec.Requested == nil {
		if complete {
			rec.Requested = ptr(false)
		} else {
			c.truncate("request state unknown: more than %d TV requests exist and none of the first %d matched", maxScan, maxScan)
		}
	}
	return rec, nil
}

// overlayEpisodes marks episodes requested or available when a child request
// of the matching parent says so.
func overlayEpisodes(seasons []season, children []ombi.TVChild) {
	type key struct{ s, e int }
	state := map[key]ombi.Episode{}
	for _, ch := range children {
		for _, s := range ch.SeasonRequests {
			for _, e := range s.Episodes {
				k := key{s.SeasonNumber, e.EpisodeNumber}
				have := state[k]
				if e.Requested != nil && *e.Requested || have.Requested == nil {
					have.Requested = ptr(true)
				}
				if e.Available != nil && *e.Available {
					have.Available = ptr(true)
				}
				state[k] = have
			}
		}
	}
	for i := range seasons {
		for j := range seasons[i].Episodes {
			ep := &seasons[i].Episodes[j]
			if st, ok := state[key{seasons[i].SeasonNumber, ep.EpisodeNumber}]; ok {
				ep.Requested = st.Requested
				if st.Available != nil {
					ep.Available = st.Available
				}
			}
		}
	}
}

func (d *deps) byRequest(ctx context.Context, in mediaInput) (mediaRecord, error) {
	cl := d.client
	switch in.Media {
	case "movie":
		w, err := cl.MovieByRequest(ctx, in.RequestID)
		return projectVideo(&w, "movie", originTMDB), err
	case "tv":
		w, err := cl.TVByRequest(ctx, in.RequestID)
		return projectVideo(&w, "tv", originTMDB), err
	case "album":
		w, err := cl.ArtistByRequest(ctx, in.RequestID)
		return projectArtistInfo(&w), err
	}
	return mediaRecord{}, &unsupportedError{Message: "read_media: unknown media"}
}

// ratings reads Ombi's title/year ratings route. On 404, 5xx or an empty
// answer it searches the same media and title and accepts only an exact
// case-insensitive title and year match, returning labelled TMDB or TVMaze
// values with a warning; no fuzzy match is substituted.
func (d *deps) ratings(ctx context.Context, c *call, in mediaInput) (mediaRecord, error) {
	rec := mediaRecord{Media: in.Media, Identifiers: []identifier{}, Title: in.Title, Year: ptr(in.Year)}
	var refs []reference
	var err error
	if in.Media == "movie" {
		var r ombi.MovieRatings
		if r, err = d.client.MovieRatings(ctx, in.Title, in.Year); err == nil {
			refs = appendRef(refs, "critics_rating", r.CriticsRating, "rotten_tomatoes")
			refs = appendIntRef(refs, "critics_score", r.CriticsScore, "rotten_tomatoes")
			refs = appendRef(refs, "audience_rating", r.AudienceRating, "rotten_tomatoes")
			refs = appendIntRef(refs, "audience_score", r.AudienceScore, "rotten_tomatoes")
		}
	} else {
		var r ombi.TVRatings
		if r, err = d.client.TVRatings(ctx, in.Title, in.Year); err == nil {
			refs = appendRef(refs, "class", r.Class, "rotten_tomatoes")
			refs = appendIntRef(refs, "score", r.Score, "rotten_tomatoes")
		}
	}
	if err == nil && len(refs) > 0 {
		rec.Ratings = refs
		return rec, nil
	}
	if err != nil && !fallbackAllowed(err) {
		return mediaRecord{}, err
	}
	primary := err
	reason := "an empty answer"
	if err != nil {
		reason = "an upstream failure"
	}
	var found []ombi.Media
	origin := originTMDB
	if in.Media == "movie" {
		found, err = d.client.SearchMovie(ctx, in.Title)
	} else {
		found, err = d.client.SearchTV(ctx, in.Title)
		origin = originTVMaze
	}
	if err != nil {
		return mediaRecord{}, err
	}
	for i := range found {
		w := &found[i]
		y := yearOf(w.ReleaseDate, w.FirstAired)
		if !strings.EqualFold(strings.TrimSpace(w.Title), strings.TrimSpace(in.Title)) || y == nil || *y != in.Year {
			continue
		}
		m := projectVideo(w, in.Media, origin)
		rec.Identifiers, rec.Title = m.Identifiers, m.Title
		if in.Media == "movie" {
			rec.Ratings = appendFloatRef(rec.Ratings, "tmdb_vote_average", w.VoteAverage, "tmdb")
			if w.VoteCount != nil {
				rec.Ratings = append(rec.Ratings, reference{Name: "tmdb_vote_count", Value: *w.VoteCount, Category: "tmdb"})
			}
			c.warn("ratings route gave %s; values are TMDB vote figures from the exact title and year match in movie search", reason)
		} else {
			rec.Ratings = appendFloatRef(rec.Ratings, "tvmaze_site_rating", w.SiteRating, "tvmaze")
			c.warn("ratings route gave %s; the value is the TVMaze site rating from the exact title and year match in TV search", reason)
		}
		return rec, nil
	}
	if primary != nil {
		// the fallback found nothing to stand in: the ratings route's own
		// failure is the answer (a 5xx stays retryable), not an invented 404
		return mediaRecord{}, primary
	}
	return mediaRecord{}, &notFoundError{Message: "no ratings: the ratings route gave " + reason + " and no search result matches the exact title and year"}
}

// fallbackAllowed: the ratings fallback runs on 404 and 5xx only, never on
// 401/403/429, validation failures or transport errors.
func fallbackAllowed(err error) bool {
	var api *ombi.APIError
	return errors.As(err, &api) && (api.Status == http.StatusNotFound || api.Status >= 500) || errors.Is(err, ombi.ErrNoContent)
}

func (d *deps) streaming(ctx context.Context, in mediaInput) (mediaRecord, error) {
	ws, err := d.client.Streaming(ctx, in.Media, in.TMDBID)
	if err != nil {
		return mediaRecord{}, err
	}
	var s idSet
	s.add(nsTMDB, strconv.Itoa(in.TMDBID))
	rec := mediaRecord{Media: in.Media, Identifiers: s.list()}
	seen := map[string]bool{}
	for _, w := range ws {
		name := strings.TrimSpace(w.StreamingProvider)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		rec.Providers = append(rec.Providers, provider{Name: name})
	}
	return rec, nil
}

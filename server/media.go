package server

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file holds the media_page family: its output types and the
// projection helpers every media tool uses. The wire shapes of Ombi's
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

// projectSeasons keeps at most maxNested seasons and maxNested episodes per
// season, marking a cut season truncated.
func projectSeasons(in []ombi.Season) []season {
	var out []season
	for _, s := range in {
		if s.SeasonNumber < 0 {
			continue
		}
		se := season{SeasonNumber: s.SeasonNumber, Episodes: []episode{}}
		for i, e := range s.Episodes {
			if i == maxNested {
				se.Truncated = true
				break
			}
			if e.EpisodeNumber < 0 {
				continue
			}
			se.Episodes = append(se.Episodes, episode{EpisodeNumber: e.EpisodeNumber, Title: e.Title, Requested: e.Requested, Available: e.Available})
		}
		out = append(out, se)
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

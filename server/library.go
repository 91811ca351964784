package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file serves read_library: Ombi's RecentlyAdded, Calendar and Images
// controllers and the v2 album-art route.

const (
	unitCalendar = "calendar_entries"
	unitArtwork  = "artwork"
)

// Output types of the calendar_page and artwork_page families.
type (
	calendarPage struct {
		Kind  string          `json:"kind"` // "calendar_page"
		Items []calendarEntry `json:"items"`
		Page  paging          `json:"page"`
	}
	calendarEntry struct {
		Title         string       `json:"title,omitempty"`
		Date          string       `json:"date,omitempty"`
		Media         string       `json:"media,omitempty"`
		Identifiers   []identifier `json:"identifiers,omitempty"`
		SeasonNumber  *int         `json:"season_number,omitempty"`
		EpisodeNumber *int         `json:"episode_number,omitempty"`
		Available     *bool        `json:"available,omitempty"`
	}
	artworkPage struct {
		Kind  string    `json:"kind"` // "artwork_page"
		Items []artwork `json:"items"`
		Page  paging    `json:"page"`
	}
	artwork struct {
		URI  string `json:"uri"`
		Name string `json:"name"`
		Kind string `json:"kind,omitempty"`
	}
)

// ---- projections ----

func projectRecent(w *ombi.RecentlyAdded, media string) mediaRecord {
	var s idSet
	s.add(nsTMDB, string(w.TheMovieDbID))
	s.add(nsTVDB, string(w.TvDbID))
	if imdbPattern.MatchString(w.ImdbID) {
		s.add(nsIMDB, w.ImdbID)
	}
	r := mediaRecord{Media: media, Identifiers: s.list(), Title: w.Title, Overview: w.Overview, Year: yearOf(w.ReleaseYear)}
	if media == "tv" && w.SeasonNumber != nil && *w.SeasonNumber >= 0 {
		se := season{SeasonNumber: *w.SeasonNumber, Episodes: []episode{}}
		if w.EpisodeNumber != nil && *w.EpisodeNumber >= 0 {
			se.Episodes = append(se.Episodes, episode{EpisodeNumber: *w.EpisodeNumber})
		}
		r.Seasons = []season{se}
	}
	return r
}

// calendarMedia reads the media from the border colour Ombi sets per type.
func calendarMedia(border string) string {
	switch strings.ToLower(border) {
	case "#ff0000":
		return "tv"
	case "#0d5a3e":
		return "movie"
	}
	return "unknown"
}

func projectCalendar(w *ombi.Calendar) calendarEntry {
	e := calendarEntry{Title: w.Title, Date: w.Start, Media: calendarMedia(w.BorderColor)}
	var s idSet
	for _, p := range w.ExtraParams {
		ns := nsUnknown
		if e.Media == "movie" {
			ns = nsTMDB
		}
		s.add(ns, string(p.ProviderID))
	}
	if ids := s.list(); len(ids) > 0 {
		e.Identifiers = ids
	}
	if strings.EqualFold(w.BackgroundColor, "#469c83") {
		e.Available = ptr(true)
	}
	return e
}

// imageURL reads the URL of an image answer: a JSON string, or an object
// with url or image. "" means none.
func imageURL(raw json.RawMessage) (string, error) {
	t := strings.TrimSpace(string(raw))
	if t == "" || t == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s), nil
	}
	var o struct {
		URL   string `json:"url"`
		Image string `json:"image"`
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return "", &ombi.SchemaError{Op: "GET image", Reason: "not a URL string or object"}
	}
	if o.URL != "" {
		return strings.TrimSpace(o.URL), nil
	}
	return strings.TrimSpace(o.Image), nil
}

// safeImageURI accepts only an absolute http(s) URL without credentials,
// fragment or credential-like query parameters.
func safeImageURI(s string) bool {
	if len(s) > 2048 || strings.ContainsAny(s, " \t\r\n<>\"") {
		return false
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || u.Fragment != "" {
		return false
	}
	for k := range u.Query() {
		k = strings.ToLower(k)
		for _, f := range []string{"key", "token", "password", "auth", "sig", "secret", "credential"} {
			if strings.Contains(k, f) {
				return false
			}
		}
	}
	return true
}

// ---- read_library ----

type libraryInput struct {
	Action        string   `json:"action"`
	TMDBID        int      `json:"tmdb_id"`
	TVDBID        int      `json:"tvdb_id"`
	Kind          string   `json:"kind"`
	MusicBrainzID string   `json:"musicbrainz_id"`
	Page          *pageArg `json:"page"`
}

// readLibrary serves read_library. Recently added lists and the calendar
// are complete upstream collections sliced locally; image branches return
// at most one validated URI.
// Implements S-ROUTING-0230 to S-ROUTING-0239 and S-RESULTS-0081 to S-RESULTS-0084.
func readLibrary(d *deps) tool {
	return tool{name: "read_library", handle: func(ctx context.Context, c *call) (any, error) {
		var in libraryInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		cl := d.client
		switch in.Action {
		case "recent_movies", "recent_tv", "recent_tv_grouped":
			var (
				ws    []ombi.RecentlyAdded
				err   error
				media = "tv"
			)
			switch in.Action {
			case "recent_movies":
				media = "movie"
				ws, err = cl.RecentMovies(ctx)
			default:
				ws, err = cl.RecentTV(ctx, in.Action == "recent_tv_grouped")
			}
			if err != nil {
				return nil, err
			}
			all := make([]mediaRecord, 0, len(ws))
			for i := range ws {
				all = append(all, projectRecent(&ws[i], media))
			}
			window, pg := localPage(all, in.Page, true, unitMedia)
			return newMediaPage(window, pg), nil
		case "calendar":
			ws, err := cl.Calendar(ctx)
			if err != nil {
				return nil, err
			}
			all := make([]calendarEntry, 0, len(ws))
			for i := range ws {
				all = append(all, projectCalendar(&ws[i]))
			}
			window, pg := localPage(all, in.Page, true, unitCalendar)
			return calendarPage{Kind: "calendar_page", Items: nonNilSlice(window), Page: pg}, nil
		}
		var (
			raw  json.RawMessage
			err  error
			name string
		)
		switch in.Action {
		case "movie_images":
			raw, err = cl.MovieImage(ctx, in.Kind, in.TMDBID)
			name = in.Kind + " of TMDB movie " + strconv.Itoa(in.TMDBID)
		case "tv_images":
			if in.TVDBID > 0 {
				raw, err = cl.TVImageTVDB(ctx, in.Kind, in.TVDBID)
				name = in.Kind + " of TVDB show " + strconv.Itoa(in.TVDBID)
			} else {
				raw, err = cl.TVImageTMDB(ctx, in.Kind, in.TMDBID)
				name = in.Kind + " of TMDB show " + strconv.Itoa(in.TMDBID)
			}
		case "album_art":
			raw, err = cl.AlbumArt(ctx, in.MusicBrainzID)
			in.Kind, name = "cover", "cover art of release group "+in.MusicBrainzID
		case "random_artwork":
			raw, err = cl.RandomArtwork(ctx, in.Kind)
			name = "random " + in.Kind + " (not tied to any chosen title)"
		default:
			return nil, &unsupportedError{Message: "read_library: unknown branch"}
		}
		if err != nil && !errors.Is(err, ombi.ErrNoContent) {
			return nil, err
		}
		u, err := imageURL(raw)
		if err != nil {
			return nil, err
		}
		items := []artwork{}
		switch {
		case u == "":
		case safeImageURI(u):
			items = append(items, artwork{URI: u, Name: name, Kind: in.Kind})
			if ref := artworkURI(in.Action, in.Kind, in.TMDBID, in.TVDBID, in.MusicBrainzID); ref != "" {
				c.link(ref, strings.TrimPrefix(ref, "ombi://"), name)
			}
		default:
			c.warn("upstream image URL was withheld: it is not a plain http(s) URL without credentials")
		}
		return artworkPage{Kind: "artwork_page", Items: items, Page: singlePage(len(items), unitArtwork)}, nil
	}}
}

func nonNilSlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

package mockombi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// recentJSON projects a RecentlyAdded model: the seed record without its
// offset, with the time it was added.
func recentJSON(it state.LibraryItem) *state.RecentlyAdded {
	return &state.RecentlyAdded{AddedAt: it.When, Extra: db.UndocumentedFields(it.Raw, "offsetDays", "addedAt")}
}

// libraryRecentMovies answers GET RecentlyAdded/movies (the last 7 days).
func (s *Server) libraryRecentMovies(w http.ResponseWriter, _ *http.Request) {
	s.writeRecent(w, func(ls *state.Library) []state.LibraryItem { return ls.RecentMovies })
}

// libraryRecentTV answers GET RecentlyAdded/tv and tv/grouped; grouped keeps
// the newest episode of each show.
func (s *Server) libraryRecentTV(w http.ResponseWriter, r *http.Request) {
	grouped := strings.HasSuffix(strings.TrimRight(strings.ToLower(r.URL.Path), "/"), "/grouped")
	s.writeRecent(w, func(ls *state.Library) []state.LibraryItem {
		if !grouped {
			return ls.RecentTV
		}
		var out []state.LibraryItem
		seen := map[any]bool{}
		for _, it := range ls.RecentTV {
			if id := it.Raw["theMovieDbId"]; !seen[id] {
				seen[id] = true
				out = append(out, it)
			}
		}
		return out
	})
}

// writeRecent answers the items added in the last 7 days, newest first.
func (s *Server) writeRecent(w http.ResponseWriter, pick func(*state.Library) []state.LibraryItem) {
	now := s.now().UTC()
	var out []*state.RecentlyAdded
	s.store.Read(func(st *store) {
		items := slices.Clone(pick(&st.Library))
		slices.SortStableFunc(items, func(a, b state.LibraryItem) int { return b.When.Compare(a.When) })
		out = []*state.RecentlyAdded{}
		for _, it := range items {
			if now.Sub(it.When) <= 7*24*time.Hour {
				out = append(out, recentJSON(it))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// calendarColours maps a status to the CalendarViewModel background colour.
var calendarColours = map[string]string{"available": "#469c83", "denied": "red", "approved": "blue", "pending": "teal"}

// calendarStatus maps a status to the request status string.
var calendarStatus = map[string]string{"available": "Common.Available", "denied": "Common.Denied",
	"approved": "Common.ProcessingRequest", "processing": "Common.ProcessingRequest", "pending": "Common.PendingApproval"}

// libraryCalendar answers v2 GET Calendar: entries within ±90 days.
func (s *Server) libraryCalendar(w http.ResponseWriter, _ *http.Request) {
	now := s.now().UTC()
	var out []*state.CalendarViewModel
	s.store.Read(func(st *store) {
		out = []*state.CalendarViewModel{}
		for _, it := range st.Library.Calendar {
			if d := it.When.Sub(now); d > 90*24*time.Hour || d < -90*24*time.Hour {
				continue
			}
			typ, _ := db.JsonNumber(it.Raw["type"])
			status, _ := it.Raw["status"].(string)
			bg, ok := calendarColours[status]
			if !ok {
				bg = "gray"
			}
			border := map[int]string{voteMediaTV: "#ff0000", voteMediaMovie: "#0d5a3e", voteMediaAlbum: "#797979"}[typ]
			pid, _ := db.JsonNumber(it.Raw["providerId"])
			out = append(out, &state.CalendarViewModel{
				Title: it.Raw["title"], Start: it.When, BackgroundColor: bg, Type: typ, BorderColor: border,
				ExtraParams: []state.CalendarExtraParams{{ProviderID: pid, Overview: it.Raw["overview"], Type: typ,
					ReleaseDate: it.When, RequestStatus: calendarStatus[status]}},
				Extra: db.UndocumentedFields(it.Raw, "title", "offsetDays", "type", "status", "providerId", "overview"),
			})
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// libraryImage answers the Images routes that return a JSON string URL
// ("" when nothing is found, e.g. a TVDB id ≤ 0).
func (s *Server) libraryImage(w http.ResponseWriter, r *http.Request) {
	segs := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	i := slices.IndexFunc(segs, func(x string) bool { return strings.EqualFold(x, "images") })
	rest := segs[i+1:]
	for j := range rest {
		if j < len(rest)-1 {
			rest[j] = strings.ToLower(rest[j])
		}
	}
	id := rest[len(rest)-1]
	kind := strings.Join(rest[:len(rest)-1], "/")
	if kind == "" {
		writeJSON(w, http.StatusOK, "https://image.tmdb.org/t/p/original/8cdWjvZQUExUUTzyp4t6EDMubfO.jpg")
		return
	}
	switch kind {
	case "tv", "poster/tv", "background/tv":
		if n, err := strconv.Atoi(id); err != nil {
			w.WriteHeader(http.StatusNotFound)
			return
		} else if n <= 0 {
			writeJSON(w, http.StatusOK, "")
			return
		}
	}
	art := map[string]string{
		"tv":                 "https://assets.fanart.tv/fanart/tv/%s/tvbanner/banner-%s.jpg",
		"poster/movie":       "https://assets.fanart.tv/fanart/movies/%s/movieposter/poster-%s.jpg",
		"poster/tv":          "https://assets.fanart.tv/fanart/tv/%s/tvposter/poster-%s.jpg",
		"poster/tv/tmdb":     "https://image.tmdb.org/t/p/w500/tv-%s-poster-%s.jpg",
		"background/movie":   "https://assets.fanart.tv/fanart/movies/%s/moviebackground/background-%s.jpg",
		"banner/movie":       "https://assets.fanart.tv/fanart/movies/%s/moviebanner/banner-%s.jpg",
		"background/tv":      "https://assets.fanart.tv/fanart/tv/%s/showbackground/background-%s.jpg",
		"background/tv/tmdb": "https://image.tmdb.org/t/p/original/tv-%s-backdrop-%s.jpg",
	}[kind]
	if art == "" {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	writeJSON(w, http.StatusOK, fmt.Sprintf(art, id, id))
}

// libraryBackground answers GET Images/background {url} and
// Images/background/info {url, name}.
func (s *Server) libraryBackground(w http.ResponseWriter, r *http.Request) {
	info := strings.HasSuffix(strings.TrimRight(strings.ToLower(r.URL.Path), "/"), "/info")
	var bg state.Background
	s.store.Read(func(st *store) {
		if n := len(st.Library.Backgrounds); n > 0 {
			bg = st.Library.Backgrounds[s.now().Second()%n]
		}
	})
	out := state.BackgroundView{URL: bg.URL}
	if info {
		out.Name = &bg.Name
	}
	writeJSON(w, http.StatusOK, out)
}

// libraryLandingPage answers GET LandingPage with media-server availability.
func (s *Server) libraryLandingPage(w http.ResponseWriter, _ *http.Request) {
	total := 0
	s.store.Read(func(st *store) {
		ss := &st.Settings
		for k, on := range map[string]bool{"plex": db.Or(ss.Plex).Enable, "emby": db.Or(ss.Emby).Enable, "jellyfin": db.Or(ss.Jellyfin).Enable} {
			if on {
				total += len(mediaServers(ss, k))
			}
		}
	})
	writeJSON(w, http.StatusOK, state.LandingPageViewModel{ServersAvailable: total, FullyAvailable: true, TotalServers: total})
}

// libraryCustomPage answers GET CustomPage (anonymous).
func (s *Server) libraryCustomPage(w http.ResponseWriter, _ *http.Request) {
	var out json.RawMessage
	s.store.Read(func(st *store) { out = encodeSection(st.Settings.Section("custompage")) })
	if out == nil {
		noContent(w)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// librarySaveCustomPage answers POST CustomPage: role EditCustomPage only.
func (s *Server) librarySaveCustomPage(w http.ResponseWriter, r *http.Request) {
	if p := principalOf(r); !p.inRole("EditCustomPage") {
		w.WriteHeader(http.StatusForbidden)
		return
	}
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	if in == nil {
		writeOmbiError(w, http.StatusInternalServerError, nullReference)
		return
	}
	s.store.Write(func(st *store) {
		if old := st.Settings.CustomPage; old != nil {
			in["id"] = member(old, "id")
		}
		st.saveSection("custompage", in)
	})
	writeJSON(w, http.StatusOK, true)
}

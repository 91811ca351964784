package mockombi

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// libraryItem is one recently added movie or episode, or one calendar entry;
// OffsetDays places it relative to the load time.
type libraryItem struct {
	Raw        map[string]any
	OffsetDays int
	When       time.Time
}

// libraryState holds recently added media, calendar entries and the
// background rotation.
type libraryState struct {
	recentMovies []libraryItem
	recentTV     []libraryItem
	calendar     []libraryItem
	backgrounds  []map[string]any
}

// newLibraryState loads library.json, anchoring day offsets at load time.
func newLibraryState(sd *seedSet) (libraryState, error) {
	var seed struct {
		RecentMovies []map[string]any `json:"recentMovies"`
		RecentTV     []map[string]any `json:"recentTv"`
		Calendar     []map[string]any `json:"calendar"`
		Backgrounds  []map[string]any `json:"backgrounds"`
	}
	if err := sd.decode("library.json", &seed); err != nil {
		return libraryState{}, err
	}
	day := sd.now().UTC().Truncate(24 * time.Hour)
	items := func(raws []map[string]any) ([]libraryItem, error) {
		out := make([]libraryItem, 0, len(raws))
		for _, raw := range raws {
			off, ok := jsonNumber(raw["offsetDays"])
			if !ok {
				return nil, fmt.Errorf("decode library item %v: offsetDays missing", raw["title"])
			}
			out = append(out, libraryItem{Raw: raw, OffsetDays: off, When: day.AddDate(0, 0, off).Add(20 * time.Hour)})
		}
		return out, nil
	}
	var ls libraryState
	var err error
	if ls.recentMovies, err = items(seed.RecentMovies); err != nil {
		return libraryState{}, err
	}
	if ls.recentTV, err = items(seed.RecentTV); err != nil {
		return libraryState{}, err
	}
	if ls.calendar, err = items(seed.Calendar); err != nil {
		return libraryState{}, err
	}
	ls.backgrounds = seed.Backgrounds
	return ls, nil
}

// recentJSON projects a RecentlyAdded model: documented fields plus the
// undocumented ones, without the seed-only offset.
func (it libraryItem) recentJSON() map[string]any {
	m := map[string]any{}
	for k, v := range it.Raw {
		if k != "offsetDays" {
			m[k] = v
		}
	}
	m["addedAt"] = it.When
	return m
}

// libraryRecentMovies answers GET RecentlyAdded/movies (the last 7 days).
func (s *Server) libraryRecentMovies(w http.ResponseWriter, _ *http.Request) {
	s.writeRecent(w, func(ls *libraryState) []libraryItem { return ls.recentMovies })
}

// libraryRecentTV answers GET RecentlyAdded/tv and tv/grouped; grouped keeps
// the newest episode of each show.
func (s *Server) libraryRecentTV(w http.ResponseWriter, r *http.Request) {
	grouped := strings.HasSuffix(strings.TrimRight(strings.ToLower(r.URL.Path), "/"), "/grouped")
	s.writeRecent(w, func(ls *libraryState) []libraryItem {
		if !grouped {
			return ls.recentTV
		}
		var out []libraryItem
		seen := map[any]bool{}
		for _, it := range ls.recentTV {
			if id := it.Raw["theMovieDbId"]; !seen[id] {
				seen[id] = true
				out = append(out, it)
			}
		}
		return out
	})
}

// writeRecent answers the items added in the last 7 days, newest first.
func (s *Server) writeRecent(w http.ResponseWriter, pick func(*libraryState) []libraryItem) {
	now := s.now().UTC()
	var out []map[string]any
	s.store.Read(func(st *store) {
		items := slices.Clone(pick(&st.library))
		slices.SortStableFunc(items, func(a, b libraryItem) int { return b.When.Compare(a.When) })
		out = []map[string]any{}
		for _, it := range items {
			if now.Sub(it.When) <= 7*24*time.Hour {
				out = append(out, it.recentJSON())
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
	var out []map[string]any
	s.store.Read(func(st *store) {
		out = []map[string]any{}
		for _, it := range st.library.calendar {
			if d := it.When.Sub(now); d > 90*24*time.Hour || d < -90*24*time.Hour {
				continue
			}
			typ, _ := jsonNumber(it.Raw["type"])
			status, _ := it.Raw["status"].(string)
			bg, ok := calendarColours[status]
			if !ok {
				bg = "gray"
			}
			border := map[int]string{voteMediaTV: "#ff0000", voteMediaMovie: "#0d5a3e", voteMediaAlbum: "#797979"}[typ]
			pid, _ := jsonNumber(it.Raw["providerId"])
			out = append(out, withUndocumented(map[string]any{
				"title": it.Raw["title"], "start": it.When, "backgroundColor": bg, "type": typ, "borderColor": border,
				"extraParams": []map[string]any{{"providerId": pid, "overview": it.Raw["overview"], "type": typ,
					"releaseDate": it.When, "requestStatus": calendarStatus[status]}},
			}, undocumentedFields(it.Raw, "title", "offsetDays", "type", "status", "providerId", "overview")))
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
	var bg map[string]any
	s.store.Read(func(st *store) {
		if n := len(st.library.backgrounds); n > 0 {
			bg = st.library.backgrounds[s.now().Second()%n]
		}
	})
	if bg == nil {
		bg = map[string]any{"url": "", "name": ""}
	}
	out := map[string]any{"url": bg["url"]}
	if info {
		out["name"] = bg["name"]
	}
	writeJSON(w, http.StatusOK, out)
}

// libraryLandingPage answers GET LandingPage with media-server availability.
func (s *Server) libraryLandingPage(w http.ResponseWriter, _ *http.Request) {
	total := 0
	s.store.Read(func(st *store) {
		for _, k := range []string{"plex", "emby", "jellyfin"} {
			if st.settings.flag(k, "enable") {
				total += len(st.settings.servers(k))
			}
		}
	})
	writeJSON(w, http.StatusOK, map[string]any{"serversAvailable": total, "serversUnavailable": 0,
		"partiallyDown": false, "completelyDown": false, "fullyAvailable": true, "totalServers": total})
}

// libraryCustomPage answers GET CustomPage (anonymous).
func (s *Server) libraryCustomPage(w http.ResponseWriter, _ *http.Request) {
	var out any
	s.store.Read(func(st *store) { out = deepCopyJSON(st.settings.sections["custompage"]) })
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
		if old := st.settings.doc("custompage"); old != nil {
			in["id"] = old["id"]
		}
		st.settings.sections["custompage"] = in
	})
	writeJSON(w, http.StatusOK, true)
}

package mockombi

import (
	"encoding/json"
	"maps"
	"net/http"
	"reflect"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// rottenTomatoesFailure is the 500 Ombi gives now that the Rotten Tomatoes API is gone.
const rottenTomatoesFailure = "Response status code does not indicate success: 404 (Not Found)."

// searchRatingsMovie is GET /api/v2/Search/ratings/movie/{name}/{year}.
func (s *Server) searchRatingsMovie(w http.ResponseWriter, r *http.Request) {
	s.writeRatings(w, r, func(st *store, name string, year int) any {
		var out *state.MovieRatings
		for _, m := range st.Search.Movies {
			if strings.EqualFold(m.Title, name) && m.Year() == year {
				out = m.Ratings
			}
		}
		return out
	})
}

// searchRatingsTV is GET /api/v2/Search/ratings/tv/{name}/{year}.
func (s *Server) searchRatingsTV(w http.ResponseWriter, r *http.Request) {
	s.writeRatings(w, r, func(st *store, name string, year int) any {
		var out *state.TvRatings
		for _, sh := range st.Search.Shows {
			if strings.EqualFold(sh.Title, name) && sh.Year() == year {
				out = sh.Ratings
			}
		}
		return out
	})
}

// writeRatings answers a ratings route: the Rotten Tomatoes quirk's 500, or
// the ratings of the title and year that lookup finds (204 when none).
func (s *Server) writeRatings(w http.ResponseWriter, r *http.Request, lookup func(st *store, name string, year int) any) {
	if s.quirk(QuirkRatingsRottenTomatoes) {
		writeOmbiError(w, http.StatusInternalServerError, rottenTomatoesFailure)
		return
	}
	year, ok := intArg(w, r, "year")
	if !ok {
		return
	}
	var out json.RawMessage
	s.store.Read(func(st *store) {
		if v := lookup(st, r.PathValue("name"), year); !reflect.ValueOf(v).IsNil() {
			out = encodeSection(v)
		}
	})
	if out == nil {
		noContent(w)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// searchStream is GET /api/v2/Search/stream/{movie|tv}/{movieDbId}.
func (s *Server) searchStream(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "movieDbId")
	if !ok {
		return
	}
	tv := strings.Contains(strings.ToLower(r.URL.Path), "/stream/tv/")
	var out json.RawMessage
	s.store.Read(func(st *store) {
		streams := []*state.StreamingData{}
		if tv {
			if sh := st.Search.ShowByTMDB(id); sh != nil {
				streams = append(streams, sh.Streaming...)
			}
		} else if m := st.Search.Movie(id); m != nil {
			streams = append(streams, m.Streaming...)
		}
		out = encodeSection(streams)
	})
	writeJSON(w, http.StatusOK, out)
}

// searchGenres is GET /api/v2/Search/Genres/{media} (and the TheMovieDb twin).
func (s *Server) searchGenres(w http.ResponseWriter, r *http.Request) {
	media := strings.ToLower(r.PathValue("media"))
	out := []state.IDName{}
	s.store.Read(func(st *store) { out = append(out, st.Search.Ref.Genres[media]...) })
	writeJSON(w, http.StatusOK, out)
}

// searchLanguages is GET /api/v2/Search/Languages; with the mojibake quirk
// some native names arrive as question marks or U+FFFD.
func (s *Server) searchLanguages(w http.ResponseWriter, r *http.Request) {
	mojibake := s.quirk(QuirkLanguageMojibake)
	out := []map[string]string{}
	s.store.Read(func(st *store) {
		for i, l := range st.Search.Ref.Languages {
			l = maps.Clone(l)
			if mojibake && !isASCII(l["name"]) {
				if i%2 == 0 {
					l["name"] = strings.Repeat("?", len([]rune(l["name"])))
				} else {
					l["name"] = strings.Repeat("\uFFFD", len([]rune(l["name"])))
				}
			}
			out = append(out, l)
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// isASCII reports whether s is plain ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

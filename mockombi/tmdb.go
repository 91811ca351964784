package mockombi

import (
	"net/http"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// tmdbKeywords is GET /api/v1/TheMovieDb/Keywords?searchTerm=.
func (s *Server) tmdbKeywords(w http.ResponseWriter, r *http.Request) {
	term := queryFold(r, "searchTerm")
	out := []state.IDName{}
	s.store.Read(func(st *store) {
		for _, k := range st.Search.Ref.Keywords {
			if containsFold(k.Name, term) {
				out = append(out, k)
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// tmdbKeyword is GET /api/v1/TheMovieDb/Keywords/{keywordId}; unknown → 404.
func (s *Server) tmdbKeyword(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "keywordId")
	if !ok {
		return
	}
	var out *state.IDName
	s.store.Read(func(st *store) {
		for _, k := range st.Search.Ref.Keywords {
			if k.ID == id {
				out = &k
			}
		}
	})
	if out == nil {
		writeProblem(w, http.StatusNotFound)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// tmdbWatchProviders is GET /api/v1/TheMovieDb/WatchProviders/{movie|tv}?searchTerm=.
func (s *Server) tmdbWatchProviders(w http.ResponseWriter, r *http.Request) {
	media := "movie"
	if strings.HasSuffix(strings.ToLower(strings.TrimSuffix(r.URL.Path, "/")), "/tv") {
		media = "tv"
	}
	term := queryFold(r, "searchTerm")
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, p := range st.Search.Ref.WatchProviders[media] {
			name, _ := p["provider_name"].(string)
			if containsFold(name, term) {
				out = append(out, p)
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

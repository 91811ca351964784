package mockombi

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// searchMovie is GET /api/v1/Search/movie/{searchTerm}.
func (s *Server) searchMovie(w http.ResponseWriter, r *http.Request) {
	s.writeMovieResults(w, r, movieQuery{term: r.PathValue("searchTerm")})
}

// movieQuery filters the movie catalogue.
type movieQuery struct {
	term string
	year int
}

// writeMovieResults answers SearchMovieViewModel[] for a title query.
func (s *Server) writeMovieResults(w http.ResponseWriter, r *http.Request, q movieQuery) {
	p := principalOf(r)
	s.writeView(w, r, "movie search\x00"+q.term+"\x00"+strconv.Itoa(q.year), func(st *store) any {
		out := []*state.SearchMovieViewModel{}
		for _, m := range st.Search.Movies {
			if !containsFold(m.Title, q.term) && !containsFold(m.OriginalTitle, q.term) {
				continue
			}
			if q.year != 0 && m.Year() != q.year {
				continue
			}
			out = append(out, st.movieView(m, p, false))
		}
		return out
	})
}

// searchMovieRefine is POST /api/v1/Search/movie.
func (s *Server) searchMovieRefine(w http.ResponseWriter, r *http.Request) {
	var in struct {
		SearchTerm   string `json:"searchTerm"`
		Year         *int   `json:"year"`
		LanguageCode string `json:"languageCode"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	q := movieQuery{term: in.SearchTerm}
	if in.Year != nil {
		q.year = *in.Year
	}
	s.writeMovieResults(w, r, q)
}

// searchMovieActor is POST /api/v1/Search/movie/actor: movies of people
// whose name matches.
func (s *Server) searchMovieActor(w http.ResponseWriter, r *http.Request) {
	var in struct {
		SearchTerm   string `json:"searchTerm"`
		LanguageCode string `json:"languageCode"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	p := principalOf(r)
	out := []*state.SearchMovieViewModel{}
	s.store.Read(func(st *store) {
		ids := map[int]bool{}
		for _, pe := range st.Search.People {
			if in.SearchTerm != "" && containsFold(pe.Name, in.SearchTerm) {
				ids[pe.ID] = true
			}
		}
		for _, m := range st.Search.Movies {
			if slices.ContainsFunc(m.Cast, func(id int) bool { return ids[id] }) || slices.ContainsFunc(m.Crew, func(id int) bool { return ids[id] }) {
				out = append(out, st.movieView(m, p, false))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchMovieInfo is GET /api/v1/Search/movie/info/{theMovieDbId}.
func (s *Server) searchMovieInfo(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "theMovieDbId")
	if !ok {
		return
	}
	s.writeMovieInfo(w, r, id)
}

// searchMovieInfoRefine is POST /api/v1/Search/movie/info.
func (s *Server) searchMovieInfoRefine(w http.ResponseWriter, r *http.Request) {
	var in struct {
		TheMovieDbID int    `json:"theMovieDbId"`
		LanguageCode string `json:"languageCode"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	s.writeMovieInfo(w, r, in.TheMovieDbID)
}

// writeMovieInfo answers one SearchMovieViewModel. An id TMDB does not know
// gives the empty view Ombi builds from TMDB's error body (id 0).
func (s *Server) writeMovieInfo(w http.ResponseWriter, r *http.Request, id int) {
	var out any = emptyMovieView()
	s.store.Read(func(st *store) {
		if m := st.Search.Movie(id); m != nil {
			out = st.movieView(m, principalOf(r), true)
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchMovieSimilarPost is POST /api/v{1,2}/Search/movie/similar.
func (s *Server) searchMovieSimilarPost(w http.ResponseWriter, r *http.Request) {
	var in struct {
		TheMovieDbID int    `json:"theMovieDbId"`
		LanguageCode string `json:"languageCode"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	s.writeSimilar(w, r, in.TheMovieDbID)
}

// searchMovieSimilar is GET /api/v1/Search/movie/{theMovieDbId}/similar.
func (s *Server) searchMovieSimilar(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "theMovieDbId")
	if !ok {
		return
	}
	s.writeSimilar(w, r, id)
}

// writeSimilar answers the similar movies of a TMDB id ([] when unknown).
func (s *Server) writeSimilar(w http.ResponseWriter, r *http.Request, id int) {
	out := []*state.SearchMovieViewModel{}
	s.store.Read(func(st *store) {
		if m := st.Search.Movie(id); m != nil {
			for _, sid := range m.Similar {
				if sm := st.Search.Movie(sid); sm != nil {
					out = append(out, st.movieView(sm, principalOf(r), false))
				}
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// movieList returns the catalogue movies of a named list, most popular first.
func (st *store) movieList(name string) []*db.CatalogMovie {
	var out []*db.CatalogMovie
	switch name {
	case "requested":
		for _, rq := range st.Requests.Movies {
			if m := st.Search.Movie(rq.TheMovieDbID); m != nil {
				out = append(out, m)
			}
		}
		return out
	case "mostwatched":
		name = "popular"
	}
	for _, m := range st.Search.Movies {
		if slices.Contains(m.Lists, name) {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b *db.CatalogMovie) int { return cmp.Compare(b.Popularity, a.Popularity) })
	return out
}

// searchMovieListV1 is GET /api/v{1,2}/Search/movie/{popular|nowplaying|toprated|upcoming}.
func (s *Server) searchMovieListV1(w http.ResponseWriter, r *http.Request) {
	name := segmentAfter(r, "movie")
	s.writeView(w, r, "movie list\x00"+name, func(st *store) any {
		out := []*state.SearchMovieViewModel{}
		for _, m := range st.movieList(name) {
			out = append(out, st.movieView(m, principalOf(r), false))
		}
		return out
	})
}

// searchMovieBrowse is GET /api/v2/Search/movie/{list}/{currentPosition}/{amountToLoad}.
func (s *Server) searchMovieBrowse(w http.ResponseWriter, r *http.Request) {
	pos, take, ok := positionArgs(w, r)
	if !ok {
		return
	}
	name := segmentAfter(r, "movie")
	s.writeView(w, r, "movie browse\x00"+name+"\x00"+strconv.Itoa(pos)+"\x00"+strconv.Itoa(take), func(st *store) any {
		out := []*state.SearchMovieViewModel{}
		for _, m := range window(st.movieList(name), pos, take) {
			out = append(out, st.movieView(m, principalOf(r), false))
		}
		return out
	})
}

// searchAdvancedMovie is POST /api/v2/Search/advancedSearch/movie/{currentPosition}/{amountToLoad}.
func (s *Server) searchAdvancedMovie(w http.ResponseWriter, r *http.Request) {
	pos, take, ok := positionArgs(w, r)
	if !ok {
		return
	}
	var in struct {
		Type           string `json:"type"`
		ReleaseYear    *int   `json:"releaseYear"`
		Decade         *int   `json:"decade"`
		GenreIDs       []int  `json:"genreIds"`
		KeywordIDs     []int  `json:"keywordIds"`
		WatchProviders []int  `json:"watchProviders"`
		Companies      []int  `json:"companies"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	out := []*state.SearchMovieViewModel{}
	s.store.Read(func(st *store) {
		var hits []*db.CatalogMovie
		for _, m := range st.Search.Movies {
			y := m.Year()
			if in.ReleaseYear != nil && y != *in.ReleaseYear {
				continue
			}
			if in.Decade != nil && (y < *in.Decade || y > *in.Decade+9) {
				continue
			}
			if len(in.GenreIDs) > 0 && !anyIn(in.GenreIDs, m.GenreIDs) {
				continue
			}
			if len(in.KeywordIDs) > 0 && !anyIn(in.KeywordIDs, m.KeywordIDs) {
				continue
			}
			if len(in.WatchProviders) > 0 && !st.streamsOn(m.Streaming, in.WatchProviders) {
				continue
			}
			hits = append(hits, m)
		}
		slices.SortStableFunc(hits, func(a, b *db.CatalogMovie) int { return cmp.Compare(b.Popularity, a.Popularity) })
		for _, m := range window(hits, pos, take) {
			out = append(out, st.movieView(m, principalOf(r), false))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// anyIn reports whether any want id is in have.
func anyIn(want, have []int) bool {
	return slices.ContainsFunc(want, func(id int) bool { return slices.Contains(have, id) })
}

// streamsOn reports whether a title streams on any of the provider ids.
func (st *store) streamsOn(streaming []*state.StreamingData, providers []int) bool {
	for _, sv := range streaming {
		var provider any // as the data gives it: nil when left out
		if sv != nil {
			provider = state.Member(sv, "streamingProvider")
		}
		for _, wp := range st.Search.Ref.WatchProviders["movie"] {
			id, _ := wp["provider_id"].(float64)
			if wp["provider_name"] == provider && slices.Contains(providers, int(id)) {
				return true
			}
		}
	}
	return false
}

// searchMovieDetails is GET /api/v2/Search/movie/{movieDbId}.
func (s *Server) searchMovieDetails(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "movieDbId")
	if !ok {
		return
	}
	s.writeMovieFull(w, r, func(st *store) (*db.CatalogMovie, bool) { return st.Search.Movie(id), true })
}

// searchMovieByIMDb is GET /api/v2/Search/movie/imdb/{imdbid}.
func (s *Server) searchMovieByIMDb(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("imdbid")
	s.writeMovieFull(w, r, func(st *store) (*db.CatalogMovie, bool) { return st.Search.MovieByIMDb(id), true })
}

// searchMovieByRequest is GET /api/v2/Search/movie/request/{requestId}; an
// unknown request id dereferences null upstream (500).
func (s *Server) searchMovieByRequest(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "requestId")
	if !ok {
		return
	}
	s.writeMovieFull(w, r, func(st *store) (*db.CatalogMovie, bool) {
		rq := st.Requests.MovieByID(id)
		if rq == nil {
			return nil, false
		}
		return st.Search.Movie(rq.TheMovieDbID), true
	})
}

// writeMovieFull answers MovieFullInfoViewModel for the movie find returns.
// find reports false when upstream would throw (500); an unknown TMDB id gives
// the empty view Ombi builds from TMDB's not-found body.
func (s *Server) writeMovieFull(w http.ResponseWriter, r *http.Request, find func(st *store) (*db.CatalogMovie, bool)) {
	var out *state.MovieFullInfoViewModel
	found := true
	s.store.Read(func(st *store) {
		var m *db.CatalogMovie
		m, found = find(st)
		if m != nil {
			out = st.movieFullView(m, principalOf(r))
		}
	})
	switch {
	case !found:
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
	case out == nil:
		writeJSON(w, http.StatusOK, emptyMovieView())
	default:
		writeJSON(w, http.StatusOK, out)
	}
}

// searchCollection is GET /api/v2/Search/movie/collection/{collectionId}.
func (s *Server) searchCollection(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "collectionId")
	if !ok {
		return
	}
	out := &state.MovieCollectionsViewModel{Collection: []*state.MovieCollection{}}
	s.store.Read(func(st *store) {
		c := st.Search.Collection(id)
		if c == nil {
			return
		}
		for _, m := range st.Search.Movies {
			if m.CollectionID == nil || *m.CollectionID != id {
				continue
			}
			v := &state.MovieCollection{SearchViewModel: movieBase(m), ID: m.TheMovieDbID, Overview: m.Overview,
				PosterPath: m.PosterPath, Title: m.Title, ReleaseDate: m.ReleaseDate}
			v.ImdbID = ref(m.ImdbID)
			v.Movie4K = st.overlayMovie(&v.SearchViewModel, m.TheMovieDbID, principalOf(r))
			out.Collection = append(out.Collection, v)
		}
		slices.SortStableFunc(out.Collection, func(a, b *state.MovieCollection) int {
			return compareAny(a.ReleaseDate, b.ReleaseDate)
		})
		out.Name, out.Overview, out.Extra = ref(c.Name), ref(c.Overview), c.Extra
	})
	writeJSON(w, http.StatusOK, out)
}

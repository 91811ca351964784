package mockombi

import (
	"cmp"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// searchActorCredits is GET /api/v2/Search/actor/{actorId}/{movie|tv}: TMDB's
// person movie_credits or tv_credits deserialised into ActorCredits
// (ExternalApis/TheMovieDb/Models/ActorCredits.cs) and served back, so TV
// credits lose name and first_air_date (title, original_title and
// release_date are null) and movie credits lose order.
func (s *Server) searchActorCredits(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "actorId")
	if !ok {
		return
	}
	tv := strings.HasSuffix(strings.ToLower(strings.TrimSuffix(r.URL.Path, "/")), "/tv")
	cast, crew := []any{}, []any{}
	s.store.Read(func(st *store) {
		if tv {
			for _, sh := range st.Search.Shows {
				if slices.Contains(sh.Cast, id) {
					cast = append(cast, tmdbCast.bind(map[string]any{"id": sh.TheMovieDbID, "name": sh.Title, "original_name": sh.Title,
						"first_air_date": sh.FirstAired, "character": "Lead", "credit_id": fmt.Sprintf("525%07d%d", sh.TheMovieDbID, id%1000),
						"episode_count": 10, "poster_path": sh.PosterPath, "backdrop_path": sh.BackdropPath, "genre_ids": sh.GenreIDs,
						"origin_country": []string{"US"}, "original_language": "en", "overview": sh.Overview, "popularity": 50.0,
						"vote_average": sh.AverageVote(), "vote_count": 1200, "adult": false}))
				}
			}
			return
		}
		for _, m := range st.Search.Movies {
			credit := map[string]any{"adult": m.Adult, "backdrop_path": m.BackdropPath, "genre_ids": m.GenreIDs, "id": m.TheMovieDbID,
				"original_language": m.OriginalLanguage, "original_title": m.OriginalTitle, "overview": m.Overview, "popularity": m.Popularity,
				"poster_path": m.PosterPath, "release_date": dateOnly(m.ReleaseDate), "title": m.Title, "video": m.Video,
				"vote_average": m.VoteAverage, "vote_count": m.VoteCount}
			if i := slices.Index(m.Cast, id); i >= 0 {
				c := maps.Clone(credit)
				c["character"], c["credit_id"], c["order"] = "Role "+strconv.Itoa(i+1), fmt.Sprintf("52fe4%07dc3a36847f8%d", m.TheMovieDbID%10000000, i), i
				cast = append(cast, tmdbCast.bind(c))
			}
			if i := slices.Index(m.Crew, id); i >= 0 {
				c := maps.Clone(credit)
				c["department"], c["job"], c["credit_id"] = "Directing", "Director", fmt.Sprintf("5e8f1%07dd9a1b2c3%d", m.TheMovieDbID%10000000, i)
				crew = append(crew, tmdbCrew.bind(c))
			}
		}
	})
	writeJSON(w, http.StatusOK, map[string]any{"cast": cast, "crew": crew, "id": id})
}

// searchMulti is POST /api/v2/Search/multi/{searchTerm}: artists (no poster
// or overview) first, then movies "Title (YYYY)", TV titles and people.
func (s *Server) searchMulti(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Movies  bool `json:"movies"`
		TvShows bool `json:"tvShows"`
		Music   bool `json:"music"`
		People  bool `json:"people"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	term := r.PathValue("searchTerm")
	type hit struct {
		pop float64
		v   *state.MultiSearchResult
	}
	var hits []hit
	music := []*state.MultiSearchResult{}
	s.store.Read(func(st *store) {
		if in.Movies {
			for _, m := range st.Search.Movies {
				if containsFold(m.Title, term) {
					hits = append(hits, hit{m.Popularity, &state.MultiSearchResult{ID: strconv.Itoa(m.TheMovieDbID), MediaType: "movie",
						Title: fmt.Sprintf("%s (%d)", m.Title, m.Year()), Poster: db.NilIfEmpty(m.PosterPath), Overview: ref(m.Overview)}})
				}
			}
		}
		if in.TvShows {
			for _, sh := range st.Search.Shows {
				if containsFold(sh.Title, term) {
					// TMDB multi results carry no release_date for TV, so no year is appended
					hits = append(hits, hit{sh.AverageVote() * 10, &state.MultiSearchResult{ID: strconv.Itoa(sh.TheMovieDbID), MediaType: "tv",
						Title: sh.Title, Poster: db.NilIfEmpty(sh.PosterPath), Overview: ref(sh.Overview)}})
				}
			}
		}
		if in.People {
			for _, pe := range st.Search.People {
				if containsFold(pe.Name, term) {
					hits = append(hits, hit{pe.Popularity, &state.MultiSearchResult{ID: strconv.Itoa(pe.ID), MediaType: "person", Title: pe.Name}})
				}
			}
		}
		if in.Music {
			for _, a := range st.Search.Artists {
				if containsFold(a.ArtistName, term) {
					music = append(music, &state.MultiSearchResult{ID: a.ForeignArtistID, MediaType: "Artist", Title: a.ArtistName})
				}
			}
		}
	})
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(b.pop, a.pop) })
	out := music // MusicBrainz artists come first, then TMDB's results in its order
	for _, h := range hits {
		out = append(out, h.v)
	}
	writeJSON(w, http.StatusOK, out)
}

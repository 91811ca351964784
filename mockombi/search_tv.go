package mockombi

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// showList returns the catalogue shows of a named list.
func (st *store) showList(name string) []*db.CatalogShow {
	var out []*db.CatalogShow
	if name == "requested" {
		for _, pr := range st.Requests.Tv {
			if sh := st.Search.ShowByTMDB(pr.ExternalProviderID); sh != nil {
				out = append(out, sh)
			}
		}
		return out
	}
	if name == "mostwatched" {
		name = "popular" // [Obsolete] upstream: same as popular
	}
	for _, sh := range st.Search.Shows {
		if slices.Contains(sh.Lists, name) {
			out = append(out, sh)
		}
	}
	return out
}

// searchTV is GET /api/v1/Search/tv/{searchTerm} (TVMaze search).
// Implements S-ROUTING-0131 (v1 theMovieDbId carries the TVDB id, seriesId the TVMaze id).
func (s *Server) searchTV(w http.ResponseWriter, r *http.Request) {
	term := r.PathValue("searchTerm")
	s.writeView(w, r, "tv search\x00"+term, func(st *store) any {
		quirk := s.quirk(QuirkV1TVTVDBInMovieDBID)
		out := []*state.SearchTvShowViewModel{}
		for _, sh := range st.Search.Shows {
			if sh.TvDbID == 0 || (!containsFold(sh.Title, term) && !slices.ContainsFunc(sh.Aliases, func(a string) bool { return containsFold(a, term) })) {
				continue
			}
			out = append(out, st.tvView(sh, principalOf(r), tvViewOpts{V1: true, TVDBQuirk: quirk, Flags: true, Rating: tvMazeScore(sh.Title, term)}))
		}
		return out
	})
}

// tvMazeScore stands in for the relevance score of a TVMaze search hit,
// which the v1 search maps into rating (TvProfile.cs: score.ToString()):
// the share of the title the term covers, 1 for an exact match.
func tvMazeScore(title, term string) string {
	if title == "" {
		return "0"
	}
	score := float64(len(term)) / float64(len(title))
	if strings.EqualFold(title, term) || score > 1 {
		score = 1
	}
	return strconv.FormatFloat(score, 'f', -1, 64)
}

// searchTVInfo is GET /api/v1/Search/tv/info/{tvdbId}: the episode tree, with
// request flags left false as upstream does.
func (s *Server) searchTVInfo(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "tvdbId")
	if !ok {
		return
	}
	quirk := s.quirk(QuirkV1TVTVDBInMovieDBID)
	var out *state.SearchTvShowViewModel
	s.store.Read(func(st *store) {
		if sh := st.Search.ShowByTVDB(id); sh != nil {
			out = st.tvView(sh, principalOf(r), tvViewOpts{V1: true, TVDBQuirk: quirk, Seasons: true})
			out.Rating = "Ombi.Api.TvMaze.Models.Rating"
		}
	})
	writeRecord(w, out)
}

// searchTVListV1 is GET /api/v1/Search/tv/{popular|anticipated|trending|mostwatched} (Trakt).
func (s *Server) searchTVListV1(w http.ResponseWriter, r *http.Request) {
	name := segmentAfter(r, "tv")
	s.writeView(w, r, "tv list v1\x00"+name, func(st *store) any {
		quirk := s.quirk(QuirkV1TVTVDBInMovieDBID)
		out := []*state.SearchTvShowViewModel{}
		for _, sh := range st.showList(name) {
			out = append(out, st.tvView(sh, principalOf(r), tvViewOpts{V1: true, TVDBQuirk: quirk, Flags: true}))
		}
		return out
	})
}

// searchTVBrowse is GET /api/v2/Search/tv/{list}/{currentPosition}/{amountToLoad}.
func (s *Server) searchTVBrowse(w http.ResponseWriter, r *http.Request) {
	pos, take, ok := positionArgs(w, r)
	if !ok {
		return
	}
	name := segmentAfter(r, "tv")
	s.writeView(w, r, "tv browse\x00"+name+"\x00"+strconv.Itoa(pos)+"\x00"+strconv.Itoa(take), func(st *store) any {
		out := []*state.SearchTvShowViewModel{}
		for _, sh := range window(st.showList(name), pos, take) {
			out = append(out, st.tvView(sh, principalOf(r), tvViewOpts{Flags: true}))
		}
		return out
	})
}

// searchTVRequested is GET /api/v2/Search/tv/requested/{currentPosition}/{amountToLoad}.
func (s *Server) searchTVRequested(w http.ResponseWriter, r *http.Request) {
	pos, take, ok := positionArgs(w, r)
	if !ok {
		return
	}
	out := []*state.SearchFullInfoTvShowViewModel{}
	s.store.Read(func(st *store) {
		for _, sh := range window(st.showList("requested"), pos, take) {
			out = append(out, st.tvFullView(sh, principalOf(r)))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchTVDetails is GET /api/v2/Search/tv/{tvdbId} and tv/moviedb/{moviedbid}:
// both take a TMDB id.
func (s *Server) searchTVDetails(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("moviedbid")
	if raw == "" {
		raw = r.PathValue("tvdbId")
	}
	id, err := strconv.Atoi(raw)
	if err != nil {
		writeProblemErrors(w, http.StatusBadRequest, map[string][]string{"id": {"The value '" + raw + "' is not valid."}})
		return
	}
	var out *state.SearchFullInfoTvShowViewModel
	s.store.Read(func(st *store) {
		if sh := st.Search.ShowByTMDB(id); sh != nil {
			out = st.tvFullView(sh, principalOf(r))
		}
	})
	writeRecord(w, out)
}

// searchTVByRequest is GET /api/v2/Search/tv/request/{requestId} (TV parent id).
func (s *Server) searchTVByRequest(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "requestId")
	if !ok {
		return
	}
	var out *state.SearchFullInfoTvShowViewModel
	found := false
	s.store.Read(func(st *store) {
		pr := st.Requests.ParentByID(id)
		if pr == nil {
			return
		}
		found = true
		if sh := st.Search.ShowByTMDB(pr.ExternalProviderID); sh != nil {
			out = st.tvFullView(sh, principalOf(r))
		}
	})
	switch {
	case !found:
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
	case out == nil:
		noContent(w)
	default:
		writeJSON(w, http.StatusOK, out)
	}
}

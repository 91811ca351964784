package mockombi

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// requestMovieUpdate is PUT /api/v1/Request/movie (full entity).
func (s *Server) requestMovieUpdate(w http.ResponseWriter, r *http.Request) {
	var in db.MovieRequest
	if !decodeBody(w, r, &in) {
		return
	}
	var out *state.MovieRequests
	s.store.Write(func(st *store) {
		m := st.Requests.MovieByID(in.ID)
		if m == nil {
			return
		}
		m.Approved, m.Available, m.Denied, m.DeniedReason = in.Approved, in.Available, in.Denied, in.DeniedReason
		m.ImdbID, m.IssueID, m.Overview, m.PosterPath = in.ImdbID, in.IssueID, in.Overview, in.PosterPath
		m.QualityOverride, m.RootPathOverride = in.QualityOverride, in.RootPathOverride
		out = st.movieRequestView(m, principalOf(r))
	})
	if out == nil {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// requestTVUpdate is PUT /api/v1/Request/tv (parent entity).
func (s *Server) requestTVUpdate(w http.ResponseWriter, r *http.Request) {
	var in db.TvParent
	if !decodeBody(w, r, &in) {
		return
	}
	var out *state.TvRequests
	s.store.Write(func(st *store) {
		pr := st.Requests.ParentByID(in.ID)
		if pr == nil {
			return
		}
		pr.QualityOverride, pr.RootFolder, pr.LanguageProfile = in.QualityOverride, in.RootFolder, in.LanguageProfile
		pr.Overview, pr.PosterPath, pr.ImdbID = in.Overview, in.PosterPath, in.ImdbID
		out = st.parentView(pr, principalOf(r), false)
	})
	if out == nil {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// requestTVChildUpdate is PUT /api/v1/Request/tv/child.
func (s *Server) requestTVChildUpdate(w http.ResponseWriter, r *http.Request) {
	var in db.ChildRequest
	if !decodeBody(w, r, &in) {
		return
	}
	var out *state.ChildRequests
	s.store.Write(func(st *store) {
		c := st.Requests.ChildByID(in.ID)
		if c == nil {
			return
		}
		c.Approved, c.Available, c.Denied, c.DeniedReason = in.Approved, in.Available, in.Denied, in.DeniedReason
		out = st.childView(c, principalOf(r), childViewOpts{Seasons: true})
	})
	if out == nil {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// requestTVRoot is PUT /api/v1/Request/tv/root/{requestId}/{rootFolderId}.
func (s *Server) requestTVRoot(w http.ResponseWriter, r *http.Request) {
	s.setParentInt(w, r, "rootFolderId", func(pr *db.TvParent, v int) { pr.RootFolder = &v })
}

// requestTVQuality is PUT /api/v1/Request/tv/quality/{requestId}/{qualityId}.
func (s *Server) requestTVQuality(w http.ResponseWriter, r *http.Request) {
	s.setParentInt(w, r, "qualityId", func(pr *db.TvParent, v int) { pr.QualityOverride = &v })
}

// setParentInt sets one int field of a TV parent and answers true; a missing
// parent dereferences null upstream (500).
func (s *Server) setParentInt(w http.ResponseWriter, r *http.Request, param string, set func(*db.TvParent, int)) {
	id, ok := intParam(w, r, "requestId")
	if !ok {
		return
	}
	v, ok := intParam(w, r, param)
	if !ok {
		return
	}
	found := false
	s.store.Write(func(st *store) {
		if pr := st.Requests.ParentByID(id); pr != nil {
			set(pr, v)
			found = true
		}
	})
	if !found {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	writeJSON(w, http.StatusOK, true)
}

// requestsAdvancedOptions is POST /api/v2/Requests/{movie|tv}/advancedoptions;
// the given values replace the stored ones (omitted ones become 0).
func (s *Server) requestsAdvancedOptions(w http.ResponseWriter, r *http.Request) {
	var in struct {
		RequestID        int `json:"requestId"`
		RootPathOverride int `json:"rootPathOverride"`
		QualityOverride  int `json:"qualityOverride"`
		LanguageProfile  int `json:"languageProfile"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	tv := segmentAfter(r, "requests") == "tv"
	var out *state.RequestEngineResult
	s.store.Write(func(st *store) {
		if tv {
			pr := st.Requests.ParentByID(in.RequestID)
			if pr == nil {
				out = engineFail(errRequestDoesNotExist, "Request does not exist")
				return
			}
			root, quality, lang := in.RootPathOverride, in.QualityOverride, in.LanguageProfile
			pr.RootFolder, pr.QualityOverride = &root, &quality
			if lang > 0 {
				pr.LanguageProfile = &lang
			}
			out = engineOK("", 0)
			return
		}
		m := st.Requests.MovieByID(in.RequestID)
		if m == nil {
			out = engineFail("", "Request does not exist")
			return
		}
		m.RootPathOverride, m.QualityOverride = in.RootPathOverride, in.QualityOverride
		out = engineOK("", 0)
	})
	writeJSON(w, http.StatusOK, out)
}

// requestsReprocess is POST /api/v2/Requests/reprocess/{type}/{requestId}/{is4K}.
func (s *Server) requestsReprocess(w http.ResponseWriter, r *http.Request) {
	typ := -1
	switch strings.ToLower(r.PathValue("type")) {
	case "tvshow", "0":
		typ = db.RequestTypeTV
	case "movie", "1":
		typ = db.RequestTypeMovie
	case "album", "2":
		typ = db.RequestTypeAlbum
	}
	id, idErr := strconv.Atoi(r.PathValue("requestId"))
	_, boolErr := strconv.ParseBool(strings.ToLower(r.PathValue("is4K"))) // upstream resends either version without checking it exists
	if typ < 0 || idErr != nil || boolErr != nil {
		writeProblemErrors(w, http.StatusBadRequest, map[string][]string{"type": {"The value '" + r.PathValue("type") + "' is not valid."}})
		return
	}
	if typ == db.RequestTypeAlbum {
		writeProblem(w, http.StatusBadRequest)
		return
	}
	var out *state.RequestEngineResult
	s.store.Read(func(st *store) {
		switch _, found := st.Requests.RequestOf(db.MediaKind(typ), id); {
		case found:
			out = engineOK("", 0)
		case typ == db.RequestTypeTV: // the id is a TV child request's
			out = engineFail(errRequestDoesNotExist, "Request does not exist")
		default:
			out = engineFail("", "Request does not exist")
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// requestSubscribe is POST /api/v1/Request/{movie|tv}/{subscribe|unsubscribe}/{requestId}.
func (s *Server) requestSubscribe(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "requestId")
	if !ok {
		return
	}
	typ := db.RequestTypeMovie
	if segmentAfter(r, "request") == "tv" {
		typ = db.RequestTypeTV
	}
	on := !strings.Contains(strings.ToLower(r.URL.Path), "/unsubscribe/")
	p := principalOf(r)
	s.store.Write(func(st *store) {
		sub := db.Subscription{UserID: p.id, RequestType: typ, RequestID: id}
		st.Requests.Subs = slices.DeleteFunc(st.Requests.Subs, func(x db.Subscription) bool { return x == sub })
		if on {
			st.Requests.Subs = append(st.Requests.Subs, sub)
		}
	})
	writeJSON(w, http.StatusOK, true)
}

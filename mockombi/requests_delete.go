package mockombi

import (
	"net/http"
	"slices"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// canManage is Ombi's CheckCanManageRequest: Admin and PowerUser manage any
// request, ManageOwnRequests only the caller's own. A missing request passes
// for privileged callers, whose next step then dereferences it (500).
func canManage(p *principal, owner string, exists bool) bool {
	if p.isPrivileged() {
		return true
	}
	return exists && p.inRole(db.OmbiRoleManageOwnRequests) && p.id == owner
}

// noPermissions is the engine result of a failed CheckCanManageRequest.
func noPermissions() *state.RequestEngineResult { return engineFail(errNoPermissions, "") }

// removeRequest runs the shared delete flow of a request of a kind: the
// caller must be able to manage it; remove deletes it.
func (s *Server) removeRequest(w http.ResponseWriter, r *http.Request, kind db.MediaKind, remove func(st *store, id int)) {
	id, ok := intParam(w, r, "requestId")
	if !ok {
		return
	}
	p := principalOf(r)
	var out *state.RequestEngineResult
	s.store.Write(func(st *store) {
		owner := ""
		rq, exists := st.Requests.RequestOf(kind, id)
		if exists {
			owner = rq.Base().RequestedUserID
		}
		switch {
		case !canManage(p, owner, exists):
			out = noPermissions()
		case exists:
			remove(st, id)
			out = engineOK("", 0)
		}
	})
	if out == nil {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// requestMovieDelete is DELETE /api/v1/Request/movie/{requestId}.
func (s *Server) requestMovieDelete(w http.ResponseWriter, r *http.Request) {
	s.removeRequest(w, r, db.MovieKind, func(st *store, id int) {
		st.Requests.Movies = slices.DeleteFunc(st.Requests.Movies, func(m *db.MovieRequest) bool { return m.ID == id })
	})
}

// requestAlbumDelete is DELETE /api/v1/request/music/{requestId}.
func (s *Server) requestAlbumDelete(w http.ResponseWriter, r *http.Request) {
	s.removeRequest(w, r, db.AlbumKind, func(st *store, id int) {
		st.Requests.Albums = slices.DeleteFunc(st.Requests.Albums, func(a *db.AlbumRequest) bool { return a.ID == id })
	})
}

// requestTVChildDelete is DELETE /api/v1/Request/tv/child/{requestId}; the
// parent goes too when its last child is removed.
func (s *Server) requestTVChildDelete(w http.ResponseWriter, r *http.Request) {
	s.removeRequest(w, r, db.TvKind, func(st *store, id int) {
		parent := st.Requests.ChildByID(id).ParentRequestID
		st.Requests.Children = slices.DeleteFunc(st.Requests.Children, func(c *db.ChildRequest) bool { return c.ID == id })
		if len(st.Requests.ChildrenOf(parent)) == 0 {
			st.Requests.Tv = slices.DeleteFunc(st.Requests.Tv, func(p *db.TvParent) bool { return p.ID == parent })
		}
	})
}

// requestMovieDeleteAll is DELETE /api/v1/Request/movie/all.
func (s *Server) requestMovieDeleteAll(w http.ResponseWriter, r *http.Request) {
	s.store.Write(func(st *store) { st.Requests.Movies = nil })
	okEmpty(w)
}

// requestTVDelete is DELETE /api/v1/Request/tv/{requestId}: removes the
// parent and its children; empty 200. A missing parent is dereferenced
// upstream (500).
func (s *Server) requestTVDelete(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "requestId")
	if !ok {
		return
	}
	found := false
	s.store.Write(func(st *store) {
		if st.Requests.ParentByID(id) == nil {
			return
		}
		found = true
		st.Requests.Tv = slices.DeleteFunc(st.Requests.Tv, func(p *db.TvParent) bool { return p.ID == id })
		st.Requests.Children = slices.DeleteFunc(st.Requests.Children, func(c *db.ChildRequest) bool { return c.ParentRequestID == id })
	})
	if !found {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	okEmpty(w)
}

package mockombi

import (
	"net/http"
	"slices"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// canManage is Ombi's CheckCanManageRequest: Admin and PowerUser manage any
// request, ManageOwnRequests only the caller's own. A missing request passes
// for privileged callers, whose next step then dereferences it (500).
func canManage(p *principal, owner string, exists bool) bool {
	if p.isPrivileged() {
		return true
	}
	return exists && p.inRole(ombiRoleManageOwnRequests) && p.id == owner
}

// noPermissions is the engine result of a failed CheckCanManageRequest.
func noPermissions() *state.RequestEngineResult { return engineFail(errNoPermissions, "") }

// removeRequest runs the shared delete flow of a request of a kind: the
// caller must be able to manage it; remove deletes it.
func (s *Server) removeRequest(w http.ResponseWriter, r *http.Request, kind mediaKind, remove func(st *store, id int)) {
	id, ok := intParam(w, r, "requestId")
	if !ok {
		return
	}
	p := principalOf(r)
	var out *state.RequestEngineResult
	s.store.Write(func(st *store) {
		owner := ""
		rq, exists := st.requests.requestOf(kind, id)
		if exists {
			owner = rq.base().RequestedUserID
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
	s.removeRequest(w, r, movieKind, func(st *store, id int) {
		st.requests.movies = slices.DeleteFunc(st.requests.movies, func(m *movieRequest) bool { return m.ID == id })
	})
}

// requestAlbumDelete is DELETE /api/v1/request/music/{requestId}.
func (s *Server) requestAlbumDelete(w http.ResponseWriter, r *http.Request) {
	s.removeRequest(w, r, albumKind, func(st *store, id int) {
		st.requests.albums = slices.DeleteFunc(st.requests.albums, func(a *albumRequest) bool { return a.ID == id })
	})
}

// requestTVChildDelete is DELETE /api/v1/Request/tv/child/{requestId}; the
// parent goes too when its last child is removed.
func (s *Server) requestTVChildDelete(w http.ResponseWriter, r *http.Request) {
	s.removeRequest(w, r, tvKind, func(st *store, id int) {
		parent := st.requests.childByID(id).ParentRequestID
		st.requests.children = slices.DeleteFunc(st.requests.children, func(c *childRequest) bool { return c.ID == id })
		if len(st.requests.childrenOf(parent)) == 0 {
			st.requests.tv = slices.DeleteFunc(st.requests.tv, func(p *tvParent) bool { return p.ID == parent })
		}
	})
}

// requestMovieDeleteAll is DELETE /api/v1/Request/movie/all.
func (s *Server) requestMovieDeleteAll(w http.ResponseWriter, r *http.Request) {
	s.store.Write(func(st *store) { st.requests.movies = nil })
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
		if st.requests.parentByID(id) == nil {
			return
		}
		found = true
		st.requests.tv = slices.DeleteFunc(st.requests.tv, func(p *tvParent) bool { return p.ID == id })
		st.requests.children = slices.DeleteFunc(st.requests.children, func(c *childRequest) bool { return c.ParentRequestID == id })
	})
	if !found {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	okEmpty(w)
}

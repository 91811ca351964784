package mockombi

import (
	"net/http"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// moderate is the handler of one moderation route, bound in the route table
// with the media kind and the action it serves: approve, available and
// unavailable (POST) and deny (PUT) on /api/v1/Request/movie/...,
// /api/v1/Request/tv/... (the id is a TV child request's) and
// /api/v1/request/music/....
func (s *Server) moderate(kind db.MediaKind, act db.Moderation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		in, ok := decodeModeration(w, r, kind)
		if !ok {
			return
		}
		var out *state.RequestEngineResult
		s.store.Write(func(st *store) { out = st.moderateRequest(kind, act, in) })
		writeJSON(w, http.StatusOK, out)
	}
}

// moderationBody is the body of a moderation route. It aliases an unnamed
// struct type so decode errors name the fields as they always have.
type moderationBody = struct {
	ID     int    `json:"id"`
	Is4K   bool   `json:"is4K"`
	Reason string `json:"reason"`
}

// decodeModeration decodes a moderation body; only the movie routes read
// is4K, so on the others it stays false whatever the body holds.
func decodeModeration(w http.ResponseWriter, r *http.Request, kind db.MediaKind) (moderationBody, bool) {
	if kind == db.MovieKind {
		var in moderationBody
		return in, decodeBody(w, r, &in)
	}
	var in struct {
		ID     int    `json:"id"`
		Reason string `json:"reason"`
	}
	ok := decodeBody(w, r, &in)
	return moderationBody{ID: in.ID, Reason: in.Reason}, ok
}

// moderateRequest applies an action to the request of a kind and id and
// returns the engine result; a movie body with is4K moves the 4K half.
func (st *store) moderateRequest(kind db.MediaKind, act db.Moderation, in moderationBody) *state.RequestEngineResult {
	rq, ok := st.Requests.RequestOf(kind, in.ID)
	if !ok {
		if kind == db.TvKind {
			return engineFail(errChildRequestDoesNotExist, "Child Request does not exist")
		}
		return engineFail("", "Request does not exist")
	}
	now := st.Now().UTC()
	if m, movie := rq.(*db.MovieRequest); movie && in.Is4K {
		m.Moderate4K(act, in.Reason, now)
	} else {
		rq.Moderate(act, in.Reason, now)
	}
	return engineOK(moderationMessage(act, kind), 0)
}

// moderationMessage is the success message of an action; upstream's deny
// really says "deleted", and the TV deny says nothing.
func moderationMessage(act db.Moderation, kind db.MediaKind) string {
	switch act {
	case db.ModDeny:
		if kind == db.TvKind {
			return ""
		}
		return "Request successfully deleted"
	case db.ModAvailable:
		return "Request is now available"
	case db.ModUnavailable:
		return "Request is now unavailable"
	}
	return ""
}

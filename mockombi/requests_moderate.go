package mockombi

import (
	"net/http"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// moderation is one state change on a request.
type Moderation int

// The moderation actions.
const (
	ModApprove Moderation = iota
	ModDeny
	ModAvailable
	ModUnavailable
)

// moderate is the handler of one moderation route, bound in the route table
// with the media kind and the action it serves: approve, available and
// unavailable (POST) and deny (PUT) on /api/v1/Request/movie/...,
// /api/v1/Request/tv/... (the id is a TV child request's) and
// /api/v1/request/music/....
func (s *Server) moderate(kind MediaKind, act Moderation) http.HandlerFunc {
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
func decodeModeration(w http.ResponseWriter, r *http.Request, kind MediaKind) (moderationBody, bool) {
	if kind == MovieKind {
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
func (st *store) moderateRequest(kind MediaKind, act Moderation, in moderationBody) *state.RequestEngineResult {
	rq, ok := st.Requests.RequestOf(kind, in.ID)
	if !ok {
		if kind == TvKind {
			return engineFail(errChildRequestDoesNotExist, "Child Request does not exist")
		}
		return engineFail("", "Request does not exist")
	}
	now := st.Now().UTC()
	if m, movie := rq.(*MovieRequest); movie && in.Is4K {
		m.Moderate4K(act, in.Reason, now)
	} else {
		rq.Moderate(act, in.Reason, now)
	}
	return engineOK(moderationMessage(act, kind), 0)
}

// moderate applies an action to a base request as Ombi's engines do (see
// modFields.apply); a movie's 4K half is moderate4K's.
func (b *ReqBase) Moderate(act Moderation, reason string, now time.Time) {
	modFields{&b.Approved, &b.MarkedAsApproved, &b.Denied, &b.DeniedReason, &b.Available, &b.MarkedAsAvailable}.apply(act, reason, now)
}

// moderate applies an action to a TV child request and its episodes:
// approve also marks them requested, deny leaves them alone.
func (c *ChildRequest) Moderate(act Moderation, reason string, now time.Time) {
	c.ReqBase.Moderate(act, reason, now)
	for _, s := range c.SeasonRequests {
		for _, e := range s.Episodes {
			switch act {
			case ModApprove:
				e.Approved, e.Requested = true, true
			case ModAvailable:
				e.Available = true
			case ModUnavailable:
				e.Available = false
			}
		}
	}
}

// moderate4K applies an action to the 4K half of a movie request, as
// reqBase.moderate does to the other half.
func (m *MovieRequest) Moderate4K(act Moderation, reason string, now time.Time) {
	modFields{&m.Approved4K, &m.MarkedAsApproved4K, &m.Denied4K, &m.DeniedReason4K, &m.Available4K, &m.MarkedAsAvailable4K}.apply(act, reason, now)
}

// modFields are the fields moderation sets on one half of a request: the
// BaseRequest's, or their 4K twins on a movie request.
type modFields struct {
	approved        *bool
	markedApproved  *time.Time
	denied          **bool
	deniedReason    *string
	available       *bool
	markedAvailable **time.Time
}

// apply sets the fields for an action as Ombi's engines do: approve clears
// denied, deny leaves approved and markedAsDenied alone, unavailable keeps
// markedAsAvailable.
func (f modFields) apply(act Moderation, reason string, now time.Time) {
	switch act {
	case ModApprove:
		no := false
		*f.approved, *f.markedApproved, *f.denied = true, now, &no
	case ModDeny:
		yes := true
		*f.denied, *f.deniedReason = &yes, reason
	case ModAvailable:
		*f.available, *f.markedAvailable = true, &now
	case ModUnavailable:
		*f.available = false
	}
}

// moderationMessage is the success message of an action; upstream's deny
// really says "deleted", and the TV deny says nothing.
func moderationMessage(act Moderation, kind MediaKind) string {
	switch act {
	case ModDeny:
		if kind == TvKind {
			return ""
		}
		return "Request successfully deleted"
	case ModAvailable:
		return "Request is now available"
	case ModUnavailable:
		return "Request is now unavailable"
	}
	return ""
}

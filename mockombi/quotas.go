package mockombi

import (
	"net/http"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// quota computes RequestQuotaCountModel for the caller and a request type.
func (st *store) quota(p *principal, typ int) *state.RequestQuotaCountModel {
	now := st.now().UTC()
	none := &state.RequestQuotaCountModel{NextRequest: now}
	if p == nil || p.inRole(ombiRoleAdmin) {
		return none
	}
	acc := st.users.byID(p.id)
	if acc == nil {
		return none
	}
	limit, key := 0, ""
	switch typ {
	case requestTypeMovie:
		limit, key = acc.MovieRequestLimit, "movieRequestLimitType"
	case requestTypeTV:
		limit, key = acc.EpisodeRequestLimit, "episodeRequestLimitType"
	default:
		limit, key = acc.MusicRequestLimit, "musicRequestLimitType"
	}
	if limit <= 0 {
		return none
	}
	period := 7 * 24 * time.Hour
	if t, ok := acc.Raw[key].(float64); ok {
		switch int(t) {
		case 0:
			period = 24 * time.Hour
		case 2:
			period = 30 * 24 * time.Hour
		}
	}
	since := now.Add(-period)
	used, oldest := 0, time.Time{}
	count := func(b *reqBase, n int) {
		if b.RequestedUserID != acc.ID || b.RequestedDate.Before(since) {
			return
		}
		used += n
		if oldest.IsZero() || b.RequestedDate.Before(oldest) {
			oldest = b.RequestedDate
		}
	}
	switch typ {
	case requestTypeMovie:
		for _, m := range st.requests.movies {
			count(&m.reqBase, 1)
		}
	case requestTypeTV:
		for _, c := range st.requests.children {
			count(&c.reqBase, c.episodeCount())
		}
	default:
		for _, a := range st.requests.albums {
			count(&a.reqBase, 1)
		}
	}
	next := now
	if !oldest.IsZero() {
		next = oldest.Add(period).UTC()
	}
	return &state.RequestQuotaCountModel{HasLimit: true, Limit: limit, Remaining: max(0, limit-used), NextRequest: next}
}

// writeQuota answers the caller's quota for typ.
func (s *Server) writeQuota(w http.ResponseWriter, r *http.Request, typ int) {
	var out *state.RequestQuotaCountModel
	s.store.Read(func(st *store) { out = st.quota(principalOf(r), typ) })
	writeJSON(w, http.StatusOK, out)
}

// requestMovieRemaining is GET /api/v1/Request/movie/remaining.
func (s *Server) requestMovieRemaining(w http.ResponseWriter, r *http.Request) {
	s.writeQuota(w, r, requestTypeMovie)
}

// requestTVRemaining is GET /api/v1/Request/tv/remaining.
func (s *Server) requestTVRemaining(w http.ResponseWriter, r *http.Request) {
	s.writeQuota(w, r, requestTypeTV)
}

// requestAlbumRemaining is GET /api/v1/request/music/remaining.
func (s *Server) requestAlbumRemaining(w http.ResponseWriter, r *http.Request) {
	s.writeQuota(w, r, requestTypeAlbum)
}

// quotaLeft reports whether the requesting user can place n more of typ.
func (st *store) quotaLeft(userID string, typ, n int) bool {
	acc := st.users.byID(userID)
	if acc == nil {
		return true
	}
	q := st.quota(&principal{id: acc.ID, roles: acc.Roles}, typ)
	return !q.HasLimit || q.Remaining >= n
}

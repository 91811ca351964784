package mockombi

import (
	"net/http"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// quota computes RequestQuotaCountModel for the caller and a request type.
func (st *store) quota(p *principal, typ int) *state.RequestQuotaCountModel {
	now := st.Now().UTC()
	none := &state.RequestQuotaCountModel{NextRequest: now}
	if p == nil || p.inRole(db.OmbiRoleAdmin) {
		return none
	}
	acc := st.Users.ByID(p.id)
	if acc == nil {
		return none
	}
	limit, key := 0, ""
	switch typ {
	case db.RequestTypeMovie:
		limit, key = acc.MovieRequestLimit, "movieRequestLimitType"
	case db.RequestTypeTV:
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
	count := func(b *db.ReqBase, n int) {
		if b.RequestedUserID != acc.ID || b.RequestedDate.Before(since) {
			return
		}
		used += n
		if oldest.IsZero() || b.RequestedDate.Before(oldest) {
			oldest = b.RequestedDate
		}
	}
	switch typ {
	case db.RequestTypeMovie:
		for _, m := range st.Requests.Movies {
			count(&m.ReqBase, 1)
		}
	case db.RequestTypeTV:
		for _, c := range st.Requests.Children {
			count(&c.ReqBase, c.EpisodeCount())
		}
	default:
		for _, a := range st.Requests.Albums {
			count(&a.ReqBase, 1)
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
	s.writeQuota(w, r, db.RequestTypeMovie)
}

// requestTVRemaining is GET /api/v1/Request/tv/remaining.
func (s *Server) requestTVRemaining(w http.ResponseWriter, r *http.Request) {
	s.writeQuota(w, r, db.RequestTypeTV)
}

// requestAlbumRemaining is GET /api/v1/request/music/remaining.
func (s *Server) requestAlbumRemaining(w http.ResponseWriter, r *http.Request) {
	s.writeQuota(w, r, db.RequestTypeAlbum)
}

// quotaLeft reports whether the requesting user can place n more of typ.
func (st *store) quotaLeft(userID string, typ, n int) bool {
	acc := st.Users.ByID(userID)
	if acc == nil {
		return true
	}
	q := st.quota(&principal{id: acc.ID, roles: acc.Roles}, typ)
	return !q.HasLimit || q.Remaining >= n
}

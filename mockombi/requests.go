package mockombi

import (
	"slices"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
)

// Ombi ErrorCode strings (RequestEngineResult.errorCode).
const (
	errAlreadyRequested         = "AlreadyRequested"
	errNoPermissionsOnBehalf    = "NoPermissionsOnBehalf"
	errNoPermissions            = "NoPermissions"
	errRequestDoesNotExist      = "RequestDoesNotExist"
	errChildRequestDoesNotExist = "ChildRequestDoesNotExist"
	errNoPermissionsMovie       = "NoPermissionsRequestMovie"
	errMovieQuotaExceeded       = "MovieRequestQuotaExceeded"
)

// episodeStatus is EpisodeRequests.requestStatus.
func episodeStatus(e *db.EpisodeRequest) string {
	switch {
	case e.Available:
		return "Common.Available"
	case e.Denied != nil && *e.Denied:
		return "Common.Denied"
	case e.Approved:
		return "Common.ProcessingRequest"
	case e.Requested:
		return "Common.PendingApproval"
	}
	return ""
}

// subscribed reports whether the caller follows a request.
func (st *store) subscribed(p *principal, typ, id int) bool {
	if p == nil {
		return false
	}
	return slices.Contains(st.Requests.Subs, db.Subscription{UserID: p.id, RequestType: typ, RequestID: id})
}

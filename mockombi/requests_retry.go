package mockombi

import (
	"net/http"
	"slices"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// retryList is GET /api/v1/RequestRetry: rows not completed.
func (s *Server) retryList(w http.ResponseWriter, r *http.Request) {
	out := []*state.FailedRequestViewModel{}
	s.store.Read(func(st *store) {
		for _, q := range st.Requests.Retry {
			if q.Completed != nil {
				continue
			}
			out = append(out, &state.FailedRequestViewModel{FailedID: q.ID, Title: q.Title, ReleaseYear: q.ReleaseYear,
				RequestID: q.RequestID, Type: q.Type, Dts: q.Dts, Error: q.Error, RetryCount: q.RetryCount, Extra: q.Extra})
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// retryDelete is DELETE /api/v1/RequestRetry/{queueId}; a missing row makes
// the repository delete null upstream (500).
func (s *Server) retryDelete(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "queueId")
	if !ok {
		return
	}
	found := false
	s.store.Write(func(st *store) {
		n := len(st.Requests.Retry)
		st.Requests.Retry = slices.DeleteFunc(st.Requests.Retry, func(q *db.RetryItem) bool { return q.ID == id })
		found = len(st.Requests.Retry) < n
	})
	if !found {
		writeOmbiError(w, http.StatusInternalServerError, "Value cannot be null. (Parameter 'entity')")
		return
	}
	writeJSON(w, http.StatusOK, true)
}

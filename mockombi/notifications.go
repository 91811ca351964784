package mockombi

import (
	"net/http"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
)

// notificationsMassEmail answers POST Notifications/massemail
// {subject, body, bcc, users:[OmbiUser]} with true. Users are looked up by
// id; an unknown id throws (500) as upstream does, users without an email
// are skipped, and bcc sends one message to all.
func (s *Server) notificationsMassEmail(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Subject string `json:"subject"`
		Body    string `json:"body"`
		Bcc     bool   `json:"bcc"`
		Users   []struct {
			ID string `json:"id"`
		} `json:"users"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	failed := false
	s.store.Write(func(st *store) {
		var to []string
		for _, u := range in.Users {
			a := st.Users.ByID(u.ID)
			if a == nil {
				failed = true
				return
			}
			if a.Email != "" {
				to = append(to, a.Email)
			}
		}
		if len(to) == 0 {
			return
		}
		now := s.now().UTC()
		if in.Bcc {
			st.Notifications.Sent = append(st.Notifications.Sent, db.SentEmail{To: to, Bcc: true, Subject: in.Subject, Body: in.Body, At: now})
			return
		}
		for _, addr := range to {
			st.Notifications.Sent = append(st.Notifications.Sent, db.SentEmail{To: []string{addr}, Subject: in.Subject, Body: in.Body, At: now})
		}
	})
	if failed {
		writeOmbiError(w, http.StatusInternalServerError, nullReference)
		return
	}
	writeJSON(w, http.StatusOK, true)
}

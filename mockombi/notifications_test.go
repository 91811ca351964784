package mockombi

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
)

func TestNotificationsMassEmail(t *testing.T) {
	ok := http.StatusOK
	checkAuthLevels(t, []authCase{
		{"POST", "/api/v1/Notifications/massemail", `{"subject":"s","body":"b","bcc":false,"users":[]}`, 401, 403, 403, ok},
	})

	s := newTestServer(t, Options{})
	admin, user := userID(t, s, "admin"), userID(t, s, "user")
	tests := []struct {
		name      string
		body      string
		status    int
		delivered int // messages recorded after this step, cumulative
	}{
		{"individual", `{"subject":"Maintenance","body":"Down tonight","bcc":false,"users":[{"id":"` + admin + `"},{"id":"` + user + `"}]}`, ok, 2},
		{"bcc", `{"subject":"News","body":"New films","bcc":true,"users":[{"id":"` + admin + `"},{"id":"` + user + `"}]}`, ok, 3},
		{"unknown user", `{"subject":"x","body":"y","bcc":false,"users":[{"id":"missing"}]}`, http.StatusInternalServerError, 3},
		{"nobody", `{"subject":"x","body":"y","bcc":false,"users":[]}`, ok, 3},
	}
	for _, tc := range tests {
		res := do(t, s, call{method: "POST", path: "/api/v1/Notifications/massemail", header: actingAs("admin"), body: tc.body})
		if res.status != tc.status {
			t.Fatalf("%s: status %d, want %d (%s)", tc.name, res.status, tc.status, res.body)
		}
		if tc.status == ok && strings.TrimSpace(string(res.body)) != "true" {
			t.Fatalf("%s: body %s, want true", tc.name, res.body)
		}
		var n int
		var last db.SentEmail
		s.store.Read(func(st *store) {
			n = len(st.Notifications.Sent)
			if n > 0 {
				last = st.Notifications.Sent[n-1]
			}
		})
		if n != tc.delivered {
			t.Fatalf("%s: %d messages delivered, want %d", tc.name, n, tc.delivered)
		}
		if tc.name == "bcc" && (!last.Bcc || len(last.To) != 2 || last.Subject != "News") {
			t.Fatalf("bcc message = %+v", last)
		}
	}
}

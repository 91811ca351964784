package server

import (
	"encoding/json"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

func TestWriteNotificationSend_resolvesEveryIDFirst(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	users := decodeData[userPage](t, e.h.call(t, "read_users", map[string]any{"action": "list"}))
	known := users.Items[0].ID
	r, calls := e.do(t, "write_notification_send", map[string]any{"subject": "S", "body": "B", "user_ids": []string{known, "no-such-user"}})
	wantError(t, r, codeInvalidArgument)
	wantRoutes(t, calls, "GET /api/v1/Identity/Users")

	r, calls = e.do(t, "write_notification_send", map[string]any{"subject": "S", "body": "B", "user_ids": []string{known}})
	wantRoutes(t, calls, "GET /api/v1/Identity/Users", "POST /api/v1/Notifications/massemail")
	var body struct {
		Subject string           `json:"subject"`
		Bcc     *bool            `json:"bcc"`
		Users   []map[string]any `json:"users"`
	}
	if err := json.Unmarshal(calls[1].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Subject != "S" || body.Bcc == nil || len(body.Users) != 1 || body.Users[0]["id"] != known {
		t.Errorf("massemail body = %s", calls[1].Body)
	}
	for k := range body.Users[0] {
		if k != "id" && k != "userName" && k != "email" {
			t.Errorf("massemail sends user field %q", k)
		}
	}
	if m := decodeData[mutation](t, r); m.AffectedCount == nil || *m.AffectedCount != 1 {
		t.Errorf("affected_count = %v", m.AffectedCount)
	}
}

package server

import (
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// TestClient_newsletterUnsubscribe_answer checks the answer of the newsletter
// opt-out (Ombi's empty Ok()): an empty or JSON 200 is the write done, an
// HTML page or garbage is not Ombi's answer and must not be reported as done.
func TestClient_newsletterUnsubscribe_answer(t *testing.T) {
	const uid = "b1c2d3e4-0000-4000-8000-000000000004"
	tests := []struct {
		name        string
		contentType string
		body        string
		wantSchema  bool
	}{
		{"empty 200", "", "", false},
		{"JSON 200", "application/json", "true", false},
		{"malformed JSON", "application/json", `{"result":tru`, true},
		{"plain garbage", "text/plain", "<<<not json>>>", true},
		{"HTML page", "text/html", "<html><body>proxy login</body></html>", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestClient(t, Options{AuthMode: AuthAPIKey, APIKey: "k-123"})
			r := expect("GET", "/api/v1/Identity/newsletter/unsubscribe/"+uid).Reply(200).BodyString(tt.body)
			if tt.contentType != "" {
				r.SetHeader("Content-Type", tt.contentType)
			}
			err := c.NewsletterUnsubscribe(writeCtx(), uid)
			if got := isSchema(err); got != tt.wantSchema {
				t.Fatalf("err = %v; want a schema error: %v", err, tt.wantSchema)
			}
			if !tt.wantSchema && err != nil {
				t.Fatalf("err = %v; want nil", err)
			}
		})
	}
}

func TestReadUsers_otherUsersPreferencesNeedARole(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleUser)
	r, calls := e.do(t, "read_users", map[string]any{"action": "preferences", "user_id": "someone-else"})
	wantError(t, r, codeForbidden)
	wantRoutes(t, calls, "GET /api/v1/Identity")
}

func TestWriteUserManage_refusesTheCaller(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	self := decodeData[userPage](t, e.h.call(t, "read_users", map[string]any{"action": "self"}))
	r, calls := e.do(t, "write_user_manage", map[string]any{"action": "delete", "user_id": self.Items[0].ID})
	wantError(t, r, codeForbidden)
	wantRoutes(t, calls, "GET /api/v1/Identity")
}

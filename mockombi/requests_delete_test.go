package mockombi

import (
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
)

func TestRequests_delete(t *testing.T) {
	tests := []struct {
		name       string
		as         func(t *testing.T, s *Server) map[string]string
		path       string
		wantStatus int
		wantBody   string
		gone       string // GET that must now answer 204
	}{
		{"movie", asPower, "/api/v1/Request/movie/3", 200, `"result":true`, "/api/v1/Request/movie/info/3"},
		{"missing movie dereferences null", asAdmin, "/api/v1/Request/movie/999", 500, `{"error":"Object reference not set to an instance of an object."}`, ""},
		{"album", asAdmin, "/api/v1/request/music/1", 200, `"result":true`, ""},
		{"tv parent with its children", asPower, "/api/v1/Request/tv/1", 200, ``, "/api/v1/Request/tv/1"},
		{"missing tv parent", asPower, "/api/v1/Request/tv/999", 500, `"error"`, ""},
		{"last tv child takes the parent", asPower, "/api/v1/Request/tv/child/3", 200, `"result":true`, "/api/v1/Request/tv/2"},
		{"tv child among siblings", asPower, "/api/v1/Request/tv/child/2", 200, `"result":true`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, Options{})
			h := tt.as(t, s)
			res := do(t, s, call{method: "DELETE", path: tt.path, header: h})
			if res.status != tt.wantStatus || !strings.Contains(string(res.body), tt.wantBody) || (tt.wantBody == "" && len(res.body) != 0) {
				t.Fatalf("= %d %s", res.status, res.body)
			}
			if tt.gone != "" {
				if res := do(t, s, call{method: "GET", path: tt.gone, header: h}); res.status != 204 {
					t.Errorf("%s after delete = %d", tt.gone, res.status)
				}
			}
		})
	}
	s := newTestServer(t, Options{})
	h := asPower(t, s)
	do(t, s, call{method: "DELETE", path: "/api/v1/Request/tv/1", header: h})
	var kids []any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Request/tv/1/child", header: h}, &kids)
	if len(kids) != 0 {
		t.Errorf("children survive their parent: %d", len(kids))
	}
}

func TestRequests_deleteOwnRequests(t *testing.T) {
	s := newTestServer(t, Options{Users: []User{{Username: "user", Password: "pw", Role: RoleUser}}})
	s.store.Write(func(st *store) {
		acc := st.Users.ByName("user")
		acc.Roles = append(acc.Roles, db.OmbiRoleManageOwnRequests)
	})
	h := login(t, s, "user", "pw")
	// movie 7 is the user's own, movie 3 is plexfan's
	if er := engine(t, s, call{method: "DELETE", path: "/api/v1/Request/movie/7", header: h}); er["result"] != true {
		t.Errorf("own delete = %v", er)
	}
	if er := engine(t, s, call{method: "DELETE", path: "/api/v1/Request/movie/3", header: h}); er["result"] != false || er["errorCode"] != "NoPermissions" {
		t.Errorf("foreign delete = %v", er)
	}
}

package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

func TestAdminTools_wireRoutes(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	tests := []struct {
		tool string
		args string
		want []string
	}{
		{"read_issues", `{"action":"list","status":"in_progress","page":{"offset":5,"limit":10}}`, []string{"GET /api/v1/Issues/10/5/1"}},
		{"read_issues", `{"action":"summary","status":"resolved","page":{"offset":5,"limit":10}}`, []string{"GET /api/v2/Issues/5/10/2"}},
		{"read_issues", `{"action":"provider_summary","provider_id":"x/y%z"}`, []string{"GET /api/v2/Issues/details/x%2Fy%25z"}},
		{"read_issues", `{"action":"comments","issue_id":3,"page":{"offset":40}}`, []string{"GET /api/v1/Issues/3/comments"}},
		{"read_issues", `{"action":"counts"}`, []string{"GET /api/v1/Issues/count"}},
		{"read_votes", `{"action":"list"}`, []string{"GET /api/v1/Vote"}},
		{"read_votes", `{"action":"by_request","media":"album","request_id":7}`, []string{"GET /api/v1/Vote/music/7"}},
		{"write_vote", `{"action":"up","media":"album","request_id":2}`, []string{"POST /api/v1/Vote/up/album/2"}},
		{"write_vote", `{"action":"down","media":"tv","request_id":6}`, []string{"POST /api/v1/Vote/down/tv/6"}},
		{"read_users", `{"action":"claims"}`, []string{"GET /api/v1/Identity/claims"}},
		{"read_users", `{"action":"online"}`, []string{"GET /api/v2/Hub/Users"}},
		{"read_library", `{"action":"recent_tv_grouped"}`, []string{"GET /api/v1/RecentlyAdded/tv/grouped"}},
		{"read_library", `{"action":"tv_images","tmdb_id":1396,"kind":"background"}`, []string{"GET /api/v1/Images/background/tv/tmdb/1396"}},
		{"read_library", `{"action":"random_artwork","kind":"poster"}`, []string{"GET /api/v1/Images/poster"}},
		{"read_server", `{"action":"update_check"}`, []string{"GET /api/v1/Job/update"}},
		{"read_server", `{"action":"stats","from":"2026-01-01T00:00:00Z","to":"2026-02-01T00:00:00Z"}`,
			[]string{"GET /api/v1/Stats?from=2026-01-01T00%3A00%3A00Z&to=2026-02-01T00%3A00%3A00Z"}},
		{"read_integration", `{"action":"arr_options","service":"radarr","kind":"root_folders","is_4k":true}`, []string{"GET /api/v1/Radarr/RootFolders/4k"}},
		{"read_integration", `{"action":"arr_options","service":"sonarr","kind":"language_profiles"}`, []string{"GET /api/v1/Sonarr/v3/LanguageProfiles"}},
		{"read_integration", `{"action":"arr_options","service":"lidarr","kind":"metadata_profiles"}`, []string{"GET /api/v1/Settings/lidarr", "POST /api/v1/Lidarr/Metadata"}},
		{"read_settings", `{"section":"user_management"}`, []string{"GET /api/v1/Settings/UserManagement"}},
		{"read_settings", `{"section":"email_enabled"}`, []string{"GET /api/v1/Settings/notifications/email/enabled"}},
		{"read_settings", `{"section":"custom_page"}`, []string{"GET /api/v1/CustomPage"}},
		{"write_issue_manage", `{"action":"delete_category","category_id":4}`, []string{"DELETE /api/v1/Issues/categories/4"}},
		{"write_job_run", `{"action":"run","job":"arrAvailability"}`, []string{"POST /api/v1/Job/arrAvailability"}},
		{"write_job_run", `{"action":"revalidate_watchlist"}`, []string{"POST /api/v1/Plex/WatchlistUsers/revalidate"}},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.args, func(t *testing.T) {
			_, calls := e.do(t, tt.tool, json.RawMessage(tt.args))
			wantRoutes(t, calls, tt.want...)
		})
	}
}

func TestAdminTools_runtimeRejectionsSendNothing(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	tests := []struct {
		tool, args, code, field string
	}{
		{"read_server", `{"action":"stats","from":"2026-03-01T00:00:00Z","to":"2026-02-01T00:00:00Z"}`, codeInvalidArgument, "/from"},
		{"write_job_run", `{"action":"run","job":"update"}`, codeForbidden, ""},
		{"write_job_run", `{"action":"run","job":"clearmediaserverdata"}`, codeForbidden, ""},
		{"write_integration_test", `{"service":"discord","profile_id":"default"}`, codeNotFound, ""},
		{"write_issue_create", `{"title":"T","subject":"S","description":"D","category_id":1,"request_type":"album","request_id":2,"provider_id":"x"}`, codeInvalidArgument, "/provider_id"},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.args, func(t *testing.T) {
			r, calls := e.do(t, tt.tool, json.RawMessage(tt.args))
			wantError(t, r, tt.code)
			if tt.field != "" && r.Error.Field != tt.field {
				t.Errorf("field = %q, want %q", r.Error.Field, tt.field)
			}
			wantRoutes(t, calls)
		})
	}
}

// adminTools are the tools of the issues, votes, users, library, server,
// settings, integration, logs, job and notification domains.
var adminTools = []string{
	"read_issues", "read_votes", "read_users", "read_library", "read_server", "read_integration",
	"read_settings", "read_logs", "write_issue_create", "write_issue_comment", "write_issue_manage",
	"write_vote", "write_user_preferences", "write_user_manage", "write_settings_patch",
	"write_integration_test", "write_job_run", "write_notification_send",
}

type schemaTable struct {
	Valid []struct {
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"valid"`
}

func validExamples(t *testing.T, tool string) schemaTable {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "fixtures", "schema", tool+".json"))
	if err != nil {
		t.Fatalf("read fixtures of %s: %v", tool, err)
	}
	var tab schemaTable
	if err := json.Unmarshal(b, &tab); err != nil {
		t.Fatalf("decode fixtures of %s: %v", tool, err)
	}
	if len(tab.Valid) == 0 {
		t.Fatalf("%s has no valid examples", tool)
	}
	return tab
}

func allBundles(o Options) Options {
	o.Bundles = []string{"core", "moderation", "administration"}
	return o
}

// TestAdminTools_everyValidExampleAnswersAContractEnvelope runs every valid
// schema example of these tools against the mock as an administrator:
// each answer validates against the tool's outputSchema (checked by call),
// and none is an internal error, a schema mismatch or "not implemented".
func TestAdminTools_everyValidExampleAnswersAContractEnvelope(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	h := newHarness(t, m, allBundles(jwtOptions(t, m)))
	for _, tool := range adminTools {
		for _, ex := range validExamples(t, tool).Valid {
			t.Run(tool+"/"+ex.Name, func(t *testing.T) {
				if strings.HasPrefix(tool, "write_") {
					// Back to the seed; Reset rotates auth, so a read logs in
					// again before the write (writes never replay a 401).
					m.Reset()
					h.call(t, "read_users", map[string]any{"action": "self"})
				}
				r := h.call(t, tool, ex.Args)
				if r.Error != nil {
					switch r.Error.Code {
					case codeInternalError, codeUpstreamSchemaMismatch, codeUnsupportedCapability:
						t.Errorf("%s %s: %s %s", tool, ex.Args, r.Error.Code, r.Error.Message)
					}
				}
				if testing.Verbose() {
					t.Logf("%s %s -> ok=%v %s", tool, ex.Args, r.OK, strings.TrimSpace(string(r.raw)))
				}
			})
		}
	}
}

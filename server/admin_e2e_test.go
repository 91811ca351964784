package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// adminEnv is one mock plus a server session as a given mock role, with
// every bundle enabled.
type adminEnv struct {
	m *mockombi.Server
	h *harness
}

func newAdminEnv(t *testing.T, role string) *adminEnv {
	t.Helper()
	m := startMock(t, mockombi.Options{})
	return &adminEnv{m: m, h: newHarness(t, m, roleOptions(t, m, role))}
}

// roleOptions logs in as the mock's user of a role, all bundles enabled.
func roleOptions(t *testing.T, m *mockombi.Server, role string) Options {
	t.Helper()
	o := allBundles(jwtOptions(t, m))
	for _, u := range m.Credentials().Users {
		if u.Role == role {
			o.Username, o.Password = u.Username, u.Password
			return o
		}
	}
	t.Fatalf("mockombi has no %s user", role)
	return o
}

// do calls a tool with a clean journal and returns the result and the
// upstream calls it made (logins excluded).
func (e *adminEnv) do(t *testing.T, tool string, args any) (result, []mockombi.Call) {
	t.Helper()
	e.m.ClearJournal()
	r := e.h.call(t, tool, args)
	return r, e.h.upstreamCalls()
}

func routes(calls []mockombi.Call) []string {
	var out []string
	for _, c := range calls {
		p := c.Path
		if c.Query != "" {
			p += "?" + c.Query
		}
		out = append(out, c.Method+" "+p)
	}
	return out
}

func wantRoutes(t *testing.T, calls []mockombi.Call, want ...string) {
	t.Helper()
	if got := routes(calls); !reflect.DeepEqual(got, want) {
		t.Fatalf("upstream calls = %q, want %q", got, want)
	}
}

func wantError(t *testing.T, r result, code string) {
	t.Helper()
	if r.OK || r.Error == nil || r.Error.Code != code {
		t.Fatalf("want %s, got ok=%v %s", code, r.OK, r.raw)
	}
}

func decodeData[T any](t *testing.T, r result) T {
	t.Helper()
	if !r.OK {
		t.Fatalf("want ok, got %s", r.raw)
	}
	var v T
	if err := json.Unmarshal(r.Data, &v); err != nil {
		t.Fatalf("decode data: %v\n%s", err, r.Data)
	}
	return v
}

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

func TestWriteIssueCreate_sendsOnlyTheMappedFields(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	r, calls := e.do(t, "write_issue_create", map[string]any{
		"title": "Dune", "subject": "Audio", "description": "Out of sync.", "category_id": 1, "request_type": "movie", "request_id": 1,
	})
	wantRoutes(t, calls, "POST /api/v1/Issues")
	var body map[string]any
	if err := json.Unmarshal(calls[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"title": "Dune", "subject": "Audio", "description": "Out of sync.", "issueCategoryId": 1.0, "requestType": 1.0, "requestId": 1.0}
	if !reflect.DeepEqual(body, want) {
		t.Errorf("body = %v, want %v", body, want)
	}
	m := decodeData[mutation](t, r)
	if m.Outcome != mutationCompleted || m.IssueID < 1 {
		t.Errorf("mutation = %+v, want completed with the new issue id", m)
	}
}

// TestWriteIssueCreate_associationReadWithoutIDs checks that a media read
// answered by an object without any id (a business failure, say) is a
// schema mismatch, never a refusal of provider_id: it proves no mismatch,
// and nothing is posted.
func TestWriteIssueCreate_associationReadWithoutIDs(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	if err := e.m.InjectFault(mockombi.Fault{Method: "GET", Path: "/api/v2/Search/movie/request/1", Kind: mockombi.FaultBusinessError}); err != nil {
		t.Fatal(err)
	}
	r, calls := e.do(t, "write_issue_create", map[string]any{
		"title": "Dune", "subject": "Audio", "description": "Out of sync.", "category_id": 1, "request_type": "movie", "request_id": 1, "provider_id": "438631",
	})
	wantRoutes(t, calls, "GET /api/v2/Search/movie/request/1")
	wantError(t, r, codeUpstreamSchemaMismatch)
}

func TestReadVotes_upstream500StaysAnError(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	if err := e.m.SetQuirk("vote_read_500", true); err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"action":"list"}`, `{"action":"by_request","media":"movie","request_id":4}`} {
		r, _ := e.do(t, "read_votes", json.RawMessage(args))
		wantError(t, r, codeUpstreamRejected)
		if len(r.Data) != 0 {
			t.Errorf("%s: a failed vote read carries data: %s", args, r.Data)
		}
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

// rawSettings reads a section straight from the mock with the API key.
func rawSettings(t *testing.T, m *mockombi.Server, wire string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, m.URL()+"/api/v1/Settings/"+wire, nil)
	req.Header.Set("ApiKey", m.Credentials().APIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode %s: %v", wire, err)
	}
	return v
}

func TestWriteSettingsPatch_cycle(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	before := rawSettings(t, e.m, "ombi")
	read := decodeData[settingsResult](t, e.h.call(t, "read_settings", map[string]any{"section": "ombi"}))
	if read.Revision == "" {
		t.Fatal("a writable section carries a revision")
	}
	want := !before["hideRequestsUsers"].(bool)
	patch := map[string]any{"action": "patch", "section": "ombi", "revision": read.Revision, "changes": map[string]any{"hideRequestsUsers": want}}
	r, calls := e.do(t, "write_settings_patch", patch)
	wantRoutes(t, calls, "GET /api/v1/Settings/ombi", "POST /api/v1/Settings/ombi")
	if m := decodeData[mutation](t, r); m.Outcome != mutationCompleted {
		t.Errorf("outcome = %s", m.Outcome)
	}
	var posted map[string]any
	if err := json.Unmarshal(calls[1].Body, &posted); err != nil {
		t.Fatal(err)
	}
	expect := map[string]any{}
	for k, v := range before {
		expect[k] = v
	}
	expect["hideRequestsUsers"] = want
	if !reflect.DeepEqual(posted, expect) {
		t.Errorf("posted model differs from the original plus the change:\n got %v\nwant %v", posted, expect)
	}
	if posted["apiKey"] != before["apiKey"] || before["apiKey"] == "" {
		t.Errorf("the api key was not kept byte for byte")
	}

	// The same revision is now stale: CONFLICT and no POST.
	r, calls = e.do(t, "write_settings_patch", patch)
	wantError(t, r, codeConflict)
	wantRoutes(t, calls, "GET /api/v1/Settings/ombi")

	again := decodeData[settingsResult](t, e.h.call(t, "read_settings", map[string]any{"section": "ombi"}))
	if again.Revision == read.Revision {
		t.Error("the revision did not change after a save")
	}
}

func TestWriteSettingsPatch_rejectionsNeverPost(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	tests := []struct {
		name, section, wire string
		changes             string
		field               string
	}{
		{"unknown key", "ombi", "ombi", `{"noSuchKey":true}`, "/changes/noSuchKey"},
		{"secret key", "ombi", "ombi", `{"apiKey":"x"}`, "/changes/apiKey"},
		{"identity", "ombi", "ombi", `{"id":5}`, "/changes/id"},
		{"type change", "ombi", "ombi", `{"hideRequestsUsers":"yes"}`, "/changes/hideRequestsUsers"},
		{"nested null", "radarr", "radarr", `{"radarr":{"enabled":null}}`, "/changes/radarr/enabled"},
		{"array replacement", "user_management", "UserManagement", `{"defaultRoles":["Admin"]}`, "/changes/defaultRoles"},
		{"server identity", "plex", "plex", `{"servers":{"0":{"machineIdentifier":"x"}}}`, "/changes/servers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read := decodeData[settingsResult](t, e.h.call(t, "read_settings", map[string]any{"section": tt.section}))
			r, calls := e.do(t, "write_settings_patch", map[string]any{"action": "patch", "section": tt.section, "revision": read.Revision, "changes": json.RawMessage(tt.changes)})
			wantError(t, r, codeInvalidArgument)
			if r.Error.Field != tt.field {
				t.Errorf("field = %q, want %q", r.Error.Field, tt.field)
			}
			wantRoutes(t, calls, "GET /api/v1/Settings/"+tt.wire)
		})
	}
	t.Run("no-op", func(t *testing.T) {
		cur := rawSettings(t, e.m, "ombi")["hideRequestsUsers"]
		read := decodeData[settingsResult](t, e.h.call(t, "read_settings", map[string]any{"section": "ombi"}))
		r, calls := e.do(t, "write_settings_patch", map[string]any{"action": "patch", "section": "ombi", "revision": read.Revision, "changes": map[string]any{"hideRequestsUsers": cur}})
		wantError(t, r, codeInvalidArgument)
		wantRoutes(t, calls, "GET /api/v1/Settings/ombi")
	})
}

func TestWriteSettingsPatch_templatesMergeByLabel(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	before := rawSettings(t, e.m, "notifications/discord")
	tmpls, _ := before["notificationTemplates"].([]any)
	if len(tmpls) == 0 {
		t.Fatal("the mock's discord settings have no templates")
	}
	first := tmpls[0].(map[string]any)
	nt, _ := codeLabel(t, enumNotificationType, first["notificationType"])
	read := decodeData[settingsResult](t, e.h.call(t, "read_settings", map[string]any{"section": "notifications_discord"}))
	r, calls := e.do(t, "write_settings_patch", map[string]any{"action": "patch", "section": "notifications_discord", "revision": read.Revision,
		"changes": map[string]any{"notificationTemplates": []any{map[string]any{"notification_type": nt, "agent": "discord", "message": "Changed text"}}}})
	if !r.OK {
		t.Fatalf("patch failed: %s", r.raw)
	}
	var posted map[string]any
	_ = json.Unmarshal(calls[len(calls)-1].Body, &posted)
	got := posted["notificationTemplates"].([]any)
	if len(got) != len(tmpls) {
		t.Fatalf("template count %d, want %d", len(got), len(tmpls))
	}
	if got[0].(map[string]any)["message"] != "Changed text" {
		t.Errorf("the keyed template was not changed: %v", got[0])
	}
	for i := 1; i < len(tmpls); i++ {
		if !reflect.DeepEqual(got[i], tmpls[i]) {
			t.Errorf("template %d changed: %v", i, got[i])
		}
	}
}

// codeLabel maps an upstream code (a JSON number) to its label.
func codeLabel(t *testing.T, enum string, v any) (string, bool) {
	t.Helper()
	f, ok := v.(float64)
	if !ok {
		t.Fatalf("code %v is not a number", v)
	}
	c := &call{}
	return enumLabel(c, enum, "test", int(f))
}

func canaryValues(m *mockombi.Server) []string {
	var out []string
	for _, c := range m.Canaries() {
		out = append(out, c.Value)
	}
	return out
}

func TestReadLogs_listThenReadIsSanitisedAndBounded(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	list := decodeData[logsResult](t, e.h.call(t, "read_logs", map[string]any{"action": "list"}))
	if len(list.Files) == 0 {
		t.Fatal("no log files listed")
	}
	canaries := canaryValues(e.m)
	for _, f := range list.Files {
		r, calls := e.do(t, "read_logs", map[string]any{"action": "read", "file_id": f.FileID, "lines": map[string]any{"limit": 500}})
		wantRoutes(t, calls, "GET /api/v2/System/logs", "GET /api/v2/System/logs/"+url.PathEscape(f.Name))
		got := decodeData[logsResult](t, r)
		if len(got.Lines) == 0 || len(got.Lines) > 500 {
			t.Errorf("%s: %d lines", f.Name, len(got.Lines))
		}
		for _, c := range canaries {
			if strings.Contains(string(r.raw), c) {
				t.Errorf("%s: output carries canary %s", f.Name, c)
			}
		}
	}
	r, _ := e.do(t, "read_logs", map[string]any{"action": "read", "file_id": list.Files[0].FileID, "lines": map[string]any{"offset": 10, "limit": 20}})
	w := decodeData[logsResult](t, r)
	if len(w.Lines) != 20 || w.NextOffset == nil || *w.NextOffset != 30 || !w.Truncated {
		t.Errorf("window 10+20: %d lines, next %v, truncated %v", len(w.Lines), w.NextOffset, w.Truncated)
	}
}

func TestAdminReads_neverLeakCanaries(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	canaries := canaryValues(e.m)
	if len(canaries) == 0 {
		t.Fatal("the mock planted no canaries")
	}
	for _, tool := range []string{"read_settings", "read_users", "read_integration", "read_server", "read_library", "read_issues"} {
		for _, ex := range validExamples(t, tool).Valid {
			r := e.h.call(t, tool, ex.Args)
			for _, c := range canaries {
				if strings.Contains(string(r.raw), c) {
					t.Errorf("%s %s carries canary %s", tool, ex.Args, c)
				}
			}
		}
	}
}

func TestReadIntegration_plexLibrariesResolveASavedServer(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	plex := rawSettings(t, e.m, "plex")
	servers, _ := plex["servers"].([]any)
	if len(servers) == 0 {
		t.Fatal("the mock has no saved plex server")
	}
	machine, _ := servers[0].(map[string]any)["machineIdentifier"].(string)
	read := decodeData[settingsResult](t, e.h.call(t, "read_settings", map[string]any{"section": "plex"}))
	shown := false
	for _, v := range read.Values {
		if v.Name == "/servers/0/machineIdentifier" && v.Value == machine {
			shown = true
		}
	}
	if !shown {
		t.Errorf("read_settings plex does not show /servers/0/machineIdentifier")
	}
	r, calls := e.do(t, "read_integration", map[string]any{"action": "plex_libraries", "machine_id": machine})
	wantRoutes(t, calls, "GET /api/v1/Settings/plex", "GET /api/v1/Plex/Libraries/"+url.PathEscape(machine))
	if !r.OK {
		t.Errorf("plex_libraries of a saved server failed: %s", r.raw)
	}
}

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

func TestWriteJobsAndTesters_followTheDeploymentLists(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	o := roleOptions(t, m, mockombi.RoleAdmin)
	o.AllowedJobs, o.Profiles = []string{"update"}, []string{"discord:default", "radarr:4k"}
	e := &adminEnv{m: m, h: newHarness(t, m, o)}
	_, calls := e.do(t, "write_job_run", map[string]any{"action": "run", "job": "update"})
	wantRoutes(t, calls, "POST /api/v1/Job/update")
	r, calls := e.do(t, "write_job_run", map[string]any{"action": "run", "job": "plexuserimporter"})
	wantError(t, r, codeForbidden)
	wantRoutes(t, calls)

	_, calls = e.do(t, "write_integration_test", map[string]any{"service": "discord", "profile_id": "default"})
	wantRoutes(t, calls, "GET /api/v1/Settings/notifications/discord", "POST /api/v1/Tester/discord")
	saved := rawSettings(t, e.m, "notifications/discord")
	var posted map[string]any
	_ = json.Unmarshal(calls[1].Body, &posted)
	if !reflect.DeepEqual(posted, saved) {
		t.Errorf("tester body is not the saved settings")
	}
	_, calls = e.do(t, "write_integration_test", map[string]any{"service": "radarr", "profile_id": "4k"})
	wantRoutes(t, calls, "GET /api/v1/Settings/radarr", "POST /api/v1/Tester/radarr")
	r, calls = e.do(t, "write_integration_test", map[string]any{"service": "radarr", "profile_id": "default"})
	wantError(t, r, codeNotFound)
	wantRoutes(t, calls)
}

func TestWriteIssueManage_setStatusNeedsModerationRole(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleUser)
	r, calls := e.do(t, "write_issue_manage", map[string]any{"action": "set_status", "issue_id": 1, "status": "resolved"})
	wantError(t, r, codeForbidden)
	wantRoutes(t, calls, "GET /api/v1/Identity")

	p := newAdminEnv(t, mockombi.RolePowerUser)
	r, calls = p.do(t, "write_issue_manage", map[string]any{"action": "set_status", "issue_id": 1, "status": "resolved"})
	wantRoutes(t, calls, "GET /api/v1/Identity", "POST /api/v1/Issues/status")
	if !r.OK || !strings.Contains(string(calls[1].Body), `"status":2`) {
		t.Errorf("a power user's status change: %s body %s", r.raw, calls[1].Body)
	}
}

func TestReadIntegration_mediaServerUsesTheSavedServer(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	emby := rawSettings(t, e.m, "emby")
	servers, _ := emby["servers"].([]any)
	if len(servers) == 0 {
		t.Fatal("the mock has no saved emby server")
	}
	saved := servers[0].(map[string]any)
	id, _ := saved["serverId"].(string)
	for _, kind := range []string{"info", "libraries"} {
		r, calls := e.do(t, "read_integration", map[string]any{"action": "media_server", "service": "emby", "kind": kind, "server_id": id})
		path := map[string]string{"info": "/api/v1/Emby/info", "libraries": "/api/v1/Emby/Library"}[kind]
		wantRoutes(t, calls, "GET /api/v1/Settings/emby", "POST "+path)
		var posted map[string]any
		_ = json.Unmarshal(calls[1].Body, &posted)
		if !reflect.DeepEqual(posted, saved) {
			t.Errorf("%s: the posted server is not the saved one: %s", kind, calls[1].Body)
		}
		page := decodeData[referencePage](t, r)
		if len(page.Items) == 0 {
			t.Errorf("%s: no records", kind)
		}
		if strings.Contains(string(r.raw), saved["apiKey"].(string)) {
			t.Errorf("%s: the saved api key reached the output", kind)
		}
	}
}

func TestReadLogs_largeFileIsStreamed(t *testing.T) {
	m := startMock(t, mockombi.Options{DataSet: "large"})
	h := newHarness(t, m, allBundles(jwtOptions(t, m)))
	list := decodeData[logsResult](t, h.call(t, "read_logs", map[string]any{"action": "list"}))
	if len(list.Files) == 0 {
		t.Fatal("no log files listed")
	}
	r := h.call(t, "read_logs", map[string]any{"action": "read", "file_id": list.Files[0].FileID, "lines": map[string]any{"offset": 99990, "limit": 500}})
	w := decodeData[logsResult](t, r)
	if len(w.Lines) != 10 || w.NextOffset != nil || w.Truncated {
		t.Errorf("the last window of a 100,000-line file: %d lines, next %v, truncated %v", len(w.Lines), w.NextOffset, w.Truncated)
	}
}

package server

import (
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

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

func TestFlattenSettings(t *testing.T) {
	doc, _ := decodeDoc(json.RawMessage(`{"id":1,"enable":true,"a/b":{"c~d":2},"apiKey":"k","serverHostname":"https://x",
		"servers":[{"id":7,"serverId":"s1","apiKey":"k2","name":"Den","ip":"10.0.0.2","port":8096,
			"embySelectedLibraries":[{"key":"k1","title":"Films","enabled":true}]}],
		"name":"see https://example.org"}`))
	values, omitted := flattenSettings("emby", doc)
	got := map[string]any{}
	for _, v := range values {
		got[v.Name] = v.Value
	}
	for _, name := range []string{"/enable", "/servers/0/id", "/servers/0/serverId", "/servers/0/name", "/servers/0/port",
		"/servers/0/embySelectedLibraries/0/title", "/servers/0/embySelectedLibraries/0/enabled"} {
		if _, ok := got[name]; !ok {
			t.Errorf("%s is not shown", name)
		}
	}
	want := []string{"/a~1b/c~0d", "/apiKey", "/id", "/name", "/serverHostname", "/servers/0/apiKey",
		"/servers/0/embySelectedLibraries/0/key", "/servers/0/ip"}
	if !reflect.DeepEqual(omitted, want) {
		t.Errorf("omitted = %v, want %v", omitted, want)
	}
}

func TestMergeSettings(t *testing.T) {
	allowed := []string{"a", "n", "s", "apiKey", "obj", "b", "c", "arr", "notificationTemplates", "notificationType", "agent", "message", "enabled"}
	orig, _ := decodeDoc(json.RawMessage(`{"a":true,"n":3,"s":"x","apiKey":"k","obj":{"b":1,"c":"keep","d":2},"arr":[1],"unlisted":false,
		"notificationTemplates":[{"notificationType":1,"agent":1,"message":"m1","enabled":true},{"notificationType":0,"agent":1,"message":"m0","enabled":true}]}`))
	om := orig.(map[string]any)
	tests := []struct {
		changes string
		field   string // "" = accepted
	}{
		{`{"a":false,"obj":{"b":2}}`, ""},
		{`{"zz":1}`, "/changes/zz"},
		{`{"unlisted":true}`, "/changes/unlisted"},
		{`{"obj":{"d":1}}`, "/changes/obj/d"},
		{`{"apiKey":"new"}`, "/changes/apiKey"},
		{`{"obj":{"b":null}}`, "/changes/obj/b"},
		{`{"obj":5}`, "/changes/obj"},
		{`{"arr":[2]}`, "/changes/arr"},
		{`{"n":"3"}`, "/changes/n"},
		{`{"s":"https://evil.example"}`, "/changes/s"},
		{`{"notificationTemplates":[{"notification_type":"issue","agent":"discord","message":"new"}]}`, ""},
		{`{"notificationTemplates":[{"notification_type":"issue","agent":"email","message":"new"}]}`, "/changes/notificationTemplates/0"},
		{`{"notificationTemplates":[{"notification_type":"issue","agent":"discord"}]}`, "/changes/notificationTemplates/0"},
	}
	for _, tt := range tests {
		ch, _ := decodeDoc(json.RawMessage(tt.changes))
		merged, err := mergeSettings(om, ch.(map[string]any), allowed, "/changes", "")
		var ae *ombi.ArgumentError
		switch {
		case tt.field == "" && err != nil:
			t.Errorf("%s: unexpected error %v", tt.changes, err)
		case tt.field != "" && (err == nil || !asArg(err, &ae) || ae.Field != tt.field):
			t.Errorf("%s: error %v, want field %s", tt.changes, err, tt.field)
		case tt.field == "":
			if merged["apiKey"] != "k" || merged["obj"].(map[string]any)["c"] != "keep" || merged["unlisted"] != false {
				t.Errorf("%s: untouched values changed: %v", tt.changes, merged)
			}
		}
	}
	ch, _ := decodeDoc(json.RawMessage(`{"notificationTemplates":[{"notification_type":"issue","agent":"discord","message":"new"}]}`))
	merged, _ := mergeSettings(om, ch.(map[string]any), allowed, "/changes", "")
	tm := merged["notificationTemplates"].([]any)
	if tm[0].(map[string]any)["message"] != "new" || tm[1].(map[string]any)["message"] != "m0" {
		t.Errorf("templates merged by index, not by key: %v", tm)
	}
}

func TestSettings_whatsAppSenderIsADestination(t *testing.T) {
	doc, _ := decodeDoc(json.RawMessage(`{"id":28,"whatsAppSettings":{"enabled":true,"from":"+15550001111"}}`))
	values, omitted := flattenSettings("notifications_twilio", doc)
	if !slices.Contains(omitted, "/whatsAppSettings/from") {
		t.Errorf("the sender number is not omitted: values %v, omitted %v", values, omitted)
	}
	ch, _ := decodeDoc(json.RawMessage(`{"whatsAppSettings":{"from":"+15550002222"}}`))
	_, err := mergeSettings(doc.(map[string]any), ch.(map[string]any), settingsFields["notifications_twilio"], "/changes", "")
	var ae *ombi.ArgumentError
	if err == nil || !asArg(err, &ae) || ae.Field != "/changes/whatsAppSettings/from" {
		t.Errorf("a patch of the sender number: error %v, want one at /changes/whatsAppSettings/from", err)
	}
}

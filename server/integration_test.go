package server

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

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

func TestOptionRefs(t *testing.T) {
	tests := []struct {
		raw  string
		want []reference
	}{
		{`[{"id":21,"path":"/media/tv","freeSpace":1}]`, []reference{{ID: "21", Name: "/media/tv", Value: int64(21), Category: "c"}}},
		{`{"success":true,"servers":[{"machineIdentifier":"abc","name":"Den"}]}`, []reference{{ID: "abc", Name: "Den", Value: "abc", Category: "c"}}},
		{`{"data":{"mediaContainer":{"directory":[{"key":"1","title":"Movies"}]}}}`, []reference{{ID: "1", Name: "Movies", Value: "1", Category: "c"}}},
		{`[{"label":"anime","id":2}]`, []reference{{ID: "2", Name: "anime", Value: int64(2), Category: "c"}}},
		{`[{"id":3,"name":"??????","title":"Clean"}]`, []reference{{ID: "3", Name: "Clean", Value: int64(3), Category: "c"}}},
		{`null`, []reference{}},
	}
	for _, tt := range tests {
		got, err := optionRefs(json.RawMessage(tt.raw), "c")
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("optionRefs(%s) = %#v, %v; want %#v", tt.raw, got, err, tt.want)
		}
	}
	for _, raw := range []string{`{}`, `{"success":true}`, `{"machineId":"abc","serverName":"Den"}`} {
		if _, err := optionRefs(json.RawMessage(raw), "c"); err == nil {
			t.Errorf("optionRefs(%s): an object that holds no list must not be an empty, complete list", raw)
		} else if obj := errorObject(err, false); obj.Code != codeUpstreamSchemaMismatch {
			t.Errorf("optionRefs(%s) maps to %s, want UPSTREAM_SCHEMA_MISMATCH", raw, obj.Code)
		}
	}
	if _, err := optionRefs(json.RawMessage(`{"success":false,"message":"Plex token expired"}`), "c"); err == nil {
		t.Error("a success:false wrapper must be an upstream rejection")
	} else if obj := errorObject(err, false); obj.Code != codeUpstreamRejected {
		t.Errorf("success:false maps to %s", obj.Code)
	}
}

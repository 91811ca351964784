package server

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

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

func TestDeploymentLists(t *testing.T) {
	def := allowedJobs(commaList(""))
	for _, j := range riskyJobs {
		if def[j] {
			t.Errorf("risky job %s is on by default", j)
		}
	}
	if !def["arrAvailability"] || len(def) != len(allJobs())-len(riskyJobs) {
		t.Errorf("default jobs = %v", def)
	}
	if got := allowedJobs(commaList(" update , bogus,newsletter")); !reflect.DeepEqual(got, map[string]bool{"update": true, "newsletter": true}) {
		t.Errorf("explicit jobs = %v", got)
	}
	if got := parseProfiles(commaList("discord:default, radarr:4k,bad,:x,emby:")); !reflect.DeepEqual(got, map[string]bool{"discord:default": true, "radarr:4k": true}) {
		t.Errorf("profiles = %v", got)
	}
}

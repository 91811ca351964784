package mockombi

import (
	"net/http"
	"strings"
	"testing"
)

func TestIntegrationsAuthLevels(t *testing.T) {
	ok := http.StatusOK
	cases := []authCase{
		{"GET", "/api/v1/Sonarr/enabled", "", 401, 403, ok, ok},
		{"GET", "/api/v1/Sonarr/version", "", 401, 403, ok, ok},
		{"GET", "/api/v1/Radarr/enabled", "", 401, 403, ok, ok},
		{"GET", "/api/v1/Lidarr/enabled", "", ok, ok, ok, ok},
		{"POST", "/api/v1/Lidarr/Metadata", `{"apiKey":"x"}`, 401, 403, ok, ok},
		{"POST", "/api/v1/CouchPotato/profile", `{"apiKey":"x"}`, 401, 403, 403, ok},
		{"POST", "/api/v1/CouchPotato/apikey", `{"username":"cp"}`, 401, 403, 403, ok},
		{"GET", "/api/v1/Plex/servers", "", 401, 403, 403, ok},
		{"GET", "/api/v1/Plex/Libraries/a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4", "", 401, 403, 403, ok},
		{"GET", "/api/v1/Plex/friends", "", 401, 403, 403, ok},
		{"POST", "/api/v1/Plex/WatchlistUsers/revalidate", "", 401, 403, 403, http.StatusAccepted},
		{"GET", "/api/v1/Emby/users", "", 401, 403, 403, ok},
		{"GET", "/api/v1/Jellyfin/users", "", 401, 403, 403, ok},
		{"POST", "/api/v1/Jellyfin/info", `{"serverId":"0a9b8c7d6e5f40312a3b4c5d6e7f8091"}`, 401, 403, 403, ok},
		{"POST", "/api/v1/Emby/Library", `{"serverId":"d6f1a8c2b3e44f5a9b8c7d6e5f4a3b2c"}`, 401, 403, 403, ok},
		{"POST", "/api/v1/Tester/discord", `{"webhookUrl":"x"}`, 401, 403, 403, ok},
	}
	// Radarr 4K is disabled in the seed: its root folders are null (204).
	cases = append(cases, authCase{"GET", "/api/v1/Radarr/RootFolders/4k", "", 401, 403, 204, 204})
	for _, p := range []string{"Sonarr/Profiles", "Sonarr/RootFolders", "Sonarr/v3/LanguageProfiles", "Sonarr/tags",
		"Radarr/Profiles", "Radarr/Profiles/4k", "Radarr/RootFolders", "Radarr/tags",
		"Lidarr/Profiles", "Lidarr/RootFolders"} {
		cases = append(cases, authCase{"GET", "/api/v1/" + p, "", 401, 403, ok, ok})
	}
	checkAuthLevels(t, cases)
}

func TestIntegrationsArrOptions(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		method, path, body string
		count              int
	}{
		{"GET", "/api/v1/Sonarr/Profiles", "", 3},
		{"GET", "/api/v1/Sonarr/RootFolders", "", 2},
		{"GET", "/api/v1/Sonarr/v3/LanguageProfiles", "", 2},
		{"GET", "/api/v1/Sonarr/tags", "", 2},
		{"GET", "/api/v1/Radarr/Profiles", "", 2},
		{"GET", "/api/v1/Radarr/RootFolders", "", 1},
		{"GET", "/api/v1/Radarr/tags", "", 2},
		{"GET", "/api/v1/Lidarr/Profiles", "", 2},
		{"GET", "/api/v1/Lidarr/RootFolders", "", 1},
		{"POST", "/api/v1/Lidarr/Metadata", `{"apiKey":"k"}`, 1},
	}
	for _, tc := range tests {
		var list []map[string]any
		res := do(t, s, call{method: tc.method, path: tc.path, body: tc.body, header: actingAs("power")})
		mustStatus(t, res, http.StatusOK)
		res.json(t, &list)
		if len(list) != tc.count {
			t.Errorf("%s has %d entries, want %d", tc.path, len(list), tc.count)
		}
		if strings.Contains(tc.path, "RootFolders") {
			for _, f := range list {
				if _, hasName := f["name"]; hasName || f["path"] == nil || f["id"] == nil {
					t.Errorf("%s folder = %v, want path and id without name", tc.path, f)
				}
			}
		}
	}
	// Radarr 4K is disabled: profiles are an empty list, root folders null.
	if got := strings.TrimSpace(string(do(t, s, call{method: "GET", path: "/api/v1/Radarr/Profiles/4k", header: actingAs("power")}).body)); got != "[]" {
		t.Errorf("4K profiles while disabled = %s", got)
	}
	mustStatus(t, do(t, s, call{method: "GET", path: "/api/v1/Radarr/RootFolders/4k", header: actingAs("power")}), http.StatusNoContent)
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Settings/radarr", header: actingAs("admin"),
		body: `{"radarr":{"enabled":true,"apiKey":"a"},"radarr4K":{"enabled":true,"apiKey":"b"}}`}), http.StatusOK)
	var list []any
	do(t, s, call{method: "GET", path: "/api/v1/Radarr/RootFolders/4k", header: actingAs("power")}).json(t, &list)
	if len(list) != 1 {
		t.Errorf("4K root folders once enabled = %v", list)
	}
	var version string
	do(t, s, call{method: "GET", path: "/api/v1/Sonarr/version", header: actingAs("power")}).json(t, &version)
	if version != "4.0.11.2680" {
		t.Errorf("sonarr version = %q", version)
	}
	var cp map[string]any
	do(t, s, call{method: "POST", path: "/api/v1/CouchPotato/profile", header: actingAs("admin"), body: `{"apiKey":"k"}`}).json(t, &cp)
	if cp["success"] != true || len(cp["list"].([]any)) != 1 {
		t.Errorf("couchpotato profiles = %v", cp)
	}
}

func TestIntegrationsPlex(t *testing.T) {
	s := newTestServer(t, Options{})
	var servers []map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Plex/servers", header: actingAs("admin")}).json(t, &servers)
	if len(servers) != 2 || servers[0]["machineId"] != "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4" || servers[0]["serverName"] != "Living Room Plex" {
		t.Fatalf("plex servers = %v", servers)
	}
	if err := s.SetQuirk(QuirkPlexServersWrapper, true); err != nil {
		t.Fatal(err)
	}
	var wrapped map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Plex/servers", header: actingAs("admin")}).json(t, &wrapped)
	if wrapped["success"] != true || len(wrapped["servers"].([]any)) != 2 {
		t.Fatalf("wrapped plex servers = %v", wrapped)
	}
	var libs map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Plex/Libraries/a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4", header: actingAs("admin")}).json(t, &libs)
	if libs["successful"] != true || len(libs["data"].([]any)) != 2 {
		t.Fatalf("plex libraries = %v", libs)
	}
	do(t, s, call{method: "GET", path: "/api/v1/Plex/Libraries/unknown", header: actingAs("admin")}).json(t, &libs)
	if libs["successful"] != false || libs["message"] == nil {
		t.Fatalf("unknown plex machine = %v", libs)
	}
	var friends []map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Plex/friends", header: actingAs("admin")}).json(t, &friends)
	if len(friends) != 2 || friends[0]["username"] == nil {
		t.Fatalf("plex friends = %v", friends)
	}
}

func TestIntegrationsMediaServers(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		path, body string
		want       int
		field      string
	}{
		{"/api/v1/Emby/info", `{"serverId":"d6f1a8c2b3e44f5a9b8c7d6e5f4a3b2c"}`, 200, "serverName"},
		{"/api/v1/Jellyfin/info", `{"ApiKey":"` + canaryValueOf(t, s, "jellyfin_apikey") + `"}`, 200, "serverName"},
		{"/api/v1/Jellyfin/Library", `{"serverId":"0a9b8c7d6e5f40312a3b4c5d6e7f8091"}`, 200, "items"},
		{"/api/v1/Emby/info", `{"serverId":"nope"}`, 204, ""},
		{"/api/v1/Jellyfin/Library", `{}`, 204, ""},
	}
	for _, tc := range tests {
		res := do(t, s, call{method: "POST", path: tc.path, body: tc.body, header: actingAs("admin")})
		mustStatus(t, res, tc.want)
		if tc.field != "" {
			var m map[string]any
			res.json(t, &m)
			if m[tc.field] == nil {
				t.Errorf("%s lacks %s: %v", tc.path, tc.field, m)
			}
		}
	}
}

func TestIntegrationsTester(t *testing.T) {
	s := newTestServer(t, Options{})
	sonarrKey := canaryValueOf(t, s, "sonarr_apikey")
	tests := []struct {
		service, body, want string
	}{
		{"discord", `{"webhookUrl":"https://discord.com/api/webhooks/1234567890/` + canaryValueOf(t, s, "discord_webhook") + `"}`, `true`},
		{"discord", `{"webhookUrl":"https://discord.com/api/webhooks/1/other"}`, `false`},
		{"email", `{"password":"` + canaryValueOf(t, s, "email_password") + `"}`, `true`},
		{"plex", `{"plexAuthToken":"` + canaryValueOf(t, s, "plex_token_cabin") + `"}`, `true`},
		{"plex", `{"plexAuthToken":"nope"}`, `false`},
		{"jellyfin", `{"serverId":"0a9b8c7d6e5f40312a3b4c5d6e7f8091"}`, `true`},
		{"whatsapp", `{"authToken":"` + canaryValueOf(t, s, "twilio_token") + `"}`, `true`},
		{"mobile", `{"userId":"x"}`, `true`},
		{"sonarr", `{"apiKey":"` + sonarrKey + `","ip":"192.168.1.30","port":8989}`, `{"isValid":true,"version":"4.0.11.2680","expectedSubDir":null,"additionalInformation":null}`},
		{"sonarr", `{"apiKey":"` + sonarrKey + `","ip":"192.168.1.30","port":8989,"subDir":"sonarr"}`, `{"isValid":false,"version":"4.0.11.2680","expectedSubDir":null,"additionalInformation":null}`},
		{"sonarr", `{"apiKey":"","ip":"h","port":1}`, `{"isValid":false,"version":null,"expectedSubDir":null,"additionalInformation":"NullApiKey"}`},
		{"sonarr", `{"apiKey":"k","ip":"","port":1}`, `{"isValid":false,"version":null,"expectedSubDir":null,"additionalInformation":"NullIp"}`},
		{"sonarr", `{"apiKey":"k","ip":"h","port":0}`, `{"isValid":false,"version":null,"expectedSubDir":null,"additionalInformation":"BadPort"}`},
		{"sonarr", `{"apiKey":"wrong","ip":"h","port":1}`, `{"isValid":false,"version":null,"expectedSubDir":null,"additionalInformation":null}`},
		{"radarr", `{"apiKey":"` + canaryValueOf(t, s, "radarr4k_apikey") + `"}`, `{"isValid":true,"version":null,"expectedSubDir":null,"additionalInformation":null}`},
		{"lidarr", `{"apiKey":"` + canaryValueOf(t, s, "lidarr_apikey") + `"}`, `{"isValid":true,"version":"2.8.2.4493","expectedSubDir":null,"additionalInformation":null}`},
		{"lidarr", `{"apiKey":"no"}`, `{"isValid":false,"version":null,"expectedSubDir":null,"additionalInformation":null}`},
	}
	for _, tc := range tests {
		res := do(t, s, call{method: "POST", path: "/api/v1/Tester/" + tc.service, body: tc.body, header: actingAs("admin")})
		mustStatus(t, res, http.StatusOK)
		if got := compactJSON(t, res.body); got != tc.want {
			t.Errorf("tester %s %s = %s, want %s", tc.service, tc.body, got, tc.want)
		}
	}
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Tester/carrierpigeon", body: `{}`, header: actingAs("admin")}), http.StatusNotFound)
}

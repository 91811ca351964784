package mockombi

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// lidarrKey is the seeded Lidarr API key: the POST option routes answer for
// the instance whose key the body carries.
const lidarrKey = "CANARY-lidarr_apikey-708192a3b4c5"

func TestIntegrationsAuthLevels(t *testing.T) {
	ok := http.StatusOK
	cases := []authCase{
		{"GET", "/api/v1/Sonarr/enabled", "", 401, 403, ok, ok},
		{"GET", "/api/v1/Sonarr/version", "", 401, 403, ok, ok},
		{"GET", "/api/v1/Radarr/enabled", "", 401, 403, ok, ok},
		{"GET", "/api/v1/Lidarr/enabled", "", ok, ok, ok, ok},
		{"POST", "/api/v1/Lidarr/Metadata", `{"apiKey":"` + lidarrKey + `"}`, 401, 403, ok, ok},
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
		{"POST", "/api/v1/Lidarr/Metadata", `{"apiKey":"` + lidarrKey + `"}`, 1},
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
	// PlexController.GetServers (src/Ombi/Controllers/V1/External/PlexController.cs)
	// always answers Json(new {Success = true, Servers}).
	var wrapped map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Plex/servers", header: actingAs("admin")}).json(t, &wrapped)
	if wrapped["success"] != true || len(wrapped["servers"].([]any)) != 2 {
		t.Fatalf("plex servers by default = %v, want {success: true, servers: [2]}", wrapped)
	}
	if err := s.SetQuirk(QuirkPlexServersWrapper, false); err != nil {
		t.Fatal(err)
	}
	var servers []map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Plex/servers", header: actingAs("admin")}).json(t, &servers)
	if len(servers) != 2 || servers[0]["machineId"] != "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4" || servers[0]["serverName"] != "Living Room Plex" {
		t.Fatalf("bare plex servers with the quirk off = %v", servers)
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

// TestIntegrations_arrPayloadModels models the ARR option models Ombi
// deserialises the services' answers into and serves back
// (src/Ombi.Api.External/ExternalApis/): SonarrRootFolder and
// Radarr/Models/V2/RadarrRootFolder have freespace (lower-case s),
// LidarrRootFolder freeSpace; LanguageProfiles' languages[] entries have a
// property named languages, which Sonarr's "language" key does not bind
// (null); RadarrV3QualityProfile always carries preferredTags and items;
// SonarrProfile is only {name, id}.
func TestIntegrations_arrPayloadModels(t *testing.T) {
	s := newTestServer(t, Options{})
	h := actingAs("power")
	get := func(path string) []map[string]any {
		t.Helper()
		var out []map[string]any
		getJSON(t, s, call{method: "GET", path: path, header: h}, &out)
		if len(out) == 0 {
			t.Fatalf("%s is empty", path)
		}
		return out
	}
	keys := func(m map[string]any) string {
		ks := make([]string, 0, len(m))
		for k := range m {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return strings.Join(ks, ",")
	}
	tests := []struct {
		path, keys string
	}{
		{"/api/v1/Sonarr/RootFolders", "freespace,id,path"},
		{"/api/v1/Radarr/RootFolders", "freespace,id,path"},
		{"/api/v1/Lidarr/RootFolders", "freeSpace,id,path,unmappedFolders"},
		{"/api/v1/Sonarr/Profiles", "id,name"},
		{"/api/v1/Radarr/Profiles", "cutoff,id,items,name,preferredTags,upgradeAllowed"},
		{"/api/v1/Lidarr/Profiles", "id,items,name"},
		{"/api/v1/Sonarr/v3/LanguageProfiles", "cutoff,id,languages,name,upgradeAllowed"},
		{"/api/v1/Sonarr/tags", "id,label"},
	}
	for _, tt := range tests {
		for _, rec := range get(tt.path) {
			if got := keys(rec); got != tt.keys {
				t.Errorf("%s record keys = %s, want %s", tt.path, got, tt.keys)
			}
		}
	}
	for _, f := range get("/api/v1/Sonarr/RootFolders") {
		if n, _ := f["freespace"].(float64); n <= 0 {
			t.Errorf("sonarr freespace = %v: Sonarr's freeSpace binds case-insensitively", f["freespace"])
		}
	}
	for _, lp := range get("/api/v1/Sonarr/v3/LanguageProfiles") {
		for _, l := range lp["languages"].([]any) {
			lm := l.(map[string]any)
			if v, has := lm["languages"]; !has || v != nil || lm["allowed"] != true {
				t.Errorf("language profile entry = %v, want {languages: null, allowed: true}", lm)
			}
		}
	}
	for _, p := range get("/api/v1/Radarr/Profiles") {
		if p["preferredTags"] != nil {
			t.Errorf("radarr preferredTags = %v", p["preferredTags"])
		}
		if _, ok := p["items"].([]any); !ok {
			t.Errorf("radarr items = %v", p["items"])
		}
	}
}

// TestIntegrations_arrPostForms models the POST forms of SonarrController,
// RadarrController and LidarrController (src/Ombi/Controllers/V1/External/):
// they ask the instance the posted settings point at. A key matching a
// saved instance answers that instance's lists (the 4K one for its key); any
// other key gets the service's empty 401, which deserialises to null (204).
func TestIntegrations_arrPostForms(t *testing.T) {
	s := newTestServer(t, Options{})
	h := actingAs("power")
	keys := map[string]string{"sonarr": "CANARY-sonarr_apikey-4d5e6f708192", "radarr": "CANARY-radarr_apikey-5e6f708192a3",
		"radarr4K": "CANARY-radarr4k_apikey-6f708192a3b4", "lidarr": lidarrKey}
	tests := []struct {
		path, key string
		want      int
	}{
		{"/api/v1/Sonarr/Profiles/", "sonarr", 3},
		{"/api/v1/Sonarr/RootFolders/", "sonarr", 2},
		{"/api/v1/Sonarr/v3/languageprofiles/", "sonarr", 2},
		{"/api/v1/Sonarr/tags/", "sonarr", 2},
		{"/api/v1/Radarr/Profiles/", "radarr", 2},
		{"/api/v1/Radarr/Profiles/", "radarr4K", 1},
		{"/api/v1/Radarr/RootFolders/", "radarr", 1},
		{"/api/v1/Radarr/tags/", "radarr", 2},
		{"/api/v1/Lidarr/Profiles/", "lidarr", 2},
		{"/api/v1/Lidarr/RootFolders/", "lidarr", 1},
	}
	for _, tt := range tests {
		var out []map[string]any
		getJSON(t, s, call{method: "POST", path: tt.path, header: h, body: `{"apiKey":"` + keys[tt.key] + `","ip":"x","port":1}`}, &out)
		if len(out) != tt.want {
			t.Errorf("POST %s with the %s key: %d records, want %d", tt.path, tt.key, len(out), tt.want)
		}
		mustStatus(t, do(t, s, call{method: "POST", path: tt.path, header: h, body: `{"apiKey":"wrong"}`}), http.StatusNoContent)
	}
	checkAuthLevels(t, []authCase{{"POST", "/api/v1/Sonarr/Profiles", `{"apiKey":"x"}`, 401, 403, 204, 204}})
}

// TestIntegrations_plexLibrariesSectionLite models PlexLibrariesLiteResponse
// and SectionLite (src/Ombi/Models/External/PlexLibrariesResponse.cs,
// src/Ombi.Api.External/MediaServers/Plex/Models/PlexLibrariesForMachineId.cs):
// each library is exactly {id, key, type, title}.
func TestIntegrations_plexLibrariesSectionLite(t *testing.T) {
	s := newTestServer(t, Options{})
	var libs struct {
		Successful bool             `json:"successful"`
		Data       []map[string]any `json:"data"`
	}
	getJSON(t, s, call{method: "GET", path: "/api/v1/Plex/Libraries/a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4", header: actingAs("admin")}, &libs)
	if !libs.Successful || len(libs.Data) != 2 {
		t.Fatalf("libraries = %+v", libs)
	}
	for _, l := range libs.Data {
		if len(l) != 4 || l["id"] == nil || l["key"] == nil || l["type"] == nil || l["title"] == nil {
			t.Errorf("library = %v, want {id, key, type, title}", l)
		}
	}
}

// TestIntegrations_wizardAndSetupRoutes covers the PlexController,
// PlexOAuthController, EmbyController and JellyfinController routes the
// UI's settings and wizard pages call (src/Ombi/Controllers/V1/External/,
// src/Ombi/Controllers/V1/PlexOAuthController.cs), with the shapes the UI's
// interfaces read (ClientApp/src/app/interfaces/IPlex.ts).
func TestIntegrations_wizardAndSetupRoutes(t *testing.T) {
	s := newTestServer(t, Options{})
	admin := actingAs("admin")
	body := func(c call) map[string]any {
		t.Helper()
		var m map[string]any
		getJSON(t, s, c, &m)
		return m
	}
	// POST Plex: the mock's plex.tv accepts no credentials, so PlexAuthentication.user is null
	if m := body(call{method: "POST", path: "/api/v1/Plex/", body: `{"login":"a","password":"b"}`}); len(m) != 1 || m["user"] != nil {
		t.Errorf("plex sign-in = %v, want {user: null}", m)
	}
	if m := body(call{method: "POST", path: "/api/v1/Plex/servers", header: admin, body: `{"login":"a","password":"b"}`}); m["success"] != false || m["message"] == nil || m["servers"] != nil {
		t.Errorf("plex servers by login = %v", m)
	}
	// POST Plex/Libraries: the saved server's token lists its sections as a PlexContainer
	lib := body(call{method: "POST", path: "/api/v1/Plex/Libraries", header: admin, body: `{"plexAuthToken":"CANARY-plex_token-1a2b3c4d5e6f","ip":"x","port":32400}`})
	mc, _ := lib["data"].(map[string]any)["mediaContainer"].(map[string]any)
	if lib["successful"] != true || mc == nil || len(mc["directory"].([]any)) != 2 {
		t.Errorf("plex libraries by settings = %v", lib)
	}
	if m := body(call{method: "POST", path: "/api/v1/Plex/Libraries", header: admin, body: `{"plexAuthToken":"nope"}`}); m["successful"] != false || m["message"] == nil {
		t.Errorf("plex libraries with a bad token = %v", m)
	}
	if m := body(call{method: "POST", path: "/api/v1/Plex/user", header: admin, body: `{"username":"u","machineIdentifier":"a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4","libsSelected":[1]}`}); m["success"] != true {
		t.Errorf("plex add user = %v", m)
	}
	oauth := body(call{method: "POST", path: "/api/v1/Plex/oauth", body: `{"wizard":true,"pin":{"id":1,"code":"abcd"}}`})
	if u, _ := oauth["url"].(string); !strings.HasPrefix(u, "https://app.plex.tv/auth/#?code=abcd&") || !strings.Contains(u, "clientID=3f8a2c1d9b7e4a6f8c2d1e0b9a7f6e5d") {
		t.Errorf("plex oauth = %v", oauth)
	}
	if m := body(call{method: "GET", path: "/api/v1/PlexOAuth/42"}); m["success"] != false || m["error"] == nil {
		t.Errorf("plex oauth pin = %v", m)
	}
	var watch []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/Plex/WatchlistUsers", header: admin}, &watch)
	if len(watch) != 1 || watch[0]["userName"] != "plexfan" || watch[0]["syncStatus"] != float64(3) {
		t.Errorf("watchlist users = %v, want plexfan pending", watch)
	}
	// POST Emby/Jellyfin (sign-in): null once servers are saved; saves and returns the settings on a fresh install
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Jellyfin/", body: `{"servers":[{"apiKey":"k"}]}`}), http.StatusNoContent)
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Settings/emby", header: admin, body: `{"enable":false,"servers":[]}`}), http.StatusOK)
	emby := body(call{method: "POST", path: "/api/v1/Emby/", body: `{"servers":[{"name":"E","apiKey":"k","ip":"h","port":8096}]}`})
	srv := emby["servers"].([]any)[0].(map[string]any)
	if emby["enable"] != true || srv["administratorId"] != "e1d2c3b4a5968778695a4b3c2d1e0f9a" {
		t.Errorf("emby sign-in = %v", emby)
	}
	checkAuthLevels(t, []authCase{
		{"GET", "/api/v1/Plex/WatchlistUsers", "", 401, 403, 403, 200},
		{"POST", "/api/v1/Plex/oauth", `{"pin":{"code":"c"}}`, 200, 200, 200, 200},
		{"POST", "/api/v1/Plex/Libraries", `{}`, 401, 403, 403, 200},
	})
}

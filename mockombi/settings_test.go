package mockombi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
)

func TestSettingsAuthLevels(t *testing.T) {
	ok := http.StatusOK
	cases := []authCase{
		{"GET", "/api/v1/Settings/ombi", "", 401, 403, 403, ok},
		{"POST", "/api/v1/Settings/ombi", `{"baseUrl":""}`, 401, 403, 403, ok},
		{"POST", "/api/v1/Settings/ombi/resetApi", "", 401, 403, 403, ok},
		{"GET", "/api/v1/Settings/sonarr", "", 401, 403, ok, ok},
		{"POST", "/api/v1/Settings/sonarr", `{"enabled":true}`, 401, 403, 403, ok},
		{"GET", "/api/v1/Settings/radarr", "", 401, 403, ok, ok},
		{"GET", "/api/v1/Settings/lidarr", "", 401, 403, 403, ok},
		{"GET", "/api/v1/Settings/jobs", "", 401, 403, 403, ok},
		{"POST", "/api/v1/Settings/testcron", `{"expression":"0 0 0 * * ?"}`, 401, 403, 403, ok},
		{"GET", "/api/v1/Settings/themes", "", 401, 403, 403, ok},
		{"GET", "/api/v1/Settings/notifications/discord", "", 401, 403, 403, ok},
		{"POST", "/api/v2/Features/enable", `{"name":"PlayedSync"}`, 401, 403, 403, ok},
		{"GET", "/api/v2/Features", "", ok, ok, ok, ok},
		{"GET", "/api/v1/Settings/about", "", ok, ok, ok, ok},
		{"POST", "/api/v1/Settings/customization/urlverify", `{"url":"https://x"}`, ok, ok, ok, ok},
		{"GET", "/api/v1/CustomPage", "", ok, ok, ok, ok},
	}
	for _, p := range []string{"issuesenabled", "voteenabled", "lidarrenabled", "notifications/email/enabled",
		"defaultlanguage", "baseurl", "clientid", "landingpage", "customization", "authentication", "Issues"} {
		cases = append(cases, authCase{"GET", "/api/v1/Settings/" + p, "", ok, ok, ok, ok})
	}
	checkAuthLevels(t, cases)
}

func TestSettingsSectionsCarryCanaries(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		path    string
		who     string
		canary  []string
		present []string // JSON fragments that must appear
	}{
		{"/api/v1/Settings/ombi", "admin", []string{"ombi_apikey"}, []string{`"wizard":true`}},
		{"/api/v1/Settings/plex", "admin", []string{"plex_token", "plex_token_cabin"}, []string{`"machineIdentifier"`, `"servers":[`}},
		{"/api/v1/Settings/emby", "admin", []string{"emby_apikey"}, []string{`"serverId"`}},
		{"/api/v1/Settings/jellyfin", "admin", []string{"jellyfin_apikey"}, []string{`"serverId"`}},
		{"/api/v1/Settings/sonarr", "power", []string{"sonarr_apikey"}, nil},
		{"/api/v1/Settings/radarr", "power", []string{"radarr_apikey", "radarr4k_apikey"}, []string{`"radarr4K"`}},
		{"/api/v1/Settings/lidarr", "admin", []string{"lidarr_apikey"}, nil},
		{"/api/v1/Settings/notifications/email", "admin", []string{"email_password"}, []string{`"notificationTemplates"`}},
		{"/api/v1/Settings/notifications/discord", "admin", []string{"discord_webhook"}, nil},
		{"/api/v1/Settings/notifications/twilio", "admin", []string{"twilio_token"}, nil},
		{"/api/v1/Settings/about", "", []string{"ombi_db_password", "external_db_password", "settings_db_password"}, []string{`"ombiConnectionString"`}},
	}
	for _, tc := range tests {
		res := do(t, s, call{method: "GET", path: tc.path, header: actingAs(tc.who)})
		mustStatus(t, res, http.StatusOK)
		for _, c := range tc.canary {
			if !strings.Contains(string(res.body), canaryValueOf(t, s, c)) {
				t.Errorf("%s lacks canary %s", tc.path, c)
			}
		}
		for _, f := range tc.present {
			if !strings.Contains(string(res.body), f) {
				t.Errorf("%s lacks %s", tc.path, f)
			}
		}
	}
	mustStatus(t, do(t, s, call{method: "GET", path: "/api/v1/Settings/notifications/carrierpigeon", header: actingAs("admin")}), http.StatusNotFound)
}

func TestSettingsSaveIsVisible(t *testing.T) {
	s := newTestServer(t, Options{})
	res := do(t, s, call{method: "POST", path: "/api/v1/Settings/ombi", header: actingAs("admin"),
		body: `{"id":99,"baseUrl":"/ombi","wizard":false,"apiKey":"k","defaultLanguageCode":"fr"}`})
	if strings.TrimSpace(string(res.body)) != "true" {
		t.Fatalf("save answered %s", res.body)
	}
	var doc map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Settings/ombi", header: actingAs("admin")}).json(t, &doc)
	if doc["baseUrl"] != "/ombi" || doc["wizard"] != true || doc["id"].(float64) != 1 {
		t.Fatalf("saved ombi settings = %v", doc)
	}
	scalars := []struct {
		path, want string
	}{
		{"/api/v1/Settings/baseurl", `"/ombi"`},
		{"/api/v1/Settings/defaultlanguage", `"fr"`},
		{"/api/v1/Settings/issuesenabled", `true`},
		{"/api/v1/Settings/voteenabled", `true`},
		{"/api/v1/Settings/lidarrenabled", `true`},
		{"/api/v1/Settings/notifications/email/enabled", `true`},
		{"/api/v1/Settings/clientid", `"3f8a2c1d9b7e4a6f8c2d1e0b9a7f6e5d"`},
	}
	for _, sc := range scalars {
		if got := strings.TrimSpace(string(do(t, s, call{method: "GET", path: sc.path}).body)); got != sc.want {
			t.Errorf("%s = %s, want %s", sc.path, got, sc.want)
		}
	}
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Settings/Issues", header: actingAs("admin"), body: `{"enabled":false}`}), http.StatusOK)
	if got := strings.TrimSpace(string(do(t, s, call{method: "GET", path: "/api/v1/Settings/issuesenabled"}).body)); got != "false" {
		t.Errorf("issuesenabled after save = %s", got)
	}
	var key string
	do(t, s, call{method: "POST", path: "/api/v1/Settings/ombi/resetApi", header: actingAs("admin")}).json(t, &key)
	do(t, s, call{method: "GET", path: "/api/v1/Settings/ombi", header: actingAs("admin")}).json(t, &doc)
	if len(key) != 32 || doc["apiKey"] != key {
		t.Errorf("reset key %q, stored %v", key, doc["apiKey"])
	}
	s.Reset()
	do(t, s, call{method: "GET", path: "/api/v1/Settings/ombi", header: actingAs("admin")}).json(t, &doc)
	if doc["baseUrl"] != "" {
		t.Errorf("reset kept saved baseUrl %v", doc["baseUrl"])
	}
}

func TestSettingsTestCron(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		expr string
		ok   bool
	}{
		{"0 0 0 * * ?", true},
		{"0 0 12 ? * FRI *", true},
		{"0 0/30 * 1/1 * ? *", true},
		{"0 15 10 ? * MON-FRI", true},
		{"0 0 0 L * ?", true},
		{"0 0 0 ? * 6#3", true},
		{"* * * * *", false},
		{"0 0 0 * * *", false},
		{"0 0 0 ? * ?", false},
		{"0 61 * ? * *", false},
		{"0 0 24 ? * *", false},
		{"0 0 0 ? 13 *", false},
		{"bogus", false},
		{"", false},
	}
	for _, tc := range tests {
		var res map[string]any
		do(t, s, call{method: "POST", path: "/api/v1/Settings/testcron", header: actingAs("admin"), body: `{"expression":"` + tc.expr + `"}`}).json(t, &res)
		if res["success"] != tc.ok {
			t.Errorf("testcron %q = %v, want success %v", tc.expr, res, tc.ok)
		}
		if !tc.ok && res["message"] != "CRON Expression "+tc.expr+" is not valid" {
			t.Errorf("testcron %q message = %v", tc.expr, res["message"])
		}
	}
}

func TestSettingsJobs(t *testing.T) {
	s := newTestServer(t, Options{})
	var jobs map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Settings/jobs", header: actingAs("admin")}).json(t, &jobs)
	if len(jobs) != 19 {
		t.Fatalf("jobs has %d fields, want 18 crons + id", len(jobs))
	}
	var res map[string]any
	do(t, s, call{method: "POST", path: "/api/v1/Settings/jobs", header: actingAs("admin"), body: `{"id":20,"sonarrSync":"nope","radarrSync":"0 0 0 * * ?"}`}).json(t, &res)
	if res["result"] != false || res["message"] != "SonarrSync does not have a valid CRON Expression" {
		t.Fatalf("invalid jobs = %v", res)
	}
	do(t, s, call{method: "POST", path: "/api/v1/Settings/jobs", header: actingAs("admin"), body: `{"id":20,"sonarrSync":"0 0 1 * * ?"}`}).json(t, &res)
	if res["result"] != true {
		t.Fatalf("valid jobs = %v", res)
	}
	do(t, s, call{method: "GET", path: "/api/v1/Settings/jobs", header: actingAs("admin")}).json(t, &jobs)
	if jobs["sonarrSync"] != "0 0 1 * * ?" {
		t.Fatalf("jobs after save = %v", jobs)
	}
}

func TestFeatures(t *testing.T) {
	s := newTestServer(t, Options{})
	var list []map[string]any
	do(t, s, call{method: "POST", path: "/api/v2/Features/enable", header: actingAs("admin"), body: `{"name":"Movie4KRequests","enabled":true}`}).json(t, &list)
	if len(list) != 2 || list[0]["name"] != "Movie4KRequests" || list[0]["enabled"] != true {
		t.Fatalf("enable = %v", list)
	}
	do(t, s, call{method: "GET", path: "/api/v2/Features"}).json(t, &list)
	if list[0]["enabled"] != true {
		t.Fatalf("features after enable = %v", list)
	}
	do(t, s, call{method: "POST", path: "/api/v2/Features/disable", header: actingAs("admin"), body: `{"name":"Movie4KRequests"}`}).json(t, &list)
	if list[0]["enabled"] != false {
		t.Fatalf("disable = %v", list)
	}
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v2/Features/enable", header: actingAs("admin"), body: `{"name":"Nope"}`}), http.StatusInternalServerError)
}

func TestUIStartupCallsInSettingsDomains(t *testing.T) {
	s := newTestServer(t, Options{})
	bearer := asAdmin(t, s)
	tests := []struct {
		path   string
		header map[string]string
		check  func(v any) bool
	}{
		{"/api/v2/Features/", nil, func(v any) bool { l, _ := v.([]any); return len(l) == 2 }},
		{"/api/v1/Settings/customization", nil, func(v any) bool { return field(v, "applicationName") == "Ombi" }},
		{"/api/v1/Sonarr/version/", bearer, func(v any) bool { return v == "4.0.11.2680" }},
		{"/api/v1/Settings/Sonarr", bearer, func(v any) bool { return field(v, "enabled") == true }},
		{"/api/v1/Settings/Radarr", bearer, func(v any) bool { return field(v, "radarr") != nil && field(v, "radarr4K") != nil }},
		{"/api/v1/Settings/voteenabled", nil, func(v any) bool { return v == true }},
		{"/api/v1/Settings/issuesenabled", nil, func(v any) bool { return v == true }},
		{"/api/v1/Identity/accesstoken", bearer, func(v any) bool { s, _ := v.(string); return strings.HasPrefix(s, "CANARY-") }},
		{"/api/v1/Identity/", bearer, func(v any) bool { return field(v, "userName") == "admin" }},
		{"/api/v1/Settings/LandingPage", nil, func(v any) bool { return field(v, "enabled") == false }},
		{"/api/v1/status/Wizard/", nil, func(v any) bool { return field(v, "result") == true }},
		{"/api/v1/Settings/Authentication", nil, func(v any) bool { return field(v, "allowNoPassword") == false }},
		{"/api/v1/Settings/clientid", nil, func(v any) bool { s, _ := v.(string); return len(s) == 32 }},
		{"/api/v1/Images/background/info", nil, func(v any) bool { return field(v, "url") != nil && field(v, "name") != nil }},
		{"/api/v1/Lidarr/enabled/", bearer, func(v any) bool { return v == true }},
		{"/api/v1/CustomPage", nil, func(v any) bool { return field(v, "html") != nil }},
	}
	for _, tc := range tests {
		res := do(t, s, call{method: "GET", path: tc.path, header: tc.header})
		mustStatus(t, res, http.StatusOK)
		var v any
		res.json(t, &v)
		if !tc.check(v) {
			t.Errorf("%s answered %s", tc.path, truncate(string(res.body), 200))
		}
	}
}

// field reads a key of a decoded JSON object.
func field(v any, key string) any {
	m, _ := v.(map[string]any)
	return m[key]
}

func TestSettingsNullBody(t *testing.T) {
	s := newTestServer(t, Options{})
	for _, p := range []string{"/api/v1/Settings/ombi", "/api/v1/Settings/jobs", "/api/v1/Settings/notifications/slack"} {
		mustStatus(t, do(t, s, call{method: "POST", path: p, header: actingAs("admin"), body: `null`}), http.StatusInternalServerError)
		mustStatus(t, do(t, s, call{method: "POST", path: p, header: actingAs("admin")}), http.StatusBadRequest)
	}
}

// TestSettings_notificationTemplatesSeeded models the template seeding of
// OmbiContext (src/Ombi.Store/Context/OmbiContext.cs: one template per agent
// and notification type, skipping Test, AdminNote, PlexWatchlistTokenExpired
// and, but for Email, WelcomeEmail; ids in agent then type order) and
// SettingsController.BuildTemplates (src/Ombi/Controllers/V1/SettingsController.cs:
// an agent's templates ordered by type name, without Newsletter and, but
// for Email, WelcomeEmail). Twilio's come under whatsAppSettings
// (TwilioSettingsViewModel); webhook's page has none; the newsletter page
// shows the Email agent's Newsletter template.
func TestSettings_notificationTemplatesSeeded(t *testing.T) {
	s := newTestServer(t, Options{})
	h := actingAs("admin")
	get := func(agent string) map[string]any {
		t.Helper()
		var m map[string]any
		getJSON(t, s, call{method: "GET", path: "/api/v1/Settings/notifications/" + agent, header: h}, &m)
		return m
	}
	typeName := func(t any) string {
		n, _ := t.(map[string]any)["notificationType"].(float64)
		return db.TemplateTypeName(int(n))
	}
	typesOf := func(list []any) []string {
		var out []string
		for _, it := range list {
			out = append(out, typeName(it))
		}
		return out
	}
	all := []string{"Issue", "IssueComment", "IssueDeleted", "IssueInProgress", "IssueResolved", "ItemAddedToFaultQueue",
		"NewRequest", "PartiallyAvailable", "RequestApproved", "RequestAvailable", "RequestDeclined", "RequestDeleted"}
	email := get("email")["notificationTemplates"].([]any)
	if got := typesOf(email); strings.Join(got, ",") != strings.Join(append(slices.Clone(all), "WelcomeEmail"), ",") {
		t.Errorf("email templates = %v", got)
	}
	for _, agent := range []string{"discord", "telegram", "pushbullet", "pushover", "slack", "mattermost", "mobile", "gotify", "ntfy"} {
		list, _ := get(agent)["notificationTemplates"].([]any)
		if got := typesOf(list); strings.Join(got, ",") != strings.Join(all, ",") {
			t.Errorf("%s templates = %v, want one per notification type", agent, got)
		}
		for _, it := range list {
			m := it.(map[string]any)
			if m["message"] == nil || m["enabled"] != true || m["id"] == nil {
				t.Errorf("%s template = %v", agent, m)
			}
		}
	}
	// the seeded rows keep Ombi's ids: Email's NewRequest is 1, Discord's 15
	for _, it := range get("discord")["notificationTemplates"].([]any) {
		m := it.(map[string]any)
		if typeName(m) == "NewRequest" && m["id"] != float64(15) {
			t.Errorf("discord NewRequest id = %v, want 15", m["id"])
		}
	}
	twilio := get("twilio")
	if _, top := twilio["notificationTemplates"]; top {
		t.Errorf("twilio carries top-level notificationTemplates; Ombi puts them under whatsAppSettings")
	}
	wa := twilio["whatsAppSettings"].(map[string]any)
	if got := typesOf(wa["notificationTemplates"].([]any)); len(got) != len(all) {
		t.Errorf("whatsApp templates = %v", got)
	}
	if _, has := get("webhook")["notificationTemplates"]; has {
		t.Errorf("webhook carries notificationTemplates; WebhookNotificationViewModel has none")
	}
	nl := get("newsletter")["notificationTemplate"].(map[string]any)
	if typeName(nl) != "Newsletter" || nl["agent"] != float64(0) || nl["id"] != float64(10) {
		t.Errorf("newsletter template = %v", nl)
	}
	// a save keeps the posted templates (TemplateRepository.UpdateRange)
	d := get("discord")
	d["notificationTemplates"].([]any)[0].(map[string]any)["message"] = "changed"
	b, _ := json.Marshal(d)
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v1/Settings/notifications/discord", header: h, body: string(b)}), http.StatusOK)
	if m := get("discord")["notificationTemplates"].([]any)[0].(map[string]any); m["message"] != "changed" {
		t.Errorf("saved template = %v", m)
	}
}

// TestSettings_wizardRoutes models WizardController and WizardActionFilter
// (src/Ombi/Controllers/V2/WizardController.cs, src/Ombi/Attributes/WizardActionFilter.cs):
// once the wizard has run every call answers 401; before, config updates
// the customization section and database is refused (the mock's database
// is configured). It also covers POST Settings/notifications/newsletterdatabase.
func TestSettings_wizardRoutes(t *testing.T) {
	s := newTestServer(t, Options{})
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v2/wizard/config", body: `{"applicationName":"Mine"}`}), http.StatusUnauthorized)
	mustStatus(t, do(t, s, call{method: "POST", path: "/api/v2/wizard/database", body: `{"type":"Sqlite"}`}), http.StatusUnauthorized)
	s.store.Write(func(st *store) { st.Settings.Ombi.Wizard = false })
	var c map[string]any
	getJSON(t, s, call{method: "POST", path: "/api/v2/wizard/config", body: `{"applicationName":"Mine","applicationUrl":""}`}, &c)
	if c["applicationName"] != "Mine" || c["applicationUrl"] != "https://requests.example.org" {
		t.Errorf("wizard config = %v", c)
	}
	res := do(t, s, call{method: "POST", path: "/api/v2/wizard/database", body: `{"type":"MySQL","host":"db"}`})
	if res.status != http.StatusBadRequest || !strings.Contains(string(res.body), `"success":false`) {
		t.Errorf("wizard database = %d %s", res.status, res.body)
	}
	var ok bool
	getJSON(t, s, call{method: "POST", path: "/api/v1/Settings/notifications/newsletterdatabase", header: actingAs("admin"), body: "{}"}, &ok)
	if !ok {
		t.Error("newsletterdatabase = false")
	}
}

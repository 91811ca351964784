package mockombi

import (
	"net/http"
	"slices"
	"strings"
)

// integrationState holds what the external services (Sonarr, Radarr,
// Lidarr, CouchPotato, Plex, Emby, Jellyfin) would answer, keyed by the
// integrations.json structure.
type integrationState struct {
	data map[string]any
}

// newIntegrationState loads integrations.json.
func newIntegrationState(sd *seedSet) (integrationState, error) {
	data := map[string]any{}
	if err := sd.decode("integrations.json", &data); err != nil {
		return integrationState{}, err
	}
	return integrationState{data: data}, nil
}

// at walks the integration data by keys; nil when absent.
func (is *integrationState) at(keys ...string) any {
	var cur any = is.data
	for _, k := range keys {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[k]
	}
	return cur
}

// routeTail returns the lower-case path segments after /api/v1/.
func routeTail(r *http.Request) []string {
	p := strings.Trim(strings.ToLower(r.URL.Path), "/")
	if i := strings.Index(p, "api/v1/"); i >= 0 {
		p = p[i+len("api/v1/"):]
	}
	return strings.Split(p, "/")
}

// arrLists maps "service/route" to the integration data path and the
// settings section whose enabled flag gates it.
var arrLists = map[string]struct {
	path     []string
	settings string
}{
	"sonarr/profiles":            {[]string{"sonarr", "profiles"}, "sonarr"},
	"sonarr/rootfolders":         {[]string{"sonarr", "rootFolders"}, "sonarr"},
	"sonarr/v3/languageprofiles": {[]string{"sonarr", "languageProfiles"}, "sonarr"},
	"sonarr/tags":                {[]string{"sonarr", "tags"}, "sonarr"},
	"radarr/profiles":            {[]string{"radarr", "profiles"}, "radarr"},
	"radarr/profiles/4k":         {[]string{"radarr", "profiles4k"}, "radarr4K"},
	"radarr/rootfolders":         {[]string{"radarr", "rootFolders"}, "radarr"},
	"radarr/rootfolders/4k":      {[]string{"radarr", "rootFolders4k"}, "radarr4K"},
	"radarr/tags":                {[]string{"radarr", "tags"}, "radarr"},
	"lidarr/profiles":            {[]string{"lidarr", "profiles"}, "lidarr"},
	"lidarr/rootfolders":         {[]string{"lidarr", "rootFolders"}, "lidarr"},
	"lidarr/metadata":            {[]string{"lidarr", "metadata"}, ""},
	"couchpotato/profile":        {[]string{"couchpotato"}, ""},
}

// arrEnabled reads the enabled flag of an Arr settings section; radarr and
// radarr4K live inside the combined radarr document.
func (ss *settingsState) arrEnabled(section string) bool {
	switch section {
	case "radarr", "radarr4K":
		m, _ := ss.doc("radarr")[section].(map[string]any)
		b, _ := m["enabled"].(bool)
		return b
	default:
		return ss.flag(section, "enabled")
	}
}

// integrationArrList answers the Sonarr/Radarr/Lidarr option lists and the
// POST Lidarr/Metadata and CouchPotato/profile lookups. A disabled service
// answers null (204), or an empty list for Radarr profiles, as upstream.
func (s *Server) integrationArrList(w http.ResponseWriter, r *http.Request) {
	key := strings.Join(routeTail(r), "/")
	spec, ok := arrLists[key]
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	if r.Method == http.MethodPost {
		var in map[string]any
		if !decodeBody(w, r, &in) {
			return
		}
	}
	var out any
	enabled := true
	s.store.Read(func(st *store) {
		if spec.settings != "" {
			enabled = st.settings.arrEnabled(spec.settings)
		}
		out = deepCopyJSON(st.integrations.at(spec.path...))
	})
	if !enabled {
		if strings.HasPrefix(key, "radarr/profiles") {
			writeJSON(w, http.StatusOK, []any{})
			return
		}
		noContent(w)
		return
	}
	if out == nil {
		noContent(w)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// integrationArrEnabled answers GET Sonarr|Radarr|Lidarr/enabled.
func (s *Server) integrationArrEnabled(w http.ResponseWriter, r *http.Request) {
	svc := routeTail(r)[0]
	var on bool
	s.store.Read(func(st *store) { on = st.settings.arrEnabled(svc) })
	writeJSON(w, http.StatusOK, on)
}

// integrationArrVersion answers GET Sonarr/version: a JSON string, "" when
// Sonarr is off.
func (s *Server) integrationArrVersion(w http.ResponseWriter, _ *http.Request) {
	v := ""
	s.store.Read(func(st *store) {
		if st.settings.arrEnabled("sonarr") {
			v, _ = st.integrations.at("sonarr", "version").(string)
		}
	})
	writeJSON(w, http.StatusOK, v)
}

// integrationCouchPotatoAPIKey answers POST CouchPotato/apikey with
// CouchPotatoApiKey {success, api_key} from the saved settings when the
// posted credentials match them.
func (s *Server) integrationCouchPotatoAPIKey(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	var out map[string]any
	s.store.Read(func(st *store) {
		cp := st.settings.doc("couchpotato")
		if cp != nil && fieldFold(in, "username") == cp["username"] && fieldFold(in, "password") == cp["password"] {
			out = map[string]any{"success": true, "api_key": cp["apiKey"]}
		}
	})
	if out == nil {
		out = map[string]any{"success": false, "api_key": nil}
	}
	writeJSON(w, http.StatusOK, out)
}

// fieldFold reads a body field ignoring the key's case, as Newtonsoft binds.
func fieldFold(m map[string]any, key string) any {
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return v
		}
	}
	return nil
}

// integrationPlexServers answers GET Plex/servers: the saved servers as
// PlexServersAddUserModel, wrapped as {success, servers} with
// plex_servers_wrapper.
func (s *Server) integrationPlexServers(w http.ResponseWriter, _ *http.Request) {
	servers := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, srv := range st.settings.servers("plex") {
			servers = append(servers, map[string]any{"serverId": srv["id"], "machineId": srv["machineIdentifier"], "serverName": srv["name"]})
		}
	})
	if s.quirk(QuirkPlexServersWrapper) {
		writeJSON(w, http.StatusOK, map[string]any{"success": true, "servers": servers})
		return
	}
	writeJSON(w, http.StatusOK, servers)
}

// integrationPlexLibraries answers GET Plex/Libraries/{machineId} with
// PlexLibrariesLiteResponse; an unknown machine fails inside (successful:false).
func (s *Server) integrationPlexLibraries(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("machineId")
	var libs any
	known := false
	s.store.Read(func(st *store) {
		for _, srv := range st.settings.servers("plex") {
			if srv["machineIdentifier"] == id {
				known = true
			}
		}
		libs = deepCopyJSON(st.integrations.at("plexLibraries", id))
	})
	if !known || libs == nil {
		writeJSON(w, http.StatusOK, map[string]any{"successful": false, "message": nullReference, "data": nil})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"successful": true, "message": nil, "data": libs})
}

// integrationMediaServerUsers answers GET Plex/friends, Emby/users and
// Jellyfin/users (UsersViewModel[]).
func (s *Server) integrationMediaServerUsers(w http.ResponseWriter, r *http.Request) {
	key := map[string]string{"plex": "plexFriends", "emby": "embyUsers", "jellyfin": "jellyfinUsers"}[routeTail(r)[0]]
	var out any
	s.store.Read(func(st *store) { out = deepCopyJSON(st.integrations.at(key)) })
	if out == nil {
		out = []any{}
	}
	writeJSON(w, http.StatusOK, out)
}

// integrationPlexRevalidate answers POST Plex/WatchlistUsers/revalidate: 202.
func (s *Server) integrationPlexRevalidate(w http.ResponseWriter, _ *http.Request) {
	w.WriteHeader(http.StatusAccepted)
}

// savedServer finds the saved emby/jellyfin server a posted body names (by
// serverId, id or apiKey); nil when none.
func (st *store) savedServer(svc string, in map[string]any) map[string]any {
	for _, srv := range st.settings.servers(svc) {
		for _, k := range []string{"serverId", "apiKey"} {
			if v := fieldFold(in, k); v != nil && v != "" && v == srv[k] {
				return srv
			}
		}
	}
	return nil
}

// integrationMediaServerInfo answers POST Emby|Jellyfin/info with PublicInfo
// for a saved server; an unknown server is null (204), as the failed call is.
func (s *Server) integrationMediaServerInfo(w http.ResponseWriter, r *http.Request) {
	s.mediaServerLookup(w, r, "mediaServerInfo")
}

// integrationMediaServerLibraries answers POST Emby|Jellyfin/Library.
func (s *Server) integrationMediaServerLibraries(w http.ResponseWriter, r *http.Request) {
	s.mediaServerLookup(w, r, "mediaServerLibraries")
}

// mediaServerLookup answers a per-server Emby/Jellyfin lookup.
func (s *Server) mediaServerLookup(w http.ResponseWriter, r *http.Request, kind string) {
	svc := routeTail(r)[0]
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	var out any
	s.store.Read(func(st *store) {
		if st.savedServer(svc, in) != nil {
			out = deepCopyJSON(st.integrations.at(kind, svc))
		}
	})
	if out == nil {
		noContent(w)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// testerSecrets maps a Tester service to its settings section and the field
// whose saved value a posted body must carry for the test to pass.
var testerSecrets = map[string]struct{ section, field string }{
	"discord":     {"notifications/discord", "webhookUrl"},
	"pushbullet":  {"notifications/pushbullet", "accessToken"},
	"pushover":    {"notifications/pushover", "accessToken"},
	"gotify":      {"notifications/gotify", "applicationToken"},
	"ntfy":        {"notifications/ntfy", "authorizationHeader"},
	"webhook":     {"notifications/webhook", "applicationToken"},
	"mattermost":  {"notifications/mattermost", "webhookUrl"},
	"slack":       {"notifications/slack", "webhookUrl"},
	"email":       {"notifications/email", "password"},
	"telegram":    {"notifications/telegram", "botApi"},
	"couchpotato": {"couchpotato", "apiKey"},
	"sickrage":    {"sickrage", "apiKey"},
	"lidarr":      {"lidarr", "apiKey"},
}

// testerServices are every POST Tester/{service} route.
var testerServices = []string{"discord", "pushbullet", "pushover", "gotify", "ntfy", "webhook", "mattermost", "slack",
	"email", "plex", "emby", "jellyfin", "radarr", "sonarr", "couchpotato", "telegram", "sickrage", "newsletter",
	"mobile", "lidarr", "whatsapp"}

// integrationTest answers POST Tester/{service}: a bool, or TesterResultModel
// for sonarr, radarr and lidarr. A test passes when the posted settings
// carry the saved credentials (the service "answers").
func (s *Server) integrationTest(w http.ResponseWriter, r *http.Request) {
	svc := strings.ToLower(r.PathValue("service"))
	if !slices.Contains(testerServices, svc) {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	var out any
	s.store.Read(func(st *store) { out = st.testService(svc, in) })
	writeJSON(w, http.StatusOK, out)
}

// testService runs one tester against the saved settings.
func (st *store) testService(svc string, in map[string]any) any {
	ss := &st.settings
	switch svc {
	case "newsletter", "mobile":
		return true
	case "whatsapp":
		tw, _ := ss.doc("notifications/twilio")["whatsAppSettings"].(map[string]any)
		return tw != nil && fieldFold(in, "authToken") == tw["authToken"]
	case "plex":
		for _, srv := range ss.servers("plex") {
			if v := fieldFold(in, "plexAuthToken"); v != nil && v == srv["plexAuthToken"] {
				return true
			}
		}
		return false
	case "emby", "jellyfin":
		return st.savedServer(svc, in) != nil
	case "sonarr", "radarr":
		return st.testArr(svc, in)
	}
	sec := testerSecrets[svc]
	saved := ss.doc(sec.section)[sec.field]
	ok := saved != nil && saved != "" && fieldFold(in, sec.field) == saved
	if svc == "lidarr" {
		res := testerResult{IsValid: ok}
		if ok {
			res.Version = "2.8.2.4493"
			res.ExpectedSubDir = ss.doc("lidarr")["subDir"]
		}
		return res
	}
	return ok
}

// testerResult is TesterResultModel, in its wire field order.
type testerResult struct {
	IsValid               bool `json:"isValid"`
	Version               any  `json:"version"`
	ExpectedSubDir        any  `json:"expectedSubDir"`
	AdditionalInformation any  `json:"additionalInformation"`
}

// testArr answers the sonarr/radarr testers with TesterResultModel.
func (st *store) testArr(svc string, in map[string]any) testerResult {
	var res testerResult
	key, _ := fieldFold(in, "apiKey").(string)
	if svc == "sonarr" {
		ip, _ := fieldFold(in, "ip").(string)
		port, _ := jsonNumber(fieldFold(in, "port"))
		switch {
		case key == "":
			res.AdditionalInformation = "NullApiKey"
			return res
		case ip == "":
			res.AdditionalInformation = "NullIp"
			return res
		case port <= 0:
			res.AdditionalInformation = "BadPort"
			return res
		}
	}
	var saved map[string]any
	if svc == "sonarr" {
		saved = st.settings.doc("sonarr")
	} else {
		for _, k := range []string{"radarr", "radarr4K"} {
			if m, _ := st.settings.doc("radarr")[k].(map[string]any); m != nil && m["apiKey"] == key {
				saved = m
			}
		}
	}
	if saved == nil || key == "" || saved["apiKey"] != key {
		return res
	}
	sub, _ := fieldFold(in, "subDir").(string)
	urlBase, _ := saved["subDir"].(string)
	res.IsValid = sub == urlBase
	res.ExpectedSubDir = saved["subDir"]
	if svc == "sonarr" {
		res.Version = st.integrations.at("sonarr", "version")
	}
	return res
}

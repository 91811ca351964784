package mockombi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// routeTail returns the lower-case path segments after /api/v1/.
func routeTail(r *http.Request) []string {
	p := strings.Trim(strings.ToLower(r.URL.Path), "/")
	if i := strings.Index(p, "api/v1/"); i >= 0 {
		p = p[i+len("api/v1/"):]
	}
	return strings.Split(p, "/")
}

// arrLists maps "service/route" to the integration data path (what the
// service itself answers), the settings section whose enabled flag gates
// the GET form, and the Ombi model the answer is deserialised into
// (binding.go). The 4K Radarr routes read the 4K instance.
var arrLists = map[string]struct {
	path     []string
	settings string
	model    model
}{
	"sonarr/profiles":            {[]string{"sonarr", "profiles"}, "sonarr", sonarrProfile},
	"sonarr/rootfolders":         {[]string{"sonarr", "rootFolders"}, "sonarr", arrRootFolder},
	"sonarr/v3/languageprofiles": {[]string{"sonarr", "languageProfiles"}, "sonarr", sonarrLanguageProfile},
	"sonarr/tags":                {[]string{"sonarr", "tags"}, "sonarr", arrTag},
	"radarr/profiles":            {[]string{"radarr", "profiles"}, "radarr", radarrProfile},
	"radarr/profiles/4k":         {[]string{"radarr", "profiles4k"}, "radarr4K", radarrProfile},
	"radarr/rootfolders":         {[]string{"radarr", "rootFolders"}, "radarr", arrRootFolder},
	"radarr/rootfolders/4k":      {[]string{"radarr", "rootFolders4k"}, "radarr4K", arrRootFolder},
	"radarr/tags":                {[]string{"radarr", "tags"}, "radarr", arrTag},
	"lidarr/profiles":            {[]string{"lidarr", "profiles"}, "lidarr", lidarrProfile},
	"lidarr/rootfolders":         {[]string{"lidarr", "rootFolders"}, "lidarr", lidarrRootFolder},
	"lidarr/metadata":            {[]string{"lidarr", "metadata"}, "lidarr", lidarrMetadataProfile},
	"couchpotato/profile":        {[]string{"couchpotato"}, "", nil},
}

// integrationArrList answers the Sonarr/Radarr/Lidarr option lists and the
// CouchPotato/profile lookup, each as Ombi's model of it. The GET forms
// read the saved instance: a disabled one answers null (204), or an empty
// list for Radarr profiles, as upstream. The POST forms ask the instance
// the posted settings point at: one whose API key matches a saved
// instance answers its lists; any other answers the ARR's 401 with an
// empty body, which deserialises to null (204).
func (s *Server) integrationArrList(w http.ResponseWriter, r *http.Request) {
	key := strings.Join(routeTail(r), "/")
	spec, ok := arrLists[key]
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	var in map[string]any
	if r.Method == http.MethodPost && !decodeBody(w, r, &in) {
		return
	}
	var out any
	enabled := true
	s.store.Read(func(st *store) {
		path := spec.path
		switch {
		case r.Method == http.MethodPost && spec.model != nil:
			inst := st.Settings.ArrInstance(path[0], in)
			enabled = inst != ""
			if inst == "radarr4K" {
				path = []string{"radarr", path[1] + "4k"}
			}
		case spec.settings != "":
			enabled = st.Settings.ArrEnabled(spec.settings)
		}
		out = deepCopyJSON(st.Integrations.At(path...))
	})
	if !enabled {
		if r.Method == http.MethodGet && strings.HasPrefix(key, "radarr/profiles") {
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
	if spec.model != nil {
		out = spec.model.bind(out)
	}
	writeJSON(w, http.StatusOK, out)
}

// integrationArrEnabled answers GET Sonarr|Radarr|Lidarr/enabled.
func (s *Server) integrationArrEnabled(w http.ResponseWriter, r *http.Request) {
	svc := routeTail(r)[0]
	var on bool
	s.store.Read(func(st *store) { on = st.Settings.ArrEnabled(svc) })
	writeJSON(w, http.StatusOK, on)
}

// integrationArrVersion answers GET Sonarr/version: a JSON string, "" when
// Sonarr is off.
func (s *Server) integrationArrVersion(w http.ResponseWriter, _ *http.Request) {
	v := ""
	s.store.Read(func(st *store) {
		if st.Settings.ArrEnabled("sonarr") {
			v, _ = st.Integrations.At("sonarr", "version").(string)
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
	out := &state.CouchPotatoApiKey{}
	s.store.Read(func(st *store) {
		cp := st.Settings.CouchPotato
		if cp != nil && db.FieldFold(in, "username") == member(cp, "username") && db.FieldFold(in, "password") == member(cp, "password") {
			out = &state.CouchPotatoApiKey{Success: true, APIKey: member(cp, "apiKey")}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// integrationPlexServers answers GET Plex/servers: the saved servers as
// PlexServersAddUserModel wrapped as {success, servers}, as
// PlexController.GetServers always answers; with the plex_servers_wrapper
// quirk off (it is on by default), the bare array.
func (s *Server) integrationPlexServers(w http.ResponseWriter, _ *http.Request) {
	servers := []*state.PlexServersAddUserModel{}
	s.store.Read(func(st *store) {
		for _, srv := range plexServers(&st.Settings) {
			servers = append(servers, &state.PlexServersAddUserModel{ServerID: member(srv, "id"), MachineID: member(srv, "machineIdentifier"),
				ServerName: member(srv, "name")})
		}
	})
	if s.quirk(QuirkPlexServersWrapper) {
		writeJSON(w, http.StatusOK, &state.PlexServersAddUser{Success: true, Servers: servers})
		return
	}
	writeJSON(w, http.StatusOK, servers)
}

// integrationPlexLibraries answers GET Plex/Libraries/{machineId} with
// PlexLibrariesLiteResponse: data is SectionLite[] {id, key, type, title}
// (Plex/Models/PlexLibrariesForMachineId.cs); an unknown machine fails inside
// (successful:false).
func (s *Server) integrationPlexLibraries(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("machineId")
	var libs any
	known := false
	s.store.Read(func(st *store) {
		for _, srv := range plexServers(&st.Settings) {
			if srv.MachineIdentifier != nil && *srv.MachineIdentifier == id {
				known = true
			}
		}
		libs = deepCopyJSON(st.Integrations.At("plexLibraries", id))
	})
	if !known || libs == nil {
		writeJSON(w, http.StatusOK, &state.PlexLibrariesLiteResponse{Message: ref(nullReference)})
		return
	}
	list, _ := libs.([]any)
	sections := []any{}
	for _, l := range list {
		if m, ok := l.(map[string]any); ok {
			if _, has := lookupFold(m, "id"); !has {
				m["id"] = m["key"] // plex.tv lists each section with an id; the seed may give only its key
			}
			sections = append(sections, plexSectionLite.bind(m))
		}
	}
	writeJSON(w, http.StatusOK, &state.PlexLibrariesLiteResponse{Successful: true, Data: sections})
}

// integrationMediaServerUsers answers GET Plex/friends, Emby/users and
// Jellyfin/users (UsersViewModel[]).
func (s *Server) integrationMediaServerUsers(w http.ResponseWriter, r *http.Request) {
	key := map[string]string{"plex": "plexFriends", "emby": "embyUsers", "jellyfin": "jellyfinUsers"}[routeTail(r)[0]]
	var out any
	s.store.Read(func(st *store) { out = deepCopyJSON(st.Integrations.At(key)) })
	if out == nil {
		out = []any{}
	}
	writeJSON(w, http.StatusOK, out)
}

// integrationPlexRevalidate answers POST Plex/WatchlistUsers/revalidate: 202.
func (s *Server) integrationPlexRevalidate(w http.ResponseWriter, _ *http.Request) {
	w.WriteHeader(http.StatusAccepted)
}

// savedServer reports whether a posted body names a saved emby/jellyfin
// server (by serverId or apiKey).
func (st *store) savedServer(svc string, in map[string]any) bool {
	for _, srv := range mediaServers(&st.Settings, svc) {
		for _, k := range []string{"serverId", "apiKey"} {
			if v := db.FieldFold(in, k); v != nil && v != "" && v == state.Member(srv, k) {
				return true
			}
		}
	}
	return false
}

// plexServers are the saved Plex servers.
func plexServers(ss *db.SettingsState) []*state.PlexServers {
	var out []*state.PlexServers
	for _, srv := range db.Or(ss.Plex).Servers {
		if srv != nil {
			out = append(out, srv)
		}
	}
	return out
}

// mediaServers are the saved servers of plex, emby or jellyfin, each a
// document.
func mediaServers(ss *db.SettingsState, svc string) []json.Marshaler {
	var out []json.Marshaler
	switch svc {
	case "plex":
		for _, srv := range plexServers(ss) {
			out = append(out, srv)
		}
	case "emby":
		for _, srv := range db.Or(ss.Emby).Servers {
			if srv != nil {
				out = append(out, srv)
			}
		}
	case "jellyfin":
		for _, srv := range db.Or(ss.Jellyfin).Servers {
			if srv != nil {
				out = append(out, srv)
			}
		}
	}
	return out
}

// sectionMember is a saved member of the section key, nil when the
// section or the member is not saved.
func sectionMember(ss *db.SettingsState, key, name string) any {
	if doc, ok := ss.Section(key).(json.Marshaler); ok {
		return state.Member(doc, name)
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
		if st.savedServer(svc, in) {
			out = deepCopyJSON(st.Integrations.At(kind, svc))
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
	ss := &st.Settings
	switch svc {
	case "newsletter", "mobile":
		return true
	case "whatsapp":
		tw := db.Or(ss.Twilio).WhatsAppSettings
		return tw != nil && db.FieldFold(in, "authToken") == member(tw, "authToken")
	case "plex":
		for _, srv := range plexServers(ss) {
			if v := db.FieldFold(in, "plexAuthToken"); v != nil && v == member(srv, "plexAuthToken") {
				return true
			}
		}
		return false
	case "emby", "jellyfin":
		return st.savedServer(svc, in)
	case "sonarr", "radarr":
		return st.testArr(svc, in)
	}
	sec := testerSecrets[svc]
	saved := sectionMember(ss, sec.section, sec.field)
	ok := saved != nil && saved != "" && db.FieldFold(in, sec.field) == saved
	if svc == "lidarr" {
		res := testerResult{IsValid: ok}
		if ok {
			res.Version = "2.8.2.4493"
			res.ExpectedSubDir = member(ss.Lidarr, "subDir")
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
	key, _ := db.FieldFold(in, "apiKey").(string)
	if svc == "sonarr" {
		ip, _ := db.FieldFold(in, "ip").(string)
		port, _ := db.JsonNumber(db.FieldFold(in, "port"))
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
	var saved json.Marshaler
	if svc == "sonarr" {
		if st.Settings.Sonarr != nil {
			saved = st.Settings.Sonarr
		}
	} else {
		for _, k := range []string{"radarr", "radarr4K"} {
			if m := st.Settings.ArrRadarr(k); m != nil && state.Member(m, "apiKey") == key {
				saved = m
			}
		}
	}
	if saved == nil || key == "" || state.Member(saved, "apiKey") != key {
		return res
	}
	sub, _ := db.FieldFold(in, "subDir").(string)
	urlBase, _ := state.Member(saved, "subDir").(string)
	res.IsValid = sub == urlBase
	res.ExpectedSubDir = state.Member(saved, "subDir")
	if svc == "sonarr" {
		res.Version = st.Integrations.At("sonarr", "version")
	}
	return res
}

// msgXMLError is the XmlSerializer exception Ombi reports when plex.tv
// answers a request without a valid token (its error body is not a
// MediaContainer).
const msgXMLError = "There is an error in XML document (1, 1)."

// msgPlexNotJSON is the Newtonsoft exception Ombi reports when a Plex
// server answers an unauthorised library call with its HTML 401 page.
const msgPlexNotJSON = "Unexpected character encountered while parsing value: <. Path '', line 0, position 0."

// integrationPlexSignIn answers POST /api/v1/Plex (anonymous, the wizard's
// Plex login; PlexController.SignIn). The mock's plex.tv accepts no
// credentials (as Token/{pinId} never authenticates), so the answer is
// plex.tv's error body read as PlexAuthentication: {"user": null}; with an
// empty (not absent) saved server list Ombi stops first and answers null.
func (s *Server) integrationPlexSignIn(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	empty := false
	s.store.Read(func(st *store) {
		plex := st.Settings.Plex
		empty = plex != nil && plex.HasMember("servers") && plex.Servers != nil && len(plex.Servers) == 0
	})
	if empty {
		noContent(w)
		return
	}
	writeJSON(w, http.StatusOK, &state.PlexAuthentication{})
}

// integrationPlexServersLogin answers POST /api/v1/Plex/servers {login,
// password} (PlexServersViewModel): the sign-in yields no token, plex.tv
// refuses the servers call and Ombi reports the XML error.
func (s *Server) integrationPlexServersLogin(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	writeJSON(w, http.StatusOK, &state.PlexServersResponse{Message: ref(msgXMLError)})
}

// plexServerByToken finds the saved Plex server a posted PlexServers body
// authenticates as (its plexAuthToken); nil when none.
func (st *store) plexServerByToken(in map[string]any) *state.PlexServers {
	tok, _ := db.FieldFold(in, "plexAuthToken").(string)
	for _, srv := range plexServers(&st.Settings) {
		if tok != "" && tok == db.Text(srv.PlexAuthToken) {
			return srv
		}
	}
	return nil
}

// integrationPlexLibrariesPost answers POST /api/v1/Plex/Libraries with a
// PlexServers body (PlexLibrariesResponse): the library sections of the
// server whose token the body carries, as PlexContainer
// {mediaContainer: {size, directory, ...}}; any other token gets the Plex
// server's HTML 401, which Ombi fails to parse (successful: false).
func (s *Server) integrationPlexLibrariesPost(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	var dirs []any
	found := false
	s.store.Read(func(st *store) {
		if srv := st.plexServerByToken(in); srv != nil {
			found = true
			id := db.Text(srv.MachineIdentifier)
			dirs, _ = deepCopyJSON(st.Integrations.At("plexLibraries", id)).([]any)
		}
	})
	if !found {
		writeJSON(w, http.StatusOK, &state.PlexLibrariesResponse{Message: ref(msgPlexNotJSON)})
		return
	}
	if dirs == nil {
		dirs = []any{}
	}
	mc := &state.Mediacontainer{Size: len(dirs), Title1: "Plex Library", Directory: dirs}
	writeJSON(w, http.StatusOK, &state.PlexLibrariesResponse{Data: &state.PlexContainer{MediaContainer: mc}, Successful: true})
}

// integrationPlexAddUser answers POST /api/v1/Plex/user {username,
// machineIdentifier, libsSelected}: plex.tv shares a saved server ({success:
// true}); an unknown machine dereferences null upstream (500).
func (s *Server) integrationPlexAddUser(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	known := false
	s.store.Read(func(st *store) {
		for _, srv := range plexServers(&st.Settings) {
			if v := db.FieldFold(in, "machineIdentifier"); v != nil && v == member(srv, "machineIdentifier") {
				known = true
			}
		}
	})
	if !known {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	writeJSON(w, http.StatusOK, &state.Success{Success: true})
}

// integrationPlexOAuth answers POST /api/v1/Plex/oauth {wizard, pin} (anonymous):
// {url} of the app.plex.tv sign-in page for the pin's code, built as
// PlexApi.GetOAuthUrl does (the client id is the Plex installId, the
// product the application name, "Ombi" when it is empty or not ASCII).
func (s *Server) integrationPlexOAuth(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Pin struct {
			Code string `json:"code"`
		} `json:"pin"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	var app, install string
	s.store.Read(func(st *store) {
		app = db.Text(db.Or(st.Settings.Customization).ApplicationName)
		install = strings.ReplaceAll(db.Or(st.Settings.Plex).InstallID, "-", "")
	})
	if app == "" || strings.ContainsFunc(app, func(r rune) bool { return r > 127 }) {
		app = "Ombi"
	}
	q := []string{"code=" + url.QueryEscape(in.Pin.Code), "context%5Bdevice%5D%5Bproduct%5D=" + url.QueryEscape(app),
		"context%5Bdevice%5D%5Benvironment%5D=bundled", "context%5Bdevice%5D%5Blayout%5D=desktop",
		"context%5Bdevice%5D%5Bplatform%5D=Web", "context%5Bdevice%5D%5Bdevice%5D=Ombi", "clientID=" + url.QueryEscape(install)}
	writeJSON(w, http.StatusOK, &state.PlexOAuthURL{URL: "https://app.plex.tv/auth/#?" + strings.Join(q, "&")})
}

// integrationPlexOAuthPin answers GET /api/v1/PlexOAuth/{pinId} (anonymous,
// the wizard's OAuth callback): the mock's plex.tv never authorises a pin.
func (s *Server) integrationPlexOAuthPin(w http.ResponseWriter, r *http.Request) {
	if _, ok := intParam(w, r, "pinId"); !ok {
		return
	}
	writeJSON(w, http.StatusOK, &state.PlexOAuthFailure{Error: "Authentication did not work. Please try again"})
}

// integrationPlexWatchlistUsers answers GET /api/v1/Plex/WatchlistUsers:
// every Plex user (PlexUserWatchlistModel) with its sync status, Pending
// (3) until a watchlist import has run (PlexService.GetWatchlistUsers).
func (s *Server) integrationPlexWatchlistUsers(w http.ResponseWriter, _ *http.Request) {
	out := []*state.PlexUserWatchlistModel{}
	s.store.Read(func(st *store) {
		for _, a := range st.Users.Accounts {
			if a.UserType == 2 {
				out = append(out, &state.PlexUserWatchlistModel{UserID: a.ID, SyncStatus: 3, UserName: a.UserName})
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// integrationMediaServerSignIn answers POST /api/v1/Emby and
// /api/v1/Jellyfin (anonymous, the wizard's first server; EmbyController and
// JellyfinController SignIn): null (204) once servers are saved; else the
// first posted server is tried with its API key (any non-empty key: the
// mock's media server knows its users) and, when it answers, the settings
// are saved enabled with the administrator's id and returned.
func (s *Server) integrationMediaServerSignIn(w http.ResponseWriter, r *http.Request) {
	svc := routeTail(r)[0]
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	var out json.RawMessage
	noServer := false
	s.store.Write(func(st *store) {
		if len(mediaServers(&st.Settings, svc)) > 0 {
			return
		}
		servers, _ := db.FieldFold(in, "servers").([]any)
		first, _ := func() (map[string]any, bool) {
			if len(servers) == 0 {
				return nil, false
			}
			m, ok := servers[0].(map[string]any)
			return m, ok
		}()
		if first == nil {
			noServer = true // Servers.FirstOrDefault() is null and is dereferenced
			return
		}
		if key, _ := db.FieldFold(first, "apiKey").(string); key == "" {
			return
		}
		users, _ := st.Integrations.At(svc + "Users").([]any)
		admin := ""
		if len(users) > 0 {
			if u, ok := users[0].(map[string]any); ok {
				admin, _ = u["id"].(string)
			}
		}
		first["administratorId"] = admin
		in["enable"] = true
		if old, ok := st.Settings.Section(svc).(json.Marshaler); ok {
			in["id"] = state.Member(old, "id")
		}
		st.saveSection(svc, in)
		out = encodeSection(st.Settings.Section(svc))
	})
	if noServer {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	if out == nil {
		noContent(w)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

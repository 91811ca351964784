package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file serves read_integration: the ARR option lists, Plex servers
// and libraries, and Emby/Jellyfin server info and libraries; and
// write_integration_test (Ombi's Tester controller), whose bodies are the
// saved settings, resolved privately through the deployment's profile
// allowlist (OMBI_PROFILES, outline C16). Saved settings are read
// privately; no caller connection or destination override exists.

// ---- generic option records ----

// Keys read from option records, in priority order. Nothing else of an
// upstream record can reach the output.
var (
	optionIDKeys   = []string{"id", "machineIdentifier", "machineId", "serverId", "key", "Id", "Key", "ItemId", "_id"}
	optionNameKeys = []string{"name", "title", "label", "path", "serverName", "Name", "ServerName", "Title"}
	wrapperKeys    = []string{"servers", "server", "items", "Items", "data", "mediaContainer", "MediaContainer", "directory", "Directory", "list", "profiles", "folders"}
)

// optionRecords finds the record array of an answer: the array itself, or
// the first array below a known wrapper key. A wrapper with success false
// is an upstream rejection.
func optionRecords(raw json.RawMessage, depth int) ([]map[string]json.RawMessage, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" || depth > 4 {
		return nil, nil
	}
	if t[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(t, &items); err != nil {
			return nil, &ombi.SchemaError{Op: "integration option list", Reason: "not a JSON array"}
		}
		var out []map[string]json.RawMessage
		for _, it := range items {
			var m map[string]json.RawMessage
			if json.Unmarshal(it, &m) == nil && m != nil {
				out = append(out, m)
			}
		}
		return out, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(t, &obj); err != nil {
		return nil, &ombi.SchemaError{Op: "integration option list", Reason: "not a JSON array or object"}
	}
	for _, k := range []string{"success", "successful", "Success"} {
		if v, ok := obj[k]; ok && string(bytes.TrimSpace(v)) == "false" {
			var msg struct {
				Message string `json:"message"`
			}
			_ = json.Unmarshal(t, &msg)
			return nil, &ombi.BusinessError{Message: sanitizeMessage(msg.Message)}
		}
	}
	for _, k := range wrapperKeys {
		if v, ok := obj[k]; ok {
			return optionRecords(v, depth+1)
		}
	}
	// An object that wraps no list says nothing about the options: never an
	// empty, complete collection (RESULTS-PROJECTION-001).
	return nil, &ombi.SchemaError{Op: "integration option list", Reason: "an object that holds no list of options"}
}

// scalarText reads a JSON string or number as text.
func scalarText(v json.RawMessage) (string, bool) {
	t := bytes.TrimSpace(v)
	if len(t) == 0 {
		return "", false
	}
	if t[0] == '"' {
		var s string
		if json.Unmarshal(t, &s) == nil {
			return strings.TrimSpace(s), s != ""
		}
		return "", false
	}
	if t[0] == '-' || (t[0] >= '0' && t[0] <= '9') {
		return string(t), true
	}
	return "", false
}

// optionRef projects one option record deterministically: id from the
// first id key present, name from the first name key (root folders: path),
// value the native-typed id, else the name.
func optionRef(m map[string]json.RawMessage, category string) (reference, bool) {
	r := reference{Category: category}
	numeric := false
	for _, k := range optionIDKeys {
		if s, ok := scalarText(m[k]); ok {
			r.ID = s
			numeric = bytes.TrimSpace(m[k])[0] != '"'
			break
		}
	}
	for _, k := range optionNameKeys {
		if s, ok := scalarText(m[k]); ok && !mojibake(s) {
			r.Name = s
			break
		}
	}
	if r.Name == "" {
		if r.ID == "" {
			return reference{}, false
		}
		r.Name = r.ID
	}
	if sid, ok := scalarText(m["serverId"]); ok && category == "plex_server" {
		// Plex servers: id is the machine id, value the saved server id.
		if n, err := strconv.ParseInt(sid, 10, 64); err == nil {
			r.Value = n
		} else {
			r.Value = sid
		}
		return r, true
	}
	switch {
	case r.ID == "":
		r.Value = r.Name
	case numeric:
		if n, err := strconv.ParseInt(r.ID, 10, 64); err == nil {
			r.Value = n
		} else {
			r.Value = r.ID
		}
	default:
		r.Value = r.ID
	}
	return r, true
}

func optionRefs(raw json.RawMessage, category string) ([]reference, error) {
	recs, err := optionRecords(raw, 0)
	if err != nil {
		return nil, err
	}
	refs := []reference{}
	for _, m := range recs {
		if r, ok := optionRef(m, category); ok {
			refs = append(refs, r)
		}
	}
	return refs, nil
}

// Keys naming a saved server: Emby/Jellyfin serverId falling back to id;
// Plex machineIdentifier.
var (
	mediaServerKeys = []string{"serverId", "id"}
	plexServerKeys  = []string{"machineIdentifier"}
)

// savedServer finds the one saved server of a media-server settings
// document whose first present key of keys equals want; the server object
// is returned as saved.
func savedServer(settings json.RawMessage, want string, keys []string) (json.RawMessage, error) {
	var doc struct {
		Servers []json.RawMessage `json:"servers"`
	}
	if err := json.Unmarshal(settings, &doc); err != nil {
		return nil, &ombi.SchemaError{Op: "saved media server settings", Reason: "no servers list"}
	}
	var found []json.RawMessage
	for _, s := range doc.Servers {
		var m map[string]json.RawMessage
		if json.Unmarshal(s, &m) != nil {
			continue
		}
		id := ""
		for _, k := range keys {
			if v, ok := scalarText(m[k]); ok {
				id = v
				break
			}
		}
		if id == want {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		return nil, &notFoundError{Message: "no single saved server has this id; read_settings lists the saved servers"}
	}
	return found[0], nil
}

// ---- read_integration ----

type integrationInput struct {
	Action    string   `json:"action"`
	Service   string   `json:"service"`
	Kind      string   `json:"kind"`
	Is4K      bool     `json:"is_4k"`
	MachineID string   `json:"machine_id"`
	ServerID  string   `json:"server_id"`
	Page      *pageArg `json:"page"`
}

// arrPaths maps service/kind to the literal option route.
var arrPaths = map[string]string{
	"sonarr/profiles": "api/v1/Sonarr/Profiles", "sonarr/root_folders": "api/v1/Sonarr/RootFolders",
	"sonarr/language_profiles": "api/v1/Sonarr/v3/LanguageProfiles", "sonarr/tags": "api/v1/Sonarr/tags",
	"radarr/profiles": "api/v1/Radarr/Profiles", "radarr/root_folders": "api/v1/Radarr/RootFolders",
	"radarr/tags": "api/v1/Radarr/tags", "lidarr/profiles": "api/v1/Lidarr/Profiles",
	"lidarr/root_folders": "api/v1/Lidarr/RootFolders",
}

// readIntegration serves read_integration.
// Implements S-ROUTING-0245 to S-ROUTING-0256.
func readIntegration(d *deps) tool {
	return tool{name: "read_integration", handle: func(ctx context.Context, c *call) (any, error) {
		var in integrationInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		cl := d.client
		var (
			raw      json.RawMessage
			err      error
			category string
		)
		switch in.Action {
		case "arr_options":
			category = in.Service + "_" + strings.TrimSuffix(in.Kind, "s")
			if in.Is4K && in.Kind == "tags" {
				return nil, &ombi.ArgumentError{Field: "/is_4k", Message: "Radarr 4K applies to profiles and root folders only"}
			}
			switch key := in.Service + "/" + in.Kind; key {
			case "lidarr/metadata_profiles":
				raw, err = d.viaSettings(ctx, "lidarr", "api/v1/Lidarr/Metadata")
			case "couchpotato/profiles":
				raw, err = d.viaSettings(ctx, "couchpotato", "api/v1/CouchPotato/profile")
			default:
				rel, ok := arrPaths[key]
				if !ok {
					return nil, &unsupportedError{Message: "read_integration: unknown option list " + key}
				}
				if in.Is4K {
					rel += "/4k"
				}
				raw, err = cl.ArrOptions(ctx, rel)
			}
		case "plex_servers":
			category = "plex_server"
			raw, err = cl.PlexServers(ctx)
		case "plex_libraries":
			category = "plex_library"
			settings, serr := cl.SettingsSection(ombi.ReadOnly(ctx), "plex")
			if serr != nil {
				return nil, serr
			}
			if _, serr := savedServer(settings, in.MachineID, plexServerKeys); serr != nil {
				return nil, serr
			}
			raw, err = cl.PlexLibraries(ctx, in.MachineID)
		case "media_server":
			settings, serr := cl.SettingsSection(ombi.ReadOnly(ctx), in.Service)
			if serr != nil {
				return nil, serr
			}
			server, serr := savedServer(settings, in.ServerID, mediaServerKeys)
			if serr != nil {
				return nil, serr
			}
			svc := map[string]string{"emby": "Emby", "jellyfin": "Jellyfin"}[in.Service]
			if in.Kind == "info" {
				raw, err = cl.IntegrationPost(ctx, "api/v1/"+svc+"/info", server)
				if err != nil {
					return nil, err
				}
				return serverInfoPage(raw)
			}
			category = in.Service + "_library"
			raw, err = cl.IntegrationPost(ctx, "api/v1/"+svc+"/Library", server)
		default:
			return nil, &unsupportedError{Message: "read_integration: unknown branch"}
		}
		if err != nil && !errors.Is(err, ombi.ErrNoContent) { // 204: nothing configured
			return nil, err
		}
		refs, err := optionRefs(raw, category)
		if err != nil {
			return nil, err
		}
		window, pg := localPage(refs, in.Page, true, unitReferences)
		return newReferencePage(window, pg), nil
	}}
}

// viaSettings loads a section's saved settings privately and posts them to
// a POST-only option route.
func (d *deps) viaSettings(ctx context.Context, section, rel string) (json.RawMessage, error) {
	settings, err := d.client.SettingsSection(ombi.ReadOnly(ctx), section)
	if err != nil {
		return nil, err
	}
	return d.client.IntegrationPost(ctx, rel, settings)
}

// serverInfoPage projects a media server's public info: its id, name and
// version only (never addresses).
func serverInfoPage(raw json.RawMessage) (any, error) {
	var w struct {
		ID         string `json:"id"`
		IDUpper    string `json:"Id"`
		ServerName string `json:"serverName"`
		NameUpper  string `json:"ServerName"`
		Version    string `json:"version"`
		VerUpper   string `json:"Version"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, &ombi.SchemaError{Op: "POST media server info", Reason: "not a server info object"}
	}
	id, name, version := firstOf(w.ID, w.IDUpper), firstOf(w.ServerName, w.NameUpper), firstOf(w.Version, w.VerUpper)
	var refs []reference
	if name != "" || id != "" {
		refs = append(refs, reference{ID: id, Name: firstOf(name, id), Value: firstOf(id, name), Category: "server"})
	}
	if version != "" {
		refs = append(refs, reference{Name: "version", Value: version, Category: "version"})
	}
	return newReferencePage(refs, singlePage(len(refs), unitReferences)), nil
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}

// ---- write_integration_test ----

// deliveryServices really send a message when tested.
var deliveryServices = []string{"email", "discord", "telegram", "pushbullet", "pushover", "slack", "mattermost", "gotify", "ntfy", "webhook", "whatsapp", "newsletter"}

// parseProfiles reads OMBI_PROFILES: a comma list of service:profile_id.
// For media servers the profile id is a saved server id; for radarr
// "default" and "4k" pick the part of the combined model; elsewhere
// "default" is the saved settings.
func parseProfiles(profiles []string) map[string]bool {
	set := map[string]bool{}
	for _, p := range profiles {
		svc, id, ok := strings.Cut(strings.TrimSpace(p), ":")
		if ok && svc != "" && id != "" {
			set[svc+":"+id] = true
		}
	}
	return set
}

type integrationTestInput struct {
	Service   string `json:"service"`
	ProfileID string `json:"profile_id"`
}

// writeIntegrationTest serves write_integration_test. The profile must be
// provisioned for the service; an unknown one is NOT_FOUND with no
// upstream traffic.
// Implements S-ROUTING-0263, S-ROUTING-0264, S-ROUTING-0265.
func writeIntegrationTest(d *deps) tool {
	profiles := d.profiles
	return tool{name: "write_integration_test", handle: func(ctx context.Context, c *call) (any, error) {
		var in integrationTestInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		section, ok := ombi.TesterSection[in.Service]
		if !ok {
			return nil, &ombi.ArgumentError{Field: "/service", Message: "unknown tester service"}
		}
		if !profiles[in.Service+":"+in.ProfileID] {
			return nil, &notFoundError{Message: "no provisioned profile " + in.ProfileID + " for " + in.Service + " (OMBI_PROFILES)"}
		}
		settings, err := d.client.SettingsSection(ombi.ReadOnly(ctx), section)
		if err != nil {
			return nil, err
		}
		body, err := testerBody(in.Service, in.ProfileID, settings)
		if err != nil {
			return nil, err
		}
		raw, err := d.client.Tester(ctx, in.Service, body)
		if err != nil {
			return nil, err
		}
		if !testerPassed(raw) {
			return nil, &ombi.BusinessError{Message: "the " + in.Service + " test failed"}
		}
		if slices.Contains(deliveryServices, in.Service) {
			c.warn("the %s test really sent a message; completed means upstream's sender returned, not that it was received", in.Service)
		}
		m := completed()
		m.UpstreamResult = ptr(true)
		return m, nil
	}}
}

// testerBody selects the saved body a tester takes: the whole section, a
// part of it (radarr default/4k, the WhatsApp part of Twilio), or one
// saved server of a media-server section.
func testerBody(service, profile string, settings json.RawMessage) (json.RawMessage, error) {
	part := func(keys ...string) (json.RawMessage, error) {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(settings, &m); err != nil {
			return nil, &ombi.SchemaError{Op: "saved " + service + " settings", Reason: "not an object"}
		}
		for _, k := range keys {
			if v, ok := m[k]; ok && strings.TrimSpace(string(v)) != "null" {
				return v, nil
			}
		}
		return nil, &unsupportedError{Message: "the saved " + service + " settings have no part to test"}
	}
	switch service {
	case "plex":
		return savedServer(settings, profile, plexServerKeys)
	case "emby", "jellyfin":
		return savedServer(settings, profile, mediaServerKeys)
	case "radarr":
		if profile == "4k" {
			return part("radarr4K", "radarr4k")
		}
		return part("radarr")
	case "whatsapp":
		return part("whatsAppSettings", "whatsapp")
	}
	if profile != "default" {
		return nil, &notFoundError{Message: "profile " + profile + " of " + service + " does not exist; only default does"}
	}
	return settings, nil
}

// testerPassed reads a tester answer: true, or a TesterResultModel with
// isValid true.
func testerPassed(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	if t == "true" {
		return true
	}
	var r struct {
		IsValid *bool `json:"isValid"`
	}
	return json.Unmarshal(raw, &r) == nil && r.IsValid != nil && *r.IsValid
}

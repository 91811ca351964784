package db

import (
	"strings"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// IntegrationState holds what the external services (Sonarr, Radarr,
// Lidarr, CouchPotato, Plex, Emby, Jellyfin) would answer, keyed by the
// integrations.json structure.
type IntegrationState struct {
	data map[string]any
}

// newIntegrationState loads integrations.json.
func newIntegrationState(sd *seedSet) (IntegrationState, error) {
	data := map[string]any{}
	if err := sd.decode("integrations.json", &data); err != nil {
		return IntegrationState{}, err
	}
	return IntegrationState{data: data}, nil
}

// At walks the integration data by keys; nil when absent.
func (is *IntegrationState) At(keys ...string) any {
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

// ArrInstance finds the saved ARR instance whose API key a posted
// settings body carries: the section name ("sonarr", "radarr",
// "radarr4K", "lidarr"), or "" when none matches.
func (ss *SettingsState) ArrInstance(svc string, in map[string]any) string {
	key, _ := FieldFold(in, "apiKey").(string)
	if key == "" {
		return ""
	}
	candidates := []string{svc}
	if svc == "radarr" {
		candidates = []string{"radarr", "radarr4K"}
	}
	for _, c := range candidates {
		if saved := Text(ss.arrAPIKey(c)); saved != "" && saved == key {
			return c
		}
	}
	return ""
}

// arrAPIKey is the saved API key of an Arr section; radarr and radarr4K
// live inside the combined radarr document.
func (ss *SettingsState) arrAPIKey(section string) *string {
	switch section {
	case "sonarr":
		return Or(ss.Sonarr).APIKey
	case "lidarr":
		return Or(ss.Lidarr).APIKey
	}
	if r := ss.ArrRadarr(section); r != nil {
		return r.APIKey
	}
	return nil
}

// ArrRadarr is the saved radarr or radarr4K instance; nil when absent.
func (ss *SettingsState) ArrRadarr(section string) *state.RadarrSettings {
	c := Or(ss.Radarr)
	switch section {
	case "radarr":
		return c.Radarr
	case "radarr4K":
		return c.Radarr4K
	}
	return nil
}

// ArrEnabled reads the enabled flag of an Arr settings section.
func (ss *SettingsState) ArrEnabled(section string) bool {
	switch section {
	case "radarr", "radarr4K":
		return Or(ss.ArrRadarr(section)).Enabled
	case "sonarr":
		return Or(ss.Sonarr).Enabled
	case "lidarr":
		return Or(ss.Lidarr).Enabled
	case "couchpotato":
		return Or(ss.CouchPotato).Enabled
	}
	return false
}

// FieldFold reads a body field ignoring the key's case, as Newtonsoft binds.
func FieldFold(m map[string]any, key string) any {
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return v
		}
	}
	return nil
}

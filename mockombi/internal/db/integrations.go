package db

import "strings"

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
		doc := ss.Doc(c)
		if c == "radarr" || c == "radarr4K" {
			doc, _ = ss.Doc("radarr")[c].(map[string]any)
		}
		if saved, _ := doc["apiKey"].(string); saved != "" && saved == key {
			return c
		}
	}
	return ""
}

// ArrEnabled reads the enabled flag of an Arr settings section; radarr and
// radarr4K live inside the combined radarr document.
func (ss *SettingsState) ArrEnabled(section string) bool {
	switch section {
	case "radarr", "radarr4K":
		m, _ := ss.Doc("radarr")[section].(map[string]any)
		b, _ := m["enabled"].(bool)
		return b
	default:
		return ss.Flag(section, "enabled")
	}
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

package db

import (
	"encoding/json"
	"strconv"
)

// SettingsState holds every settings document by lower-case wire key
// ("ombi", "radarr", "notifications/email", ...), plus the feature list,
// custom page, themes and the about model.
type SettingsState struct {
	Sections map[string]any
}

// newSettingsState loads settings.json.
func newSettingsState(sd *seedSet) (SettingsState, error) {
	sections := map[string]any{}
	if err := sd.decode("settings.json", &sections); err != nil {
		return SettingsState{}, err
	}
	seedNotificationTemplates(sections)
	return SettingsState{Sections: sections}, nil
}

// Doc returns a section as an object (nil when absent or not an object).
func (ss *SettingsState) Doc(key string) map[string]any {
	m, _ := ss.Sections[key].(map[string]any)
	return m
}

// Flag reads a boolean field of a section.
func (ss *SettingsState) Flag(key, field string) bool {
	b, _ := ss.Doc(key)[field].(bool)
	return b
}

// Text reads a string field of a section.
func (ss *SettingsState) Text(key, field string) string {
	s, _ := ss.Doc(key)[field].(string)
	return s
}

// Servers returns the saved servers of plex, emby or jellyfin.
func (ss *SettingsState) Servers(key string) []map[string]any {
	var out []map[string]any
	list, _ := ss.Doc(key)["servers"].([]any)
	for _, v := range list {
		if m, ok := v.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// FeatureList returns the stored FeatureEnablement list.
func (ss *SettingsState) FeatureList() []any {
	l, _ := ss.Sections["features"].([]any)
	return l
}

// JsonNumber reads an int from a decoded JSON value.
func JsonNumber(v any) (int, bool) {
	switch t := v.(type) {
	case int:
		return t, true
	case float64:
		return int(t), true
	case json.Number:
		n, err := t.Int64()
		return int(n), err == nil
	case string:
		n, err := strconv.Atoi(t)
		return n, err == nil
	}
	return 0, false
}

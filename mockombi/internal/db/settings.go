package db

import (
	"encoding/json"
	"strconv"
)

// settingsState holds every settings document by lower-case wire key
// ("ombi", "radarr", "notifications/email", ...), plus the feature list,
// custom page, themes and the about model.
type settingsState struct {
	Sections map[string]any
}

// newSettingsState loads settings.json.
func newSettingsState(sd *seedSet) (settingsState, error) {
	sections := map[string]any{}
	if err := sd.decode("settings.json", &sections); err != nil {
		return settingsState{}, err
	}
	seedNotificationTemplates(sections)
	return settingsState{Sections: sections}, nil
}

// doc returns a section as an object (nil when absent or not an object).
func (ss *settingsState) Doc(key string) map[string]any {
	m, _ := ss.Sections[key].(map[string]any)
	return m
}

// flag reads a boolean field of a section.
func (ss *settingsState) Flag(key, field string) bool {
	b, _ := ss.Doc(key)[field].(bool)
	return b
}

// text reads a string field of a section.
func (ss *settingsState) Text(key, field string) string {
	s, _ := ss.Doc(key)[field].(string)
	return s
}

// servers returns the saved servers of plex, emby or jellyfin.
func (ss *settingsState) Servers(key string) []map[string]any {
	var out []map[string]any
	list, _ := ss.Doc(key)["servers"].([]any)
	for _, v := range list {
		if m, ok := v.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// featureList returns the stored FeatureEnablement list.
func (ss *settingsState) FeatureList() []any {
	l, _ := ss.Sections["features"].([]any)
	return l
}

// jsonNumber reads an int from a decoded JSON value.
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

package db

import (
	"encoding/json"
	"strconv"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// SettingsState holds the saved settings (state.Settings: every settings
// document by its lower-case wire key, the feature list, custom page,
// themes and the about model).
type SettingsState struct {
	state.Settings
}

// newSettingsState loads settings.json.
func newSettingsState(sd *seedSet) (SettingsState, error) {
	var ss SettingsState
	_ = ss.UnmarshalJSON([]byte("{}")) // no settings.json: no sections
	if err := sd.decode("settings.json", &ss.Settings); err != nil {
		return SettingsState{}, err
	}
	seedNotificationTemplates(&ss.Settings)
	return ss, nil
}

// Or is the document p points to, or a zero one when p is nil: for
// reading a member of a section the settings may not carry.
func Or[T any](p *T) *T {
	if p == nil {
		return new(T)
	}
	return p
}

// Text is a nullable string member's value, "" for null.
func Text(s *string) string {
	if s == nil {
		return ""
	}
	return *s
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

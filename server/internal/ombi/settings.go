package ombi

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
)

// SettingsWire maps every section label to its path below the API root.
// The first 32 entries are writable (input outline write_settings_patch).
var SettingsWire = map[string]string{
	"ombi": "api/v1/Settings/ombi", "customization": "api/v1/Settings/customization",
	"landing_page": "api/v1/Settings/landingpage", "authentication": "api/v1/Settings/authentication",
	"issues": "api/v1/Settings/Issues", "vote": "api/v1/Settings/vote",
	"user_management": "api/v1/Settings/UserManagement", "update": "api/v1/Settings/Update",
	"jobs": "api/v1/Settings/jobs", "plex": "api/v1/Settings/plex", "emby": "api/v1/Settings/emby",
	"jellyfin": "api/v1/Settings/jellyfin", "sonarr": "api/v1/Settings/sonarr", "radarr": "api/v1/Settings/radarr",
	"lidarr": "api/v1/Settings/lidarr", "couchpotato": "api/v1/Settings/CouchPotato",
	"dognzb": "api/v1/Settings/DogNzb", "sickrage": "api/v1/Settings/SickRage",
	"themoviedb":               "api/v1/Settings/themoviedb",
	"notifications_email":      "api/v1/Settings/notifications/email",
	"notifications_discord":    "api/v1/Settings/notifications/discord",
	"notifications_telegram":   "api/v1/Settings/notifications/telegram",
	"notifications_pushbullet": "api/v1/Settings/notifications/pushbullet",
	"notifications_pushover":   "api/v1/Settings/notifications/pushover",
	"notifications_slack":      "api/v1/Settings/notifications/slack",
	"notifications_mattermost": "api/v1/Settings/notifications/mattermost",
	"notifications_twilio":     "api/v1/Settings/notifications/twilio",
	"notifications_mobile":     "api/v1/Settings/notifications/mobile",
	"notifications_gotify":     "api/v1/Settings/notifications/gotify",
	"notifications_ntfy":       "api/v1/Settings/notifications/ntfy",
	"notifications_webhook":    "api/v1/Settings/notifications/webhook",
	"notifications_newsletter": "api/v1/Settings/notifications/newsletter",
	// read-only views
	"about": "api/v1/Settings/about", "themes": "api/v1/Settings/themes",
	"issues_enabled": "api/v1/Settings/issuesenabled", "vote_enabled": "api/v1/Settings/voteenabled",
	"lidarr_enabled": "api/v1/Settings/lidarrenabled", "email_enabled": "api/v1/Settings/notifications/email/enabled",
	"default_language": "api/v1/Settings/defaultlanguage", "base_url": "api/v1/Settings/baseurl",
	"custom_page": "api/v1/CustomPage",
}

// readOnlySections are the views no patch may target.
var readOnlySections = []string{"about", "themes", "issues_enabled", "vote_enabled", "lidarr_enabled", "email_enabled", "default_language", "base_url", "custom_page"}

func WritableSection(s string) bool {
	_, ok := SettingsWire[s]
	return ok && !slices.Contains(readOnlySections, s)
}

// SettingsSection reads a section's full wire document.
//
// upstream: GET /api/v1/Settings/ombi
// upstream: GET /api/v1/Settings/customization
// upstream: GET /api/v1/Settings/landingpage
// upstream: GET /api/v1/Settings/authentication
// upstream: GET /api/v1/Settings/Issues
// upstream: GET /api/v1/Settings/vote
// upstream: GET /api/v1/Settings/UserManagement
// upstream: GET /api/v1/Settings/Update
// upstream: GET /api/v1/Settings/jobs
// upstream: GET /api/v1/Settings/plex
// upstream: GET /api/v1/Settings/emby
// upstream: GET /api/v1/Settings/jellyfin
// upstream: GET /api/v1/Settings/sonarr
// upstream: GET /api/v1/Settings/radarr
// upstream: GET /api/v1/Settings/lidarr
// upstream: GET /api/v1/Settings/CouchPotato
// upstream: GET /api/v1/Settings/DogNzb
// upstream: GET /api/v1/Settings/SickRage
// upstream: GET /api/v1/Settings/themoviedb
// upstream: GET /api/v1/Settings/notifications/email
// upstream: GET /api/v1/Settings/notifications/discord
// upstream: GET /api/v1/Settings/notifications/telegram
// upstream: GET /api/v1/Settings/notifications/pushbullet
// upstream: GET /api/v1/Settings/notifications/pushover
// upstream: GET /api/v1/Settings/notifications/slack
// upstream: GET /api/v1/Settings/notifications/mattermost
// upstream: GET /api/v1/Settings/notifications/twilio
// upstream: GET /api/v1/Settings/notifications/mobile
// upstream: GET /api/v1/Settings/notifications/gotify
// upstream: GET /api/v1/Settings/notifications/ntfy
// upstream: GET /api/v1/Settings/notifications/webhook
// upstream: GET /api/v1/Settings/notifications/newsletter
// upstream: GET /api/v1/Settings/about
// upstream: GET /api/v1/Settings/themes
// upstream: GET /api/v1/Settings/issuesenabled
// upstream: GET /api/v1/Settings/voteenabled
// upstream: GET /api/v1/Settings/lidarrenabled
// upstream: GET /api/v1/Settings/notifications/email/enabled
// upstream: GET /api/v1/Settings/defaultlanguage
// upstream: GET /api/v1/Settings/baseurl
// upstream: GET /api/v1/CustomPage
func (c *Client) SettingsSection(ctx context.Context, section string) (json.RawMessage, error) {
	rel, ok := SettingsWire[section]
	if !ok {
		return nil, &ArgumentError{Field: "/section", Message: "unknown settings section"}
	}
	return send[json.RawMessage](ctx, c, http.MethodGet, rel, nil)
}

// SaveSettings posts a section's full merged model; the answer is a bool
// (jobs: {result, message}).
//
// upstream: POST /api/v1/Settings/ombi
// upstream: POST /api/v1/Settings/customization
// upstream: POST /api/v1/Settings/landingpage
// upstream: POST /api/v1/Settings/authentication
// upstream: POST /api/v1/Settings/Issues
// upstream: POST /api/v1/Settings/vote
// upstream: POST /api/v1/Settings/UserManagement
// upstream: POST /api/v1/Settings/Update
// upstream: POST /api/v1/Settings/jobs
// upstream: POST /api/v1/Settings/plex
// upstream: POST /api/v1/Settings/emby
// upstream: POST /api/v1/Settings/jellyfin
// upstream: POST /api/v1/Settings/sonarr
// upstream: POST /api/v1/Settings/radarr
// upstream: POST /api/v1/Settings/lidarr
// upstream: POST /api/v1/Settings/CouchPotato
// upstream: POST /api/v1/Settings/DogNzb
// upstream: POST /api/v1/Settings/SickRage
// upstream: POST /api/v1/Settings/themoviedb
// upstream: POST /api/v1/Settings/notifications/email
// upstream: POST /api/v1/Settings/notifications/discord
// upstream: POST /api/v1/Settings/notifications/telegram
// upstream: POST /api/v1/Settings/notifications/pushbullet
// upstream: POST /api/v1/Settings/notifications/pushover
// upstream: POST /api/v1/Settings/notifications/slack
// upstream: POST /api/v1/Settings/notifications/mattermost
// upstream: POST /api/v1/Settings/notifications/twilio
// upstream: POST /api/v1/Settings/notifications/mobile
// upstream: POST /api/v1/Settings/notifications/gotify
// upstream: POST /api/v1/Settings/notifications/ntfy
// upstream: POST /api/v1/Settings/notifications/webhook
// upstream: POST /api/v1/Settings/notifications/newsletter
func (c *Client) SaveSettings(ctx context.Context, section string, model json.RawMessage) (json.RawMessage, error) {
	if !WritableSection(section) {
		return nil, &ArgumentError{Field: "/section", Message: "section is not writable"}
	}
	return send[json.RawMessage](ctx, c, http.MethodPost, SettingsWire[section], model)
}

// SetFeature switches a feature on or off; the answer is the feature list.
//
// upstream: POST /api/v2/Features/enable
// upstream: POST /api/v2/Features/disable
func (c *Client) SetFeature(ctx context.Context, name string, enabled bool) ([]Feature, error) {
	op := "disable"
	if enabled {
		op = "enable"
	}
	return send[[]Feature](ctx, c, http.MethodPost, "api/v2/Features/"+op, FeatureBody{Name: name, Enabled: enabled})
}

type FeatureBody struct {
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
}

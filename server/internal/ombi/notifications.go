package ombi

import (
	"context"
	"encoding/json"
	"net/http"
)

// MassEmail sends one e-mail to resolved users; the answer is a bool.
//
// upstream: POST /api/v1/Notifications/massemail
func (c *Client) MassEmail(ctx context.Context, body MassEmailBody) (bool, error) {
	return send[bool](ctx, c, http.MethodPost, "api/v1/Notifications/massemail", body)
}

// Tester runs an upstream connection or delivery test with a saved body;
// the answer is a bool or a TesterResultModel.
//
// upstream: POST /api/v1/Tester/email
// upstream: POST /api/v1/Tester/discord
// upstream: POST /api/v1/Tester/telegram
// upstream: POST /api/v1/Tester/pushbullet
// upstream: POST /api/v1/Tester/pushover
// upstream: POST /api/v1/Tester/slack
// upstream: POST /api/v1/Tester/mattermost
// upstream: POST /api/v1/Tester/gotify
// upstream: POST /api/v1/Tester/ntfy
// upstream: POST /api/v1/Tester/webhook
// upstream: POST /api/v1/Tester/whatsapp
// upstream: POST /api/v1/Tester/newsletter
// upstream: POST /api/v1/Tester/plex
// upstream: POST /api/v1/Tester/emby
// upstream: POST /api/v1/Tester/jellyfin
// upstream: POST /api/v1/Tester/sonarr
// upstream: POST /api/v1/Tester/radarr
// upstream: POST /api/v1/Tester/lidarr
// upstream: POST /api/v1/Tester/couchpotato
// upstream: POST /api/v1/Tester/sickrage
func (c *Client) Tester(ctx context.Context, service string, body json.RawMessage) (json.RawMessage, error) {
	if _, ok := TesterSection[service]; !ok {
		return nil, &ArgumentError{Field: "/service", Message: "unknown tester service"}
	}
	return send[json.RawMessage](ctx, c, http.MethodPost, "api/v1/Tester/"+service, body)
}

type (
	MassEmailBody struct {
		Subject string      `json:"subject"`
		Body    string      `json:"body"`
		Bcc     bool        `json:"bcc"`
		Users   []MassEmail `json:"users"`
	}
	// MassEmail is the minimal OmbiUser the upstream mail loop reads.
	MassEmail struct {
		ID       string `json:"id"`
		UserName string `json:"userName"`
		Email    string `json:"email"`
	}
)

// TesterSection names the saved-settings section each tester body comes
// from.
var TesterSection = map[string]string{
	"email": "notifications_email", "discord": "notifications_discord", "telegram": "notifications_telegram",
	"pushbullet": "notifications_pushbullet", "pushover": "notifications_pushover", "slack": "notifications_slack",
	"mattermost": "notifications_mattermost", "gotify": "notifications_gotify", "ntfy": "notifications_ntfy",
	"webhook": "notifications_webhook", "whatsapp": "notifications_twilio", "newsletter": "notifications_newsletter",
	"plex": "plex", "emby": "emby", "jellyfin": "jellyfin", "sonarr": "sonarr", "radarr": "radarr",
	"lidarr": "lidarr", "couchpotato": "couchpotato", "sickrage": "sickrage",
}

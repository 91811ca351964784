package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// This file serves write_notification_send (Ombi's mass e-mail) and
// write_integration_test (Ombi's Tester controller). Tester bodies are the
// saved settings, resolved privately through the deployment's profile
// allowlist (OMBI_PROFILES, outline C16); no destination override exists.

// ---- client methods ----

// massEmail sends one e-mail to resolved users; the answer is a bool.
//
// upstream: POST /api/v1/Notifications/massemail
func (c *ombiClient) massEmail(ctx context.Context, body massEmailBody) (bool, error) {
	return send[bool](ctx, c, http.MethodPost, "api/v1/Notifications/massemail", body)
}

// tester runs an upstream connection or delivery test with a saved body;
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
func (c *ombiClient) tester(ctx context.Context, service string, body json.RawMessage) (json.RawMessage, error) {
	if _, ok := testerSection[service]; !ok {
		return nil, &argumentError{Field: "/service", Message: "unknown tester service"}
	}
	return send[json.RawMessage](ctx, c, http.MethodPost, "api/v1/Tester/"+service, body)
}

type (
	massEmailBody struct {
		Subject string      `json:"subject"`
		Body    string      `json:"body"`
		Bcc     bool        `json:"bcc"`
		Users   []massEmail `json:"users"`
	}
	// massEmail is the minimal OmbiUser the upstream mail loop reads.
	massEmail struct {
		ID       string `json:"id"`
		UserName string `json:"userName"`
		Email    string `json:"email"`
	}
)

// ---- write_notification_send ----

type notificationInput struct {
	Subject string   `json:"subject"`
	Body    string   `json:"body"`
	UserIDs []string `json:"user_ids"`
	Bcc     bool     `json:"bcc"`
}

// writeNotificationSend serves write_notification_send: every id is
// resolved through one bounded user list read; an unknown id fails the
// call with nothing sent, and an empty list never means everyone.
// Implements S-ROUTING-0271, S-ROUTING-0273, S-ROUTING-0274.
func writeNotificationSend(d *deps) tool {
	return tool{name: "write_notification_send", handle: func(ctx context.Context, c *call) (any, error) {
		var in notificationInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		if err := nonBlank("/subject", in.Subject); err != nil {
			return nil, err
		}
		if err := nonBlank("/body", in.Body); err != nil {
			return nil, err
		}
		if len(in.UserIDs) == 0 || len(in.UserIDs) > maxRecords {
			return nil, &argumentError{Field: "/user_ids", Message: "give 1 to 100 user ids"}
		}
		for i, id := range in.UserIDs {
			if slices.Contains(in.UserIDs[:i], id) {
				return nil, &argumentError{Field: fmt.Sprintf("/user_ids/%d", i), Message: "duplicate user id"}
			}
		}
		users, err := d.client.users(readOnly(ctx))
		if err != nil {
			return nil, err
		}
		byID := map[string]wireUser{}
		for _, u := range users {
			byID[u.ID] = u
		}
		body := massEmailBody{Subject: in.Subject, Body: in.Body, Bcc: in.Bcc}
		for i, id := range in.UserIDs {
			u, ok := byID[id]
			if !ok {
				return nil, &argumentError{Field: fmt.Sprintf("/user_ids/%d", i), Message: "no such user; nothing was sent"}
			}
			body.Users = append(body.Users, massEmail{ID: u.ID, UserName: u.UserName, Email: u.EmailAddress})
		}
		ok, err := d.client.massEmail(ctx, body)
		if err != nil {
			return nil, err
		}
		m, err := boolOutcome(ok, "the mass e-mail")
		if err != nil {
			return nil, err
		}
		m.AffectedCount = ptr(len(body.Users))
		c.warn("completed means upstream accepted the e-mail for sending, not that anyone received it")
		return m, nil
	}}
}

// ---- write_integration_test ----

// testerSection names the saved-settings section each tester body comes
// from.
var testerSection = map[string]string{
	"email": "notifications_email", "discord": "notifications_discord", "telegram": "notifications_telegram",
	"pushbullet": "notifications_pushbullet", "pushover": "notifications_pushover", "slack": "notifications_slack",
	"mattermost": "notifications_mattermost", "gotify": "notifications_gotify", "ntfy": "notifications_ntfy",
	"webhook": "notifications_webhook", "whatsapp": "notifications_twilio", "newsletter": "notifications_newsletter",
	"plex": "plex", "emby": "emby", "jellyfin": "jellyfin", "sonarr": "sonarr", "radarr": "radarr",
	"lidarr": "lidarr", "couchpotato": "couchpotato", "sickrage": "sickrage",
}

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
		section, ok := testerSection[in.Service]
		if !ok {
			return nil, &argumentError{Field: "/service", Message: "unknown tester service"}
		}
		if !profiles[in.Service+":"+in.ProfileID] {
			return nil, &notFoundError{Message: "no provisioned profile " + in.ProfileID + " for " + in.Service + " (OMBI_PROFILES)"}
		}
		settings, err := d.client.settingsSection(readOnly(ctx), section)
		if err != nil {
			return nil, err
		}
		body, err := testerBody(in.Service, in.ProfileID, settings)
		if err != nil {
			return nil, err
		}
		raw, err := d.client.tester(ctx, in.Service, body)
		if err != nil {
			return nil, err
		}
		if !testerPassed(raw) {
			return nil, &businessError{Message: "the " + in.Service + " test failed"}
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
			return nil, &schemaError{Op: "saved " + service + " settings", Reason: "not an object"}
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

package server

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file serves write_notification_send (Ombi's mass e-mail) and
// write_integration_test (Ombi's Tester controller). Tester bodies are the
// saved settings, resolved privately through the deployment's profile
// allowlist (OMBI_PROFILES, outline C16); no destination override exists.

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
			return nil, &ombi.ArgumentError{Field: "/user_ids", Message: "give 1 to 100 user ids"}
		}
		for i, id := range in.UserIDs {
			if slices.Contains(in.UserIDs[:i], id) {
				return nil, &ombi.ArgumentError{Field: fmt.Sprintf("/user_ids/%d", i), Message: "duplicate user id"}
			}
		}
		users, err := d.client.Users(ombi.ReadOnly(ctx))
		if err != nil {
			return nil, err
		}
		byID := map[string]ombi.User{}
		for _, u := range users {
			byID[u.ID] = u
		}
		body := ombi.MassEmailBody{Subject: in.Subject, Body: in.Body, Bcc: in.Bcc}
		for i, id := range in.UserIDs {
			u, ok := byID[id]
			if !ok {
				return nil, &ombi.ArgumentError{Field: fmt.Sprintf("/user_ids/%d", i), Message: "no such user; nothing was sent"}
			}
			body.Users = append(body.Users, ombi.MassEmail{ID: u.ID, UserName: u.UserName, Email: u.EmailAddress})
		}
		ok, err := d.client.MassEmail(ctx, body)
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

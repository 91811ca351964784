package server

import (
	"context"
	"fmt"
	"slices"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file serves write_notification_send (Ombi's mass e-mail).

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

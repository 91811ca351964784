package db

import "time"

// SentEmail is one message the mass-email sender delivered.
type SentEmail struct {
	To      []string
	Bcc     bool
	Subject string
	Body    string
	At      time.Time
}

// NotificationState records delivered mass emails.
type NotificationState struct {
	Sent []SentEmail
}

// newNotificationState starts with nothing sent.
func newNotificationState(_ *seedSet) (NotificationState, error) {
	return NotificationState{}, nil
}

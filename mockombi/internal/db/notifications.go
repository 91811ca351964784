package db

import "time"

// sentEmail is one message the mass-email sender delivered.
type SentEmail struct {
	To      []string
	Bcc     bool
	Subject string
	Body    string
	At      time.Time
}

// notificationState records delivered mass emails.
type notificationState struct {
	Sent []SentEmail
}

// newNotificationState starts with nothing sent.
func newNotificationState(_ *seedSet) (notificationState, error) {
	return notificationState{}, nil
}

package server

import (
	"slices"
	"testing"
)

func TestEnumLabel(t *testing.T) {
	tests := []struct {
		enum, field string
		code        int
		want        string
		ok          bool
	}{
		{enumRequestType, "request_type", 0, "tv", true},
		{enumRequestType, "request_type", 1, "movie", true},
		{enumRequestType, "request_type", 2, "album", true},
		{enumIssueStatus, "status", 3, "closed", true},
		{enumNotificationAgent, "agent", 11, "ntfy", true},
		{enumNotificationType, "notification_type", 16, "issue_deleted", true},
		{enumIssueStatus, "status", 99, "", false},
	}
	for _, tt := range tests {
		c := &call{}
		got, ok := enumLabel(c, tt.enum, tt.field, tt.code)
		if got != tt.want || ok != tt.ok {
			t.Errorf("enumLabel(%s,%d) = %q,%v", tt.enum, tt.code, got, ok)
		}
		wantWarn := []string(nil)
		if !tt.ok {
			wantWarn = []string{"unmapped upstream enum value 99 for status"}
		}
		if !slices.Equal(c.warnings, wantWarn) {
			t.Errorf("warnings = %v, want %v", c.warnings, wantWarn)
		}
	}
}

func TestEnumCode(t *testing.T) {
	if code, err := enumCode(enumRequestType, "/request_type", "tv"); err != nil || code != 0 {
		t.Fatalf("tv = %d, %v", code, err)
	}
	if code, err := enumCode(enumIssueStatus, "/status", "in_progress"); err != nil || code != 1 {
		t.Fatalf("in_progress = %d, %v", code, err)
	}
	if _, err := enumCode(enumIssueStatus, "/status", "bogus"); errorObject(err, false).Field != "/status" {
		t.Fatalf("bogus label: %v", err)
	}
}

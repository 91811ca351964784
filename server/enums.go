package server

import (
	"fmt"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// Enum names of the T1-T4 maps (spec/enums.json).
const (
	enumRequestType       = "request_type"       // T1: tv=0, movie=1, album=2
	enumIssueStatus       = "issue_status"       // T2
	enumNotificationAgent = "notification_agent" // T3
	enumNotificationType  = "notification_type"  // T4
)

// enumLabel translates an upstream int to its published label. An unmapped
// value returns ok=false and records the warning the routing rules give; the
// caller then emits only the *_code twin and omits the label.
func enumLabel(c *call, enum, field string, code int) (string, bool) {
	label, ok := spec.Enums().Label(enum, code)
	if !ok {
		c.warn("unmapped upstream enum value %d for %s", code, field)
	}
	return label, ok
}

// enumCode translates a published label to its upstream int. Labels reach a
// handler only after the strict schema accepted them, so a miss is an
// argument error naming the field.
func enumCode(enum, field, label string) (int, error) {
	code, ok := spec.Enums().Code(enum, label)
	if !ok {
		return 0, &ombi.ArgumentError{Field: field, Message: fmt.Sprintf("unknown %s label %q", enum, label)}
	}
	return code, nil
}

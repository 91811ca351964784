package mockombi

import (
	"strings"
	"time"
)

// containsFold is a case-insensitive substring test.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// ref is a pointer to a copy of v, for a view's nullable member that is
// set.
func ref[T any](v T) *T { return &v }

// dateOnly formats a date as TMDB's "YYYY-MM-DD", or "".
func dateOnly(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.Format("2006-01-02")
}

// airDateDisplay is Ombi's invariant MM/dd/yyyy HH:mm:ss, or "Unknown".
func airDateDisplay(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil || t.IsZero() {
		return "Unknown"
	}
	return t.Format("01/02/2006 15:04:05")
}

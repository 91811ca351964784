package mockombi

import (
	"net/http"
	"testing"
)

// TestAuthHeaders_areCanonical checks the header names authenticate looks
// up directly (without canonicalizing per request) against
// http.CanonicalHeaderKey of Ombi's spelling: a wrong constant would make
// the mock miss the header.
func TestAuthHeaders_areCanonical(t *testing.T) {
	for ombi, constant := range map[string]string{
		"ApiKey": headerAPIKey, "ApiAlias": headerAPIAlias, "UserName": headerUserName, "UserAccessToken": headerUserAccessToken,
	} {
		if want := http.CanonicalHeaderKey(ombi); constant != want {
			t.Errorf("header %s: looked up as %q, want %q", ombi, constant, want)
		}
	}
}

package mockombi

import (
	"strings"
	"testing"
)

func TestRequests_v2ChildShape(t *testing.T) {
	s := newTestServer(t, Options{})
	var p page
	getJSON(t, s, call{method: "GET", path: "/api/v2/Requests/tv/1/0/id/asc", header: apiKey()}, &p)
	child := p.Collection[0]
	parent := child["parentRequest"].(map[string]any)
	siblings := parent["childRequests"].([]any)
	if parent["id"] != float64(1) || parent["externalProviderId"] != float64(1396) || len(siblings) != 1 || siblings[0].(map[string]any)["id"] != float64(2) {
		t.Fatalf("parent = %v", parent)
	}
	ep := child["seasonRequests"].([]any)[0].(map[string]any)["episodes"].([]any)[0].(map[string]any)
	if ep["airDateDisplay"] != "01/20/2008 00:00:00" || ep["requestStatus"] != "Common.Available" || ep["sonarrEpisodeId"] == nil {
		t.Errorf("episode = %v", ep)
	}
	user := child["requestedUser"].(map[string]any)
	if !strings.HasPrefix(user["userAccessToken"].(string), "CANARY-") || user["passwordHash"] != nil {
		t.Errorf("requestedUser = %v", user)
	}
	if _, leaked := user["passwordHash"]; leaked {
		t.Error("passwordHash serialised; it is [JsonIgnore] upstream")
	}
}

package mockombi

import (
	"strings"
	"testing"
)

func TestRequests_optionsSubscribeReprocessRetry(t *testing.T) {
	s := newTestServer(t, Options{})
	p := asPower(t, s)
	u := asUser(t, s)
	tests := []struct {
		name       string
		c          call
		wantStatus int
		want       string
		then       call
		thenWant   string
	}{
		{"movie advanced options replace", call{method: "POST", path: "/api/v2/Requests/movie/advancedoptions", header: p, body: `{"requestId":2,"qualityOverride":7}`}, 200, `"result":true`,
			call{method: "GET", path: "/api/v1/Request/movie/info/2", header: p}, `"qualityOverride":7,`},
		{"movie advanced options missing", call{method: "POST", path: "/api/v2/Requests/movie/advancedoptions", header: p, body: `{"requestId":99}`}, 200, `"errorMessage":"Request does not exist"`, call{}, ""},
		{"tv advanced options", call{method: "POST", path: "/api/v2/Requests/tv/advancedoptions", header: p, body: `{"requestId":2,"rootPathOverride":3,"qualityOverride":4,"languageProfile":0}`}, 200, `"result":true`,
			call{method: "GET", path: "/api/v1/Request/tv/2", header: p}, `"languageProfile":null,"overview"`},
		{"tv advanced options missing", call{method: "POST", path: "/api/v2/Requests/tv/advancedoptions", header: p, body: `{"requestId":99}`}, 200, `"errorCode":"RequestDoesNotExist"`, call{}, ""},
		{"tv root", call{method: "PUT", path: "/api/v1/Request/tv/root/2/9", header: p}, 200, `true`, call{method: "GET", path: "/api/v1/Request/tv/2", header: p}, `"rootFolder":9`},
		{"tv quality", call{method: "PUT", path: "/api/v1/Request/tv/quality/2/8", header: p}, 200, `true`, call{method: "GET", path: "/api/v1/Request/tv/2", header: p}, `"qualityOverride":8`},
		{"tv root missing", call{method: "PUT", path: "/api/v1/Request/tv/root/99/9", header: p}, 500, `"error"`, call{}, ""},
		{"advanced options need power user", call{method: "POST", path: "/api/v2/Requests/movie/advancedoptions", header: u, body: `{"requestId":2}`}, 403, ``, call{}, ""},
		{"subscribe", call{method: "POST", path: "/api/v1/Request/movie/subscribe/3", header: u}, 200, `true`, call{method: "GET", path: "/api/v1/Request/movie/info/3", header: u}, `"subscribed":true`},
		{"unsubscribe", call{method: "POST", path: "/api/v1/Request/movie/unsubscribe/2", header: u}, 200, `true`, call{method: "GET", path: "/api/v1/Request/movie/info/2", header: u}, `"subscribed":false`},
		{"reprocess movie", call{method: "POST", path: "/api/v2/Requests/reprocess/Movie/2/false", header: p}, 200, `"result":true`, call{}, ""},
		{"reprocess by number", call{method: "POST", path: "/api/v2/Requests/reprocess/1/2/true", header: p}, 200, `"result":true`, call{}, ""},
		{"reprocess tv child", call{method: "POST", path: "/api/v2/Requests/reprocess/TvShow/3/false", header: p}, 200, `"result":true`, call{}, ""},
		{"reprocess missing", call{method: "POST", path: "/api/v2/Requests/reprocess/Movie/99/false", header: p}, 200, `"errorMessage":"Request does not exist"`, call{}, ""},
		{"reprocess album is a bad request", call{method: "POST", path: "/api/v2/Requests/reprocess/Album/1/false", header: p}, 400, `"status":400`, call{}, ""},
		{"reprocess bad type", call{method: "POST", path: "/api/v2/Requests/reprocess/Book/1/false", header: p}, 400, `"status":400`, call{}, ""},
		{"retry queue", call{method: "GET", path: "/api/v1/RequestRetry", header: asAdmin(t, s)}, 200, `"failedId":1`, call{}, ""},
		{"retry delete", call{method: "DELETE", path: "/api/v1/RequestRetry/1", header: asAdmin(t, s)}, 200, `true`,
			call{method: "GET", path: "/api/v1/RequestRetry", header: asAdmin(t, s)}, `"failedId":2`},
		{"retry delete missing", call{method: "DELETE", path: "/api/v1/RequestRetry/77", header: asAdmin(t, s)}, 500, `"error"`, call{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, tt.c)
			if res.status != tt.wantStatus || !strings.Contains(string(res.body), tt.want) {
				t.Fatalf("= %d %s", res.status, truncate(string(res.body), 300))
			}
			if tt.then.path == "" {
				return
			}
			res = do(t, s, tt.then)
			if !strings.Contains(string(res.body), tt.thenWant) {
				t.Errorf("%s lacks %s", tt.then.path, tt.thenWant)
			}
		})
	}
	var queue []map[string]any
	getJSON(t, s, call{method: "GET", path: "/api/v1/RequestRetry", header: asAdmin(t, s)}, &queue)
	if len(queue) != 1 {
		t.Errorf("queue = %d rows, want 1 (one deleted, one completed)", len(queue))
	}
}

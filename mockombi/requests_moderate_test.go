package mockombi

import (
	"strings"
	"testing"
)

func TestRequests_moderation(t *testing.T) {
	tests := []struct {
		name     string
		method   string
		path     string
		body     string
		wantOK   bool
		wantMsg  any
		wantCode any
		check    string // GET path whose JSON must contain want
		want     string
	}{
		{"approve movie", "POST", "/api/v1/Request/movie/approve", `{"id":3,"is4K":false}`, true, nil, nil, "/api/v1/Request/movie/info/3", `"approved":true`},
		{"deny movie", "PUT", "/api/v1/Request/movie/deny", `{"id":3,"is4K":false,"reason":"No space"}`, true, "Request successfully deleted", nil, "/api/v1/Request/movie/info/3", `"deniedReason":"No space"`},
		{"available movie", "POST", "/api/v1/Request/movie/available", `{"id":2}`, true, "Request is now available", nil, "/api/v1/Request/movie/info/2", `"requestStatus":"Common.Available"`},
		{"unavailable movie", "POST", "/api/v1/Request/movie/unavailable", `{"id":1}`, true, "Request is now unavailable", nil, "/api/v1/Request/movie/info/1", `"available":false`},
		{"approve 4K", "POST", "/api/v1/Request/movie/approve", `{"id":4,"is4K":true}`, true, nil, nil, "/api/v1/Request/movie/info/4", `"approved4K":true`},
		{"missing movie", "POST", "/api/v1/Request/movie/approve", `{"id":999}`, false, nil, nil, "", ""},
		{"approve tv child", "POST", "/api/v1/Request/tv/approve", `{"id":3}`, true, nil, nil, "/api/v1/Request/tv/2/child", `"approved":true`},
		{"deny tv child", "PUT", "/api/v1/Request/tv/deny", `{"id":5,"reason":"Later"}`, true, nil, nil, "/api/v1/Request/tv/4/child", `"deniedReason":"Later"`},
		{"available tv child", "POST", "/api/v1/Request/tv/available", `{"id":2}`, true, "Request is now available", nil, "/api/v1/Request/tv/1/child", `"requestStatus":"Common.Available"`},
		{"missing tv child", "POST", "/api/v1/Request/tv/approve", `{"id":999}`, false, nil, "ChildRequestDoesNotExist", "", ""},
		{"approve album", "POST", "/api/v1/request/music/approve", `{"id":2}`, true, nil, nil, "/api/v1/request/music/search/random", `"approved":true`},
		{"deny album", "PUT", "/api/v1/request/music/deny", `{"id":2,"reason":"Lossy"}`, true, "Request successfully deleted", nil, "/api/v1/request/music/search/random", `"deniedReason":"Lossy"`},
		{"missing album", "POST", "/api/v1/request/music/available", `{"id":999}`, false, nil, nil, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, Options{})
			h := asPower(t, s)
			er := engine(t, s, call{method: tt.method, path: tt.path, header: h, body: tt.body})
			if er["result"] != tt.wantOK || er["message"] != tt.wantMsg || er["errorCode"] != tt.wantCode {
				t.Fatalf("result = %v", er)
			}
			if !tt.wantOK {
				if !strings.Contains(er["errorMessage"].(string), "does not exist") {
					t.Errorf("errorMessage = %v", er["errorMessage"])
				}
				return
			}
			res := do(t, s, call{method: "GET", path: tt.check, header: h})
			if !strings.Contains(string(res.body), tt.want) {
				t.Errorf("%s lacks %s: %s", tt.check, tt.want, truncate(string(res.body), 400))
			}
		})
	}
}

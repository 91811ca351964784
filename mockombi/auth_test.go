package mockombi

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// decodeJWT splits a token into its header and claims.
func decodeJWT(t *testing.T, tok string) (map[string]any, map[string]any) {
	t.Helper()
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q: want 3 parts", tok)
	}
	var head, claims map[string]any
	for i, v := range []*map[string]any{&head, &claims} {
		b, err := base64.RawURLEncoding.DecodeString(parts[i])
		if err != nil {
			t.Fatalf("decode token part %d: %v", i, err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("decode token part %d: %v", i, err)
		}
	}
	return head, claims
}

func TestToken_login(t *testing.T) {
	tests := []struct {
		name       string
		body       string
		wantStatus int
		wantRole   any
		wantTTL    time.Duration
	}{
		{"admin by name", `{"username":"admin","password":"OmbiAdmin1!","rememberMe":false,"usePlexOAuth":false,"plexTvPin":{"id":0,"code":""}}`, 200, "Admin", 7 * 24 * time.Hour},
		{"name is case-insensitive, rememberMe is a year", `{"username":"ADMIN","password":"OmbiAdmin1!","rememberMe":true}`, 200, "Admin", 365 * 24 * time.Hour},
		{"power user has a role array", `{"username":"power","password":"OmbiPower1!"}`, 200, []any{"PowerUser", "RequestMovie", "RequestTv", "RequestMusic"}, 7 * 24 * time.Hour},
		{"wrong password", `{"username":"admin","password":"nope"}`, 401, nil, 0},
		{"unknown user", `{"username":"ghost","password":"OmbiAdmin1!"}`, 401, nil, 0},
		{"seed user without password", `{"username":"plexfan","password":""}`, 401, nil, 0},
		{"system user cannot log in", `{"username":"Api","password":""}`, 401, nil, 0},
		{"missing body", ``, 400, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, Options{})
			res := do(t, s, call{method: "POST", path: "/api/v1/token/", body: tt.body})
			if res.status != tt.wantStatus {
				t.Fatalf("status = %d, want %d (%s)", res.status, tt.wantStatus, res.body)
			}
			if tt.wantStatus != 200 {
				if ct := res.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
					t.Errorf("content type = %q, want ProblemDetails", ct)
				}
				var pd map[string]any
				res.json(t, &pd)
				if pd["status"] != float64(tt.wantStatus) || pd["title"] == nil || pd["traceId"] == nil {
					t.Errorf("ProblemDetails = %v", pd)
				}
				return
			}
			var tok struct {
				AccessToken string `json:"access_token"`
				Expiration  string `json:"expiration"`
			}
			res.json(t, &tok)
			head, claims := decodeJWT(t, tok.AccessToken)
			if head["alg"] != "HS256" || head["typ"] != "JWT" {
				t.Errorf("header = %v", head)
			}
			exp, err := time.Parse(time.RFC3339, tok.Expiration)
			if err != nil || !exp.Equal(testNow.Add(tt.wantTTL)) {
				t.Errorf("expiration = %q (%v), want %v", tok.Expiration, err, testNow.Add(tt.wantTTL))
			}
			if claims["exp"] != float64(testNow.Add(tt.wantTTL).Unix()) {
				t.Errorf("exp claim = %v", claims["exp"])
			}
			for _, k := range []string{"sub", "nameid", "unique_name", "jti", "Id", "Email"} {
				if s, _ := claims[k].(string); s == "" {
					t.Errorf("claim %s missing: %v", k, claims)
				}
			}
			if claims["iss"] != "Ombi" || claims["aud"] != "Ombi" {
				t.Errorf("iss/aud = %v/%v", claims["iss"], claims["aud"])
			}
			gotRole, _ := json.Marshal(claims["role"])
			wantRole, _ := json.Marshal(tt.wantRole)
			if string(gotRole) != string(wantRole) {
				t.Errorf("role = %s, want %s", gotRole, wantRole)
			}
			if !strings.HasPrefix(claims["Email"].(string), "CANARY-email_") {
				t.Errorf("Email claim = %v, want the planted email", claims["Email"])
			}
		})
	}
}

func TestToken_signatureIsRealHS256(t *testing.T) {
	s := newTestServer(t, Options{})
	tok := strings.TrimPrefix(asAdmin(t, s)["Authorization"], "Bearer ")
	parts := strings.Split(tok, ".")
	m := hmac.New(sha256.New, s.auth.secret)
	m.Write([]byte(parts[0] + "." + parts[1]))
	if got := base64.RawURLEncoding.EncodeToString(m.Sum(nil)); got != parts[2] {
		t.Fatalf("signature %s, want HMAC-SHA256 %s", parts[2], got)
	}
	forged := parts[0] + "." + parts[1] + "." + base64.RawURLEncoding.EncodeToString([]byte("forged"))
	res := do(t, s, call{method: "GET", path: "/api/v1/Request/movie/remaining", header: map[string]string{"Authorization": "Bearer " + forged}})
	if res.status != 401 {
		t.Fatalf("forged token: status %d, want 401", res.status)
	}
}

// fakeClock is a settable clock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func TestAuth_tokenLifecycle(t *testing.T) {
	const protected = "/api/v1/Request/movie/remaining"
	tests := []struct {
		name      string
		change    func(s *Server, c *fakeClock)
		wantAfter int
	}{
		{"still valid", func(*Server, *fakeClock) {}, 200},
		{"expired", func(_ *Server, c *fakeClock) { c.Add(2 * time.Hour) }, 401},
		{"rotated", func(s *Server, _ *fakeClock) { s.RotateAuth() }, 401},
		{"reset rotates", func(s *Server, _ *fakeClock) { s.Reset() }, 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeClock{now: testNow}
			s := mustNew(t, Options{Clock: clock.Now, TokenTTL: time.Hour})
			h := asUser(t, s)
			if res := do(t, s, call{method: "GET", path: protected, header: h}); res.status != 200 {
				t.Fatalf("fresh token: %d", res.status)
			}
			tt.change(s, clock)
			res := do(t, s, call{method: "GET", path: protected, header: h})
			if res.status != tt.wantAfter {
				t.Fatalf("after change: %d, want %d", res.status, tt.wantAfter)
			}
			if tt.wantAfter == 401 {
				if got := res.header.Get("WWW-Authenticate"); got != `Bearer error="invalid_token"` {
					t.Errorf("WWW-Authenticate = %q", got)
				}
				if len(res.body) != 0 {
					t.Errorf("body = %q, want empty", res.body)
				}
			}
		})
	}
}

func TestAuth_apiKeyMiddleware(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		name       string
		method     string
		path       string
		header     map[string]string
		wantStatus int
		wantBody   string
	}{
		{"valid key on admin route", "GET", "/api/v1/RequestRetry", map[string]string{"ApiKey": DefaultAPIKey}, 200, ""},
		{"header name and value ignore case", "GET", "/api/v1/RequestRetry", map[string]string{"apikey": strings.ToUpper(DefaultAPIKey)}, 200, ""},
		{"query key", "GET", "/api/v1/RequestRetry?ApiKey=" + DefaultAPIKey, nil, 200, ""},
		{"invalid key on anonymous route", "GET", "/api/v1/Status", map[string]string{"ApiKey": "wrong"}, 401, "Invalid API Key"},
		{"invalid key on unknown route", "GET", "/api/v1/Nope", map[string]string{"ApiKey": "wrong"}, 401, "Invalid API Key"},
		{"invalid query key", "GET", "/api/v1/Request/count?apikey=wrong", nil, 401, "Invalid API Key"},
		{"invalid key wins over a valid JWT", "GET", "/api/v1/Status", map[string]string{"ApiKey": "wrong", "Authorization": asAdmin(t, s)["Authorization"]}, 401, "Invalid API Key"},
		{"UserName impersonates a plain user: 403 on admin route", "GET", "/api/v1/RequestRetry", map[string]string{"ApiKey": DefaultAPIKey, "UserName": "user"}, 403, ""},
		{"UserName ignores case", "GET", "/api/v1/RequestRetry", map[string]string{"ApiKey": DefaultAPIKey, "UserName": "ADMIN"}, 200, ""},
		{"unknown UserName", "GET", "/api/v1/Request/movie", map[string]string{"ApiKey": DefaultAPIKey, "UserName": "ghost"}, 401, "Invalid User"},
		{"empty UserName", "GET", "/api/v1/Request/movie", map[string]string{"ApiKey": DefaultAPIKey, "UserName": ""}, 401, "Invalid User"},
		{"no credentials, anonymous route", "GET", "/api/v1/Request/count", nil, 200, ""},
		{"no credentials, protected route", "GET", "/api/v1/Request/movie", nil, 401, ""},
		{"plain user on power-user route", "POST", "/api/v1/Request/movie/approve", asUser(t, s), 403, ""},
		{"plain user on manage-own route", "DELETE", "/api/v1/Request/movie/1", asUser(t, s), 403, ""},
		{"power user on admin route", "GET", "/api/v1/RequestRetry", asPower(t, s), 403, ""},
		{"unknown user access token", "GET", "/api/v1/Request/movie", map[string]string{"UserAccessToken": "nope"}, 401, "Invalid User Access Token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, call{method: tt.method, path: tt.path, header: tt.header, body: "{}"})
			if res.status != tt.wantStatus {
				t.Fatalf("status = %d, want %d (%s)", res.status, tt.wantStatus, res.body)
			}
			if tt.wantBody != "" && string(res.body) != tt.wantBody {
				t.Errorf("body = %q, want %q", res.body, tt.wantBody)
			}
			if (tt.wantStatus == 403 || tt.wantStatus == 401 && tt.wantBody == "") && len(res.body) != 0 {
				t.Errorf("body = %q, want empty", res.body)
			}
			if tt.wantStatus == 401 && tt.wantBody == "" && res.header.Get("WWW-Authenticate") != "Bearer" {
				t.Errorf("WWW-Authenticate = %q, want Bearer", res.header.Get("WWW-Authenticate"))
			}
		})
	}
}

func TestAuth_userAccessToken(t *testing.T) {
	s := newTestServer(t, Options{})
	var tok string
	for _, c := range s.Canaries() {
		if c.Name == "user_access_token_power" {
			tok = c.Value
		}
	}
	if tok == "" {
		t.Fatal("no planted access token for power")
	}
	res := do(t, s, call{method: "GET", path: "/api/v1/Request/movie/remaining", header: map[string]string{"UserAccessToken": tok}})
	if res.status != 200 {
		t.Fatalf("status = %d (%s)", res.status, res.body)
	}
}

func TestAuth_customUsersAndKey(t *testing.T) {
	s := newTestServer(t, Options{APIKey: "custom", Users: []User{{Username: "alice", Password: "pw", Role: RolePowerUser}}})
	if res := do(t, s, call{method: "GET", path: "/api/v1/Status", header: map[string]string{"ApiKey": DefaultAPIKey}}); res.status != 401 {
		t.Errorf("default key accepted: %d", res.status)
	}
	if res := do(t, s, call{method: "GET", path: "/api/v1/RequestRetry", header: map[string]string{"ApiKey": "custom"}}); res.status != 200 {
		t.Errorf("custom key: %d", res.status)
	}
	h := login(t, s, "alice", "pw")
	if res := do(t, s, call{method: "POST", path: "/api/v1/Request/movie/approve", header: h, body: `{"id":1}`}); res.status != 200 {
		t.Errorf("power user approve: %d", res.status)
	}
	if res := do(t, s, call{method: "POST", path: "/api/v1/Token", body: `{"username":"admin","password":"OmbiAdmin1!"}`}); res.status != 401 {
		t.Errorf("default admin still logs in: %d", res.status)
	}
	c := s.Credentials()
	if c.APIKey != "custom" || len(c.Users) != 1 || c.Users[0] != (CredentialUser{Username: "alice", Password: "pw", Role: RolePowerUser}) {
		t.Errorf("credentials = %+v", c)
	}
}

func TestToken_otherRoutes(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		name       string
		method     string
		path       string
		body       string
		wantStatus int
		wantBody   string
	}{
		{"requirePassword", "POST", "/api/v1/token/requirePassword", `{"username":"admin"}`, 200, "true"},
		{"refresh not implemented", "POST", "/api/v1/Token/refresh", `{"token":"x","userename":"admin"}`, 500, `{"error":"The method or operation is not implemented."}`},
		{"plex token missing", "POST", "/api/v1/Token/plextoken", `{"plexToken":""}`, 400, `"Token was not provided"`},
		{"plex pin", "GET", "/api/v1/Token/12", "", 200, `{"errorMessage":"Could not authenticate with Plex"}`},
		{"plex oauth without app url", "POST", "/api/v1/Token", `{"usePlexOAuth":true}`, 200, `{"error":"Application URL has not been set"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, call{method: tt.method, path: tt.path, body: tt.body})
			if res.status != tt.wantStatus || string(res.body) != tt.wantBody {
				t.Fatalf("= %d %s, want %d %s", res.status, res.body, tt.wantStatus, tt.wantBody)
			}
		})
	}
}

func TestAuth_principalOfAPIKeyIsSystemUser(t *testing.T) {
	s := newTestServer(t, Options{})
	res := do(t, s, call{method: "POST", path: "/api/v1/Request/movie", header: map[string]string{"ApiKey": DefaultAPIKey, "ApiAlias": "Home Assistant"}, body: `{"theMovieDbId":105}`})
	var er map[string]any
	res.json(t, &er)
	if er["result"] != true {
		t.Fatalf("create = %s", res.body)
	}
	id := int(er["requestId"].(float64))
	var got map[string]any
	do(t, s, call{method: "GET", path: "/api/v1/Request/movie/info/" + itoa(id), header: apiKey()}).json(t, &got)
	user, _ := got["requestedUser"].(map[string]any)
	if user["userName"] != "Api" || got["requestedByAlias"] != "Home Assistant" || got["approved"] != true {
		t.Fatalf("request = user %v alias %v approved %v", user["userName"], got["requestedByAlias"], got["approved"])
	}
	if res := do(t, s, call{method: "GET", path: "/api/v1/Status"}); res.status != http.StatusOK {
		t.Fatalf("status route: %d", res.status)
	}
}

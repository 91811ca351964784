package server

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// tvdbDeps builds handler dependencies around a gock-intercepted client
// with the given options (newTestClient fails the test on any upstream
// call that was not declared).
func tvdbDeps(t *testing.T, o Options) *deps {
	t.Helper()
	v, err := spec.NewValidator()
	if err != nil {
		t.Fatalf("NewValidator: %v", err)
	}
	return &deps{client: newTestClient(t, o), validator: v, log: slog.New(slog.DiscardHandler)}
}

var (
	tvdbAPIKey   = Options{AuthMode: AuthAPIKey, APIKey: "test-api-key"}
	tvdbJWT      = Options{} // newTestClient logs in as alice
	tvdbUserName = Options{AuthMode: AuthAPIKey, APIKey: "test-api-key", UserName: "power"}
)

// Ombi's v1 TV route (the only TVDB create route) loses or misapplies the
// overrides and refuses on-behalf for the API key's user: every such call
// is UNSUPPORTED_CAPABILITY naming the field, with nothing sent, not even
// the season expansion's private details read or a login.
func TestCreateTV_tvdbRefusedBeforeSending(t *testing.T) {
	tests := []struct {
		name      string
		opts      Options
		args      string
		wantField string
		wantMsg   []string
	}{
		{"root folder in api_key mode", tvdbAPIKey,
			`{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"all"},"root_folder_id":2}`,
			"/root_folder_id", []string{"root_folder_id", "drops it for a show with no request yet", "overwrites the whole show's root folder", "provider tmdb"}},
		{"quality profile in api_key mode", tvdbAPIKey,
			`{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"first_season"},"quality_profile_id":4}`,
			"/quality_profile_id", []string{"quality_profile_id", "drops it for a show with no request yet", "overwrites the whole show's quality profile", "provider tmdb"}},
		{"language profile in api_key mode", tvdbAPIKey,
			`{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"latest_season"},"language_profile_id":1}`,
			"/language_profile_id", []string{"language_profile_id", "drops it for a show with no request yet", "already requested too", "provider tmdb"}},
		{"root folder with a login", tvdbJWT,
			`{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"all"},"root_folder_id":2}`,
			"/root_folder_id", []string{"provider tmdb"}},
		{"language profile with a login", tvdbJWT,
			`{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"all"},"language_profile_id":3}`,
			"/language_profile_id", []string{"provider tmdb"}},
		{"quality profile with a UserName header", tvdbUserName,
			`{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"all"},"quality_profile_id":4}`,
			"/quality_profile_id", []string{"provider tmdb"}},
		{"override refused before the season expansion read", tvdbAPIKey,
			`{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"season","season_numbers":[1]},"root_folder_id":2}`,
			"/root_folder_id", []string{"provider tmdb"}},
		{"every override and on-behalf: the first field in pointer order", tvdbAPIKey,
			`{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"all"},"root_folder_id":2,"quality_profile_id":4,"language_profile_id":1,"on_behalf_user_id":"u-1"}`,
			"/language_profile_id", []string{"language_profile_id"}},
		{"on-behalf in api_key mode", tvdbAPIKey,
			`{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"all"},"on_behalf_user_id":"u-1"}`,
			"/on_behalf_user_id", []string{"on_behalf_user_id", "api_key mode", "PowerUser or Admin", "holds no role", "provider tmdb"}},
		{"on-behalf in api_key mode refused before the season expansion read", tvdbAPIKey,
			`{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"season","season_numbers":[1,2]},"on_behalf_user_id":"u-1"}`,
			"/on_behalf_user_id", []string{"provider tmdb"}},
		{"on-behalf in api_key mode with explicit episodes", tvdbAPIKey,
			`{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"episodes","seasons":[{"season_number":1,"episodes":[1]}]},"on_behalf_user_id":"u-1"}`,
			"/on_behalf_user_id", []string{"provider tmdb"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tvdbDeps(t, tt.opts) // no upstream call declared: any call fails the test
			r := reqDirect(t, d, "write_request_create", tt.args)
			if r.OK || r.Error.Code != codeUnsupportedCapability || r.Error.Field != tt.wantField || r.Error.Retryable {
				t.Fatalf("envelope = %s, want a final %s at %s", r.raw, codeUnsupportedCapability, tt.wantField)
			}
			for _, w := range tt.wantMsg {
				if !strings.Contains(r.Error.Message, w) {
					t.Errorf("message %q does not say %q", r.Error.Message, w)
				}
			}
		})
	}
}

// What the v1 route can honour is still sent: on-behalf with a login or a
// UserName header (the account's own roles decide upstream), and an
// upstream refusal stays an error; the TMDB route keeps every override and
// on-behalf in api_key mode.
func TestCreateTV_tvdbOnBehalfSentWhenTheAccountDecides(t *testing.T) {
	refusal := map[string]any{"result": false, "isError": true, "errorCode": nil, "requestId": 0,
		"message":      "You do not have the correct permissions to request on behalf of users!",
		"errorMessage": "You do not have the correct permissions to request on behalf of users!"}
	tests := []struct {
		name     string
		opts     Options
		args     string
		declare  func()
		wantCode string // "" = a completed mutation
	}{
		{"login: sent, upstream refusal is an error", tvdbJWT,
			`{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"all"},"on_behalf_user_id":"u-1"}`,
			func() {
				expectLogin("tok")
				reqJSONBody(expect("POST", "/api/v1/Request/tv"),
					`{"tvDbId":77,"requestAll":true,"firstSeason":false,"latestSeason":false,"seasons":[],"requestOnBehalf":"u-1"}`).
					MatchHeader("Authorization", "^Bearer tok$").Reply(200).JSON(refusal)
			}, codeUpstreamRejected},
		{"login: sent, upstream success is completed", tvdbJWT,
			`{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"first_season"},"on_behalf_user_id":"u-1"}`,
			func() {
				expectLogin("tok")
				reqJSONBody(expect("POST", "/api/v1/Request/tv"),
					`{"tvDbId":77,"requestAll":false,"firstSeason":true,"latestSeason":false,"seasons":[],"requestOnBehalf":"u-1"}`).Reply(200).JSON(reqEngineOK(50))
			}, ""},
		{"UserName header: sent, upstream refusal is an error", tvdbUserName,
			`{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"all"},"on_behalf_user_id":"u-1"}`,
			func() {
				reqJSONBody(expect("POST", "/api/v1/Request/tv"),
					`{"tvDbId":77,"requestAll":true,"firstSeason":false,"latestSeason":false,"seasons":[],"requestOnBehalf":"u-1"}`).
					MatchHeader("UserName", "^power$").Reply(200).JSON(refusal)
			}, codeUpstreamRejected},
		{"tmdb in api_key mode keeps overrides and on-behalf", tvdbAPIKey,
			`{"action":"tv","provider":"tmdb","id":1396,"selection":{"mode":"all"},"root_folder_id":2,"quality_profile_id":4,"language_profile_id":1,"on_behalf_user_id":"u-1"}`,
			func() {
				reqJSONBody(expect("POST", "/api/v2/Requests/tv"),
					`{"theMovieDbId":1396,"requestAll":true,"firstSeason":false,"latestSeason":false,"seasons":[],"languageProfile":1,"rootFolderOverride":2,"qualityPathOverride":4,"requestOnBehalf":"u-1"}`).Reply(200).JSON(reqEngineOK(51))
			}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tvdbDeps(t, tt.opts)
			tt.declare()
			r := reqDirect(t, d, "write_request_create", tt.args)
			if tt.wantCode == "" {
				if m := reqMutation(t, r); m.Outcome != mutationCompleted || m.Target == nil || m.Target.Kind != kindTVChild {
					t.Fatalf("mutation = %+v, want a completed tv_child", m)
				}
				return
			}
			if r.OK || r.Error.Code != tt.wantCode || !strings.Contains(r.Error.Message, "request on behalf of users") {
				t.Fatalf("envelope = %s, want %s with upstream's reason", r.raw, tt.wantCode)
			}
		})
	}
}

// Against the mock: the plain user's on-behalf TVDB request reaches the v1
// route once and its refusal comes back as UPSTREAM_REJECTED, with no
// request created.
func TestCreateTV_tvdbOnBehalfRefusalFromTheMock(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	h := newHarness(t, m, reqUserOptions(t, m))
	r := h.call(t, "write_request_create", map[string]any{"action": "tv", "provider": "tvdb", "id": 81189,
		"selection": map[string]any{"mode": "all"}, "on_behalf_user_id": "someone-else"})
	if r.OK || r.Error.Code != codeUpstreamRejected || !strings.Contains(r.Error.Message, "request on behalf of users") {
		t.Fatalf("envelope = %s, want UPSTREAM_REJECTED with upstream's reason", r.raw)
	}
	calls := h.upstreamCalls()
	if len(calls) != 1 || calls[0].Method != "POST" || calls[0].Path != "/api/v1/Request/tv" {
		t.Fatalf("upstream calls = %+v, want the one v1 POST", calls)
	}
}

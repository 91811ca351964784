package checks

import (
	"encoding/json"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file holds wire checks a data case of testdata/wire-exact.json
// cannot express: what an error message may quote of an upstream refusal,
// and writes judged under a second login (the mock's power user).

// wireGaps declares those checks.
func (s *Suite) wireGaps() {
	ginkgo.Describe("wire refusals", ginkgo.Label("wire"), func() {
		ginkgo.BeforeEach(s.clean)

		ginkgo.Context("an upstream refusal carrying markup, a URL and the configured key", func() {
			// a RequestEngineResult refusal of one write, by the route it fails
			for _, tc := range []struct {
				qualifier, path, tool string
				args                  map[string]any
			}{
				{"write_request_moderate.engine-failure-unquoted", "/api/v1/Request/movie/approve", "write_request_moderate",
					map[string]any{"action": "approve", "media": "movie", "request_id": 987654}},
				{"write_vote.refusal-unquoted", "/api/v1/Vote/up/movie/987654", "write_vote",
					map[string]any{"action": "up", "media": "movie", "request_id": 987654}},
			} {
				s.ClauseItFor("RESULTS-ERRORS-SANITIZE-001", tc.qualifier, func(ctx ginkgo.SpecContext) {
					srv := s.shared(ctx, apiKeyConfig())
					text := s.hostileRefusal()
					s.injectFault(mockombi.Fault{Method: "POST", Path: tc.path, Status: 200, Headers: jsonHeaders, Body: engineFailure(text)})
					o := s.call(ctx, srv, tc.tool, tc.args)
					s.wantCode(o, "UPSTREAM_REJECTED")
					s.expectUnquoted(o, text)
				})
			}

			s.ClauseItFor("RESULTS-ERRORS-SANITIZE-001", "write_settings_patch.refusal-unquoted", func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, apiKeyConfig())
				var saved map[string]any
				s.expect(s.mockRaw("GET", "/api/v1/Settings/vote", &saved) == 200, nil, "the mock must answer GET /api/v1/Settings/vote")
				enabled, ok := saved["enabled"].(bool)
				s.expect(ok, nil, "the mock's vote settings carry no enabled flag: %v", saved)
				read := s.call(ctx, srv, "read_settings", map[string]any{"section": "vote"})
				var view settingsView
				s.okData(read, &view)
				s.expect(view.Revision != "", read, "read_settings vote must carry a revision")
				text := s.hostileRefusal()
				b, _ := json.Marshal(map[string]any{"result": false, "message": text})
				s.injectFault(mockombi.Fault{Method: "POST", Path: "/api/v1/Settings/vote", Status: 200, Headers: jsonHeaders, Body: string(b)})
				o := s.call(ctx, srv, "write_settings_patch", map[string]any{"action": "patch", "section": "vote",
					"revision": view.Revision, "changes": map[string]any{"enabled": !enabled}})
				s.wantCode(o, "UPSTREAM_REJECTED")
				s.expectUnquoted(o, text)
			})
		})

		ginkgo.Context("as the mock's power user", func() {
			s.ClauseItFor("ROUTING-RULE9-PERMISSIONS-001", "write_user_preferences.newsletter_opt_out.power-user-refused", func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, s.powerUserConfig())
				plainName := s.mockUser(mockombi.RoleUser).Username
				var users []map[string]any
				s.mockRaw("GET", "/api/v1/Identity/Users", &users)
				plainID := ""
				for _, u := range users {
					if u["userName"] == plainName {
						plainID, _ = u["id"].(string)
					}
				}
				s.expect(plainID != "", nil, "the mock lists no user %q", plainName)
				o := s.call(ctx, srv, "write_user_preferences", map[string]any{"action": "newsletter_opt_out", "user_id": plainID})
				s.wantCode(o, "FORBIDDEN")
				calls := upstreamCalls(o)
				s.expect(len(calls) == 1 && calls[0].Method == "GET" && calls[0].Path == "/api/v1/Identity", o,
					"opting another user out needs the Admin role (PowerUser is not enough): the caller is read, nothing else is sent; got %d calls", len(calls))
			})
		})
	})
}

// jsonHeaders mark a fault body as JSON.
var jsonHeaders = map[string]string{"Content-Type": "application/json"}

// hostileRefusal is upstream failure text that must never be quoted: an
// HTML fragment, a URL and the configured API key.
func (s *Suite) hostileRefusal() string {
	return "<b>Refused</b> by https://ombi.invalid/hook?apikey=" + s.h.Upstream.Credentials().APIKey
}

// engineFailure is a RequestEngineResult / VoteEngineResult failure body.
func engineFailure(text string) string {
	b, _ := json.Marshal(map[string]any{"result": false, "isError": true, "errorMessage": text, "message": text})
	return string(b)
}

// expectUnquoted fails when the result quotes any part of the hostile
// refusal text: the markup, the URL or the key.
func (s *Suite) expectUnquoted(o *harness.Outcome, text string) {
	ginkgo.GinkgoHelper()
	all := string(o.Structured) + "\n" + o.Text
	for _, part := range []string{"<b>", "Refused</b>", "ombi.invalid", s.h.Upstream.Credentials().APIKey} {
		if part != "" {
			s.expect(!strings.Contains(all, part), o, "upstream's refusal text %q must not be quoted unsanitised: the result carries %q", text, part)
		}
	}
}

// mockUser returns the embedded mock's first login of a role.
func (s *Suite) mockUser(role string) mockombi.CredentialUser {
	ginkgo.GinkgoHelper()
	m := s.h.Upstream.Mock()
	if m == nil {
		s.fail(nil, "the mock's logins exist only in the embedded mock")
	}
	for _, u := range m.Credentials().Users {
		if u.Role == role {
			return u
		}
	}
	s.fail(nil, "the mock has no %s login", role)
	return mockombi.CredentialUser{}
}

// powerUserConfig starts a server logged in as the mock's power user.
func (s *Suite) powerUserConfig() harness.Config {
	ginkgo.GinkgoHelper()
	u := s.mockUser(mockombi.RolePowerUser)
	return harness.Config{Bundles: harness.AllBundles, AuthMode: "jwt",
		Env: []string{"OMBI_USERNAME=" + u.Username, "OMBI_PASSWORD=" + u.Password}}
}

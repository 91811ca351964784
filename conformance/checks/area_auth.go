package checks

import (
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file declares the auth area: the login and API-key contract, the
// auth modes the server starts in, and authorization by domain.

func (s *Suite) authArea() {
	ginkgo.Describe("auth", ginkgo.Label("auth", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		read := map[string]any{"action": "text", "media": "movie", "query": "Alien"}
		s.modeChecks()
		ginkgo.Context("in jwt mode", func() {
			s.ClauseItFor("VERIFY-AUTH-STARTUP-001", "jwt.login-once", func(ctx ginkgo.SpecContext) {
				start := len(s.h.Upstream.Journal())
				srv := s.fresh(ctx, harness.Config{Bundles: "core", AuthMode: "jwt"})
				o1 := s.call(ctx, srv, "read_search", read)
				o2 := s.call(ctx, srv, "read_search", read)
				all := s.h.Upstream.Journal()[start:]
				logins := len(all) - len(withoutLogin(all))
				s.expect(o1.ErrorCode() != "AUTHENTICATION_FAILED" && o2.ErrorCode() != "AUTHENTICATION_FAILED", o2, "the configured user must be accepted")
				s.expect(logins == 1, o2, "want exactly one POST %s for two reads (token cached and reused), got %d", tokenPath, logins)
				for _, c := range withoutLogin(append(o1.Journal, o2.Journal...)) {
					s.expect(strings.HasPrefix(c.Header.Get("Authorization"), "Bearer "), o2, "%s %s was sent without the bearer token", c.Method, c.Path)
				}
			})
		})
		ginkgo.Context("in api_key mode", func() {
			s.ClauseItFor("VERIFY-AUTH-STARTUP-001", "api_key.no-token", func(ctx ginkgo.SpecContext) {
				start := len(s.h.Upstream.Journal())
				srv := s.fresh(ctx, harness.Config{Bundles: "core", AuthMode: "api_key"})
				o := s.call(ctx, srv, "read_search", read)
				s.expect(o.ErrorCode() != "AUTHENTICATION_FAILED", o, "the configured API key must be accepted")
				s.expect(len(o.Journal) > 0, o, "the read must reach upstream")
				all := s.h.Upstream.Journal()[start:]
				for _, c := range all {
					s.expect(!isLogin(c), o, "api_key mode must never call %s", tokenPath)
					s.expect(c.Header.Get("Authorization") == "", o, "api_key mode must never send Authorization (%s %s did)", c.Method, c.Path)
					s.expect(c.Header.Get("ApiKey") == s.h.Upstream.Credentials().APIKey, o, "%s %s did not carry the configured ApiKey", c.Method, c.Path)
					s.expect(c.Header.Get("UserName") == s.h.Upstream.Credentials().UserName, o, "UserName must be sent only when configured, as configured (%s %s sent %q)", c.Method, c.Path, c.Header.Get("UserName"))
				}
			})
		})
	})
}

func (s *Suite) mediaAuth() {
	ginkgo.Describe("auth media", ginkgo.Label("auth", "media"), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("VERIFY-AUTH-STARTUP-001", "jwt.relogin-after-rotate", func(ctx ginkgo.SpecContext) {
			s.requireMode("jwt")
			s.requireTool("read_reference")
			// A private mock: rotating the shared one would invalidate the
			// tokens of every shared server and disturb other checks.
			up, err := harness.StartMock(mockombi.Options{})
			if err != nil {
				s.fail(nil, "start a private mock: %v", err)
			}
			defer up.Close()
			h := *s.h
			h.Upstream = up
			srv, err := h.Start(ctx, harness.Config{Bundles: "core", AuthMode: "jwt"})
			if err != nil {
				s.fail(nil, "start the server against the private mock: %v", err)
			}
			defer srv.Close()
			read := map[string]any{"action": "genres", "media": "movie"}
			o := s.call(ctx, srv, "read_reference", read)
			s.expect(o.OK(), o, "the first read must succeed")
			if err := up.RotateAuth(); err != nil {
				s.fail(o, "rotate the mock's tokens: %v", err)
			}
			start := len(up.Journal())
			o = s.call(ctx, srv, "read_reference", read)
			all := up.Journal()[start:]
			logins, reads := 0, 0
			for _, c := range all {
				switch {
				case isLogin(c):
					logins++
				case c.Path == "/api/v2/Search/Genres/movie":
					reads++
				}
			}
			s.expect(o.OK(), o, "after a token rotation the read must succeed after one re-login")
			s.expect(logins == 1, o, "want exactly one POST %s after the rotation, got %d", tokenPath, logins)
			s.expect(reads == 2, o, "want the rejected read and exactly one retry, got %d reads", reads)
		}, ginkgo.Label(LabelReadOnly))

		s.ClauseItFor("VERIFY-AUTH-STARTUP-001", "api_key.media-tools", func(ctx ginkgo.SpecContext) {
			start := len(s.h.Upstream.Journal())
			srv := s.fresh(ctx, harness.Config{Bundles: "core", AuthMode: "api_key"})
			var o *harness.Outcome
			for _, tc := range []struct {
				tool string
				args map[string]any
			}{
				{"read_search", map[string]any{"action": "multi", "query": "Matrix", "include": []string{"movies"}}},
				{"read_discover", map[string]any{"action": "similar", "tmdb_id": 603}},
				{"read_media", mdDetails("tv", "tvdb", 81189)},
				{"read_reference", map[string]any{"action": "languages"}},
			} {
				o = s.call(ctx, srv, tc.tool, tc.args)
				s.expect(o.OK(), o, "the read must succeed with the configured API key")
			}
			all := s.h.Upstream.Journal()[start:]
			s.expect(len(all) >= 4, o, "every read must reach upstream")
			for _, c := range all {
				s.expect(!isLogin(c), o, "api_key mode must never call %s", tokenPath)
				s.expect(c.Header.Get("Authorization") == "", o, "api_key mode must never send Authorization (%s %s did)", c.Method, c.Path)
			}
		}, ginkgo.Label(LabelReadOnly))

		s.ClauseItFor("VERIFY-AUTHZ-NO-REPLAY-001", "write_request_create.401-once", func(ctx ginkgo.SpecContext) {
			srv := s.fresh(ctx, harness.Config{Bundles: "core", AuthMode: "jwt"})
			s.injectFault(mockombi.Fault{Method: "POST", Path: "/api/v1/Request/movie", Status: 401, Body: "Unauthorized", Times: 1})
			start := len(s.h.Upstream.Journal())
			o := s.call(ctx, srv, "write_request_create", map[string]any{"action": "movie", "tmdb_id": 603})
			s.expect(o.Envelope != nil && !o.Envelope.OK, o, "a write rejected with 401 is not a success")
			rqSettle(ctx, 500*time.Millisecond) // a duplicate sent behind the answer lands meanwhile
			posts := 0
			for _, c := range s.h.Upstream.Journal()[start:] {
				if c.Method == "POST" && c.Path == "/api/v1/Request/movie" {
					posts++
				}
			}
			s.expect(posts == 1, o, "a write is sent upstream exactly once, never replayed; got %d POST /api/v1/Request/movie", posts)
		})
	})
}

// modeChecks declare one check per auth mode the run tries: the server
// must start in it.
func (s *Suite) modeChecks() {
	for _, mode := range s.opts.Modes() {
		s.ClauseItFor("VERIFY-AUTH-STARTUP-001", "mode."+mode, func(ctx ginkgo.SpecContext) {
			if refused, _ := s.Refusal(mode); refused != "" {
				s.fail(nil, "the server did not start in auth mode %s (OMBI_AUTH_MODE=%s with its credentials), which the run judges (--auth-modes, default jwt,api_key: declare only the modes the server supports):\n%s",
					mode, mode, refused)
			}
		})
	}
}

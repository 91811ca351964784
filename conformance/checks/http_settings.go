package checks

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
)

// This file judges the Streamable HTTP endpoint's own settings in profile
// design, whose server reads them from the environment (docs/server.md):
//
//   - MCP-HTTP-ORIGIN-001 with OMBI_MCP_ALLOWED_ORIGINS set: the origins
//     listed are the valid ones besides loopback, so a listed origin is
//     served and any other is still refused with 403 (a list must never
//     open the endpoint to every origin);
//   - MCP-HTTP-AUTH-001 with the token in a file (OMBI_MCP_TOKEN_FILE, a
//     mounted secret): the file's token, without the line end around it,
//     is the one the endpoint requires;
//   - MCP-HTTP-AUTH-001 with a token that is no bearer token at all
//     (shorter than 16 characters, or with a blank in it): a server with
//     that broken environment refuses to start, exits with a message on
//     stderr naming the setting, and never echoes the token.

// listedOrigin is the browser origin the origins check lists.
const listedOrigin = "https://app.example"

// weakTokens are OMBI_MCP_TOKEN values the server must refuse to start
// with.
var weakTokens = []struct{ name, token string }{
	{"a short token", "short-tok3n"},
	{"a token with a blank", "0123456789 abcdef0123456789"},
}

func (s *Suite) httpSettingChecks() {
	ginkgo.Describe("transport settings", ginkgo.Label("protocol", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("MCP-HTTP-ORIGIN-001", "allowed-origins-listed", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_search") // the design's OMBI_MCP_ALLOWED_ORIGINS (docs/server.md)
			cfg := s.allConfig()
			cfg.Env = append(cfg.Env, "OMBI_MCP_ALLOWED_ORIGINS="+listedOrigin)
			srv := s.httpServer(ctx, cfg)
			var e errs
			if code, body := s.post(ctx, srv.Endpoint(), map[string]string{"Origin": listedOrigin}, initializeFrame); code != http.StatusOK {
				e.addf("Origin: %s, listed in OMBI_MCP_ALLOWED_ORIGINS: HTTP %d (want 200): %s", listedOrigin, code, ClipString(body, 200))
			}
			for _, origin := range []string{"null", "http://attacker.example", "https://app.example.attacker.example", "http://app.example"} {
				if code, body := s.post(ctx, srv.Endpoint(), map[string]string{"Origin": origin}, initializeFrame); code != http.StatusForbidden {
					e.addf("Origin: %s, not listed: HTTP %d (want 403): %s", origin, code, ClipString(body, 200))
				}
			}
			s.expectNone(e, "with OMBI_MCP_ALLOWED_ORIGINS="+listedOrigin+" that origin is served and every other one is still refused with 403")
		}, ginkgo.Label(LabelNeedsMock))

		s.ClauseItFor("MCP-HTTP-AUTH-001", "token-file", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_search") // the design's OMBI_MCP_TOKEN_FILE (docs/server.md)
			token := randomToken()
			file := filepath.Join(ginkgo.GinkgoT().TempDir(), "mcp-token")
			if err := os.WriteFile(file, []byte(token+"\n"), 0o600); err != nil {
				s.fail(nil, "write the token file: %v", err)
			}
			cfg := s.allConfig()
			cfg.Env = append(cfg.Env, "OMBI_MCP_TOKEN_FILE="+file)
			cfg.Token = token
			srv := s.httpServer(ctx, cfg)
			var e errs
			if code, body := s.post(ctx, srv.Endpoint(), nil, initializeFrame); code != http.StatusUnauthorized {
				e.addf("no Authorization: HTTP %d (want 401): %s", code, ClipString(body, 200))
			}
			if code, body := s.post(ctx, srv.Endpoint(), map[string]string{"Authorization": "Bearer " + token}, initializeFrame); code != http.StatusOK {
				e.addf("the file's token: HTTP %d (want 200): %s", code, ClipString(body, 200))
			}
			s.expectNone(e, "with OMBI_MCP_TOKEN_FILE naming a file that holds the token, only that token opens the MCP endpoint")
		}, ginkgo.Label(LabelNeedsMock))

		s.ClauseItFor("MCP-HTTP-AUTH-001", "weak-token-refused", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_search") // the design's OMBI_MCP_TOKEN (docs/server.md)
			if !s.h.Target.IsHTTP() {
				skipAs(framework.StateNotApplicable, "a rule of Streamable HTTP; the server is judged on stdio (--transport http judges it)")
			}
			if s.h.Target.URL != "" {
				ginkgo.Skip("needs a fresh server process; --url judges one running server, which cannot be restarted")
			}
			var e errs
			for _, w := range weakTokens {
				cfg := s.allConfig()
				cfg.Env = append(cfg.Env, "OMBI_MCP_TOKEN="+w.token)
				cfg.Token = w.token
				stderr, started := s.refusedStart(ctx, cfg)
				switch {
				case started:
					e.addf("%s (%d characters): the server started and serves with it", w.name, len(w.token))
				case !strings.Contains(stderr, "OMBI_MCP_TOKEN"):
					e.addf("%s: the server did not start, but its stderr does not name OMBI_MCP_TOKEN: %s", w.name, ClipString(stderr, 300))
				case strings.Contains(stderr, w.token):
					e.addf("%s: the server's stderr echoes the token: %s", w.name, ClipString(stderr, 300))
				}
			}
			s.expectNone(e, "a server whose OMBI_MCP_TOKEN is no bearer token (under 16 characters, or with a blank) refuses to start, naming the variable and never the token")
		}, ginkgo.Label(LabelNeedsMock))
	})
}

// refusedStart starts a server with cfg, which must refuse to start: it
// returns what the server wrote on stderr, or started true (the server
// is then stopped).
func (s *Suite) refusedStart(ctx context.Context, cfg harness.Config) (stderr string, started bool) {
	ginkgo.GinkgoHelper()
	srv, err := s.h.Start(ctx, cfg)
	if err == nil {
		srv.Close()
		return "", true
	}
	var he *harness.HarnessError
	if errors.As(err, &he) {
		return he.Stderr, false
	}
	return err.Error(), false
}

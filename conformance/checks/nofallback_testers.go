package checks

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file judges a tester whose saved settings lack the part it tests
// (VERIFY-AUTHZ-NO-FALLBACK-001; 02-tool-mapping: "The server selects the
// exact tester body type, resolves credentials internally"): Ombi keeps
// an unconfigured Radarr 4K instance or WhatsApp sender as null in the
// combined settings model, and a test of that part has no body to send.
// The call is refused with nothing posted, never a tester call whose body
// is null.

// unsavedParts are tester profiles whose saved part is null: the settings
// section read, the member set to null, and the tester route that must
// not be called.
var unsavedParts = []struct {
	service, profile, settings, member, tester string
}{
	{"radarr", "4k", "/api/v1/Settings/radarr", "radarr4K", "/api/v1/Tester/radarr"},
	{"whatsapp", "default", "/api/v1/Settings/notifications/twilio", "whatsAppSettings", "/api/v1/Tester/whatsapp"},
}

func (s *Suite) unsavedTesterPartChecks() {
	ginkgo.Describe("wire testers without a saved part", ginkgo.Label("wire"), func() {
		ginkgo.BeforeEach(s.clean)
		s.ClauseItFor("VERIFY-AUTHZ-NO-FALLBACK-001", "write_integration_test.unsaved-part-not-posted", func(ctx ginkgo.SpecContext) {
			s.requireTool("write_integration_test")
			cfg := apiKeyConfig()
			var profiles []string
			for _, p := range unsavedParts {
				profiles = append(profiles, p.service+":"+p.profile)
			}
			cfg.Env = append(cfg.Env, "OMBI_PROFILES="+strings.Join(profiles, ","))
			srv := s.shared(ctx, cfg)
			var e errs
			for _, p := range unsavedParts {
				s.clean()
				var saved map[string]any
				s.mockRaw(http.MethodGet, p.settings, &saved)
				if _, ok := saved[p.member]; !ok {
					s.fail(nil, "the mock's %s has no %s member", p.settings, p.member)
				}
				saved[p.member] = nil
				body, _ := json.Marshal(saved)
				s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: p.settings, Status: http.StatusOK, Body: string(body)})
				o := s.call(ctx, srv, "write_integration_test", map[string]any{"service": p.service, "profile_id": p.profile})
				what := p.service + ":" + p.profile + " with " + p.member + " saved as null"
				if o.OK() {
					e.addf("%s: answered ok; there is no saved part to test", what)
				}
				for _, c := range upstreamCalls(o) {
					if c.Method != http.MethodGet {
						e.addf("%s: sent %s", what, callLine(c))
					}
				}
			}
			s.clean()
			s.expectNone(e, "a tester whose saved part is null has no body to test: refused, with no tester call")
		}, ginkgo.Label(LabelNeedsMock))
	})
}

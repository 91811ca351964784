package checks

import (
	"github.com/onsi/ginkgo/v2"
)

// This file judges the notification template changes of a settings patch
// as a class (02-tool-mapping, write_settings_patch: notificationTemplates
// entries are keyed by the notification_type and agent labels, never by
// index): a change whose type or agent, or both, is not a label that
// exists is refused before any write, whichever of the two is unknown.

// templateKeyCases are template changes with a label that does not exist.
var templateKeyCases = []struct {
	name string
	key  map[string]any
}{
	{"unknown-agent", map[string]any{"notification_type": "issue", "agent": "carrier_pigeon"}},
	{"unknown-type", map[string]any{"notification_type": "eclipse", "agent": "discord"}},
	{"both-unknown", map[string]any{"notification_type": "eclipse", "agent": "carrier_pigeon"}},
	{"no-agent", map[string]any{"notification_type": "issue"}},
}

func (s *Suite) templateKeyChecks() {
	ginkgo.Describe("wire settings templates", ginkgo.Label("wire"), func() {
		ginkgo.BeforeEach(s.clean)
		s.ClauseItFor("ROUTING-RULE8-RUNTIME-001", "write_settings_patch.template-labels-exist", func(ctx ginkgo.SpecContext) {
			s.requireTool("write_settings_patch")
			srv := s.shared(ctx, apiKeyConfig())
			const section = "notifications_discord"
			var e errs
			for _, c := range templateKeyCases {
				s.clean()
				read := s.call(ctx, srv, "read_settings", map[string]any{"section": section})
				var v settingsView
				s.okData(read, &v)
				entry := map[string]any{"message": "Changed"}
				for k, val := range c.key {
					entry[k] = val
				}
				o := s.call(ctx, srv, "write_settings_patch", map[string]any{"action": "patch", "section": section, "revision": v.Revision,
					"changes": map[string]any{"notificationTemplates": []any{entry}}})
				if o.ErrorCode() != "INVALID_ARGUMENT" {
					e.addf("%s: a template change %v: want INVALID_ARGUMENT, got %q", c.name, c.key, o.ErrorCode())
				}
				for _, call := range upstreamCalls(o) {
					if call.Method != "GET" {
						e.addf("%s: a template change %v reached upstream: %s", c.name, c.key, callLine(call))
					}
				}
			}
			s.expectNone(e, "a notification template change needs a notification_type and an agent label that both exist")
		})
	})
}

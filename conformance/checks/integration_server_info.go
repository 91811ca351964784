package checks

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file judges the media server info projection as a class
// (02-tool-mapping, read_integration media_server info: the server's id,
// name and version only): whichever of them upstream's answer carries, in
// either casing Emby and Jellyfin use, reaches the client; an answer with a
// name but no id, or an id but no name, is still the server's info.

// serverInfoAnswers are media server info answers and the values each
// must show.
var serverInfoAnswers = []struct {
	name string
	body map[string]any
	want []string
}{
	{"name-only", map[string]any{"serverName": "Den Media Server"}, []string{"Den Media Server"}},
	{"id-only", map[string]any{"id": "c0ffee42"}, []string{"c0ffee42"}},
	{"upper-case", map[string]any{"ServerName": "Attic Server", "Id": "beef1234", "Version": "10.8.13"}, []string{"Attic Server", "beef1234", "10.8.13"}},
	{"version-only", map[string]any{"version": "4.7.14.0"}, []string{"4.7.14.0"}},
}

func (s *Suite) serverInfoChecks() {
	ginkgo.Describe("wire media server info", ginkgo.Label("wire", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		s.ClauseItFor("RESULTS-PROJECTION-001", "read_integration.media-server-info-every-field", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_integration")
			srv := s.shared(ctx, s.allConfig())
			var e errs
			judged := 0
			// the embedded mock's saved Emby server (fixtures/ombi/settings.json)
			args := map[string]any{"action": "media_server", "kind": "info", "service": "emby", "server_id": "d6f1a8c2b3e44f5a9b8c7d6e5f4a3b2c"}
			for _, c := range serverInfoAnswers {
				s.clean()
				body, _ := json.Marshal(c.body)
				if err := s.h.Upstream.InjectFault(mockombi.Fault{Method: http.MethodPost, Path: "/api/v1/*/info", Status: http.StatusOK, Body: string(body)}); err != nil {
					s.fail(nil, "inject a server info answer: %v", err)
				}
				o := s.call(ctx, srv, "read_integration", args)
				if !o.OK() {
					e.addf("read_integration media_server info: upstream answered %s, yet the call failed: %s", body, clip(o.Structured, 300))
					continue
				}
				judged++
				for _, w := range c.want {
					if !strings.Contains(string(o.Envelope.Data), w) {
						e.addf("read_integration media_server info: upstream answered %s (%s), and %q is not in the data: %s", body, c.name, w, clip(o.Envelope.Data, 300))
					}
				}
			}
			s.clean()
			s.expectNone(e, "a media server's id, name and version are shown whichever of them its info answer carries")
			s.expect(judged > 0, nil, "no media_server info call succeeded; nothing was judged")
		}, ginkgo.Label(LabelNeedsMock))
	})
}

package checks

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file judges two projection rules (RESULTS-PROJECTION-001) that
// operator mutants of the reference server broke with every other check
// passing:
//
//   - a value upstream gave is shown as upstream gave it, with only what
//     must never reach a caller taken out: a terminal control sequence
//     (ECMA-48 CSI: ESC [ or its one-character C1 form U+009B, parameters,
//     final byte) is removed whole, so a title wrapped in a colour
//     sequence reads as the title, not with the sequence's parameter
//     bytes ("1;31m") left in it;
//   - a reference's value is the native-typed identifier (04-results: "value
//     holds the native-typed identifier (e.g. integer or string) matching
//     the resolved ID"): an id upstream gave as a JSON number is that
//     number, one it gave as a string is that string.

// escapeTitle is the visible title the escape cases wrap.
const escapeTitle = "Nostromo Signal"

// escapeCases wrap escapeTitle in control sequences; the forms introduced
// by ESC come first, so a server that loops on a C1 sequence has already
// failed the check before it is sent one.
var escapeCases = []struct{ name, title string }{
	{"SGR colour introduced by ESC [", "\u001b[1;31m" + escapeTitle + "\u001b[0m"},
	{"cursor moves with several parameters", "\u001b[2;5H" + escapeTitle + "\u001b[12;40f"},
	{"SGR colour introduced by C1 CSI (U+009B)", "\u009b1;31m" + escapeTitle + "\u009b0m"},
}

// nativeOptions is a Radarr quality profile list whose ids are a JSON
// number and a JSON string: each reference's value must keep that type.
const nativeOptions = `[{"id":7,"name":"HD-1080p"},{"id":"uhd-2160","name":"Ultra-HD"},{"id":12,"name":"Any"}]`

func (s *Suite) projectionOpenChecks() {
	ginkgo.Describe("wire projection as given", ginkgo.Label("wire", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("RESULTS-PROJECTION-001", "read_search.escape-sequences-removed-whole", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_search")
			const path = "/api/v1/Search/movie/Matrix"
			var raw []map[string]any
			s.mockRaw(http.MethodGet, path, &raw)
			s.expect(len(raw) > 0, nil, "the mock has no movie search answer for Matrix")
			srv := s.shared(ctx, s.allConfig())
			want, _ := json.Marshal(escapeTitle)
			for _, c := range escapeCases {
				s.clean()
				raw[0]["title"] = c.title
				body, _ := json.Marshal(raw)
				s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: path, Status: http.StatusOK, Body: string(body)})
				o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Matrix"})
				s.expect(o.OK(), o, "%s: upstream answered a movie titled %q, yet the search failed", c.name, c.title)
				s.expect(bytes.Contains(o.Envelope.Data, want), o,
					"%s: upstream's title %q must read %s, the sequence removed whole (its parameter bytes too); the data: %s",
					c.name, c.title, want, clip(o.Envelope.Data, 400))
			}
			s.clean()
		}, ginkgo.Label(LabelNeedsMock))

		s.ClauseItFor("RESULTS-PROJECTION-001", "read_integration.reference-value-native-type", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_integration")
			s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: "/api/v1/Radarr/Profiles", Status: http.StatusOK, Body: nativeOptions})
			srv := s.shared(ctx, s.adminConfig())
			o := s.call(ctx, srv, "read_integration", map[string]any{"action": "arr_options", "service": "radarr", "kind": "profiles"})
			s.wantOK(o)
			var page struct {
				Items []struct {
					ID    string          `json:"id"`
					Value json.RawMessage `json:"value"`
				} `json:"items"`
			}
			if err := json.Unmarshal(o.Envelope.Data, &page); err != nil {
				s.fail(o, "decode data: %v", err)
			}
			var upstream []struct {
				ID json.RawMessage `json:"id"`
			}
			_ = json.Unmarshal([]byte(nativeOptions), &upstream)
			s.expect(len(page.Items) == len(upstream), o, "want %d profiles, got %d", len(upstream), len(page.Items))
			var e errs
			for i, it := range page.Items {
				if i >= len(upstream) {
					break
				}
				if !bytes.Equal(bytes.TrimSpace(it.Value), upstream[i].ID) {
					e.addf("profile %d: upstream's id is %s, the reference's value is %s", i, upstream[i].ID, strings.TrimSpace(string(it.Value)))
				}
			}
			s.expectNone(e, "a reference's value is the identifier as upstream typed it: a JSON number stays that number, a string that string")
		}, ginkgo.Label(LabelNeedsMock))
	})
}

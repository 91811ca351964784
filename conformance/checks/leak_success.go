package checks

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// This file guards what upstream says on success as a property: every
// string that reached the client passed sanitisation (04-results: sanitize
// what upstream says; 06: a leak scan over the entire result finds no
// ApiKey, no HTML and no URL "including when the upstream body actively
// contains them"; 02: artwork never exposes an ApiKey query). The mock's
// success answers are replaced with texts that carry a marker inside the
// part a sanitiser must drop; no marker may reach a result, a warning or
// an error.

// hostileText is an upstream text whose marker sits inside what must be
// dropped: a URL, a credential, markup.
type hostileText struct {
	name, text, marker string
}

// hostileSuccessTexts are engine messages of a successful write.
var hostileSuccessTexts = []hostileText{
	{"url", "Request added, track it at https://ombi.example.org/requests/7?apikey=CATCHURL4f2a", "CATCHURL4f2a"},
	{"markup", `Request added <a href="javascript:CATCHHTML8c1d">open</a>`, "CATCHHTML8c1d"},
	{"credential", "Request added; ApiKey: CATCHKEY3e9b0a", "CATCHKEY3e9b0a"},
}

// hostileArtwork are image URLs that carry a credential.
var hostileArtwork = []hostileText{
	{"api_key-query", "https://image.example.org/t/p/w500/poster.jpg?api_key=CATCHART1a7c", "CATCHART1a7c"},
	{"token-query", "https://assets.example.org/fanart/bg.jpg?access_token=CATCHART2b8d", "CATCHART2b8d"},
	{"userinfo", "https://ombi:CATCHART3c9e@image.example.org/poster.jpg", "CATCHART3c9e"},
}

// noExampleWrite are write tools whose schema examples stop before any
// upstream write on the mock's data (a profile no server provisions, users
// the mock does not hold): faulting their writes would judge nothing.
var noExampleWrite = map[string]bool{"write_integration_test": true, "write_notification_send": true, "write_user_manage": true}

// writeMethods are the methods a write reaches upstream with.
var writeMethods = []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch}

func (s *Suite) successTextChecks() {
	ginkgo.Describe("leak upstream success texts", ginkgo.Label("leak"), func() {
		ginkgo.BeforeEach(s.clean)

		for _, t := range spec.Tools() {
			if t.Annotations.ReadOnlyHint || noExampleWrite[t.Name] {
				continue
			}
			name := t.Name
			s.ClauseItFor("RESULTS-ERRORS-SANITIZE-001", name+".success-upstream-text", func(ctx ginkgo.SpecContext) {
				// api_key mode: a JWT login is a POST the faults would answer.
				srv := s.shared(ctx, apiKeyConfig())
				examples := s.table(name).Valid
				var e errs
				reached := 0
				var last *harness.Outcome
				for _, h := range hostileSuccessTexts {
					body, _ := json.Marshal(map[string]any{"result": true, "isError": false, "message": h.text, "errorMessage": nil, "requestId": 7})
					for _, ex := range examples {
						s.clean()
						for _, m := range writeMethods {
							if err := s.h.Upstream.InjectFault(mockombi.Fault{Method: m, Path: "/**", Status: http.StatusOK, Body: string(body)}); err != nil {
								s.fail(nil, "inject a success answer: %v", err)
							}
						}
						o := s.call(ctx, srv, name, ex.Args)
						last = o
						for _, c := range upstreamCalls(o) {
							if c.Method != http.MethodGet {
								reached++
								break
							}
						}
						if strings.Contains(string(o.Structured)+"\n"+o.Text, h.marker) {
							e.addf("%s %s: the %s part of upstream's success message reached the client", name, clip(ex.Args, 160), h.name)
						}
					}
				}
				s.expect(reached > 0, last, "no example of %s reached an upstream write; nothing was judged", name)
				s.expectNone(e, "unsanitised upstream success text")
			})
		}

		s.ClauseItFor("RESULTS-ERRORS-SANITIZE-001", "read_library.artwork-credential-url", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			var e errs
			tried := 0
			for _, ex := range s.table("read_library").Valid {
				var args struct {
					Action string `json:"action"`
				}
				if json.Unmarshal(ex.Args, &args) != nil || !strings.Contains(args.Action, "_images") && !strings.Contains(args.Action, "art") {
					continue
				}
				for _, h := range hostileArtwork {
					for _, body := range []any{h.text, map[string]any{"url": h.text}} {
						s.clean()
						b, _ := json.Marshal(body)
						if err := s.h.Upstream.InjectFault(mockombi.Fault{Method: http.MethodGet, Path: "/**", Status: http.StatusOK, Body: string(b)}); err != nil {
							s.fail(nil, "inject an artwork answer: %v", err)
						}
						o := s.call(ctx, srv, "read_library", ex.Args)
						tried++
						var links []string
						for _, l := range o.Links {
							links = append(links, l.URI)
						}
						if strings.Contains(string(o.Structured)+"\n"+o.Text+"\n"+strings.Join(links, "\n"), h.marker) {
							e.addf("read_library %s: an artwork URL with a credential (%s) reached the client", clip(ex.Args, 160), h.name)
						}
					}
				}
			}
			s.expect(tried > 0, nil, "read_library has no artwork examples; nothing to check")
			s.expectNone(e, "artwork URLs with credentials")
		}, ginkgo.Label(LabelReadOnly))
	})
}

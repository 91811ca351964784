package checks

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// This file guards what a write reports as properties over every write
// tool: an upstream answer that does not say the write was done (a
// RequestEngineResult with result false and no isError, a bare false, an
// empty body, null, a text that is neither true nor false) is never reported as
// a completed mutation nor as upstream_result true (04-results: HTTP 200
// is not success; VERIFY-OUTPUT-BUSINESS-FAILURE-001: empty-success bodies
// and unknown structures handled independently), and a write refused
// with 429 is never retryable (RESULTS-ERRORS-RETRYABLE-001: only mark
// 429 retryable where replay is safe).

// notDoneAnswers are upstream 200 answers that do not confirm a write.
var notDoneAnswers = []struct{ name, body, kind string }{
	{"engine-result-false", `{"result":false,"message":"not done","requestId":0}`, ""},
	{"bare-false", `false`, ""},
	{"empty-body", ``, mockombi.FaultEmpty},
	{"null", `null`, ""},
	{"unknown-text", `"maybe"`, ""},
}

// confirmingAnswers are upstream 200 answers that confirm a write.
var confirmingAnswers = []string{`true`, `{"result":true,"isError":false,"message":"done","requestId":7}`}

// outcomeMutation is what the checks read of a mutation result.
type outcomeMutation struct {
	Kind           string `json:"kind"`
	Outcome        string `json:"outcome"`
	UpstreamResult *bool  `json:"upstream_result"`
}

// outcomeSeen is a mutation a tool reported for one upstream answer.
type outcomeSeen struct {
	name, body string
	m          outcomeMutation
}

// faultWrites answers every upstream write with f's status and body.
func (s *Suite) faultWrites(f mockombi.Fault) {
	for _, m := range writeMethods {
		f.Method, f.Path = m, "/**"
		if err := s.h.Upstream.InjectFault(f); err != nil {
			s.fail(nil, "inject an answer to %s: %v", m, err)
		}
	}
}

// reachedWrite reports whether o sent an upstream write.
func reachedWrite(o *harness.Outcome) bool {
	for _, c := range upstreamCalls(o) {
		if c.Method != http.MethodGet {
			return true
		}
	}
	return false
}

func (s *Suite) writeOutcomeChecks() {
	ginkgo.Describe("errors write outcomes", ginkgo.Label("errors", LabelNeedsMock), func() {
		ginkgo.BeforeEach(s.clean)

		for _, t := range spec.Tools() {
			if t.Annotations.ReadOnlyHint || noExampleWrite[t.Name] {
				continue
			}
			name := t.Name
			s.ClauseItFor("VERIFY-OUTPUT-BUSINESS-FAILURE-001", name+".unconfirmed-answer-not-done", func(ctx ginkgo.SpecContext) {
				// api_key mode: a JWT login is a POST the faults would answer.
				srv := s.shared(ctx, apiKeyConfig())
				var e errs
				reached := 0
				var last *harness.Outcome
				for _, ex := range s.table(name).Valid {
					var got []outcomeSeen
					for _, a := range notDoneAnswers {
						s.clean()
						s.faultWrites(mockombi.Fault{Status: http.StatusOK, Headers: map[string]string{"Content-Type": "application/json"}, Body: a.body, Kind: a.kind})
						o := s.call(ctx, srv, name, ex.Args)
						last = o
						if !reachedWrite(o) {
							continue
						}
						reached++
						var m outcomeMutation
						if o.OK() && json.Unmarshal(o.Envelope.Data, &m) == nil {
							got = append(got, outcomeSeen{a.name, a.body, m})
						}
					}
					// A route that reports upstream_result true when upstream
					// confirms the write (a bare true, or a RequestEngineResult
					// with result true) answers a business result: an answer
					// without a confirming one is not a completed write. A
					// route that answers no body is judged on upstream_result
					// alone.
					business := false
					for _, body := range confirmingAnswers {
						s.clean()
						s.faultWrites(mockombi.Fault{Status: http.StatusOK, Headers: map[string]string{"Content-Type": "application/json"}, Body: body})
						o := s.call(ctx, srv, name, ex.Args)
						var ref outcomeMutation
						if o.OK() && json.Unmarshal(o.Envelope.Data, &ref) == nil && ref.UpstreamResult != nil && *ref.UpstreamResult {
							business = true
						}
					}
					for _, g := range got {
						where := fmt.Sprintf("%s %s, upstream answered %s (%q)", name, clip(ex.Args, 140), g.name, g.body)
						if business && g.m.Outcome == "completed" {
							e.addf("%s: reported as a completed mutation, though the route answers a business result and this one does not say the write was done", where)
						}
						if g.m.UpstreamResult != nil && *g.m.UpstreamResult {
							e.addf("%s: reports upstream_result true, a value upstream never sent", where)
						}
					}
				}
				s.expect(reached > 0, last, "no example of %s reached an upstream write; nothing was judged", name)
				s.expectNone(e, "unconfirmed upstream answers reported as done")
			})

			s.ClauseItFor("RESULTS-ERRORS-RETRYABLE-001", name+".write-429-not-retryable", func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, apiKeyConfig())
				var e errs
				reached := 0
				var last *harness.Outcome
				for _, ex := range s.table(name).Valid {
					s.clean()
					s.faultWrites(mockombi.Fault{Status: http.StatusTooManyRequests,
						Headers: map[string]string{"Content-Type": "application/json", "Retry-After": "7"}, Body: `{"title":"Too Many Requests","status":429}`})
					o := s.call(ctx, srv, name, ex.Args)
					last = o
					if !reachedWrite(o) {
						continue
					}
					reached++
					where := name + " " + clip(ex.Args, 140)
					switch {
					case o.OK():
						e.addf("%s: the write was refused with 429 but the tool answered ok", where)
					case o.Envelope != nil && o.Envelope.Error != nil && o.Envelope.Error.Retryable:
						e.addf("%s: a write refused with 429 is marked retryable (%s), though replaying a write is not safe", where, o.Envelope.Error.Code)
					}
				}
				s.expect(reached > 0, last, "no example of %s reached an upstream write; nothing was judged", name)
				s.expectNone(e, "retryable write errors")
			})
		}
	})
}

package checks

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// This file holds the checks of the design sentences that speak of what a
// real Ombi does (the live-only sentences of spec/sentences.json): they
// judge the server on what the Ombi behind it answers, so they run in a live
// run (through the proxy, whose journal and faults they need) and in a run
// of the embedded mock alike. They only read.

// liveVoteViews are the vote views of read_votes that Ombi 4.53.10 can
// answer 500 for existing data (02-tool-mapping, Issues, votes and users).
var liveVoteViews = []struct {
	name  string
	args  map[string]any
	route string // the upstream route the fault is planted on
}{
	{"list", map[string]any{"action": "list"}, "/api/v1/Vote"},
	{"by-request", map[string]any{"action": "by_request", "media": "movie", "request_id": 1}, "/api/v1/Vote/movie/*"},
}

func (s *Suite) liveAreas() {
	ginkgo.Describe("errors", ginkgo.Label("errors", LabelReadOnly, LabelNeedsJournal), func() {
		ginkgo.BeforeEach(s.clean)
		for _, v := range liveVoteViews {
			s.ClauseItFor("VERIFY-ERROR-BOUNDARIES-001", "live.read_votes.500-is-upstream."+v.name, func(ctx ginkgo.SpecContext) {
				s.liveVoteView(ctx, v.args, v.route)
			})
		}
	})
	ginkgo.Describe("wire", ginkgo.Label("wire", LabelReadOnly, LabelNeedsJournal), func() {
		ginkgo.BeforeEach(s.clean)
		s.ClauseItFor("ROUTING-RULE4-ENUM-READ-001", "live.labels-match-the-published-maps", s.liveEnumLabels)
	})
	s.liveAnswerAreas()
	s.liveStateAreas()
	s.liveWriteAreas()
	s.liveIDAreas()
}

// liveVoteView calls a vote view as the Ombi answers it, then with the
// Ombi answering 500 (a fault the proxy or the mock answers): an answer the
// Ombi failed is an upstream error (UPSTREAM_REJECTED, no data), never an
// empty vote page, and one it gave is a success.
func (s *Suite) liveVoteView(ctx context.Context, args map[string]any, route string) {
	ginkgo.GinkgoHelper()
	srv := s.shared(ctx, s.allConfig())
	judge := func(o *harness.Outcome, why string) {
		ginkgo.GinkgoHelper()
		failed := false
		for _, c := range upstreamCalls(o) {
			if strings.Contains(strings.ToLower(c.Path), "/api/v1/vote") && c.Status >= 500 {
				failed = true
			}
		}
		if !failed {
			s.expect(o.RPCError == nil && o.Envelope != nil && o.Envelope.OK, o, "%s: the Ombi answered the vote view, so the tool answers it; got %q", why, o.ErrorCode())
			return
		}
		s.wantCode(o, "UPSTREAM_REJECTED")
		s.expect(len(o.Envelope.Data) == 0, o, "%s: an upstream 500 on a vote view is an upstream error, never an empty vote page", why)
	}
	judge(s.callUnchecked(ctx, srv, "read_votes", args), "as the Ombi answered")
	s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: route, Status: http.StatusInternalServerError,
		Headers: map[string]string{"Content-Type": "application/json"}, Body: `{"error":"An error has occurred."}`})
	judge(s.callUnchecked(ctx, srv, "read_votes", args), "with the Ombi answering 500")
}

// liveEnumReads are the reads whose results carry enum labels with their
// *_code twins.
var liveEnumReads = []struct {
	tool string
	args map[string]any
}{
	{"read_issues", map[string]any{"action": "list", "status": "pending"}},
	{"read_issues", map[string]any{"action": "list", "status": "in_progress"}},
	{"read_issues", map[string]any{"action": "list", "status": "resolved"}},
}

// liveEnumLabels reads what the Ombi holds and judges every enum label
// the results carry against the published maps (T1-T4): a label with its
// *_code twin is the published label of that code, so that a value the
// instance sends which the maps lack (version drift) is reported as
// unknown, without a label, and never under another value's label.
func (s *Suite) liveEnumLabels(ctx ginkgo.SpecContext) {
	srv := s.shared(ctx, s.allConfig())
	enums := spec.Enums()
	var e errs
	pairs := 0
	var unread []string
	var first *harness.Outcome
	for _, r := range liveEnumReads {
		o := s.callUnchecked(ctx, srv, r.tool, r.args)
		if o.RPCError != nil || o.Envelope == nil || !o.Envelope.OK {
			unread = append(unread, fmt.Sprintf("%s %v answered %s", r.tool, r.args, cmp.Or(o.ErrorCode(), "a JSON-RPC error")))
			continue // nothing to judge: what the Ombi holds could not be read
		}
		var data any
		if json.Unmarshal(o.Envelope.Data, &data) != nil {
			continue
		}
		before := len(e)
		walkPairs(data, func(field, label string, code int) {
			var names []string
			for _, en := range enums.Enums {
				if slices.Contains(enums.Labels(en.Name), label) {
					names = append(names, en.Name)
				}
			}
			if len(names) == 0 {
				return // no enum of the published maps has the label: not one of T1-T4
			}
			pairs++
			for _, n := range names {
				if c, _ := enums.Code(n, label); c == code {
					return
				}
			}
			e.addf("%s %v: %s is %q with %s_code %d, but the published map gives %q another code", r.tool, r.args, field, label, field, code, label)
		})
		if len(e) > before && first == nil {
			first = o
		}
	}
	if pairs == 0 {
		skipAs(framework.StateNotApplicable, "the Ombi's issues carry no enum label to judge; "+cmp.Or(strings.Join(unread, ", "), "every read answered"))
	}
	s.expect(len(e) == 0, first, "enum labels do not match the published maps:\n%s", strings.Join(e, "\n"))
}

// walkPairs calls f for each member K holding a string whose object also
// holds K_code holding an integer.
func walkPairs(v any, f func(field, label string, code int)) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if label, ok := x.(string); ok {
				if c, ok := t[k+"_code"].(float64); ok && c == float64(int(c)) {
					f(k, label, int(c))
				}
				continue
			}
			walkPairs(x, f)
		}
	case []any:
		for _, x := range t {
			walkPairs(x, f)
		}
	}
}

package checks

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// enumAreas holds the checks of the media names (02-tool-mapping rule 3),
// the read-side enum rule (rule 4), the flagged closed issue status
// (DECISIONS D5) and the bounded-feed paging rule (04-results).
func (s *Suite) enumAreas() {
	ginkgo.Describe("protocol", ginkgo.Label("protocol"), func() {
		s.ClauseItFor("ROUTING-RULE3-MEDIA-NAMES-001", "no-artist-request", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			ginkgo.By("no published tool offers an artist request: creation, request reads, votes and moderation name movie, tv and album only")
			var e errs
			for _, c := range []struct {
				tool string
				args map[string]any
			}{
				{"write_request_create", map[string]any{"action": "artist", "musicbrainz_id": "a-b-c"}},
				{"write_request_moderate", map[string]any{"action": "approve", "media": "artist", "request_id": 1}},
				{"write_request_delete", map[string]any{"kind": "artist", "request_id": 1}},
				{"write_vote", map[string]any{"action": "up", "media": "artist", "request_id": 1}},
				{"read_votes", map[string]any{"action": "by_request", "media": "artist", "request_id": 1}},
				{"read_requests", map[string]any{"action": "search", "media": "artist", "query": "x"}},
				{"read_media", map[string]any{"action": "by_request", "media": "artist", "request_id": 1}},
			} {
				o := s.callUnchecked(ctx, srv, c.tool, c.args)
				if o.RPCError == nil && o.ErrorCode() != "INVALID_ARGUMENT" {
					e.addf("%s accepted an artist request %v: code=%q", c.tool, c.args, o.ErrorCode())
				}
				if len(o.Journal) > 0 {
					e.addf("%s sent %d upstream calls for an artist request", c.tool, len(o.Journal))
				}
			}
			s.expectNone(e, "an artist request operation is offered")
		}, ginkgo.Label(LabelReadOnly))
	})

	ginkgo.Describe("wire", ginkgo.Label("wire"), func() {
		ginkgo.BeforeEach(func() { s.clean() })

		s.ClauseItFor("ROUTING-RULE4-ENUM-READ-001", "read_issues.mapped-and-unmapped-status", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			ginkgo.By("upstream answers one issue with a mapped status (1) and one with an unmapped status (99)")
			s.injectFault(mockombi.Fault{Method: "GET", Path: "/api/v1/Issues/*/*/*", Status: 200, Times: 1,
				Headers: map[string]string{"Content-Type": "application/json"},
				Body:    `[{"id":7001,"title":"Mapped","status":1,"requestType":1},{"id":7002,"title":"Unmapped","status":99,"requestType":1}]`})
			o := s.call(ctx, srv, "read_issues", map[string]any{"action": "list", "status": "in_progress"})
			var page struct {
				Items []map[string]any `json:"items"`
			}
			s.okData(o, &page)
			byID := map[float64]map[string]any{}
			for _, it := range page.Items {
				if id, ok := it["id"].(float64); ok {
					byID[id] = it
				}
			}
			mapped, unmapped := byID[7001], byID[7002]
			s.expect(mapped != nil && unmapped != nil, o, "both upstream issues must be listed")
			s.expect(mapped["status"] == "in_progress" && mapped["status_code"] == float64(1), o,
				"a mapped status emits the label and its *_code twin; got status=%v status_code=%v", mapped["status"], mapped["status_code"])
			_, hasLabel := unmapped["status"]
			// The shared $defs close issue.status_code to [0,1,2,3], so a
			// server may only keep the raw 99 where the output schema lets
			// it; the schema wins (as in DECISIONS D2), the label never
			// appears, and the warning always does.
			code, hasCode := unmapped["status_code"]
			s.expect(!hasLabel && (!hasCode || code == float64(99)), o,
				"an unmapped status omits the label and keeps no other code; got %v", unmapped)
			s.expect(slices.Contains(o.Envelope.Warnings, "unmapped upstream enum value 99 for status"), o,
				"want the warning %q, got %q", "unmapped upstream enum value 99 for status", o.Envelope.Warnings)
		}, ginkgo.Label(LabelReadOnly))

		s.ClauseItFor("DECISION-D5-ISSUE-CLOSED-001", "write_issue_manage.set_status.closed", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			o := s.call(ctx, srv, "write_issue_manage", map[string]any{"action": "set_status", "issue_id": 1, "status": "closed"})
			var post *mockombi.Call
			for i := range o.Journal {
				if c := o.Journal[i]; c.Method == "POST" && strings.EqualFold(c.Path, "/api/v1/Issues/status") {
					post = &o.Journal[i]
				}
			}
			s.expect(post != nil, o, "want one POST /api/v1/Issues/status")
			s.expect(sameJSON(post.Body, `{"issueId":1,"status":3}`), o, "closed is sent as T2 value 3; got %s", post.Body)
			flagged := slices.ContainsFunc(o.Envelope.Warnings, func(w string) bool { return strings.Contains(w, "Deleted") })
			s.expect(flagged, o, "setting closed must warn that upstream names 3 Deleted; warnings %q", o.Envelope.Warnings)
		})

		s.ClauseItFor("RESULTS-PAGING-TOTAL-001", "read_discover.requested-feed", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			o := s.call(ctx, srv, "read_discover", map[string]any{"action": "browse", "media": "movie", "list": "requested"})
			var page struct {
				Page struct {
					Total      json.RawMessage `json:"total"`
					HasMore    json.RawMessage `json:"has_more"`
					NextOffset json.RawMessage `json:"next_offset"`
				} `json:"page"`
			}
			s.okData(o, &page)
			s.expect(o.Envelope.Truncated, o, "the requested feed is Ombi's bounded recently-requested list: the result must be marked truncated")
			s.expect(string(page.Page.Total) == "null" && string(page.Page.HasMore) == "null" && string(page.Page.NextOffset) == "null", o,
				"a bounded feed knows no total or continuation: want total, has_more and next_offset null; got %s, %s, %s",
				page.Page.Total, page.Page.HasMore, page.Page.NextOffset)
		}, ginkgo.Label(LabelReadOnly))
	})
}

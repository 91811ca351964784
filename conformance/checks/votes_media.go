package checks

import (
	"encoding/json"
	"net/http"
	"slices"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file judges read_votes' list as a class (02-tool-mapping,
// read_votes list: each vote summary with its request and media kind):
// every summary whose upstream record names a request type shows it as
// its media label, and one without a request type is still listed, with
// no media.

// voteSummaries is a vote summary answer: one of each request type, and
// one without.
const voteSummaries = `[
 {"requestId": 12, "requestType": 1, "upvotes": 3, "downvotes": 0},
 {"requestId": 31, "requestType": 0, "upvotes": 1, "downvotes": 1},
 {"requestId": 44, "requestType": 2, "upvotes": 0, "downvotes": 2},
 {"requestId": 57, "upvotes": 5, "downvotes": 0}
]`

func (s *Suite) voteMediaChecks() {
	ginkgo.Describe("wire votes media", ginkgo.Label("wire", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		s.ClauseItFor("RESULTS-PROJECTION-001", "read_votes.list-media-of-every-summary", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_votes")
			srv := s.shared(ctx, s.allConfig())
			if err := s.h.Upstream.InjectFault(mockombi.Fault{Method: http.MethodGet, Path: "/**", Status: http.StatusOK, Body: voteSummaries}); err != nil {
				s.fail(nil, "inject vote summaries: %v", err)
			}
			o := s.call(ctx, srv, "read_votes", map[string]any{"action": "list"})
			s.clean()
			var data struct {
				Items []struct {
					RequestID int    `json:"request_id"`
					Media     string `json:"media"`
				} `json:"items"`
			}
			if !o.OK() || json.Unmarshal(o.Envelope.Data, &data) != nil {
				s.fail(o, "read_votes list of four vote summaries failed")
			}
			var e errs
			labelled := 0
			for _, it := range data.Items {
				if it.Media != "" {
					labelled++
				}
			}
			if labelled < 3 {
				e.addf("upstream named the request type of 3 of 4 summaries; %d of the %d listed carry a media label: %s", labelled, len(data.Items), clip(o.Envelope.Data, 400))
			}
			if !slices.ContainsFunc(data.Items, func(it struct {
				RequestID int    `json:"request_id"`
				Media     string `json:"media"`
			}) bool {
				return it.RequestID == 57
			}) {
				e.addf("the summary of request 57, which names no request type, is not listed: %s", clip(o.Envelope.Data, 400))
			}
			s.expectNone(e, "every vote summary is listed, with the media label of the request type upstream names")
		})
	})
}

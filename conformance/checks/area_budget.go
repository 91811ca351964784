package checks

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file declares the budget area's fixed checks; the budget and
// never-fabricate properties are in budget.go and fabricate.go.

// largeSearchBody builds an Ombi movie search answer with n records and
// long overviews.
func largeSearchBody(n int) string {
	items := make([]map[string]any, n)
	for i := range items {
		items[i] = map[string]any{
			"id": i + 1, "theMovieDbId": i + 1, "title": fmt.Sprintf("Generated title %d", i+1),
			"overview": strings.Repeat("A long overview sentence. ", 300), "releaseDate": "2001-01-01T00:00:00",
			"available": false, "requested": false, "approved": false,
		}
	}
	b, _ := json.Marshal(items)
	return string(b)
}

func (s *Suite) budgetArea() {
	ginkgo.Describe("budget", ginkgo.Label("budget", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		ginkgo.Context("when upstream returns hundreds of long search records", func() {
			s.ClauseItFor("RESULTS-BUDGET-001", "read_search.large", func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, s.allConfig())
				s.injectFault(mockombi.Fault{Method: "GET", Path: searchMoviePrefix + "*", Status: 200,
					Headers: map[string]string{"Content-Type": "application/json"}, Body: largeSearchBody(400)})
				o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Generated"})
				s.expect(o.OK(), o, "a large answer is still a result")
				s.expect(len(o.Structured) <= 64<<10, o, "structuredContent is %d bytes, over the 64 KiB budget", len(o.Structured))
				var data struct {
					Items []json.RawMessage `json:"items"`
				}
				_ = json.Unmarshal(o.Envelope.Data, &data)
				s.expect(len(data.Items) <= 100, o, "%d records returned, over the 100-record budget", len(data.Items))
				s.expect(o.Envelope.Truncated && len(o.Envelope.Warnings) > 0, o, "a cut result must set truncated and carry a warning")
			})
		})
	})
}

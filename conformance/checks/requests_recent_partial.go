package checks

import (
	"net/http"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file judges a compound read that loses a part (04-results: a read
// that could not fetch one of its parts answers PARTIAL_FAILURE with what
// it has, never a complete-looking page): read_requests recent resolves
// each recently requested TV child through the TV parent scan; when that
// scan fails, the TV rows it could not place make the answer a partial
// failure, whatever the other rows.

func (s *Suite) recentPartialChecks() {
	ginkgo.Describe("wire requests recent partial", ginkgo.Label("wire", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		s.ClauseItFor("RESULTS-PARTIAL-001", "read_requests.recent-tv-scan-failed-partial", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_requests")
			srv := s.shared(ctx, s.allConfig())
			for _, status := range []int{http.StatusInternalServerError, http.StatusBadGateway} {
				s.clean()
				if err := s.h.Upstream.InjectFault(mockombi.Fault{Method: http.MethodGet, Path: "/api/v1/Request/tv", Status: status}); err != nil {
					s.fail(nil, "fail the TV parent scan: %v", err)
				}
				o := s.call(ctx, srv, "read_requests", map[string]any{"action": "recent"})
				scanned := false
				for _, c := range upstreamCalls(o) {
					if c.Method == http.MethodGet && c.Path == "/api/v1/Request/tv" {
						scanned = true
					}
				}
				s.expect(scanned, o, "read_requests recent did not read the TV parent scan; the mock's recent requests hold no TV child to place")
				s.expect(o.ErrorCode() == "PARTIAL_FAILURE", o, "the TV parent scan failed with %d, so recently requested TV rows are missing: want PARTIAL_FAILURE, got %q", status, o.ErrorCode())
			}
			s.clean()
		}, ginkgo.Label(LabelNeedsMock))
	})
}

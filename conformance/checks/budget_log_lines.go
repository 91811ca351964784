package checks

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file judges a read_logs line window cut to the response byte
// budget (RESULTS-BUDGET-001; 04-results: "bounded sanitized lines"): the
// window asked fits the line limit but not the budget, so lines are cut,
// and the page that is left is truthful: it starts at the offset asked,
// says truncated, and its next_offset is right after the last line it
// carries, so a client that follows it reads every line once.

// logCutLines is how many lines the long log file has; each is about 640
// bytes, so 500 of them are far over the 64 KiB budget.
const logCutLines = 700

// longLogBody is a log file of logCutLines numbered lines with nothing a
// log sanitiser takes out (no credential word, no long opaque run).
func longLogBody() string {
	var b strings.Builder
	for i := range logCutLines {
		fmt.Fprintf(&b, "2026-12-05 10:00:00.000 +00:00 [INF] request %04d served: %s\n", i, strings.Repeat("the library scan finished without errors. ", 14))
	}
	return b.String()
}

func (s *Suite) logCutChecks() {
	ginkgo.Describe("budget log lines", ginkgo.Label("wire", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		s.ClauseItFor("RESULTS-BUDGET-001", "read_logs.byte-cut-lines-truthful", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_logs")
			srv := s.shared(ctx, s.adminConfig())
			_, files := s.logFiles(ctx, srv)
			f := files[0]
			s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: "/api/v2/System/logs/" + f.Name, Status: http.StatusOK,
				Headers: map[string]string{"Content-Type": "text/plain; charset=utf-8"}, Body: longLogBody()})
			const offset = 100
			o := s.call(ctx, srv, "read_logs", map[string]any{"action": "read", "file_id": f.FileID, "lines": map[string]any{"offset": offset, "limit": 500}})
			var page struct {
				Lines      []string `json:"lines"`
				Offset     *int     `json:"offset"`
				NextOffset *int     `json:"next_offset"`
			}
			s.okData(o, &page)
			n := len(page.Lines)
			s.expect(o.Envelope.Truncated && n > 0 && n < 500, o, "500 lines of about 640 bytes are over the byte budget, so lines are cut: want truncated and between 1 and 499 lines, got truncated %t with %d", o.Envelope.Truncated, n)
			s.expect(page.Offset != nil && *page.Offset == offset, o, "offset must be the %d asked, got %s", offset, truthInt(page.Offset))
			s.expect(strings.Contains(page.Lines[0], fmt.Sprintf("request %04d ", offset)), o, "the first line must be line %d of the file: %s", offset, ClipString(page.Lines[0], 80))
			s.expect(strings.Contains(page.Lines[n-1], fmt.Sprintf("request %04d ", offset+n-1)), o, "the %d lines must be lines %d to %d of the file; the last is %s", n, offset, offset+n-1, ClipString(page.Lines[n-1], 80))
			s.expect(page.NextOffset != nil && *page.NextOffset == offset+n, o, "next_offset must be %d (right after the last line carried), got %s", offset+n, truthInt(page.NextOffset))
		}, ginkgo.Label(LabelNeedsMock))
	})
}

package checks

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// boundsWire holds the checks that need an upstream answer too large or
// too specific for the exact-wire data: a nested group over the 100-record
// budget, and log windows held against the file upstream really serves.
func (s *Suite) boundsWire() {
	ginkgo.Describe("wire bounds", ginkgo.Label("wire", LabelReadOnly, "bounds"), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("RESULTS-BUDGET-001", "read_issues.summary.nested-truncated", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			issues := make([]map[string]any, 101)
			for i := range issues {
				issues[i] = map[string]any{"id": 5000 + i, "title": fmt.Sprintf("Issue %d", i+1), "status": 0, "requestType": 1}
			}
			body, _ := json.Marshal([]map[string]any{{"providerId": "603", "title": "The Matrix", "count": 101, "issues": issues}})
			s.injectFault(mockombi.Fault{Method: "GET", Path: "/api/v2/Issues/0/25/0", Status: 200,
				Headers: map[string]string{"Content-Type": "application/json"}, Body: string(body)})
			o := s.call(ctx, srv, "read_issues", map[string]any{"action": "summary", "status": "pending"})
			s.oneCall(o, "GET", "/api/v2/Issues/0/25/0")
			var page struct {
				Items []struct {
					Count  *int              `json:"count"`
					Issues []json.RawMessage `json:"issues"`
				} `json:"items"`
			}
			s.okData(o, &page)
			s.expect(len(page.Items) == 1, o, "want the one provider group, got %d", len(page.Items))
			g := page.Items[0]
			s.expect(len(g.Issues) == 100, o, "a group of 101 issues is cut to the 100 nested records the budget allows; got %d", len(g.Issues))
			s.expect(g.Count != nil && *g.Count == 101, o, "the group's count is upstream's 101 (groups, not the returned issues), got %v", g.Count)
			s.expect(o.Envelope.Truncated && len(o.Envelope.Warnings) > 0, o, "nested issues cut to the budget need truncated and a warning; truncated %v, warnings %q", o.Envelope.Truncated, o.Envelope.Warnings)
		})

		s.ClauseItFor("VERIFY-OUTPUT-PAGING-001", "read_logs.read.windows-match-the-file", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			_, files := s.logFiles(ctx, srv)
			f := files[0]
			text, code := s.mockText("/api/v2/System/logs/" + url.PathEscape(f.Name))
			s.expect(code == http.StatusOK, nil, "the mock answered %d to its own log file %s", code, f.Name)
			n := len(strings.Split(strings.TrimRight(strings.ReplaceAll(text, "\r\n", "\n"), "\n"), "\n"))
			s.expect(n >= 3, nil, "the mock's log file %s must hold a few lines, has %d", f.Name, n)
			type window struct {
				Lines      []string `json:"lines"`
				NextOffset *int     `json:"next_offset"`
			}
			read := func(offset, limit int) (window, string) {
				o := s.call(ctx, srv, "read_logs", map[string]any{"action": "read", "file_id": f.FileID, "lines": map[string]any{"offset": offset, "limit": limit}})
				var w window
				s.okData(o, &w)
				return w, fmt.Sprintf("lines %d+%d of %s (%d lines upstream): got %d lines, next_offset %v", offset, limit, f.Name, n, len(w.Lines), w.NextOffset)
			}
			all := min(n, 500)
			w, what := read(0, all)
			s.expect(len(w.Lines) == all, nil, "offsets are zero-based: the first window holds the file's first lines; %s", what)
			s.expect((w.NextOffset != nil) == (n > all) && (w.NextOffset == nil || *w.NextOffset == all), nil, "a continuation exactly where the window ends, only when lines remain; %s", what)
			w, what = read(n-1, 5)
			s.expect(len(w.Lines) == 1 && w.NextOffset == nil, nil, "the window at the last line holds that one line and no continuation; %s", what)
			w2, what2 := read(1, 1)
			w3, what3 := read(0, 2)
			s.expect(len(w2.Lines) == 1 && len(w3.Lines) == 2 && w2.Lines[0] == w3.Lines[1], nil, "line 1 alone must be the second line of the window from 0; %s; %s", what2, what3)
		})
	})
}

// mockText calls the embedded mock directly with its API key and returns
// the answer's text and status.
func (s *Suite) mockText(path string) (string, int) {
	ginkgo.GinkgoHelper()
	m := s.h.Upstream.Mock()
	if m == nil {
		s.fail(nil, "a direct upstream read needs the embedded mock")
	}
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header = s.directHeader()
	req.Header.Set("Accept", "text/plain")
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, req)
	return rec.Body.String(), rec.Code
}

package checks

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// This file guards truthful paging as properties (04-results paging;
// 06: "Do not offer a false continuation offset"): a page's returned
// counts the records it carries after any cut, a byte cut says more and
// where to continue, a locally paged list offers every record (the page
// that stops one short of the end says has_more and the next page holds
// the last record), and a season cut to the nested bound says truncated.

// truthPage is a page object of a result envelope as the checks read it.
type truthPage struct {
	Offset     int    `json:"offset"`
	Limit      int    `json:"limit"`
	Returned   int    `json:"returned"`
	Total      *int   `json:"total"`
	HasMore    *bool  `json:"has_more"`
	NextOffset *int   `json:"next_offset"`
	Mode       string `json:"mode"`
}

// truthPageOf reads the page of a *_page family and the length of its one
// record array; ok is false for a result without both.
func truthPageOf(data json.RawMessage) (truthPage, int, bool) {
	var obj map[string]json.RawMessage
	var pg truthPage
	if json.Unmarshal(data, &obj) != nil || obj["page"] == nil || json.Unmarshal(obj["page"], &pg) != nil {
		return pg, 0, false
	}
	n, arrays := 0, 0
	for k, v := range obj {
		var arr []json.RawMessage
		if k != "page" && k != "warnings" && json.Unmarshal(v, &arr) == nil {
			n = len(arr)
			arrays++
		}
	}
	return pg, n, arrays == 1
}

// truthWithPage is args with page set to {offset, limit}.
func truthWithPage(args json.RawMessage, offset, limit int) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(args, &m)
	m["page"] = map[string]any{"offset": offset, "limit": limit}
	return m
}

func truthInt(p *int) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

func (s *Suite) pagingTruthChecks() {
	ginkgo.Describe("wire truthful pages", ginkgo.Label("wire", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)

		// A page cut to the byte budget counts what it carries, says more
		// and continues right after its last record.
		s.ClauseItFor("RESULTS-BUDGET-001", "read_search.byte-cut-page-truthful", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			s.injectFault(mockombi.Fault{Method: "GET", Path: searchMoviePrefix + "*", Status: 200,
				Headers: map[string]string{"Content-Type": "application/json"}, Body: largeSearchBody(400)})
			o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Generated", "page": map[string]any{"offset": 0, "limit": 100}})
			s.wantOK(o)
			pg, n, ok := truthPageOf(o.Envelope.Data)
			s.expect(ok, o, "read_search answered no page with one record list")
			s.expect(o.Envelope.Truncated, o, "the answer is over the byte budget, so records are cut: truncated must be true")
			s.expect(pg.Returned == n, o, "page.returned is %d but the page carries %d records", pg.Returned, n)
			s.expect(pg.HasMore != nil && *pg.HasMore, o, "records were cut, so has_more must be true, got %s", provenanceBool(pg.HasMore))
			s.expect(pg.NextOffset != nil && *pg.NextOffset == pg.Offset+n, o, "next_offset must be %d (right after the last record carried), got %s", pg.Offset+n, truthInt(pg.NextOffset))
		})

		// A complete local list cut to the byte budget (every comment of
		// an issue, each long): the cut page says more and where to go on,
		// whatever it said before the cut.
		s.ClauseItFor("RESULTS-BUDGET-001", "read_issues.comments.byte-cut-complete-page-truthful", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_issues")
			srv := s.shared(ctx, s.allConfig())
			var comments []map[string]any
			for i := 1; i <= 100; i++ {
				comments = append(comments, map[string]any{"id": i, "comment": fmt.Sprintf("Comment %d: %s", i, strings.Repeat("playback stops at the same scene again. ", 60)), "date": "2024-05-01T10:00:00"})
			}
			b, _ := json.Marshal(comments)
			s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: "/api/v1/Issues/*/comments", Status: http.StatusOK,
				Headers: map[string]string{"Content-Type": "application/json"}, Body: string(b)})
			o := s.call(ctx, srv, "read_issues", map[string]any{"action": "comments", "issue_id": 1, "page": map[string]any{"offset": 0, "limit": 100}})
			s.wantOK(o)
			pg, n, ok := truthPageOf(o.Envelope.Data)
			s.expect(ok, o, "read_issues comments answered no page with one record list")
			s.expect(o.Envelope.Truncated && n < 100, o, "100 comments of about 2.4 KB are over the byte budget, so records are cut: want truncated and fewer than 100, got truncated %t with %d", o.Envelope.Truncated, n)
			s.expect(pg.Returned == n, o, "page.returned is %d but the page carries %d records", pg.Returned, n)
			s.expect(pg.HasMore != nil && *pg.HasMore, o, "records were cut from a complete list, so has_more must be true, got %s", provenanceBool(pg.HasMore))
			s.expect(pg.NextOffset != nil && *pg.NextOffset == pg.Offset+n, o, "next_offset must be %d (right after the last record carried), got %s", pg.Offset+n, truthInt(pg.NextOffset))
		})

		// Every has_more the server claims on a read tool's examples holds:
		// a page that says more is followed by a record at its
		// next_offset, and a window that ends exactly at the end of the
		// collection claims no more (has_more false, or null when the
		// server cannot know).
		s.ClauseItFor("VERIFY-OUTPUT-PAGING-001", "has-more-claims-hold", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			var e errs
			judged := 0
			for _, t := range s.judgedTools() {
				if !t.Annotations.ReadOnlyHint {
					continue
				}
				seen := map[string]bool{}
				for _, ex := range s.table(t.Name).Valid {
					full := truthWithPage(ex.Args, 0, 100)
					key := string(mustJSON(full))
					if seen[key] {
						continue
					}
					seen[key] = true
					o := s.call(ctx, srv, t.Name, full)
					if !o.OK() || o.Envelope.Truncated {
						continue
					}
					pg, n, ok := truthPageOf(o.Envelope.Data)
					if !ok || n == 0 || n >= 100 || pg.HasMore != nil && *pg.HasMore {
						continue
					}
					// n < 100 records and no claim of more: the collection
					// holds n. A window of exactly n ends at its end.
					judged++
					exact := s.call(ctx, srv, t.Name, truthWithPage(ex.Args, 0, n))
					p1, n1, ok1 := truthPageOf(exact.Envelope.Data)
					if !exact.OK() || !ok1 || exact.Envelope.Truncated {
						continue
					}
					where := t.Name + " " + clip(ex.Args, 120)
					if p1.HasMore != nil && *p1.HasMore {
						after := 0
						if p1.NextOffset != nil {
							next := s.call(ctx, srv, t.Name, truthWithPage(ex.Args, *p1.NextOffset, n))
							if next.OK() {
								_, after, _ = truthPageOf(next.Envelope.Data)
							}
						}
						if after == 0 {
							e.addf("%s: the collection holds %d records; the page {0,%d} carries %d and claims has_more true (next_offset %s), but no record follows",
								where, n, n, n1, truthInt(p1.NextOffset))
						}
					}
				}
			}
			s.expect(judged > 0, nil, "no read example gave a list of fewer than 100 records; nothing was judged")
			s.expectNone(e, "has_more claims")
		})

		// Every local page of every read tool's examples: returned counts
		// the records, and a list of T records paged by T-1 says more on
		// its first page and holds the last record on its second.
		s.ClauseItFor("VERIFY-OUTPUT-PAGING-001", "local-pages-truthful", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			var e errs
			judged := 0
			var tools []string
			readTools := 0
			for _, t := range spec.Tools() {
				if !t.Annotations.ReadOnlyHint {
					continue
				}
				readTools++
				if s.judged(t.Name) {
					tools = append(tools, t.Name)
				}
			}
			sort.Strings(tools)
			for _, tool := range tools {
				seen := map[string]bool{}
				for _, ex := range s.table(tool).Valid {
					full := truthWithPage(ex.Args, 0, 100)
					key := string(mustJSON(full))
					if seen[key] {
						continue
					}
					seen[key] = true
					o := s.call(ctx, srv, tool, full)
					if o.Envelope == nil || !o.Envelope.OK {
						continue
					}
					pg, n, ok := truthPageOf(o.Envelope.Data)
					if !ok {
						continue
					}
					where := tool + " " + clip(ex.Args, 120)
					if pg.Returned != n {
						e.addf("%s: page.returned is %d but the page carries %d records", where, pg.Returned, n)
					}
					if pg.Mode != "local" || pg.Total == nil || *pg.Total != n || n < 2 || o.Envelope.Truncated {
						continue
					}
					judged++
					first := s.call(ctx, srv, tool, truthWithPage(ex.Args, 0, n-1))
					p1, n1, _ := truthPageOf(first.Envelope.Data)
					if n1 != n-1 || p1.Returned != n-1 || p1.HasMore == nil || !*p1.HasMore || p1.NextOffset == nil || *p1.NextOffset != n-1 {
						e.addf("%s: of %d records, the page {0,%d} carries %d (returned %d) with has_more %s, next_offset %s; want %d, true, %d",
							where, n, n-1, n1, p1.Returned, provenanceBool(p1.HasMore), truthInt(p1.NextOffset), n-1, n-1)
					}
					last := s.call(ctx, srv, tool, truthWithPage(ex.Args, n-1, n-1))
					p2, n2, _ := truthPageOf(last.Envelope.Data)
					if n2 != 1 || p2.Returned != 1 || p2.HasMore == nil || *p2.HasMore || p2.NextOffset != nil {
						e.addf("%s: of %d records, the page {%d,%d} carries %d (returned %d) with has_more %s, next_offset %s; want the last record, false, null",
							where, n, n-1, n-1, n2, p2.Returned, provenanceBool(p2.HasMore), truthInt(p2.NextOffset))
					}
				}
			}
			if judged == 0 && len(tools) < readTools && len(e) == 0 {
				// a partial server: the read tools it serves have no local list
				skipAs(framework.StateNotApplicable, "no read tool the server serves ("+strings.Join(tools, ", ")+") gave a complete local list of two or more records")
			}
			s.expect(judged > 0, nil, "no example gave a complete local list of two or more records; nothing was judged")
			s.expectNone(e, "local pages")
		})

		// A season listing more episodes than the nested bound is cut to
		// it and says truncated.
		s.ClauseItFor("VERIFY-OUTPUT-PAGING-001", "read_media.season-cut-truncated", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			const path = "/api/v2/Search/tv/moviedb/1396"
			var raw map[string]any
			s.mockRaw(http.MethodGet, path, &raw)
			list, _ := raw["seasonRequests"].([]any)
			s.expect(len(list) > 0, nil, "the mock's details of TMDB 1396 list no season")
			season, _ := list[0].(map[string]any)
			s.expect(season != nil, nil, "the first season of TMDB 1396 is no object")
			var eps []any
			for i := 1; i <= 150; i++ {
				eps = append(eps, map[string]any{"episodeNumber": i, "title": fmt.Sprintf("Episode %d", i)})
			}
			season["episodes"] = eps
			b, _ := json.Marshal(raw)
			s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: path, Status: http.StatusOK, Body: string(b)})
			o := s.call(ctx, srv, "read_media", mdDetails("tv", "tmdb", 1396))
			var page struct {
				Items []struct {
					Seasons []struct {
						SeasonNumber int   `json:"season_number"`
						Episodes     []any `json:"episodes"`
						Truncated    bool  `json:"truncated"`
					} `json:"seasons"`
				} `json:"items"`
			}
			s.okData(o, &page)
			s.expect(len(page.Items) == 1 && len(page.Items[0].Seasons) > 0, o, "want one record with seasons")
			sn := fmt.Sprint(season["seasonNumber"])
			found := false
			for _, se := range page.Items[0].Seasons {
				if fmt.Sprint(se.SeasonNumber) != sn {
					continue
				}
				found = true
				s.expect(len(se.Episodes) < 150 && se.Truncated || len(se.Episodes) == 150 && !se.Truncated, o,
					"season %s lists 150 episodes upstream; the record carries %d with truncated %t", sn, len(se.Episodes), se.Truncated)
			}
			s.expect(found, o, "season %s is missing from the record", sn)
		})
	})
}

package checks

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file declares the wire area: exact upstream calls of the core
// read branches, the literal path and query spelling, and paging honesty.
// The domain files (wire_*.go) add the rest.

func (s *Suite) wireArea() {
	ginkgo.Describe("wire", ginkgo.Label("wire", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		ginkgo.Context("read_search text movie", func() {
			for _, term := range []string{"Alien", "Alien: Resurrection/2?", "100% Amélie & co #1"} {
				s.ClauseItFor("ROUTING-RULE2-LITERAL-001", "read_search.text.movie."+term, func(ctx ginkgo.SpecContext) {
					srv := s.shared(ctx, s.allConfig())
					o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": term})
					calls := withoutLogin(o.Journal)
					s.expect(len(calls) == 1, o, "want exactly one upstream call, got %d", len(calls))
					c := calls[0]
					s.expect(c.Method == "GET" && strings.HasPrefix(c.Path, searchMoviePrefix), o,
						"want GET %s{searchTerm} with that literal spelling, got %s %s", searchMoviePrefix, c.Method, c.Path)
					seg := strings.TrimPrefix(c.Path, searchMoviePrefix)
					got, err := url.PathUnescape(seg)
					s.expect(err == nil && got == term && !strings.ContainsAny(seg, "/?# "), o,
						"the search term must be one escaped path segment decoding to %q; got segment %q", term, seg)
					s.expect(c.Query == "", o, "no query string may be sent (a local page is never forwarded); got %q", c.Query)
				})
			}
		})
		s.wireMore()
	})
}

// pageOf decodes data.page of a successful envelope.
func pageOf(o *harness.Outcome) map[string]any {
	var d struct {
		Page map[string]any `json:"page"`
	}
	if o.Envelope == nil || json.Unmarshal(o.Envelope.Data, &d) != nil {
		return nil
	}
	return d.Page
}

func (s *Suite) wireMore() {
	ginkgo.Context("behind a reverse-proxy prefix", func() {
		s.ClauseItFor("VERIFY-AUTHZ-HTTP-CLIENT-001", "prefix", func(ctx ginkgo.SpecContext) {
			up, err := harness.StartMock(mockombi.Options{BasePath: "/ombi"})
			if err != nil {
				s.fail(nil, "start a second mock under /ombi: %v", err)
			}
			defer up.Close()
			h := *s.h
			h.Upstream = up
			srv, err := h.Start(ctx, s.allConfig())
			if err != nil {
				s.fail(nil, "start the server against the prefixed mock: %v", err)
			}
			defer srv.Close()
			o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Alien"})
			all := up.Journal()
			s.expect(len(all) > 0, o, "no request reached the prefixed upstream")
			for _, c := range all {
				s.expect(strings.HasPrefix(c.Path, "/ombi/api/"), o, "%s %s lost the configured /ombi prefix", c.Method, c.Path)
			}
		})
	})
	ginkgo.Context("local paging of read_search", func() {
		s.ClauseItFor("ROUTING-RULE7-LOCAL-SLICE-001", "read_search", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Alien"})
			s.expect(o.OK(), o, "the search must succeed against the mock")
			p := pageOf(o)
			s.expect(p != nil && p["mode"] == "local" && p["total"] == nil, o, "a locally sliced search page must say mode local and total null; got page %v", p)
		})
		s.ClauseItFor("ROUTING-RULE1-PAGE-001", "default.read_search", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Alien"})
			s.expect(o.OK(), o, "the search must succeed against the mock")
			p := pageOf(o)
			s.expect(p != nil && p["offset"] == float64(0) && p["limit"] == float64(25), o, "an omitted page must mean offset 0, limit 25; got page %v", p)
		})
	})
	ginkgo.Context("read_requests list without media", func() {
		s.ClauseIt("DECISION-D3-LIST-MEDIA-001", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			o := s.call(ctx, srv, "read_requests", map[string]any{"action": "list"})
			s.expect(o.OK(), o, "read_requests {\"action\":\"list\"} must succeed")
			const want = "media not given: listed movie requests; pass media=tv or media=album for the others"
			found := false
			for _, w := range o.Envelope.Warnings {
				found = found || w == want
			}
			s.expect(found, o, "the result must carry the warning %q", want)
			calls := withoutLogin(o.Journal)
			s.expect(len(calls) > 0 && strings.Contains(strings.ToLower(calls[0].Path), "/requests/movie"), o, "movie requests must be listed")
		})
	})
}

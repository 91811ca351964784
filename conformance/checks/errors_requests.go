package checks

import (
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// rqWrite is one write call and the upstream call it makes.
type rqWrite struct {
	name   string
	tool   string
	args   map[string]any
	method string
	path   string
}

// rqWrites are one representative call of every request write tool.
var rqWrites = []rqWrite{
	{"create", "write_request_create", map[string]any{"action": "movie", "tmdb_id": 603}, "POST", "/api/v1/Request/movie"},
	{"subscribe", "write_request_subscribe", map[string]any{"action": "subscribe", "media": "movie", "request_id": 2}, "POST", "/api/v1/Request/movie/subscribe/2"},
	{"moderate", "write_request_moderate", map[string]any{"action": "approve", "media": "tv", "request_id": 2}, "POST", "/api/v1/Request/tv/approve"},
	{"delete", "write_request_delete", map[string]any{"kind": "tv_child", "request_id": 987654}, "DELETE", "/api/v1/Request/tv/child/987654"},
	{"options", "write_request_options", map[string]any{"action": "tv_root", "parent_request_id": 987654, "root_folder_id": 1}, "PUT", "/api/v1/Request/tv/root/987654/1"},
	{"reprocess", "write_request_reprocess", map[string]any{"request_type": "movie", "request_id": 987654}, "POST", "/api/v2/Requests/reprocess/1/987654/false"},
	{"retry_remove", "write_retry_remove", map[string]any{"queue_id": 987654}, "DELETE", "/api/v1/RequestRetry/987654"},
}

func (s *Suite) requestsErrors() {
	ginkgo.Describe("errors requests", ginkgo.Label("errors", "requests"), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("VERIFY-OUTPUT-SAFE-ERRORS-001", "read_requests.v2-list-null-reference", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			s.setQuirk("v2_list_null_reference", true)
			o := s.call(ctx, srv, "read_requests", map[string]any{"action": "list", "media": "tv"})
			s.wantCode(o, "UPSTREAM_REJECTED")
			s.expect(o.Envelope.Error.Retryable, o, "a 500 on a read is retryable")
			s.expect(len(upstreamCalls(o)) == 1, o, "the v2 child page is never silently swapped for another route (tvlite or v1)")
			s.expect(!strings.Contains(o.Text, "Object reference"), o, "the upstream exception text must not be forwarded")
		}, ginkgo.Label(LabelReadOnly))

		s.ClauseItFor("RESULTS-ERRORS-RETRYABLE-001", "read_requests.timeout", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, harness.Config{Bundles: harness.AllBundles, AuthMode: "api_key", Timeout: "1s"})
			s.injectFault(mockombi.Fault{Method: "GET", Path: "/api/v1/Request/count", DelayMS: 2500})
			o := s.call(ctx, srv, "read_request_stats", map[string]any{"action": "counts"})
			s.wantCode(o, "TIMEOUT")
			s.expect(o.Envelope.Error.Retryable, o, "a read past the deadline is retryable")
			rqSettle(ctx, 2*time.Second) // let the abandoned call land in this check's journal
		}, ginkgo.Label(LabelReadOnly))

		s.ClauseItFor("RESULTS-BUSINESS-FAILURE-001", "write_request_create.already-requested", func(ctx ginkgo.SpecContext) {
			s.liveExisting("movie request")
			srv := s.shared(ctx, apiKeyConfig())
			movies := s.rqRawMovies()
			s.liveNeedsData(len(movies) > 0, "a movie request")
			s.expect(len(movies) > 0, nil, "the mock must hold a movie request")
			tmdb := rqNum(movies[0]["theMovieDbId"])
			o := s.call(ctx, srv, "write_request_create", map[string]any{"action": "movie", "tmdb_id": tmdb})
			s.oneCall(o, "POST", "/api/v1/Request/movie")
			s.wantCode(o, "UPSTREAM_REJECTED")
			s.expect(!o.Envelope.Error.Retryable, o, "a business failure of a write is not retryable")
			s.expect(strings.Contains(o.Envelope.Error.Message, "already been requested"), o,
				"the sanitised business message must be kept, got %q", o.Envelope.Error.Message)
			s.expect(len(o.Envelope.Data) == 0 || string(o.Envelope.Data) == "null", o, "a failed write carries no data (no invented id)")
		})

		s.ClauseItFor("VERIFY-OUTPUT-BUSINESS-FAILURE-001", "write_request_moderate.missing-request", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			o := s.call(ctx, srv, "write_request_moderate", map[string]any{"action": "approve", "media": "movie", "request_id": 987654})
			s.oneCall(o, "POST", "/api/v1/Request/movie/approve")
			s.SkipGated(o)
			s.wantCode(o, "UPSTREAM_REJECTED")
			s.expect(strings.Contains(o.Envelope.Error.Message, "does not exist"), o, "the business message must be kept, got %q", o.Envelope.Error.Message)
		})

		s.ClauseItFor("VERIFY-OUTPUT-UNKNOWN-OUTCOME-001", "write_request_create.timeout", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, harness.Config{Bundles: harness.AllBundles, AuthMode: "api_key", Timeout: "1s"})
			start := len(s.h.Upstream.Journal())
			s.injectFault(mockombi.Fault{Method: "POST", Path: "/api/v1/Request/movie", DelayMS: 2500})
			o := s.call(ctx, srv, "write_request_create", map[string]any{"action": "movie", "tmdb_id": s.rqFreshMovie()})
			s.wantCode(o, "UNKNOWN_OUTCOME")
			s.expect(!o.Envelope.Error.Retryable, o, "a write past the deadline may have happened: UNKNOWN_OUTCOME is never retryable")
			rqSettle(ctx, 2*time.Second)
			posts := s.rqJournalSince(start, "POST", "/api/v1/Request/movie", 0)
			s.expect(len(posts) == 1, o, "the write must be sent exactly once (never replayed), got %d POSTs", len(posts))
		})

		for _, w := range rqWrites {
			s.ClauseItFor("VERIFY-OUTPUT-UNKNOWN-OUTCOME-001", w.tool+"."+w.name+".reset", func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, apiKeyConfig())
				start := len(s.h.Upstream.Journal())
				s.injectFault(mockombi.Fault{Method: w.method, Path: w.path, Kind: "reset"})
				o := s.call(ctx, srv, w.tool, w.args)
				s.wantCode(o, "UNKNOWN_OUTCOME")
				s.expect(!o.Envelope.Error.Retryable, o, "a lost answer to a write is not retryable")
				calls := s.rqJournalSince(start, w.method, w.path, time.Second)
				s.expect(len(calls) == 1, o, "the write must be sent exactly once, got %d", len(calls))
			})
		}

		s.ClauseItFor("VERIFY-AUTHZ-NO-REPLAY-001", "write_request_create.401", func(ctx ginkgo.SpecContext) {
			srv := s.fresh(ctx, jwtConfig())
			tmdb := s.rqFreshMovie()
			s.injectFault(mockombi.Fault{Method: "POST", Path: "/api/v1/Request/movie", Status: 401, Times: 1})
			o := s.call(ctx, srv, "write_request_create", map[string]any{"action": "movie", "tmdb_id": tmdb})
			s.wantCode(o, "AUTHENTICATION_FAILED")
			posts := 0
			for _, c := range upstreamCalls(o) {
				if c.Method == "POST" && c.Path == "/api/v1/Request/movie" {
					posts++
				}
			}
			s.expect(posts == 1, o, "a write answered 401 is never replayed after a re-login; got %d POSTs", posts)
			for _, m := range s.rqRawMovies() {
				s.expect(rqNum(m["theMovieDbId"]) != tmdb, o, "the write was replayed: TMDB %d is now requested", tmdb)
			}
		})

		s.ClauseItFor("VERIFY-AUTHZ-PRINCIPAL-001", "read_request_stats.quota.follows-principal", func(ctx ginkgo.SpecContext) {
			user := s.shared(ctx, s.plainUserConfig())
			before := s.rqMetrics(s.call(ctx, user, "read_request_stats", map[string]any{"action": "quota", "media": "movie"}))
			rem, ok := before["remaining"].(float64)
			s.expect(before["has_limit"] == true && ok, nil, "the plain user has a movie limit; quota %v", before)
			o := s.call(ctx, user, "write_request_create", map[string]any{"action": "movie", "tmdb_id": s.rqFreshMovie()})
			after := s.rqMetrics(s.call(ctx, user, "read_request_stats", map[string]any{"action": "quota", "media": "movie"}))
			if rem == 0 {
				s.wantCode(o, "UPSTREAM_REJECTED")
				s.expect(after["remaining"] == 0.0, o, "an exhausted quota stays exhausted")
				return
			}
			s.expect(o.OK(), o, "the user has quota left (%v): the request must succeed", rem)
			s.expect(after["remaining"] == rem-1, o, "the principal's remaining quota must drop by one: %v -> %v", rem, after["remaining"])
			admin := s.rqMetrics(s.call(ctx, s.shared(ctx, s.adminConfig()), "read_request_stats", map[string]any{"action": "quota", "media": "movie"}))
			s.expect(admin["has_limit"] == false, nil, "the quota is per principal: the admin's stays unlimited, got %v", admin)
		})
	})
}

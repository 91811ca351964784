package checks

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file declares the errors area: upstream statuses, timeouts and
// business failures become the documented typed errors, in every domain.

func (s *Suite) errorsArea() {
	ginkgo.Describe("errors", ginkgo.Label("errors", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		ginkgo.Context("when upstream answers 500 to a read", func() {
			s.ClauseItFor("VERIFY-ERROR-BOUNDARIES-001", "read_search.500", func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, s.allConfig())
				s.injectFault(mockombi.Fault{Method: "GET", Path: searchMoviePrefix + "*", Status: 500,
					Body: `{"error":"Server=db;Password=hunter2","stackTrace":"at Ombi.Controllers"}`})
				o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Alien"})
				s.expect(o.Envelope != nil && !o.Envelope.OK && o.Result.IsError, o, "an upstream 500 must be a tool error")
				s.expect(o.ErrorCode() == "UPSTREAM_REJECTED", o, "an upstream 500 must map to UPSTREAM_REJECTED, got %q", o.ErrorCode())
				s.expect(o.Envelope.Error.Retryable, o, "a 500 on a read is retryable")
				for _, leak := range []string{"hunter2", "stackTrace", "Ombi.Controllers"} {
					s.expect(!strings.Contains(o.Text, leak), o, "the error carries upstream body text %q", leak)
				}
			})
		})
		s.errorsTable()
		s.errorsTimeouts()
		s.upstreamClientChecks()
	})
}

// statusCase is one upstream failure and the envelope error it must become.
type statusCase struct {
	name      string
	fault     mockombi.Fault
	code      string
	retryable bool
	check     func(s *Suite, o *harness.Outcome)
}

func (s *Suite) statusCases() []statusCase {
	return []statusCase{
		{name: "401", fault: mockombi.Fault{Status: 401, Body: "Unauthorized"}, code: "AUTHENTICATION_FAILED"},
		{name: "403", fault: mockombi.Fault{Status: 403}, code: "FORBIDDEN"},
		{name: "404-html", fault: mockombi.Fault{Status: 404, Kind: "html"}, code: "NOT_FOUND", check: func(s *Suite, o *harness.Outcome) {
			s.expect(!strings.Contains(strings.ToLower(o.Text), "<html"), o, "an HTML error page must never be forwarded")
		}},
		{name: "429", fault: mockombi.Fault{Status: 429, Headers: map[string]string{"Retry-After": "7"}}, code: "RATE_LIMITED", retryable: true, check: func(s *Suite, o *harness.Outcome) {
			e := o.Envelope.Error
			s.expect(e.RetryAfterSeconds != nil && *e.RetryAfterSeconds == 7, o, "retry_after_seconds must carry the Retry-After value 7")
		}},
		{name: "502-html", fault: mockombi.Fault{Status: 502, Kind: "html"}, code: "UPSTREAM_REJECTED", retryable: true},
		{name: "malformed-json", fault: mockombi.Fault{Kind: "malformed"}, code: "UPSTREAM_SCHEMA_MISMATCH"},
	}
}

func (s *Suite) errorsTable() {
	ginkgo.Context("when upstream fails a read", func() {
		for _, tc := range s.statusCases() {
			s.ClauseItFor("VERIFY-OUTPUT-SAFE-ERRORS-001", "read_search."+tc.name, func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, s.allConfig())
				f := tc.fault
				f.Method, f.Path = "GET", searchMoviePrefix+"*"
				s.injectFault(f)
				o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Alien"})
				s.expect(o.Envelope != nil && !o.Envelope.OK && o.Envelope.Error != nil, o, "an upstream failure must be a tool error")
				s.expect(o.ErrorCode() == tc.code, o, "want error code %s, got %q", tc.code, o.ErrorCode())
				s.expect(o.Envelope.Error.Retryable == tc.retryable, o, "want retryable %v on a read", tc.retryable)
				if tc.check != nil {
					tc.check(s, o)
				}
			})
		}
	})
}

func (s *Suite) errorsTimeouts() {
	ginkgo.Context("when upstream answers after the deadline", func() {
		s.ClauseItFor("RESULTS-ERRORS-RETRYABLE-001", "read", func(ctx ginkgo.SpecContext) {
			srv := s.fresh(ctx, harness.Config{Bundles: "core", AuthMode: "api_key", Timeout: "1s"})
			s.injectFault(mockombi.Fault{Method: "GET", Path: searchMoviePrefix + "*", DelayMS: 3000, Status: 200, Body: "[]"})
			o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Alien"})
			s.expect(o.ErrorCode() == "TIMEOUT" && o.Envelope.Error.Retryable, o, "a read past the deadline must be TIMEOUT and retryable")
		})
		s.ClauseItFor("RESULTS-ERRORS-RETRYABLE-001", "write", func(ctx ginkgo.SpecContext) {
			srv := s.fresh(ctx, harness.Config{Bundles: "core", AuthMode: "api_key", Timeout: "1s"})
			s.injectFault(mockombi.Fault{Method: "POST", Path: "/api/**", DelayMS: 3000})
			start := len(s.h.Upstream.Journal())
			o := s.call(ctx, srv, "write_request_create", s.validExample("write_request_create"))
			// The mock journals a request when it answers, after the delay.
			posted := false
			for deadline := time.Now().Add(5 * time.Second); !posted && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				for _, c := range s.h.Upstream.Journal()[start:] {
					posted = posted || c.Method == "POST"
				}
			}
			s.expect(posted, o, "the write must have been sent upstream")
			s.expect(o.ErrorCode() == "UNKNOWN_OUTCOME" && !o.Envelope.Error.Retryable, o,
				"a write sent upstream whose answer missed the deadline may have happened: UNKNOWN_OUTCOME, not retryable")
		})
	})
	ginkgo.Context("when upstream answers 500 with problem details", func() {
		s.ClauseItFor("RESULTS-ERRORS-SANITIZE-001", "read_search.problem-details", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			secrets := []string{"Server=db.internal;Password=hunter2", "at Ombi.Core.Engine.MovieSearchEngine", "trace-7f3a", "X-Api-Key: abc123"}
			body, _ := json.Marshal(map[string]any{"type": "about:blank", "title": "Internal", "status": 500,
				"detail": secrets[0], "stackTrace": secrets[1], "traceId": secrets[2], "extensions": map[string]any{"headers": secrets[3]}})
			s.injectFault(mockombi.Fault{Method: "GET", Path: searchMoviePrefix + "*", Status: 500,
				Headers: map[string]string{"Content-Type": "application/problem+json"}, Body: string(body)})
			o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Alien"})
			s.expect(o.Envelope != nil && !o.Envelope.OK, o, "an upstream 500 must be a tool error")
			for _, secret := range secrets {
				s.expect(!strings.Contains(string(o.Structured)+o.Text+srv.StderrAll(), secret), o, "problem details were forwarded: %q", secret)
			}
		})
	})
}

func (s *Suite) mediaErrors() {
	ginkgo.Describe("errors media", ginkgo.Label("errors", LabelReadOnly, "media"), func() {
		ginkgo.BeforeEach(s.clean)
		families := []struct {
			family, tool, method, path string
			args                       map[string]any
		}{
			{"media_page", "read_discover", "GET", "/api/v2/Search/movie/popular/**", map[string]any{"action": "browse", "media": "movie", "list": "popular"}},
			{"reference_page", "read_reference", "GET", "/api/v2/Search/Languages", map[string]any{"action": "languages"}},
		}
		cases := append(s.statusCases(), statusCase{name: "500", fault: mockombi.Fault{Status: 500, Body: `{"error":"Object reference not set","stackTrace":"at Ombi.Core"}`},
			code: "UPSTREAM_REJECTED", retryable: true, check: func(s *Suite, o *harness.Outcome) {
				s.expect(!strings.Contains(o.Text, "Object reference") && !strings.Contains(o.Text, "Ombi.Core"), o, "the upstream exception text must not be forwarded")
			}})
		for _, f := range families {
			for _, tc := range cases {
				s.ClauseItFor("VERIFY-OUTPUT-SAFE-ERRORS-001", f.tool+"."+f.family+"."+tc.name, func(ctx ginkgo.SpecContext) {
					srv := s.shared(ctx, apiKeyConfig())
					flt := tc.fault
					flt.Method, flt.Path = f.method, f.path
					s.injectFault(flt)
					o := s.call(ctx, srv, f.tool, f.args)
					s.expect(o.Envelope != nil && !o.Envelope.OK && o.Envelope.Error != nil, o, "an upstream failure must be a tool error")
					s.expect(o.ErrorCode() == tc.code, o, "want error code %s, got %q", tc.code, o.ErrorCode())
					s.expect(o.Envelope.Error.Retryable == tc.retryable, o, "want retryable %v on a read", tc.retryable)
					s.expect(!strings.Contains(strings.ToLower(mdOutput(o)), "<html"), o, "no HTML may reach the result")
					if tc.check != nil {
						tc.check(s, o)
					}
				})
			}
		}

		s.ClauseItFor("RESULTS-ERRORS-SANITIZE-001", "read_search.500.no-credentials", func(ctx ginkgo.SpecContext) {
			srv := s.fresh(ctx, harness.Config{Bundles: "core", AuthMode: "jwt"})
			start := len(s.h.Upstream.Journal())
			s.injectFault(mockombi.Fault{Method: "GET", Path: "/api/v1/Search/tv/*", Status: 500, Body: `{"error":"boom"}`})
			o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "tv", "query": "Breaking"})
			s.expect(o.ErrorCode() == "UPSTREAM_REJECTED", o, "an upstream 500 is UPSTREAM_REJECTED, got %q", o.ErrorCode())
			secrets := map[string]string{"the word Bearer": "Bearer", "the word Authorization": "Authorization", "the word ApiKey": "ApiKey"}
			creds := s.h.Upstream.Credentials()
			secrets["the API key"], secrets["the password"] = creds.APIKey, creds.Password
			for _, c := range s.h.Upstream.Journal()[start:] {
				if tok := strings.TrimPrefix(c.Header.Get("Authorization"), "Bearer "); len(tok) >= 16 {
					secrets["the bearer token"], secrets["the bearer token's tail"] = tok, tok[len(tok)-16:]
				}
			}
			s.expect(secrets["the bearer token"] != "", o, "jwt mode must have sent a bearer token upstream")
			out := mdOutput(o) + srv.StderrAll()
			for what, v := range secrets {
				s.expect(len(v) < 6 || !strings.Contains(out, v), o, "the error or stderr carries %s", what)
			}
		})
	})
}

func (s *Suite) adminErrors() {
	ginkgo.Describe("errors administration", ginkgo.Label("errors", LabelReadOnly, "administration"), func() {
		ginkgo.BeforeEach(s.clean)

		for name, args := range map[string]map[string]any{
			"list":       {"action": "list"},
			"by-request": {"action": "by_request", "media": "movie", "request_id": 4},
		} {
			s.ClauseItFor("VERIFY-ERROR-BOUNDARIES-001", "read_votes.500-stays-an-error."+name, func(ctx ginkgo.SpecContext) {
				s.setQuirk("vote_read_500", true)
				srv := s.shared(ctx, s.adminConfig())
				o := s.call(ctx, srv, "read_votes", args)
				s.wantCode(o, "UPSTREAM_REJECTED")
				s.expect(len(o.Envelope.Data) == 0, o, "an upstream 500 is never turned into an empty vote page")
			})
		}

		s.ClauseItFor("VERIFY-AUTHZ-NO-FALLBACK-001", "read_logs.unknown-file-id", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			o := s.call(ctx, srv, "read_logs", map[string]any{"action": "read", "file_id": "log20261129"})
			s.wantCode(o, "INVALID_ARGUMENT")
			for _, c := range upstreamCalls(o) {
				s.expect(c.Path == "/api/v2/System/logs", o, "an unknown file id must never read or download a file: %s", callLine(c))
			}
		})
	})
}

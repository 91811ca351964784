package conformance

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

const (
	searchMoviePrefix = "/api/v1/Search/movie/"
	tokenPath         = "/api/v1/Token"
)

// withoutLogin drops token requests from a journal slice.
func withoutLogin(calls []mockombi.Call) []mockombi.Call {
	var out []mockombi.Call
	for _, c := range calls {
		if !isLogin(c) {
			out = append(out, c)
		}
	}
	return out
}

func isLogin(c mockombi.Call) bool {
	return c.Method == "POST" && strings.EqualFold(strings.TrimSuffix(pathOnly(c.Path), "/"), tokenPath)
}

func pathOnly(p string) string {
	if i := strings.IndexByte(p, '?'); i >= 0 {
		return p[:i]
	}
	return p
}

func (s *suite) wireArea() {
	ginkgo.Describe("wire", ginkgo.Label("wire", LabelNeedsMock, LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		ginkgo.Context("read_search text movie", func() {
			for _, term := range []string{"Alien", "Alien: Resurrection/2?", "100% Amélie & co #1"} {
				ClauseItFor("ROUTING-RULE2-LITERAL-001", "read_search.text.movie."+term, func(ctx ginkgo.SpecContext) {
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

func (s *suite) wireMore() {
	ginkgo.Context("behind a reverse-proxy prefix", func() {
		ClauseItFor("VERIFY-AUTHZ-HTTP-CLIENT-001", "prefix", func(ctx ginkgo.SpecContext) {
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
		ClauseItFor("ROUTING-RULE7-LOCAL-SLICE-001", "read_search", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Alien"})
			s.expect(o.Envelope.OK, o, "the search must succeed against the mock")
			p := pageOf(o)
			s.expect(p != nil && p["mode"] == "local" && p["total"] == nil, o, "a locally sliced search page must say mode local and total null; got page %v", p)
		})
		ClauseItFor("ROUTING-RULE1-PAGE-001", "default.read_search", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Alien"})
			s.expect(o.Envelope.OK, o, "the search must succeed against the mock")
			p := pageOf(o)
			s.expect(p != nil && p["offset"] == float64(0) && p["limit"] == float64(25), o, "an omitted page must mean offset 0, limit 25; got page %v", p)
		})
	})
	ginkgo.Context("read_requests list without media", func() {
		ClauseIt("DECISION-D3-LIST-MEDIA-001", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			o := s.call(ctx, srv, "read_requests", map[string]any{"action": "list"})
			s.expect(o.Envelope.OK, o, "read_requests {\"action\":\"list\"} must succeed")
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

func (s *suite) errorsArea() {
	ginkgo.Describe("errors", ginkgo.Label("errors", LabelNeedsMock, LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		ginkgo.Context("when upstream answers 500 to a read", func() {
			ClauseItFor("VERIFY-ERROR-BOUNDARIES-001", "read_search.500", func(ctx ginkgo.SpecContext) {
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
	})
}

func (s *suite) authArea() {
	ginkgo.Describe("auth", ginkgo.Label("auth", LabelNeedsMock, LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		read := map[string]any{"action": "text", "media": "movie", "query": "Alien"}
		s.modeChecks()
		ginkgo.Context("in jwt mode", func() {
			ClauseItFor("VERIFY-AUTH-STARTUP-001", "jwt.login-once", func(ctx ginkgo.SpecContext) {
				start := len(s.h.Upstream.Journal())
				srv := s.fresh(ctx, harness.Config{Bundles: "core", AuthMode: "jwt"})
				o1 := s.call(ctx, srv, "read_search", read)
				o2 := s.call(ctx, srv, "read_search", read)
				all := s.h.Upstream.Journal()[start:]
				logins := len(all) - len(withoutLogin(all))
				s.expect(o1.ErrorCode() != "AUTHENTICATION_FAILED" && o2.ErrorCode() != "AUTHENTICATION_FAILED", o2, "the configured user must be accepted")
				s.expect(logins == 1, o2, "want exactly one POST %s for two reads (token cached and reused), got %d", tokenPath, logins)
				for _, c := range withoutLogin(append(o1.Journal, o2.Journal...)) {
					s.expect(strings.HasPrefix(c.Header.Get("Authorization"), "Bearer "), o2, "%s %s was sent without the bearer token", c.Method, c.Path)
				}
			})
		})
		ginkgo.Context("in api_key mode", func() {
			ClauseItFor("VERIFY-AUTH-STARTUP-001", "api_key.no-token", func(ctx ginkgo.SpecContext) {
				start := len(s.h.Upstream.Journal())
				srv := s.fresh(ctx, harness.Config{Bundles: "core", AuthMode: "api_key"})
				o := s.call(ctx, srv, "read_search", read)
				s.expect(o.ErrorCode() != "AUTHENTICATION_FAILED", o, "the configured API key must be accepted")
				s.expect(len(o.Journal) > 0, o, "the read must reach upstream")
				all := s.h.Upstream.Journal()[start:]
				for _, c := range all {
					s.expect(!isLogin(c), o, "api_key mode must never call %s", tokenPath)
					s.expect(c.Header.Get("Authorization") == "", o, "api_key mode must never send Authorization (%s %s did)", c.Method, c.Path)
					s.expect(c.Header.Get("ApiKey") == s.h.Upstream.Credentials().APIKey, o, "%s %s did not carry the configured ApiKey", c.Method, c.Path)
					s.expect(c.Header.Get("UserName") == "", o, "UserName must be sent only when configured (%s %s sent one)", c.Method, c.Path)
				}
			})
		})
	})
}

// canaryForms returns the raw, JSON-escaped, URL-encoded and base64 forms
// of a planted secret.
func canaryForms(v string) []string {
	j, _ := json.Marshal(v)
	forms := []string{v, strings.Trim(string(j), `"`), url.QueryEscape(v), url.PathEscape(v), base64.StdEncoding.EncodeToString([]byte(v))}
	var out []string
	seen := map[string]bool{}
	for _, f := range forms {
		if len(f) >= 6 && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

func (s *suite) leakArea() {
	ginkgo.Describe("leak", ginkgo.Label("leak", LabelNeedsMock, LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		for _, t := range spec.Tools() {
			if !t.Annotations.ReadOnlyHint {
				continue
			}
			name := t.Name
			ClauseItFor("VERIFY-OUTPUT-NESTED-SECRETS-001", name, func(ctx ginkgo.SpecContext) {
				canaries, err := s.h.Upstream.Canaries()
				if err != nil {
					s.fail(nil, "fetch canaries: %v", err)
				}
				s.expect(len(canaries) > 0, nil, "the mock planted no canaries; nothing to check")
				srv := s.shared(ctx, s.allConfig())
				var e errs
				check := func(where, text string) {
					for _, c := range canaries {
						for _, f := range canaryForms(c.Value) {
							if strings.Contains(text, f) {
								e.addf("%s carries canary %s (planted at %s) as %q", where, c.Name, c.Where, f)
							}
						}
					}
				}
				for _, ex := range s.table(name).Valid {
					o := s.call(ctx, srv, name, ex.Args)
					check(fmt.Sprintf("%s %s: result", name, clip(ex.Args, 200)), string(o.Structured)+"\n"+o.Text)
				}
				check("server stderr", srv.StderrAll())
				s.expectNone(e, "planted secrets leaked")
			})
		}
	})
}

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

func (s *suite) budgetArea() {
	ginkgo.Describe("budget", ginkgo.Label("budget", LabelNeedsMock, LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		ginkgo.Context("when upstream returns hundreds of long search records", func() {
			ClauseItFor("RESULTS-BUDGET-001", "read_search.large", func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, s.allConfig())
				s.injectFault(mockombi.Fault{Method: "GET", Path: searchMoviePrefix + "*", Status: 200,
					Headers: map[string]string{"Content-Type": "application/json"}, Body: largeSearchBody(400)})
				o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Generated"})
				s.expect(o.Envelope.OK, o, "a large answer is still a result")
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

// statusCase is one upstream failure and the envelope error it must become.
type statusCase struct {
	name      string
	fault     mockombi.Fault
	code      string
	retryable bool
	check     func(s *suite, o *harness.Outcome)
}

func (s *suite) statusCases() []statusCase {
	return []statusCase{
		{name: "401", fault: mockombi.Fault{Status: 401, Body: "Unauthorized"}, code: "AUTHENTICATION_FAILED"},
		{name: "403", fault: mockombi.Fault{Status: 403}, code: "FORBIDDEN"},
		{name: "404-html", fault: mockombi.Fault{Status: 404, Kind: "html"}, code: "NOT_FOUND", check: func(s *suite, o *harness.Outcome) {
			s.expect(!strings.Contains(strings.ToLower(o.Text), "<html"), o, "an HTML error page must never be forwarded")
		}},
		{name: "429", fault: mockombi.Fault{Status: 429, Headers: map[string]string{"Retry-After": "7"}}, code: "RATE_LIMITED", retryable: true, check: func(s *suite, o *harness.Outcome) {
			e := o.Envelope.Error
			s.expect(e.RetryAfterSeconds != nil && *e.RetryAfterSeconds == 7, o, "retry_after_seconds must carry the Retry-After value 7")
		}},
		{name: "502-html", fault: mockombi.Fault{Status: 502, Kind: "html"}, code: "UPSTREAM_REJECTED", retryable: true},
		{name: "malformed-json", fault: mockombi.Fault{Kind: "malformed"}, code: "UPSTREAM_SCHEMA_MISMATCH"},
	}
}

func (s *suite) errorsTable() {
	ginkgo.Context("when upstream fails a read", func() {
		for _, tc := range s.statusCases() {
			ClauseItFor("VERIFY-OUTPUT-SAFE-ERRORS-001", "read_search."+tc.name, func(ctx ginkgo.SpecContext) {
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

func (s *suite) errorsTimeouts() {
	ginkgo.Context("when upstream answers after the deadline", func() {
		ClauseItFor("RESULTS-ERRORS-RETRYABLE-001", "read", func(ctx ginkgo.SpecContext) {
			srv := s.fresh(ctx, harness.Config{Bundles: "core", AuthMode: "api_key", Timeout: "1s"})
			s.injectFault(mockombi.Fault{Method: "GET", Path: searchMoviePrefix + "*", DelayMS: 3000, Status: 200, Body: "[]"})
			o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Alien"})
			s.expect(o.ErrorCode() == "TIMEOUT" && o.Envelope.Error.Retryable, o, "a read past the deadline must be TIMEOUT and retryable")
		})
		ClauseItFor("RESULTS-ERRORS-RETRYABLE-001", "write", func(ctx ginkgo.SpecContext) {
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
		ClauseItFor("RESULTS-ERRORS-SANITIZE-001", "read_search.problem-details", func(ctx ginkgo.SpecContext) {
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

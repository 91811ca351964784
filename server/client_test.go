package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/h2non/gock"
	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

const testBase = "http://ombi.test"

// newTestClient builds a client whose HTTP traffic gock intercepts. Every
// test leaves gock clean and fails on unmatched requests or pending mocks.
func newTestClient(t *testing.T, o Options) *ombi.Client {
	t.Helper()
	if o.URL == "" {
		o.URL = testBase
	}
	if o.AuthMode == "" {
		o.AuthMode, o.Username, o.Password = AuthJWT, "alice", "s3cret-pass"
	}
	hc := &http.Client{Transport: &http.Transport{}}
	gock.InterceptClient(hc)
	o.HTTPClient = hc
	c, err := newClient(o)
	if err != nil {
		t.Fatalf("newClient: %v", err)
	}
	t.Cleanup(func() {
		if gock.HasUnmatchedRequest() {
			t.Errorf("unmatched upstream requests: %d", len(gock.GetUnmatchedRequests()))
		}
		if !gock.IsDone() {
			t.Errorf("expected upstream calls were not made")
		}
		gock.Off()
		gock.CleanUnmatchedRequest()
	})
	return c
}

// expect declares one upstream call matched on method and the exact escaped
// path (prefix included).
func expect(method, escapedPath string) *gock.Request {
	decoded, _ := url.PathUnescape(escapedPath)
	r := gock.New(testBase)
	r.Method = method
	r.URLStruct.Path = "^" + regexp.QuoteMeta(decoded) + "$"
	return r.AddMatcher(func(req *http.Request, _ *gock.Request) (bool, error) {
		return req.URL.EscapedPath() == escapedPath, nil
	})
}

func expectLogin(token string) *gock.Request {
	r := expect(http.MethodPost, "/api/v1/Token")
	r.Reply(http.StatusOK).JSON(map[string]any{"access_token": token, "expiration": "2030-01-01T00:00:00Z"})
	return r
}

func readCtx() context.Context { return ombi.WithIntent(context.Background(), false) }

func writeCtx() context.Context { return ombi.WithIntent(context.Background(), true) }

func TestClient_jwt_renewsOnceOn401ForReads(t *testing.T) {
	c := newTestClient(t, Options{})
	expectLogin("tok-1")
	expect(http.MethodGet, "/api/v1/Search/movie/alien").MatchHeader("Authorization", "^Bearer tok-1$").Reply(http.StatusUnauthorized)
	expectLogin("tok-2")
	expect(http.MethodGet, "/api/v1/Search/movie/alien").MatchHeader("Authorization", "^Bearer tok-2$").Reply(http.StatusOK).JSON([]map[string]any{{"id": 1, "title": "Alien"}})

	got, err := c.SearchMovie(readCtx(), "alien")
	if err != nil {
		t.Fatalf("searchMovie: %v", err)
	}
	if len(got) != 1 || got[0].Title != "Alien" {
		t.Fatalf("searchMovie = %+v, want one Alien", got)
	}
	// The renewed token is cached: a further read logs in no more.
	expect(http.MethodGet, "/api/v1/Search/movie/alien").MatchHeader("Authorization", "^Bearer tok-2$").Reply(http.StatusOK).JSON([]any{})
	if _, err := c.SearchMovie(readCtx(), "alien"); err != nil {
		t.Fatalf("second searchMovie: %v", err)
	}
}

func TestClient_jwt_secondUnauthorizedIsFinal(t *testing.T) {
	c := newTestClient(t, Options{})
	expectLogin("tok-1")
	expect(http.MethodGet, "/api/v2/Search/Languages").Reply(http.StatusUnauthorized)
	expectLogin("tok-2")
	expect(http.MethodGet, "/api/v2/Search/Languages").Reply(http.StatusUnauthorized)

	_, err := c.Languages(readCtx())
	var api *ombi.APIError
	if !errors.As(err, &api) || api.Status != http.StatusUnauthorized {
		t.Fatalf("languages error = %v, want ombi.APIError 401", err)
	}
	if got := errorObject(err, false).Code; got != codeAuthenticationFailed {
		t.Fatalf("mapped code = %s, want %s", got, codeAuthenticationFailed)
	}
}

func TestClient_jwt_neverReplaysWrite(t *testing.T) {
	c := newTestClient(t, Options{})
	expectLogin("tok-1")
	post := expect(http.MethodPost, "/api/v1/Search/movie/actor")
	post.Reply(http.StatusUnauthorized)

	req, err := c.NewRequest(writeCtx(), http.MethodPost, "api/v1/Search/movie/actor", ombi.ActorBody{SearchTerm: "x"})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Do(req, nil)
	if o := errorObject(err, true); o.Code != codeAuthenticationFailed || o.Retryable {
		t.Fatalf("write 401 mapped to %+v, want non-retryable AUTHENTICATION_FAILED", o)
	}
	// gock's cleanup fails the test if a second login or a replay were made:
	// no further mocks are declared.
}

func TestClient_jwt_loginRejected(t *testing.T) {
	c := newTestClient(t, Options{})
	expect(http.MethodPost, "/api/v1/Token").Reply(http.StatusUnauthorized).BodyString(`{"title":"Unauthorized","status":401}`)
	_, err := c.Languages(readCtx())
	if o := errorObject(err, false); o.Code != codeAuthenticationFailed {
		t.Fatalf("login 401 mapped to %+v", o)
	}
}

func TestClient_apiKey_headers(t *testing.T) {
	tests := []struct {
		name     string
		userName string
	}{
		{name: "key only"},
		{name: "key and user", userName: "bob"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestClient(t, Options{AuthMode: AuthAPIKey, APIKey: "k-123", UserName: tt.userName})
			expect(http.MethodGet, "/api/v1/Issues/categories").
				MatchHeader("ApiKey", "^k-123$").
				AddMatcher(func(req *http.Request, _ *gock.Request) (bool, error) {
					return req.Header.Get("Authorization") == "" && req.Header.Get("UserName") == tt.userName, nil
				}).
				Reply(http.StatusOK).JSON([]map[string]any{{"id": 1, "value": "Wrong audio"}})
			if _, err := c.IssueCategories(readCtx()); err != nil {
				t.Fatalf("issueCategories: %v", err)
			}
		})
	}
}

func TestClient_apiKey_unauthorizedNeverLogsIn(t *testing.T) {
	c := newTestClient(t, Options{AuthMode: AuthAPIKey, APIKey: "bad"})
	expect(http.MethodGet, "/api/v1/Issues/categories").Reply(http.StatusUnauthorized).BodyString("Invalid API Key")
	_, err := c.IssueCategories(readCtx())
	if o := errorObject(err, false); o.Code != codeAuthenticationFailed || strings.Contains(o.Message, "Invalid API Key") {
		t.Fatalf("mapped to %+v", o)
	}
}

func TestClient_prefixKeptAndEscaping(t *testing.T) {
	tests := []struct {
		name string
		call func(*ombi.Client) error
		path string
		qry  string
	}{
		{"space and slash", func(c *ombi.Client) error { _, err := c.SearchMovie(readCtx(), "a/b c"); return err }, "/ombi/api/v1/Search/movie/a%2Fb%20c", ""},
		{"question and percent", func(c *ombi.Client) error { _, err := c.SearchTV(readCtx(), "50%?x"); return err }, "/ombi/api/v1/Search/tv/50%25%3Fx", ""},
		{"hash and unicode", func(c *ombi.Client) error { _, err := c.SearchArtist(readCtx(), "Sigur Rós #1"); return err }, "/ombi/api/v1/Search/music/artist/Sigur%20R%C3%B3s%20%231", ""},
		{"query value", func(c *ombi.Client) error { _, err := c.Keywords(readCtx(), "a&b=c"); return err }, "/ombi/api/v1/TheMovieDb/Keywords", "searchTerm=a%26b%3Dc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestClient(t, Options{URL: testBase + "/ombi/", AuthMode: AuthAPIKey, APIKey: "k"})
			expect(http.MethodGet, tt.path).AddMatcher(func(req *http.Request, _ *gock.Request) (bool, error) {
				return req.URL.RawQuery == tt.qry, nil
			}).Reply(http.StatusOK).JSON([]any{})
			if err := tt.call(c); err != nil {
				t.Fatalf("call: %v", err)
			}
		})
	}
}

func TestClient_newRequest_refusesTraversal(t *testing.T) {
	c := newTestClient(t, Options{AuthMode: AuthAPIKey, APIKey: "k"})
	for _, term := range []string{"..", ".", "%2e%2e"} {
		_, err := c.SearchMovie(readCtx(), term)
		if term == "%2e%2e" {
			// escaped again by url.PathEscape: a literal string, allowed
			continue
		}
		if !errors.Is(err, ombi.ErrPathValue) {
			t.Errorf("searchMovie(%q) error = %v, want ombi.ErrPathValue", term, err)
		}
	}
	for _, rel := range []string{"/api/v1/Status", "http://evil.test/x", "api/v1/../x", "api//x"} {
		if _, err := c.NewRequest(readCtx(), http.MethodGet, rel, nil); err == nil {
			t.Errorf("newRequest(%q) succeeded, want refusal", rel)
		}
	}
}

func TestClient_escapedDotsStayLiteral(t *testing.T) {
	c := newTestClient(t, Options{AuthMode: AuthAPIKey, APIKey: "k"})
	expect(http.MethodGet, "/api/v1/Search/movie/%252e%252e").Reply(http.StatusOK).JSON([]any{})
	if _, err := c.SearchMovie(readCtx(), "%2e%2e"); err != nil {
		t.Fatalf("searchMovie: %v", err)
	}
}

// TestClient_redirectCrossOriginRefused: a redirect off OMBI_URL's origin is
// never followed (client_policy_test.go covers the login, writes and the
// other statuses against a real loopback upstream).
func TestClient_redirectCrossOriginRefused(t *testing.T) {
	c := newTestClient(t, Options{AuthMode: AuthAPIKey, APIKey: "k-secret", UserName: "bob"})
	expect(http.MethodGet, "/api/v1/Identity/streamingcountry").Reply(http.StatusFound).SetHeader("Location", "http://elsewhere.test/steal")
	_, err := c.StreamingCountries(readCtx())
	if o := errorObject(err, false); o.Code != codeUpstreamRejected || !strings.Contains(o.Message, "http://elsewhere.test") {
		t.Fatalf("streamingCountries error %v mapped to %+v, want the redirect refused", err, o)
	}
}

func TestClient_redirectSameOriginKeepsCredentials(t *testing.T) {
	c := newTestClient(t, Options{AuthMode: AuthAPIKey, APIKey: "k-secret"})
	expect(http.MethodGet, "/api/v1/Identity/streamingcountry").Reply(http.StatusFound).SetHeader("Location", testBase+"/api/v1/Identity/streamingcountry2")
	expect(http.MethodGet, "/api/v1/Identity/streamingcountry2").MatchHeader("ApiKey", "^k-secret$").Reply(http.StatusOK).JSON([]string{"US"})
	if _, err := c.StreamingCountries(readCtx()); err != nil {
		t.Fatalf("streamingCountries: %v", err)
	}
}

func TestClient_bodyCap(t *testing.T) {
	c := newTestClient(t, Options{AuthMode: AuthAPIKey, APIKey: "k", MaxBodyBytes: 1024})
	big := "[" + strings.Repeat(`"US",`, 400) + `"US"]`
	expect(http.MethodGet, "/api/v1/Identity/streamingcountry").Reply(http.StatusOK).BodyString(big)
	_, err := c.StreamingCountries(readCtx())
	if !errors.Is(err, ombi.ErrBodyTooLarge) {
		t.Fatalf("error = %v, want ombi.ErrBodyTooLarge", err)
	}
	if o := errorObject(err, false); o.Code != codeUpstreamSchemaMismatch {
		t.Fatalf("mapped to %+v", o)
	}
}

func TestClient_decodeFailures(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		ctype   string
		body    string
		wantErr func(error) bool
	}{
		{"malformed", 200, "application/json", `[{"id":1,`, isSchema},
		{"wrong shape", 200, "application/json", `{"id":1}`, isSchema},
		{"html page", 200, "text/html", `<html>oops</html>`, isSchema},
		{"empty 200", 200, "application/json", ``, isSchema},
		{"no content", 204, "", ``, func(err error) bool { return errors.Is(err, ombi.ErrNoContent) }},
		{"trailing data", 200, "application/json", `[] []`, isSchema},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestClient(t, Options{AuthMode: AuthAPIKey, APIKey: "k"})
			r := expect(http.MethodGet, "/api/v1/Identity/streamingcountry").Reply(tt.status).BodyString(tt.body)
			if tt.ctype != "" {
				r.SetHeader("Content-Type", tt.ctype)
			}
			if _, err := c.StreamingCountries(readCtx()); !tt.wantErr(err) {
				t.Fatalf("error = %v", err)
			}
		})
	}
}

func isSchema(err error) bool {
	var s *ombi.SchemaError
	return errors.As(err, &s)
}

func TestClient_statusErrors(t *testing.T) {
	tests := []struct {
		status     int
		header     map[string]string
		write      bool
		wantCode   string
		retryable  bool
		retryAfter int
	}{
		{status: 403, wantCode: codeForbidden},
		{status: 404, wantCode: codeNotFound},
		{status: 409, wantCode: codeConflict},
		{status: 429, header: map[string]string{"Retry-After": "30"}, wantCode: codeRateLimited, retryable: true, retryAfter: 30},
		{status: 429, wantCode: codeRateLimited, retryable: true},
		{status: 429, write: true, wantCode: codeRateLimited},
		{status: 500, wantCode: codeUpstreamRejected, retryable: true},
		{status: 503, write: true, wantCode: codeUpstreamRejected},
		{status: 400, wantCode: codeUpstreamRejected},
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			c := newTestClient(t, Options{AuthMode: AuthAPIKey, APIKey: "k"})
			expect(http.MethodGet, "/api/v1/Identity/streamingcountry").Reply(tt.status).SetHeaders(tt.header).
				BodyString(`{"error":"Server=db;Password=hunter2 at Ombi.Core.X()"}`)
			ctx := readCtx()
			if tt.write {
				ctx = writeCtx()
			}
			_, err := c.StreamingCountries(ctx)
			o := errorObject(err, tt.write)
			if o.Code != tt.wantCode || o.Retryable != tt.retryable || o.HTTPStatus != tt.status {
				t.Fatalf("mapped to %+v, want %s retryable=%v status=%d", o, tt.wantCode, tt.retryable, tt.status)
			}
			if strings.Contains(o.Message, "hunter2") || strings.Contains(o.Message, "Server=") {
				t.Fatalf("message leaks the upstream body: %q", o.Message)
			}
			switch {
			case tt.retryAfter > 0 && (o.RetryAfterSeconds == nil || *o.RetryAfterSeconds != tt.retryAfter):
				t.Fatalf("retry_after_seconds = %v, want %d", o.RetryAfterSeconds, tt.retryAfter)
			case tt.retryAfter == 0 && o.RetryAfterSeconds != nil:
				t.Fatalf("retry_after_seconds = %d, want absent", *o.RetryAfterSeconds)
			}
		})
	}
}

func TestClient_transportFailures(t *testing.T) {
	tests := []struct {
		name      string
		write     bool
		wantCode  string
		retryable bool
	}{
		{"read", false, codeUpstreamRejected, true},
		{"write", true, codeUnknownOutcome, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestClient(t, Options{AuthMode: AuthAPIKey, APIKey: "k"})
			expect(http.MethodGet, "/api/v1/Identity/streamingcountry").ReplyError(errors.New("connection reset by peer"))
			ctx := readCtx()
			if tt.write {
				ctx = writeCtx()
			}
			_, err := c.StreamingCountries(ctx)
			if o := errorObject(err, tt.write); o.Code != tt.wantCode || o.Retryable != tt.retryable {
				t.Fatalf("mapped to %+v", o)
			}
		})
	}
}

// TestClient_deadline uses a real loopback server: the deadline must cut a
// slow upstream and map to TIMEOUT for reads, UNKNOWN_OUTCOME for writes.
func TestClient_deadline(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	c, err := newClient(Options{URL: srv.URL, AuthMode: AuthAPIKey, APIKey: "k", Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		write    bool
		wantCode string
	}{{false, codeTimeout}, {true, codeUnknownOutcome}}
	for _, tt := range tests {
		ctx := readCtx()
		if tt.write {
			ctx = writeCtx()
		}
		start := time.Now()
		_, err := c.StreamingCountries(ctx)
		if time.Since(start) > 2*time.Second {
			t.Fatalf("deadline not applied: took %v", time.Since(start))
		}
		if o := errorObject(err, tt.write); o.Code != tt.wantCode {
			t.Fatalf("write=%v mapped to %+v, want %s", tt.write, o, tt.wantCode)
		}
	}
}

// TestClient_unboundedBodyIsCut streams an endless body: the read stops at
// the cap instead of buffering it.
func TestClient_unboundedBodyIsCut(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, "[")
		chunk := strings.Repeat(`"US",`, 1000)
		for i := 0; i < 10000; i++ {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	c, err := newClient(Options{URL: srv.URL, AuthMode: AuthAPIKey, APIKey: "k", MaxBodyBytes: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.StreamingCountries(readCtx()); !errors.Is(err, ombi.ErrBodyTooLarge) {
		t.Fatalf("error = %v, want ombi.ErrBodyTooLarge", err)
	}
}

// TestClient_jwt_concurrentReadsShareOneLogin: calls racing for a token share
// one login (the token is held under one lock across the login).
func TestClient_jwt_concurrentReadsShareOneLogin(t *testing.T) {
	var logins, searches atomic.Int32
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/api/v1/Token":
			logins.Add(1)
			time.Sleep(20 * time.Millisecond) // widen the race window
			_, _ = io.WriteString(w, `{"access_token":"tok-1","expiration":"2030-01-01T00:00:00Z"}`)
		case r.Header.Get("Authorization") == "Bearer tok-1":
			searches.Add(1)
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `[]`)
		default:
			w.WriteHeader(http.StatusUnauthorized)
		}
	}))
	t.Cleanup(up.Close)
	c, err := newClient(Options{URL: up.URL, AuthMode: AuthJWT, Username: "alice", Password: "s3cret-pass", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("newClient: %v", err)
	}
	const n = 16
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.SearchMovie(readCtx(), "alien"); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("searchMovie: %v", err)
	}
	if got := logins.Load(); got != 1 {
		t.Errorf("%d concurrent reads made %d logins, want 1", n, got)
	}
	if got := searches.Load(); got != n {
		t.Errorf("searches answered = %d, want %d", got, n)
	}
}

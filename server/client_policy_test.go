package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file holds the contract tests of the upstream path's security and
// robustness policy: redirects, write replay, the outcome of writes that
// never left, and the shared body budget. Every upstream here is a hostile
// loopback httptest server.

const (
	policyPassword = "s3cret-pass-7f3a"
	policyAPIKey   = "k-secret-key-91c2"
)

// hostile is a scripted loopback upstream that counts requests per
// "METHOD /path" and remembers whether a body carried the password.
type hostile struct {
	srv      *httptest.Server
	mu       sync.Mutex
	hits     map[string]int
	password bool
}

func newHostile(t *testing.T, h func(u *hostile, w http.ResponseWriter, r *http.Request)) *hostile {
	t.Helper()
	u := &hostile{hits: map[string]int{}}
	u.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		u.mu.Lock()
		u.hits[r.Method+" "+r.URL.Path]++
		if strings.Contains(string(b), policyPassword) {
			u.password = true
		}
		u.mu.Unlock()
		h(u, w, r)
	}))
	t.Cleanup(u.srv.Close)
	return u
}

func (u *hostile) count(key string) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.hits[key]
}

func (u *hostile) total() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	n := 0
	for _, v := range u.hits {
		n += v
	}
	return n
}

// dropConnection closes the connection after the request was read, without
// an answer: the request reached upstream, its answer is lost.
func dropConnection(t *testing.T, w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		t.Errorf("hijack: %v", err)
		return
	}
	_ = conn.Close()
}

func writeToken(w http.ResponseWriter, tok string) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"access_token":"`+tok+`","expiration":"2030-01-01T00:00:00Z"}`)
}

func policyClient(t *testing.T, rawURL, mode string, timeout time.Duration) *ombi.Client {
	t.Helper()
	o := Options{URL: rawURL, AuthMode: mode, Timeout: timeout}
	if mode == AuthJWT {
		o.Username, o.Password = "alice", policyPassword
	} else {
		o.APIKey = policyAPIKey
	}
	c, err := newClient(o)
	if err != nil {
		t.Fatalf("newClient: %v", err)
	}
	t.Cleanup(c.CloseIdle)
	return c
}

type clientCall struct {
	name  string
	path  string
	write bool
	do    func(ctx context.Context, c *ombi.Client) error
}

var (
	callSearch = clientCall{"read GET search", "/api/v1/Search/movie/alien", false, func(ctx context.Context, c *ombi.Client) error {
		_, err := c.SearchMovie(ctx, "alien")
		return err
	}}
	callCountries = clientCall{"read GET streaming countries", "/api/v1/Identity/streamingcountry", false, func(ctx context.Context, c *ombi.Client) error {
		_, err := c.StreamingCountries(ctx)
		return err
	}}
	callLanguage = clientCall{"write POST language", "/api/v1/Identity/language", true, func(ctx context.Context, c *ombi.Client) error {
		return c.SetLanguage(ctx, "fr")
	}}
	callNewsletter = clientCall{"write GET newsletter opt-out", "/api/v1/Identity/newsletter/unsubscribe/u1", true, func(ctx context.Context, c *ombi.Client) error {
		return c.NewsletterUnsubscribe(ctx, "u1")
	}}
	callDeleteUser = clientCall{"write DELETE user", "/api/v1/Identity/u1", true, func(ctx context.Context, c *ombi.Client) error {
		_, err := c.DeleteUser(ctx, "u1")
		return err
	}}
)

func intentCtx(write bool) context.Context {
	if write {
		return writeCtx()
	}
	return readCtx()
}

// answerOK answers every non-login route of these tests with a valid body.
func answerOK(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.URL.Path == "/api/v1/Token":
		writeToken(w, "tok-home")
	case r.Method == http.MethodDelete:
		_, _ = io.WriteString(w, `{"successful":true}`)
	case r.Method == http.MethodGet && !strings.Contains(r.URL.Path, "newsletter"):
		_, _ = io.WriteString(w, `[]`)
	}
}

func originOf(raw string) string {
	u, _ := url.Parse(raw)
	return u.Scheme + "://" + u.Host
}

// TestClient_redirect_crossOriginRefused: a redirect to another origin is
// never followed, whatever the status and whether the request is the login
// (password in the body), a read or a write. The error names the status and
// the target origin, never a credential, and maps to UPSTREAM_REJECTED.
func TestClient_redirect_crossOriginRefused(t *testing.T) {
	tests := []struct {
		name   string
		mode   string
		status int
		at     string // path answered with the redirect
		call   clientCall
		host   string // "" keeps 127.0.0.1; else the host spelled in Location
	}{
		{"login 307 (would re-send the password)", AuthJWT, http.StatusTemporaryRedirect, "/api/v1/Token", callSearch, ""},
		{"login 308 (would re-send the password)", AuthJWT, http.StatusPermanentRedirect, "/api/v1/Token", callSearch, ""},
		{"login 302", AuthJWT, http.StatusFound, "/api/v1/Token", callSearch, ""},
		{"login 307 before a write", AuthJWT, http.StatusTemporaryRedirect, "/api/v1/Token", callLanguage, ""},
		{"read 302 api_key", AuthAPIKey, http.StatusFound, callSearch.path, callSearch, ""},
		{"read 307 jwt", AuthJWT, http.StatusTemporaryRedirect, callSearch.path, callSearch, ""},
		{"read 301 to another host name of the same address", AuthAPIKey, http.StatusMovedPermanently, callSearch.path, callSearch, "localhost"},
		{"write POST 307 jwt", AuthJWT, http.StatusTemporaryRedirect, callLanguage.path, callLanguage, ""},
		{"write POST 308 api_key", AuthAPIKey, http.StatusPermanentRedirect, callLanguage.path, callLanguage, ""},
		{"write GET 303", AuthAPIKey, http.StatusSeeOther, callNewsletter.path, callNewsletter, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evil := newHostile(t, func(u *hostile, w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/api/v1/Token" {
					writeToken(w, "tok-evil")
					return
				}
				answerOK(w, r)
			})
			target := evil.srv.URL
			if tt.host != "" {
				_, port, _ := net.SplitHostPort(strings.TrimPrefix(target, "http://"))
				target = "http://" + net.JoinHostPort(tt.host, port)
			}
			home := newHostile(t, func(u *hostile, w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == tt.at {
					w.Header().Set("Location", target+r.URL.RequestURI())
					w.WriteHeader(tt.status)
					return
				}
				answerOK(w, r)
			})
			c := policyClient(t, home.srv.URL, tt.mode, 5*time.Second)
			err := tt.call.do(intentCtx(tt.call.write), c)
			if n := evil.total(); n != 0 || evil.password {
				t.Fatalf("the other origin received %d requests (password: %v)", n, evil.password)
			}
			if err == nil {
				t.Fatal("call succeeded, want the redirect refused")
			}
			o := errorObject(err, tt.call.write)
			if o.Code != codeUpstreamRejected || o.Retryable {
				t.Fatalf("mapped to %+v, want %s not retryable", o, codeUpstreamRejected)
			}
			for _, want := range []string{strconv.Itoa(tt.status), originOf(target), "redirect"} {
				if !strings.Contains(o.Message, want) {
					t.Errorf("message %q does not name %q", o.Message, want)
				}
			}
			for _, secret := range []string{policyPassword, policyAPIKey, "tok-home", "tok-evil"} {
				if strings.Contains(o.Message, secret) || strings.Contains(err.Error(), secret) {
					t.Errorf("error carries a credential: %q / %q", o.Message, err)
				}
			}
		})
	}
}

// TestClient_redirect_sameOriginFollowedBounded: redirects that stay on
// OMBI_URL's origin are followed, credentials kept, at most five times.
func TestClient_redirect_sameOriginFollowedBounded(t *testing.T) {
	tests := []struct {
		name     string
		mode     string
		status   int
		at, to   string
		call     clientCall
		wantCode string // "" = success
	}{
		{"login 307 to a moved login", AuthJWT, http.StatusTemporaryRedirect, "/api/v1/Token", "/moved/Token", callSearch, ""},
		{"read 302 keeps the api key", AuthAPIKey, http.StatusFound, callSearch.path, "/moved/search", callSearch, ""},
		{"write 307 keeps the body", AuthJWT, http.StatusTemporaryRedirect, callLanguage.path, "/moved/language", callLanguage, ""},
		{"redirect loop is cut", AuthAPIKey, http.StatusFound, callSearch.path, callSearch.path, callSearch, codeUpstreamRejected},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := newHostile(t, func(u *hostile, w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case tt.at:
					w.Header().Set("Location", tt.to)
					w.WriteHeader(tt.status)
				case "/moved/Token":
					writeToken(w, "tok-moved")
				case "/api/v1/Token":
					writeToken(w, "tok-home")
				default:
					if a := r.Header.Get("Authorization"); a != "Bearer tok-moved" && a != "Bearer tok-home" && r.Header.Get("ApiKey") != policyAPIKey {
						w.WriteHeader(http.StatusUnauthorized)
						return
					}
					answerOK(w, r)
				}
			})
			c := policyClient(t, home.srv.URL, tt.mode, 5*time.Second)
			err := tt.call.do(intentCtx(tt.call.write), c)
			if tt.wantCode == "" {
				if err != nil {
					t.Fatalf("call: %v", err)
				}
				if tt.mode == AuthJWT && !home.password {
					t.Fatal("the login body did not reach the moved login")
				}
				return
			}
			if o := errorObject(err, tt.call.write); o.Code != tt.wantCode {
				t.Fatalf("mapped to %+v, want %s", o, tt.wantCode)
			}
			if n := home.count("GET " + tt.at); n > 6 {
				t.Fatalf("followed %d redirects, want at most 5", n-1)
			}
		})
	}
}

// TestClient_write_neverReplayedOnDroppedConnection: upstream reads the
// request, then drops the (reused keep-alive) connection without answering.
// Go's transport replays an idempotent-looking request on a new connection;
// a write, whatever its method, must reach upstream exactly once and report
// UNKNOWN_OUTCOME. A read may be replayed (the control row).
func TestClient_write_neverReplayedOnDroppedConnection(t *testing.T) {
	tests := []struct {
		call     clientCall
		mode     string
		custom   bool // Options.HTTPClient carries an *http.Transport of the caller's
		wantHits int
		wantCode string // "" = success
	}{
		{callNewsletter, AuthAPIKey, false, 1, codeUnknownOutcome},
		{callNewsletter, AuthJWT, false, 1, codeUnknownOutcome},
		{callNewsletter, AuthAPIKey, true, 1, codeUnknownOutcome},
		{callDeleteUser, AuthAPIKey, false, 1, codeUnknownOutcome},
		{callLanguage, AuthAPIKey, false, 1, codeUnknownOutcome},
		{callCountries, AuthAPIKey, false, 2, ""}, // control: reads are replayable
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%s/custom=%v", tt.call.name, tt.mode, tt.custom), func(t *testing.T) {
			key := ""
			up := newHostile(t, func(u *hostile, w http.ResponseWriter, r *http.Request) {
				if r.Method+" "+r.URL.Path == key && u.count(key) == 1 {
					dropConnection(t, w, r)
					return
				}
				answerOK(w, r)
			})
			switch {
			case tt.call.path == callDeleteUser.path:
				key = "DELETE " + tt.call.path
			case tt.call.path == callLanguage.path:
				key = "POST " + tt.call.path
			default:
				key = "GET " + tt.call.path
			}
			c := policyClient(t, up.srv.URL, tt.mode, 5*time.Second)
			if tt.custom {
				var err error
				c, err = newClient(Options{URL: up.srv.URL, AuthMode: AuthAPIKey, APIKey: policyAPIKey,
					HTTPClient: &http.Client{Transport: &http.Transport{}}})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(c.CloseIdle)
			}
			// Warm up: a read leaves a keep-alive connection in the pool.
			if _, err := c.Languages(readCtx()); err != nil {
				t.Fatalf("warm-up read: %v", err)
			}
			err := tt.call.do(intentCtx(tt.call.write), c)
			if got := up.count(key); got != tt.wantHits {
				t.Errorf("upstream saw %s %d times, want %d", key, got, tt.wantHits)
			}
			switch {
			case tt.wantCode == "" && err != nil:
				t.Fatalf("call: %v", err)
			case tt.wantCode != "":
				if o := errorObject(err, tt.call.write); err == nil || o.Code != tt.wantCode {
					t.Fatalf("error %v mapped to %+v, want %s", err, o, tt.wantCode)
				}
			}
		})
	}
}

// TestClient_write_loginFailureIsTheLoginError: a write whose login failed,
// timed out or was cancelled never left; it reports the login's error, not
// UNKNOWN_OUTCOME. So does a write whose connection could not be opened.
// Only a write that was sent and lost its answer is UNKNOWN_OUTCOME.
func TestClient_write_loginFailureIsTheLoginError(t *testing.T) {
	tests := []struct {
		name      string
		mode      string
		login     func(t *testing.T, w http.ResponseWriter, r *http.Request)
		write     func(t *testing.T, w http.ResponseWriter, r *http.Request)
		cancel    bool // cancel the call while the login is pending
		dead      bool // OMBI_URL names a closed port
		wantCode  string
		retryable bool
		wantSent  int
	}{
		{name: "login times out", mode: AuthJWT, login: blockUntilDone, wantCode: codeTimeout, retryable: true},
		{name: "login answers 500", mode: AuthJWT, login: status(http.StatusInternalServerError), wantCode: codeUpstreamRejected, retryable: true},
		{name: "login answers 429", mode: AuthJWT, login: status(http.StatusTooManyRequests), wantCode: codeRateLimited, retryable: true},
		{name: "login refused", mode: AuthJWT, login: status(http.StatusUnauthorized), wantCode: codeAuthenticationFailed},
		{name: "login connection dropped", mode: AuthJWT, login: dropConnection, wantCode: codeUpstreamRejected, retryable: true},
		{name: "login answers html", mode: AuthJWT, login: html, wantCode: codeUpstreamSchemaMismatch},
		{name: "call cancelled during login", mode: AuthJWT, login: blockUntilDone, cancel: true, wantCode: codeUpstreamRejected, retryable: true},
		{name: "connection refused", mode: AuthAPIKey, dead: true, wantCode: codeUpstreamRejected, retryable: true},
		// Controls: the write was sent and its answer lost.
		{name: "write sent, connection dropped", mode: AuthJWT, write: dropConnection, wantCode: codeUnknownOutcome, wantSent: 1},
		{name: "write sent, deadline", mode: AuthJWT, write: blockUntilDone, wantCode: codeUnknownOutcome, wantSent: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up := newHostile(t, func(u *hostile, w http.ResponseWriter, r *http.Request) {
				switch {
				case r.URL.Path == "/api/v1/Token" && tt.login != nil:
					tt.login(t, w, r)
				case r.URL.Path == callLanguage.path && tt.write != nil:
					tt.write(t, w, r)
				default:
					answerOK(w, r)
				}
			})
			base := up.srv.URL
			if tt.dead {
				base = closedPortURL(t)
			}
			c := policyClient(t, base, tt.mode, 300*time.Millisecond)
			ctx, cancel := context.WithCancel(writeCtx())
			defer cancel()
			if tt.cancel {
				go func() {
					for up.count("POST /api/v1/Token") == 0 {
						time.Sleep(5 * time.Millisecond)
					}
					cancel()
				}()
			}
			err := callLanguage.do(ctx, c)
			if err == nil {
				t.Fatal("write succeeded, want an error")
			}
			o := errorObject(err, true)
			if o.Code != tt.wantCode || o.Retryable != tt.retryable {
				t.Fatalf("error %v mapped to %+v, want %s retryable=%v", err, o, tt.wantCode, tt.retryable)
			}
			if got := up.count("POST " + callLanguage.path); got != tt.wantSent {
				t.Fatalf("upstream saw the write %d times, want %d", got, tt.wantSent)
			}
		})
	}
}

// TestTools_writeLoginFailureIsNotUnknownOutcome runs the same through the
// whole chain (registry, mapper, envelope): write_user_preferences whose
// login times out answers TIMEOUT, retryable.
func TestTools_writeLoginFailureIsNotUnknownOutcome(t *testing.T) {
	tests := []struct {
		name      string
		login     func(t *testing.T, w http.ResponseWriter, r *http.Request)
		wantCode  string
		retryable bool
	}{
		{"login times out", blockUntilDone, codeTimeout, true},
		{"login answers 503", status(http.StatusServiceUnavailable), codeUpstreamRejected, true},
		{"login connection dropped", dropConnection, codeUpstreamRejected, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up := newHostile(t, func(u *hostile, w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/api/v1/Token" {
					tt.login(t, w, r)
					return
				}
				answerOK(w, r)
			})
			h := newHarness(t, nil, Options{URL: up.srv.URL, AuthMode: AuthJWT, Username: "alice", Password: policyPassword, Timeout: 300 * time.Millisecond})
			r := h.call(t, "write_user_preferences", map[string]any{"action": "language", "language": "fr"})
			if r.OK || r.Error == nil || r.Error.Code != tt.wantCode || r.Error.Retryable != tt.retryable {
				t.Fatalf("result %s, want %s retryable=%v", r.raw, tt.wantCode, tt.retryable)
			}
			if n := up.count("POST " + callLanguage.path); n != 0 {
				t.Fatalf("the write reached upstream %d times", n)
			}
		})
	}
}

func blockUntilDone(_ *testing.T, _ http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

func status(code int) func(*testing.T, http.ResponseWriter, *http.Request) {
	return func(_ *testing.T, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(code) }
}

func html(_ *testing.T, w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html")
	_, _ = io.WriteString(w, "<html>login</html>")
}

func closedPortURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr
}

// TestBodyBudget_sharedAcrossCalls: the bytes of upstream answers held by
// all calls in flight are bounded together. Calls beyond the budget fail
// RATE_LIMITED (retryable) without reading; the budget comes back when the
// calls end.
func TestBodyBudget_sharedAcrossCalls(t *testing.T) {
	const calls = 12
	release := make(chan struct{})
	var once sync.Once
	unblock := func() { once.Do(func() { close(release) }) }
	var started atomic.Int32
	up := newHostile(t, func(u *hostile, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != callSearch.path {
			_, _ = io.WriteString(w, `[]`)
			return
		}
		// A streamed (chunked) answer that stalls half way.
		_, _ = io.WriteString(w, `[`+strings.Repeat(`{"title":"x"},`, 1500))
		w.(http.Flusher).Flush()
		started.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		_, _ = io.WriteString(w, `{"title":"x"}]`)
	})
	t.Cleanup(unblock)
	c, err := newClient(Options{URL: up.srv.URL, AuthMode: AuthAPIKey, APIKey: policyAPIKey,
		Timeout: 10 * time.Second, MaxBodyBytes: 64 << 10, BodyBudgetBytes: 4*(64<<10) + 128<<10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdle)
	errs := make(chan error, calls)
	for range calls {
		go func() { errs <- callSearch.do(readCtx(), c) }()
	}
	var refused, ok int
	deadline := time.After(5 * time.Second)
	for refused+int(started.Load()) < calls {
		select {
		case err := <-errs:
			if o := errorObject(err, false); err == nil || o.Code != codeRateLimited || !o.Retryable {
				t.Fatalf("a call beyond the budget: %v mapped to %+v, want RATE_LIMITED retryable", err, o)
			}
			refused++
		case <-deadline:
			t.Fatalf("%d calls reading, %d refused: the budget did not bound them", started.Load(), refused)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if refused == 0 {
		t.Fatalf("all %d calls read their answers at once; want the budget to refuse some", calls)
	}
	unblock()
	for range calls - refused {
		if err := <-errs; err != nil {
			t.Errorf("admitted call: %v", err)
		}
		ok++
	}
	// Every byte came back: the whole budget admits a full set again.
	if n := c.BodiesInUse(); n != 0 {
		t.Fatalf("%d budget bytes still held after every call ended", n)
	}
	if err := callSearch.do(readCtx(), c); err != nil {
		t.Fatalf("call after the others ended: %v", err)
	}
	t.Logf("%d calls read, %d refused", ok, refused)
}

// TestBodyBudget_knownLengthOverCapNotRead: an answer whose Content-Length
// exceeds the per-call cap is refused before a byte is buffered.
func TestBodyBudget_knownLengthOverCapNotRead(t *testing.T) {
	up := newHostile(t, func(u *hostile, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(4<<20))
		chunk := []byte(strings.Repeat(" ", 32<<10))
		for i := 0; i < 128; i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	c, err := newClient(Options{URL: up.srv.URL, AuthMode: AuthAPIKey, APIKey: policyAPIKey, MaxBodyBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdle)
	err = callSearch.do(readCtx(), c)
	if !errors.Is(err, ombi.ErrBodyTooLarge) {
		t.Fatalf("error = %v, want ombi.ErrBodyTooLarge", err)
	}
	if n := c.BodiesInUse(); n != 0 {
		t.Fatalf("%d budget bytes still held after the call", n)
	}
}

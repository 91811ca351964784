package checks

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file holds routing checks a data case of testdata/wire-exact.json
// cannot express: an upstream redirect to a second origin, a loopback
// HTTP server the check starts, which records everything it is sent.

// routingGaps declares those checks.
func (s *Suite) routingGaps() {
	ginkgo.Describe("wire cross-origin redirects", ginkgo.Label("wire"), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("VERIFY-AUTHZ-HTTP-CLIENT-001", "read_server.status.login-redirect-cross-origin", func(ctx ginkgo.SpecContext) {
			other := s.otherOrigin()
			// a fresh server logs in on its first call, into the 307
			srv := s.fresh(ctx, jwtConfig())
			s.injectFault(mockombi.Fault{Method: "POST", Path: tokenPath, Status: http.StatusTemporaryRedirect,
				Headers: map[string]string{"Location": other.url + tokenPath}})
			o := s.callUnchecked(ctx, srv, "read_server", map[string]any{"action": "status"})
			login := false
			for _, c := range o.Journal {
				login = login || (isLogin(c) && c.Status == http.StatusTemporaryRedirect)
			}
			s.expect(login, o, "the server must log in during the call (into the 307 the mock answers); no redirected login was journaled")
			s.expectNothingForwarded(o, other)
			s.expect(o.Envelope != nil && !o.Envelope.OK, o, "a login redirected to another origin cannot authenticate the call; want a tool error, got ok")
		})

		for _, tc := range []struct {
			name   string
			cfg    func() harness.Config
			status int
		}{
			{"read_server.status.jwt-redirect-cross-origin", jwtConfig, http.StatusTemporaryRedirect},
			{"read_server.status.api-key-redirect-cross-origin", apiKeyConfig, http.StatusFound},
		} {
			s.ClauseItFor("VERIFY-AUTHZ-HTTP-CLIENT-001", tc.name, func(ctx ginkgo.SpecContext) {
				other := s.otherOrigin()
				srv := s.shared(ctx, tc.cfg())
				s.injectFault(mockombi.Fault{Method: "GET", Path: "/api/v1/Status", Status: tc.status,
					Headers: map[string]string{"Location": other.url + "/api/v1/Status"}})
				o := s.callUnchecked(ctx, srv, "read_server", map[string]any{"action": "status"})
				s.expectNothingForwarded(o, other)
				s.expect(o.Envelope != nil && !o.Envelope.OK, o, "a read redirected to another origin is not answered by Ombi; want a tool error, got ok")
			})
		}
	})
}

// originRecorder is a second origin: a loopback HTTP server on a port
// chosen at run time that records every request and answers each as Ombi
// would (a token for a login, a status otherwise), so that a followed
// redirect would succeed.
type originRecorder struct {
	url string
	mu  sync.Mutex
	got []string // each request: method, URL, headers and body as text
}

// otherOrigin starts a recorder, closed when the check ends.
func (s *Suite) otherOrigin() *originRecorder {
	ginkgo.GinkgoHelper()
	rec := &originRecorder{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s\n", r.Method, r.URL.RequestURI())
		for k, vs := range r.Header {
			fmt.Fprintf(&b, "%s: %s\n", k, strings.Join(vs, ", "))
		}
		b.Write(body)
		rec.mu.Lock()
		rec.got = append(rec.got, b.String())
		rec.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if strings.EqualFold(r.URL.Path, tokenPath) {
			_, _ = io.WriteString(w, `{"access_token":"other-origin-token","expiration":"2030-01-01T00:00:00Z"}`)
			return
		}
		_, _ = io.WriteString(w, "200")
	}))
	ginkgo.DeferCleanup(ts.Close)
	rec.url = ts.URL
	return rec
}

func (r *originRecorder) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

// expectNothingForwarded asserts that the other origin received no
// credential of the server's: the configured API key, a login password,
// or a bearer token the server sent Ombi. (Refusing the redirect sends it
// nothing at all.)
func (s *Suite) expectNothingForwarded(o *harness.Outcome, other *originRecorder) {
	ginkgo.GinkgoHelper()
	got := other.requests()
	if len(got) == 0 {
		return
	}
	secrets := map[string]string{}
	if m := s.h.Upstream.Mock(); m != nil {
		cr := m.Credentials()
		secrets["the API key"] = cr.APIKey
		for _, u := range cr.Users {
			secrets["the password of "+u.Username] = u.Password
		}
	}
	for _, c := range o.Journal {
		if a := c.Header.Get("Authorization"); strings.HasPrefix(a, "Bearer ") && len(a) > len("Bearer ")+8 {
			secrets["the bearer token"] = strings.TrimPrefix(a, "Bearer ")
		}
	}
	var leaks []string
	for _, req := range got {
		for what, v := range secrets {
			if v != "" && strings.Contains(req, v) {
				leaks = append(leaks, what+" reached "+other.url+" in "+strings.SplitN(req, "\n", 2)[0])
			}
		}
	}
	s.expect(len(leaks) == 0, o, "an upstream redirect to another origin must never carry the server's credentials there (%d requests reached it):\n  %s",
		len(got), strings.Join(leaks, "\n  "))
}

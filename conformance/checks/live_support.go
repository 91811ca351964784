package checks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file lets the checks of the wire, errors, auth and leak areas run
// against a live Ombi through the mockombi proxy the run puts in front of
// it: direct reads with the credentials the run was given, the principal a
// live run has, and the skips (with their reason) of what only the
// embedded mock has.

// liveLogin caches the bearer token of a live run in jwt mode.
type liveLogin struct {
	mu    sync.Mutex
	token string
}

// live reports whether the run judges a live Ombi.
func (s *Suite) live() bool { return s.h.Upstream.IsLive() }

// skipLive skips the current check in a live run, saying why.
func (s *Suite) skipLive(reason string) { s.SkipLive(reason) }

// adminConfig starts a server with every bundle as an administrator: the
// mock's admin in jwt mode, or in a live run the principal the run was
// given (its auth mode and credentials).
func (s *Suite) adminConfig() harness.Config {
	if s.live() {
		return s.allConfig()
	}
	return jwtConfig()
}

// directHeader is the authentication of a direct read: the mock's API
// key, or in a live run the credentials the run was given.
func (s *Suite) directHeader() http.Header {
	ginkgo.GinkgoHelper()
	if s.live() {
		return s.liveHeader()
	}
	h := http.Header{}
	h.Set("ApiKey", s.h.Upstream.Mock().Credentials().APIKey)
	h.Set("Accept", "application/json")
	return h
}

// liveHeader is the authentication of a direct read of the live Ombi:
// the run's API key (and UserName), or a bearer token of the run's user.
func (s *Suite) liveHeader() http.Header {
	ginkgo.GinkgoHelper()
	h := http.Header{}
	h.Set("Accept", "application/json")
	creds := s.h.Upstream.Credentials()
	if s.opts.AuthMode == "api_key" {
		h.Set("ApiKey", creds.APIKey)
		if creds.UserName != "" {
			h.Set("UserName", creds.UserName)
		}
		return h
	}
	s.login.mu.Lock()
	defer s.login.mu.Unlock()
	if s.login.token == "" {
		body, _ := json.Marshal(map[string]any{"username": creds.Username, "password": creds.Password, "rememberMe": false})
		req := s.proxyRequest(http.MethodPost, tokenPath, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := s.serveProxy(req)
		var tok struct {
			AccessToken string `json:"access_token"`
		}
		if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &tok) != nil || tok.AccessToken == "" {
			s.fail(nil, "log in to the live Ombi as %q for a direct read: status %d", creds.Username, rec.Code)
		}
		s.login.token = tok.AccessToken
	}
	h.Set("Authorization", "Bearer "+s.login.token)
	return h
}

// liveRaw reads the live Ombi directly, through the proxy, with the run's
// credentials; a direct write is never made (a live run writes only
// through the server under test), so the check is skipped instead.
func (s *Suite) liveRaw(method, path string, out any) int {
	ginkgo.GinkgoHelper()
	if method != http.MethodGet {
		s.skipLive("would " + method + " " + path + " directly on the live Ombi; a live run writes only through the server under test")
	}
	rec := s.mockDirect(method, path, s.liveHeader())
	if rec.Code == http.StatusNotFound || rec.Code == http.StatusNoContent {
		s.skipLive(fmt.Sprintf("the check reads GET %s, which the live Ombi answered %d (it has no such record)", path, rec.Code))
	}
	if out != nil && rec.Code == http.StatusOK {
		if err := json.Unmarshal(bytes.TrimSpace(rec.Body.Bytes()), out); err != nil {
			s.fail(nil, "decode the live Ombi's answer to %s %s: %v", method, path, err)
		}
	}
	return rec.Code
}

// directList reads path of the Ombi directly (GET, with the direct
// principal) and decodes its JSON answer into out; what names the records
// in the failure. A live run whose Ombi does not answer it is skipped; an
// embedded run fails.
func (s *Suite) directList(path, what string, out any) {
	ginkgo.GinkgoHelper()
	rec := s.mockDirect(http.MethodGet, path, s.directHeader())
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), out) != nil {
		s.skipLive(fmt.Sprintf("the Ombi answered GET %s with %d", path, rec.Code))
		s.fail(nil, "read the mock's %s: status %d", what, rec.Code)
	}
}

// liveNeedsData skips a live check whose data the instance does not have.
func (s *Suite) liveNeedsData(ok bool, what string) {
	if !ok {
		s.skipLive("the live Ombi has no " + what)
	}
}

// proxyRequest is a request to the proxy in front of the live Ombi.
func (s *Suite) proxyRequest(method, target string, body io.Reader) *http.Request {
	return httptest.NewRequest(method, target, body)
}

// serveProxy sends req to the proxy in process (it is journaled there).
func (s *Suite) serveProxy(req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	s.h.Upstream.Mock().Handler().ServeHTTP(rec, req)
	return rec
}

// canaries returns the secrets planted upstream; a live Ombi's answers
// carry none the suite planted, so a live check that needs them is skipped.
func (s *Suite) canaries() ([]mockombi.Canary, error) {
	s.skipLive("needs the canaries the mock plants in its data")
	return s.h.Upstream.Canaries()
}

// skipLiveRefusal skips a live check whose upstream calls were as the
// check wants but whose result differs because the live Ombi refused or
// lacked what the call named: an unfaulted answer of no content, a client
// or server error other than an authentication one (the run's credentials
// are valid), or a 200 carrying Ombi's isError. The wire was judged; the
// result depends on the instance's data.
func (s *Suite) skipLiveRefusal(o *harness.Outcome, e errs) {
	if !s.live() || o == nil {
		return
	}
	for _, c := range upstreamCalls(o) {
		if c.Fault != "" || c.Stub != "" {
			continue
		}
		refused := c.Status == http.StatusNoContent || (c.Status >= 400 && c.Status != http.StatusUnauthorized && c.Status != http.StatusForbidden)
		if !refused && c.Status == http.StatusOK {
			var r struct {
				IsError bool `json:"isError"`
			}
			refused = json.Unmarshal(c.ResponseBody, &r) == nil && r.IsError
		}
		if refused {
			s.skipLive(fmt.Sprintf("the upstream calls were as the check wants; the live Ombi answered %s %s with %d %.120s, so the result (%.200s) depends on its data",
				c.Method, pathOnly(c.Path), c.Status, c.ResponseBody, e[0]))
		}
	}
}

// withoutPrincipal drops, in a live run given a UserName, the one lookup
// of that user (GET /api/v1/Identity) a server makes on its first call to
// know its principal; a check that wants that route itself keeps it.
func (s *Suite) withoutPrincipal(calls []mockombi.Call, want string) []mockombi.Call {
	if !s.live() || s.h.Upstream.Credentials().UserName == "" || want == identityPath {
		return calls
	}
	var out []mockombi.Call
	for _, c := range calls {
		if c.Method != http.MethodGet || pathOnly(c.Path) != identityPath {
			out = append(out, c)
		}
	}
	return out
}

// identityPath is Ombi's route of the calling user.
const identityPath = "/api/v1/Identity"

// liveExisting skips, in a live run, a write check that would change an
// entity the run did not create (a live run writes only on its own).
func (s *Suite) liveExisting(what string) {
	s.skipLive("would change an existing " + what + " of the live Ombi; a live run writes only on entities it created")
}

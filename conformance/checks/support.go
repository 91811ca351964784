package checks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file holds what the domain checks share: journal helpers, envelope
// assertions, direct reads of the embedded mock and the server
// configurations the checks start.

const (
	searchMoviePrefix = "/api/v1/Search/movie/"
	tokenPath         = "/api/v1/Token"
)

// upstreamCalls are a tool call's upstream calls without logins.
func upstreamCalls(o *harness.Outcome) []mockombi.Call {
	if o == nil {
		return nil
	}
	return withoutLogin(o.Journal)
}

// callLine renders a journal entry for a failure message.
func callLine(c mockombi.Call) string {
	q := ""
	if c.Query != "" {
		q = "?" + c.Query
	}
	return fmt.Sprintf("%s %s%s %s", c.Method, c.Path, q, string(c.Body))
}

// jsonBody decodes a journaled JSON object body (nil otherwise).
func jsonBody(c mockombi.Call) map[string]any {
	var m map[string]any
	if len(c.Body) == 0 || json.Unmarshal(c.Body, &m) != nil {
		return nil
	}
	return m
}

// sameJSON compares a journaled body with JSON text, key order free.
func sameJSON(got json.RawMessage, want string) bool {
	var g, w any
	if json.Unmarshal(got, &g) != nil || json.Unmarshal([]byte(want), &w) != nil {
		return false
	}
	return reflect.DeepEqual(g, w)
}

// oneCall asserts exactly one upstream call with this method and literal
// escaped path, and returns it.
func (s *Suite) oneCall(o *harness.Outcome, method, path string) mockombi.Call {
	ginkgo.GinkgoHelper()
	calls := s.withoutPrincipal(upstreamCalls(o), path)
	s.expect(len(calls) == 1, o, "want exactly one upstream call %s %s, got %d", method, path, len(calls))
	c := calls[0]
	s.expect(c.Method == method && c.Path == path, o, "want %s %s (literal spelling and case), got %s", method, path, callLine(c))
	return c
}

// noTraffic asserts the call reached no upstream route.
func (s *Suite) noTraffic(o *harness.Outcome) {
	ginkgo.GinkgoHelper()
	calls := upstreamCalls(o)
	s.expect(len(calls) == 0, o, "a refused call must end before any upstream traffic; %d calls were made", len(calls))
}

// wantCode asserts a tool error with the given code.
func (s *Suite) wantCode(o *harness.Outcome, code string) {
	ginkgo.GinkgoHelper()
	s.expect(o.Envelope != nil && !o.Envelope.OK && o.ErrorCode() == code, o, "want a tool error %s, got %q", code, o.ErrorCode())
}

// wantOK asserts an ok result.
func (s *Suite) wantOK(o *harness.Outcome) {
	ginkgo.GinkgoHelper()
	s.expect(o.OK(), o, "want an ok result, got %q", o.ErrorCode())
}

// okData asserts an ok result and decodes its data into v.
func (s *Suite) okData(o *harness.Outcome, v any) {
	ginkgo.GinkgoHelper()
	s.wantOK(o)
	if err := json.Unmarshal(o.Envelope.Data, v); err != nil {
		s.fail(o, "decode data: %v", err)
	}
}

// mockRaw calls the embedded mock directly with its API key (the principal
// API), outside any server under test, and decodes a 200 answer into out.
func (s *Suite) mockRaw(method, path string, out any) int {
	ginkgo.GinkgoHelper()
	if s.h.Upstream.Mock() == nil {
		s.fail(nil, "a direct upstream read needs the embedded mock")
	}
	if s.live() {
		return s.liveRaw(method, path, out)
	}
	header := http.Header{}
	header.Set("ApiKey", s.h.Upstream.Mock().Credentials().APIKey)
	header.Set("Accept", "application/json")
	rec := s.mockDirect(method, path, header)
	if out != nil && rec.Code == http.StatusOK {
		if err := json.Unmarshal(bytes.TrimSpace(rec.Body.Bytes()), out); err != nil {
			s.fail(nil, "decode the mock's own answer to %s %s: %v", method, path, err)
		}
	}
	return rec.Code
}

// mockDirect calls the embedded mock (or the proxy in front of a live
// Ombi) in process, with header (its keys in canonical form, as
// http.Header.Set writes them).
func (s *Suite) mockDirect(method, target string, header http.Header) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, nil)
	req.Header = header
	rec := httptest.NewRecorder()
	s.h.Upstream.Mock().Handler().ServeHTTP(rec, req)
	return rec
}

// jwtConfig starts a server with every bundle logged in as the mock's admin
// (jwt mode).
func jwtConfig() harness.Config { return harness.Config{Bundles: harness.AllBundles, AuthMode: "jwt"} }

// apiKeyConfig starts a server with every bundle in api_key mode, which
// another check's token rotation cannot disturb (used by writes).
func apiKeyConfig() harness.Config {
	return harness.Config{Bundles: harness.AllBundles, AuthMode: "api_key"}
}

// plainUserConfig starts a server logged in as the mock's plain user (a
// principal with request quotas and no privileged role).
func (s *Suite) plainUserConfig() harness.Config {
	ginkgo.GinkgoHelper()
	m := s.h.Upstream.Mock()
	s.skipLive("needs the mock's plain user (a principal with quotas and no privileged role)")
	if m == nil {
		s.fail(nil, "the plain user exists only in the embedded mock")
	}
	for _, u := range m.Credentials().Users {
		if u.Role == mockombi.RoleUser {
			return harness.Config{Bundles: harness.AllBundles, AuthMode: "jwt",
				Env: []string{"OMBI_USERNAME=" + u.Username, "OMBI_PASSWORD=" + u.Password}}
		}
	}
	s.fail(nil, "the mock has no plain user")
	return harness.Config{}
}

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

// validateRaw validates a JSON text against a compiled schema.
func validateRaw(sch *jsonschema.Schema, raw []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("decode example: %w", err)
	}
	return sch.Validate(inst)
}

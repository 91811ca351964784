package checks

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file plants canaries in a live Ombi's answers: the proxy in front
// of it answers a read the server makes with what the instance answered to
// that very read, with secrets added under the names Ombi gives its
// secrets in every object of the answer (a stub of the proxy, which never
// reaches the instance). The leak checks then judge the server on real
// answers that carry secrets, as they judge it on the mock's planted data.

// liveSecretMembers are the members planted in every object of an answer:
// names under which Ombi's answers carry credentials.
var liveSecretMembers = []string{"apiKey", "password", "passwordHash", "securityStamp", "userAccessToken", "plexToken", "token"}

// livePlant adds a canary under each secret name to every object of doc
// and appends the canaries to planted.
func livePlant(doc any, planted *[]mockombi.Canary, where string) {
	switch x := doc.(type) {
	case map[string]any:
		for _, name := range liveSecretMembers {
			v := fmt.Sprintf("CANARY-live-%s-%04d", name, len(*planted))
			x[name] = v
			*planted = append(*planted, mockombi.Canary{Name: name, Where: where, Value: v})
		}
		for k, c := range x {
			if !isLiveSecret(k) {
				livePlant(c, planted, where)
			}
		}
	case []any:
		for _, c := range x {
			livePlant(c, planted, where)
		}
	}
}

func isLiveSecret(name string) bool {
	for _, n := range liveSecretMembers {
		if n == name {
			return true
		}
	}
	return false
}

// livePlantCalls reads the answer to each JSON read of calls again
// (directly, with the run's credentials) and has the proxy answer that
// read with it and canaries planted in it, through a stub; it returns the
// canaries. The stubs are removed when the check ends.
func (s *Suite) livePlantCalls(calls []mockombi.Call) []mockombi.Canary {
	ginkgo.GinkgoHelper()
	m := s.h.Upstream.Mock()
	var planted []mockombi.Canary
	seen := map[string]bool{}
	for _, c := range calls {
		p := pathOnly(c.Path)
		if c.Method != http.MethodGet || c.Status != http.StatusOK || c.Stub != "" || seen[p] {
			continue
		}
		target := c.Path
		if c.Query != "" {
			target += "?" + c.Query
		}
		rec := s.mockDirect(http.MethodGet, target, s.liveHeader())
		var doc any
		if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &doc) != nil {
			continue
		}
		seen[p] = true
		n := len(planted)
		livePlant(doc, &planted, "GET "+p)
		if len(planted) == n {
			continue
		}
		body, err := json.Marshal(doc)
		if err != nil || len(body) > mockombi.MaxStubBody {
			planted = planted[:n]
			continue
		}
		id, err := m.AddStub(mockombi.Stub{Method: http.MethodGet, Path: p, Status: http.StatusOK,
			Headers: map[string]string{"Content-Type": "application/json; charset=utf-8"}, Body: string(body)})
		if err != nil {
			s.fail(nil, "plant canaries in the answer to GET %s: %v", p, err)
		}
		ginkgo.DeferCleanup(func() { m.RemoveStub(id) })
	}
	return planted
}

// liveLeak judges a read-only tool on a live Ombi's answers with canaries
// planted: each valid example runs once as the instance answers it, then
// again with its reads answered with canaries added.
func (s *Suite) liveLeak(ctx ginkgo.SpecContext, tool string) {
	ginkgo.GinkgoHelper()
	srv := s.shared(ctx, s.allConfig())
	var e errs
	planted := 0
	for _, ex := range s.table(tool).Valid {
		first := s.call(ctx, srv, tool, ex.Args)
		canaries := s.livePlantCalls(upstreamCalls(first))
		if len(canaries) == 0 {
			continue
		}
		planted += len(canaries)
		o := s.call(ctx, srv, tool, ex.Args)
		liveNoCanary(&e, fmt.Sprintf("%s %s: result", tool, clip(ex.Args, 200)), string(o.Structured)+"\n"+o.Text, canaries)
		liveNoCanary(&e, "server stderr", srv.StderrAll(), canaries)
	}
	if planted == 0 {
		s.skipLive("no valid example of " + tool + " read a JSON answer from the live Ombi to plant canaries in")
	}
	s.expectNone(e, "planted secrets leaked")
}

// liveNoCanary records each canary text carries, in any form.
func liveNoCanary(e *errs, where, text string, canaries []mockombi.Canary) {
	for _, c := range canaries {
		for _, f := range canaryForms(c.Value) {
			if strings.Contains(text, f) {
				e.addf("%s carries canary %s (planted at %s) as %q", where, c.Name, c.Where, f)
				break
			}
		}
	}
}

// liveLeakOutcomes plants canaries in the reads of outcomes already made
// and makes each call again: for checks that gather several reads.
func (s *Suite) liveLeakOutcomes(ctx ginkgo.SpecContext, srv *harness.Server, tool string, args []any) {
	ginkgo.GinkgoHelper()
	var e errs
	planted := 0
	for _, a := range args {
		first := s.call(ctx, srv, tool, a)
		canaries := s.livePlantCalls(upstreamCalls(first))
		planted += len(canaries)
		o := s.call(ctx, srv, tool, a)
		liveNoCanary(&e, fmt.Sprintf("%s %s: result", tool, clip(mustJSON(a), 200)), string(o.Structured)+"\n"+o.Text, canaries)
	}
	if planted == 0 {
		s.skipLive("no call of " + tool + " read a JSON answer from the live Ombi to plant canaries in")
	}
	s.expectNone(e, "planted secrets leaked")
}

package checks

import (
	"time"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// The upstream client under a misbehaving Ombi (04-results: "Use a bounded
// request deadline. Oversized upstream data must be bounded while reading,
// before parsing"): the deadline covers the jwt login a call makes first,
// and an answer of unknown length is refused at the read cap while it is
// read, as one whose length is announced is.
const (
	// loginDeadline is the OMBI_TIMEOUT of the server whose login stalls,
	// loginStall how long Ombi holds the login, and loginBound how long
	// the call may take to give up.
	loginDeadline = time.Second
	loginStall    = 8 * time.Second
	loginBound    = 5 * time.Second
	// chunkedOversize is the size of the chunked answer: three times the
	// documented 8 MiB read cap, and at twice its size (the assembly of an
	// answer of unknown length) still under the 64 MiB body budget, so only
	// the cap can refuse it.
	chunkedOversize = 24 << 20
	// chunkedBound is how long refusing it may take.
	chunkedBound = 10 * time.Second
)

func (s *Suite) upstreamClientChecks() {
	ginkgo.Context("when the upstream client meets a misbehaving Ombi", func() {
		s.ClauseItFor("RESULTS-BUDGET-BOUNDED-READ-001", "login-deadline", func(ctx ginkgo.SpecContext) {
			s.requireMode("jwt")
			// a fresh server has not logged in yet: the call's first
			// upstream request is the login
			srv := s.fresh(ctx, harness.Config{Bundles: "core", AuthMode: "jwt", Timeout: loginDeadline.String()})
			s.injectFault(mockombi.Fault{Method: "POST", Path: "/api/v1/Token", DelayMS: int(loginStall / time.Millisecond)})
			start := time.Now()
			o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Alien"})
			took := time.Since(start)
			s.expect(loginFired(s.h.Upstream), o, "the call did not log in (POST /api/v1/Token); a fresh jwt server must log in on its first call")
			s.expect(took < loginBound, o, "the call took %s while the login stalled %s; OMBI_TIMEOUT=%s bounds every upstream call, the login included (want an answer within %s)",
				took.Round(time.Millisecond), loginStall, loginDeadline, loginBound)
			s.expect(o.ErrorCode() == "TIMEOUT" && o.Envelope.Error.Retryable, o,
				"a read whose login passed the deadline must be TIMEOUT and retryable, got %q", o.ErrorCode())
		})
		s.ClauseItFor("RESULTS-BUDGET-BOUNDED-READ-001", "chunked", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			s.injectFault(mockombi.Fault{Method: "GET", Path: searchMoviePrefix + "*", Kind: mockombi.FaultOversized, Size: chunkedOversize, Chunked: true})
			start := time.Now()
			o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Alien"})
			took := time.Since(start)
			s.expect(o.Envelope != nil && !o.Envelope.OK && o.Envelope.Error != nil, o,
				"a %d MiB answer of unknown length (chunked), over the 8 MiB read cap, was parsed instead of refused while reading", chunkedOversize>>20)
			code := o.ErrorCode()
			s.expect(code == "UPSTREAM_SCHEMA_MISMATCH" || code == "UPSTREAM_REJECTED", o,
				"an answer over the read cap is UPSTREAM_SCHEMA_MISMATCH (refused, not parsed), got %q", code)
			s.expect(took < chunkedBound, o, "refusing the chunked answer took %s (want under %s)", took.Round(time.Millisecond), chunkedBound)
		})
	})
}

// loginFired reports whether an injected fault on the login route matched
// a request.
func loginFired(up *harness.Upstream) bool {
	if up.Mock() == nil {
		return false
	}
	for _, f := range up.Mock().Faults() {
		if f.Path == "/api/v1/Token" && f.Fired > 0 {
			return true
		}
	}
	return false
}

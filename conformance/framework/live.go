package framework

import (
	"fmt"
	"net/http"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file keeps a live run (--ombi-url) honest: a check that needs what
// only the embedded mock has (a quirk, its seed, an auth mode the run was
// given no credentials for) is skipped with that reason, and a check that
// failed because the live Ombi lacks the data it named is skipped, never
// failed.

// StateLiveData is the reason prefix of a live check skipped because the
// instance lacks the data it needs.
const StateLiveData = "the live Ombi lacks the data this check needs"

// Live reports whether the run judges against a live Ombi.
func (s *Suite) Live() bool { return s.h.Upstream.IsLive() }

// SkipLive skips the current check in a live run, saying why.
func (s *Suite) SkipLive(reason string) {
	if s.Live() {
		SkipAs(StateSkipped, "live run: "+reason)
	}
}

// liveMode skips a live check whose configuration needs an auth mode the
// run was given no credentials for (a live run has one mode, --auth-mode).
func (s *Suite) liveMode(cfg harness.Config) {
	if !s.Live() {
		return
	}
	mode := s.opts.AuthMode
	if mode == "" {
		mode = "jwt"
	}
	if cfg.AuthMode != mode {
		s.SkipLive(fmt.Sprintf("needs auth mode %s; the run was given %s credentials (--auth-mode)", cfg.AuthMode, mode))
	}
}

// liveCall is the first call of o's journal that match picks in a live
// run; nil when none (or not live). The framework's live skips read the
// journal through it.
func (s *Suite) liveCall(o *harness.Outcome, match func(mockombi.Call) bool) *mockombi.Call {
	if o == nil || !s.Live() {
		return nil
	}
	for i, c := range o.Journal {
		if match(c) {
			return &o.Journal[i]
		}
	}
	return nil
}

// missingData is the unfaulted call of o that a live Ombi answered 404 or
// 204 (no content) on one of Ombi's own routes: the server asked for an
// entity the instance does not have. nil when none (or not live).
func (s *Suite) missingData(o *harness.Outcome) *mockombi.Call {
	return s.liveCall(o, func(c mockombi.Call) bool {
		return c.Fault == "" && c.Stub == "" && c.Route != "" && (c.Status == http.StatusNotFound || c.Status == http.StatusNoContent)
	})
}

// SkipGated skips the rest of a check, once what the server sent has been
// judged, when the live run's proxy kept that write from the Ombi (a write
// on an entity the run did not create): the answer the check would judge
// is the proxy's refusal, not the Ombi's. It is not part of the automatic
// skip of failed live checks, which would also hide a read-only tool's
// write (ANY-EFFECTS-001) the gate refuses; a check calls it where the
// write it provokes is one the run may not make.
func (s *Suite) SkipGated(o *harness.Outcome) {
	if c := s.liveCall(o, func(c mockombi.Call) bool { return c.Fault == mockombi.GateFault }); c != nil {
		s.SkipLive(fmt.Sprintf("the proxy kept %s %s from the Ombi (the run did not create that entity); what the server sent was judged", c.Method, c.Path))
	}
}

// skipMissing turns a live failure caused by data the instance lacks into
// a skip with that reason.
func (s *Suite) skipMissing(o *harness.Outcome, msg string) {
	if c := s.missingData(o); c != nil {
		SkipAs(StateSkipped, fmt.Sprintf("%s: %s %s answered %d (the check observed: %.200s)", StateLiveData, c.Method, c.Path, c.Status, msg))
	}
}

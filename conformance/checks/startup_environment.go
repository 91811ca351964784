package checks

import (
	"strings"

	"github.com/onsi/ginkgo/v2"
)

// This file judges the start-up path with a broken environment
// (VERIFY-AUTH-STARTUP-001; docs/harness.md: a server that cannot start
// must exit with a message on stderr, never sit silently): a server whose
// auth settings cannot work refuses to start, and its message names every
// setting that is wrong, so one attempt shows the operator everything to
// fix. Profile design: the reference server reports every problem at once
// (docs/server.md).

// brokenEnvironments are environments the server must refuse to start
// with, each with the variables its message must name, and the auth mode
// it is broken in ("": the run's): a server that does not support a mode
// (--auth-modes, or refused at start) is not asked what it misses in it.
var brokenEnvironments = []struct {
	name  string
	mode  string
	env   []string
	names []string
}{
	{"an unknown auth mode", "", []string{"OMBI_AUTH_MODE=ldap"}, []string{"OMBI_AUTH_MODE"}},
	{"a base URL that is not absolute", "", []string{"OMBI_URL=ombi.local:5000"}, []string{"OMBI_URL"}},
	{"api_key mode without its key", "api_key", []string{"OMBI_AUTH_MODE=api_key", "OMBI_API_KEY="}, []string{"OMBI_API_KEY"}},
	{"jwt mode without a password, and a timeout that is no duration", "jwt", []string{"OMBI_AUTH_MODE=jwt", "OMBI_PASSWORD=", "OMBI_TIMEOUT=soon"}, []string{"OMBI_PASSWORD", "OMBI_TIMEOUT"}},
}

func (s *Suite) startupEnvironmentChecks() {
	ginkgo.Describe("auth start-up environment", ginkgo.Label("auth", LabelReadOnly), func() {
		s.ClauseItFor("VERIFY-AUTH-STARTUP-001", "broken-environment-refused", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_search") // the design's settings (docs/server.md)
			if s.h.Target.URL != "" {
				ginkgo.Skip("needs a fresh server process; --url judges one running server, which cannot be restarted")
			}
			var e errs
			for _, b := range brokenEnvironments {
				if refused, tried := s.Refusal(b.mode); b.mode != "" && (!tried || refused != "") {
					continue
				}
				cfg := s.allConfig()
				cfg.Env = append(cfg.Env, b.env...)
				stderr, started := s.refusedStart(ctx, cfg)
				if started {
					e.addf("%s (%s): the server started", b.name, strings.Join(b.env, " "))
					continue
				}
				for _, n := range b.names {
					if !strings.Contains(stderr, n) {
						e.addf("%s (%s): the server did not start, but its message does not name %s: %s", b.name, strings.Join(b.env, " "), n, ClipString(stderr, 300))
					}
				}
			}
			s.expectNone(e, "a server whose environment cannot work refuses to start with a message naming every setting that is wrong")
		}, ginkgo.Label(LabelNeedsMock))
	})
}

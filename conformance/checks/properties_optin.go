package checks

import (
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// This file guards the deployment's opt-ins as properties over their
// whole enums (02: jobs are opt-in per deployment, each job enabled by
// its literal, case-sensitive name; a tester call runs only a profile the
// deployment provisioned for that service, never a default one it did
// not): a deployment that lists every job runs each of them, and a
// deployment that provisions one profile refuses every other service and
// profile before any upstream traffic.

func (s *Suite) optInChecks() {
	ginkgo.Describe("auth deployment opt-ins", ginkgo.Label("auth", LabelNeedsMock, "administration"), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("VERIFY-AUTHZ-EFFECTS-001", "write_job_run.every-listed-job-runs", func(ctx ginkgo.SpecContext) {
			s.requireTool("write_job_run")
			jobs, err := spec.InputEnum("write_job_run", "job")
			s.expect(err == nil && len(jobs) > 0, nil, "the job enum: %v", err)
			cfg := apiKeyConfig()
			cfg.Env = append(cfg.Env, "OMBI_ALLOWED_JOBS="+strings.Join(jobs, ","))
			srv := s.shared(ctx, cfg)
			var e errs
			for _, job := range jobs {
				s.clean()
				o := s.call(ctx, srv, "write_job_run", map[string]any{"action": "run", "job": job})
				if !reachedWrite(o) || o.ErrorCode() == "FORBIDDEN" {
					e.addf("job %s: listed in OMBI_ALLOWED_JOBS as the enum spells it, but the call answered ok=%t code %q and sent no upstream write", job, o.OK(), o.ErrorCode())
				}
			}
			s.expectNone(e, "jobs the deployment enabled")
		})

		s.ClauseItFor("VERIFY-AUTHZ-NO-FALLBACK-001", "write_integration_test.every-unprovisioned-profile", func(ctx ginkgo.SpecContext) {
			s.requireTool("write_integration_test")
			services, err := spec.InputEnum("write_integration_test", "service")
			s.expect(err == nil && len(services) > 1, nil, "the service enum: %v", err)
			provisioned := services[0] + ":default"
			cfg := apiKeyConfig()
			cfg.Env = append(cfg.Env, "OMBI_PROFILES="+provisioned)
			srv := s.shared(ctx, cfg)
			var e errs
			judge := func(o *harness.Outcome, what string) {
				if o.OK() || o.ErrorCode() != "NOT_FOUND" {
					e.addf("%s: answered ok=%t code %q, want NOT_FOUND", what, o.OK(), o.ErrorCode())
				}
				for _, c := range upstreamCalls(o) {
					e.addf("%s: sent %s before refusing", what, callLine(c))
				}
			}
			for _, svc := range services {
				for _, profile := range []string{"default", "4k", "other"} {
					if svc+":"+profile == provisioned {
						continue
					}
					s.clean()
					o := s.call(ctx, srv, "write_integration_test", map[string]any{"service": svc, "profile_id": profile})
					judge(o, svc+":"+profile+" (only "+provisioned+" is provisioned)")
				}
			}
			s.expectNone(e, "tester calls of profiles the deployment did not provision")
		})
	})
}

package server

import (
	"context"
	"slices"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// This file serves write_job_run: Ombi's Job controller and the Plex
// watchlist revalidation. Jobs are opt-in per deployment (OMBI_ALLOWED_JOBS);
// a started job is reported accepted, never completed.

// riskyJobs are off unless the deployment enables them by name.
var riskyJobs = []string{"update", "clearmediaserverdata", "autodeleterequests", "newsletter"}

// allJobs are the 14 literal job routes: the job enum of the contract.
func allJobs() []string {
	jobs, err := spec.InputEnum("write_job_run", "job")
	if err != nil {
		panic(err) // the embedded contract is checked by the spec tests
	}
	return jobs
}

// allowedJobs parses OMBI_ALLOWED_JOBS: unset means every job but the
// risky four; otherwise exactly the listed jobs ("none" allows none).
func allowedJobs(jobs []string) map[string]bool {
	set := map[string]bool{}
	if len(jobs) == 0 {
		for _, j := range allJobs() {
			if !slices.Contains(riskyJobs, j) {
				set[j] = true
			}
		}
		return set
	}
	all := allJobs()
	for _, j := range jobs {
		if j = strings.TrimSpace(j); slices.Contains(all, j) {
			set[j] = true
		}
	}
	return set
}

// ---- write_job_run ----

type jobInput struct {
	Action string `json:"action"`
	Job    string `json:"job"`
}

// writeJobRun serves write_job_run, for the jobs of Options.AllowedJobs.
// Implements S-ROUTING-0267 to S-ROUTING-0270 and S-RESULTS-0018.
func writeJobRun(d *deps) tool {
	allowed := d.allowedJobs
	return tool{name: "write_job_run", handle: func(ctx context.Context, c *call) (any, error) {
		var in jobInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		m := mutation{Kind: "mutation", Outcome: mutationAccepted}
		switch in.Action {
		case "run":
			if !allowed[in.Job] {
				return nil, forbidden("job " + in.Job + " is not enabled by this deployment (OMBI_ALLOWED_JOBS)")
			}
			ok, err := d.client.RunJob(ctx, in.Job)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, &ombi.BusinessError{Message: "the job was not started (upstream answered false)"}
			}
			m.UpstreamResult = ptr(true)
			m.Message = "job " + in.Job + " was started; its completion is not tracked"
		case "revalidate_watchlist":
			raw, err := d.client.RevalidateWatchlist(ctx)
			if err != nil {
				return nil, err
			}
			switch strings.TrimSpace(raw) {
			case "false":
				return nil, &ombi.BusinessError{Message: "the revalidation was refused (upstream answered false)"}
			case "true":
				m.UpstreamResult = ptr(true)
			}
			m.Message = "watchlist revalidation was started; its completion is not tracked"
		default:
			return nil, &unsupportedError{Message: "write_job_run: unknown branch"}
		}
		return m, nil
	}}
}

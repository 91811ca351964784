package server

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file serves read_server: Ombi's Status, Features, Stats, cron test,
// Job update check and Update controllers. The news route is not served:
// it returns rendered HTML, not data.

// ---- read_server ----

type serverInput struct {
	Action     string `json:"action"`
	From       string `json:"from"`
	To         string `json:"to"`
	Expression string `json:"expression"`
}

// readServer serves read_server. stats needs both RFC 3339 bounds with
// from <= to (an empty range breaks upstream); cron syntax is judged by
// upstream only.
// Implements S-ROUTING-0240, S-ROUTING-0241, S-ROUTING-0243 and S-ROUTING-0092.
func readServer(d *deps) tool {
	return tool{name: "read_server", handle: func(ctx context.Context, c *call) (any, error) {
		var in serverInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		cl := d.client
		switch in.Action {
		case "status":
			code, err := cl.Status(ctx)
			if err != nil {
				return nil, err
			}
			return newMetrics([]metric{
				{Name: "status_code", Value: code, Scope: scopeInstance},
				{Name: "healthy", Value: code == http.StatusOK, Scope: scopeInstance},
			}), nil
		case "version":
			v, err := cl.StatusInfo(ctx)
			if err != nil {
				return nil, err
			}
			return newMetrics([]metric{{Name: "version", Value: strings.TrimSpace(v), Scope: scopeInstance}}), nil
		case "features":
			ws, err := cl.Features(ctx)
			if err != nil {
				return nil, err
			}
			var ms []metric
			for _, w := range ws {
				if n := strings.TrimSpace(w.Name); n != "" && w.Enabled != nil {
					ms = append(ms, metric{Name: n, Value: *w.Enabled, Scope: scopeInstance})
				}
			}
			return newMetrics(ms), nil
		case "stats":
			from, err := time.Parse(time.RFC3339, in.From)
			if err != nil {
				return nil, &ombi.ArgumentError{Field: "/from", Message: "must be an RFC 3339 date-time"}
			}
			to, err := time.Parse(time.RFC3339, in.To)
			if err != nil {
				return nil, &ombi.ArgumentError{Field: "/to", Message: "must be an RFC 3339 date-time"}
			}
			if from.After(to) {
				return nil, &ombi.ArgumentError{Field: "/from", Message: "from must not be later than to"}
			}
			w, err := cl.Stats(ctx, in.From, in.To)
			if err != nil {
				return nil, err
			}
			var ms []metric
			ms = appendIntMetric(ms, "total_requests", w.TotalRequests, scopeInstance, "requests")
			ms = appendIntMetric(ms, "total_movie_requests", w.TotalMovieRequests, scopeInstance, "requests")
			ms = appendIntMetric(ms, "total_tv_requests", w.TotalTvRequests, scopeInstance, "requests")
			ms = appendIntMetric(ms, "total_issues", w.TotalIssues, scopeInstance, "issues")
			ms = appendIntMetric(ms, "completed_requests_movies", w.CompletedRequestsMovies, scopeInstance, "requests")
			ms = appendIntMetric(ms, "completed_requests_tv", w.CompletedRequestsTv, scopeInstance, "requests")
			ms = appendIntMetric(ms, "completed_requests", w.CompletedRequests, scopeInstance, "requests")
			return newMetrics(ms), nil
		case "cron_validate":
			if err := nonBlank("/expression", in.Expression); err != nil {
				return nil, err
			}
			w, err := cl.TestCron(ctx, in.Expression)
			if err != nil {
				return nil, err
			}
			if w.Success == nil {
				return nil, &ombi.SchemaError{Op: "POST /api/v1/Settings/testcron", Reason: "no success flag in the answer"}
			}
			return newMetrics([]metric{{Name: "valid", Value: *w.Success, Scope: scopeInstance}}), nil
		case "update_check":
			ok, err := cl.UpdateAvailable(ctx)
			if err != nil {
				return nil, err
			}
			return newMetrics([]metric{{Name: "update_available", Value: ok, Scope: scopeInstance}}), nil
		case "update_info":
			w, err := cl.UpdateInfo(ctx)
			if err != nil {
				return nil, err
			}
			var ms []metric
			if v := strings.TrimSpace(w.UpdateVersionString); v != "" {
				ms = append(ms, metric{Name: "update_version", Value: v, Scope: scopeInstance})
			}
			if v := strings.TrimSpace(w.UpdateDate); v != "" {
				ms = append(ms, metric{Name: "update_date", Value: v, Scope: scopeInstance})
			}
			if w.UpdateAvailable != nil {
				ms = append(ms, metric{Name: "update_available", Value: *w.UpdateAvailable, Scope: scopeInstance})
			}
			return newMetrics(ms), nil
		}
		return nil, &unsupportedError{Message: "read_server: unknown branch"}
	}}
}

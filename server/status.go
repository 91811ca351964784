package server

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// This file serves read_server: Ombi's Status, Features, Stats, cron test,
// Job update check and Update controllers. The news route is not served:
// it returns rendered HTML, not data.

// ---- client methods ----

// status reads the health answer (the JSON number 200).
//
// upstream: GET /api/v1/Status
func (c *ombiClient) status(ctx context.Context) (int, error) {
	return send[int](ctx, c, http.MethodGet, "api/v1/Status", nil)
}

// statusInfo reads the runtime version string.
//
// upstream: GET /api/v1/Status/info
func (c *ombiClient) statusInfo(ctx context.Context) (string, error) {
	return send[string](ctx, c, http.MethodGet, "api/v1/Status/info", nil)
}

// features lists the feature switches.
//
// upstream: GET /api/v2/Features
func (c *ombiClient) features(ctx context.Context) ([]wireFeature, error) {
	return send[[]wireFeature](ctx, c, http.MethodGet, "api/v2/Features", nil)
}

// stats reads the request and issue totals of a date range.
//
// upstream: GET /api/v1/Stats
func (c *ombiClient) stats(ctx context.Context, from, to string) (wireStats, error) {
	q := url.Values{"from": {from}, "to": {to}}
	return send[wireStats](ctx, c, http.MethodGet, "api/v1/Stats?"+q.Encode(), nil)
}

// testCron asks upstream Quartz whether a cron expression is valid.
//
// upstream: POST /api/v1/Settings/testcron
func (c *ombiClient) testCron(ctx context.Context, expression string) (wireCronTest, error) {
	return send[wireCronTest](ctx, c, http.MethodPost, "api/v1/Settings/testcron", cronBody{Expression: expression})
}

// updateAvailable asks whether an update is available.
//
// upstream: GET /api/v1/Job/update
func (c *ombiClient) updateAvailable(ctx context.Context) (bool, error) {
	return send[bool](ctx, c, http.MethodGet, "api/v1/Job/update", nil)
}

// updateInfo reads the latest update's description.
//
// upstream: GET /api/v1/Update
func (c *ombiClient) updateInfo(ctx context.Context) (wireUpdate, error) {
	return send[wireUpdate](ctx, c, http.MethodGet, "api/v1/Update", nil)
}

// ---- wire shapes ----

type (
	wireFeature struct {
		Name    string `json:"name"`
		Enabled *bool  `json:"enabled"`
	}
	// wireStats is UserStatsSummary; the most-requested user objects are
	// deliberately not read.
	wireStats struct {
		TotalRequests           *int `json:"totalRequests"`
		TotalMovieRequests      *int `json:"totalMovieRequests"`
		TotalTvRequests         *int `json:"totalTvRequests"`
		TotalIssues             *int `json:"totalIssues"`
		CompletedRequestsMovies *int `json:"completedRequestsMovies"`
		CompletedRequestsTv     *int `json:"completedRequestsTv"`
		CompletedRequests       *int `json:"completedRequests"`
	}
	wireCronTest struct {
		Success *bool `json:"success"`
	}
	cronBody struct {
		Expression string `json:"expression"`
	}
	wireUpdate struct {
		UpdateVersionString string `json:"updateVersionString"`
		UpdateDate          string `json:"updateDate"`
		UpdateAvailable     *bool  `json:"updateAvailable"`
	}
)

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
			code, err := cl.status(ctx)
			if err != nil {
				return nil, err
			}
			return newMetrics([]metric{
				{Name: "status_code", Value: code, Scope: scopeInstance},
				{Name: "healthy", Value: code == http.StatusOK, Scope: scopeInstance},
			}), nil
		case "version":
			v, err := cl.statusInfo(ctx)
			if err != nil {
				return nil, err
			}
			return newMetrics([]metric{{Name: "version", Value: strings.TrimSpace(v), Scope: scopeInstance}}), nil
		case "features":
			ws, err := cl.features(ctx)
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
				return nil, &argumentError{Field: "/from", Message: "must be an RFC 3339 date-time"}
			}
			to, err := time.Parse(time.RFC3339, in.To)
			if err != nil {
				return nil, &argumentError{Field: "/to", Message: "must be an RFC 3339 date-time"}
			}
			if from.After(to) {
				return nil, &argumentError{Field: "/from", Message: "from must not be later than to"}
			}
			w, err := cl.stats(ctx, in.From, in.To)
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
			w, err := cl.testCron(ctx, in.Expression)
			if err != nil {
				return nil, err
			}
			if w.Success == nil {
				return nil, &schemaError{Op: "POST /api/v1/Settings/testcron", Reason: "no success flag in the answer"}
			}
			return newMetrics([]metric{{Name: "valid", Value: *w.Success, Scope: scopeInstance}}), nil
		case "update_check":
			ok, err := cl.updateAvailable(ctx)
			if err != nil {
				return nil, err
			}
			return newMetrics([]metric{{Name: "update_available", Value: ok, Scope: scopeInstance}}), nil
		case "update_info":
			w, err := cl.updateInfo(ctx)
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

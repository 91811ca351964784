package ombi

import (
	"context"
	"net/http"
	"net/url"
)

// Status reads the health answer (the JSON number 200).
//
// upstream: GET /api/v1/Status
func (c *Client) Status(ctx context.Context) (int, error) {
	return send[int](ctx, c, http.MethodGet, "api/v1/Status", nil)
}

// StatusInfo reads the runtime version string.
//
// upstream: GET /api/v1/Status/info
func (c *Client) StatusInfo(ctx context.Context) (string, error) {
	return send[string](ctx, c, http.MethodGet, "api/v1/Status/info", nil)
}

// Features lists the feature switches.
//
// upstream: GET /api/v2/Features
func (c *Client) Features(ctx context.Context) ([]Feature, error) {
	return send[[]Feature](ctx, c, http.MethodGet, "api/v2/Features", nil)
}

// Stats reads the request and issue totals of a date range.
//
// upstream: GET /api/v1/Stats
func (c *Client) Stats(ctx context.Context, from, to string) (Stats, error) {
	q := url.Values{"from": {from}, "to": {to}}
	return send[Stats](ctx, c, http.MethodGet, "api/v1/Stats?"+q.Encode(), nil)
}

// TestCron asks upstream Quartz whether a cron expression is valid.
//
// upstream: POST /api/v1/Settings/testcron
func (c *Client) TestCron(ctx context.Context, expression string) (CronTest, error) {
	return send[CronTest](ctx, c, http.MethodPost, "api/v1/Settings/testcron", CronBody{Expression: expression})
}

// UpdateAvailable asks whether an update is available.
//
// upstream: GET /api/v1/Job/update
func (c *Client) UpdateAvailable(ctx context.Context) (bool, error) {
	return send[bool](ctx, c, http.MethodGet, "api/v1/Job/update", nil)
}

// UpdateInfo reads the latest update's description.
//
// upstream: GET /api/v1/Update
func (c *Client) UpdateInfo(ctx context.Context) (Update, error) {
	return send[Update](ctx, c, http.MethodGet, "api/v1/Update", nil)
}

type (
	Feature struct {
		Name    string `json:"name"`
		Enabled *bool  `json:"enabled"`
	}
	// Stats is UserStatsSummary; the most-requested user objects are
	// deliberately not read.
	Stats struct {
		TotalRequests           *int `json:"totalRequests"`
		TotalMovieRequests      *int `json:"totalMovieRequests"`
		TotalTvRequests         *int `json:"totalTvRequests"`
		TotalIssues             *int `json:"totalIssues"`
		CompletedRequestsMovies *int `json:"completedRequestsMovies"`
		CompletedRequestsTv     *int `json:"completedRequestsTv"`
		CompletedRequests       *int `json:"completedRequests"`
	}
	CronTest struct {
		Success *bool `json:"success"`
	}
	CronBody struct {
		Expression string `json:"expression"`
	}
	Update struct {
		UpdateVersionString string `json:"updateVersionString"`
		UpdateDate          string `json:"updateDate"`
		UpdateAvailable     *bool  `json:"updateAvailable"`
	}
)

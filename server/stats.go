package server

import (
	"context"
	"net/http"
	"net/url"
)

// This file serves read_request_stats: request counts, per-media totals,
// the caller's per-media quota and whether a user has requests. Every value
// is a named metric with an explicit scope (04-results metrics).

// ---- client methods ----

// requestCount reads the instance request counts.
//
// upstream: GET /api/v1/Request/count
func (c *ombiClient) requestCount(ctx context.Context) (wireRequestCount, error) {
	return send[wireRequestCount](ctx, c, http.MethodGet, "api/v1/Request/count", nil)
}

// requestTotal reads the total number of requests of one media.
//
// upstream: GET /api/v1/Request/movie/total
// upstream: GET /api/v1/Request/tv/total
// upstream: GET /api/v1/request/music/total
func (c *ombiClient) requestTotal(ctx context.Context, media string) (*int, error) {
	return send[*int](ctx, c, http.MethodGet, requestsBase(media)+"/total", nil)
}

// requestRemaining reads the calling principal's quota for one media.
//
// upstream: GET /api/v1/Request/movie/remaining
// upstream: GET /api/v1/Request/tv/remaining
// upstream: GET /api/v1/request/music/remaining
func (c *ombiClient) requestRemaining(ctx context.Context, media string) (wireQuota, error) {
	return send[wireQuota](ctx, c, http.MethodGet, requestsBase(media)+"/remaining", nil)
}

// userHasRequest reports whether a user has any request.
//
// upstream: GET /api/v1/Request/userhasrequest
func (c *ombiClient) userHasRequest(ctx context.Context, userID string) (*bool, error) {
	q := url.Values{"userId": {userID}}
	return send[*bool](ctx, c, http.MethodGet, "api/v1/Request/userhasrequest?"+q.Encode(), nil)
}

// requestsBase is the v1 request route prefix of a media: the literal
// spellings Request/movie, Request/tv and request/music.
func requestsBase(media string) string {
	switch media {
	case "movie":
		return "api/v1/Request/movie"
	case "tv":
		return "api/v1/Request/tv"
	}
	return "api/v1/request/music"
}

// ---- wire shapes ----

type (
	// wireRequestCount is RequestCountModel.
	wireRequestCount struct {
		Pending   *int `json:"pending"`
		Approved  *int `json:"approved"`
		Available *int `json:"available"`
		Denied    *int `json:"denied"`
	}
	// wireQuota is RequestQuotaCountModel.
	wireQuota struct {
		HasLimit    *bool  `json:"hasLimit"`
		Limit       *int   `json:"limit"`
		Remaining   *int   `json:"remaining"`
		NextRequest string `json:"nextRequest"`
	}
)

// ---- metrics ----

// Metric scopes (04-results $defs/metric).
const (
	scopeInstance     = "instance"
	scopePrincipal    = "principal"
	scopeSelectedUser = "selected_user"
)

type (
	metrics struct {
		Kind   string   `json:"kind"` // "metrics"
		Values []metric `json:"values"`
	}
	// metric is one named scalar. Value is a string, number, bool or nil.
	metric struct {
		Name  string `json:"name"`
		Value any    `json:"value"`
		Scope string `json:"scope"`
		Unit  string `json:"unit,omitempty"`
	}
)

func newMetrics(values []metric) metrics {
	if values == nil {
		values = []metric{}
	}
	return metrics{Kind: "metrics", Values: values}
}

// appendIntMetric adds a metric only when upstream sent the value: missing
// counts are never turned into zero.
func appendIntMetric(ms []metric, name string, v *int, scope, unit string) []metric {
	if v == nil {
		return ms
	}
	return append(ms, metric{Name: name, Value: *v, Scope: scope, Unit: unit})
}

// ---- read_request_stats ----

type statsInput struct {
	Action string `json:"action"`
	Media  string `json:"media"`
	UserID string `json:"user_id"`
}

// readRequestStats serves read_request_stats.
// Implements S-ROUTING-0154 to S-ROUTING-0158 and S-RESULTS-0073 to S-RESULTS-0076 (metrics).
func readRequestStats(d *deps) tool {
	return tool{name: "read_request_stats", handle: func(ctx context.Context, c *call) (any, error) {
		var in statsInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		cl := d.client
		var ms []metric
		switch in.Action {
		case "counts":
			w, err := cl.requestCount(ctx)
			if err != nil {
				return nil, err
			}
			ms = appendIntMetric(ms, "pending", w.Pending, scopeInstance, unitRequests)
			ms = appendIntMetric(ms, "approved", w.Approved, scopeInstance, unitRequests)
			ms = appendIntMetric(ms, "available", w.Available, scopeInstance, unitRequests)
			ms = appendIntMetric(ms, "denied", w.Denied, scopeInstance, unitRequests)
		case "total":
			n, err := cl.requestTotal(ctx, in.Media)
			if err != nil {
				return nil, err
			}
			if n == nil {
				return nil, &schemaError{Op: "GET " + requestsBase(in.Media) + "/total", Reason: "no total in the answer"}
			}
			ms = append(ms, metric{Name: in.Media + "_requests_total", Value: *n, Scope: scopeInstance, Unit: unitRequests})
		case "quota":
			q, err := cl.requestRemaining(ctx, in.Media)
			if err != nil {
				return nil, err
			}
			ms = quotaMetrics(c, q)
		case "has_requests":
			if err := nonBlank("/user_id", in.UserID); err != nil {
				return nil, err
			}
			if err := mayViewUser(ctx, cl, in.UserID); err != nil {
				return nil, err
			}
			b, err := cl.userHasRequest(ctx, in.UserID)
			if err != nil {
				return nil, err
			}
			if b == nil {
				return nil, &schemaError{Op: "GET /api/v1/Request/userhasrequest", Reason: "no boolean in the answer"}
			}
			ms = append(ms, metric{Name: "has_requests", Value: *b, Scope: scopeSelectedUser})
		default:
			return nil, &unsupportedError{Message: "read_request_stats: unknown action"}
		}
		return newMetrics(ms), nil
	}}
}

// quotaMetrics projects RequestQuotaCountModel for the calling principal.
// Without a limit, limit/remaining/next_request are meaningless upstream
// zeros and are left out: hasLimit false is never remaining 0.
func quotaMetrics(c *call, q wireQuota) []metric {
	if q.HasLimit == nil {
		c.warn("upstream quota answer carried no hasLimit; the quota is unknown")
		return nil
	}
	ms := []metric{{Name: "has_limit", Value: *q.HasLimit, Scope: scopePrincipal}}
	if !*q.HasLimit {
		return ms
	}
	ms = appendIntMetric(ms, "limit", q.Limit, scopePrincipal, unitRequests)
	ms = appendIntMetric(ms, "remaining", q.Remaining, scopePrincipal, unitRequests)
	if q.NextRequest != "" {
		ms = append(ms, metric{Name: "next_request", Value: q.NextRequest, Scope: scopePrincipal})
	}
	return ms
}

// mayViewUser authorizes a read about userID (RT-BRANCH-AUTH): upstream
// answers has_requests for any user id, so viewing another user needs the
// PowerUser or Admin role here. The API principal (an API key without a
// UserName header) is an administrator and is not read.
func mayViewUser(ctx context.Context, cl *ombiClient, userID string) error {
	if cl.mode == AuthAPIKey && cl.userName == "" {
		return nil
	}
	me, err := cl.self(readOnly(ctx))
	if err != nil {
		return err
	}
	if me.ID != userID && !cl.callerHas(&me, roleAdmin, rolePowerUser) {
		return forbidden("viewing another user's requests needs the PowerUser or Admin role")
	}
	return nil
}

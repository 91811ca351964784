package server

import (
	"context"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file serves read_request_stats: request counts, per-media totals,
// the caller's per-media quota and whether a user has requests. Every value
// is a named metric with an explicit scope (04-results metrics).

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
			w, err := cl.RequestCount(ctx)
			if err != nil {
				return nil, err
			}
			ms = appendIntMetric(ms, "pending", w.Pending, scopeInstance, unitRequests)
			ms = appendIntMetric(ms, "approved", w.Approved, scopeInstance, unitRequests)
			ms = appendIntMetric(ms, "available", w.Available, scopeInstance, unitRequests)
			ms = appendIntMetric(ms, "denied", w.Denied, scopeInstance, unitRequests)
		case "total":
			n, err := cl.RequestTotal(ctx, in.Media)
			if err != nil {
				return nil, err
			}
			if n == nil {
				return nil, &ombi.SchemaError{Op: "GET " + ombi.RequestsBase(in.Media) + "/total", Reason: "no total in the answer"}
			}
			ms = append(ms, metric{Name: in.Media + "_requests_total", Value: *n, Scope: scopeInstance, Unit: unitRequests})
		case "quota":
			q, err := cl.RequestRemaining(ctx, in.Media)
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
			b, err := cl.UserHasRequest(ctx, in.UserID)
			if err != nil {
				return nil, err
			}
			if b == nil {
				return nil, &ombi.SchemaError{Op: "GET /api/v1/Request/userhasrequest", Reason: "no boolean in the answer"}
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
func quotaMetrics(c *call, q ombi.Quota) []metric {
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
func mayViewUser(ctx context.Context, cl *ombi.Client, userID string) error {
	if cl.AuthMode() == AuthAPIKey && cl.ActsAs() == "" {
		return nil
	}
	me, err := cl.Self(ombi.ReadOnly(ctx))
	if err != nil {
		return err
	}
	if me.ID != userID && !cl.CallerHas(&me, ombi.RoleAdmin, ombi.RolePowerUser) {
		return forbidden("viewing another user's requests needs the PowerUser or Admin role")
	}
	return nil
}

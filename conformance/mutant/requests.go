package mutant

import "encoding/json"

// Mutants of the request domain: each breaks one routing, outcome or quota
// rule of the request tools and is expected to be killed by the wire or
// errors checks of that domain.
// rqArgs returns the tools/call arguments object of a client request.
func rqArgs(req Frame) map[string]any {
	p, _ := req["params"].(map[string]any)
	a, _ := p["arguments"].(map[string]any)
	return a
}

// rqSetEnvelope replaces the envelope of a tools/call result in both
// structuredContent and the text block, keeping isError == !ok, so only
// the domain checks can notice the change.
func rqSetEnvelope(r map[string]any, env map[string]any) {
	r["structuredContent"] = env
	b, _ := json.Marshal(env)
	r["content"] = []any{map[string]any{"type": "text", "text": string(b)}}
	ok, _ := env["ok"].(bool)
	r["isError"] = !ok
}

func rqToolResult(resp Frame, c call, tool string) (map[string]any, map[string]any) {
	r := result(resp)
	if c.method != "tools/call" || c.tool != tool || r == nil {
		return nil, nil
	}
	return r, envelopeOf(r)
}

var requestMutants = []Mutant{
	{
		Name: "create-sends-4k", Area: "wire",
		Focus:       `VERIFY-ROUTING-CREATE-WIRE-001\.`,
		Description: "turns every movie request without is_4k into a 4K request (is4kRequest true on the wire)",
		rewriteRequest: func(req Frame, c call) {
			a := rqArgs(req)
			if c.method == "tools/call" && c.tool == "write_request_create" && a != nil && a["action"] == "movie" {
				if _, set := a["is_4k"]; !set {
					a["is_4k"] = true
				}
			}
		},
	},
	{
		Name: "season-as-all", Area: "wire",
		Focus:       `VERIFY-ROUTING-SEASON-NUMBERS-001\.`,
		Description: "sends a TV season selection as a whole-show request (no details read, no explicit episodes)",
		rewriteRequest: func(req Frame, c call) {
			a := rqArgs(req)
			if c.method != "tools/call" || c.tool != "write_request_create" || a == nil {
				return
			}
			if sel, ok := a["selection"].(map[string]any); ok && sel["mode"] == "season" {
				a["selection"] = map[string]any{"mode": "all"}
			}
		},
	},
	{
		Name: "remaining-zero-without-limit", Area: "wire",
		Focus:       `RESULTS-PROJECTION-001\.read_request_stats\.`,
		Description: "reports remaining=0 when the quota has no limit",
		rewrite: func(resp Frame, c call) {
			r, env := rqToolResult(resp, c, "read_request_stats")
			data, _ := env["data"].(map[string]any)
			values, _ := data["values"].([]any)
			noLimit := false
			for _, v := range values {
				m, _ := v.(map[string]any)
				noLimit = noLimit || m["name"] == "has_limit" && m["value"] == false
			}
			if !noLimit {
				return
			}
			data["values"] = append(values, map[string]any{"name": "remaining", "value": 0, "scope": "principal"})
			rqSetEnvelope(r, env)
		},
	},
	{
		Name: "lost-write-retryable", Area: "errors",
		Description: "reports a write whose answer was lost as a retryable TIMEOUT instead of UNKNOWN_OUTCOME",
		rewrite: func(resp Frame, c call) {
			r := result(resp)
			if c.method != "tools/call" || !isWrite(c.tool) || r == nil {
				return
			}
			env := envelopeOf(r)
			if e, ok := env["error"].(map[string]any); ok && e["code"] == "UNKNOWN_OUTCOME" {
				e["code"], e["retryable"] = "TIMEOUT", true
				rqSetEnvelope(r, env)
			}
		},
	},
	{
		Name: "business-failure-ok", Area: "errors",
		Description: "turns an HTTP 200 business failure of a request creation into a completed mutation with an invented id",
		rewrite: func(resp Frame, c call) {
			r, env := rqToolResult(resp, c, "write_request_create")
			if e, ok := env["error"].(map[string]any); ok && e["code"] == "UPSTREAM_REJECTED" {
				delete(env, "error")
				env["ok"] = true
				env["data"] = map[string]any{"kind": "mutation", "outcome": "completed", "request_id": 1}
				rqSetEnvelope(r, env)
			}
		},
	},
	{
		Name: "recent-child-target", Area: "wire",
		Focus:       `ROUTING-RULE5-TV-PARENT-CHILD-001\.`,
		Description: "reports TV parent targets (get, search, recent) as tv_child targets",
		rewrite: func(resp Frame, c call) {
			r, env := rqToolResult(resp, c, "read_requests")
			data, _ := env["data"].(map[string]any)
			items, _ := data["items"].([]any)
			changed := false
			for _, x := range items {
				it, _ := x.(map[string]any)
				if t, ok := it["target"].(map[string]any); ok && t["kind"] == "tv_parent" {
					if _, isChild := it["parent_request_id"]; !isChild {
						t["kind"] = "tv_child"
						changed = true
					}
				}
			}
			if changed {
				rqSetEnvelope(r, env)
			}
		},
	},
}

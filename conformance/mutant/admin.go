package mutant

import "encoding/json"

// Mutants of the administration domain (issues, votes, users, settings,
// logs, jobs, notifications): each breaks one rule those tools must keep
// and is expected to be killed by the wire or errors checks of that domain.
// admArgs returns the tools/call arguments of a client request.
func admArgs(req Frame) map[string]any {
	p, _ := req["params"].(map[string]any)
	a, _ := p["arguments"].(map[string]any)
	return a
}

// admReplace swaps the envelope of a tool result in structuredContent and
// the text block alike, keeping isError == !ok, so only domain checks can
// notice.
func admReplace(r map[string]any, env map[string]any) {
	r["structuredContent"] = env
	b, _ := json.Marshal(env)
	r["content"] = []any{map[string]any{"type": "text", "text": string(b)}}
	ok, _ := env["ok"].(bool)
	r["isError"] = !ok
}

// admFailure returns the result and envelope of a failed call of tool
// with the given error code, or nils.
func admFailure(resp Frame, c call, tool, code string) (map[string]any, map[string]any) {
	r := result(resp)
	if c.method != "tools/call" || c.tool != tool || r == nil {
		return nil, nil
	}
	env := envelopeOf(r)
	if env == nil {
		return nil, nil
	}
	e, _ := env["error"].(map[string]any)
	if e == nil || e["code"] != code {
		return nil, nil
	}
	return r, env
}

// admOK is an ok envelope carrying data.
func admOK(env map[string]any, data map[string]any) map[string]any {
	return map[string]any{"ok": true, "operation": env["operation"], "data": data, "warnings": []any{},
		"truncated": false, "correlation_id": env["correlation_id"]}
}

var adminMutants = []Mutant{
	{
		Name: "vote-500-empty-page", Area: "errors",
		Description: "turns an upstream 500 on a vote read into an empty vote page",
		rewrite: func(resp Frame, c call) {
			if r, env := admFailure(resp, c, "read_votes", "UPSTREAM_REJECTED"); r != nil {
				admReplace(r, admOK(env, map[string]any{"kind": "vote_page", "items": []any{}, "page": map[string]any{
					"offset": 0, "limit": 25, "returned": 0, "total": 0, "has_more": false, "next_offset": nil, "mode": "local", "unit": "votes"}}))
			}
		},
	},
	{
		Name: "stale-revision-accepted", Area: "wire",
		Focus:       `VERIFY-AUTHZ-SETTINGS-001\.`,
		Description: "reports a settings patch with a stale revision as saved",
		rewrite: func(resp Frame, c call) {
			if r, env := admFailure(resp, c, "write_settings_patch", "CONFLICT"); r != nil {
				admReplace(r, admOK(env, map[string]any{"kind": "mutation", "outcome": "completed"}))
			}
		},
	},
	{
		Name: "settings-forwards-secret", Area: "wire",
		Description: "adds the section's apiKey leaf to the values of read_settings",
		rewrite: func(resp Frame, c call) {
			r := result(resp)
			if c.method != "tools/call" || c.tool != "read_settings" || r == nil {
				return
			}
			env := envelopeOf(r)
			data, _ := env["data"].(map[string]any)
			if data == nil {
				return
			}
			vals, _ := data["values"].([]any)
			data["values"] = append(vals, map[string]any{"name": "/apiKey", "value": "forwarded-secret"})
			admReplace(r, env)
		},
	},
	{
		Name: "risky-job-runs", Area: "wire",
		Description: "reports a job the deployment did not enable as started",
		rewrite: func(resp Frame, c call) {
			if r, env := admFailure(resp, c, "write_job_run", "FORBIDDEN"); r != nil {
				admReplace(r, admOK(env, map[string]any{"kind": "mutation", "outcome": "accepted"}))
			}
		},
	},
	{
		Name: "massemail-drops-unknown", Area: "wire",
		Focus:       `VERIFY-AUTHZ-EFFECTS-001\.write_notification_send\.`,
		Description: "silently drops all but the first recipient of a mass e-mail, so unknown ids are ignored",
		rewriteRequest: func(req Frame, c call) {
			a := admArgs(req)
			if c.method != "tools/call" || c.tool != "write_notification_send" || a == nil {
				return
			}
			if ids, ok := a["user_ids"].([]any); ok && len(ids) > 1 {
				a["user_ids"] = ids[:1]
			}
		},
	},
}

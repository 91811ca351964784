package mutant

// blindKept are the blind mutants the suite now kills on every seed: each
// stays in the blind set (its score is measured over the same 45 bugs,
// by area) and is also kept in Sources, judged with the clause, filter and
// focus of the check that kills it, so make mutants and make soak reject
// a regression.
var blindKept = []struct {
	name, clause, filter, focus string
}{
	{"blind-engine-result-false-success", "VERIFY-OUTPUT-BUSINESS-FAILURE-001", "errors", `unconfirmed-answer-not-done`},
	{"blind-retry-remove-empty-answer-completed", "VERIFY-OUTPUT-BUSINESS-FAILURE-001", "errors", `unconfirmed-answer-not-done`},
	{"blind-revalidate-unknown-answer-true", "VERIFY-OUTPUT-BUSINESS-FAILURE-001", "errors", `unconfirmed-answer-not-done`},
	{"blind-rate-limit-write-retryable", "RESULTS-ERRORS-RETRYABLE-001", "errors", `write-429-not-retryable`},
	{"blind-issue-status-admin-only", "ROUTING-RULE9-PERMISSIONS-001", "auth", `every-role`},
	{"blind-job-allow-list-lowercased", "VERIFY-AUTHZ-EFFECTS-001", "auth", `every-listed-job-runs`},
	{"blind-integration-test-default-unprovisioned", "VERIFY-AUTHZ-NO-FALLBACK-001", "auth", `every-unprovisioned-profile`},
	{"blind-streaming-country-field-misnamed", "DECISION-D1-STRICT-001", "wire", `unknown-country-field`},
	{"blind-tv-by-request-tvmaze-labels", "RESULTS-PROJECTION-001", "wire", `tmdb-keyed-routes`},
	{"blind-issue-counts-in-progress-from-pending", "RESULTS-PROJECTION-001", "wire", `counts-traceable`},
	{"blind-provider-summary-empty-array-mismatch", "VERIFY-OUTPUT-BUSINESS-FAILURE-001", "wire", `provider_summary\.empty-answers`},
	{"blind-upstream-page-has-more-guessed", "VERIFY-OUTPUT-PAGING-001", "wire", `has-more-claims-hold`},
	{"blind-budget-cut-has-more-missing", "RESULTS-BUDGET-001", "wire", `byte-cut-complete-page-truthful`},
	{"blind-logs-url-credentials-kept", "VERIFY-OUTPUT-NESTED-SECRETS-001", "wire", `every-credential-form`},
	{"blind-http-localhost-prefix-origin", "MCP-HTTP-ORIGIN-001", "protocol", `MCP-HTTP-ORIGIN-001`},
}

// keptBlindSources returns the blind mutants of blindKept, each with the
// judging settings of its killing check.
func keptBlindSources() []Source {
	var out []Source
	for _, k := range blindKept {
		for _, m := range blindSources {
			if m.Name == k.name {
				m.Clause, m.Filter, m.Focus = k.clause, k.filter, k.focus
				out = append(out, m)
			}
		}
	}
	return out
}

// keptBlind reports whether the named blind mutant is also kept in Sources.
func keptBlind(name string) bool {
	for _, k := range blindKept {
		if k.name == name {
			return true
		}
	}
	return false
}

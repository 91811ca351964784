package mutant

// upstreamSources are source mutants of the upstream client under a
// misbehaving Ombi (04-results: a bounded request deadline, the login
// included; oversized upstream data bounded while reading, before parsing):
// a login that stalls past the call's deadline, and an answer of unknown
// length read to its end instead of refused at the cap.
var upstreamSources = []Source{
	{
		Name: "login-detached-from-call-deadline", Domain: DomainAdmin, Clause: "RESULTS-BUDGET-BOUNDED-READ-001",
		Description: "the jwt login runs detached from the calling tool's deadline, so that one caller giving up does not waste the login the other calls wait for: a login that stalls holds the call (and every call waiting for the token) until Ombi answers",
		File:        "server/internal/ombi/client.go",
		Old:         "req, err := c.NewRequest(ctx, http.MethodPost, \"api/v1/Token\", loginRequest{",
		New:         "req, err := c.NewRequest(context.WithoutCancel(ctx), http.MethodPost, \"api/v1/Token\", loginRequest{",
		Filter:      "errors || budget", Focus: `BOUNDED-READ|RETRYABLE-001`,
	},
	{
		Name: "chunked-answer-cap-unchecked", Domain: DomainAdmin, Clause: "RESULTS-BUDGET-BOUNDED-READ-001",
		Description: "the read cap is enforced on an announced Content-Length only: an answer of unknown length (chunked) is read to its end under the shared body budget alone, so one over the cap but within the budget is parsed",
		File:        "server/internal/ombi/client.go",
		Old:         "\t\tparts = append(parts, buf[:n])\n\t\tif total > c.maxBody {\n\t\t\treturn nil, tooLarge()\n\t\t}\n",
		New:         "\t\tparts = append(parts, buf[:n])\n",
		Filter:      "errors || budget", Focus: `BOUNDED-READ|SAFE-ERRORS`,
	},
}

// Package checks holds the suite's checks: one Ginkgo spec per contract
// clause instance, declared on the tree by Suite.Tree, and the state they
// share during a run (Suite: the harness, the upstream, the servers started
// so far, what the preflight learned).
//
// Checks are grouped in areas, which are Ginkgo labels: protocol, schema,
// wire, errors, auth, leak, budget, fuzz and any; the rapid property checks
// (leak, budget and memory, faults, fuzz) also carry the label property.
// Each area has its file (area_*.go), a domain's wire checks theirs
// (wire_*.go), and the properties theirs (leak.go, budget.go,
// fabricate.go, faults.go, fuzz.go). Every check is declared through
// ClauseIt or ClauseItFor, which name the clause of spec/clauses.json it
// guards and build its Check: id (the clause id plus an optional
// qualifier, e.g. RESULTS-ISERROR-001.read_search), clause, area, tool,
// profile and labels, held in the suite's table (Declared) for the runner
// and the reports to read. Verdict judges a check's spec report against
// the baseline of expected failures (Baseline).
//
// The runner, the command line, split runs, reports, the soak and the
// mutant and subject judges are package conformance's; it drives a Suite
// through New, Preflight, Tree and Close, and reads each check's verdict
// with Verdict.
package checks

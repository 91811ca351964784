// Package checks holds the suite's checks: one Ginkgo spec per contract
// clause instance, declared on the tree by Suite.Tree, and the domain
// helpers they share. What they are written with and judged by (the Check
// type and table, ClauseIt, states and verdicts, profiles, scope,
// baselines, schema tables and the per-run Suite) is package
// conformance/framework's, as Kubernetes keeps test/e2e/framework apart
// from its tests.
//
// Checks are grouped in areas, which are Ginkgo labels: protocol, schema,
// wire, errors, auth, leak, budget, fuzz, any and resources; the rapid
// property checks (leak, budget and memory, faults, fuzz) also carry the
// label property. Each area has its file (area_*.go), a domain's wire
// checks theirs (wire_*.go), and the properties theirs (leak.go,
// budget.go, fabricate.go, faults.go, fuzz.go); tree.go declares the areas
// and the labels of live runs, live_support.go and live_leak.go what the
// checks do against a live Ombi behind the suite's proxy (direct reads with
// the run's credentials, the skips of what only the mock has, canaries
// planted in the live answers), catalogue.go the check of the tool
// catalogue. Every check is declared through the framework's ClauseIt or
// ClauseItFor, which name the clause of spec/clauses.json it guards and
// build its framework.Check.
//
// Suite (env.go) embeds *framework.Suite and adds what only these checks
// share. The checks reach the framework through short unexported aliases
// of its methods (s.call for Call, s.fail for Fail, s.expect, s.expectNone,
// s.shared, s.fresh, s.clean, s.setQuirk, s.injectFault, ...; skipAs,
// toolNames, ownTool) and read the harness, options and schema tables as
// s.h, s.opts and s.tables, so the hundreds of call sites read as before.
//
// The runner, the command line, split runs, the soak and the mutant and
// subject judges are package conformance's; it drives a Suite through New,
// Preflight, Tree and Close, and reads each check's verdict with
// framework.Verdict.
package checks

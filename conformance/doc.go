// Package conformance is the ombi-mcp conformance suite: Ginkgo checks, one
// per contract clause, that judge any MCP server binary over stdio through
// the harness contract (package harness). It never imports the reference
// server.
//
// Checks are grouped in areas, which are Ginkgo labels: protocol, schema,
// wire, errors, auth, leak, budget and fuzz; the rapid property checks (leak,
// budget and memory, faults, fuzz) also carry the label property. Every
// check is declared through
// ClauseIt or ClauseItFor, which name the clause of spec/clauses.json it
// guards; the check id is the clause id plus an optional qualifier, e.g.
// RESULTS-ISERROR-001.read_search.
//
// The ombi-conformance command is a thin wrapper around Main:
//
//	os.Exit(conformance.Main(ctx, os.Args[1:], os.Stdout, os.Stderr))
//
// Programs can also call Run with Options and read the Result:
//
//	res, err := conformance.Run(ctx, conformance.Options{
//		Target:      harness.Target{Command: []string{"./ombi-mcp"}},
//		LabelFilter: "protocol",
//	})
//
// Run and Checks build a Ginkgo suite, so only one of them may be called,
// once, per process.
package conformance

// Package conformance is the ombi-mcp conformance suite's runner: it
// judges any MCP server binary, over stdio or Streamable HTTP through the
// harness contract (package harness), by the checks of package checks, one
// per contract clause instance. It never imports the reference server.
//
// It holds what runs the checks and says what came of them: Run (the
// preflight, the Ginkgo run, the verdicts), the listing (Checks, --list),
// a large run split over processes of the suite (parallel.go), its
// progress as it runs (progress.go: a status line on a terminal, area
// lines elsewhere, the summary only with --quiet), the stress run, the
// soak, and the judges of mutants and subjects. The reports (text, JSON,
// JUnit, HTML) are package reports'; what the checks are written with and
// judged by (the Check type, ClauseIt, states and verdicts, profiles,
// scope, baselines) is package framework's.
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

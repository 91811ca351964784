// Package framework is what the suite's checks are written with and judged
// by, apart from the checks themselves, as Kubernetes keeps
// test/e2e/framework apart from its tests. The checks, grouped in areas,
// live in package conformance/checks; the runner, the command line and the
// soak in package conformance; the reports in conformance/reports, which
// import this package and never the checks.
//
// It holds:
//   - the check as typed data: Check (id, clause, qualifier, area, tool,
//     profile, labels), the table of a run's checks (Declared), and
//     ClauseIt/ClauseItFor, which build a check and declare its Ginkgo spec;
//     the areas (Areas, AreaRank) and the labels the runner reads
//     (LabelProperty, ClauseLabelPrefix, ToolLabelPrefix);
//   - a check's verdict: the states (StatePassed ... StateNotApplicable),
//     CheckResult and Result, Verdict against the Baseline of expected
//     failures, SkipAs for a check that ends without judging;
//   - the profiles (design, any), the scope of a run (the tools a server
//     lists or declares, the auth modes it starts in) and Options;
//   - the schema tables of fixtures/schema (Table, Example);
//   - Suite, the state every check shares during one run: the harness,
//     the servers started, shared, fresh and forgotten, tools/call with the
//     central result checks (Call, CallUnchecked), upstream quirks and
//     faults, and failures that name the check, its clause, what was
//     observed and a command that reruns it (Fail, Expect, ExpectNone).
package framework

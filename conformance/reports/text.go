package reports

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
)

// Verdict is a run's verdict in one word, its exit code and why:
// HARNESS ERROR, NOTHING RAN, FAIL, PASS, or PARTIAL for a run that passed
// on what it judged while checks of catalogue tools the server does not
// implement were left unjudged (a partial implementation, never a bare
// PASS); the why of a PARTIAL says how much was judged.
func Verdict(r *framework.Result) (word string, exit int, why string) {
	executed := r.Executed()
	switch {
	case r.HarnessError != "":
		return "HARNESS ERROR", ExitHarness, r.HarnessError
	case executed == 0:
		return "NOTHING RAN", ExitHarness, "no check executed: check --label-filter and --focus"
	case !r.OK():
		why = fmt.Sprintf("%d failed unexpectedly", r.Count(framework.StateFailed))
		if n := r.Count(framework.StateStale); n > 0 {
			why += fmt.Sprintf(", %d stale (listed in the baseline but passing)", n)
		}
		return "FAIL", ExitFail, why
	}
	why = fmt.Sprintf("%d checks executed, none failed unexpectedly", executed)
	if n := r.Count(framework.StateExpected); n > 0 {
		why += fmt.Sprintf(" (%d expected failures)", n)
	}
	if n := r.Count(framework.StateUnimplemented); n > 0 {
		judged := len(r.Checks) - r.Count(framework.StateNotApplicable) - r.Count(framework.StateSkipped)
		return "PARTIAL", ExitPass, fmt.Sprintf("%s; %d of %d checks (%d%%) are unimplemented: the server does not list or declare their tools or auth modes", why, n, judged, 100*n/max(judged, 1))
	}
	return "PASS", ExitPass, why
}

// FailureGroup is the checks of one clause that failed unexpectedly: a
// clause broken once usually fails several checks, and the group shows the
// one cause before its instances.
type FailureGroup struct {
	Clause string
	IDs    []string
}

// FailureGroups groups the unexpected failures of a run by clause, the
// largest group first.
func FailureGroups(r *framework.Result) []FailureGroup {
	var out []FailureGroup
	at := map[string]int{}
	for _, c := range r.Checks {
		if c.State != framework.StateFailed {
			continue
		}
		i, ok := at[c.Clause]
		if !ok {
			i = len(out)
			at[c.Clause] = i
			out = append(out, FailureGroup{Clause: c.Clause})
		}
		out[i].IDs = append(out[i].IDs, c.ID)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].IDs) > len(out[j].IDs) })
	return out
}

// Slowest returns the n checks of a run that took longest, longest first.
func Slowest(r *framework.Result, n int) []framework.CheckResult {
	var ran []framework.CheckResult
	for _, c := range r.Checks {
		if c.Duration > 0 {
			ran = append(ran, c)
		}
	}
	sort.SliceStable(ran, func(i, j int) bool { return ran[i].Duration > ran[j].Duration })
	return ran[:min(n, len(ran))]
}

// Summary writes the text report of a run: the per-area table and the verdict lines.
func Summary(w io.Writer, r *framework.Result) {
	type row struct{ passed, failed, expected, stale, skipped, unimplemented, na int }
	rows := map[string]*row{}
	var order []string
	for _, c := range r.Checks {
		a := c.Area
		if a == "" {
			a = "(none)"
		}
		if rows[a] == nil {
			rows[a] = &row{}
			order = append(order, a)
		}
		switch c.State {
		case framework.StatePassed:
			rows[a].passed++
		case framework.StateFailed:
			rows[a].failed++
		case framework.StateExpected:
			rows[a].expected++
		case framework.StateStale:
			rows[a].stale++
		case framework.StateUnimplemented:
			rows[a].unimplemented++
		case framework.StateNotApplicable:
			rows[a].na++
		default:
			rows[a].skipped++
		}
	}
	fmt.Fprintf(w, "\n%-10s %7s %7s %9s %6s %8s %14s %14s\n", "area", "passed", "failed", "expected", "stale", "skipped", "unimplemented", "not-applicable")
	var t row
	for _, a := range order {
		x := rows[a]
		fmt.Fprintf(w, "%-10s %7d %7d %9d %6d %8d %14d %14d\n", a, x.passed, x.failed, x.expected, x.stale, x.skipped, x.unimplemented, x.na)
		t.passed, t.failed, t.expected, t.stale, t.skipped, t.unimplemented, t.na = t.passed+x.passed, t.failed+x.failed, t.expected+x.expected, t.stale+x.stale, t.skipped+x.skipped, t.unimplemented+x.unimplemented, t.na+x.na
	}
	fmt.Fprintf(w, "%-10s %7d %7d %9d %6d %8d %14d %14d\n", "total", t.passed, t.failed, t.expected, t.stale, t.skipped, t.unimplemented, t.na)
	toolSummary(w, r)
	fmt.Fprintf(w, "tools/call requests: %d, seed: %d, took %s\n", r.Calls, r.Seed, r.Duration.Round(100*time.Millisecond))
	if slow := Slowest(r, 5); len(slow) > 0 {
		var parts []string
		for _, c := range slow {
			parts = append(parts, fmt.Sprintf("%s %s", c.ID, c.Duration.Round(100*time.Millisecond)))
		}
		fmt.Fprintf(w, "slowest checks: %s\n", strings.Join(parts, ", "))
	}
	reasons := map[string]int{}
	var why []string
	for _, c := range r.Checks {
		if c.State == framework.StateUnimplemented && !strings.HasPrefix(c.Reason, framework.ToolReasonPrefix) {
			if reasons[c.Reason] == 0 {
				why = append(why, c.Reason)
			}
			reasons[c.Reason]++
		}
	}
	for _, reason := range why {
		fmt.Fprintf(w, "UNIMPLEMENTED %4d: %s\n", reasons[reason], reason)
	}
	reasons, why = map[string]int{}, nil
	for _, c := range r.Checks {
		if c.State == framework.StateSkipped && c.Reason != "" {
			if reasons[c.Reason] == 0 {
				why = append(why, c.Reason)
			}
			reasons[c.Reason]++
		}
	}
	for _, reason := range why {
		fmt.Fprintf(w, "SKIPPED %4d: %s\n", reasons[reason], reason)
	}
	for _, c := range r.Checks {
		switch c.State {
		case framework.StateFailed:
			fmt.Fprintf(w, "FAILED  %s\n", c.ID)
		case framework.StateStale:
			fmt.Fprintf(w, "STALE   %s (listed as an expected failure but passes: remove it from the baseline)\n", c.ID)
		}
	}
	for _, g := range FailureGroups(r) {
		if len(g.IDs) > 1 {
			fmt.Fprintf(w, "FAILED  %d checks of %s: %s\n", len(g.IDs), g.Clause, strings.Join(g.IDs, ", "))
		}
	}
	word, _, because := Verdict(r)
	fmt.Fprintf(w, "verdict: %s: %s\n", word, because)
}

// toolSummary writes one row per catalogue tool: implemented (listed),
// declared, and its checks by state. Checks of no tool are the "(general)"
// row.
func toolSummary(w io.Writer, r *framework.Result) {
	if len(r.Tools) == 0 {
		return
	}
	type row struct{ passed, failed, unimplemented, other int }
	rows := map[string]*row{}
	for _, c := range r.Checks {
		x := rows[c.Tool]
		if x == nil {
			x = &row{}
			rows[c.Tool] = x
		}
		switch c.State {
		case framework.StatePassed:
			x.passed++
		case framework.StateFailed, framework.StateStale:
			x.failed++
		case framework.StateUnimplemented:
			x.unimplemented++
		default:
			x.other++
		}
	}
	fmt.Fprintf(w, "\n%-26s %-12s %7s %7s %14s %6s\n", "tool", "implemented", "passed", "failed", "unimplemented", "other")
	line := func(name, impl string, x *row) {
		if x == nil {
			x = &row{}
		}
		fmt.Fprintf(w, "%-26s %-12s %7d %7d %14d %6d\n", name, impl, x.passed, x.failed, x.unimplemented, x.other)
	}
	line("(general)", "", rows[""])
	for _, t := range r.Tools {
		impl := "no"
		switch {
		case t.Listed:
			impl = "yes"
		case t.Declared:
			impl = "declared,no"
		}
		line(t.Name, impl, rows[t.Name])
	}
}

package reports

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
)

func TestVerdict(t *testing.T) {
	run := func(states ...string) *framework.Result {
		r := &framework.Result{}
		for _, s := range states {
			r.Checks = append(r.Checks, framework.CheckResult{State: s})
		}
		return r
	}
	tests := []struct {
		name string
		r    *framework.Result
		word string
		exit int
		why  string
	}{
		{"harness error", &framework.Result{HarnessError: "the server did not start"}, "HARNESS ERROR", ExitHarness, "did not start"},
		{"nothing ran", run(framework.StateSkipped, framework.StateUnimplemented), "NOTHING RAN", ExitHarness, "no check executed"},
		{"a failure", run(framework.StatePassed, framework.StateFailed, framework.StateUnimplemented), "FAIL", ExitFail, "1 failed unexpectedly"},
		{"a stale baseline entry", run(framework.StatePassed, framework.StateStale), "FAIL", ExitFail, "1 stale"},
		{"every check judged", run(framework.StatePassed, framework.StatePassed, framework.StateNotApplicable), "PASS", ExitPass, "2 checks executed"},
		{"an expected failure", run(framework.StatePassed, framework.StateExpected), "PASS", ExitPass, "1 expected failures"},
		{"a partial implementation", run(framework.StatePassed, framework.StateUnimplemented, framework.StateUnimplemented, framework.StateUnimplemented, framework.StateNotApplicable),
			"PARTIAL", ExitPass, "3 of 4 checks (75%) are unimplemented"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			word, exit, why := Verdict(tt.r)
			if word != tt.word || exit != tt.exit || !strings.Contains(why, tt.why) {
				t.Fatalf("Verdict = %s, %d, %q; want %s, %d, containing %q", word, exit, why, tt.word, tt.exit, tt.why)
			}
		})
	}
}

func TestSlowest(t *testing.T) {
	r := &framework.Result{}
	for i, ms := range []int{30, 0, 10, 50, 20} {
		c := framework.CheckResult{State: framework.StatePassed, Duration: time.Duration(ms) * time.Millisecond}
		c.ID = fmt.Sprint("c", i)
		r.Checks = append(r.Checks, c)
	}
	var got []string
	for _, c := range Slowest(r, 3) {
		got = append(got, c.ID)
	}
	if strings.Join(got, " ") != "c3 c0 c4" {
		t.Fatalf("Slowest(3) = %v, want c3 c0 c4 (longest first, the check that did not run left out)", got)
	}
	if n := len(Slowest(r, 10)); n != 4 {
		t.Fatalf("Slowest(10) has %d checks, want the 4 that ran", n)
	}
}

func TestFailureGroups(t *testing.T) {
	r := &framework.Result{}
	for _, c := range []struct{ id, clause, state string }{
		{"A.1", "A", framework.StateFailed}, {"B.1", "B", framework.StateFailed}, {"A.2", "A", framework.StateFailed},
		{"A.3", "A", framework.StatePassed}, {"C.1", "C", framework.StateExpected},
	} {
		cr := framework.CheckResult{State: c.state}
		cr.ID, cr.Clause = c.id, c.clause
		r.Checks = append(r.Checks, cr)
	}
	got := FailureGroups(r)
	if len(got) != 2 || got[0].Clause != "A" || strings.Join(got[0].IDs, " ") != "A.1 A.2" || got[1].Clause != "B" {
		t.Fatalf("FailureGroups = %+v, want A (A.1 A.2) then B (B.1); passed and expected failures left out", got)
	}
}

package conformance_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/conformance"
	"github.com/ombi-mcp/ombi-mcp/conformance/reports"
)

// TestParallel_sameVerdicts: a run split over processes judges every check
// exactly as one process does, failures included (a declared tool the
// server does not list fails its checks), property checks judged apart
// from their tool's other checks included, and merges one report.
func TestParallel_sameVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the suite twice")
	}
	script, err := filepath.Abs(filepath.Join("testdata", "two-tool-server.sh"))
	if err != nil {
		t.Fatal(err)
	}
	server := "sh " + script + " " + serverBinary(t)
	dir := t.TempDir()
	states := map[string]map[string]string{}
	for _, n := range []string{"1", "3"} {
		report := filepath.Join(dir, "report-"+n+".json")
		r := runCLI(t, nil, "--server", server, "--seed", "11", "--label-filter", "schema || protocol || auth || fuzz",
			"--auth-modes", "api_key", "--tools", "read_search,read_media,read_discover", "--parallel", n, "--json", report)
		if r.code != conformance.ExitFail {
			t.Fatalf("--parallel %s: exit %d, want 1 (read_discover is declared, not listed)\n%s%s", n, r.code, clipText(r.stdout), r.stderr)
		}
		if split := strings.Contains(r.stdout, "over 3 processes"); split != (n == "3") {
			t.Errorf("--parallel %s: split=%v\n%s", n, split, clipText(r.stdout))
		}
		rep, err := reports.ReadJSON(report)
		if err != nil {
			t.Fatal(err)
		}
		states[n] = map[string]string{}
		ran := map[string]int{} // by area: the checks a process ran
		for _, c := range rep.Checks {
			states[n][c.ID] = c.State
			if c.State != conformance.StateSkipped || c.Reason != "" {
				ran[c.Area]++
			}
		}
		// the area lines count what ran, never the checks the filter or
		// another process's share left out: the parent's lines (before
		// the processes' output) and each process's add up to the report
		parent, children, _ := strings.Cut(r.stdout, "\n--- process ")
		if n == "1" {
			children = parent
		}
		for who, text := range map[string]string{"the run": parent, "its processes": children} {
			if got := areaLines(text); !reflect.DeepEqual(got, ran) {
				t.Errorf("--parallel %s: the area lines of %s count %v; the report ran %v", n, who, got, ran)
			}
		}
		if len(rep.Checks) < 300 {
			t.Fatalf("--parallel %s: %d checks, too few to split", n, len(rep.Checks))
		}
	}
	count := map[string]int{}
	for id, want := range states["1"] {
		if got, ok := states["3"][id]; !ok || got != want {
			t.Errorf("%s: %q in one process, %q split", id, want, got)
		}
		count[want]++
	}
	if len(states["3"]) != len(states["1"]) || count[conformance.StateFailed] == 0 || count[conformance.StatePassed] == 0 || count[conformance.StateUnimplemented] == 0 {
		t.Errorf("split run has %d checks, one process %d; states %v (want passed, failed and unimplemented ones)", len(states["3"]), len(states["1"]), count)
	}
}

// areaLines sums the progress's area lines by area: the checks that ran.
func areaLines(out string) map[string]int {
	sum := map[string]int{}
	for _, m := range areaLine.FindAllStringSubmatch(out, -1) {
		for _, n := range m[2:] {
			v, _ := strconv.Atoi(n)
			sum[m[1]] += v
		}
	}
	return sum
}

var areaLine = regexp.MustCompile(`(?m)^-- area (\S+) +(\d+) passed +(\d+) failed +(\d+) not run`)

// TestCheckCosts: the cost table that balances a split run knows most
// checks of the suite. A stale table only unbalances the processes (a
// check it does not know weighs the mean of its kind); regenerate it from
// a --json report as docs/conformance.md (Split runs) says.
func TestCheckCosts(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "check-costs.json"))
	if err != nil {
		t.Fatal(err)
	}
	costs := map[string]float64{}
	if err := json.Unmarshal(b, &costs); err != nil {
		t.Fatalf("testdata/check-costs.json: %v", err)
	}
	checks := listedChecks(t)
	known := 0
	for _, c := range checks {
		if _, ok := costs[c.ID]; ok {
			known++
		}
	}
	t.Logf("testdata/check-costs.json knows %d of %d checks", known, len(checks))
	if known*4 < len(checks)*3 {
		t.Errorf("testdata/check-costs.json knows only %d of %d checks: regenerate it from a --json report (docs/conformance.md, Split runs)", known, len(checks))
	}
}

// TestParallel_stopFile: a process of a split run with --fail-fast runs
// its checks while the stop file is absent, and skips every check it has
// not run, with the reason, once its parent has created it.
func TestParallel_stopFile(t *testing.T) {
	dir := t.TempDir()
	stop := filepath.Join(dir, "stop")
	for _, stopped := range []bool{false, true} {
		if stopped {
			if err := os.WriteFile(stop, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		report := filepath.Join(dir, "report-"+strconv.FormatBool(stopped)+".json")
		runCLI(t, nil, "--server", serverBinary(t), "--seed", "5", "--focus", "MCP-JSONRPC-CODES-001",
			"--auth-modes", "api_key", "--parallel", "1", "--fail-fast", "--shard-stop", stop, "--json", report)
		rep, err := reports.ReadJSON(report)
		if err != nil {
			t.Fatal(err)
		}
		count := map[string]int{}
		for _, c := range rep.Checks {
			if c.State == conformance.StateSkipped && strings.Contains(c.Reason, "(--fail-fast)") {
				count["stopped"]++
				continue
			}
			count[c.State]++
		}
		if stopped && (count["stopped"] == 0 || count[conformance.StatePassed] != 0) ||
			!stopped && (count["stopped"] != 0 || count[conformance.StatePassed] == 0) {
			t.Errorf("stop file present %v: checks by state %v", stopped, count)
		}
	}
}

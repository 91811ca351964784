package conformance_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/conformance"
)

// TestParallel_sameVerdicts: a run split over processes judges every check
// exactly as one process does, failures included (a declared tool the
// server does not list fails its checks), and merges one report.
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
	for _, n := range []string{"1", "2"} {
		report := filepath.Join(dir, "report-"+n+".json")
		r := runCLI(t, nil, "--server", server, "--seed", "11", "--label-filter", "schema || protocol || auth",
			"--auth-modes", "api_key", "--tools", "read_search,read_media,read_discover", "--parallel", n, "--json", report)
		if r.code != conformance.ExitFail {
			t.Fatalf("--parallel %s: exit %d, want 1 (read_discover is declared, not listed)\n%s%s", n, r.code, clipText(r.stdout), r.stderr)
		}
		if split := strings.Contains(r.stdout, "over 2 processes"); split != (n == "2") {
			t.Errorf("--parallel %s: split=%v\n%s", n, split, clipText(r.stdout))
		}
		rep, err := conformance.ReadJSONReport(report)
		if err != nil {
			t.Fatal(err)
		}
		states[n] = map[string]string{}
		for _, c := range rep.Checks {
			states[n][c.ID] = c.State
		}
		if len(rep.Checks) < 300 {
			t.Fatalf("--parallel %s: %d checks, too few to split", n, len(rep.Checks))
		}
	}
	count := map[string]int{}
	for id, want := range states["1"] {
		if got, ok := states["2"][id]; !ok || got != want {
			t.Errorf("%s: %q in one process, %q split", id, want, got)
		}
		count[want]++
	}
	if len(states["2"]) != len(states["1"]) || count[conformance.StateFailed] == 0 || count[conformance.StatePassed] == 0 || count[conformance.StateUnimplemented] == 0 {
		t.Errorf("split run has %d checks, one process %d; states %v (want passed, failed and unimplemented ones)", len(states["2"]), len(states["1"]), count)
	}
}

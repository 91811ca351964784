package conformance_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/conformance/mutant"
)

type reportJSON struct {
	Checks []struct {
		ID      string `json:"id"`
		Area    string `json:"area"`
		State   string `json:"state"`
		Failure string `json:"failure"`
	} `json:"checks"`
}

// finishedAreas are the areas the reference server is expected to pass: all
// of them. The run uses a fixed seed so CI is reproducible; make conformance
// draws a new seed each time.
const finishedAreas = "protocol || schema || wire || errors || auth || leak || budget || fuzz"

// TestMutants runs the suite against every mutant of the reference server,
// restricted to the area (or the narrower Filter) that should kill it, a few
// at a time, and against the unmutated server, which must pass those areas
// but for the failures its baseline (testdata/reference-server.baseline)
// lists.
func TestMutants(t *testing.T) {
	srv := serverBinary(t)
	cli := cliBinary(t)

	t.Run("unmutated", func(t *testing.T) {
		baseline, err := filepath.Abs(filepath.Join("testdata", "reference-server.baseline"))
		if err != nil {
			t.Fatal(err)
		}
		report := filepath.Join(t.TempDir(), "report.json")
		r := runCLI(t, nil, "--server", srv, "--label-filter", finishedAreas, "--seed", "20261129", "--expected-failures", baseline, "--json", report)
		if r.code != 0 {
			t.Errorf("the reference server fails %s beyond testdata/reference-server.baseline: exit %d\n%s", finishedAreas, r.code, clipText(r.stderr))
			var rep reportJSON
			if b, err := os.ReadFile(report); err == nil && json.Unmarshal(b, &rep) == nil {
				for _, c := range rep.Checks {
					if c.State == "failed" || c.State == "stale" {
						t.Errorf("%s %s:\n%s", c.State, c.ID, c.Failure)
					}
				}
			}
		}
	})
	var killed atomic.Int32
	t.Run("mutants", func(t *testing.T) {
		for _, m := range mutant.All() {
			t.Run(m.Name, func(t *testing.T) {
				t.Parallel()
				report := filepath.Join(t.TempDir(), "report.json")
				server := cli + " mutate --mutant " + m.Name + " -- " + srv
				filter := m.Area + " && !property"
				if m.Filter != "" {
					filter = "(" + m.Filter + ") && " + m.Area
				}
				args := []string{"--server", server, "--label-filter", filter, "--json", report}
				if m.Focus != "" {
					args = append(args, "--focus", m.Focus)
				}
				r := runCLI(t, nil, args...)
				if r.code != 1 {
					t.Fatalf("mutant %s (%s) survived: exit %d, want 1\n%s\n%s", m.Name, m.Description, r.code, clipText(r.stdout), clipText(r.stderr))
				}
				b, err := os.ReadFile(report)
				if err != nil {
					t.Fatalf("read report: %v", err)
				}
				var rep reportJSON
				if err := json.Unmarshal(b, &rep); err != nil {
					t.Fatalf("decode report: %v", err)
				}
				var failed []string
				for _, c := range rep.Checks {
					if c.State == "failed" && c.Area == m.Area {
						failed = append(failed, c.ID)
					}
				}
				if len(failed) == 0 {
					t.Fatalf("mutant %s: no check of area %s failed", m.Name, m.Area)
				}
				killed.Add(1)
				t.Logf("mutant %s killed by %d %s checks, e.g. %s", m.Name, len(failed), m.Area, failed[0])
			})
		}
	})
	t.Logf("kill score: %d/%d", killed.Load(), len(mutant.All()))
	if int(killed.Load()) != len(mutant.All()) {
		t.Errorf("kill score %d/%d: every mutant must be killed", killed.Load(), len(mutant.All()))
	}
}

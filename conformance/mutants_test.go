package conformance_test

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance"
	"github.com/ombi-mcp/ombi-mcp/conformance/mutant"
	"github.com/ombi-mcp/ombi-mcp/conformance/reports"
)

// mutantSeed is the seed every mutant is judged with here, so the verdict
// of make test never depends on the clock; make soak judges every mutant
// over many seeds.
const mutantSeed = 20261201

// finishedAreas are the areas the reference server is expected to pass: all
// of them. The run uses a fixed seed so CI is reproducible; make conformance
// draws a new seed each time.
const finishedAreas = "protocol || schema || wire || errors || auth || leak || budget || fuzz || any"

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
			if rep, err := reports.ReadJSON(report); err == nil {
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
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				defer cancel()
				v, err := conformance.JudgeMutant(ctx, cli, srv, m, mutantSeed)
				if err != nil {
					t.Fatal(err)
				}
				if !v.Killed {
					t.Fatalf("mutant %s (%s) survived seed %d: exit %d (want 1), %d %s checks failed\n%s", m.Name, m.Description, mutantSeed, v.Exit, len(v.Failed), m.Area, clipText(v.Output))
				}
				killed.Add(1)
				t.Logf("mutant %s killed by %d %s checks, e.g. %s", m.Name, len(v.Failed), m.Area, v.Failed[0])
			})
		}
	})
	t.Logf("kill score: %d/%d", killed.Load(), len(mutant.All()))
	if int(killed.Load()) != len(mutant.All()) {
		t.Errorf("kill score %d/%d: every mutant must be killed", killed.Load(), len(mutant.All()))
	}
}

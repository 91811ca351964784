package conformance_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance"
	"github.com/ombi-mcp/ombi-mcp/conformance/mutant"
)

// SourceMutantsEnv selects the source mutants TestSourceMutants judges:
// unset, the representative subset below (one or two per domain, seconds
// each, so make test stays quick); "all", every source mutant
// (make mutants); "blind", the blind set (mutant.BlindSources, kept out of
// "all": its survivors are expected and fail); otherwise a comma list of
// names.
const SourceMutantsEnv = "OMBI_SOURCE_MUTANTS"

// SourceMutantsFilterEnv, when set, judges every selected mutant with this
// label filter and no focus instead of the mutant's own narrow filter: it
// measures what a whole run of those areas kills (e.g. "!property").
const SourceMutantsFilterEnv = "OMBI_SOURCE_MUTANTS_FILTER"

// representativeSources are judged by every go test run: one or two per
// domain, each killed by a different kind of check (exact wire, a
// never-fabricate oracle, a fallback, an authorization rule).
var representativeSources = []string{
	"similar-total-invented",        // search: a total invented for a first result page
	"search-tv-fallback-any-status", // requests: a fallback taken on the wrong status
	"newsletter-opt-out-caller",     // users: an action sent for another user than asked
	"update-check-post",             // admin: a read_server branch with the wrong method
	"media-server-id-unchecked",     // admin: a saved-server id not checked
	"massemail-bcc-ignored",         // notifications: a dropped write-body field
}

// TestSourceMutants builds each selected source mutant of the reference
// server (a copy of the module with one planted bug) and runs the suite
// against it on a fixed seed with the mutant's filter: every one must be
// killed (exit 1, at least one failed check).
func TestSourceMutants(t *testing.T) {
	if testing.Short() {
		t.Skip("builds server binaries")
	}
	cli := cliBinary(t)
	root, err := mutant.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	var ms []mutant.Source
	switch sel := os.Getenv(SourceMutantsEnv); sel {
	case "all":
		ms = mutant.Sources()
	case mutant.BlindSet:
		ms = mutant.BlindSources()
	case "":
		for _, n := range representativeSources {
			m, ok := mutant.LookupSource(n)
			if !ok {
				t.Fatalf("representative source mutant %s is not in the table", n)
			}
			ms = append(ms, m)
		}
	default:
		for _, n := range strings.Split(sel, ",") {
			m, ok := mutant.LookupSource(strings.TrimSpace(n))
			if !ok {
				t.Fatalf("%s: unknown source mutant %q (have %s)", SourceMutantsEnv, n, strings.Join(mutant.SourceNames(), ", "))
			}
			ms = append(ms, m)
		}
	}
	broad, hasBroad := os.LookupEnv(SourceMutantsFilterEnv)
	builds := &conformance.SourceBuilds{Root: root}
	t.Cleanup(func() { _ = builds.Close() })

	type row struct {
		name, domain string
		killed       bool
		by           string
		build, judge time.Duration
	}
	var (
		mu   sync.Mutex
		rows []row
	)
	start := time.Now()
	t.Run("judge", func(t *testing.T) {
		for _, m := range ms {
			t.Run(m.Name, func(t *testing.T) {
				t.Parallel()
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
				defer cancel()
				t0 := time.Now()
				bin, err := builds.Binary(ctx, m)
				if err != nil {
					t.Fatal(err)
				}
				t1 := time.Now()
				if hasBroad {
					m.Filter, m.Focus = broad, ""
				}
				v, err := conformance.JudgeSource(ctx, cli, bin, m, mutantSeed)
				if err != nil {
					t.Fatal(err)
				}
				if hasBroad && v.Killed {
					// a broad run on a busy machine can fail a check by
					// timing: the kill counts only for checks that fail
					// again alone on the mutant and pass alone on the
					// reference server
					v.Failed, err = conformance.ConfirmKill(ctx, cli, bin, serverBinary(t), m.Transport, v.Failed, mutantSeed)
					if err != nil {
						t.Fatal(err)
					}
					v.Killed = len(v.Failed) > 0
				}
				r := row{name: m.Name, domain: m.Domain, killed: v.Killed, build: t1.Sub(t0), judge: time.Since(t1)}
				if v.Killed {
					r.by = strings.Join(v.Failed, ", ")
				}
				mu.Lock()
				rows = append(rows, r)
				mu.Unlock()
				if !v.Killed {
					t.Fatalf("source mutant %s (%s; %s) survived seed %d with %v: exit %d (want 1), %d checks failed\n%s",
						m.Name, m.Description, m.Clause, mutantSeed, conformance.SourceMutantArgs(bin, m, mutantSeed)[2:], v.Exit, len(v.Failed), clipText(v.Output))
				}
				t.Logf("killed by %d checks, e.g. %s (build %s, judge %s)", len(v.Failed), v.Failed[0], r.build.Round(time.Millisecond), r.judge.Round(time.Millisecond))
			})
		}
	})
	sort.Slice(rows, func(i, j int) bool {
		di, dj := slices.Index(mutant.Domains, rows[i].domain), slices.Index(mutant.Domains, rows[j].domain)
		if di != dj {
			return di < dj
		}
		return rows[i].name < rows[j].name
	})
	var b strings.Builder
	killed := map[string]int{}
	total := map[string]int{}
	for _, r := range rows {
		verdict := "SURVIVED"
		if r.killed {
			verdict = "killed by " + r.by
			killed[r.domain]++
		}
		total[r.domain]++
		fmt.Fprintf(&b, "  %-13s %-36s %s (build %s, judge %s)\n", r.domain, r.name, verdict, r.build.Round(100*time.Millisecond), r.judge.Round(100*time.Millisecond))
	}
	all := 0
	for _, d := range mutant.Domains {
		if total[d] > 0 {
			fmt.Fprintf(&b, "  domain %-13s %d/%d killed\n", d, killed[d], total[d])
		}
		all += killed[d]
	}
	t.Logf("source mutants, seed %d, %s:\n%s  kill score %d/%d in %s", mutantSeed, map[bool]string{true: "filter " + broad, false: "their own filters"}[hasBroad], b.String(), all, len(rows), time.Since(start).Round(time.Second))
}

// Command mutation measures the suite on bugs nobody chose: it lists every
// operator of the reference server's code that can be swapped for its
// neighbour (package mutant, OperatorSites), draws a seeded sample, builds
// each mutant and judges it with the whole suite (every area, profile
// design, a fixed seed, --fail-fast). A kill counts only when the failed
// checks fail again alone on the mutant and pass alone on the reference
// server. It prints the kill score per package and every survivor with its
// change, and exits 0: it measures, it does not gate (make mutation).
//
//	go run ./conformance/internal/mutation -sample 20 -seed 1
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance"
	"github.com/ombi-mcp/ombi-mcp/conformance/mutant"
)

// suiteSeed is the seed every judging run uses, so a verdict replays.
const suiteSeed = 20261203

func main() {
	sample := flag.Int("sample", 20, "how many operator sites to draw")
	seed := flag.Uint64("seed", 1, "the seed of the draw")
	jobs := flag.Int("jobs", 1, "mutants judged at once (and groups of the coverage run)")
	parallel := flag.Int("parallel", 1, "--parallel of each run of the suite: 1 keeps --fail-fast at the first failed check")
	only := flag.String("only", "", "comma list of mutant names of the sample: judge only these (the survivors of an earlier run, say)")
	flag.Parse()
	o := options{sample: *sample, seed: *seed, jobs: *jobs, parallel: *parallel}
	if *only != "" {
		o.only = strings.Split(*only, ",")
	}
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "mutation:", err)
		os.Exit(2)
	}
}

// options are the settings of a measure.
type options struct {
	sample   int
	seed     uint64
	jobs     int
	parallel int
	only     []string
}

// The states of a verdict.
const (
	killed     = "killed"
	survived   = "survived"
	notCovered = "not-covered" // a survivor no check reaches: judged without a build or a run
	notViable  = "not-viable"
)

type verdict struct {
	m        mutant.Source
	pkg      string
	state    string
	by       []string
	note     string
	groups   int // how many groups of checks judged it
	duration time.Duration
}

func run(ctx context.Context, o options) error {
	start := time.Now()
	root, err := mutant.ModuleRoot(".")
	if err != nil {
		return err
	}
	module, err := moduleOf(root)
	if err != nil {
		return err
	}
	sites, err := mutant.OperatorSites(root)
	if err != nil {
		return err
	}
	ms := mutant.SampleOperators(sites, o.sample, o.seed)
	if o.only != nil {
		var kept []mutant.Source
		for _, m := range ms {
			if slices.Contains(o.only, m.Name) {
				kept = append(kept, m)
			}
		}
		if len(kept) != len(o.only) {
			return fmt.Errorf("-only names %d mutants, %d of them are in the sample of %d drawn with seed %d", len(o.only), len(kept), o.sample, o.seed)
		}
		ms = kept
	}
	tmp, err := os.MkdirTemp("", "ombi-mutation-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cli, ref := filepath.Join(tmp, "ombi-conformance"), filepath.Join(tmp, "ombi-mcp")
	for bin, pkg := range map[string]string{cli: "./cmd/ombi-conformance", ref: "./cmd/ombi-mcp"} {
		cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	fmt.Printf("operator mutation: %d sites in server/, %d drawn with seed %d", len(sites), o.sample, o.seed)
	if o.only != nil {
		fmt.Printf(", %d of them judged (-only)", len(ms))
	}
	fmt.Printf(", judged with suite seed %d\n", suiteSeed)
	cov, err := measureCoverage(ctx, root, module, tmp, cli, o.jobs, o.parallel)
	if err != nil {
		return err
	}
	fmt.Printf("coverage run: %d groups of checks (each tool's, and those of no tool) against the reference server built with -cover, %s\n", len(cov.groups), cov.took.Round(time.Second))
	j := &judge{root: root, cli: cli, ref: ref, parallel: o.parallel, cov: cov,
		builds: &conformance.SourceBuilds{Root: root}, refPasses: map[string]bool{}}
	defer j.builds.Close()

	var (
		mu  sync.Mutex
		out []verdict
		wg  sync.WaitGroup
	)
	sem := make(chan struct{}, max(o.jobs, 1))
	for _, m := range ms {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			v := j.judge(ctx, m)
			mu.Lock()
			out = append(out, v)
			fmt.Printf("  %-11s %s: %s%s [%d/%d, %s, %d groups]\n", v.state, m.Name, m.Description, detail(v),
				len(out), len(ms), v.duration.Round(time.Second), v.groups)
			mu.Unlock()
		}()
	}
	wg.Wait()
	report(out)
	fmt.Printf("took %s\n", time.Since(start).Round(time.Second))
	return nil
}

// judge judges operator mutants of the module at root with the suite cli,
// against the reference server ref, by the groups of checks that reach
// each mutant's site.
type judge struct {
	root, cli, ref string
	parallel       int
	cov            *coverage
	builds         *conformance.SourceBuilds

	mu        sync.Mutex
	refPasses map[string]bool // a check id run alone on the reference server: did it pass
}

func (j *judge) judge(ctx context.Context, m mutant.Source) verdict {
	start := time.Now()
	v := verdict{m: m, pkg: filepath.ToSlash(filepath.Dir(m.File))}
	defer func() { v.duration = time.Since(start) }()
	src, err := os.ReadFile(filepath.Join(j.root, m.File))
	if err != nil || m.At >= len(src) {
		v.state, v.note = survived, fmt.Sprintf("the judge did not run: read %s: %v", m.File, err)
		return v
	}
	line, col := position(src, m.At)
	gs, known := j.cov.reaching(m.File, line, col)
	switch {
	case known && len(gs) == 0:
		v.state, v.note = notCovered, "no check executes its block"
		return v
	case !known || len(gs) == len(j.cov.groups):
		gs = j.cov.groups
		m.Filter = ""
	default:
		m.Filter = filterOf(gs)
	}
	v.groups = len(gs)
	bin, err := j.builds.Binary(ctx, m)
	if err != nil {
		v.state = notViable
		return v
	}
	r, err := conformance.JudgeSource(ctx, j.cli, bin, m, suiteSeed, "--parallel", strconv.Itoa(j.parallel))
	switch {
	case err != nil:
		v.state, v.note = survived, "the judge did not run: "+err.Error()
		return v
	case r.Exit == conformance.ExitHarness:
		// the server did not start or broke its session: any run of the
		// suite stops on it (the reference server passes the same run)
		v.state, v.by = killed, []string{"harness error"}
		return v
	case !r.Killed:
		v.state, v.note = survived, fmt.Sprintf("exit %d, no check failed", r.Exit)
		return v
	}
	// a whole run on a busy machine can fail a check by timing: the kill
	// counts for the checks that fail alone on the mutant and pass alone
	// on the reference server
	by, err := j.confirm(ctx, bin, r.Failed)
	v.by = by
	v.state, v.note = survived, "the failed checks did not fail alone on the mutant, or failed on the reference server too: "+strings.Join(r.Failed, ", ")
	if err != nil {
		v.note = "confirming the kill failed: " + err.Error()
	}
	if len(v.by) > 0 {
		v.state = killed
	}
	return v
}

// confirm reruns the failed checks alone on the mutant bin, and returns
// those that fail again and pass alone on the reference server. A check's
// run alone on the reference server is the same for every mutant (one
// seed, one binary), so it runs once per check.
func (j *judge) confirm(ctx context.Context, bin string, failed []string) ([]string, error) {
	again, err := conformance.JudgeSource(ctx, j.cli, bin, alone(failed), suiteSeed)
	if err != nil {
		return nil, err
	}
	var unknown []string
	j.mu.Lock()
	for _, id := range again.Failed {
		if _, ok := j.refPasses[id]; !ok {
			unknown = append(unknown, id)
		}
	}
	j.mu.Unlock()
	if len(unknown) > 0 {
		r, err := conformance.JudgeSource(ctx, j.cli, j.ref, alone(unknown), suiteSeed)
		if err != nil {
			return nil, err
		}
		j.mu.Lock()
		for _, id := range unknown {
			j.refPasses[id] = !slices.Contains(r.Failed, id)
		}
		j.mu.Unlock()
	}
	var out []string
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, id := range again.Failed {
		if j.refPasses[id] {
			out = append(out, id)
		}
	}
	return out, nil
}

// alone is the run of exactly the checks ids.
func alone(ids []string) mutant.Source {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = regexp.QuoteMeta(id)
	}
	return mutant.Source{Name: "confirm", Focus: `\[(?:` + strings.Join(q, "|") + `)\] `}
}

func report(out []verdict) {
	sort.Slice(out, func(i, j int) bool { return out[i].m.Name < out[j].m.Name })
	type score struct{ killed, viable, notCovered, notViable int }
	per := map[string]*score{}
	var pkgs []string
	for _, v := range out {
		s := per[v.pkg]
		if s == nil {
			s = &score{}
			per[v.pkg] = s
			pkgs = append(pkgs, v.pkg)
		}
		switch v.state {
		case notViable:
			s.notViable++
			continue
		case killed:
			s.killed++
		case notCovered:
			s.notCovered++
		}
		s.viable++
	}
	sort.Strings(pkgs)
	var all score
	fmt.Println("kill score per package (not-covered mutants are survivors; not-viable mutants do not compile and do not count):")
	line := func(name string, s score) {
		fmt.Printf("  %-24s %d/%d killed (%s), %d of the survivors not covered, %d not viable\n", name, s.killed, s.viable, pct(s.killed, s.viable), s.notCovered, s.notViable)
	}
	for _, p := range pkgs {
		s := per[p]
		line(p, *s)
		all.killed += s.killed
		all.viable += s.viable
		all.notCovered += s.notCovered
		all.notViable += s.notViable
	}
	line("all", all)
	for _, state := range []string{survived, notCovered} {
		fmt.Printf("%s:\n", map[string]string{survived: "survivors judged by the checks that reach them", notCovered: "survivors no check reaches (not covered)"}[state])
		n := 0
		for _, v := range out {
			if v.state == state {
				n++
				fmt.Printf("  %s: %s%s\n", v.m.Name, v.m.Description, detail(v))
			}
		}
		if n == 0 {
			fmt.Println("  none")
		}
	}
}

func detail(v verdict) string {
	switch {
	case len(v.by) > 0:
		return " (by " + strings.Join(v.by, ", ") + ")"
	case v.note != "":
		return " (" + v.note + ")"
	}
	return ""
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}

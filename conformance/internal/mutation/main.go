// Command mutation measures the suite on bugs nobody chose: it lists every
// operator of the reference server's code that can be swapped for its
// neighbour (package mutant, OperatorSites), draws a seeded sample, and
// judges each mutant with the suite (profile design, a fixed seed,
// --fail-fast).
//
// It first runs the suite against the reference server built with -cover,
// once per group of checks (the checks of each tool, and those of no
// tool), each group with its own GOCOVERDIR, over stdio and again over
// Streamable HTTP. A mutant is then built and judged by the groups whose
// servers executed the block holding its operator over stdio, or, for a
// site only the HTTP runs reach, by those that executed it there, over
// --transport http: the other groups see the reference server's
// behaviour. A site in a block no group executed over either transport is
// not covered: a survivor, reported apart, judged without a build or a
// run. A kill counts only when the failed
// checks fail again alone on the mutant and pass alone on the reference
// server. It prints the kill score per package and every survivor with its
// change, and exits 0: it measures, it does not gate (make mutation).
//
//	go run ./conformance/internal/mutation -sample 20 -seed 1
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
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
	record := flag.String("record", "", "write the verdicts to this JSON file")
	resume := flag.Bool("resume", false, "with -record: keep the verdicts the record holds (a measure stopped early) and judge the rest of the sample")
	print := flag.String("print", "", "judge nothing: print the score and survivors of this record of verdicts")
	after := flag.String("after", "", "with -print: a record of some of the same mutants judged again; its verdicts replace theirs, and the score is printed before and after")
	focus := flag.String("focus", "", "judge by the checks whose text matches this regular expression only, with no coverage run (new checks, on the survivors of a run that judged every other check)")
	transport := flag.String("transport", "", "with -focus: judge over this transport, http (each server started with --http {addr}); without -focus the coverage run decides")
	flag.Parse()
	if *print != "" {
		if err := printRecords(os.Stdout, *print, *after); err != nil {
			fmt.Fprintln(os.Stderr, "mutation:", err)
			os.Exit(2)
		}
		return
	}
	o := options{sample: *sample, seed: *seed, jobs: *jobs, parallel: *parallel, record: *record, resume: *resume, focus: *focus, transport: *transport}
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
	sample    int
	seed      uint64
	jobs      int
	parallel  int
	only      []string
	record    string
	resume    bool
	focus     string
	transport string // with focus: "" (stdio) or http
}

// The states of a verdict.
const (
	killed     = "killed"
	survived   = "survived"
	notCovered = "not-covered" // a survivor no check reaches: judged without a build or a run
	notViable  = "not-viable"
)

type verdict struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Package     string   `json:"package"`
	State       string   `json:"state"`
	By          []string `json:"by,omitempty"`   // the checks that killed it
	Note        string   `json:"note,omitempty"` // why a survivor survived
	Groups      int      `json:"groups"`         // how many groups of checks judged it
	// Transport is the --transport it was judged over: "" for stdio, http
	// for a site only Streamable HTTP runs reach.
	Transport string  `json:"transport,omitempty"`
	Seconds   float64 `json:"seconds"`
}

func run(ctx context.Context, o options) error {
	start := time.Now()
	switch {
	case o.transport != "" && o.transport != harness.TransportHTTP:
		return fmt.Errorf("-transport %q: want http (stdio is the default)", o.transport)
	case o.transport != "" && o.focus == "":
		return fmt.Errorf("-transport needs -focus: without it the coverage run decides the transport of each mutant")
	}
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
	// judged in an order drawn from the seed, so the mutants judged first
	// are a random part of the sample too
	rand.New(rand.NewPCG(o.seed, 1)).Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	var out []verdict // the verdicts so far
	if o.resume {
		if out, ms, err = resumed(o, len(sites), ms); err != nil {
			return err
		}
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
	if o.resume {
		fmt.Printf("resumed: %d verdicts kept from %s, %d mutants left to judge\n", len(out), o.record, len(ms))
	}
	var cov *coverage
	if o.focus == "" {
		cov, err = measureCoverage(ctx, root, module, tmp, cli, o.jobs, o.parallel)
		if err != nil {
			return err
		}
		fmt.Printf("coverage run: %d groups of checks (each tool's, and those of no tool), over stdio and over Streamable HTTP, against the reference server built with -cover, %s\n", len(cov.groups), cov.took.Round(time.Second))
	} else {
		fmt.Printf("judged by the checks matching %q only, every mutant built (no coverage run)\n", o.focus)
	}
	j := &judge{root: root, cli: cli, ref: ref, parallel: o.parallel, cov: cov, focus: o.focus, transport: o.transport,
		builds: &conformance.SourceBuilds{Root: root}, refPasses: map[string]bool{}}
	defer j.builds.Close()

	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	total := len(out) + len(ms)
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
			if o.record != "" { // so far: a run stopped early leaves what it judged
				if err := writeRecord(o.record, record{Sites: len(sites), Sample: o.sample, Seed: o.seed, SuiteSeed: suiteSeed, Verdicts: out}); err != nil {
					fmt.Fprintln(os.Stderr, "mutation:", err)
				}
			}
			fmt.Printf("  %-11s %s: %s%s [%d/%d, %.0fs, %d groups]\n", v.State, v.Name, v.Description, detail(v),
				len(out), total, v.Seconds, v.Groups)
			mu.Unlock()
		}()
	}
	wg.Wait()
	rec := record{Sites: len(sites), Sample: o.sample, Seed: o.seed, SuiteSeed: suiteSeed, Verdicts: out}
	sortVerdicts(rec.Verdicts)
	report(os.Stdout, rec.Verdicts)
	fmt.Printf("took %s\n", time.Since(start).Round(time.Second))
	if o.record != "" {
		return writeRecord(o.record, rec)
	}
	return nil
}

// judge judges operator mutants of the module at root with the suite cli,
// against the reference server ref, by the groups of checks that reach
// each mutant's site.
type judge struct {
	root, cli, ref string
	parallel       int
	cov            *coverage // nil with focus
	focus          string    // the --focus of every run, or "" for the groups that reach the site
	transport      string    // with focus: the --transport of every run ("" is stdio)
	builds         *conformance.SourceBuilds

	mu        sync.Mutex
	refPasses map[string]bool // a check id run alone on the reference server, by transport and id: did it pass
}

func (j *judge) judge(ctx context.Context, m mutant.Source) (v verdict) {
	start := time.Now()
	v = verdict{Name: m.Name, Description: m.Description, Package: filepath.ToSlash(filepath.Dir(m.File))}
	defer func() { v.Seconds = time.Since(start).Seconds() }()
	src, err := os.ReadFile(filepath.Join(j.root, m.File))
	if err != nil || m.At >= len(src) {
		v.State, v.Note = survived, fmt.Sprintf("the judge did not run: read %s: %v", m.File, err)
		return v
	}
	line, col := position(src, m.At)
	var gs []group
	if j.cov == nil {
		m.Focus, m.Transport = j.focus, j.transport
	} else {
		p := j.cov.plan(m.File, line, col)
		if len(p.Groups) == 0 {
			v.State, v.Note = notCovered, "no check executes its block, over stdio or Streamable HTTP"
			return v
		}
		gs = p.Groups
		if p.Transport == harness.TransportHTTP {
			m.Transport = harness.TransportHTTP
		}
		m.Filter = ""
		if !p.Every {
			m.Filter = filterOf(gs)
		}
	}
	v.Transport = m.Transport
	v.Groups = len(gs)
	bin, err := j.builds.Binary(ctx, m)
	if err != nil {
		v.State = notViable
		return v
	}
	r, err := conformance.JudgeSource(ctx, j.cli, bin, m, suiteSeed, "--parallel", strconv.Itoa(j.parallel))
	switch {
	case err != nil:
		v.State, v.Note = survived, "the judge did not run: "+err.Error()
		return v
	case r.Exit == conformance.ExitHarness:
		// the server did not start or broke its session: any run of the
		// suite stops on it (the reference server passes the same run)
		v.State, v.By = killed, []string{"harness error"}
		return v
	case !r.Killed:
		v.State, v.Note = survived, fmt.Sprintf("exit %d, no check failed", r.Exit)
		return v
	}
	// a whole run on a busy machine can fail a check by timing: the kill
	// counts for the checks that fail alone on the mutant and pass alone
	// on the reference server
	by, err := j.confirm(ctx, bin, m.Transport, r.Failed)
	switch {
	case len(by) > 0:
		v.State, v.By = killed, by
	case err != nil:
		v.State, v.Note = survived, "confirming the kill failed: "+err.Error()
	default:
		v.State, v.Note = survived, "the failed checks did not fail alone on the mutant, or failed on the reference server too: "+strings.Join(r.Failed, ", ")
	}
	return v
}

// resumed reads the record of a measure stopped early: its verdicts, and
// the mutants of ms it has not judged. The record must be of the same
// draw (sites, sample and seed); a record that does not exist yet holds
// none.
func resumed(o options, sites int, ms []mutant.Source) ([]verdict, []mutant.Source, error) {
	if o.record == "" {
		return nil, nil, fmt.Errorf("-resume needs -record")
	}
	r, err := readRecord(o.record)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ms, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if r.Sites != sites || r.Sample != o.sample || r.Seed != o.seed || r.SuiteSeed != suiteSeed {
		return nil, nil, fmt.Errorf("%s records %d drawn with seed %d from %d sites (suite seed %d), not this measure's %d with seed %d from %d (suite seed %d)",
			o.record, r.Sample, r.Seed, r.Sites, r.SuiteSeed, o.sample, o.seed, sites, suiteSeed)
	}
	done := map[string]bool{}
	for _, v := range r.Verdicts {
		done[v.Name] = true
	}
	var rest []mutant.Source
	for _, m := range ms {
		if !done[m.Name] {
			rest = append(rest, m)
		}
	}
	return r.Verdicts, rest, nil
}

// confirm reruns the failed checks alone on the mutant bin over transport
// (the mutant's run's: "" is stdio), and returns those that fail again and
// pass alone on the reference server. A check's run alone on the reference
// server is the same for every mutant (one seed, one binary, one
// transport), so it runs once per check and transport.
func (j *judge) confirm(ctx context.Context, bin, transport string, failed []string) ([]string, error) {
	again, err := conformance.JudgeSource(ctx, j.cli, bin, alone(failed, transport), suiteSeed)
	if err != nil {
		return nil, err
	}
	key := func(id string) string { return transport + " " + id }
	var unknown []string
	j.mu.Lock()
	for _, id := range again.Failed {
		if _, ok := j.refPasses[key(id)]; !ok {
			unknown = append(unknown, id)
		}
	}
	j.mu.Unlock()
	if len(unknown) > 0 {
		r, err := conformance.JudgeSource(ctx, j.cli, j.ref, alone(unknown, transport), suiteSeed)
		if err != nil {
			return nil, err
		}
		j.mu.Lock()
		for _, id := range unknown {
			j.refPasses[key(id)] = !slices.Contains(r.Failed, id)
		}
		j.mu.Unlock()
	}
	var out []string
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, id := range again.Failed {
		if j.refPasses[key(id)] {
			out = append(out, id)
		}
	}
	return out, nil
}

// alone is the run of exactly the checks ids over transport.
func alone(ids []string, transport string) mutant.Source {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = regexp.QuoteMeta(id)
	}
	return mutant.Source{Name: "confirm", Focus: `\[(?:` + strings.Join(q, "|") + `)\] `, Transport: transport}
}

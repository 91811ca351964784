package conformance

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance/checks"
	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/mutant"
	"github.com/ombi-mcp/ombi-mcp/conformance/reports"
)

// SoakOptions configure a soak: the property areas of one server over many
// seeds, and every mutant of it over several seeds each.
type SoakOptions struct {
	// Self is the ombi-conformance executable the soak runs once per seed.
	Self string
	// Server is the command line of the server under test, as --server takes it.
	Server string
	// Seeds is how many seeds the property areas run over (FirstSeed,
	// FirstSeed+1, ...); 0 runs none.
	Seeds     int
	FirstSeed int64
	// MutantSeeds is how many seeds every mutant runs over; 0 runs none.
	MutantSeeds int
	// Mutants names the mutants to judge, proxy or source-level; nil = all
	// of them (the source-level ones only with SourceRoot); "none" judges
	// none of them (the subjects alone).
	Mutants []string
	// SourceRoot is the module root the source-level mutants are built
	// from (each once, then judged over MutantSeeds seeds); "" judges no
	// source-level mutant.
	SourceRoot string
	// LabelFilter selects the checks of the server runs; "" = "property".
	LabelFilter string
	// Subjects are servers of other designs judged in the any profile over
	// MutantSeeds seeds: each clean (it must pass) and with each of its
	// planted bugs (it must be caught).
	Subjects []Subject
	// Jobs is how many runs go at once; 0 = 1.
	Jobs int
	// Extra are more flags for every run (e.g. --fixtures DIR).
	Extra []string
	// Out receives one line per run and the final count; nil = io.Discard.
	Out io.Writer
	// Keep is the directory where the whole output of every failed run is
	// written (seed-N.log, mutant-NAME-seed-N.log); "" = a new directory
	// under the system's temporary directory, made on the first failure.
	Keep string
}

// SoakResult counts the runs of a soak: a server run passes when every
// check passed, a mutant run passes when the mutant was killed.
type SoakResult struct {
	Passed, Failed int
}

// MutantVerdict is the outcome of one mutant run.
type MutantVerdict struct {
	Killed bool
	Exit   int
	// Failed are the checks of the mutant's area that failed.
	Failed []string
	// Output is the run's whole output, for a survivor.
	Output string
}

// MutantArgs are the suite flags that judge mutant m: the mutant wrapped
// around server, the narrowest filter that kills it, and seed, against the
// design (a mutant of the reference server is judged as it is). The run
// stops at the first failed check: one is enough to kill the mutant.
func MutantArgs(self, server string, m mutant.Mutant, seed int64) []string {
	filter := m.Area + " && !property"
	if m.Filter != "" {
		filter = "(" + m.Filter + ") && " + m.Area
	}
	args := []string{"--server", framework.ShellWord(self) + " mutate --mutant " + m.Name + " -- " + server,
		"--label-filter", filter, "--seed", fmt.Sprint(seed), "--fail-fast", "--profile", framework.ProfileDesign}
	if m.Focus != "" {
		args = append(args, "--focus", m.Focus)
	}
	return args
}

// JudgeMutant runs the suite (self) against mutant m of server with seed:
// the mutant is killed when the run exits 1 with a failed check in the
// mutant's area.
func JudgeMutant(ctx context.Context, self, server string, m mutant.Mutant, seed int64, extra ...string) (MutantVerdict, error) {
	args := append(MutantArgs(self, server, m, seed), extra...)
	rep, code, out, err := runReport(ctx, self, args)
	if err != nil {
		return MutantVerdict{}, err
	}
	v := MutantVerdict{Exit: code, Output: out}
	for _, c := range rep.Checks {
		if c.State == StateFailed && c.Area == m.Area {
			v.Failed = append(v.Failed, c.ID)
		}
	}
	v.Killed = code == ExitFail && len(v.Failed) > 0
	return v, nil
}

// runReport runs the suite once with args and a JSON report, and returns
// the report, the exit code and the combined output.
func runReport(ctx context.Context, self string, args []string) (*reports.JSON, int, string, error) {
	return runReportEnv(ctx, self, nil, args)
}

// runReportEnv is runReport with env added to the suite's environment.
func runReportEnv(ctx context.Context, self string, env, args []string) (*reports.JSON, int, string, error) {
	dir, err := os.MkdirTemp("", "ombi-soak-")
	if err != nil {
		return nil, 0, "", fmt.Errorf("soak: %w", err)
	}
	defer os.RemoveAll(dir)
	report := filepath.Join(dir, "report.json")
	cmd := exec.CommandContext(ctx, self, append(append([]string(nil), args...), "--json", report)...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// an interrupted soak interrupts the run, so its own cleanup stops the
	// servers it started; the wait delay is the fallback
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	err = cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		return nil, 0, out.String(), fmt.Errorf("soak: run %s: %w", self, err)
	}
	rep := &reports.JSON{}
	if _, err := os.Stat(report); err == nil { // a harness error may write none
		if rep, err = reports.ReadJSON(report); err != nil {
			return nil, code, out.String(), fmt.Errorf("soak: %w", err)
		}
	}
	return rep, code, out.String(), nil
}

// Soak runs the server's property areas over o.Seeds seeds and every mutant
// over o.MutantSeeds seeds, printing a line per run and a final
// "N passed, N failed" line.
func Soak(ctx context.Context, o SoakOptions) (SoakResult, error) {
	out := o.Out
	if out == nil {
		out = io.Discard
	}
	filter := o.LabelFilter
	if filter == "" {
		filter = "property"
	}
	jobs := max(o.Jobs, 1)
	var ms []mutant.Mutant
	var srcs []mutant.Source
	if o.MutantSeeds > 0 {
		if len(o.Mutants) == 0 {
			ms = mutant.All()
			if o.SourceRoot != "" {
				srcs = mutant.Sources()
			}
		}
		for _, name := range o.Mutants {
			if name == "none" { // the subjects alone
				continue
			}
			if m, ok := mutant.Lookup(name); ok {
				ms = append(ms, m)
				continue
			}
			m, ok := mutant.LookupSource(name)
			if !ok {
				return SoakResult{}, fmt.Errorf("soak: unknown mutant %q (have %s, and the source-level %s)", name, strings.Join(mutant.Names(), ", "), strings.Join(mutant.SourceNames(), ", "))
			}
			if o.SourceRoot == "" {
				return SoakResult{}, fmt.Errorf("soak: source-level mutant %s needs the module source (--source-root)", name)
			}
			srcs = append(srcs, m)
		}
	}
	builds := &SourceBuilds{Root: o.SourceRoot}
	defer builds.Close()
	type job struct {
		seed int64
		m    *mutant.Mutant
		src  *mutant.Source
		sub  *Subject
		bug  SubjectBug
	}
	var work []job
	for i := range o.Seeds {
		work = append(work, job{seed: o.FirstSeed + int64(i)})
	}
	for i := range ms {
		for j := range o.MutantSeeds {
			work = append(work, job{seed: o.FirstSeed + int64(j), m: &ms[i]})
		}
	}
	for i := range srcs {
		for j := range o.MutantSeeds {
			work = append(work, job{seed: o.FirstSeed + int64(j), src: &srcs[i]})
		}
	}
	subjectRuns := 0
	for i := range o.Subjects {
		for j := range o.MutantSeeds {
			for _, b := range append([]SubjectBug{{}}, o.Subjects[i].Bugs...) {
				work = append(work, job{seed: o.FirstSeed + int64(j), sub: &o.Subjects[i], bug: b})
				subjectRuns++
			}
		}
	}
	var (
		mu     sync.Mutex
		res    SoakResult
		first  error
		next   = make(chan job)
		wg     sync.WaitGroup
		report = func(pass bool, line string) {
			mu.Lock()
			defer mu.Unlock()
			if pass {
				res.Passed++
			} else {
				res.Failed++
			}
			fmt.Fprintln(out, line)
		}
	)
	// verdict reports whether a run gave one: not when the soak was
	// interrupted, nor when the run could not be made (err is kept)
	verdict := func(err error) bool {
		if ctx.Err() != nil {
			return false
		}
		if err != nil {
			mu.Lock()
			first = errors.Join(first, err)
			mu.Unlock()
			return false
		}
		return true
	}
	var keepMu sync.Mutex
	keep := func(name, text string) string {
		keepMu.Lock()
		defer keepMu.Unlock()
		if o.Keep == "" {
			d, err := os.MkdirTemp("", "ombi-soak-failures-")
			if err != nil {
				return "(not kept: " + err.Error() + ")"
			}
			o.Keep = d
		}
		p := filepath.Join(o.Keep, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return "(not kept: " + err.Error() + ")"
		}
		return p
	}
	start := time.Now()
	fmt.Fprintf(out, "soak: %d server seeds (%s), %d mutants (%d source-level) x %d seeds, %d subject runs, %d at a time\n", o.Seeds, filter, len(ms)+len(srcs), len(srcs), o.MutantSeeds, subjectRuns, jobs)
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				t0 := time.Now()
				took := func() string { return time.Since(t0).Round(time.Second).String() }
				if j.sub != nil {
					v, err := JudgeSubject(ctx, o.Self, *j.sub, j.bug, j.seed, o.Extra...)
					if !verdict(err) {
						continue
					}
					name := j.sub.Name + "/" + cmp.Or(j.bug.Name, "clean")
					switch {
					case v.Pass(j.bug.Name) && j.bug.Name == "":
						report(true, fmt.Sprintf("subject %-31s seed %-6d passed (%s)", name, j.seed, took()))
					case v.Pass(j.bug.Name):
						report(true, fmt.Sprintf("subject %-31s seed %-6d caught by %s (%s)", name, j.seed, v.Caught[0], took()))
					default:
						want := "passing"
						if j.bug.Name != "" {
							want = "a failed check of " + j.bug.CaughtBy
						}
						report(false, fmt.Sprintf("subject %-31s seed %-6d WRONG: exit %d, %d checks failed, want %s (%s)\n%s    full output: %s", name, j.seed, v.Exit, len(v.Failed), want, took(), checks.IndentLines(tail(v.Output, 4000), "    "),
							keep(fmt.Sprintf("subject-%s-%s-seed-%d.log", j.sub.Name, cmp.Or(j.bug.Name, "clean"), j.seed), v.Output)))
					}
					continue
				}
				if j.src != nil {
					bin, err := builds.Binary(ctx, *j.src)
					if !verdict(err) {
						continue
					}
					v, err := JudgeSource(ctx, o.Self, bin, *j.src, j.seed, o.Extra...)
					if !verdict(err) {
						continue
					}
					if v.Killed {
						report(true, fmt.Sprintf("mutant %-32s seed %-6d killed by %s (source, %s)", j.src.Name, j.seed, v.Failed[0], took()))
					} else {
						report(false, fmt.Sprintf("mutant %-32s seed %-6d SURVIVED: exit %d, %d checks failed (source, %s)\n%s    full output: %s", j.src.Name, j.seed, v.Exit, len(v.Failed), took(), checks.IndentLines(tail(v.Output, 4000), "    "),
							keep(fmt.Sprintf("mutant-%s-seed-%d.log", j.src.Name, j.seed), v.Output)))
					}
					continue
				}
				if j.m == nil {
					args := append([]string{"--server", o.Server, "--label-filter", filter, "--seed", fmt.Sprint(j.seed)}, o.Extra...)
					rep, code, text, err := runReport(ctx, o.Self, args)
					if !verdict(err) {
						continue
					}
					line := seedLine(j.seed, rep, code, text, took())
					if code != ExitPass {
						line += "\n    full output: " + keep(fmt.Sprintf("seed-%d.log", j.seed), text)
					}
					report(code == ExitPass, line)
					continue
				}
				v, err := JudgeMutant(ctx, o.Self, o.Server, *j.m, j.seed, o.Extra...)
				if !verdict(err) {
					continue
				}
				if v.Killed {
					report(true, fmt.Sprintf("mutant %-32s seed %-6d killed by %s (%s)", j.m.Name, j.seed, v.Failed[0], took()))
				} else {
					report(false, fmt.Sprintf("mutant %-32s seed %-6d SURVIVED: exit %d, %d %s checks failed (%s)\n%s    full output: %s", j.m.Name, j.seed, v.Exit, len(v.Failed), j.m.Area, took(), checks.IndentLines(tail(v.Output, 4000), "    "),
						keep(fmt.Sprintf("mutant-%s-seed-%d.log", j.m.Name, j.seed), v.Output)))
				}
			}
		}()
	}
	for _, j := range work {
		if ctx.Err() != nil {
			break
		}
		next <- j
	}
	close(next)
	wg.Wait()
	fmt.Fprintf(out, "soak took %s\n", time.Since(start).Round(time.Second))
	fmt.Fprintf(out, "%d passed, %d failed\n", res.Passed, res.Failed)
	if err := ctx.Err(); err != nil {
		first = errors.Join(first, err)
	}
	return res, first
}

// seedLine describes one server run of a soak.
func seedLine(seed int64, rep *reports.JSON, code int, text, took string) string {
	ran := 0
	var failed []string
	var b strings.Builder
	for _, c := range rep.Checks {
		switch c.State {
		case StateSkipped:
			continue
		case StateFailed, StateStale:
			failed = append(failed, c.ID)
			for _, l := range strings.Split(c.Failure, "\n") {
				l = strings.TrimSpace(l)
				if strings.HasPrefix(l, "observed:") || strings.HasPrefix(l, "broken:") || strings.HasPrefix(l, "rerun:") {
					fmt.Fprintf(&b, "    %s: %s\n", c.ID, checks.ClipString(l, 400))
				}
			}
		}
		ran++
	}
	switch {
	case code == ExitPass:
		return fmt.Sprintf("seed %-6d ok: %d checks passed (%s)", seed, ran, took)
	case len(failed) > 0:
		return fmt.Sprintf("seed %-6d FAILED: %d of %d checks: %s (%s)\n%s", seed, len(failed), ran, strings.Join(failed, ", "), took, strings.TrimRight(b.String(), "\n"))
	}
	return fmt.Sprintf("seed %-6d HARNESS ERROR: exit %d (%s)\n%s", seed, code, took, checks.IndentLines(tail(text, 4000), "    "))
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// soakMain is the soak subcommand.
func soakMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ombi-conformance soak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o SoakOptions
	server := fs.String("server", "", "command line of the server under test (default: ombi-mcp next to this executable, else on PATH)")
	fs.IntVar(&o.Seeds, "seeds", 200, "seeds the property areas of the server run over")
	fs.Int64Var(&o.FirstSeed, "first-seed", 1, "the first seed; the others follow it")
	fs.IntVar(&o.MutantSeeds, "mutant-seeds", 20, "seeds every mutant runs over (0: judge no mutant)")
	mutants := fs.String("mutants", "", "comma list of mutants to judge, proxy or source-level (default: all; none: no mutant, the subjects alone)")
	sourceRoot := fs.String("source-root", "", "module root the source-level mutants are built from (default: the ombi-mcp module around the working directory; none found: no source-level mutant)")
	sources := fs.Bool("source-mutants", true, "also judge the source-level mutants (patched copies of server/, built once each)")
	fs.StringVar(&o.LabelFilter, "label-filter", "property", "checks of the server runs")
	fs.IntVar(&o.Jobs, "jobs", 2, "runs at once")
	fixtures := fs.String("fixtures", "", "fixtures/schema directory for every run")
	subjects := fs.String("subjects", "", "directory of subjects (servers of other designs with planted bugs, each with subject.json and bugs.json) to judge in the any profile over --mutant-seeds seeds; \"\" = none")
	fs.StringVar(&o.Keep, "keep", "", "directory for the whole output of every failed run (default: a new temporary directory)")
	usage(fs, stdout, stderr, "usage: ombi-conformance soak [flags]\n\nRuns the property areas of a server over many seeds and every mutant of it\nover several seeds; prints a line per run and a final \"N passed, N failed\".\n")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if err := validateFilters(o.LabelFilter, ""); err != nil {
		fmt.Fprintf(stderr, "ombi-conformance soak: %v\n", err)
		return ExitHarness
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "ombi-conformance soak: %v\n", err)
		return ExitHarness
	}
	o.Self = self
	o.Server = *server
	if o.Server == "" {
		cmd, err := serverCommand("")
		if err != nil {
			fmt.Fprintf(stderr, "ombi-conformance soak: %v\n", err)
			return ExitHarness
		}
		o.Server = framework.ShellWord(cmd[0])
	}
	if *mutants != "" {
		o.Mutants = strings.Split(*mutants, ",")
	}
	if *subjects != "" {
		if o.Subjects, err = LoadSubjects(*subjects); err != nil {
			fmt.Fprintf(stderr, "ombi-conformance soak: %v\n", err)
			return ExitHarness
		}
	}
	if *sources {
		o.SourceRoot = *sourceRoot
		if o.SourceRoot == "" {
			if root, err := mutant.ModuleRoot("."); err == nil {
				o.SourceRoot = root
			}
		}
	}
	if *fixtures != "" {
		o.Extra = append(o.Extra, "--fixtures", *fixtures)
	}
	o.Out = stdout
	res, err := Soak(ctx, o)
	if err != nil {
		fmt.Fprintf(stderr, "ombi-conformance soak: %v\n", err)
		return ExitHarness
	}
	if res.Failed > 0 {
		return ExitFail
	}
	return ExitPass
}

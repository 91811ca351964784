package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/formatter"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/ombi-mcp/ombi-mcp/conformance/checks"
	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/conformance/reports"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// Options configure one run of the suite.
type Options = framework.Options

// Result is the outcome of one run; CheckResult the verdict of one check,
// and Check the check as declared.
type (
	Result      = framework.Result
	CheckResult = framework.CheckResult
	Check       = framework.Check
)

// Outcome states of a check in a result.
const (
	StatePassed        = framework.StatePassed
	StateFailed        = framework.StateFailed
	StateExpected      = framework.StateExpected
	StateStale         = framework.StateStale
	StateSkipped       = framework.StateSkipped
	StateUnimplemented = framework.StateUnimplemented
	StateNotApplicable = framework.StateNotApplicable
)

// ErrNothingRan is returned when the filters left no check to execute.
var ErrNothingRan = errors.New("run suite: no check executed (check --label-filter and --focus)")

// Run runs the suite once. It may be called once per process (Ginkgo runs
// one suite per process). A returned error is a harness or usage error; a
// failing check is reported in the Result.
func Run(ctx context.Context, opts Options) (*Result, error) {
	start := time.Now()
	out := opts.Out
	if out == nil {
		out = io.Discard
	}
	errOut := out // what must be said even in a quiet run
	if opts.Progress == ProgressQuiet {
		out = io.Discard
	}
	if opts.Target.URL != "" && opts.OmbiURL == "" && opts.MockAddr == "" {
		return nil, errors.New("run suite: --url judges a server already running, which must be pointed at the suite's upstream: give --mock-addr ADDR (the running server's OMBI_URL is http://ADDR) or --ombi-url")
	}
	var up *harness.Upstream
	if opts.OmbiURL != "" {
		// through a proxy: the journal and faults of the checks that need
		// only those (LabelNeedsJournal), against the live Ombi's answers
		p, err := harness.LiveProxied(opts.OmbiURL, opts.Credentials, opts.AllowMutations)
		if err != nil {
			return nil, err
		}
		up = p
		opts.LabelFilter = checks.LiveFilter(opts.LabelFilter, opts.AllowMutations)
	} else {
		m, err := harness.StartMockAt(opts.MockAddr, mockombi.Options{})
		if err != nil {
			return nil, err
		}
		up = m
	}
	defer up.Close()
	s, err := checks.New(opts, up)
	if err != nil {
		return nil, err
	}
	defer s.Close()

	shard := opts.ShardFilter != "" // one process of a split run: its parent spoke already
	if !shard {
		fmt.Fprintf(out, "ombi-conformance: server %s, upstream %s, protocol %s\n", opts.Target, up.URL(), harness.ProtocolVersion)
	}
	if err := s.Preflight(ctx); err != nil {
		return nil, harnessReports(opts, s, err)
	}
	if !shard {
		s.Describe(out)
	}
	if shardable(opts) && s.Profile() == framework.ProfileDesign {
		res, handled, err := runSharded(ctx, opts, out, errOut)
		if handled {
			if err != nil {
				return res, err
			}
			res.Duration = time.Since(start)
			return res, finishReports(opts, res)
		}
	}
	if opts.Target.URL != "" {
		s.SkipRestarts()
	}

	res := &Result{Profile: s.Profile()}
	res.Tools, res.Modes = s.Statuses()
	prog := newProgress(out, opts.Progress, 1, nil)
	prog.dots = opts.Progress == ProgressLines
	events, closeEvents, err := openEvents(opts.ShardEvents)
	if err != nil {
		return nil, err
	}
	defer closeEvents()
	if opts.ShardStop != "" {
		stopWhenTold(opts.ShardStop)
	}
	s.Tree()
	ginkgo.ReportBeforeSuite(func(r ginkgo.Report) {
		pl := planOf(s.Declared(), combineFilters(opts.LabelFilter, opts.ShardFilter), opts.Focus, r.PreRunStats.SpecsThatWillRun)
		prog.plan(pl)
		if events != nil {
			if err := events.write(checkEvent{Plan: &pl}); err != nil {
				fmt.Fprintf(errOut, "write the progress of the process: %v\n", err)
			}
		}
	})
	ginkgo.ReportAfterEach(func(r types.SpecReport) {
		if !ranHere(r) {
			return
		}
		e := eventOf(framework.Verdict(s.Declared().Of(r), r, opts.Expected))
		prog.add(e)
		if events != nil {
			if err := events.write(e); err != nil {
				fmt.Fprintf(errOut, "write the progress of the process: %v\n", err)
			}
		}
	})
	ginkgo.ReportAfterSuite("ombi-conformance", func(r ginkgo.Report) {
		prog.finish()
		res.Seed = r.SuiteConfig.RandomSeed
		for _, sr := range r.SpecReports {
			if sr.LeafNodeType != types.NodeTypeIt {
				continue
			}
			res.Checks = append(res.Checks, framework.Verdict(s.Declared().Of(sr), sr, opts.Expected))
		}
		if opts.ShardReport != "" {
			if err := writeShardReport(opts.ShardReport, r, s.Declared()); err != nil {
				fmt.Fprintf(errOut, "write the process report: %v\n", err)
			}
		}
		if opts.JUnitFile != "" {
			if err := reports.WriteJUnit(opts.JUnitFile, r); err != nil {
				fmt.Fprintf(errOut, "%v\n", err)
			}
		}
	})
	sc, rc := ginkgo.GinkgoConfiguration()
	sc.LabelFilter = combineFilters(opts.LabelFilter, opts.ShardFilter)
	if opts.Focus != "" {
		sc.FocusStrings = []string{opts.Focus}
	}
	if opts.Seed != 0 {
		sc.RandomSeed = opts.Seed
	}
	sc.Timeout = 2 * time.Hour
	sc.FailFast = opts.FailFast
	rc.NoColor = true
	rc.Succinct = true
	rc.SilenceSkips = true
	stopTicks := prog.tickEvery(time.Second)
	stopWrites := stopWritesOn(ctx, up)
	runSpecs(sc, rc, opts.Progress != ProgressLines)
	stopWrites()
	stopTicks()
	res.Writes = undoWrites(ctx, opts, up, errOut)
	res.Calls = s.Calls()
	sort.SliceStable(res.Checks, func(i, j int) bool {
		return framework.AreaRank(res.Checks[i].Area) < framework.AreaRank(res.Checks[j].Area)
	})
	res.Duration = time.Since(start)
	return res, finishReports(opts, res)
}

// harnessReports writes the JSON, JUnit and HTML reports of a run that
// could not judge the server, with the reason, and returns err: a CI job
// that collects reports finds them whatever went wrong.
func harnessReports(opts Options, s *checks.Suite, err error) error {
	r := &Result{Seed: opts.Seed, HarnessError: err.Error()}
	r.Tools, r.Modes = s.Statuses()
	var errs []error
	errs = append(errs, err)
	if opts.JSONFile != "" {
		if werr := reports.WriteJSON(opts.JSONFile, opts, r); werr != nil {
			errs = append(errs, werr)
		}
	}
	if opts.HTMLFile != "" {
		if werr := reports.WriteHTMLFile(opts.HTMLFile, opts, r); werr != nil {
			errs = append(errs, werr)
		}
	}
	if opts.JUnitFile != "" {
		if werr := reports.WriteHarnessJUnit(opts.JUnitFile, err); werr != nil {
			errs = append(errs, werr)
		}
	}
	return errors.Join(errs...)
}

// finishReports writes the JSON and HTML reports of a run and says when
// nothing ran.
func finishReports(opts Options, res *Result) error {
	if opts.JSONFile != "" {
		if err := reports.WriteJSON(opts.JSONFile, opts, res); err != nil {
			return err
		}
	}
	if opts.HTMLFile != "" {
		if err := reports.WriteHTMLFile(opts.HTMLFile, opts, res); err != nil {
			return err
		}
	}
	if res.Executed() == 0 {
		return ErrNothingRan
	}
	return nil
}

// failRecorder satisfies GinkgoTestingT; the verdict comes from the report.
type failRecorder struct{}

func (failRecorder) Fail() {}

// runSpecs runs the suite's tree. silent takes Ginkgo's own reporter
// (its dots, failures and verdict on the process's stdout) away while the
// suite runs: the live status line or a quiet run says what the run
// shows. Ginkgo writes its reporter's output only to its formatter's
// stdout, which has no option to silence it.
func runSpecs(sc types.SuiteConfig, rc types.ReporterConfig, silent bool) {
	if silent {
		saved := formatter.ColorableStdOut
		formatter.ColorableStdOut = io.Discard
		defer func() { formatter.ColorableStdOut = saved }()
	}
	ginkgo.RunSpecs(failRecorder{}, "ombi-conformance", sc, rc)
}

// openEvents opens the events file of a process of a split run; nil
// when path is "".
func openEvents(path string) (*eventWriter, func(), error) {
	if path == "" {
		return nil, func() {}, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("run suite: %w", err)
	}
	return &eventWriter{w: f}, func() { _ = f.Close() }, nil
}

package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
)

// A run against the embedded mock may be split over several processes of
// the suite, each judging the checks of a share of the tools with its own
// mock and servers, and the verdicts merged. A tool's checks stay in one
// process (its ordered groups share their setup); checks of no tool run
// in the first. Every check sees exactly what it sees in one process: its
// property cases derive from the run seed and its id, and each check
// resets the mock it uses.

// shardMinChecks is the fewest selected checks a run splits: below it the
// start-up of more processes costs more than it saves.
const shardMinChecks = 300

// areaWeight is the rough cost of one check of an area, to balance the
// processes: the property areas call the server many times per check.
var areaWeight = map[string]float64{"errors": 8, "budget": 6, "leak": 4, "fuzz": 4, "auth": 3, "schema": 1, "wire": 1, "protocol": 0.5}

// toolLabelPrefix labels each check with the tool it judges, so a label
// filter can select a tool's checks (/^tool:read_search$/).
const toolLabelPrefix = "tool:"

// shardable reports whether opts may be split: the embedded mock on a
// free port, servers the suite starts itself, a suite binary to start.
func shardable(opts Options) bool {
	return opts.Parallel > 1 && opts.Self != "" && opts.ShardFilter == "" &&
		opts.Target.URL == "" && opts.OmbiURL == "" && opts.MockAddr == ""
}

// shard is one process of a split run: the tools it judges and its label
// filter.
type shard struct {
	tools   []string // "" stands for the checks of no tool
	weight  float64
	checks  int
	filter  string
	out     bytes.Buffer
	code    int
	ginkgo  string // its Ginkgo JSON report
	jsonRep string // its JSON report
}

// planShards spreads the selected checks' tools over at most n processes,
// heaviest first onto the lightest process.
func planShards(checks []Check, n int) []*shard {
	weight := map[string]float64{}
	count := map[string]int{}
	for _, c := range checks {
		w, ok := areaWeight[c.Area]
		if !ok {
			w = 1
		}
		weight[c.Tool] += w
		count[c.Tool]++
	}
	tools := make([]string, 0, len(weight))
	for t := range weight {
		tools = append(tools, t)
	}
	sort.Slice(tools, func(i, j int) bool {
		if weight[tools[i]] != weight[tools[j]] {
			return weight[tools[i]] > weight[tools[j]]
		}
		return tools[i] < tools[j]
	})
	shards := make([]*shard, min(n, len(tools)))
	for i := range shards {
		shards[i] = &shard{}
	}
	for _, t := range tools {
		light := shards[0]
		for _, s := range shards[1:] {
			if s.weight < light.weight {
				light = s
			}
		}
		light.tools = append(light.tools, t)
		light.weight += weight[t]
		light.checks += count[t]
	}
	for _, s := range shards {
		sort.Strings(s.tools)
		var terms []string
		for _, t := range s.tools {
			if t == "" {
				terms = append(terms, "!/^"+toolLabelPrefix+"/")
				continue
			}
			terms = append(terms, "/^"+toolLabelPrefix+regexp.QuoteMeta(t)+"$/")
		}
		s.filter = strings.Join(terms, " || ")
	}
	return shards
}

// combineFilters is both label filters: a check must match each.
func combineFilters(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return "(" + a + ") && (" + b + ")"
}

// runSharded runs the suite split over processes of itself (opts.Self
// with opts.ChildArgs) and merges their verdicts into one result and one
// set of reports. It returns handled false when the run is too small to
// split; the caller then runs it in process.
func runSharded(ctx context.Context, opts Options, out io.Writer) (res *Result, handled bool, err error) {
	if opts.Focus != "" { // a focused run is a rerun or a mutant's: small
		return nil, false, nil
	}
	checks, err := listChecks(ctx, opts)
	if err != nil {
		return nil, true, err
	}
	if len(checks) < shardMinChecks {
		return nil, false, nil
	}
	if opts.Seed == 0 {
		opts.Seed = time.Now().Unix() // one seed for every process, and for the rerun lines
	}
	dir, err := os.MkdirTemp("", "ombi-conformance-shards-")
	if err != nil {
		return nil, true, fmt.Errorf("run suite: %w", err)
	}
	defer os.RemoveAll(dir)
	shards := planShards(checks, opts.Parallel)
	fmt.Fprintf(out, "ombi-conformance: %d checks over %d processes (a tool's checks in one), seed %d\n", len(checks), len(shards), opts.Seed)
	var wg sync.WaitGroup
	for i, s := range shards {
		s.ginkgo = filepath.Join(dir, fmt.Sprintf("ginkgo-%d.json", i))
		s.jsonRep = filepath.Join(dir, fmt.Sprintf("report-%d.json", i))
		args := append(append([]string(nil), opts.ChildArgs...),
			"--parallel=1", fmt.Sprintf("--seed=%d", opts.Seed),
			"--shard-filter", s.filter, "--shard-report", s.ginkgo, "--json", s.jsonRep)
		cmd := exec.CommandContext(ctx, opts.Self, args...)
		cmd.Stdout, cmd.Stderr = &s.out, &s.out
		// an interrupted run interrupts each process, so its own cleanup
		// stops the servers it started; the wait delay is the fallback
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
		cmd.WaitDelay = 10 * time.Second
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := cmd.Run()
			var ee *exec.ExitError
			switch {
			case errors.As(err, &ee):
				s.code = ee.ExitCode()
			case err != nil:
				s.code = ExitHarness
				fmt.Fprintf(&s.out, "ombi-conformance: start a process of the run: %v\n", err)
			}
		}()
	}
	wg.Wait()
	// Each process reports every check, those of the others as skipped:
	// a check's verdict is its owner's (the first process owns the checks
	// of no tool, of tools none selected, and the suite's own nodes).
	owner := map[string]int{}
	for i, s := range shards {
		for _, t := range s.tools {
			owner[t] = i
		}
	}
	owns := func(i int, sr types.SpecReport) bool {
		if sr.LeafNodeType != types.NodeTypeIt {
			return i == 0
		}
		return owner[checkOf(sr).Tool] == i
	}
	merged := types.Report{}
	res = &Result{Seed: opts.Seed}
	var harnessErrs []string
	for i, s := range shards {
		fmt.Fprintf(out, "\n--- process %d of %d: %d checks of %s\n", i+1, len(shards), s.checks, shardTools(s.tools))
		_, _ = out.Write(s.out.Bytes())
		var reps []types.Report
		b, rerr := os.ReadFile(s.ginkgo)
		if rerr == nil {
			rerr = json.Unmarshal(b, &reps)
		}
		jr, jerr := ReadJSONReport(s.jsonRep)
		switch {
		case rerr != nil || len(reps) == 0 || jerr != nil:
			harnessErrs = append(harnessErrs, fmt.Sprintf("process %d of %d (%s) exited %d without its reports", i+1, len(shards), shardTools(s.tools), s.code))
			continue
		case jr.HarnessError != "":
			harnessErrs = append(harnessErrs, fmt.Sprintf("process %d of %d: %s", i+1, len(shards), jr.HarnessError))
			continue
		}
		r := reps[0]
		if i == 0 {
			merged = r
			merged.SpecReports = nil
			res.Tools, res.Modes = jr.Tools, jr.AuthModes
		}
		merged.SuiteSucceeded = merged.SuiteSucceeded && r.SuiteSucceeded
		merged.RunTime = max(merged.RunTime, r.RunTime)
		for _, sr := range r.SpecReports {
			if owns(i, sr) {
				merged.SpecReports = append(merged.SpecReports, sr)
			}
		}
		res.Calls += jr.Calls
	}
	if len(harnessErrs) > 0 {
		return res, true, errors.New(strings.Join(harnessErrs, "; "))
	}
	for _, sr := range merged.SpecReports {
		if sr.LeafNodeType == types.NodeTypeIt {
			res.Checks = append(res.Checks, verdict(sr, opts.Expected))
		}
	}
	sort.SliceStable(res.Checks, func(i, j int) bool {
		if a, b := areaRank(res.Checks[i].Area), areaRank(res.Checks[j].Area); a != b {
			return a < b
		}
		return res.Checks[i].ID < res.Checks[j].ID
	})
	if opts.JUnitFile != "" {
		if err := reporters.GenerateJUnitReportWithConfig(merged, opts.JUnitFile, reporters.JunitReportConfig{OmitTimelinesForSpecState: types.SpecStatePassed, OmitLeafNodeType: true}); err != nil {
			fmt.Fprintf(out, "write junit report: %v\n", err)
		}
	}
	fmt.Fprintln(out)
	return res, true, nil
}

// listChecks lists the checks opts selects, from a process of the suite
// (a process builds its check tree once, and this one may still run its
// own).
func listChecks(ctx context.Context, opts Options) ([]Check, error) {
	args := []string{"--list"}
	if opts.LabelFilter != "" {
		args = append(args, "--label-filter", opts.LabelFilter)
	}
	if opts.FixturesDir != "" {
		args = append(args, "--fixtures", opts.FixturesDir)
	}
	cmd := exec.CommandContext(ctx, opts.Self, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("run suite: list the checks to split: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var checks []Check
	for i, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if i == 0 || len(f) < 2 {
			continue // the header, or the end
		}
		checks = append(checks, Check{ID: f[0], Area: f[1], Tool: toolOfID(f[0])})
	}
	return checks, nil
}

func shardTools(tools []string) string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t
		if t == "" {
			names[i] = "(no tool)"
		}
	}
	if len(names) > 6 {
		return strings.Join(names[:6], ", ") + fmt.Sprintf(" and %d more tools", len(names)-6)
	}
	return strings.Join(names, ", ")
}

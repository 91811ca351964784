package conformance

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/reports"
)

// A run against the embedded mock may be split over several processes of
// the suite, each judging its share of the checks with its own mock and
// servers, and the verdicts merged. The share is made of units: a tool's
// example checks stay in one process (its ordered groups share their
// setup), and each property check of a tool is a unit of its own (it
// starts a private mock and server, and derives its cases from the run
// seed and its id); the checks of no tool are one unit, less their
// property checks. Every check sees exactly what it sees in one process:
// the plan depends only on the selected checks and the cost table, never
// on timing, and each check resets the mock it uses.

// shardMinChecks is the fewest selected checks a run splits: below it the
// start-up of more processes costs more than it saves.
const shardMinChecks = 300

// checkCostsJSON is what each check took, in milliseconds, in a run of
// the reference server (testdata/check-costs.json, taken from a --json
// report, see docs/conformance.md): the weights that balance the
// processes. It only steers the plan; a check it does not know weighs the
// mean of the known checks of its kind.
//
//go:embed testdata/check-costs.json
var checkCostsJSON []byte

// checkCosts reads the embedded cost table.
func checkCosts() (map[string]float64, error) {
	costs := map[string]float64{}
	if err := json.Unmarshal(checkCostsJSON, &costs); err != nil {
		return nil, fmt.Errorf("read testdata/check-costs.json: %w", err)
	}
	return costs, nil
}

// shardable reports whether opts may be split: the embedded mock on a
// free port, servers the suite starts itself, a suite binary to start.
func shardable(opts Options) bool {
	return opts.Parallel > 1 && opts.Self != "" && opts.ShardFilter == "" &&
		opts.Target.URL == "" && opts.OmbiURL == "" && opts.MockAddr == ""
}

// shardUnit is what one process of a split run judges as a whole: the
// example checks of a tool (clause "") or one of its property checks.
type shardUnit struct {
	tool   string // "" stands for the checks of no tool
	clause string // a property check's clause; "" for every other check
}

// unitOf is the unit a check belongs to.
func unitOf(c Check) shardUnit {
	if slices.Contains(c.Labels, framework.LabelProperty) {
		return shardUnit{tool: c.Tool, clause: c.Clause}
	}
	return shardUnit{tool: c.Tool}
}

// key orders units and names them in messages.
func (u shardUnit) key() string {
	name := u.tool
	if name == "" {
		name = "(no tool)"
	}
	if u.clause != "" {
		return name + " " + u.clause + " property"
	}
	return name
}

// filter is the label filter that selects the unit's checks and no other.
func (u shardUnit) filter() string {
	tool := "!/^" + framework.ToolLabelPrefix + "/"
	if u.tool != "" {
		tool = "/^" + framework.ToolLabelPrefix + regexp.QuoteMeta(u.tool) + "$/"
	}
	if u.clause == "" {
		return "(" + tool + " && !" + framework.LabelProperty + ")"
	}
	return "(" + tool + " && " + framework.LabelProperty + " && /^" + framework.ClauseLabelPrefix + regexp.QuoteMeta(u.clause) + "$/)"
}

// shard is one process of a split run: the units it judges and its label
// filter.
type shard struct {
	units   []shardUnit
	weight  float64
	checks  int
	filter  string
	out     bytes.Buffer
	code    int
	report  string // its shard report (shardReport)
	jsonRep string // its JSON report
}

// describe names a shard's tools and counts its property checks.
func (s *shard) describe() string {
	var names []string
	props := 0
	for _, u := range s.units {
		if u.clause != "" {
			props++
			continue
		}
		names = append(names, u.key())
	}
	out := strings.Join(names, ", ")
	if len(names) > 6 {
		out = strings.Join(names[:6], ", ") + fmt.Sprintf(" and %d more", len(names)-6)
	}
	switch {
	case props == 0:
	case out == "":
		out = fmt.Sprintf("%d property checks", props)
	default:
		out += fmt.Sprintf(", %d property checks", props)
	}
	return out
}

// checkKind groups checks of a similar cost: the area, and whether the
// check is a property.
func checkKind(c Check) string {
	if slices.Contains(c.Labels, framework.LabelProperty) {
		return c.Area + "/" + framework.LabelProperty
	}
	return c.Area
}

// estimates weighs each check by its cost in costs, else by the mean cost
// of the known checks of its kind, else by the mean of all known checks.
func estimates(cs []Check, costs map[string]float64) []float64 {
	sum, n := map[string]float64{}, map[string]int{}
	var all float64
	known := 0
	for _, c := range cs {
		if v, ok := costs[c.ID]; ok {
			k := checkKind(c)
			sum[k] += v
			n[k]++
			all += v
			known++
		}
	}
	mean := 1.0
	if known > 0 {
		mean = max(all/float64(known), 1)
	}
	est := make([]float64, len(cs))
	for i, c := range cs {
		v, ok := costs[c.ID]
		switch k := checkKind(c); {
		case ok:
		case n[k] > 0:
			v = sum[k] / float64(n[k])
		default:
			v = mean
		}
		est[i] = max(v, 1) // a check costs at least its start
	}
	return est
}

// planShards spreads the selected checks' units over at most n processes,
// heaviest first onto the lightest process, by the costs of costs. The
// plan depends on nothing else, so a seed's run splits the same way
// every time.
func planShards(cs []Check, costs map[string]float64, n int) []*shard {
	est := estimates(cs, costs)
	weight := map[shardUnit]float64{}
	count := map[shardUnit]int{}
	for i, c := range cs {
		u := unitOf(c)
		weight[u] += est[i]
		count[u]++
	}
	units := make([]shardUnit, 0, len(weight))
	for u := range weight {
		units = append(units, u)
	}
	sort.Slice(units, func(i, j int) bool {
		if weight[units[i]] != weight[units[j]] {
			return weight[units[i]] > weight[units[j]]
		}
		return units[i].key() < units[j].key()
	})
	shards := make([]*shard, min(n, len(units)))
	for i := range shards {
		shards[i] = &shard{}
	}
	for _, u := range units {
		light := shards[0]
		for _, s := range shards[1:] {
			if s.weight < light.weight {
				light = s
			}
		}
		light.units = append(light.units, u)
		light.weight += weight[u]
		light.checks += count[u]
	}
	// the process judging the checks of no tool comes first: it owns the
	// suite's own nodes and the checks no process selects
	for i, s := range shards {
		if slices.Contains(s.units, shardUnit{}) {
			shards[0], shards[i] = shards[i], shards[0]
		}
	}
	for _, s := range shards {
		sort.Slice(s.units, func(i, j int) bool { return s.units[i].key() < s.units[j].key() })
		terms := make([]string, len(s.units))
		for i, u := range s.units {
			terms[i] = u.filter()
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
//
// Each process appends its plan, then one JSON line per check it ran, to
// its events file, which this process follows for the run's progress on
// out: the checks done of those planned, the areas as they complete, each
// failure as it happens. errOut gets what a quiet run must still say.
func runSharded(ctx context.Context, opts Options, out, errOut io.Writer) (res *Result, handled bool, err error) {
	if opts.Focus != "" { // a focused run is a rerun or a mutant's: small
		return nil, false, nil
	}
	cs, err := listChecks(ctx, opts)
	if err != nil {
		return nil, true, err
	}
	if len(cs) < shardMinChecks {
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
	costs, err := checkCosts()
	if err != nil {
		return nil, true, fmt.Errorf("run suite: %w", err)
	}
	shards := planShards(cs, costs, opts.Parallel)
	fmt.Fprintf(out, "ombi-conformance: %d checks over %d processes (a tool's example checks in one, each property check on its own), seed %d\n", len(cs), len(shards), opts.Seed)
	prog := newProgress(out, opts.Progress, len(shards), nil)
	prog.costs(cs, estimates(cs, costs))
	for i := range shards {
		if err := os.WriteFile(eventsFile(dir, i), nil, 0o644); err != nil {
			return nil, true, fmt.Errorf("run suite: %w", err)
		}
	}
	// --fail-fast stops the whole run: the first failure any process
	// reports creates the stop file, and every process skips the checks
	// it has not run yet (the one it is running ends as it would)
	event := prog.event
	if opts.FailFast {
		event = stopOnFailure(filepath.Join(dir, "stop"), prog.event, errOut)
	}
	stopTicks := prog.tickEvery(time.Second)
	stopTail := make(chan struct{})
	var tails sync.WaitGroup
	var wg sync.WaitGroup
	for i, s := range shards {
		s.report = filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		s.jsonRep = filepath.Join(dir, fmt.Sprintf("report-%d.json", i))
		events := eventsFile(dir, i)
		tails.Add(1)
		go func() {
			defer tails.Done()
			if err := tailEvents(events, 200*time.Millisecond, stopTail, event); err != nil {
				fmt.Fprintf(errOut, "ombi-conformance: follow the progress of process %d: %v\n", i+1, err)
			}
		}()
		args := append(append([]string(nil), opts.ChildArgs...),
			"--parallel=1", fmt.Sprintf("--seed=%d", opts.Seed),
			"--shard-filter", s.filter, "--shard-report", s.report, "--json", s.jsonRep, "--shard-events", events)
		if opts.FailFast {
			args = append(args, "--shard-stop", filepath.Join(dir, "stop"))
		}
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
	close(stopTail)
	tails.Wait()
	stopTicks()
	prog.finish()
	// Each process reports every check, those of the others as skipped:
	// a check's verdict is its unit's process's (the first process owns
	// the checks of units none selected and the suite's own nodes).
	owner := map[shardUnit]int{}
	for i, s := range shards {
		for _, u := range s.units {
			owner[u] = i
		}
	}
	merged := types.Report{}
	var verdicts []CheckResult
	res = &Result{Seed: opts.Seed}
	var harnessErrs []string
	for i, s := range shards {
		if opts.Progress != ProgressQuiet {
			fmt.Fprintf(out, "\n--- process %d of %d: %d checks of %s\n", i+1, len(shards), s.checks, s.describe())
			_, _ = out.Write(s.out.Bytes())
		}
		var rep shardReport
		b, rerr := os.ReadFile(s.report)
		if rerr == nil {
			rerr = json.Unmarshal(b, &rep)
		}
		jr, jerr := reports.ReadJSON(s.jsonRep)
		switch {
		case rerr != nil || jerr != nil:
			harnessErrs = append(harnessErrs, fmt.Sprintf("process %d of %d (%s) exited %d without its reports", i+1, len(shards), s.describe(), s.code))
			continue
		case jr.HarnessError != "":
			harnessErrs = append(harnessErrs, fmt.Sprintf("process %d of %d: %s", i+1, len(shards), jr.HarnessError))
			continue
		}
		r := rep.Ginkgo
		if i == 0 {
			merged = r
			merged.SpecReports = nil
			res.Tools, res.Modes, res.Profile = jr.Tools, jr.AuthModes, jr.Profile
		}
		merged.SuiteSucceeded = merged.SuiteSucceeded && r.SuiteSucceeded
		merged.RunTime = max(merged.RunTime, r.RunTime)
		for _, sr := range r.SpecReports {
			if sr.LeafNodeType != types.NodeTypeIt {
				if i == 0 {
					merged.SpecReports = append(merged.SpecReports, sr)
				}
				continue
			}
			if c := rep.Checks.Of(sr); owner[unitOf(c)] == i {
				merged.SpecReports = append(merged.SpecReports, sr)
				verdicts = append(verdicts, framework.Verdict(c, sr, opts.Expected))
			}
		}
		res.Calls += jr.Calls
	}
	if len(harnessErrs) > 0 {
		return res, true, errors.New(strings.Join(harnessErrs, "; "))
	}
	res.Checks = verdicts
	sort.SliceStable(res.Checks, func(i, j int) bool {
		if a, b := framework.AreaRank(res.Checks[i].Area), framework.AreaRank(res.Checks[j].Area); a != b {
			return a < b
		}
		return res.Checks[i].ID < res.Checks[j].ID
	})
	if opts.JUnitFile != "" {
		if err := reports.WriteJUnit(opts.JUnitFile, merged); err != nil {
			fmt.Fprintf(errOut, "%v\n", err)
		}
	}
	fmt.Fprintln(out)
	return res, true, nil
}

// stopOnFailure passes each event on to next, and creates the file stop
// at the first check that failed (listed in the baseline or not: as
// --fail-fast stops one process).
func stopOnFailure(stop string, next func(checkEvent), errOut io.Writer) func(checkEvent) {
	var once sync.Once
	return func(e checkEvent) {
		next(e)
		if e.State != framework.StateFailed && e.State != framework.StateExpected {
			return
		}
		once.Do(func() {
			if err := os.WriteFile(stop, nil, 0o644); err != nil {
				fmt.Fprintf(errOut, "ombi-conformance: stop the other processes at the first failure: %v\n", err)
			}
		})
	}
}

// stoppedReason is why a process of a split run with --fail-fast skips a
// check: another process failed one first.
const stoppedReason = "not run: another process of the run failed a check first (--fail-fast)"

// stopWhenTold makes the process skip each check it has not run once the
// file stop exists (stopOnFailure).
func stopWhenTold(stop string) {
	ginkgo.BeforeEach(func() {
		if _, err := os.Stat(stop); err == nil {
			ginkgo.Skip(stoppedReason)
		}
	})
}

// eventsFile is where process i of a split run appends its events.
func eventsFile(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("events-%d.jsonl", i))
}

// listChecks lists the checks opts selects from a process of the suite
// (a process builds its check tree once, and this one may still run its
// own).
func listChecks(ctx context.Context, opts Options) ([]Check, error) {
	args := []string{"--list", "--shard-list"}
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
	var cs []Check
	if err := json.Unmarshal(b, &cs); err != nil {
		return nil, fmt.Errorf("run suite: list the checks to split: %w", err)
	}
	return cs, nil
}

// writeShardList prints the checks as JSON, for planning a split run.
func writeShardList(w io.Writer, cs []Check) error {
	return json.NewEncoder(w).Encode(cs)
}

// shardReport is what a process of a split run hands its parent: its
// Ginkgo report, and the checks it declared (its tree holds the checks of
// the tools its preflight found, which a listing does not), by spec text.
type shardReport struct {
	Ginkgo types.Report       `json:"ginkgo"`
	Checks framework.Declared `json:"checks"`
}

// writeShardReport writes a process's shard report to path.
func writeShardReport(path string, r types.Report, declared framework.Declared) error {
	b, err := json.Marshal(shardReport{Ginkgo: r, Checks: declared})
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

package framework

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// Options configure one run of the suite.
type Options struct {
	Target      harness.Target
	FixturesDir string // fixtures/schema directory; "" = the tables built into the suite

	LabelFilter string // Ginkgo label filter; "" = every area
	Focus       string // regexp on check text; "" = all
	Seed        int64  // spec order seed; 0 = time based

	OmbiURL  string // live Ombi base URL; "" = embedded mock
	AuthMode string // live auth mode; "" = jwt
	// AuthModes are the auth modes the server is judged in against the
	// embedded mock; nil = AuthModes (both). The server must start in each;
	// checks that need a mode not judged are unimplemented.
	AuthModes []string
	// Tools and Bundles declare what the server means to implement: a
	// declared tool it does not list is judged, and fails. Checks of a
	// tool neither listed nor declared are unimplemented.
	Tools, Bundles []string
	// Profile is what the server is judged against: ProfileDesign,
	// ProfileAny, or ProfileAuto ("" too), which picks by what it lists.
	Profile string
	// FailFast stops the run at the first failed check.
	FailFast       bool
	Credentials    harness.Credentials // live credentials
	AllowMutations bool                // live: also run checks that write
	// MockAddr is the embedded mock's listen address; "" = a free loopback
	// port. With Target.URL the running server's OMBI_URL must point there.
	MockAddr string

	StartTimeout time.Duration // initialize deadline; 0 = 15s
	CallTimeout  time.Duration // per request deadline; 0 = 30s

	JUnitFile string    // write a JUnit XML report here; "" = none
	JSONFile  string    // write a JSON report here; "" = none
	HTMLFile  string    // write a self-contained HTML report here; "" = none
	Expected  Baseline  // expected failures
	Trace     io.Writer // wire trace of every session; nil = none
	Out       io.Writer // progress, failures and summary; nil = io.Discard
	// Progress is how Out follows the run: "" (a line per area), "live"
	// (a status line redrawn in place, for a terminal) or "quiet" (the
	// summary only); see the runner's Progress constants.
	Progress string

	// Rerun is the shell command line (already quoted word by word) that
	// repeats this run: the suite as invoked and every flag that shapes
	// what a check sees. A failure's rerun line adds the seed and the
	// check's focus. Empty: "ombi-conformance --server TARGET".
	Rerun []string

	// Parallel splits a run against the embedded mock over this many
	// processes of the suite (Self with ChildArgs), a tool's example
	// checks in one and each property check on its own, when it selects
	// enough checks to gain; <= 1 runs in process. The command line's
	// default is two per CPU, at most 8.
	Parallel  int
	Self      string   // the suite's executable
	ChildArgs []string // the arguments a process of a split run starts from
	// ShardFilter (a label filter) narrows a process of a split run to its
	// share, and ShardReport is where it writes its Ginkgo report and the
	// checks it declared, for its parent to merge.
	ShardFilter, ShardReport string
	// ShardEvents is where a process of a split run appends one JSON
	// line per check it ran, as it runs, for its parent's progress.
	ShardEvents string
	// ShardStop is a file a process of a split run with FailFast looks
	// for before each check: once its parent has created it (another
	// process failed a check), the checks not yet run are skipped.
	ShardStop string
}

// Outcome states of a check in a result.
const (
	StatePassed   = "passed"
	StateFailed   = "failed"
	StateExpected = "expected-failure" // failed, listed in the baseline
	StateStale    = "stale"            // passed, but listed in the baseline
	StateSkipped  = "skipped"
	// StateUnimplemented: the check judges a tool the server does not list
	// (and was not declared with --tools or --bundles).
	StateUnimplemented = "unimplemented"
	// StateNotApplicable: the run's profile does not judge the check (a
	// catalogue check in profile any).
	StateNotApplicable = "not-applicable"
)

// CheckResult is the verdict of one check.
type CheckResult struct {
	Check
	State    string        `json:"state"`
	Failure  string        `json:"failure,omitempty"`
	Reason   string        `json:"reason,omitempty"` // why a check was skipped, when it says
	Duration time.Duration `json:"duration_ns"`
}

// Result is the outcome of one run.
type Result struct {
	Checks []CheckResult
	Calls  int // tools/call requests made
	Seed   int64
	// Duration is how long the run took, preflight included.
	Duration time.Duration
	// Tools is what the run learned of each catalogue tool, in catalogue
	// order; Modes the outcome of starting the server in each auth mode.
	Tools []ToolStatus
	Modes []ModeStatus
	// Profile is the profile the run judged in.
	Profile string
	// HarnessError is why the run could not judge the server at all (it
	// started in no auth mode, say); Checks is then empty.
	HarnessError string
	// Writes is what a live run wrote to the Ombi, took back and left
	// (nil for a run of the embedded mock).
	Writes *harness.WriteReport
}

// Count returns how many checks are in the given state.
func (r *Result) Count(state string) int {
	n := 0
	for _, c := range r.Checks {
		if c.State == state {
			n++
		}
	}
	return n
}

// Executed returns how many checks ran (passed or failed in any way).
func (r *Result) Executed() int {
	return len(r.Checks) - r.Count(StateSkipped) - r.Count(StateUnimplemented) - r.Count(StateNotApplicable)
}

// OK reports whether the run passes: no unexpected failure and no stale
// baseline entry.
func (r *Result) OK() bool {
	return r.Count(StateFailed) == 0 && r.Count(StateStale) == 0
}

// New prepares a run of the checks against up: the contract, the schema
// tables (opts.FixturesDir, else those built into the suite) and the
// harness. Close ends it.
func New(opts Options, up *harness.Upstream) (*Suite, error) {
	var tables map[string]Table
	var err error
	if opts.FixturesDir == "" {
		tables, err = EmbeddedTables()
	} else {
		tables, err = LoadTables(opts.FixturesDir)
	}
	if err != nil {
		return nil, err
	}
	s, err := newSuite(opts, up, tables)
	if err != nil {
		return nil, err
	}
	if opts.Target.URL != "" {
		s.h.Running = &harness.RunningServer{Config: s.AllConfig(), Upstream: up}
	}
	s.h.Processes = &harness.Processes{}
	return s, nil
}

// ForListing prepares the checks to be declared and listed, not run: no
// table is read and nothing started.
func ForListing(opts Options) (*Suite, error) {
	return newSuite(opts, harness.Live("http://127.0.0.1:0", harness.Credentials{}), nil)
}

func newSuite(opts Options, up *harness.Upstream, tables map[string]Table) (*Suite, error) {
	v, err := spec.NewValidator()
	if err != nil {
		return nil, fmt.Errorf("load the contract: %w", err)
	}
	return &Suite{
		opts:    opts,
		tables:  tables,
		checks:  Declared{},
		servers: map[string]*harness.Server{},
		quirks:  map[string]bool{},
		h: &harness.Harness{Target: opts.Target, Upstream: up, Validator: v,
			StartTimeout: opts.StartTimeout, CallTimeout: opts.CallTimeout, Trace: opts.Trace,
			Schemas: &harness.SchemaCache{}},
	}, nil
}

// SkipUnjudged ends the current check without judging it when the run
// does not judge it: as not applicable outside the run's profile, as
// unimplemented for a tool the server neither lists nor declares. The
// check tree runs it before each check.
func (s *Suite) SkipUnjudged() {
	c := s.checks.Current()
	s.requireProfile(c)
	s.RequireTool(c.Tool)
}

// Close stops the servers the run started, then any process of theirs
// left behind (one closed in the background, or never).
func (s *Suite) Close() {
	s.closeAll()
	if s.h.Processes != nil {
		s.h.Processes.Close()
	}
}

// Preflight learns what the server lists and the auth modes it starts in,
// and from that the profile the run judges in.
func (s *Suite) Preflight(ctx context.Context) error {
	if err := s.preflight(ctx); err != nil {
		return err
	}
	s.profile = resolveProfile(s.opts.Profile, s.scope)
	return nil
}

// Describe says what the preflight learned and the profile the run judges
// in, and why.
func (s *Suite) Describe(w io.Writer) {
	s.scope.describe(w)
	describeProfile(w, s.profile, s.opts.Profile, s.scope)
}

// Profile is the profile the run judges in, once Preflight has resolved it.
func (s *Suite) Profile() string {
	return s.profile
}

// Statuses are what the preflight learned of each tool (the catalogue's,
// in profile any the server's own) and of each auth mode; nil before it.
func (s *Suite) Statuses() ([]ToolStatus, []ModeStatus) {
	switch {
	case s.scope == nil:
		return nil, nil
	case s.profile == ProfileAny:
		return s.scope.ownTools(), s.scope.modes
	}
	return s.scope.toolList(), s.scope.modes
}

// Declared are the checks Tree declared, by spec text; Ginkgo declares
// them when it builds the tree, in RunSpecs or PreviewSpecs.
func (s *Suite) Declared() Declared {
	return s.checks
}

// Calls is how many tools/call requests the checks made.
func (s *Suite) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// AreaRank is the place of area a in Areas, the report order; an area not
// among them comes last.
func AreaRank(a string) int {
	for i, x := range Areas {
		if x == a {
			return i
		}
	}
	return len(Areas)
}

// Verdict is the result of check from its spec report sr, against the
// baseline of expected failures.
func Verdict(check Check, sr types.SpecReport, base Baseline) CheckResult {
	c := CheckResult{Check: check, Duration: sr.RunTime}
	listed := base.Has(c.ID)
	switch {
	case sr.State.Is(types.SpecStatePassed):
		c.State = StatePassed
		if listed {
			c.State = StateStale
		}
	case sr.State.Is(types.SpecStateFailureStates):
		c.State = StateFailed
		if listed {
			c.State = StateExpected
		}
		c.Failure = sr.Failure.Message
	case entryState(sr) != "":
		c.State = entryState(sr)
		c.Reason = strings.TrimPrefix(sr.Failure.Message, c.State+": ")
	default:
		c.State = StateSkipped
		c.Reason = sr.Failure.Message
	}
	return c
}

// stateEntry names the report entry that carries the state of a check
// that ended without judging (StateUnimplemented, StateNotApplicable):
// typed data verdict reads, also from the reports of a split run's
// processes, instead of a message to parse.
const stateEntry = "ombi-conformance-state"

// SkipAs ends the current check in state, with reason as its message
// (prefixed with the state, for readers of the JUnit report).
func SkipAs(state, reason string) {
	ginkgo.AddReportEntry(stateEntry, state, ginkgo.ReportEntryVisibilityNever)
	ginkgo.Skip(state + ": " + reason)
}

// entryState is the state skipAs gave a check; "" when none.
func entryState(sr types.SpecReport) string {
	for _, e := range sr.ReportEntries {
		if e.Name == stateEntry {
			return e.StringRepresentation()
		}
	}
	return ""
}

// SkipRestarts makes a run against a server already running (--url) skip,
// with the reason, every check that needs a server started with other
// settings: a configuration or upstream of its own (Harness.Unavailable),
// a fresh process (Suite.Fresh), or a private mock per case (the property
// checks, LabelProperty).
func (s *Suite) SkipRestarts() {
	s.h.Unavailable = func(reason string) { ginkgo.Skip(reason) }
	ginkgo.BeforeEach(func() {
		if slices.Contains(ginkgo.CurrentSpecReport().Labels(), LabelProperty) {
			ginkgo.Skip("needs servers started against a private mock per case; --url judges one running server, which cannot be restarted")
		}
	})
}

package checks

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// Suite is the framework's per-run state (framework.Suite: the harness,
// the servers started so far, the table of declared checks, what the
// preflight learned) with what only our checks share: the arguments and
// resource links the any and resources areas gather once, and the ids and
// titles of the mock's data. It lives in the closures of the spec tree,
// never in a global.
//
// The checks call the framework under the short unexported names below
// (s.call, s.fail, s.expect, s.shared, ...), thin aliases of its exported
// methods, and read h, opts and tables, which a run fixes in New.
type Suite struct {
	*framework.Suite

	h      *harness.Harness           // the framework's harness
	opts   framework.Options          // the options of the run
	tables map[string]framework.Table // the schema tables, by tool

	anyMu    sync.Mutex
	reaching map[string]json.RawMessage        // per tool: arguments whose call reached upstream
	links    map[*harness.Server][]resourceRef // per server: the resource links its tools returned
	mockPool *mockPool                         // ids and titles of the mock's data
	login    *liveLogin                        // a live jwt run's token for direct reads
	own      *ownEntities                      // live, --allow-mutations: what the run created for its write checks (live_own.go)
}

// New prepares a run of the checks against up (framework.New); Close ends
// it.
func New(opts framework.Options, up *harness.Upstream) (*Suite, error) {
	fs, err := framework.New(opts, up)
	if err != nil {
		return nil, err
	}
	return wrap(fs), nil
}

// ForListing prepares the checks to be declared and listed, not run
// (framework.ForListing).
func ForListing(opts framework.Options) (*Suite, error) {
	fs, err := framework.ForListing(opts)
	if err != nil {
		return nil, err
	}
	return wrap(fs), nil
}

func wrap(fs *framework.Suite) *Suite {
	return &Suite{Suite: fs, h: fs.Harness(), opts: fs.Options(), tables: fs.Tables(), login: &liveLogin{}}
}

// The framework under the names the checks use. Each alias that can fail
// the check is a Ginkgo helper, so a failure points at the check's line.

func (s *Suite) shared(ctx context.Context, cfg harness.Config) *harness.Server {
	ginkgo.GinkgoHelper()
	return s.Shared(ctx, cfg)
}

func (s *Suite) fresh(ctx context.Context, cfg harness.Config) *harness.Server {
	ginkgo.GinkgoHelper()
	return s.Fresh(ctx, cfg)
}

func (s *Suite) call(ctx context.Context, srv *harness.Server, tool string, args any) *harness.Outcome {
	ginkgo.GinkgoHelper()
	return s.Call(ctx, srv, tool, args)
}

func (s *Suite) callUnchecked(ctx context.Context, srv *harness.Server, tool string, args any) *harness.Outcome {
	ginkgo.GinkgoHelper()
	return s.CallUnchecked(ctx, srv, tool, args)
}

func (s *Suite) forget(srv *harness.Server) { s.Forget(srv) }

func (s *Suite) clean() {
	ginkgo.GinkgoHelper()
	s.Clean()
}

func (s *Suite) setQuirk(name string, on bool) {
	ginkgo.GinkgoHelper()
	s.SetQuirk(name, on)
}

func (s *Suite) injectFault(f mockombi.Fault) {
	ginkgo.GinkgoHelper()
	s.InjectFault(f)
}

func (s *Suite) fail(o *harness.Outcome, format string, a ...any) {
	ginkgo.GinkgoHelper()
	s.Fail(o, format, a...)
}

func (s *Suite) expect(cond bool, o *harness.Outcome, format string, a ...any) {
	ginkgo.GinkgoHelper()
	s.Expect(cond, o, format, a...)
}

// errs collects the failures of a check that inspects many cases, so the
// check reports all of them at once (expectNone).
type errs []string

func (e *errs) addf(format string, a ...any) { *e = append(*e, fmt.Sprintf(format, a...)) }

func (s *Suite) expectNone(e errs, what string) {
	ginkgo.GinkgoHelper()
	s.ExpectNone(e, what)
}

func (s *Suite) allConfig() harness.Config { return s.AllConfig() }

func (s *Suite) withMode(cfg harness.Config) harness.Config { return s.WithMode(cfg) }

func (s *Suite) table(tool string) framework.Table {
	ginkgo.GinkgoHelper()
	return s.SchemaTable(tool)
}

func (s *Suite) validExample(tool string) json.RawMessage {
	ginkgo.GinkgoHelper()
	return s.ValidExample(tool)
}

func (s *Suite) requireMode(mode string) { s.RequireMode(mode) }

func (s *Suite) requireTool(tool string) { s.RequireTool(tool) }

func (s *Suite) judged(tool string) bool { return s.Judged(tool) }

func (s *Suite) judgedTools() []spec.Tool { return s.JudgedTools() }

func (s *Suite) judgedNames(names []string) []string { return s.JudgedNames(names) }

// ownTool is framework.OwnTool: a ClauseItFor decorator naming the tool of
// the server's own design a check of the any area judges.
type ownTool = framework.OwnTool

func skipAs(state, reason string) { framework.SkipAs(state, reason) }

func toolNames(tools []*mcp.Tool) []string { return framework.ToolNames(tools) }

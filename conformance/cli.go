package conformance

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/conformance/mutant"
	"github.com/ombi-mcp/ombi-mcp/conformance/reports"
	"github.com/ombi-mcp/ombi-mcp/internal/buildinfo"
	"github.com/ombi-mcp/ombi-mcp/internal/stdio"
)

// Exit codes of the command.
const (
	ExitPass    = reports.ExitPass    // every executed check passed (or failed as the baseline expects)
	ExitFail    = reports.ExitFail    // a check failed unexpectedly, or a baseline entry is stale
	ExitHarness = reports.ExitHarness // usage error, harness error, or no check executed
)

// Main is the ombi-conformance command: it parses args, runs or lists the
// suite and returns the exit code. It may be called once per process.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "mutate" {
		return mutateMain(ctx, args[1:], stderr)
	}
	if len(args) > 0 && args[0] == "soak" {
		return soakMain(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "stress" {
		return stressMain(ctx, args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("ombi-conformance", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		server       = fs.String("server", "", "command line of the server under test (default: ombi-mcp next to this executable, else on PATH)")
		labelFilter  = fs.String("label-filter", "", "run only checks matching this Ginkgo label filter, e.g. 'protocol || schema'")
		focus        = fs.String("focus", "", "run only checks whose text matches this regular expression (a check id works)")
		list         = fs.Bool("list", false, "list every check (id, area, clause) and exit")
		byClause     = fs.Bool("by-clause", false, "with --list: print the clause -> checks matrix, with the design sentences under each clause")
		bySentence   = fs.Bool("by-sentence", false, "with --list: print every design sentence with the checks guarding it or the reason it has none")
		junit        = fs.String("junit", "", "write a JUnit XML report to this file")
		jsonOut      = fs.String("json", "", "write a JSON report to this file")
		htmlOut      = fs.String("html", "", "write a self-contained HTML report to this file")
		expected     = fs.String("expected-failures", "", "baseline file: one check id per line, # comments")
		seed         = fs.Int64("seed", 0, "spec order seed, also the seed of property checks (0 = time based)")
		verbose      = fs.Bool("v", false, "print the JSON-RPC wire trace of every session to stderr")
		fixtures     = fs.String("fixtures", "", "fixtures/schema directory of schema example tables (default: the tables built into the suite)")
		ombiURL      = fs.String("ombi-url", os.Getenv("OMBI_URL"), "live Ombi base URL; empty = the embedded mock")
		authMode     = fs.String("auth-mode", envOr("OMBI_AUTH_MODE", "jwt"), "live auth mode: jwt or api_key")
		authModes    = fs.String("auth-modes", strings.Join(framework.AuthModes, ","), "embedded mock: the auth modes the server supports and is judged in; each must start, checks needing another are unimplemented")
		toolsFlag    = fs.String("tools", "", "comma list of the catalogue tools the server means to implement: a declared tool it does not list fails (default: judge the tools it lists, the rest are unimplemented)")
		bundlesFlag  = fs.String("bundles", "", "like --tools, by bundle: core, moderation, administration")
		profile      = fs.String("profile", framework.ProfileAuto, "what to judge the server against: design (the 31-tool catalogue, and the rules of any), any (the rules every Ombi MCP server keeps, on the tools it lists), or auto (any when it lists no catalogue tool)")
		failFast     = fs.Bool("fail-fast", false, "stop at the first failed check")
		username     = fs.String("username", os.Getenv("OMBI_USERNAME"), "live jwt user")
		password     = fs.String("password", os.Getenv("OMBI_PASSWORD"), "live jwt password (prefer the OMBI_PASSWORD environment variable)")
		apiKey       = fs.String("api-key", os.Getenv("OMBI_API_KEY"), "live API key (prefer the OMBI_API_KEY environment variable)")
		userName     = fs.String("user-name", os.Getenv("OMBI_USER_NAME"), "live api_key mode: UserName header")
		allowMut     = fs.Bool("allow-mutations", false, "live: also run checks that write to the instance")
		startTimeout = fs.Duration("start-timeout", 15*time.Second, "deadline for the server to answer initialize")
		callTimeout  = fs.Duration("call-timeout", 0, "deadline for each request (0: 30s, and at least three times the upstream deadline the server is given, OMBI_TIMEOUT)")
		transport    = fs.String("transport", harness.TransportStdio, "how to speak MCP to the server: stdio, or http (Streamable HTTP: --server must contain {addr}, replaced by a free loopback address)")
		mcpPath      = fs.String("mcp-path", harness.DefaultMCPPath, "http: the server's MCP endpoint path")
		serverURL    = fs.String("url", "", "MCP endpoint of a Streamable HTTP server already running, instead of --server; checks that need a restart are skipped")
		mockAddr     = fs.String("mock-addr", "", "listen address of the embedded mock (default: a free loopback port); with --url, where the running server's OMBI_URL points")
		parallel     = fs.Int("parallel", 0, "split a run of the embedded mock over this many processes of the suite, a tool's example checks in one, each property check on its own (0: two per CPU, at most 8; 1: one process); small runs are not split")
		shardFilter  = fs.String("shard-filter", "", "internal: the label filter of one process of a split run")
		shardReport  = fs.String("shard-report", "", "internal: where one process of a split run writes its Ginkgo report and the checks it declared")
		shardList    = fs.Bool("shard-list", false, "internal: with --list, print the checks as JSON for planning a split run")
		shardEvents  = fs.String("shard-events", "", "internal: where one process of a split run appends a JSON line per check it ran")
		shardStop    = fs.String("shard-stop", "", "internal: with --fail-fast, a file whose presence makes one process of a split run skip the checks it has not run")
		quiet        = fs.Bool("quiet", false, "print only the summary: no progress (on a terminal the run redraws a status line of checks done, failures, elapsed time and time left; elsewhere it prints a line per area)")
	)
	showVersion := fs.Bool("version", false, "print the version and exit")
	groupedUsage(fs, stdout, "usage: ombi-conformance [flags]\n       ombi-conformance soak [flags]\n       ombi-conformance stress [flags]\n       ombi-conformance mutate --mutant NAME -- CMD ARGS...\n")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if *showVersion {
		fmt.Fprintf(stdout, "ombi-conformance %s\n", buildinfo.Version())
		return ExitPass
	}
	if *authMode != "jwt" && *authMode != "api_key" {
		fmt.Fprintf(stderr, "ombi-conformance: --auth-mode must be jwt or api_key, not %q\n", *authMode)
		return ExitHarness
	}
	modes := commaList(*authModes)
	for _, m := range modes {
		if m != "jwt" && m != "api_key" {
			fmt.Fprintf(stderr, "ombi-conformance: --auth-modes: %q is not jwt or api_key\n", m)
			return ExitHarness
		}
	}
	if len(modes) == 0 {
		fmt.Fprintf(stderr, "ombi-conformance: --auth-modes: name at least one of jwt, api_key\n")
		return ExitHarness
	}
	if !slices.Contains(framework.Profiles, *profile) {
		fmt.Fprintf(stderr, "ombi-conformance: --profile must be one of %s, not %q\n", strings.Join(framework.Profiles, ", "), *profile)
		return ExitHarness
	}
	if _, err := framework.DeclaredTools(commaList(*toolsFlag), commaList(*bundlesFlag)); err != nil {
		fmt.Fprintf(stderr, "ombi-conformance: %v\n", err)
		return ExitHarness
	}
	if err := validateFilters(*labelFilter, *focus); err != nil {
		fmt.Fprintf(stderr, "ombi-conformance: %v\n", err)
		return ExitHarness
	}
	// Libraries the suite uses consult the testing flags; they must exist and
	// be parsed even though this is not a test binary.
	testing.Init()
	if err := flag.CommandLine.Parse(nil); err != nil {
		fmt.Fprintf(stderr, "ombi-conformance: %v\n", err)
		return ExitHarness
	}
	// Property checks (pgregory.net/rapid) replay with the same seed and must
	// not write failure files into the working directory.
	for name, value := range map[string]string{"rapid.seed": fmt.Sprint(*seed), "rapid.nofailfile": "true"} {
		if f := flag.Lookup(name); f != nil && (name != "rapid.seed" || *seed != 0) {
			_ = f.Value.Set(value)
		}
	}
	opts := Options{
		FixturesDir: *fixtures, LabelFilter: *labelFilter, Focus: *focus, Seed: *seed,
		OmbiURL: *ombiURL, AuthMode: *authMode, AllowMutations: *allowMut,
		AuthModes: modes, Tools: commaList(*toolsFlag), Bundles: commaList(*bundlesFlag), Profile: *profile, FailFast: *failFast,
		Credentials:  harness.Credentials{Username: *username, Password: *password, APIKey: *apiKey, UserName: *userName},
		StartTimeout: *startTimeout, CallTimeout: *callTimeout,
		JUnitFile: *junit, JSONFile: *jsonOut, HTMLFile: *htmlOut, Out: stdout,
		Rerun:       rerunArgs(fs, invokedAs()),
		Parallel:    processes(*parallel),
		ChildArgs:   childArgs(fs),
		ShardFilter: *shardFilter, ShardReport: *shardReport, ShardEvents: *shardEvents, ShardStop: *shardStop,
		Progress: progressMode(stdout, *quiet),
	}
	if exe, err := os.Executable(); err == nil {
		opts.Self = exe
	}
	if *list {
		if *byClause && *bySentence {
			fmt.Fprintf(stderr, "ombi-conformance: --by-clause and --by-sentence exclude each other\n")
			return ExitHarness
		}
		cs, err := Checks(opts)
		if err == nil && *shardList {
			err = writeShardList(stdout, cs)
		}
		if err != nil {
			fmt.Fprintf(stderr, "ombi-conformance: %v\n", err)
			return ExitHarness
		}
		switch {
		case *shardList:
		case *byClause:
			WriteMatrix(stdout, cs)
		case *bySentence:
			WriteSentences(stdout, cs)
		default:
			WriteList(stdout, cs)
		}
		return ExitPass
	}
	target, err := targetOf(*server, *transport, *mcpPath, *serverURL)
	if err != nil {
		fmt.Fprintf(stderr, "ombi-conformance: %v\n", err)
		return ExitHarness
	}
	opts.Target, opts.MockAddr = target, *mockAddr
	if *expected != "" {
		if opts.Expected, err = framework.LoadBaseline(*expected); err != nil {
			fmt.Fprintf(stderr, "ombi-conformance: %v\n", err)
			return ExitHarness
		}
	}
	if *verbose {
		opts.Trace = stderr
	}
	res, err := Run(ctx, opts)
	if res != nil && opts.ShardFilter == "" { // a split run's processes leave the summary to it
		reports.Summary(stdout, res)
	}
	if err != nil {
		fmt.Fprintf(stderr, "ombi-conformance: harness error: %v\n", err)
		return ExitHarness
	}
	if !res.OK() {
		return ExitFail
	}
	return ExitPass
}

// parseFlags parses args into fs; !ok means return code: 0 after --help,
// 2 for a bad flag or a stray argument.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitPass, false
		}
		return ExitHarness, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected arguments %q\n", fs.Name(), fs.Args())
		return ExitHarness, false
	}
	return 0, true
}

// rerunFlags are the flags a rerun line repeats: everything that shapes
// what a check sees. Reports, listing, the baseline and the focus (the
// rerun sets its own) are left out, and so are credentials, which a rerun
// reads from the OMBI_* environment as the first run could.
var rerunFlags = map[string]bool{
	"server": true, "label-filter": true, "fixtures": true, "ombi-url": true, "auth-mode": true,
	"username": true, "user-name": true, "allow-mutations": true, "start-timeout": true, "call-timeout": true,
	"transport": true, "mcp-path": true, "url": true, "mock-addr": true,
	"auth-modes": true, "tools": true, "bundles": true,
}

// processes resolves --parallel: 0 is two processes per CPU, at most
// maxProcesses. A process spends much of its time waiting (server starts,
// round trips, the faults' deadlines), so two per CPU keep the CPUs busy;
// more only add start-up and memory (each process holds its own mock and
// servers, and the budget checks' payloads).
func processes(n int) int {
	if n > 0 {
		return n
	}
	return min(2*runtime.NumCPU(), maxProcesses)
}

// maxProcesses caps the default number of processes of a split run.
const maxProcesses = 8

// notForChildren are the flags a split run sets for each of its processes
// itself, or keeps to itself (the reports are merged).
var notForChildren = map[string]bool{
	"json": true, "junit": true, "html": true, "parallel": true, "seed": true,
	"shard-filter": true, "shard-report": true, "shard-list": true, "shard-events": true, "shard-stop": true, "list": true, "by-clause": true, "by-sentence": true,
}

// childArgs is this invocation's flags as set on the command line, less
// notForChildren: what each process of a split run starts from.
func childArgs(fs *flag.FlagSet) []string {
	var out []string
	fs.Visit(func(f *flag.Flag) {
		if notForChildren[f.Name] {
			return
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			out = append(out, "--"+f.Name+"="+f.Value.String())
			return
		}
		out = append(out, "--"+f.Name, f.Value.String())
	})
	return out
}

// rerunArgs is the command line that reruns this invocation: the suite as
// it was invoked and every flag of rerunFlags set on the command line,
// shell-quoted, with the values exactly as given.
func rerunArgs(fs *flag.FlagSet, self string) []string {
	out := []string{framework.ShellWord(absPath(self))}
	fs.Visit(func(f *flag.Flag) {
		if !rerunFlags[f.Name] {
			return
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			out = append(out, "--"+f.Name+"="+f.Value.String())
			return
		}
		v := f.Value.String()
		switch f.Name {
		case "server":
			v = absCommand(v)
		case "fixtures":
			v = absPath(v)
		}
		out = append(out, "--"+f.Name, framework.ShellWord(v))
	})
	return out
}

// absPath makes a relative path to a file that exists absolute, so a rerun
// line works from any directory; anything else (a command found on PATH,
// say) is kept as it is.
func absPath(p string) string {
	if p == "" || filepath.IsAbs(p) || !strings.Contains(p, string(filepath.Separator)) {
		return p
	}
	if _, err := os.Stat(p); err != nil {
		return p
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// absCommand makes the program of a --server command line absolute (see
// absPath), keeping its arguments as they are.
func absCommand(cmd string) string {
	words, err := harness.SplitCommand(cmd)
	if err != nil || len(words) == 0 {
		return cmd
	}
	abs := absPath(words[0])
	if abs == words[0] {
		return cmd
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = framework.ShellWord(w)
	}
	quoted[0] = framework.ShellWord(abs)
	return strings.Join(quoted, " ")
}

// invokedAs is the suite's own command as the user typed it (os.Args[0]),
// so a rerun line works where the first run worked.
func invokedAs() string {
	if len(os.Args) > 0 && os.Args[0] != "" {
		return os.Args[0]
	}
	return "ombi-conformance"
}

// validateFilters refuses a label filter Ginkgo cannot parse and a focus
// that is not a regular expression: usage errors, exit 2.
func validateFilters(labelFilter, focus string) error {
	if labelFilter != "" {
		if _, err := types.ParseLabelFilter(labelFilter); err != nil {
			return fmt.Errorf("--label-filter %q: %s", labelFilter, reports.FirstLine(err.Error()))
		}
	}
	if focus != "" {
		if _, err := regexp.Compile(focus); err != nil {
			return fmt.Errorf("--focus %q: %v", focus, err)
		}
	}
	return nil
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// serverCommand resolves --server, defaulting to ombi-mcp next to this
// executable, then on PATH.
func serverCommand(flagValue string) ([]string, error) {
	if flagValue != "" {
		return harness.SplitCommand(flagValue)
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), "ombi-mcp")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return []string{p}, nil
		}
	}
	if p, err := exec.LookPath("ombi-mcp"); err == nil {
		return []string{p}, nil
	}
	return nil, errors.New("find the server under test: no ombi-mcp next to this executable or on PATH; pass --server \"CMD ARGS\"")
}

// usage makes fs print header, then "flags:" and every flag but the
// internal ones, on stdout (help that was asked for); parse errors still go
// to stderr.
func usage(fs *flag.FlagSet, stdout, stderr io.Writer, header string) {
	fs.Usage = func() {
		fmt.Fprintf(stdout, "%s\nflags:\n", header)
		fs.VisitAll(func(f *flag.Flag) { printFlag(stdout, f) })
	}
}

// flagGroup is a heading of the main command's help and its flags, in the
// order they are shown.
type flagGroup struct {
	title string
	flags []string
}

// mainGroups orders the main command's flags for --help; a flag in none is
// shown under "other".
var mainGroups = []flagGroup{
	{"the server under test", []string{"server", "transport", "url", "mcp-path", "profile", "tools", "bundles", "auth-modes"}},
	{"what to run", []string{"label-filter", "focus", "seed", "fail-fast", "expected-failures", "list", "by-clause", "by-sentence"}},
	{"reports", []string{"json", "junit", "html", "quiet", "v"}},
	{"a live Ombi instead of the embedded mock", []string{"ombi-url", "auth-mode", "api-key", "user-name", "username", "password", "allow-mutations"}},
	{"advanced", []string{"start-timeout", "call-timeout", "parallel", "mock-addr", "fixtures", "version"}},
}

const mainExamples = `
examples:
  ombi-conformance --server "bin/ombi-mcp"                         judge a stdio server on the embedded mock
  ombi-conformance --server "./my-server --http {addr}" --transport http
  ombi-conformance --server "python3 server.py" --profile any      a server of its own design
  ombi-conformance --server bin/ombi-mcp --label-filter wire --html report.html
  ombi-conformance --server bin/ombi-mcp --ombi-url https://ombi.example --auth-mode api_key
  ombi-conformance --list --by-sentence                            what the design says and which check guards it

exit codes:
  0  every executed check passed (PASS, or PARTIAL when tools were left unimplemented)
  1  a check failed, or a baseline entry passes and is stale
  2  usage error, harness error (the server did not start, a request got no answer), or nothing ran
`

// groupedUsage is usage for the main command: the flags by group, then
// examples and exit codes.
func groupedUsage(fs *flag.FlagSet, stdout io.Writer, header string) {
	fs.Usage = func() {
		fmt.Fprintln(stdout, header)
		shown := map[string]bool{}
		for _, g := range mainGroups {
			fmt.Fprintf(stdout, "%s:\n", g.title)
			for _, name := range g.flags {
				if f := fs.Lookup(name); f != nil {
					printFlag(stdout, f)
					shown[name] = true
				}
			}
			fmt.Fprintln(stdout)
		}
		var other []*flag.Flag
		fs.VisitAll(func(f *flag.Flag) {
			if !shown[f.Name] && !strings.HasPrefix(f.Usage, "internal:") {
				other = append(other, f)
			}
		})
		if len(other) > 0 {
			fmt.Fprintln(stdout, "other:")
			for _, f := range other {
				printFlag(stdout, f)
			}
		}
		fmt.Fprint(stdout, mainExamples)
	}
}

// printFlag writes one flag as flag.PrintDefaults does; internal flags
// (their usage starts "internal:") are not shown.
func printFlag(w io.Writer, f *flag.Flag) {
	if strings.HasPrefix(f.Usage, "internal:") {
		return
	}
	name, text := flag.UnquoteUsage(f)
	line := "  -" + f.Name
	if name != "" {
		line += " " + name
	}
	secret := strings.Contains(f.Name, "password") || strings.Contains(f.Name, "key")
	if def := f.DefValue; def != "" && def != "false" && def != "0" && def != "0s" && !secret {
		text += fmt.Sprintf(" (default %q)", def)
	}
	fmt.Fprintf(w, "%s\n    \t%s\n", line, strings.ReplaceAll(text, "\n", "\n    \t"))
}

// targetOf builds the server under test from --server, --transport,
// --mcp-path and --url. An http target without --server is ombi-mcp
// (found as for stdio) with --http {addr}.
func targetOf(server, transport, mcpPath, url string) (harness.Target, error) {
	t := harness.Target{Transport: transport, MCPPath: mcpPath, URL: url}
	if url != "" {
		if server != "" {
			return t, errors.New("choose the server under test: --url (a server already running) and --server (a command to start) exclude each other")
		}
		t.Transport = harness.TransportHTTP
	} else {
		cmd, err := serverCommand(server)
		if err != nil {
			return t, err
		}
		if server == "" && transport == harness.TransportHTTP {
			cmd = append(cmd, "--http", harness.AddrPlaceholder)
		}
		t.Command = cmd
	}
	return t, harness.CheckTarget(t)
}

// mutateMain runs the hidden mutate subcommand: a stdio proxy around a
// server that corrupts its traffic in one named way.
func mutateMain(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("ombi-conformance mutate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("mutant", "", "mutant name: "+strings.Join(mutant.Names(), ", "))
	if err := fs.Parse(args); err != nil {
		return ExitHarness
	}
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "ombi-conformance mutate: missing -- CMD ARGS...\n")
		return ExitHarness
	}
	m, ok := mutant.Lookup(*name)
	if !ok {
		fmt.Fprintf(stderr, "ombi-conformance mutate: unknown mutant %q (have %s)\n", *name, strings.Join(mutant.Names(), ", "))
		return ExitHarness
	}
	if err := mutant.Proxy(ctx, m, fs.Args(), stdio.Pollable(os.Stdin), stdio.Pollable(os.Stdout), stderr); err != nil {
		fmt.Fprintf(stderr, "ombi-conformance mutate: %v\n", err)
		return ExitHarness
	}
	return ExitPass
}

// commaList splits a comma-separated flag value, dropping empty items.
func commaList(v string) []string {
	var out []string
	for _, item := range strings.Split(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

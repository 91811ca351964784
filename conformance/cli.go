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
	"strings"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/conformance/mutant"
)

// Exit codes of the command.
const (
	ExitPass    = 0 // every executed check passed (or failed as the baseline expects)
	ExitFail    = 1 // a check failed unexpectedly, or a baseline entry is stale
	ExitHarness = 2 // usage error, harness error, or no check executed
)

// Main is the ombi-conformance command: it parses args, runs or lists the
// suite and returns the exit code. It may be called once per process.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "mutate" {
		return mutateMain(ctx, args[1:], stderr)
	}
	fs := flag.NewFlagSet("ombi-conformance", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		server       = fs.String("server", "", "command line of the server under test (default: ombi-mcp next to this executable, else on PATH)")
		labelFilter  = fs.String("label-filter", "", "run only checks matching this Ginkgo label filter, e.g. 'protocol || schema'")
		focus        = fs.String("focus", "", "run only checks whose text matches this regular expression (a check id works)")
		list         = fs.Bool("list", false, "list every check (id, area, clause) and exit")
		byClause     = fs.Bool("by-clause", false, "with --list: print the clause -> checks matrix")
		junit        = fs.String("junit", "", "write a JUnit XML report to this file")
		jsonOut      = fs.String("json", "", "write a JSON report to this file")
		expected     = fs.String("expected-failures", "", "baseline file: one check id per line, # comments")
		seed         = fs.Int64("seed", 0, "spec order seed, also the seed of property checks (0 = time based)")
		verbose      = fs.Bool("v", false, "print the JSON-RPC wire trace of every session to stderr")
		fixtures     = fs.String("fixtures", "", "fixtures/schema directory (default: found next to the executable or above the working directory)")
		ombiURL      = fs.String("ombi-url", os.Getenv("OMBI_URL"), "live Ombi base URL; empty = the embedded mock")
		authMode     = fs.String("auth-mode", envOr("OMBI_AUTH_MODE", "jwt"), "live auth mode: jwt or api_key")
		username     = fs.String("username", os.Getenv("OMBI_USERNAME"), "live jwt user")
		password     = fs.String("password", os.Getenv("OMBI_PASSWORD"), "live jwt password (prefer the OMBI_PASSWORD environment variable)")
		apiKey       = fs.String("api-key", os.Getenv("OMBI_API_KEY"), "live API key (prefer the OMBI_API_KEY environment variable)")
		userName     = fs.String("user-name", os.Getenv("OMBI_USER_NAME"), "live api_key mode: UserName header")
		allowMut     = fs.Bool("allow-mutations", false, "live: also run checks that write to the instance")
		startTimeout = fs.Duration("start-timeout", 15*time.Second, "deadline for the server to answer initialize")
		callTimeout  = fs.Duration("call-timeout", 30*time.Second, "deadline for each request")
	)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: ombi-conformance [flags]\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitPass
		}
		return ExitHarness
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ombi-conformance: unexpected arguments %q\n", fs.Args())
		return ExitHarness
	}
	if *authMode != "jwt" && *authMode != "api_key" {
		fmt.Fprintf(stderr, "ombi-conformance: --auth-mode must be jwt or api_key, not %q\n", *authMode)
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
		Credentials:  harness.Credentials{Username: *username, Password: *password, APIKey: *apiKey, UserName: *userName},
		StartTimeout: *startTimeout, CallTimeout: *callTimeout,
		JUnitFile: *junit, JSONFile: *jsonOut, Out: stdout,
	}
	if *list {
		checks, err := Checks(opts)
		if err != nil {
			fmt.Fprintf(stderr, "ombi-conformance: %v\n", err)
			return ExitHarness
		}
		if *byClause {
			WriteMatrix(stdout, checks)
		} else {
			WriteList(stdout, checks)
		}
		return ExitPass
	}
	cmd, err := serverCommand(*server)
	if err != nil {
		fmt.Fprintf(stderr, "ombi-conformance: %v\n", err)
		return ExitHarness
	}
	opts.Target = harness.Target{Command: cmd}
	if *expected != "" {
		if opts.Expected, err = LoadBaseline(*expected); err != nil {
			fmt.Fprintf(stderr, "ombi-conformance: %v\n", err)
			return ExitHarness
		}
	}
	if *verbose {
		opts.Trace = stderr
	}
	res, err := Run(ctx, opts)
	if res != nil {
		res.Summary(stdout)
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
	if err := mutant.Proxy(ctx, m, fs.Args(), os.Stdin, os.Stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "ombi-conformance mutate: %v\n", err)
		return ExitHarness
	}
	return ExitPass
}

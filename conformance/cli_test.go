package conformance_test

import (
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

func TestCLI_harnessErrors(t *testing.T) {
	self := selfCommand(t)
	tests := []struct {
		name  string
		mode  string
		wants []string
	}{
		{"server exits at once", "exit", []string{"harness error", "initialize", "OMBI_SETTING_X is missing"}},
		{"server hangs", "hang", []string{"harness error", "no answer within", "warming up forever"}},
		{"server is not MCP", "garbage", []string{"harness error", "initialize", "speaking plain text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, []string{fakeEnv + "=" + tt.mode}, "--server", self, "--start-timeout", "2s", "--label-filter", "protocol")
			if r.code != 2 {
				t.Fatalf("exit code %d, want 2\nstdout:\n%s\nstderr:\n%s", r.code, clipText(r.stdout), clipText(r.stderr))
			}
			mustContain(t, "stderr", r.stderr, tt.wants...)
		})
	}
}

func TestCLI_usageErrors(t *testing.T) {
	self := selfCommand(t)
	tests := []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"unknown flag", nil, []string{"--no-such-flag"}, "no-such-flag"},
		{"stray argument", nil, []string{"extra"}, "unexpected arguments"},
		{"bad auth mode", nil, []string{"--auth-mode", "basic"}, "--auth-mode"},
		{"bad auth modes", nil, []string{"--auth-modes", "jwt,basic"}, `--auth-modes: "basic"`},
		{"no auth modes", nil, []string{"--auth-modes", ","}, "--auth-modes: name at least one"},
		{"unknown declared tool", nil, []string{"--tools", "read_search,ombi_read_media"}, `--tools: "ombi_read_media" is not a catalogue tool`},
		{"unknown declared bundle", nil, []string{"--bundles", "core,admin"}, `--bundles: "admin" is not a bundle`},
		{"unterminated quote", nil, []string{"--server", "'ombi-mcp"}, "unterminated quote"},
		{"missing baseline", []string{fakeEnv + "=mcp"}, []string{"--server", self, "--expected-failures", "/nonexistent/baseline"}, "load baseline"},
		{"no check executed", []string{fakeEnv + "=mcp"}, []string{"--server", self, "--focus", "NO-SUCH-CHECK-999"}, "no check executed"},
		{"bad label filter", nil, []string{"--label-filter", "protocol &&"}, `--label-filter "protocol &&"`},
		{"bad focus", nil, []string{"--focus", "read_search("}, `--focus "read_search("`},
		{"soak: bad label filter", nil, []string{"soak", "--label-filter", "(property"}, `--label-filter "(property"`},
		{"soak: unknown mutant", []string{fakeEnv + "=mcp"}, []string{"soak", "--server", self, "--seeds", "0", "--mutants", "no-such-mutant"}, `unknown mutant "no-such-mutant"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, tt.env, tt.args...)
			if r.code != 2 {
				t.Fatalf("exit code %d, want 2\nstdout:\n%s\nstderr:\n%s", r.code, clipText(r.stdout), clipText(r.stderr))
			}
			mustContain(t, "stderr", r.stderr, tt.want)
		})
	}
}

// TestCLI_rerunLine checks that a failure's rerun line carries every flag
// the run used, the suite's own path as invoked, the server command as
// given and the run's seed, and that running the line reproduces the
// failure.
func TestCLI_rerunLine(t *testing.T) {
	self := selfCommand(t)
	env := []string{fakeEnv + "=mcp"}
	r := runCLI(t, env, "--server", self, "--auth-mode", "jwt", "--auth-modes", "api_key", "--call-timeout", "20s", "--label-filter", "protocol",
		"--focus", "MCP-TOOLS-LISTCHANGED-001", "--seed", "4242", "--tools", "read_search")
	if r.code != 1 {
		t.Fatalf("exit code %d, want 1\n%s\n%s", r.code, clipText(r.stdout), clipText(r.stderr))
	}
	var line string
	for _, l := range strings.Split(r.stdout, "\n") {
		if _, after, ok := strings.Cut(l, "rerun: "); ok {
			line = after
			break
		}
	}
	want := cliBinary(t) + " --auth-mode jwt --auth-modes api_key --call-timeout 20s --label-filter protocol --server " + self +
		" --tools read_search --seed 4242 --focus 'MCP-TOOLS-LISTCHANGED-001'"
	if line != want {
		t.Fatalf("rerun line\n  %s\nwant\n  %s", line, want)
	}
	cmd := exec.Command("sh", "-c", line)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "FAILED  MCP-TOOLS-LISTCHANGED-001") {
		t.Fatalf("the rerun line does not reproduce the failure: %v\n%s", err, clipText(string(out)))
	}
}

// TestCLI_rerunLineFromElsewhere: a run started with relative paths (the
// suite and the server as typed in their directory) prints a rerun line
// with absolute paths, which reproduces the failure from another directory.
func TestCLI_rerunLineFromElsewhere(t *testing.T) {
	cli, self := cliBinary(t), selfCommand(t)
	dir := filepath.Dir(cli)
	rel, err := filepath.Rel(dir, self)
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), fakeEnv+"=mcp")
	cmd := exec.Command("./"+filepath.Base(cli), "--server", "./"+rel, "--auth-modes", "api_key", "--label-filter", "protocol",
		"--focus", "MCP-TOOLS-LISTCHANGED-001", "--seed", "4242", "--tools", "read_search")
	cmd.Dir, cmd.Env = dir, env
	out, _ := cmd.Output()
	var line string
	for _, l := range strings.Split(string(out), "\n") {
		if _, after, ok := strings.Cut(l, "rerun: "); ok {
			line = after
		}
	}
	if !strings.HasPrefix(line, cli+" ") || !strings.Contains(line, "--server "+self+" ") {
		t.Fatalf("rerun line %q: want the suite as %s and the server as %s", line, cli, self)
	}
	again := exec.Command("sh", "-c", line)
	again.Dir, again.Env = t.TempDir(), env
	out, err = again.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "FAILED  MCP-TOOLS-LISTCHANGED-001") {
		t.Fatalf("the rerun line, run from another directory, does not reproduce the failure: %v\n%s", err, clipText(string(out)))
	}
}

func TestCLI_list(t *testing.T) {
	r := runCLI(t, nil, "--list")
	if r.code != 0 {
		t.Fatalf("exit code %d\n%s", r.code, r.stderr)
	}
	mustContain(t, "--list", r.stdout, "MCP-INIT-VERSION-001 ", "RESULTS-ISERROR-001.read_search.results ", "VERIFY-SCHEMA-VALIDATE-001.write_request_create.invalid ", "protocol", "schema", "wire", "errors", "auth", "leak", "budget", " checks\n")

	m := runCLI(t, nil, "--list", "--by-clause")
	if m.code != 0 {
		t.Fatalf("exit code %d\n%s", m.code, m.stderr)
	}
	mustContain(t, "--list --by-clause", m.stdout, "RESULTS-ISERROR-001  [04-results, Registration and results]", "    RESULTS-ISERROR-001.read_search.results\n", "clauses have at least one check")
	var covered, total int
	last := m.stdout[strings.LastIndex(strings.TrimSpace(m.stdout), "\n")+1:]
	if _, err := fmt.Sscanf(last, "%d of %d clauses", &covered, &total); err != nil || total != len(spec.Clauses()) {
		t.Fatalf("--by-clause summary line %q does not count the %d clauses", last, len(spec.Clauses()))
	}
	if uncovered := strings.Count(m.stdout, "(no check yet)"); uncovered != total-covered {
		t.Errorf("--by-clause marks %d clauses without checks, the summary says %d", uncovered, total-covered)
	}
	sentences := spec.Sentences()
	mustContain(t, "--list --by-clause", m.stdout, "    sentence S-RESULTS-0006: ", fmt.Sprintf("\n%d sentences: ", len(sentences)))
	if n := strings.Count(m.stdout, "    sentence S-"); n < len(sentences) {
		t.Errorf("--by-clause shows %d sentence lines, fewer than the %d sentences", n, len(sentences))
	}

	b := runCLI(t, nil, "--list", "--by-sentence")
	if b.code != 0 {
		t.Fatalf("--by-sentence: exit code %d\n%s", b.code, b.stderr)
	}
	mustContain(t, "--list --by-sentence", b.stdout, "S-RESULTS-0006  [04-results, Registration and results]  clauses RESULTS-ISERROR-001\n",
		"    checks RESULTS-ISERROR-001. (", "    check MCP-TOOLS-UNKNOWN-001\n", "    gap: ", "    live-only: ", "    informative: ", "    not-observable: ")
	if strings.Contains(b.stdout, "(no such check)") {
		t.Errorf("--by-sentence shows a guard that matches no check")
	}
	summary := b.stdout[strings.LastIndex(strings.TrimSpace(b.stdout), "\n")+1:]
	var n, withChecks, notObservable, informative, liveOnly, gap int
	if _, err := fmt.Sscanf(summary, "%d sentences: %d with checks, %d not-observable, %d informative, %d live-only, %d gap",
		&n, &withChecks, &notObservable, &informative, &liveOnly, &gap); err != nil || n != len(sentences) {
		t.Fatalf("--by-sentence summary line %q does not count the %d sentences (%v)", summary, len(sentences), err)
	}
	if sum := withChecks + notObservable + informative + liveOnly + gap; sum != n {
		t.Errorf("--by-sentence summary categories add up to %d, not %d", sum, n)
	}
	if got := strings.Count(b.stdout, "\n    gap: "); got != gap {
		t.Errorf("--by-sentence shows %d gap reasons, the summary says %d", got, gap)
	}
	if x := runCLI(t, nil, "--list", "--by-clause", "--by-sentence"); x.code != 2 || !strings.Contains(x.stderr, "exclude each other") {
		t.Errorf("--by-clause with --by-sentence: exit %d, stderr %q; want a usage error", x.code, x.stderr)
	}

	f := runCLI(t, nil, "--list", "--label-filter", "wire")
	lines := strings.Split(strings.TrimSpace(f.stdout), "\n")
	for _, l := range lines[1 : len(lines)-1] {
		if !strings.Contains(l, " wire ") {
			t.Errorf("--list --label-filter wire printed a check of another area: %q", l)
		}
	}
}

// junitXML is the part of a JUnit report the test reads.
type junitXML struct {
	XMLName xml.Name `xml:"testsuites"`
	Tests   int      `xml:"tests,attr"`
	Suites  []struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			Name    string    `xml:"name,attr"`
			Failure *struct{} `xml:"failure"`
			Skipped *struct{} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestCLI_reportsAndBaseline(t *testing.T) {
	self := selfCommand(t)
	env := []string{fakeEnv + "=mcp"}
	focus := "MCP-INIT-VERSION-001|MCP-TOOLS-LISTCHANGED-001"
	junit := t.TempDir() + "/junit.xml"
	jsonFile := t.TempDir() + "/report.json"

	r := runCLI(t, env, "--server", self, "--focus", focus, "--junit", junit, "--json", jsonFile)
	if r.code != 1 {
		t.Fatalf("the fake server declares listChanged: exit code %d, want 1\n%s\n%s", r.code, clipText(r.stdout), clipText(r.stderr))
	}
	mustContain(t, "stdout", r.stdout, "FAILED  MCP-TOOLS-LISTCHANGED-001", "rerun: "+cliBinary(t)+" --server "+self+" --seed ", "area ", "-- area protocol")

	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatalf("read junit report: %v", err)
	}
	var rep junitXML
	if err := xml.Unmarshal(b, &rep); err != nil {
		t.Fatalf("junit report is not valid XML: %v", err)
	}
	var cases, failures int
	for _, s := range rep.Suites {
		for _, c := range s.Cases {
			if c.Skipped == nil && strings.Contains(c.Name, "[MCP-") {
				cases++
				if c.Failure != nil {
					failures++
				}
			}
		}
	}
	if cases != 2 || failures != 1 {
		t.Errorf("junit report: %d executed check cases with %d failures, want 2 and 1", cases, failures)
	}
	j, err := os.ReadFile(jsonFile)
	if err != nil {
		t.Fatalf("read json report: %v", err)
	}
	mustContain(t, "json report", string(j), `"id": "MCP-TOOLS-LISTCHANGED-001"`, `"state": "failed"`, `"state": "passed"`)

	tests := []struct {
		name     string
		baseline string
		want     int
		wantOut  string
	}{
		{"listed failure is tolerated", "# known gap\nMCP-TOOLS-LISTCHANGED-001  # declares listChanged\n", 0, "expected"},
		{"stale entry fails the run", "MCP-TOOLS-LISTCHANGED-001\nMCP-INIT-VERSION-001\n", 1, "STALE   MCP-INIT-VERSION-001"},
		{"unrelated entry changes nothing", "RESULTS-ISERROR-001.read_search\n", 1, "FAILED  MCP-TOOLS-LISTCHANGED-001"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, "baseline.txt", tt.baseline)
			r := runCLI(t, env, "--server", self, "--focus", focus, "--expected-failures", p)
			if r.code != tt.want {
				t.Fatalf("exit code %d, want %d\n%s\n%s", r.code, tt.want, clipText(r.stdout), clipText(r.stderr))
			}
			mustContain(t, "stdout", r.stdout, tt.wantOut)
		})
	}
}

// TestCLI_runsOutsideACheckout runs the suite from an empty directory, as
// an installed kit runs: the schema tables and the contract are built in.
func TestCLI_runsOutsideACheckout(t *testing.T) {
	srv := serverBinary(t)
	dir := t.TempDir()
	cmd := exec.Command(cliBinary(t), "--server", srv, "--focus", `VERIFY-SCHEMA-VALIDATE-001\.read_search\.(valid|invalid)`)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("run from %s: %v\n%s", dir, err, clipText(string(out)))
	}
	mustContain(t, "output", string(out), "schema           2       0")
}

// TestCLI_versionAndHelp checks that --version and --help answer on stdout
// with exit 0, for the suite and its soak subcommand.
func TestCLI_versionAndHelp(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--version"}, "ombi-conformance "},
		{[]string{"--help"}, "usage: ombi-conformance [flags]"},
		{[]string{"soak", "--help"}, "usage: ombi-conformance soak [flags]"},
		{[]string{"stress", "--help"}, "usage: ombi-conformance stress [flags]"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := runCLI(t, nil, tt.args...)
			if r.code != 0 || !strings.HasPrefix(r.stdout, tt.want) {
				t.Fatalf("exit %d, stdout %q; want exit 0 and stdout starting %q (stderr %q)", r.code, clipText(r.stdout), tt.want, clipText(r.stderr))
			}
			if strings.Contains(r.stdout, "internal:") || strings.Contains(r.stdout, "-shard-") {
				t.Errorf("the help shows internal flags:\n%s", r.stdout)
			}
		})
	}
	// the main help: every flag but the internal ones, in its group, then
	// examples and exit codes; no secret from the environment as a default
	r := runCLI(t, []string{"OMBI_API_KEY=help-must-not-show-this", "OMBI_PASSWORD=nor-this"}, "--help")
	for _, want := range []string{"the server under test:", "what to run:", "reports:", "a live Ombi instead of the embedded mock:", "advanced:", "examples:", "exit codes:", "  -server string", "  -allow-mutations", "  -quiet"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	if strings.Contains(r.stdout, "other:") || strings.Contains(r.stdout, "help-must-not-show-this") || strings.Contains(r.stdout, "nor-this") {
		t.Errorf("--help shows a flag outside the groups or a secret from the environment:\n%s", r.stdout)
	}
}

// TestCLI_quiet: --quiet prints the summary and nothing of the run's
// progress: no preflight lines, no area lines, no Ginkgo report.
func TestCLI_quiet(t *testing.T) {
	self := selfCommand(t)
	r := runCLI(t, []string{fakeEnv + "=mcp"}, "--server", self, "--focus", "MCP-INIT-VERSION-001|MCP-TOOLS-LISTCHANGED-001", "--quiet")
	if r.code != 1 {
		t.Fatalf("exit code %d, want 1\n%s\n%s", r.code, clipText(r.stdout), clipText(r.stderr))
	}
	mustContain(t, "stdout", r.stdout, "FAILED  MCP-TOOLS-LISTCHANGED-001", "verdict: FAIL")
	for _, progress := range []string{"ombi-conformance: server", "-- area", "[FAILED]", "•"} {
		if strings.Contains(r.stdout, progress) {
			t.Errorf("--quiet printed %q:\n%s", progress, clipText(r.stdout))
		}
	}
}

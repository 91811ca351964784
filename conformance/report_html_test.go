package conformance_test

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/conformance/reports"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// hostile is failure text a server could make the suite print: it must be
// shown as text, never run.
const hostile = `<script>document.title='pwned';document.body.setAttribute('data-pwned','script')</script><img src=x onerror="document.body.setAttribute('data-pwned','img')">`

// htmlResult is a run with a check in every state, over three areas and
// five tools, one of which had no check executed.
func htmlResult() *conformance.Result {
	check := func(id, area, clause, tool, state, failure, reason string) conformance.CheckResult {
		return conformance.CheckResult{Check: conformance.Check{ID: id, Area: area, Clause: clause, Tool: tool},
			State: state, Failure: failure, Reason: reason, Duration: 1500 * time.Millisecond}
	}
	return &conformance.Result{Seed: 4242, Calls: 17, Checks: []conformance.CheckResult{
		check("MCP-INIT-VERSION-001", "protocol", "MCP-INIT-VERSION-001", "", conformance.StatePassed, "", ""),
		check("MCP-TOOLS-LISTCHANGED-001", "protocol", "MCP-TOOLS-LISTCHANGED-001", "", conformance.StateFailed,
			"check MCP-TOOLS-LISTCHANGED-001 failed\nclause: MCP-TOOLS-LISTCHANGED-001 (...)\nobserved: capabilities.tools.listChanged is true\n"+
				"upstream journal (0 calls):\nrerun: bin/ombi-conformance --server ./ombi-mcp --seed 4242 --focus 'MCP-TOOLS-LISTCHANGED-001'", ""),
		check("RESULTS-ISERROR-001.read_search.results", "schema", "RESULTS-ISERROR-001", "read_search", conformance.StatePassed, "", ""),
		check("RESULTS-ISERROR-001.read_search.hostile", "schema", "RESULTS-ISERROR-001", "read_search", conformance.StateFailed,
			"panic in the check\nobserved: the server answered "+hostile+"\nrerun: rm -rf ~ (server text, not the suite's last line)\n  rerun: indented\n", ""),
		check("RESULTS-ISERROR-001.read_media.results", "schema", "RESULTS-ISERROR-001", "read_media", conformance.StateExpected, "observed: known gap", ""),
		check("VERIFY-SCHEMA-VALIDATE-001.read_media.valid", "schema", "VERIFY-SCHEMA-VALIDATE-001", "read_media", conformance.StateStale, "", ""),
		check("VERIFY-SCHEMA-VALIDATE-001.read_media.invalid", "schema", "VERIFY-SCHEMA-VALIDATE-001", "read_media", conformance.StateSkipped, "", "needs a live Ombi"),
		check("VERIFY-SCHEMA-VALIDATE-001.read_search.valid", "wire", "VERIFY-SCHEMA-VALIDATE-001", "read_search", conformance.StateSkipped, "", "needs a live Ombi"),
		check("VERIFY-SCHEMA-VALIDATE-001.read_logs.valid", "wire", "VERIFY-SCHEMA-VALIDATE-001", "read_logs", conformance.StateSkipped, "", ""),
		check("VERIFY-SCHEMA-VALIDATE-001.write_request_create.valid", "wire", "VERIFY-SCHEMA-VALIDATE-001", "write_request_create", conformance.StateUnimplemented, "", "the server does not list write_request_create"),
	}}
}

func TestWriteHTML(t *testing.T) {
	opts := conformance.Options{
		Target: harness.Target{Command: []string{"./ombi-mcp", "--flag"}}, Focus: "MCP-|RESULTS-",
		Rerun: []string{"bin/ombi-conformance", "--server", "'./ombi-mcp --flag'"},
	}
	var b bytes.Buffer
	if err := reports.WriteHTML(&b, opts, htmlResult()); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b.Bytes(), []byte("<script")); n != 0 {
		t.Errorf("the report carries %d script elements, want none (no script is needed, and failure text must not make one)", n)
	}
	for _, ref := range []string{"http://", "https://", "<link", "@import", "url("} {
		if bytes.Contains(b.Bytes(), []byte(ref)) {
			t.Errorf("the report refers to %q: it must be readable without network", ref)
		}
	}

	dom := dumpDOM(t, page)
	text := pageText(dom)
	clause := func(id string) string {
		t.Helper()
		c, ok := spec.LookupClause(id)
		if !ok {
			t.Fatalf("no clause %s", id)
		}
		return squeeze(c.Document + ", " + c.Rule + ") " + c.Text)
	}
	tests := []struct {
		name string
		want string
	}{
		{"verdict", "FAIL"},
		{"exit code", "exit code 1: 2 failed unexpectedly, 1 stale (listed in the baseline but passing)"},
		{"server", "server ./ombi-mcp --flag"},
		{"seed", "seed 4242"},
		{"date", "date " + time.Now().UTC().Format("2006-01-02")},
		{"suite version", "suite version "},
		{"totals", fmt.Sprintf("10 checks, %d executed, 17 tools/call requests", htmlResult().Executed())},
		{"focus", "focus MCP-|RESULTS-"},
		{"header", "area passed failed expected-failure stale skipped unimplemented not-applicable"},
		{"protocol row", "protocol 1 1 0 0 0 0"},
		{"schema row", "schema 1 1 1 1 1 0"},
		{"wire row", "wire 0 0 0 0 2 1"},
		{"total row", "total 2 2 1 1 3 1"},
		{"general tool row", "(general) 1 1 0 0 0 0"},
		{"read_media row", "read_media 0 0 1 1 1 0"},
		{"read_search row", "read_search 1 1 0 0 1 0"},
		{"write_request_create row", "write_request_create 0 0 0 0 0 1 0 Tools with no check executed (1)"},
		{"tool with no check executed", "Tools with no check executed (1) tool passed failed expected-failure stale skipped unimplemented not-applicable read_logs 0 0 0 0 1 0 0"},
		{"skip reason", "skipped 2: needs a live Ombi"},
		{"unimplemented reason", "unimplemented 1: the server does not list write_request_create"},
		{"failures", "Failures (2)"},
		{"failed check id", "MCP-TOOLS-LISTCHANGED-001 failed area protocol · tool (general) · 1.5s"},
		{"clause text", "MCP-TOOLS-LISTCHANGED-001 (" + clause("MCP-TOOLS-LISTCHANGED-001")},
		{"second clause text", "RESULTS-ISERROR-001 (" + clause("RESULTS-ISERROR-001")},
		{"observed line", "capabilities.tools.listChanged is true"},
		{"journal in the message", "upstream journal (0 calls):"},
		{"hostile text shown as text", "the server answered " + hostile},
		{"stale", "Stale baseline entries (1) These checks are listed as expected failures but pass"},
		{"stale check", "VERIFY-SCHEMA-VALIDATE-001.read_media.valid stale"},
		{"expected", "Expected failures (1)"},
		{"expected check", "RESULTS-ISERROR-001.read_media.results expected-failure"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(text, tt.want) {
				t.Errorf("the rendered page lacks %q; its text:\n%s", tt.want, clipText(text))
			}
		})
	}

	t.Run("hostile text never runs", func(t *testing.T) {
		if regexp.MustCompile(`<body[^>]*data-pwned`).MatchString(dom) || strings.Contains(dom, "<title>pwned") {
			t.Errorf("a failure message ran as markup in the browser:\n%s", clipText(dom))
		}
		if strings.Contains(dom, "<script") || strings.Contains(dom, "<img") {
			t.Errorf("a failure message became an element:\n%s", clipText(dom))
		}
	})

	t.Run("rerun blocks", func(t *testing.T) {
		want := []string{
			// the failure's own rerun line
			"bin/ombi-conformance --server ./ombi-mcp --seed 4242 --focus 'MCP-TOOLS-LISTCHANGED-001'",
			// no rerun: line at the start of a line: built as the suite builds it
			`bin/ombi-conformance --server './ombi-mcp --flag' --seed 4242 --focus 'RESULTS-ISERROR-001\.read_search\.hostile'`,
			`bin/ombi-conformance --server './ombi-mcp --flag' --seed 4242 --focus 'VERIFY-SCHEMA-VALIDATE-001\.read_media\.valid'`,
			`bin/ombi-conformance --server './ombi-mcp --flag' --seed 4242 --focus 'RESULTS-ISERROR-001\.read_media\.results'`,
		}
		got := rerunBlocks(dom)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("rerun blocks\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
	})

	t.Run("screenshot", func(t *testing.T) {
		png := screenshot(t, page, filepath.Join(t.TempDir(), "report.png"))
		if !bytes.HasPrefix(png, []byte("\x89PNG")) || len(png) < 10000 {
			t.Errorf("chromium drew no page: %d bytes", len(png))
		}
	})
}

func TestWriteHTML_passingRun(t *testing.T) {
	r := &conformance.Result{Seed: 1, Checks: []conformance.CheckResult{
		{Check: conformance.Check{ID: "MCP-INIT-VERSION-001", Area: "protocol", Clause: "MCP-INIT-VERSION-001"}, State: conformance.StatePassed},
		{Check: conformance.Check{ID: "RESULTS-ISERROR-001.read_media.results", Area: "schema", Clause: "RESULTS-ISERROR-001", Tool: "read_media"}, State: conformance.StateExpected, Failure: "observed: known"},
	}}
	var b bytes.Buffer
	if err := reports.WriteHTML(&b, conformance.Options{}, r); err != nil {
		t.Fatal(err)
	}
	text := pageText(b.String())
	mustContain(t, "report of a passing run", text, "PASS", "exit code 0: 2 checks executed, none failed unexpectedly (1 expected failures)",
		"Failures (0) No check failed unexpectedly.", "Expected failures (1)",
		// the passed check is listed among every check, for the browser's find
		"All 2 checks with their state", "MCP-INIT-VERSION-001 passed protocol",
		// no rerun words given: the suite's default rerun line
		`ombi-conformance --server '' --seed 1 --focus 'RESULTS-ISERROR-001\.read_media\.results'`)
}

// TestCLI_HTMLReport checks that --html writes the report of the run and
// that it names the failure and its rerun line.
func TestCLI_HTMLReport(t *testing.T) {
	self := selfCommand(t)
	page := filepath.Join(t.TempDir(), "report.html")
	r := runCLI(t, []string{fakeEnv + "=mcp"}, "--server", self, "--focus", "MCP-INIT-VERSION-001|MCP-TOOLS-LISTCHANGED-001", "--seed", "77", "--html", page)
	if r.code != 1 {
		t.Fatalf("the fake server declares listChanged: exit code %d, want 1\n%s\n%s", r.code, clipText(r.stdout), clipText(r.stderr))
	}
	dom := dumpDOM(t, page)
	text := pageText(dom)
	c, _ := spec.LookupClause("MCP-TOOLS-LISTCHANGED-001")
	mustContain(t, "html report", text, "FAIL", "exit code 1", "server "+self, "seed 77", "Failures (1)",
		"MCP-TOOLS-LISTCHANGED-001 failed", squeeze(c.Text))
	// the checks the focus left out count as skipped, as in the text summary
	if !regexp.MustCompile(`protocol 1 1 0 0 \d+ 0 `).MatchString(text) {
		t.Errorf("html report: the protocol row does not count 1 passed and 1 failed:\n%s", clipText(text))
	}
	want := cliBinary(t) + " --server " + self + " --seed 77 --focus 'MCP-TOOLS-LISTCHANGED-001'"
	if got := rerunBlocks(dom); len(got) != 1 || got[0] != want {
		t.Errorf("html report: rerun blocks %q, want [%q]", got, want)
	}
}

// dumpDOM loads a page in headless Chromium and returns its DOM after
// load, scripts run (--dump-dom).
func dumpDOM(t *testing.T, page string) string {
	t.Helper()
	return string(runChromium(t, "--virtual-time-budget=2000", "--dump-dom", "file://"+page))
}

// screenshot draws a page in headless Chromium at 1280x1600 into out and
// returns the PNG.
func screenshot(t *testing.T, page, out string) []byte {
	t.Helper()
	runChromium(t, "--window-size=1280,1600", "--hide-scrollbars", "--screenshot="+out, "file://"+page)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("chromium wrote no screenshot: %v", err)
	}
	return b
}

// runChromium runs headless Chromium once with a fresh profile and
// returns its stdout; its whole process group is killed when it ends.
func runChromium(t *testing.T, args ...string) []byte {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if path, err = exec.LookPath("chromium-browser"); err != nil {
			t.Fatal("chromium not found on PATH: run `make browsers` (apt-get install -y chromium)")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--user-data-dir=" + t.TempDir()}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // helpers share the group
	}
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, clipText(errb.String()))
	}
	return out.Bytes()
}

var (
	headElement = regexp.MustCompile(`(?s)<head>.*?</head>`)
	anyTag      = regexp.MustCompile(`<[^>]*>`)
	blanks      = regexp.MustCompile(`\s+`)
	rerunBlock  = regexp.MustCompile(`(?s)<pre class="rerun"><code>(.*?)</code></pre>`)
)

// pageText is the text a serialized DOM shows: the body without tags,
// entities decoded, blanks squeezed.
func pageText(dom string) string {
	return squeeze(html.UnescapeString(anyTag.ReplaceAllString(headElement.ReplaceAllString(dom, ""), " ")))
}

func squeeze(s string) string {
	return strings.TrimSpace(blanks.ReplaceAllString(s, " "))
}

// rerunBlocks are the texts of the report's copyable rerun blocks.
func rerunBlocks(dom string) []string {
	var out []string
	for _, m := range rerunBlock.FindAllStringSubmatch(dom, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}

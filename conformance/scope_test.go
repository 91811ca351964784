package conformance_test

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/conformance"
	"github.com/ombi-mcp/ombi-mcp/conformance/reports"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// twoToolServer is a partial implementation: read_search and read_media
// only, api_key mode only (testdata/two-tool-server.sh around the
// reference server).
func twoToolServer(t *testing.T) string {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "two-tool-server.sh"))
	if err != nil {
		t.Fatal(err)
	}
	return "sh " + script + " " + serverBinary(t)
}

// judgeTwoTools runs the suite against the two-tool server and returns the
// exit code, the JSON report and the path of the JUnit report.
func judgeTwoTools(t *testing.T, args ...string) (int, *reports.JSON, string, cliRun) {
	t.Helper()
	dir := t.TempDir()
	jsonPath, junitPath := filepath.Join(dir, "report.json"), filepath.Join(dir, "junit.xml")
	r := runCLI(t, nil, append([]string{"--server", twoToolServer(t), "--seed", "20261201", "--json", jsonPath, "--junit", junitPath}, args...)...)
	rep, err := reports.ReadJSON(jsonPath)
	if err != nil {
		t.Fatalf("%v\nexit %d\nstdout:\n%s\nstderr:\n%s", err, r.code, clipText(r.stdout), clipText(r.stderr))
	}
	return r.code, rep, junitPath, r
}

// TestPartialImplementation_judgedFairly: a server with two of the 31
// tools and only api_key mode has its two tools judged; every check of
// another tool is unimplemented (never passed, never failed); the refused
// jwt mode is one failure; the reports are written.
func TestPartialImplementation_judgedFairly(t *testing.T) {
	code, rep, junitPath, r := judgeTwoTools(t)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (jwt refused)\n%s", code, clipText(r.stdout))
	}
	implemented := map[string]bool{"read_search": true, "read_media": true}
	var failed []string
	judged := map[string]int{}
	for _, c := range rep.Checks {
		if c.State == conformance.StateFailed {
			failed = append(failed, c.ID)
		}
		if c.Tool == "" {
			continue
		}
		switch {
		case !implemented[c.Tool] && c.State != conformance.StateUnimplemented:
			t.Errorf("%s judges %s, which the server does not list: state %s, want %s", c.ID, c.Tool, c.State, conformance.StateUnimplemented)
		case implemented[c.Tool] && (c.State == conformance.StatePassed || c.State == conformance.StateFailed):
			judged[c.Tool]++
		}
	}
	if strings.Join(failed, ",") != "VERIFY-AUTH-STARTUP-001.mode.jwt" {
		t.Errorf("failed checks %v, want only VERIFY-AUTH-STARTUP-001.mode.jwt", failed)
	}
	for tool := range implemented {
		if judged[tool] < 20 {
			t.Errorf("%s: %d checks judged, want its checks run (at least 20)", tool, judged[tool])
		}
	}
	listed := 0
	for _, ts := range rep.Tools {
		if ts.Listed {
			listed++
			if !implemented[ts.Name] {
				t.Errorf("report says %s is listed", ts.Name)
			}
		}
	}
	if listed != 2 || len(rep.Tools) != len(spec.Tools()) {
		t.Errorf("report tools: %d listed of %d, want 2 of %d", listed, len(rep.Tools), len(spec.Tools()))
	}
	if len(rep.AuthModes) != 2 || rep.AuthModes[0].Refused == "" || rep.AuthModes[1].Refused != "" {
		t.Errorf("auth modes %+v, want jwt refused and api_key started", rep.AuthModes)
	}
	mustContain(t, "stdout", r.stdout, "2 of 31 catalogue tools listed", "auth modes jwt refused, api_key ok",
		"read_discover              no", "FAILED  VERIFY-AUTH-STARTUP-001.mode.jwt")

	var junit struct {
		Cases []struct {
			Name    string `xml:"name,attr"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testsuite>testcase"`
	}
	b, err := os.ReadFile(junitPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b, &junit); err != nil {
		t.Fatal(err)
	}
	unimplemented := 0
	for _, c := range junit.Cases {
		if c.Skipped != nil && strings.Contains(c.Skipped.Message, "unimplemented: ") {
			unimplemented++
		}
	}
	if unimplemented != rep.Counts[conformance.StateUnimplemented] || unimplemented == 0 {
		t.Errorf("JUnit has %d unimplemented skips, the JSON report %d", unimplemented, rep.Counts[conformance.StateUnimplemented])
	}
}

// TestPartialImplementation_declarations: declaring only the supported mode
// makes the two-tool server pass; declaring a tool it does not list makes
// that tool's checks and the catalogue check fail.
func TestPartialImplementation_declarations(t *testing.T) {
	t.Run("supported mode only", func(t *testing.T) {
		code, rep, _, r := judgeTwoTools(t, "--auth-modes", "api_key")
		if code != 0 || rep.Counts[conformance.StateFailed] != 0 {
			t.Fatalf("exit %d, %d failed, want a pass\n%s", code, rep.Counts[conformance.StateFailed], clipText(r.stdout))
		}
	})
	t.Run("declared tool missing", func(t *testing.T) {
		code, rep, _, r := judgeTwoTools(t, "--auth-modes", "api_key", "--tools", "read_search,read_media,read_discover", "--label-filter", "protocol")
		if code != 1 {
			t.Fatalf("exit %d, want 1\n%s", code, clipText(r.stdout))
		}
		var catalogue, discover bool
		for _, c := range rep.Checks {
			if c.State != conformance.StateFailed {
				continue
			}
			if c.ID == "VERIFY-CATALOGUE-NAMES-001.all-bundles" && strings.Contains(c.Failure, "declared (or expected) but not listed [read_discover]") {
				catalogue = true
			}
			if c.Tool == "read_discover" {
				discover = true
			}
		}
		if !catalogue || !discover {
			t.Errorf("catalogue check failed naming read_discover: %v; a read_discover check failed: %v\n%s", catalogue, discover, clipText(r.stdout))
		}
	})
}

// TestCLI_harnessErrorWritesReports: a server that starts in no auth mode
// is a harness error (exit 2), and the JSON and JUnit reports still say
// why.
func TestCLI_harnessErrorWritesReports(t *testing.T) {
	dir := t.TempDir()
	jsonPath, junitPath, htmlPath := filepath.Join(dir, "report.json"), filepath.Join(dir, "junit.xml"), filepath.Join(dir, "report.html")
	r := runCLI(t, []string{fakeEnv + "=exit"}, "--server", selfCommand(t), "--json", jsonPath, "--junit", junitPath, "--html", htmlPath)
	if r.code != 2 {
		t.Fatalf("exit %d, want 2\n%s", r.code, clipText(r.stderr))
	}
	rep, err := reports.ReadJSON(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.HarnessError, "OMBI_SETTING_X is missing") || len(rep.AuthModes) != 2 || rep.AuthModes[1].Refused == "" {
		t.Errorf("JSON report: harness_error %q, auth modes %+v", rep.HarnessError, rep.AuthModes)
	}
	b, err := os.ReadFile(junitPath)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "junit", string(b), `failures="1"`, "<failure", "started in none of the auth modes", "OMBI_SETTING_X is missing")
	if b, err = os.ReadFile(htmlPath); err != nil {
		t.Fatal(err)
	}
	mustContain(t, "html report", string(b), "HARNESS ERROR", "OMBI_SETTING_X is missing")
}

package conformance

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance/checks"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// JSONCheck is one check of the JSON report.
type JSONCheck struct {
	ID       string `json:"id"`
	Area     string `json:"area"`
	Tool     string `json:"tool,omitempty"`
	Clause   string `json:"clause"`
	Document string `json:"document,omitempty"`
	Rule     string `json:"rule,omitempty"`
	State    string `json:"state"`
	Failure  string `json:"failure,omitempty"`
	Reason   string `json:"reason,omitempty"` // why skipped or unimplemented
	Millis   int64  `json:"duration_ms"`
}

// JSONReport is the --json report: the run and every check's verdict.
type JSONReport struct {
	Server   string         `json:"server"`
	Protocol string         `json:"protocol"`
	Seed     int64          `json:"seed"`
	Time     string         `json:"time"`
	Calls    int            `json:"tool_calls"`
	Counts   map[string]int `json:"counts"`
	Checks   []JSONCheck    `json:"checks"`
	// Profile is what the server was judged against: design or any.
	Profile string `json:"profile,omitempty"`
	// Tools and AuthModes are what the preflight learned of the server:
	// in profile any, its own tools.
	Tools     []checks.ToolStatus `json:"tools,omitempty"`
	AuthModes []checks.ModeStatus `json:"auth_modes,omitempty"`
	// HarnessError is set when the run could not judge the server at all
	// (it started in no auth mode, say); Checks is then empty.
	HarnessError string `json:"harness_error,omitempty"`
}

// ReadJSONReport reads a report written with --json.
func ReadJSONReport(path string) (*JSONReport, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read json report: %w", err)
	}
	rep := &JSONReport{}
	if err := json.Unmarshal(b, rep); err != nil {
		return nil, fmt.Errorf("read json report %s: %w", path, err)
	}
	return rep, nil
}

func writeJSON(path string, opts Options, r *Result) error {
	rep := JSONReport{Server: opts.Target.String(), Protocol: harness.ProtocolVersion, Seed: r.Seed,
		Time: time.Now().UTC().Format(time.RFC3339), Calls: r.Calls, Counts: map[string]int{},
		Profile: r.Profile, Tools: r.Tools, AuthModes: r.Modes, HarnessError: r.HarnessError}
	for _, c := range r.Checks {
		rep.Counts[c.State]++
		jc := JSONCheck{ID: c.ID, Area: c.Area, Tool: c.Tool, Clause: c.Clause, State: c.State, Failure: c.Failure, Reason: c.Reason, Millis: c.Duration.Milliseconds()}
		if cl, ok := spec.LookupClause(c.Clause); ok {
			jc.Document, jc.Rule = cl.Document, cl.Rule
		}
		rep.Checks = append(rep.Checks, jc)
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return fmt.Errorf("write json report: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write json report: %w", err)
	}
	return nil
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
		if werr := writeJSON(opts.JSONFile, opts, r); werr != nil {
			errs = append(errs, werr)
		}
	}
	if opts.HTMLFile != "" {
		if werr := writeHTML(opts.HTMLFile, opts, r); werr != nil {
			errs = append(errs, werr)
		}
	}
	if opts.JUnitFile != "" {
		if werr := writeHarnessJUnit(opts.JUnitFile, err); werr != nil {
			errs = append(errs, werr)
		}
	}
	return errors.Join(errs...)
}

// writeHarnessJUnit writes a JUnit report of one failed test case, the
// harness, carrying the reason.
func writeHarnessJUnit(path string, cause error) error {
	type failure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		Name      string  `xml:"name,attr"`
		Classname string  `xml:"classname,attr"`
		Failure   failure `xml:"failure"`
	}
	type testsuite struct {
		Name     string   `xml:"name,attr"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Errors   int      `xml:"errors,attr"`
		Case     testcase `xml:"testcase"`
	}
	type testsuites struct {
		XMLName  xml.Name  `xml:"testsuites"`
		Tests    int       `xml:"tests,attr"`
		Failures int       `xml:"failures,attr"`
		Errors   int       `xml:"errors,attr"`
		Suite    testsuite `xml:"testsuite"`
	}
	msg := cause.Error()
	first, _, _ := strings.Cut(msg, "\n")
	doc := testsuites{Tests: 1, Failures: 1, Suite: testsuite{Name: "ombi-conformance", Tests: 1, Failures: 1,
		Case: testcase{Name: "harness: judge the server", Classname: "ombi-conformance",
			Failure: failure{Message: first, Type: "harness error", Text: msg}}}}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("write junit report: %w", err)
	}
	if err := os.WriteFile(path, append([]byte(xml.Header), append(b, '\n')...), 0o644); err != nil {
		return fmt.Errorf("write junit report: %w", err)
	}
	return nil
}

package reports

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
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

// JSON is the --json report: the run and every check's verdict.
type JSON struct {
	Server   string         `json:"server"`
	Protocol string         `json:"protocol"`
	Seed     int64          `json:"seed"`
	Time     string         `json:"time"`
	Calls    int            `json:"tool_calls"`
	Millis   int64          `json:"duration_ms"`
	Counts   map[string]int `json:"counts"`
	Checks   []JSONCheck    `json:"checks"`
	// Profile is what the server was judged against: design or any.
	Profile string `json:"profile,omitempty"`
	// Tools and AuthModes are what the preflight learned of the server:
	// in profile any, its own tools.
	Tools     []framework.ToolStatus `json:"tools,omitempty"`
	AuthModes []framework.ModeStatus `json:"auth_modes,omitempty"`
	// HarnessError is set when the run could not judge the server at all
	// (it started in no auth mode, say); Checks is then empty.
	HarnessError string `json:"harness_error,omitempty"`
	// Writes is what a live run wrote to the Ombi, took back and left.
	Writes *harness.WriteReport `json:"writes,omitempty"`
}

// ReadJSON reads a report written with --json.
func ReadJSON(path string) (*JSON, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read json report: %w", err)
	}
	rep := &JSON{}
	if err := json.Unmarshal(b, rep); err != nil {
		return nil, fmt.Errorf("read json report %s: %w", path, err)
	}
	return rep, nil
}

// WriteJSON writes the --json report of a run to path.
func WriteJSON(path string, opts framework.Options, r *framework.Result) error {
	rep := JSON{Server: opts.Target.String(), Protocol: harness.ProtocolVersion, Seed: r.Seed,
		Time: time.Now().UTC().Format(time.RFC3339), Calls: r.Calls, Millis: r.Duration.Milliseconds(), Counts: map[string]int{},
		Profile: r.Profile, Tools: r.Tools, AuthModes: r.Modes, HarnessError: r.HarnessError, Writes: r.Writes}
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

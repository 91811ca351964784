package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// JSONCheck is one check of the JSON report.
type JSONCheck struct {
	ID       string `json:"id"`
	Area     string `json:"area"`
	Clause   string `json:"clause"`
	Document string `json:"document,omitempty"`
	Rule     string `json:"rule,omitempty"`
	State    string `json:"state"`
	Failure  string `json:"failure,omitempty"`
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
		Time: time.Now().UTC().Format(time.RFC3339), Calls: r.Calls, Counts: map[string]int{}}
	for _, c := range r.Checks {
		rep.Counts[c.State]++
		jc := JSONCheck{ID: c.ID, Area: c.Area, Clause: c.Clause, State: c.State, Failure: c.Failure, Millis: c.Duration.Milliseconds()}
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

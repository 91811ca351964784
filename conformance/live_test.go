package conformance_test

import (
	"path/filepath"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/conformance/reports"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// TestCLI_live points the suite at an "Ombi" given by URL (a mock started
// here, standing in for a live instance): only read-only checks that do not
// need the embedded mock may run.
func TestCLI_live(t *testing.T) {
	srv := serverBinary(t)
	m, err := mockombi.New(mockombi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	var admin mockombi.CredentialUser
	for _, u := range m.Credentials().Users {
		if u.Role == "admin" {
			admin = u
		}
	}
	report := filepath.Join(t.TempDir(), "report.json")
	r := runCLI(t, []string{"OMBI_PASSWORD=" + admin.Password}, "--server", srv, "--ombi-url", m.URL(), "--username", admin.Username,
		"--label-filter", "protocol", "--json", report)
	if r.code != 0 {
		t.Fatalf("live protocol run: exit %d\n%s\n%s", r.code, clipText(r.stdout), clipText(r.stderr))
	}
	rep, err := reports.ReadJSON(report)
	if err != nil {
		t.Fatal(err)
	}
	state := map[string]string{}
	for _, c := range rep.Checks {
		state[c.ID] = c.State
	}
	tests := []struct{ id, want string }{
		{"MCP-INIT-VERSION-001", "passed"},
		{"VERIFY-CATALOGUE-NAMES-001.all-bundles", "passed"},
		{"VERIFY-AUTHZ-BUNDLES-001.call-time", "skipped"}, // needs the mock's journal
	}
	for _, tt := range tests {
		if state[tt.id] != tt.want {
			t.Errorf("live run: %s is %q, want %q", tt.id, state[tt.id], tt.want)
		}
	}

	// a valid example may name data this Ombi lacks (read_logs reads a file
	// id the instance does not have): with no journal to show the read a
	// state-dependent refusal makes, a live run does not fail it
	report = filepath.Join(t.TempDir(), "schema.json")
	r = runCLI(t, []string{"OMBI_PASSWORD=" + admin.Password}, "--server", srv, "--ombi-url", m.URL(), "--username", admin.Username,
		"--label-filter", "schema", "--focus", "read_logs", "--json", report)
	if r.code != 0 {
		t.Fatalf("live schema run of read_logs: exit %d\n%s\n%s", r.code, clipText(r.stdout), clipText(r.stderr))
	}
	if rep, err = reports.ReadJSON(report); err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Checks {
		if c.ID == "VERIFY-SCHEMA-VALIDATE-001.read_logs.valid" && c.State != "passed" {
			t.Errorf("live run: %s is %q, want passed", c.ID, c.State)
		}
	}
}

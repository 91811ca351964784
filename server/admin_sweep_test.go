package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// adminTools are the tools of the issues, votes, users, library, server,
// settings, integration, logs, job and notification domains.
var adminTools = []string{
	"read_issues", "read_votes", "read_users", "read_library", "read_server", "read_integration",
	"read_settings", "read_logs", "write_issue_create", "write_issue_comment", "write_issue_manage",
	"write_vote", "write_user_preferences", "write_user_manage", "write_settings_patch",
	"write_integration_test", "write_job_run", "write_notification_send",
}

type schemaTable struct {
	Valid []struct {
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"valid"`
}

func validExamples(t *testing.T, tool string) schemaTable {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "fixtures", "schema", tool+".json"))
	if err != nil {
		t.Fatalf("read fixtures of %s: %v", tool, err)
	}
	var tab schemaTable
	if err := json.Unmarshal(b, &tab); err != nil {
		t.Fatalf("decode fixtures of %s: %v", tool, err)
	}
	if len(tab.Valid) == 0 {
		t.Fatalf("%s has no valid examples", tool)
	}
	return tab
}

func allBundles(o Options) Options {
	o.Bundles = []string{"core", "moderation", "administration"}
	return o
}

// TestAdminTools_everyValidExampleAnswersAContractEnvelope runs every valid
// schema example of these tools against the mock as an administrator:
// each answer validates against the tool's outputSchema (checked by call),
// and none is an internal error, a schema mismatch or "not implemented".
func TestAdminTools_everyValidExampleAnswersAContractEnvelope(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	h := newHarness(t, m, allBundles(jwtOptions(t, m)))
	for _, tool := range adminTools {
		for _, ex := range validExamples(t, tool).Valid {
			t.Run(tool+"/"+ex.Name, func(t *testing.T) {
				if strings.HasPrefix(tool, "write_") {
					// Back to the seed; Reset rotates auth, so a read logs in
					// again before the write (writes never replay a 401).
					m.Reset()
					h.call(t, "read_users", map[string]any{"action": "self"})
				}
				r := h.call(t, tool, ex.Args)
				if r.Error != nil {
					switch r.Error.Code {
					case codeInternalError, codeUpstreamSchemaMismatch, codeUnsupportedCapability:
						t.Errorf("%s %s: %s %s", tool, ex.Args, r.Error.Code, r.Error.Message)
					}
				}
				if testing.Verbose() {
					t.Logf("%s %s -> ok=%v %s", tool, ex.Args, r.OK, strings.TrimSpace(string(r.raw)))
				}
			})
		}
	}
}

package server

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

func TestWriteIssueCreate_sendsOnlyTheMappedFields(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	r, calls := e.do(t, "write_issue_create", map[string]any{
		"title": "Dune", "subject": "Audio", "description": "Out of sync.", "category_id": 1, "request_type": "movie", "request_id": 1,
	})
	wantRoutes(t, calls, "POST /api/v1/Issues")
	var body map[string]any
	if err := json.Unmarshal(calls[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"title": "Dune", "subject": "Audio", "description": "Out of sync.", "issueCategoryId": 1.0, "requestType": 1.0, "requestId": 1.0}
	if !reflect.DeepEqual(body, want) {
		t.Errorf("body = %v, want %v", body, want)
	}
	m := decodeData[mutation](t, r)
	if m.Outcome != mutationCompleted || m.IssueID < 1 {
		t.Errorf("mutation = %+v, want completed with the new issue id", m)
	}
}

// TestWriteIssueCreate_associationReadWithoutIDs checks that a media read
// answered by an object without any id (a business failure, say) is a
// schema mismatch, never a refusal of provider_id: it proves no mismatch,
// and nothing is posted.
func TestWriteIssueCreate_associationReadWithoutIDs(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	if err := e.m.InjectFault(mockombi.Fault{Method: "GET", Path: "/api/v2/Search/movie/request/1", Kind: mockombi.FaultBusinessError}); err != nil {
		t.Fatal(err)
	}
	r, calls := e.do(t, "write_issue_create", map[string]any{
		"title": "Dune", "subject": "Audio", "description": "Out of sync.", "category_id": 1, "request_type": "movie", "request_id": 1, "provider_id": "438631",
	})
	wantRoutes(t, calls, "GET /api/v2/Search/movie/request/1")
	wantError(t, r, codeUpstreamSchemaMismatch)
}

func TestWriteIssueManage_setStatusNeedsModerationRole(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleUser)
	r, calls := e.do(t, "write_issue_manage", map[string]any{"action": "set_status", "issue_id": 1, "status": "resolved"})
	wantError(t, r, codeForbidden)
	wantRoutes(t, calls, "GET /api/v1/Identity")

	p := newAdminEnv(t, mockombi.RolePowerUser)
	r, calls = p.do(t, "write_issue_manage", map[string]any{"action": "set_status", "issue_id": 1, "status": "resolved"})
	wantRoutes(t, calls, "GET /api/v1/Identity", "POST /api/v1/Issues/status")
	if !r.OK || !strings.Contains(string(calls[1].Body), `"status":2`) {
		t.Errorf("a power user's status change: %s body %s", r.raw, calls[1].Body)
	}
}

// TestReadIssues_providerSummaryEmptyAnswers checks that every "no issues"
// answer of the provider details route (an empty 200, null, []) is an
// empty page, never an upstream schema error.
func TestReadIssues_providerSummaryEmptyAnswers(t *testing.T) {
	for _, f := range []mockombi.Fault{
		{Kind: mockombi.FaultEmpty},
		{Status: 200, Body: `null`},
		{Status: 200, Body: `[]`},
	} {
		e := newAdminEnv(t, mockombi.RoleAdmin)
		f.Method, f.Path = "GET", "/api/v2/Issues/details/*"
		if err := e.m.InjectFault(f); err != nil {
			t.Fatal(err)
		}
		r, _ := e.do(t, "read_issues", map[string]any{"action": "provider_summary", "provider_id": "603"})
		if !r.OK || !strings.Contains(string(r.raw), `"items":[]`) {
			t.Errorf("provider details answered %s %q: want an empty page, got %s", f.Kind, f.Body, r.raw)
		}
	}
}

func TestProviderGroups_emptyForms(t *testing.T) {
	for _, raw := range []string{``, `null`, `[]`, ` [] `} {
		got, err := providerGroups(&call{}, json.RawMessage(raw))
		if err != nil || len(got) != 0 {
			t.Errorf("providerGroups(%q) = %v, %v; want an empty page", raw, got, err)
		}
	}
	c := &call{}
	big := `{"providerId":"1","title":"T","count":150,"issues":[` + strings.TrimSuffix(strings.Repeat(`{"id":1},`, 150), ",") + `]}`
	got, err := providerGroups(c, json.RawMessage(big))
	if err != nil || len(got) != 1 || len(got[0].Issues) != maxNested || !c.truncated {
		t.Errorf("a large group: %d issues, truncated %v, %v", len(got[0].Issues), c.truncated, err)
	}
}

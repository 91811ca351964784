package server

import (
	"encoding/json"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

func TestReadVotes_upstream500StaysAnError(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	if err := e.m.SetQuirk("vote_read_500", true); err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"action":"list"}`, `{"action":"by_request","media":"movie","request_id":4}`} {
		r, _ := e.do(t, "read_votes", json.RawMessage(args))
		wantError(t, r, codeUpstreamRejected)
		if len(r.Data) != 0 {
			t.Errorf("%s: a failed vote read carries data: %s", args, r.Data)
		}
	}
}

package server

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// A server over a private mock Ombi, for the tool tests: the mock's
// journal says what went upstream.

// adminEnv is one mock plus a server session as a given mock role, with
// every bundle enabled.
type adminEnv struct {
	m *mockombi.Server
	h *harness
}

func newAdminEnv(t *testing.T, role string) *adminEnv {
	t.Helper()
	m := startMock(t, mockombi.Options{})
	return &adminEnv{m: m, h: newHarness(t, m, roleOptions(t, m, role))}
}

// roleOptions logs in as the mock's user of a role, all bundles enabled.
func roleOptions(t *testing.T, m *mockombi.Server, role string) Options {
	t.Helper()
	o := allBundles(jwtOptions(t, m))
	for _, u := range m.Credentials().Users {
		if u.Role == role {
			o.Username, o.Password = u.Username, u.Password
			return o
		}
	}
	t.Fatalf("mockombi has no %s user", role)
	return o
}

// do calls a tool with a clean journal and returns the result and the
// upstream calls it made (logins excluded).
func (e *adminEnv) do(t *testing.T, tool string, args any) (result, []mockombi.Call) {
	t.Helper()
	e.m.ClearJournal()
	r := e.h.call(t, tool, args)
	return r, e.h.upstreamCalls()
}

func routes(calls []mockombi.Call) []string {
	var out []string
	for _, c := range calls {
		p := c.Path
		if c.Query != "" {
			p += "?" + c.Query
		}
		out = append(out, c.Method+" "+p)
	}
	return out
}

func wantRoutes(t *testing.T, calls []mockombi.Call, want ...string) {
	t.Helper()
	if got := routes(calls); !reflect.DeepEqual(got, want) {
		t.Fatalf("upstream calls = %q, want %q", got, want)
	}
}

func wantError(t *testing.T, r result, code string) {
	t.Helper()
	if r.OK || r.Error == nil || r.Error.Code != code {
		t.Fatalf("want %s, got ok=%v %s", code, r.OK, r.raw)
	}
}

func decodeData[T any](t *testing.T, r result) T {
	t.Helper()
	if !r.OK {
		t.Fatalf("want ok, got %s", r.raw)
	}
	var v T
	if err := json.Unmarshal(r.Data, &v); err != nil {
		t.Fatalf("decode data: %v\n%s", err, r.Data)
	}
	return v
}

// codeLabel maps an upstream code (a JSON number) to its label.
func codeLabel(t *testing.T, enum string, v any) (string, bool) {
	t.Helper()
	f, ok := v.(float64)
	if !ok {
		t.Fatalf("code %v is not a number", v)
	}
	c := &call{}
	return enumLabel(c, enum, "test", int(f))
}

func asArg(err error, target **ombi.ArgumentError) bool {
	ae, ok := err.(*ombi.ArgumentError)
	*target = ae
	return ok
}

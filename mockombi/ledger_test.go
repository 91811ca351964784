package mockombi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ledgerRoute is one entry of the routing ledger in spec/routes.json. The
// file is read as data: the mock does not import package spec (DECISIONS D6).
type ledgerRoute struct {
	Tool   string `json:"tool"`
	Branch string `json:"branch"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Auth   string `json:"auth"`
}

// TestLedger_everyRouteIsServed cross-checks every ledger route against the
// mock's own table: the method and path must reach a route, and the literal
// segments must be spelled exactly as the mock (from the Ombi source) spells
// them. A failure is a bug on one side, to be settled from the Ombi source.
func TestLedger_everyRouteIsServed(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "spec", "routes.json"))
	if err != nil {
		t.Fatalf("read ledger: %v", err)
	}
	var ledger struct {
		Routes []ledgerRoute `json:"routes"`
	}
	if err := json.Unmarshal(raw, &ledger); err != nil {
		t.Fatalf("decode ledger: %v", err)
	}
	if len(ledger.Routes) == 0 {
		t.Fatal("ledger is empty")
	}
	s := newTestServer(t, Options{})
	levels := map[string]authLevel{"anon": anon, "user": user, "power_user": powerUser, "admin": admin}
	for _, lr := range ledger.Routes {
		name := lr.Tool + "/" + lr.Branch + ": " + lr.Method + " " + lr.Path
		concrete := strings.NewReplacer("{", "x", "}", "").Replace(lr.Path)
		cr, _, _ := s.router.match(lr.Method, concrete)
		if cr == nil {
			t.Errorf("%s: no mock route", name)
			continue
		}
		_, pattern, _ := strings.Cut(cr.pattern, " ")
		want, got := splitPath(lr.Path), splitPath(pattern)
		for i := range want {
			ledgerParam, mockParam := strings.HasPrefix(want[i], "{"), strings.HasPrefix(got[i], "{")
			switch {
			case ledgerParam && !mockParam:
				t.Errorf("%s: segment %d is a parameter in the ledger, the literal %q in the mock", name, i, got[i])
			case !ledgerParam && !mockParam && want[i] != got[i]:
				t.Errorf("%s: literal %q spelled %q by the mock", name, want[i], got[i])
			}
			// a ledger literal where the mock has a parameter is one value of it
		}
		// the ledger may ask more than Ombi does (the tool's own gate), never less
		lvl, ok := levels[lr.Auth]
		if !ok {
			t.Errorf("%s: unknown ledger auth %q", name, lr.Auth)
		} else if lvl < cr.auth {
			t.Errorf("%s: ledger auth %q is weaker than the mock's level %d", name, lr.Auth, cr.auth)
		}
	}
}

package mutant

import (
	"slices"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

// blindFilters are the coarse areas a blind mutant may name as the one
// expected to catch it ("" = every area).
var blindFilters = []string{"", "protocol", "schema", "wire", "errors", "auth", "leak", "budget", "fuzz"}

// TestBlindSources_table checks the blind set: at least 40 mutants with
// unique names that no other mutant uses, every domain covered, a known
// domain, a clause that is "" or known, a description, a coarse area as
// filter, no focus (the set is not aimed at checks), a server source file
// and a replacement that changes something; and that the set stays out of
// Sources, but for the mutants kept once killed (blindKept), while
// LookupSource finds it.
func TestBlindSources_table(t *testing.T) {
	inSources := map[string]bool{}
	for _, m := range Sources() {
		inSources[m.Name] = true
	}
	seen := map[string]bool{}
	perDomain := map[string]int{}
	for _, m := range BlindSources() {
		if seen[m.Name] {
			t.Errorf("blind mutant %s is listed twice", m.Name)
		}
		seen[m.Name] = true
		if inSources[m.Name] != keptBlind(m.Name) {
			t.Errorf("blind mutant %s: in Sources %t, kept %t (only a kept blind mutant is in Sources, and every kept one is)", m.Name, inSources[m.Name], keptBlind(m.Name))
		}
		if _, proxy := Lookup(m.Name); proxy {
			t.Errorf("blind mutant %s has the name of a proxy mutant", m.Name)
		}
		if got, ok := LookupSource(m.Name); !ok || got.Name != m.Name || got.Old != m.Old {
			t.Errorf("LookupSource(%q) does not find the blind mutant", m.Name)
		}
		if !slices.Contains(Domains, m.Domain) {
			t.Errorf("blind mutant %s: unknown domain %q", m.Name, m.Domain)
		}
		perDomain[m.Domain]++
		if m.Clause != "" {
			if _, ok := spec.LookupClause(m.Clause); !ok {
				t.Errorf("blind mutant %s: unknown clause %q", m.Name, m.Clause)
			}
		}
		if m.Description == "" {
			t.Errorf("blind mutant %s: needs a description", m.Name)
		}
		if !slices.Contains(blindFilters, m.Filter) {
			t.Errorf("blind mutant %s: filter %q is not one coarse area", m.Name, m.Filter)
		}
		if m.Focus != "" {
			t.Errorf("blind mutant %s: has focus %q; the blind set is judged by area only", m.Name, m.Focus)
		}
		for _, e := range m.Edits() {
			if !strings.HasPrefix(e.File, "server/") || strings.HasSuffix(e.File, "_test.go") {
				t.Errorf("blind mutant %s: %s is not a server source file", m.Name, e.File)
			}
			if e.Old == e.New {
				t.Errorf("blind mutant %s: a replacement that changes nothing", m.Name)
			}
		}
	}
	for _, d := range Domains {
		if perDomain[d] == 0 {
			t.Errorf("no blind mutant in domain %s", d)
		}
	}
	if len(seen) < 40 {
		t.Errorf("%d blind mutants, want at least 40", len(seen))
	}
}

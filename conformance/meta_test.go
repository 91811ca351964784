package conformance_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/conformance"
	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// TestChecks_nameRealClauses is the meta-check: every check is declared
// through ClauseIt, names a real clause, belongs to one area and has a
// unique id.
func TestChecks_nameRealClauses(t *testing.T) {
	all, err := conformance.Checks(conformance.Options{})
	if err != nil {
		t.Fatalf("build the check tree: %v", err)
	}
	if len(all) == 0 {
		t.Fatal("the suite declares no check")
	}
	seen := map[string]bool{}
	covered := map[string]bool{}
	for _, c := range all {
		switch {
		case c.ID == "":
			t.Errorf("check %q was not declared through ClauseIt (no id)", c.Text)
			continue
		case c.Clause == "":
			t.Errorf("check %s guards no clause", c.ID)
		case c.ID != c.Clause && !strings.HasPrefix(c.ID, c.Clause+"."):
			t.Errorf("check %s does not start with its clause id %s", c.ID, c.Clause)
		case !slices.Contains(framework.Areas, c.Area):
			t.Errorf("check %s belongs to no area (labels %v)", c.ID, c.Labels)
		}
		if _, ok := spec.LookupClause(c.Clause); !ok {
			t.Errorf("check %s names clause %q, which spec/clauses.json does not define", c.ID, c.Clause)
		}
		if seen[c.ID] {
			t.Errorf("check id %s is declared twice", c.ID)
		}
		seen[c.ID] = true
		covered[c.Clause] = true
	}
	t.Logf("%d checks guard %d of %d clauses", len(all), len(covered), len(spec.Clauses()))
}

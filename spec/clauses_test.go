package spec

import (
	"strings"
	"testing"
)

func TestClauses_wellFormed(t *testing.T) {
	cs := Clauses()
	if len(cs) == 0 {
		t.Fatal("Clauses() is empty")
	}
	for _, c := range cs {
		if got, ok := LookupClause(c.ID); !ok || got != c {
			t.Errorf("LookupClause(%q) = %+v, %v; want %+v", c.ID, got, ok, c)
		}
	}
	if _, ok := LookupClause("NO-SUCH-CLAUSE-001"); ok {
		t.Error("LookupClause found a clause that does not exist")
	}
}

func TestClauses_coverage(t *testing.T) {
	tests := []struct {
		name   string
		prefix string
		want   int
	}{
		{"06-verification schema and routing", "Acceptance criteria: Schema and routing", 11},
		{"06-verification error and output", "Acceptance criteria: Error and output behaviour", 6},
		{"06-verification authorization and effects", "Acceptance criteria: Authorization and effects", 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := 0
			for _, c := range Clauses() {
				if c.Document == "06-verification" && c.Rule == tt.prefix {
					n++
				}
			}
			if n != tt.want {
				t.Errorf("%d clauses under %q, want one per acceptance criterion (%d)", n, tt.prefix, tt.want)
			}
		})
	}
	t.Run("routing rules 1-9", func(t *testing.T) {
		for r := 1; r <= 9; r++ {
			rule := "rule " + string(rune('0'+r))
			found := false
			for _, c := range Clauses() {
				if c.Document == "02-tool-mapping" && strings.HasSuffix(c.Rule, rule) {
					found = true
				}
			}
			if !found {
				t.Errorf("no clause cites 02-tool-mapping %s", rule)
			}
		}
	})
	t.Run("decisions D1-D7", func(t *testing.T) {
		for d := 1; d <= 7; d++ {
			rule := "D" + string(rune('0'+d))
			found := false
			for _, c := range Clauses() {
				if c.Document == "DECISIONS" && c.Rule == rule {
					found = true
				}
			}
			if !found {
				t.Errorf("no clause cites DECISIONS %s", rule)
			}
		}
	})
}

package checks

import (
	"strings"
	"testing"
)

func TestParseBaseline(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		wantErr bool
	}{
		{"ids and comments", "# header\nA-001\n\n  B-002.read_search  # why\n", []string{"A-001", "B-002.read_search"}, false},
		{"two ids on a line", "A-001 B-002\n", nil, true},
		{"empty", "", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ParseBaseline(strings.NewReader(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseBaseline error = %v, wantErr %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if len(b) != len(tt.want) {
				t.Errorf("ParseBaseline = %v, want %v", b, tt.want)
			}
			for _, id := range tt.want {
				if !b.Has(id) {
					t.Errorf("baseline lacks %s", id)
				}
			}
		})
	}
}

func TestFieldMatches(t *testing.T) {
	tests := []struct {
		field, pointer string
		want           bool
	}{
		{"/target/id", "/target/id", true},
		{"target/id", "/target/id", true},
		{"target.id", "/target/id", true},
		{"id", "/target/id", true},
		{"query", "/target/id", false},
		{"", "/query", false},
		{"anything", "", true},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := fieldMatches(tt.field, tt.pointer); got != tt.want {
			t.Errorf("fieldMatches(%q, %q) = %v, want %v", tt.field, tt.pointer, got, tt.want)
		}
	}
}

func TestCanaryForms(t *testing.T) {
	forms := canaryForms(`sk-"secret"/x y`)
	for _, want := range []string{`sk-"secret"/x y`, `sk-\"secret\"/x y`, "sk-%22secret%22%2Fx+y", "c2stInNlY3JldCIveCB5"} {
		found := false
		for _, f := range forms {
			found = found || f == want
		}
		if !found {
			t.Errorf("canaryForms lacks %q: %q", want, forms)
		}
	}
}

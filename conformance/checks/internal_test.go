package checks

import "testing"

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

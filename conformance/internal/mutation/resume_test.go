package main

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/conformance/mutant"
)

// TestResumed: a measure stopped early resumes with the verdicts its
// record holds and judges only the rest of the sample; a record of
// another draw is refused, and a record not written yet holds nothing.
func TestResumed(t *testing.T) {
	dir := t.TempDir()
	ms := []mutant.Source{{Name: "op-a"}, {Name: "op-b"}, {Name: "op-c"}}
	o := options{sample: 3, seed: 7}
	same := filepath.Join(dir, "same.json")
	if err := writeRecord(same, record{Sites: 10, Sample: 3, Seed: 7, SuiteSeed: suiteSeed, Verdicts: []verdict{{Name: "op-b", State: killed}}}); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.json")
	if err := writeRecord(other, record{Sites: 10, Sample: 3, Seed: 8, SuiteSeed: suiteSeed}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		record  string
		kept    int
		rest    []string
		wantErr bool
	}{
		{"the same draw", same, 1, []string{"op-a", "op-c"}, false},
		{"no record yet", filepath.Join(dir, "none.json"), 0, []string{"op-a", "op-b", "op-c"}, false},
		{"another seed", other, 0, nil, true},
		{"no -record", "", 0, nil, true},
	}
	for _, tt := range tests {
		o.record = tt.record
		kept, rest, err := resumed(o, 10, ms)
		if (err != nil) != tt.wantErr {
			t.Errorf("%s: err = %v, want error %v", tt.name, err, tt.wantErr)
			continue
		}
		var names []string
		for _, m := range rest {
			names = append(names, m.Name)
		}
		if len(kept) != tt.kept || !slices.Equal(names, tt.rest) {
			t.Errorf("%s: kept %d verdicts and left %q, want %d and %q", tt.name, len(kept), names, tt.kept, tt.rest)
		}
	}
}

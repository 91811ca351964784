package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrintRecords: a record prints its score per package, not-covered
// mutants counted as survivors and not-viable ones left out; a second
// record's verdicts replace the first's for the same mutants only.
func TestPrintRecords(t *testing.T) {
	dir := t.TempDir()
	before := record{Sites: 9, Sample: 5, Seed: 3, SuiteSeed: 1, Verdicts: []verdict{
		{Name: "a", Package: "server", State: killed, By: []string{"X"}},
		{Name: "b", Package: "server", State: survived},
		{Name: "c", Package: "server", State: notCovered},
		{Name: "d", Package: "server/internal/ombi", State: notViable},
		{Name: "e", Package: "server/internal/ombi", State: survived},
	}}
	after := record{Sites: 9, Sample: 5, Seed: 3, SuiteSeed: 1, Verdicts: []verdict{
		{Name: "b", Package: "server", State: killed, By: []string{"Y"}},
	}}
	other := after
	other.Seed = 4
	stray := after
	stray.Verdicts = []verdict{{Name: "z", Package: "server", State: killed}}
	for name, r := range map[string]record{"before": before, "after": after, "other": other, "stray": stray} {
		if err := writeRecord(filepath.Join(dir, name+".json"), r); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name, after string
		want        []string
		fails       bool
	}{
		{"one record", "", []string{
			"  server                 1/3 killed (33%), 1 survivors not covered, 0 not viable",
			"  server/internal/ombi   0/1 killed (0%), 0 survivors not covered, 1 not viable",
			"  all                    1/4 killed (25%), 1 survivors not covered, 1 not viable",
			"survivors no check reaches (not covered):\n  c: \n",
		}, false},
		{"before and after", "after", []string{
			"before:\n",
			"after (1 survivors judged again",
			"  server                 2/3 killed (67%), 1 survivors not covered, 0 not viable",
			"  all                    2/4 killed (50%), 1 survivors not covered, 1 not viable",
			"survivors judged by the checks that reach them:\n  e: \n",
		}, false},
		{"another draw", "other", nil, true},
		{"a mutant the first record does not hold", "stray", nil, true},
	} {
		var out bytes.Buffer
		after := ""
		if c.after != "" {
			after = filepath.Join(dir, c.after+".json")
		}
		err := printRecords(&out, filepath.Join(dir, "before.json"), after)
		if (err != nil) != c.fails {
			t.Fatalf("%s: error %v, want an error %v", c.name, err, c.fails)
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: the output lacks %q:\n%s", c.name, w, out.String())
			}
		}
	}
}

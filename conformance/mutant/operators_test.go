package mutant

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOperatorSites: the reference server has sites of every class in both
// of its packages, each at the offset it names, and a sample is the same
// for a seed and plants exactly its swap.
func TestOperatorSites(t *testing.T) {
	root, err := ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	sites, err := OperatorSites(root)
	if err != nil {
		t.Fatal(err)
	}
	classes, pkgs := map[string]int{}, map[string]int{}
	for _, s := range sites {
		classes[s.Operator]++
		pkgs[s.Package]++
		b, err := os.ReadFile(filepath.Join(root, s.File))
		if err != nil {
			t.Fatal(err)
		}
		if string(b[s.At:s.At+len(s.Old)]) != s.Old || strings.HasSuffix(s.File, "_test.go") {
			t.Fatalf("%s:%d: no %q at byte %d", s.File, s.Line, s.Old, s.At)
		}
	}
	for class := range Operators {
		if classes[class] == 0 {
			t.Errorf("no %s site", class)
		}
	}
	if classes["not"] == 0 || pkgs["server"] == 0 || pkgs["server/internal/ombi"] == 0 {
		t.Errorf("sites per class %v, per package %v", classes, pkgs)
	}

	a, b, c := SampleOperators(sites, 10, 7), SampleOperators(sites, 10, 7), SampleOperators(sites, 10, 8)
	if len(a) != 10 || !slices.EqualFunc(a, b, func(x, y Source) bool { return x.Name == y.Name }) {
		t.Fatalf("the same seed drew %d and then other sites", len(a))
	}
	if slices.EqualFunc(a, c, func(x, y Source) bool { return x.Name == y.Name }) {
		t.Fatal("two seeds drew the same sites")
	}
	dir := t.TempDir()
	m := a[0]
	src, err := os.ReadFile(filepath.Join(root, m.File))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(m.File)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, m.File), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := m.Apply(dir); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, m.File))
	want := string(src[:m.At]) + m.New + string(src[m.At+len(m.Old):])
	if string(got) != want {
		t.Fatalf("%s planted something else than %q at byte %d", m.Name, m.New, m.At)
	}
	m.At++ // no longer at the operator
	if err := m.Apply(dir); err == nil {
		t.Fatalf("%s applied at a byte that does not hold %q", m.Name, m.Old)
	}
}

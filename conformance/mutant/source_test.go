package mutant

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

// TestSources_table checks the source mutant table: unique names, a known
// domain and clause, a description, a judging filter, and every domain
// covered.
func TestSources_table(t *testing.T) {
	seen := map[string]bool{}
	perDomain := map[string]int{}
	for _, m := range Sources() {
		if seen[m.Name] {
			t.Errorf("mutant %s is listed twice", m.Name)
		}
		seen[m.Name] = true
		if _, proxy := Lookup(m.Name); proxy {
			t.Errorf("source mutant %s has the name of a proxy mutant", m.Name)
		}
		if !slices.Contains(Domains, m.Domain) {
			t.Errorf("mutant %s: unknown domain %q", m.Name, m.Domain)
		}
		perDomain[m.Domain]++
		if _, ok := spec.LookupClause(m.Clause); !ok {
			t.Errorf("mutant %s: unknown clause %q", m.Name, m.Clause)
		}
		if m.Description == "" || m.Filter == "" {
			t.Errorf("mutant %s: needs a description and a filter", m.Name)
		}
		if m.Focus != "" {
			if _, err := regexp.Compile(m.Focus); err != nil {
				t.Errorf("mutant %s: focus %q: %v", m.Name, m.Focus, err)
			}
		}
		for _, e := range m.Edits() {
			if !strings.HasPrefix(e.File, "server/") || strings.HasSuffix(e.File, "_test.go") {
				t.Errorf("mutant %s: %s is not a server source file", m.Name, e.File)
			}
			if e.Old == e.New {
				t.Errorf("mutant %s: a replacement that changes nothing", m.Name)
			}
		}
	}
	for _, d := range Domains {
		if perDomain[d] == 0 {
			t.Errorf("no source mutant in domain %s", d)
		}
	}
	if len(seen) < 40 {
		t.Errorf("%d source mutants, want at least 40", len(seen))
	}
}

// TestSources_apply plants every source mutant, the blind set's too, in a
// copy of server/ as it is now: each old text must occur exactly once, so a
// server change that moves the code fails here, loudly, instead of judging
// an unmutated build.
func TestSources_apply(t *testing.T) {
	root, err := ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range append(Sources(), BlindSources()...) {
		t.Run(m.Name, func(t *testing.T) {
			dir := t.TempDir()
			for _, e := range m.Edits() {
				src := filepath.Join(root, e.File)
				dst := filepath.Join(dir, e.File)
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := copyFile(src, dst); err != nil {
					t.Fatal(err)
				}
			}
			if err := m.Apply(dir); err != nil {
				t.Fatal(err)
			}
			for _, e := range m.Edits() {
				b, err := os.ReadFile(filepath.Join(dir, e.File))
				if err != nil {
					t.Fatal(err)
				}
				if e.New != "" && !strings.Contains(string(b), e.New) {
					t.Errorf("%s does not carry the new text after applying", e.File)
				}
			}
		})
	}
}

// TestSource_applyRefusesAmbiguous checks that an old text occurring
// twice, or not at all, fails without writing.
func TestSource_applyRefusesAmbiguous(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "server", "x.go")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	const text = "a := 1\na := 1\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]Source{
		"twice":   {Name: "twice", File: "server/x.go", Old: "a := 1", New: "a := 2"},
		"missing": {Name: "missing", File: "server/x.go", Old: "b := 1", New: "b := 2"},
		"outside": {Name: "outside", File: "mockombi/x.go", Old: "a", New: "b"},
	} {
		if err := m.Apply(dir); err == nil {
			t.Errorf("%s: Apply succeeded", name)
		}
	}
	b, _ := os.ReadFile(p)
	if string(b) != text {
		t.Errorf("a refused mutant changed the file: %q", b)
	}
}

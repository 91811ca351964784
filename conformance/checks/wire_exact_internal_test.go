package checks

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

// TestWireExact_cases checks the exact-wire data: every case decodes,
// names a real tool and clause, has a unique name, and expects only calls
// the ledger lists (method and literal path template).
func TestWireExact_cases(t *testing.T) {
	f, err := exactCases()
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) == 0 {
		t.Fatal("no exact-wire case")
	}
	seen := map[string]bool{}
	for _, c := range f.Cases {
		if seen[c.Name] {
			t.Errorf("case %s is listed twice", c.Name)
		}
		seen[c.Name] = true
		if _, ok := spec.LookupClause(c.Clause); !ok {
			t.Errorf("case %s: unknown clause %q", c.Name, c.Clause)
		}
		if c.Rule == "" {
			t.Errorf("case %s: say which rule it pins", c.Name)
		}
		if !strings.HasPrefix(c.Name, c.Tool+".") {
			t.Errorf("case %s: the name must start with its tool %s", c.Name, c.Tool)
		}
		for i, st := range c.steps() {
			if _, ok := spec.Lookup(st.Tool); !ok {
				t.Errorf("case %s step %d: unknown tool %q", c.Name, i+1, st.Tool)
			}
			for _, call := range st.Calls {
				if len(ledgerMatches(call.Method, call.Path)) == 0 {
					t.Errorf("case %s: %s %s is no ledger operation", c.Name, call.Method, call.Path)
				}
			}
		}
	}
}

// ledgerMatches returns the ledger operations (METHOD template) a literal
// method and path match; ${...} references match one segment.
func ledgerMatches(method, path string) []string {
	path = exactRef.ReplaceAllString(path, "x")
	var out []string
	for _, r := range ledgerPatterns() {
		if r.method == method && r.re.MatchString(path) {
			out = append(out, r.op)
		}
	}
	return out
}

type ledgerPattern struct {
	method, op string
	re         *regexp.Regexp
}

// ledgerPatterns are the ledger's operations as literal path patterns, a
// {param} matching one segment.
var ledgerPatterns = sync.OnceValue(func() []ledgerPattern {
	var out []ledgerPattern
	for _, r := range spec.Routes() {
		re := regexp.MustCompile("^" + templateParam.ReplaceAllString(regexp.QuoteMeta(r.Path), "[^/]+") + "$")
		out = append(out, ledgerPattern{method: r.Method, op: r.Method + " " + r.Path, re: re})
	}
	return out
})

var upstreamLine = regexp.MustCompile(`^\s*// upstream: ([A-Z]+) (/\S+)`)

// serverOperations reads the upstream operations the reference server can
// emit: the "// upstream: METHOD /path" line of every client method.
func serverOperations(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "server", "internal", "ombi", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("list the server sources: %v", err)
	}
	ops := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			if m := upstreamLine.FindStringSubmatch(sc.Text()); m != nil {
				ops[m[1]+" "+m[2]] = true
			}
		}
		fh.Close()
	}
	return ops
}

// TestWireExact_coverage prints how many of the upstream operations the
// reference server can emit (the "// upstream:" lines of its client
// methods, the login aside) are pinned by an exact-wire case, and which
// are not: go test -run TestWireExact_coverage -v ./conformance/checks. It fails
// when the coverage falls below what it was when the data was last grown,
// so a removed case is noticed.
func TestWireExact_coverage(t *testing.T) {
	f, err := exactCases()
	if err != nil {
		t.Fatal(err)
	}
	emittable := serverOperations(t)
	// the login is authentication plumbing, not a branch's call: the
	// checks leave it out of every journal and the auth area judges it
	delete(emittable, "POST /api/v1/Token")
	pinned := map[string]bool{}
	for _, c := range f.Cases {
		for _, st := range c.steps() {
			for _, call := range st.Calls {
				for _, op := range ledgerMatches(call.Method, call.Path) {
					pinned[op] = true
				}
			}
		}
	}
	var missing []string
	n := 0
	for op := range emittable {
		if pinned[op] {
			n++
		} else {
			missing = append(missing, op)
		}
	}
	sort.Strings(missing)
	t.Logf("exact-wire coverage: %d of %d upstream operations the reference server can emit are pinned by a case of testdata/wire-exact.json (%.0f%%); %d cases", n, len(emittable), 100*float64(n)/float64(max(len(emittable), 1)), len(f.Cases))
	t.Logf("not pinned yet:\n  %s", strings.Join(missing, "\n  "))
	const floor = 299 // pinned operations when the data was last grown
	if n < floor {
		t.Errorf("exact-wire coverage fell to %d pinned operations (was %d)", n, floor)
	}
}

package server

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

var upstreamLine = regexp.MustCompile(`(?m)^// upstream: ([A-Z]+) (\S+)$`)

// upstreamComments collects every "// upstream: METHOD /path" line of the
// upstream client's non-test sources (internal/ombi).
func upstreamComments(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("internal", "ombi", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range upstreamLine.FindAllStringSubmatch(string(b), -1) {
			found[m[1]+" "+m[2]] = f
		}
	}
	return found
}

// TestClient_upstreamCommentsMatchLedger checks every client method's
// upstream line against spec/routes.json (method, literal path, case).
func TestClient_upstreamCommentsMatchLedger(t *testing.T) {
	ledger := map[string]bool{"POST /api/v1/Token": true} // login is auth plumbing, not a tool route
	for _, r := range spec.Routes() {
		ledger[r.Method+" "+r.Path] = true
	}
	comments := upstreamComments(t)
	if len(comments) == 0 {
		t.Fatal("no upstream comments found")
	}
	for op, file := range comments {
		if !ledger[op] {
			t.Errorf("%s: %q is not in spec/routes.json", file, op)
		}
	}
}

// TestClient_implementedToolsCoverLedger checks that every ledger route of
// an implemented (non-stub) tool has a client method. Gated aliases are off
// unless enabled, so they need none.
func TestClient_implementedToolsCoverLedger(t *testing.T) {
	implemented := map[string]bool{}
	for _, tl := range tools(&deps{}) {
		implemented[tl.name] = !tl.stub
	}
	comments := upstreamComments(t)
	for _, r := range spec.Routes() {
		if implemented[r.Tool] && r.Purpose != spec.PurposeGatedAlias && comments[r.Method+" "+r.Path] == "" {
			t.Errorf("%s %s: no client method for %s %s", r.Tool, r.Branch, r.Method, r.Path)
		}
	}
}

package ombi

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
// package's non-test sources.
func upstreamComments(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
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

// TestClient_toolsCoverLedger checks that every ledger route of every
// catalogue tool has a client method. Gated aliases are off unless enabled,
// so they need none.
func TestClient_toolsCoverLedger(t *testing.T) {
	comments := upstreamComments(t)
	for _, r := range spec.Routes() {
		if r.Purpose != spec.PurposeGatedAlias && comments[r.Method+" "+r.Path] == "" {
			t.Errorf("%s %s: no client method for %s %s", r.Tool, r.Branch, r.Method, r.Path)
		}
	}
}

package conformance_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/conformance"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// listedChecks returns the checks ombi-conformance --list declares. The
// listing runs in a child process: building the check tree is allowed once
// per process, and TestChecks_nameRealClauses builds it here.
func listedChecks(t *testing.T) []conformance.Check {
	t.Helper()
	r := runCLI(t, nil, "--list")
	if r.code != 0 {
		t.Fatalf("--list: exit code %d\n%s", r.code, clipText(r.stderr))
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) < 3 {
		t.Fatalf("--list printed no checks:\n%s", clipText(r.stdout))
	}
	var n int
	if _, err := fmt.Sscanf(lines[len(lines)-1], "%d checks", &n); err != nil || n != len(lines)-2 {
		t.Fatalf("--list summary %q does not count the %d listed checks", lines[len(lines)-1], len(lines)-2)
	}
	var out []conformance.Check
	for _, l := range lines[1 : len(lines)-1] {
		f := strings.Fields(l)
		out = append(out, conformance.Check{ID: f[0]})
	}
	return out
}

// TestSentences_traceable is the meta-check of the design sentences: every
// sentence of spec/sentences.json has a well-formed unique id, names real
// clauses, and has either guards that each match a declared check or a
// reason of a known category. It logs the count per category.
func TestSentences_traceable(t *testing.T) {
	ss, err := spec.LoadSentences()
	if len(ss) == 0 {
		t.Fatalf("no sentences loaded: %v", err)
	}
	checks := listedChecks(t)
	for _, p := range conformance.SentenceProblems(ss, checks) {
		t.Error(p)
	}
	count := map[string]int{}
	guarded := map[string]bool{}
	for _, s := range ss {
		count[s.Category()]++
		for _, g := range s.Guards {
			for _, c := range checks {
				if spec.GuardMatches(g, c.ID) {
					guarded[c.ID] = true
				}
			}
		}
	}
	parts := []string{fmt.Sprintf("%d with checks", count["checks"])}
	for _, c := range spec.ReasonCategories {
		parts = append(parts, fmt.Sprintf("%d %s", count[c], c))
	}
	t.Logf("%d sentences: %s; their guards name %d of %d checks", len(ss), strings.Join(parts, ", "), len(guarded), len(checks))
}

// TestSentences_metaCheckCatches proves the meta-check fails for each kind
// of untraceable sentence.
func TestSentences_metaCheckCatches(t *testing.T) {
	checks := []conformance.Check{{ID: "RESULTS-ISERROR-001.read_search.results"}, {ID: "MCP-INIT-VERSION-001"}}
	good := spec.Sentence{ID: "S-RESULTS-0006", Document: "04-results", Section: "Registration and results", Text: "Set MCP isError to the inverse of ok.",
		Clauses: []string{"RESULTS-ISERROR-001"}, Guards: []string{"RESULTS-ISERROR-001."}}
	if p := conformance.SentenceProblems([]spec.Sentence{good}, checks); len(p) != 0 {
		t.Fatalf("a traceable sentence was refused: %v", p)
	}
	tests := []struct {
		name string
		ss   func() []spec.Sentence
		want string
	}{
		{"neither guards nor reason", func() []spec.Sentence { s := good; s.Guards = nil; return []spec.Sentence{s} }, "neither guards nor a reason"},
		{"guard matching no check", func() []spec.Sentence {
			s := good
			s.Guards = []string{"RESULTS-ISERROR-001.read_media.results"}
			return []spec.Sentence{s}
		}, "matches no declared check"},
		{"prefix matching no check", func() []spec.Sentence {
			s := good
			s.Guards = []string{"NO-SUCH-CLAUSE-001."}
			return []spec.Sentence{s}
		}, "matches no declared check"},
		{"unknown category", func() []spec.Sentence {
			s := good
			s.Guards, s.Reason = nil, &spec.SentenceReason{Category: "later", Why: "not yet"}
			return []spec.Sentence{s}
		}, "unknown reason category"},
		{"duplicate id", func() []spec.Sentence { return []spec.Sentence{good, good} }, "duplicate id"},
		{"malformed id", func() []spec.Sentence { s := good; s.ID = "S-RESULTS-06"; return []spec.Sentence{s} }, "malformed id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := conformance.SentenceProblems(tt.ss(), checks)
			if !strings.Contains(strings.Join(p, "\n"), tt.want) {
				t.Fatalf("problems %q, want one containing %q", p, tt.want)
			}
		})
	}
}

// TestSentences_docsQuoteTheSummary: docs/conformance.md quotes the
// sentence listings' summary line as the listing prints it, so the figures
// cannot drift from the sentences and the checks.
func TestSentences_docsQuoteTheSummary(t *testing.T) {
	doc, err := os.ReadFile("../docs/conformance.md")
	if err != nil {
		t.Fatal(err)
	}
	want := conformance.SentenceSummary(conformance.SentenceRows(listedChecks(t)))
	if text := strings.Join(strings.Fields(string(doc)), " "); !strings.Contains(text, "`"+want+"`") {
		t.Errorf("docs/conformance.md does not quote the sentence summary as the listing prints it: `%s`", want)
	}
}

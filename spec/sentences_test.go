package spec

import (
	"strings"
	"testing"
)

func TestSentences_wellFormed(t *testing.T) {
	ss, err := LoadSentences()
	if err != nil {
		t.Fatalf("the embedded sentences.json is malformed:\n%v", err)
	}
	if len(ss) < 200 {
		t.Fatalf("only %d sentences; the three documents hold several hundred", len(ss))
	}
	docs := map[string]int{}
	last := map[string]string{}
	for _, s := range ss {
		docs[s.Document]++
		if prev := last[s.Document]; prev != "" && s.ID <= prev {
			t.Errorf("%s follows %s: ids of a document are in document order", s.ID, prev)
		}
		last[s.Document] = s.ID
		if got, ok := LookupSentence(s.ID); !ok || got.ID != s.ID || got.Text != s.Text {
			t.Errorf("LookupSentence(%q) = %+v, %v", s.ID, got, ok)
		}
		if s.Reason == nil && len(s.Clauses) == 0 {
			t.Errorf("%s has guards but names no clause", s.ID)
		}
	}
	for _, d := range []string{"04-results", "02-tool-mapping", "06-verification"} {
		if docs[d] == 0 {
			t.Errorf("no sentence of %s", d)
		}
	}
	if _, ok := LookupSentence("S-RESULTS-9999"); ok {
		t.Error("LookupSentence found a sentence that does not exist")
	}
}

func TestSentences_checkFindsEveryProblem(t *testing.T) {
	good := Sentence{ID: "S-RESULTS-0001", Document: "04-results", Section: "Registration and results", Text: "Publish each tool.",
		Clauses: []string{"RESULTS-REGISTRATION-001"}, Guards: []string{"RESULTS-REGISTRATION-001."}}
	if err := CheckSentences([]Sentence{good}); err != nil {
		t.Fatalf("a well-formed sentence was refused: %v", err)
	}
	tests := []struct {
		name string
		edit func(s *Sentence)
		want string
	}{
		{"malformed id", func(s *Sentence) { s.ID = "S-RESULTS-1" }, "malformed id"},
		{"unknown document part", func(s *Sentence) { s.ID = "S-DESIGN-0001" }, "unknown document part"},
		{"id and document disagree", func(s *Sentence) { s.Document = "02-tool-mapping" }, "the id names 04-results"},
		{"no section", func(s *Sentence) { s.Section = " " }, "no section"},
		{"no text", func(s *Sentence) { s.Text = "" }, "no text"},
		{"unknown clause", func(s *Sentence) { s.Clauses = []string{"NO-SUCH-CLAUSE-001"} }, "not in clauses.json"},
		{"neither guards nor reason", func(s *Sentence) { s.Guards = nil }, "neither guards nor a reason"},
		{"both guards and reason", func(s *Sentence) { s.Reason = &SentenceReason{Category: ReasonGap, Why: "x"} }, "both guards and a reason"},
		{"malformed guard", func(s *Sentence) { s.Guards = []string{"RESULTS ISERROR"} }, "malformed guard"},
		{"repeated guard", func(s *Sentence) { s.Guards = []string{"MCP-INIT-VERSION-001", "MCP-INIT-VERSION-001"} }, "listed twice"},
		{"unknown category", func(s *Sentence) { s.Guards, s.Reason = nil, &SentenceReason{Category: "todo", Why: "later"} }, "unknown reason category"},
		{"reason without why", func(s *Sentence) { s.Guards, s.Reason = nil, &SentenceReason{Category: ReasonGap} }, "no why"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := good
			tt.edit(&s)
			err := CheckSentences([]Sentence{s})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("CheckSentences = %v, want an error containing %q", err, tt.want)
			}
		})
	}
	t.Run("duplicate id", func(t *testing.T) {
		err := CheckSentences([]Sentence{good, good})
		if err == nil || !strings.Contains(err.Error(), "duplicate id") {
			t.Fatalf("CheckSentences = %v, want a duplicate id error", err)
		}
	})
}

func TestSentences_decodeRefusesUnknownMembers(t *testing.T) {
	if _, err := DecodeSentences([]byte(`{"sentences":[{"id":"S-RESULTS-0001","checks":["x"]}]}`)); err == nil {
		t.Fatal("a sentence with an unknown member was decoded")
	}
}

func TestGuardMatches(t *testing.T) {
	tests := []struct {
		guard, id string
		want      bool
	}{
		{"MCP-INIT-VERSION-001", "MCP-INIT-VERSION-001", true},
		{"MCP-INIT-VERSION-001", "MCP-INIT-VERSION-001.x", false},
		{"RESULTS-ISERROR-001.", "RESULTS-ISERROR-001.read_search.results", true},
		{"RESULTS-ISERROR-001.", "RESULTS-ISERROR-001", false},
		{"RESULTS-ISERROR-001.read_search", "RESULTS-ISERROR-001.read_search.results", false},
		{"RESULTS-OUTPUTSCHEMA-001.*.advertised", "RESULTS-OUTPUTSCHEMA-001.read_search.advertised", true},
		{"RESULTS-OUTPUTSCHEMA-001.*.advertised", "RESULTS-OUTPUTSCHEMA-001.read_search.results", false},
		{"X-001.*write.deny.*", "X-001.write.deny.movie", true},
		{"X-001.*write.deny.*", "X-001.exact.write.deny.tv.exact", true},
		{"X-001.*write.deny.*", "X-001.write.approve.movie", false},
		{"A-001.*b*b", "A-001.b", false},
		{"A-001.*b*b", "A-001.bxb", true},
	}
	for _, tt := range tests {
		if got := GuardMatches(tt.guard, tt.id); got != tt.want {
			t.Errorf("GuardMatches(%q, %q) = %v, want %v", tt.guard, tt.id, got, tt.want)
		}
	}
}

package spec

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Sentence is one sentence (or normative table row) of the three design
// documents, traced to what guards it: a stable id in document order, the
// document and section it comes from, its text quoted or lightly trimmed,
// the contract clauses it falls under, and either Guards (check ids or id
// patterns of conformance checks that fail when the sentence is broken) or
// a Reason it has none.
type Sentence struct {
	ID       string          `json:"id"`
	Document string          `json:"document"`
	Section  string          `json:"section"`
	Text     string          `json:"text"`
	Clauses  []string        `json:"clauses,omitempty"`
	Guards   []string        `json:"guards,omitempty"`
	Reason   *SentenceReason `json:"reason,omitempty"`
	// Note qualifies the mapping, e.g. which part of the sentence its
	// guards exercise.
	Note string `json:"note,omitempty"`
}

// SentenceReason records why a sentence has no guarding check.
type SentenceReason struct {
	Category string `json:"category"`
	Why      string `json:"why"`
}

// Reason categories of a sentence without guards.
const (
	// ReasonNotObservable: nothing over MCP or the upstream journal shows
	// it (internal code organisation, advice to implementers or callers).
	ReasonNotObservable = "not-observable"
	// ReasonInformative: the sentence explains or records; it requires
	// nothing (including sentences superseded by a later decision).
	ReasonInformative = "informative"
	// ReasonLiveOnly: judging it needs a real Ombi.
	ReasonLiveOnly = "live-only"
	// ReasonGap: observable and normative, but no check guards it yet.
	ReasonGap = "gap"
)

// ReasonCategories are the reason categories in report order.
var ReasonCategories = []string{ReasonNotObservable, ReasonInformative, ReasonLiveOnly, ReasonGap}

// sentenceDocuments maps the document part of a sentence id to the
// document (as spec/clauses.json names it).
var sentenceDocuments = map[string]string{
	"RESULTS": "04-results",
	"ROUTING": "02-tool-mapping",
	"VERIFY":  "06-verification",
}

var sentenceID = regexp.MustCompile(`^S-([A-Z]+)-([0-9]{4})$`)

// checkIDPattern is what a guard may contain: check id characters and the
// * wildcard.
var checkIDPattern = regexp.MustCompile(`^[A-Za-z0-9_.*-]+$`)

//go:embed sentences.json
var sentencesJSON []byte

// DecodeSentences decodes a sentences file ({"sentences": [...]}), refusing
// unknown members. It does not check the sentences; see CheckSentences.
func DecodeSentences(b []byte) ([]Sentence, error) {
	var f struct {
		Sentences []Sentence `json:"sentences"`
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&f); err != nil {
		return nil, fmt.Errorf("decode sentences: %w", err)
	}
	return f.Sentences, nil
}

// CheckSentences reports every structural problem of a sentence list, one
// error per problem, joined: a malformed or duplicate id, an id whose
// document part disagrees with its document, an empty section or text, a
// clause spec/clauses.json does not define, neither guards nor a reason or
// both, a malformed or repeated guard, an unknown reason category or an
// empty why. Whether guards match real checks is the conformance suite's
// business (it knows the checks).
func CheckSentences(ss []Sentence) error {
	var errs []error
	bad := func(id, format string, a ...any) {
		errs = append(errs, fmt.Errorf("sentence %s: %s", id, fmt.Sprintf(format, a...)))
	}
	seen := map[string]bool{}
	for i, s := range ss {
		id := s.ID
		if id == "" {
			id = fmt.Sprintf("#%d", i+1)
		}
		m := sentenceID.FindStringSubmatch(s.ID)
		switch {
		case m == nil:
			bad(id, "malformed id (want S-RESULTS-0001, S-ROUTING-0001 or S-VERIFY-0001 style)")
		case sentenceDocuments[m[1]] == "":
			bad(id, "unknown document part %q in the id", m[1])
		case sentenceDocuments[m[1]] != s.Document:
			bad(id, "the id names %s but the document is %q", sentenceDocuments[m[1]], s.Document)
		}
		if seen[s.ID] {
			bad(id, "duplicate id")
		}
		seen[s.ID] = true
		if strings.TrimSpace(s.Section) == "" {
			bad(id, "no section")
		}
		if strings.TrimSpace(s.Text) == "" {
			bad(id, "no text")
		}
		for _, c := range s.Clauses {
			if _, ok := LookupClause(c); !ok {
				bad(id, "clause %q is not in clauses.json", c)
			}
		}
		switch {
		case len(s.Guards) == 0 && s.Reason == nil:
			bad(id, "neither guards nor a reason")
		case len(s.Guards) > 0 && s.Reason != nil:
			bad(id, "both guards and a reason")
		}
		guards := map[string]bool{}
		for _, g := range s.Guards {
			if !checkIDPattern.MatchString(g) {
				bad(id, "malformed guard %q", g)
			}
			if guards[g] {
				bad(id, "guard %q is listed twice", g)
			}
			guards[g] = true
		}
		if r := s.Reason; r != nil {
			if !knownCategory(r.Category) {
				bad(id, "unknown reason category %q (want one of %s)", r.Category, strings.Join(ReasonCategories, ", "))
			}
			if strings.TrimSpace(r.Why) == "" {
				bad(id, "the reason gives no why")
			}
		}
	}
	return errors.Join(errs...)
}

func knownCategory(c string) bool {
	for _, k := range ReasonCategories {
		if c == k {
			return true
		}
	}
	return false
}

var loadSentences = sync.OnceValues(func() ([]Sentence, error) {
	ss, err := DecodeSentences(sentencesJSON)
	if err != nil {
		return nil, err
	}
	return ss, CheckSentences(ss)
})

// LoadSentences returns the embedded sentences in file (document) order and
// every structural problem CheckSentences finds in them.
func LoadSentences() ([]Sentence, error) {
	ss, err := loadSentences()
	return append([]Sentence(nil), ss...), err
}

// Sentences returns the embedded sentences in file (document) order. It
// panics if the embedded file is malformed, which the package tests rule
// out.
func Sentences() []Sentence {
	ss, err := LoadSentences()
	if err != nil {
		panic(err)
	}
	return ss
}

// LookupSentence returns the sentence with the given id.
func LookupSentence(id string) (Sentence, bool) {
	for _, s := range Sentences() {
		if s.ID == id {
			return s, true
		}
	}
	return Sentence{}, false
}

// Category is the sentence's traceability category: "checks" when guards
// name checks, else its reason category.
func (s Sentence) Category() string {
	if s.Reason != nil {
		return s.Reason.Category
	}
	return "checks"
}

// GuardMatches reports whether a guard names a check id: a guard ending in
// "." is a prefix (RESULTS-ISERROR-001. matches every RESULTS-ISERROR-001.x),
// a guard holding * is a pattern whose * matches any run of characters
// (RESULTS-OUTPUTSCHEMA-001.*.advertised), any other guard is an exact id.
func GuardMatches(guard, checkID string) bool {
	switch {
	case strings.Contains(guard, "*"):
		return globMatch(guard, checkID)
	case strings.HasSuffix(guard, "."):
		return strings.HasPrefix(checkID, guard)
	}
	return guard == checkID
}

// globMatch matches s against a pattern whose only metacharacter is *.
func globMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return len(s) >= len(last) && strings.HasSuffix(s, last)
}

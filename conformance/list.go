package conformance

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/ombi-mcp/ombi-mcp/conformance/checks"
	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// Checks builds the spec tree without running anything and returns every
// check it declares, in tree order. It uses Ginkgo's preview, so it may be
// called once per process and not together with Run.
func Checks(opts Options) ([]Check, error) {
	s, err := checks.ForListing(opts)
	if err != nil {
		return nil, err
	}
	s.Tree()
	sc, _ := ginkgo.GinkgoConfiguration()
	if opts.Seed != 0 { // --seed orders the listing as it orders a run
		sc.RandomSeed = opts.Seed
	}
	sc.LabelFilter = opts.LabelFilter
	if opts.Focus != "" {
		sc.FocusStrings = []string{opts.Focus}
	}
	rep := ginkgo.PreviewSpecs("ombi-conformance", sc)
	var out []Check
	for _, sr := range rep.SpecReports {
		if sr.LeafNodeType != types.NodeTypeIt {
			continue
		}
		if sr.State.Is(types.SpecStateSkipped) && (opts.LabelFilter != "" || opts.Focus != "") {
			continue
		}
		c := s.Declared().Of(sr)
		if !slices.Equal(c.Labels, sr.Labels()) { // the label filters select by Ginkgo's
			return nil, fmt.Errorf("check %s: declared with the labels %v, Ginkgo reports %v", c.ID, c.Labels, sr.Labels())
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return framework.AreaRank(out[i].Area) < framework.AreaRank(out[j].Area) })
	return out, nil
}

// WriteList prints one line per check: id, area and clause.
func WriteList(w io.Writer, cs []Check) {
	fmt.Fprintf(w, "%-60s %-9s %s\n", "CHECK", "AREA", "CLAUSE")
	for _, c := range cs {
		fmt.Fprintf(w, "%-60s %-9s %s\n", c.ID, c.Area, c.Clause)
	}
	fmt.Fprintf(w, "%d checks\n", len(cs))
}

// WriteMatrix prints every contract clause with the checks that guard it,
// including the clauses no check guards yet, and the design sentences that
// fall under it (each with its guard count or its reason category); then
// the sentences under no clause, the sentence summary line and, last, the
// clause summary line.
func WriteMatrix(w io.Writer, cs []Check) {
	by := map[string][]string{}
	for _, c := range cs {
		by[c.Clause] = append(by[c.Clause], c.ID)
	}
	rows := SentenceRows(cs)
	under := map[string][]SentenceRow{}
	var orphans []SentenceRow
	for _, r := range rows {
		if len(r.Sentence.Clauses) == 0 {
			orphans = append(orphans, r)
		}
		for _, c := range r.Sentence.Clauses {
			under[c] = append(under[c], r)
		}
	}
	covered := 0
	for _, cl := range spec.Clauses() {
		ids := by[cl.ID]
		sort.Strings(ids)
		fmt.Fprintf(w, "%s  [%s, %s]\n", cl.ID, cl.Document, cl.Rule)
		if len(ids) == 0 {
			fmt.Fprintf(w, "    (no check yet)\n")
		} else {
			covered++
		}
		for _, id := range ids {
			fmt.Fprintf(w, "    %s\n", id)
		}
		for _, r := range under[cl.ID] {
			fmt.Fprintf(w, "    sentence %s\n", r.brief())
		}
	}
	if len(orphans) > 0 {
		fmt.Fprintf(w, "(sentences under no clause)\n")
		for _, r := range orphans {
			fmt.Fprintf(w, "    sentence %s\n", r.brief())
		}
	}
	fmt.Fprintln(w, SentenceSummary(rows))
	fmt.Fprintf(w, "%d of %d clauses have at least one check\n", covered, len(spec.Clauses()))
}

// SentenceRow is one design sentence with the checks its guards name.
type SentenceRow struct {
	Sentence spec.Sentence
	// Checks are the ids each guard matches, guard by guard (a guard with
	// no match has an empty list).
	Checks [][]string
}

// SentenceRows matches the guards of every design sentence of
// spec/sentences.json against the declared checks, in sentence order.
func SentenceRows(cs []Check) []SentenceRow {
	var rows []SentenceRow
	for _, s := range spec.Sentences() {
		rows = append(rows, sentenceRow(s, cs))
	}
	return rows
}

func sentenceRow(s spec.Sentence, cs []Check) SentenceRow {
	r := SentenceRow{Sentence: s, Checks: make([][]string, len(s.Guards))}
	for i, g := range s.Guards {
		for _, c := range cs {
			if c.ID != "" && spec.GuardMatches(g, c.ID) {
				r.Checks[i] = append(r.Checks[i], c.ID)
			}
		}
	}
	return r
}

// brief is the one-line form of a row for the clause matrix.
func (r SentenceRow) brief() string {
	s := r.Sentence
	if s.Reason != nil {
		return fmt.Sprintf("%s: %s", s.ID, s.Reason.Category)
	}
	n := 0
	for _, ids := range r.Checks {
		n += len(ids)
	}
	return fmt.Sprintf("%s: %d guards, %d checks", s.ID, len(s.Guards), n)
}

// SentenceProblems checks sentences against the declared checks: every
// structural problem spec.CheckSentences finds, and every guard that names
// no declared check. An empty result means the sentences are traceable.
func SentenceProblems(ss []spec.Sentence, cs []Check) []string {
	var out []string
	if err := spec.CheckSentences(ss); err != nil {
		out = append(out, strings.Split(err.Error(), "\n")...)
	}
	for _, s := range ss {
		r := sentenceRow(s, cs)
		for i, g := range s.Guards {
			if len(r.Checks[i]) == 0 {
				out = append(out, fmt.Sprintf("sentence %s: guard %q matches no declared check", s.ID, g))
			}
		}
	}
	return out
}

// SentenceSummary is the summary line of the sentence listings, e.g.
// "660 sentences: 525 with checks, 17 not-observable, 72 informative,
// 16 live-only, 30 gap".
func SentenceSummary(rows []SentenceRow) string {
	n := map[string]int{}
	for _, r := range rows {
		n[r.Sentence.Category()]++
	}
	parts := []string{fmt.Sprintf("%d with checks", n["checks"])}
	for _, c := range spec.ReasonCategories {
		parts = append(parts, fmt.Sprintf("%d %s", n[c], c))
	}
	return fmt.Sprintf("%d sentences: %s", len(rows), strings.Join(parts, ", "))
}

// WriteSentences prints every design sentence: its id, document, section
// and clauses, its text, then either each guard with the number of checks
// it matches (the check id itself when the guard is one) or its reason
// category and why; and last the sentence summary line.
func WriteSentences(w io.Writer, cs []Check) {
	rows := SentenceRows(cs)
	for _, r := range rows {
		s := r.Sentence
		fmt.Fprintf(w, "%s  [%s, %s]", s.ID, s.Document, s.Section)
		if len(s.Clauses) > 0 {
			fmt.Fprintf(w, "  clauses %s", strings.Join(s.Clauses, ", "))
		}
		fmt.Fprintf(w, "\n    %q\n", s.Text)
		if s.Reason != nil {
			fmt.Fprintf(w, "    %s: %s\n", s.Reason.Category, s.Reason.Why)
		}
		for i, g := range s.Guards {
			ids := r.Checks[i]
			switch {
			case len(ids) == 0:
				fmt.Fprintf(w, "    check %s (no such check)\n", g)
			case len(ids) == 1 && ids[0] == g:
				fmt.Fprintf(w, "    check %s\n", g)
			default:
				fmt.Fprintf(w, "    checks %s (%d)\n", g, len(ids))
			}
		}
		if s.Note != "" {
			fmt.Fprintf(w, "    note: %s\n", s.Note)
		}
	}
	fmt.Fprintln(w, SentenceSummary(rows))
}

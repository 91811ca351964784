package conformance

import (
	"fmt"
	"io"
	"sort"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// Checks builds the spec tree without running anything and returns every
// check it declares, in tree order. It uses Ginkgo's preview, so it may be
// called once per process and not together with Run.
func Checks(opts Options) ([]Check, error) {
	s, err := newSuite(opts, harness.Live("http://127.0.0.1:0", harness.Credentials{}), false)
	if err != nil {
		return nil, err
	}
	s.tree()
	sc, _ := ginkgo.GinkgoConfiguration()
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
		out = append(out, checkOf(sr))
	}
	sort.SliceStable(out, func(i, j int) bool { return areaRank(out[i].Area) < areaRank(out[j].Area) })
	return out, nil
}

// WriteList prints one line per check: id, area and clause.
func WriteList(w io.Writer, checks []Check) {
	fmt.Fprintf(w, "%-60s %-9s %s\n", "CHECK", "AREA", "CLAUSE")
	for _, c := range checks {
		fmt.Fprintf(w, "%-60s %-9s %s\n", c.ID, c.Area, c.Clause)
	}
	fmt.Fprintf(w, "%d checks\n", len(checks))
}

// WriteMatrix prints every contract clause with the checks that guard it,
// including the clauses no check guards yet.
func WriteMatrix(w io.Writer, checks []Check) {
	by := map[string][]string{}
	for _, c := range checks {
		by[c.Clause] = append(by[c.Clause], c.ID)
	}
	covered := 0
	for _, cl := range spec.Clauses() {
		ids := by[cl.ID]
		sort.Strings(ids)
		fmt.Fprintf(w, "%s  [%s, %s]\n", cl.ID, cl.Document, cl.Rule)
		if len(ids) == 0 {
			fmt.Fprintf(w, "    (no check yet)\n")
			continue
		}
		covered++
		for _, id := range ids {
			fmt.Fprintf(w, "    %s\n", id)
		}
	}
	fmt.Fprintf(w, "%d of %d clauses have at least one check\n", covered, len(spec.Clauses()))
}

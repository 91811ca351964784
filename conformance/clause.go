package conformance

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

// Areas are the suite's top-level labels, in report order.
var Areas = []string{"protocol", "schema", "wire", "errors", "auth", "leak", "budget", "live", "fuzz", LabelAny, LabelResources}

// Labels with a meaning for live runs.
const (
	// LabelReadOnly marks checks that never mutate upstream state; a live
	// run without --allow-mutations runs only these.
	LabelReadOnly = "read-only"
	// LabelNeedsMock marks checks that need the embedded mock (journal,
	// faults, quirks, canaries); a live run never runs them.
	LabelNeedsMock = "needs-mock"
	// LabelNeedsJournal marks checks that need only the upstream's journal
	// and injected faults, which a live run has through the mockombi proxy
	// it puts in front of the live Ombi.
	LabelNeedsJournal = "needs-journal"
)

const clauseLabelPrefix = "clause:"

// ClauseIt declares one check guarding the contract clause with the given id.
// body and decorators may come in any order, as with ginkgo.It.
// The spec text is "[ID] clause text", it carries the label clause:ID, and
// failures point at the caller (Offset(1)).
func ClauseIt(id string, body any, decorators ...any) bool {
	return ginkgo.It(checkText(id, ""), append([]any{ginkgo.Offset(1), checkLabels(id, ""), body}, decorators...)...)
}

// ClauseItFor is ClauseIt for one instance of a clause (a tool, a bundle
// set, a case): the check id is ID.qualifier.
func ClauseItFor(id, qualifier string, body any, decorators ...any) bool {
	return ginkgo.It(checkText(id, qualifier), append([]any{ginkgo.Offset(1), checkLabels(id, qualifier), body}, decorators...)...)
}

// checkLabels are the labels every check carries: clause:ID, and
// tool:NAME when it judges a catalogue tool.
func checkLabels(id, qualifier string) ginkgo.Labels {
	if tool := toolOfID(CheckID(id, qualifier)); tool != "" {
		return ginkgo.Label(clauseLabelPrefix+id, toolLabelPrefix+tool)
	}
	return ginkgo.Label(clauseLabelPrefix + id)
}

var unsafeQualifier = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// CheckID builds a check id from a clause id and an optional qualifier.
func CheckID(clauseID, qualifier string) string {
	if qualifier == "" {
		return clauseID
	}
	return clauseID + "." + strings.Trim(unsafeQualifier.ReplaceAllString(qualifier, "_"), "_")
}

func checkText(id, qualifier string) string {
	text := "(no such clause)"
	if c, ok := spec.LookupClause(id); ok {
		text = c.Text
	}
	return fmt.Sprintf("[%s] %s", CheckID(id, qualifier), text)
}

var checkIDText = regexp.MustCompile(`^\[([A-Za-z0-9_.-]+)\] `)

// Check describes one declared check.
type Check struct {
	ID     string // check id, e.g. RESULTS-ISERROR-001.read_search
	Area   string // one of Areas, "" if none
	Clause string // clause id from the clause: label, "" if none
	Tool   string // the tool the check judges: a catalogue tool (from its id) or one of the server's own (its tool: label); "" if none
	Labels []string
	Text   string
}

// checkOf extracts a Check from a spec report.
func checkOf(r types.SpecReport) Check {
	c := Check{Text: r.LeafNodeText, Labels: r.Labels()}
	if m := checkIDText.FindStringSubmatch(r.LeafNodeText); m != nil {
		c.ID = m[1]
		c.Tool = toolOfID(c.ID)
	}
	for _, l := range c.Labels {
		if strings.HasPrefix(l, clauseLabelPrefix) {
			c.Clause = strings.TrimPrefix(l, clauseLabelPrefix)
		}
		if tool, ok := strings.CutPrefix(l, toolLabelPrefix); ok && c.Tool == "" {
			c.Tool = tool // a tool of the server's own design (the any area)
		}
		for _, a := range Areas {
			if l == a && c.Area == "" {
				c.Area = a
			}
		}
	}
	return c
}

// clauseLine renders a clause for a failure message.
func clauseLine(id string) string {
	c, ok := spec.LookupClause(id)
	if !ok {
		return id + " (unknown clause)"
	}
	return fmt.Sprintf("%s (%s, %s): %s", c.ID, c.Document, c.Rule, c.Text)
}

// toolOfID is the catalogue tool named by a segment of a check id
// (RESULTS-ENVELOPE-001.read_discover.results names read_discover), or "".
func toolOfID(id string) string {
	for _, seg := range strings.Split(id, ".") {
		if _, ok := spec.Lookup(seg); ok {
			return seg
		}
	}
	return ""
}

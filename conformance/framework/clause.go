package framework

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

// Areas are the suite's top-level labels, in report order.
var Areas = []string{"protocol", "schema", "wire", "errors", "auth", "leak", "budget", "live", "fuzz", LabelAny, LabelResources}

// LabelResources is the area of the checks of the ombi:// resources.
const LabelResources = "resources"

// ClauseLabelPrefix labels each check with its clause, so a label filter
// can select a clause's checks (/^clause:MCP-INIT-VERSION-001$/).
const ClauseLabelPrefix = "clause:"

// ToolLabelPrefix labels each check with the tool it judges, so a label
// filter can select a tool's checks (/^tool:read_search$/).
const ToolLabelPrefix = "tool:"

// LabelProperty marks the rapid property checks.
const LabelProperty = "property"

// ChecksEnv names the environment variable that sets how many generated
// cases each property check tries (default: per property). More cases find
// rarer defects and take longer. A failure's rerun line repeats it.
const ChecksEnv = "CONFORMANCE_RAPID_CHECKS"

// Check describes one declared check. ClauseIt builds it when it declares
// the check, and the runner and the reports read it as it is: from the
// suite's table (Declared), which the processes of a split run hand
// their parent with their reports (shardReport); nothing is parsed back
// from spec texts or labels.
type Check struct {
	ID        string   `json:"id"`                  // check id, e.g. RESULTS-ISERROR-001.read_search
	Clause    string   `json:"clause"`              // the contract clause it guards
	Qualifier string   `json:"qualifier,omitempty"` // the instance of the clause (a tool, a case); "" for the clause's one check
	Area      string   `json:"area"`                // one of Areas, "" if none
	Tool      string   `json:"tool,omitempty"`      // the tool the check judges: a catalogue tool (named in its id) or one of the server's own (OwnTool); "" if none
	Profile   string   `json:"profile"`             // the profile that judges it: ProfileAny for the checks labelled LabelAny, else ProfileDesign
	Labels    []string `json:"labels"`              // its labels as Ginkgo reports them: its containers', then its own
	Text      string   `json:"text"`                // its spec text, "[ID] clause text"
}

// Declared holds the checks declared on the spec tree, by spec text:
// ClauseIt makes each text unique (the check id leads it), and Ginkgo
// reports the text back exactly.
type Declared map[string]Check

// Of is the check of a spec report. A spec not declared through ClauseIt
// has only its text and labels.
func (t Declared) Of(r types.SpecReport) Check {
	if c, ok := t[r.LeafNodeText]; ok {
		return c
	}
	return Check{Text: r.LeafNodeText, Labels: r.Labels()}
}

// Current is the check of the running spec.
func (t Declared) Current() Check {
	return t.Of(ginkgo.CurrentSpecReport())
}

// OwnTool is a ClauseItFor decorator: the check judges this tool of the
// server's own design (the any area). A name Ginkgo may refuse as a label
// is dropped (ANY-SURFACE-001 fails it).
type OwnTool string

// toolName is MCP's rule for tool names (2025-11-25): 1 to 128 of ASCII
// letters, digits, '_', '-' and '.'.
var toolName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// ValidToolName reports whether name keeps MCP's rule for tool names.
func ValidToolName(name string) bool { return toolName.MatchString(name) }

// ClauseIt declares one check guarding the contract clause with the given id.
// body and decorators may come in any order, as with ginkgo.It.
// The spec text is "[ID] clause text", it carries the label clause:ID, and
// its location (and a failure's) is the caller's.
func (s *Suite) ClauseIt(id string, body any, decorators ...any) bool {
	return s.declare(id, "", body, decorators)
}

// ClauseItFor is ClauseIt for one instance of a clause (a tool, a bundle
// set, a case): the check id is ID.qualifier.
func (s *Suite) ClauseItFor(id, qualifier string, body any, decorators ...any) bool {
	return s.declare(id, qualifier, body, decorators)
}

// declare builds the check, enters it in the suite's table and declares
// its spec. It runs while Ginkgo builds the tree, inside the check's
// containers, whose labels it reads.
func (s *Suite) declare(id, qualifier string, body any, decorators []any) bool {
	c := Check{ID: CheckID(id, qualifier), Clause: id, Qualifier: qualifier, Text: checkText(id, qualifier)}
	own := ginkgo.Label(ClauseLabelPrefix + id)
	if c.Tool = toolOfID(c.ID); c.Tool != "" {
		own = append(own, ToolLabelPrefix+c.Tool)
	}
	args := []any{ginkgo.Offset(2), own} // the caller of ClauseIt
	for _, d := range append([]any{body}, decorators...) {
		t, ok := d.(OwnTool)
		switch {
		case !ok:
			args = append(args, d)
		case ValidToolName(string(t)):
			args = append(args, ginkgo.Label(ToolLabelPrefix+string(t)))
			if c.Tool == "" {
				c.Tool = string(t)
			}
		}
	}
	c.Labels = specLabels(ginkgo.CurrentTreeConstructionNodeReport().ContainerHierarchyLabels, args)
	for _, l := range c.Labels {
		if slices.Contains(Areas, l) {
			c.Area = l
			break
		}
	}
	c.Profile = ProfileDesign
	if slices.Contains(c.Labels, LabelAny) {
		c.Profile = ProfileAny
	}
	s.checks[c.Text] = c
	return ginkgo.It(c.Text, args...)
}

// specLabels are a spec's labels as Ginkgo reports them
// (types.SpecReport.Labels): its containers', then those among the
// arguments of its It, each once.
func specLabels(containers [][]string, args []any) []string {
	out := []string{}
	add := func(ls []string) {
		for _, l := range ls {
			if !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	for _, ls := range containers {
		add(ls)
	}
	for _, d := range args {
		if ls, ok := d.(ginkgo.Labels); ok {
			add(ls)
		}
	}
	return out
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

// ClauseLine renders a clause for a failure message.
func ClauseLine(id string) string {
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

package checks

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// A check that compares what the server sent upstream with what the
// design says shows both in its failure: the calls (method, path and
// query, the body as indented JSON with its members sorted) and a line
// diff, "-" for what was wanted and "+" for what was sent.

// wireCall is an upstream call as a failure shows it.
type wireCall struct {
	Method, Path, Query string
	Body                json.RawMessage
}

// wantedCalls are the expected calls of a wire-exact step.
func wantedCalls(want []exactCall) []wireCall {
	out := make([]wireCall, len(want))
	for i, w := range want {
		q := ""
		if len(w.Query) > 0 {
			q = url.Values(w.Query).Encode()
		}
		out[i] = wireCall{Method: w.Method, Path: w.Path, Query: q, Body: w.Body}
	}
	return out
}

// sentCalls are journaled calls.
func sentCalls(got []mockombi.Call) []wireCall {
	out := make([]wireCall, len(got))
	for i, c := range got {
		out[i] = wireCall{Method: c.Method, Path: c.Path, Query: c.Query, Body: c.Body}
	}
	return out
}

// lines renders the call: its request line, then its body indented.
func (c wireCall) lines() []string {
	line := c.Method + " " + c.Path
	if c.Query != "" {
		line += "?" + c.Query
	}
	out := []string{line}
	if len(c.Body) > 0 {
		for _, l := range prettyLines(c.Body) {
			out = append(out, "  "+l)
		}
	}
	return out
}

// callsLines renders calls one after the other.
func callsLines(calls []wireCall) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.lines()...)
	}
	if len(out) == 0 {
		out = []string{"(no call)"}
	}
	return out
}

// callsDiff shows the wanted and the sent calls and their line diff,
// each line indented by indent.
func callsDiff(want, got []wireCall, indent string) string {
	w, g := callsLines(want), callsLines(got)
	var b strings.Builder
	fmt.Fprintf(&b, "%swant:\n%s", indent, indented(w, indent+"  "))
	fmt.Fprintf(&b, "\n%sgot:\n%s", indent, indented(g, indent+"  "))
	fmt.Fprintf(&b, "\n%sdiff (- want, + got):\n%s", indent, indented(lineDiff(w, g, 3), indent+"  "))
	return b.String()
}

// bodyDiff shows the line diff of a wanted and a sent JSON body, each
// line indented by indent; a "${any}" the body wants takes the sent
// value, which it matches.
func bodyDiff(want, got []byte, indent string) string {
	w, errW := decodeNumbers(want)
	g, errG := decodeNumbers(got)
	if errW == nil && errG == nil {
		w = fillWild(w, g)
		want, _ = json.Marshal(w)
	}
	return fmt.Sprintf("%sdiff (- want, + got):\n%s", indent, indented(lineDiff(prettyLines(want), prettyLines(got), 3), indent+"  "))
}

// fillWild is want with each "${any}" replaced by the value got has in
// its place.
func fillWild(want, got any) any {
	if s, ok := want.(string); ok && s == exactAny && got != nil {
		return got
	}
	switch w := want.(type) {
	case map[string]any:
		g, _ := got.(map[string]any)
		out := make(map[string]any, len(w))
		for k, v := range w {
			out[k] = fillWild(v, g[k])
		}
		return out
	case []any:
		g, _ := got.([]any)
		out := make([]any, len(w))
		for i, v := range w {
			var gv any
			if i < len(g) {
				gv = g[i]
			}
			out[i] = fillWild(v, gv)
		}
		return out
	}
	return want
}

// prettyLines is a JSON text indented, its object members sorted (the
// comparison is by deep equality, member order aside); text that is not
// JSON is shown as it is, an empty body as "(no body)".
func prettyLines(b []byte) []string {
	if len(b) == 0 {
		return []string{"(no body)"}
	}
	v, err := decodeNumbers(b)
	if err != nil {
		return strings.Split(string(b), "\n")
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return strings.Split(string(b), "\n")
	}
	return strings.Split(string(out), "\n")
}

// indented joins lines, each after indent.
func indented(lines []string, indent string) string {
	return indent + strings.Join(lines, "\n"+indent)
}

// maxDiffLines bounds the texts lineDiff compares line by line (its cost
// is the product of their lengths); longer ones are shown whole.
const maxDiffLines = 2000

// lineDiff is the shortest edit from a to b, a line per line: "  " kept,
// "- " only in a, "+ " only in b. Runs of kept lines farther than context
// lines from a change are cut to "  …".
func lineDiff(a, b []string, context int) []string {
	if len(a) > maxDiffLines || len(b) > maxDiffLines {
		var out []string
		for _, l := range a {
			out = append(out, "- "+l)
		}
		for _, l := range b {
			out = append(out, "+ "+l)
		}
		return out
	}
	// lcs[i][j]: the longest common subsequence of a[i:] and b[j:]
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var all []string
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			all = append(all, "  "+a[i])
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			all = append(all, "- "+a[i])
			i++
		default:
			all = append(all, "+ "+b[j])
			j++
		}
	}
	// keep the lines within context of a change
	keep := make([]bool, len(all))
	for k, l := range all {
		if !strings.HasPrefix(l, "  ") {
			for d := max(0, k-context); d <= min(len(all)-1, k+context); d++ {
				keep[d] = true
			}
		}
	}
	var out []string
	for k, l := range all {
		switch {
		case keep[k]:
			out = append(out, l)
		case len(out) == 0 || out[len(out)-1] != "  …":
			out = append(out, "  …")
		}
	}
	return out
}

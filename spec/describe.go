package spec

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// maxListedEnum is the largest enum whose values Description spells out; a
// longer list is left to the published schema.
const maxListedEnum = 8

// Description returns the text tools/list publishes for a tool: the catalogue
// description followed by one line per strict branch naming its required and
// allowed fields (e.g. "action=text: requires media(movie|tv|artist|album),
// query; allows page"; branches that differ only in one discriminator's
// value share a line: "action=approve media=tv|album: requires request_id"),
// then one line per nested choice such as a TV selection. It is generated from the strict schema so it cannot drift from
// it, and it never states output contracts. An unknown tool gives "".
func Description(tool string) string {
	t, ok := Lookup(tool)
	if !ok {
		return ""
	}
	bs, err := Branches(tool)
	if err != nil {
		panic(err)
	}
	var sb strings.Builder
	sb.WriteString(t.Description)
	var nested, lines []string
	seenNested := map[string]bool{}
	for _, b := range bs {
		lines = append(lines, describeBranch(b, len(bs) == 1))
		for _, p := range b.Properties {
			if line, ok := describeNested(p, b.Schemas[p]); ok && !seenNested[line] {
				seenNested[line] = true
				nested = append(nested, line)
			}
		}
	}
	for _, line := range mergeBranchLines(lines) {
		sb.WriteString("\n- ")
		sb.WriteString(line)
	}
	for _, n := range nested {
		sb.WriteString("\n")
		sb.WriteString(n)
	}
	return sb.String()
}

func describeBranch(b Branch, single bool) string {
	req := map[string]bool{}
	for _, r := range b.Required {
		req[r] = true
	}
	var label []string
	for _, p := range b.Properties {
		if v, ok := b.Consts[p]; ok && req[p] {
			label = append(label, p+"="+v)
		}
	}
	inAnyOf := map[string]bool{}
	for _, alt := range b.AnyOf {
		for _, n := range alt {
			inAnyOf[n] = true
		}
	}
	var requires, allows []string
	for _, p := range b.Properties {
		if _, ok := b.Consts[p]; (ok && req[p]) || inAnyOf[p] {
			continue
		}
		f := fieldText(p, b.Schemas[p], b.Consts)
		if req[p] {
			requires = append(requires, f)
		} else {
			allows = append(allows, f)
		}
	}
	var parts []string
	if len(requires) > 0 {
		parts = append(parts, "requires "+strings.Join(requires, ", "))
	}
	if len(b.AnyOf) > 0 {
		var names []string
		for _, alt := range b.AnyOf {
			names = append(names, strings.Join(alt, "+"))
		}
		parts = append(parts, "at least one of "+strings.Join(names, ", "))
	}
	if len(allows) > 0 {
		parts = append(parts, "allows "+strings.Join(allows, ", "))
	}
	body := strings.Join(parts, "; ")
	if body == "" {
		body = "no other fields"
	}
	switch {
	case len(label) > 0:
		return strings.Join(label, " ") + ": " + body
	case single:
		return body
	default:
		return b.Title + ": " + body
	}
}

// fieldText renders one field: its name, the const value of an optional
// discriminator (marked when it is also the documented default), or a short
// enum's values.
func fieldText(name string, schema json.RawMessage, consts map[string]string) string {
	var s struct {
		Default any   `json:"default"`
		Enum    []any `json:"enum"`
		Items   struct {
			Enum []any `json:"enum"`
		} `json:"items"`
	}
	_ = json.Unmarshal(schema, &s)
	if v, ok := consts[name]; ok {
		if s.Default == v {
			return name + "=" + v + " (default)"
		}
		return name + "=" + v
	}
	vals := s.Enum
	if len(vals) == 0 {
		vals = s.Items.Enum
	}
	if len(vals) == 0 || len(vals) > maxListedEnum {
		return name
	}
	strs := make([]string, len(vals))
	for i, v := range vals {
		strs[i] = fmt.Sprint(v)
	}
	return name + "(" + strings.Join(strs, "|") + ")"
}

// describeNested renders a property whose schema is a oneOf of closed
// objects, e.g. "selection: {mode=all} | {mode=season, season_numbers}".
func describeNested(name string, schema json.RawMessage) (string, bool) {
	var s struct {
		OneOf []json.RawMessage `json:"oneOf"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.OneOf) == 0 {
		return "", false
	}
	alts := make([]string, 0, len(s.OneOf))
	for _, raw := range s.OneOf {
		b, err := parseBranch(raw)
		if err != nil {
			return "", false
		}
		var fields []string
		for _, p := range b.Properties {
			if v, ok := b.Consts[p]; ok {
				fields = append(fields, p+"="+v)
			}
		}
		for _, r := range b.Required {
			if _, ok := b.Consts[r]; !ok {
				fields = append(fields, r+itemShape(b.Schemas[r]))
			}
		}
		alts = append(alts, "{"+strings.Join(fields, ", ")+"}")
	}
	return name + ": " + strings.Join(alts, " | "), true
}

// itemShape renders the required fields of an array's object items, e.g.
// "[{season_number, episodes}]", or "" for anything else.
func itemShape(schema json.RawMessage) string {
	var s struct {
		Type  string `json:"type"`
		Items struct {
			Required []string `json:"required"`
		} `json:"items"`
	}
	if json.Unmarshal(schema, &s) != nil || s.Type != "array" || len(s.Items.Required) == 0 {
		return ""
	}
	return "[{" + strings.Join(s.Items.Required, ", ") + "}]"
}

// mergeBranchLines folds branch lines that say the same of their fields
// and whose labels differ in one discriminator's value into one line
// listing the values ("action=deny media=tv|album: ..."), again until no
// two lines fold: a line then stands for every combination of its values
// ("action=approve|deny media=tv|album"), each one a branch. Lines keep the
// place of the first of them; a line without a k=v label stays as it is.
func mergeBranchLines(lines []string) []string {
	type group struct {
		keys   []string
		values [][]string // per key, its values in order
		body   string
		line   string // a line without a label, kept as it is
	}
	var gs []*group
	for _, line := range lines {
		keys, values, body, ok := splitBranchLine(line)
		if !ok {
			gs = append(gs, &group{line: line})
			continue
		}
		g := &group{keys: keys, body: body}
		for _, v := range values {
			g.values = append(g.values, []string{v})
		}
		gs = append(gs, g)
	}
	// differsIn is the one key position where a and b differ, or -1.
	differsIn := func(a, b *group) int {
		if a.line != "" || b.line != "" || a.body != b.body || !slices.Equal(a.keys, b.keys) {
			return -1
		}
		at := -1
		for i := range a.values {
			if !slices.Equal(a.values[i], b.values[i]) {
				if at >= 0 {
					return -1
				}
				at = i
			}
		}
		return at
	}
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(gs) && !merged; i++ {
			for j := i + 1; j < len(gs); j++ {
				if at := differsIn(gs[i], gs[j]); at >= 0 {
					gs[i].values[at] = append(gs[i].values[at], gs[j].values[at]...)
					gs = slices.Delete(gs, j, j+1)
					merged = true
					break
				}
			}
		}
	}
	out := make([]string, 0, len(gs))
	for _, g := range gs {
		if g.line != "" {
			out = append(out, g.line)
			continue
		}
		label := make([]string, len(g.keys))
		for i, k := range g.keys {
			label[i] = k + "=" + strings.Join(g.values[i], "|")
		}
		out = append(out, strings.Join(label, " ")+": "+g.body)
	}
	return out
}

// splitBranchLine splits "k1=v1 k2=v2: body" into its label's keys and
// values and its body; ok is false for a line without such a label.
func splitBranchLine(line string) (keys, values []string, body string, ok bool) {
	label, body, found := strings.Cut(line, ": ")
	if !found || label == "" {
		return nil, nil, "", false
	}
	for _, tok := range strings.Fields(label) {
		k, v, isPair := strings.Cut(tok, "=")
		if !isPair || k == "" || v == "" || strings.Contains(v, "|") {
			return nil, nil, "", false
		}
		keys, values = append(keys, k), append(values, v)
	}
	return keys, values, body, true
}

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
// then one line per nested choice such as a TV selection. It is generated
// from the strict schema so it cannot drift from it, and it never states
// output contracts. An unknown tool gives "".
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
	var nested []string
	var lines []branchLine
	seenNested := map[string]bool{}
	for _, b := range bs {
		lines = append(lines, branchParts(b, len(bs) == 1))
		for _, p := range b.Properties {
			if line, ok := describeNested(p, b.Schemas[p]); ok && !seenNested[line] {
				seenNested[line] = true
				nested = append(nested, line)
			}
		}
	}
	for _, line := range foldBranchLines(lines) {
		sb.WriteString("\n- ")
		sb.WriteString(line.String())
	}
	for _, n := range nested {
		sb.WriteString("\n")
		sb.WriteString(n)
	}
	return sb.String()
}

// branchLine is one line of a description: the label's discriminators
// (keys, and per key its values: one, or several once lines are folded)
// and what it says of the other fields. A line without a label has no keys
// and its text in head (a branch title, or nothing for a lone branch).
type branchLine struct {
	keys   []string
	values [][]string
	head   string
	body   string
}

// String renders the line: "k1=v1|v2 k2=v3: body", "title: body" or "body".
func (l branchLine) String() string {
	if len(l.keys) == 0 {
		if l.head == "" {
			return l.body
		}
		return l.head + ": " + l.body
	}
	label := make([]string, len(l.keys))
	for i, k := range l.keys {
		label[i] = k + "=" + strings.Join(l.values[i], "|")
	}
	return strings.Join(label, " ") + ": " + l.body
}

// branchParts is the line of one branch, in parts.
func branchParts(b Branch, single bool) branchLine {
	req := map[string]bool{}
	for _, r := range b.Required {
		req[r] = true
	}
	var line branchLine
	for _, p := range b.Properties {
		if v, ok := b.Consts[p]; ok && req[p] {
			line.keys = append(line.keys, p)
			line.values = append(line.values, []string{v})
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
	line.body = strings.Join(parts, "; ")
	if line.body == "" {
		line.body = "no other fields"
	}
	if len(line.keys) == 0 && !single {
		line.head = b.Title
	}
	return line
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

// foldBranchLines folds lines that say the same of their fields and whose
// labels differ in one discriminator's values into one line listing the
// values ("action=deny media=tv|album: ..."), again until no two lines
// fold: a line then stands for every combination of its values
// ("action=approve|deny media=tv|album"), each one a branch. Lines keep the
// place of the first of them; a line without a label stays as it is.
func foldBranchLines(lines []branchLine) []branchLine {
	// differsIn is the one key position where a and b differ, or -1.
	differsIn := func(a, b branchLine) int {
		if len(a.keys) == 0 || a.body != b.body || !slices.Equal(a.keys, b.keys) {
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
	for folded := true; folded; {
		folded = false
		for i := 0; i < len(lines) && !folded; i++ {
			for j := i + 1; j < len(lines); j++ {
				if at := differsIn(lines[i], lines[j]); at >= 0 {
					lines[i].values[at] = append(lines[i].values[at], lines[j].values[at]...)
					lines = slices.Delete(lines, j, j+1)
					folded = true
					break
				}
			}
		}
	}
	return lines
}

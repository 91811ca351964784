package spec

import (
	"encoding/json"
	"fmt"
	"strings"
)

// maxListedEnum is the largest enum whose values Description spells out; a
// longer list is left to the published schema.
const maxListedEnum = 8

// Description returns the text tools/list publishes for a tool: the catalogue
// description followed by one line per strict branch naming its required and
// allowed fields (e.g. "action=text: requires media(movie|tv|artist|album),
// query; allows page"), then one line per nested choice such as a TV
// selection. It is generated from the strict schema so it cannot drift from
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
	var nested []string
	seenNested := map[string]bool{}
	for _, b := range bs {
		sb.WriteString("\n- ")
		sb.WriteString(describeBranch(b, len(bs) == 1))
		for _, p := range b.Properties {
			if line, ok := describeNested(p, b.Schemas[p]); ok && !seenNested[line] {
				seenNested[line] = true
				nested = append(nested, line)
			}
		}
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

package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Branch is one branch of a tool's strict input schema: a closed object keyed
// by const discriminators.
type Branch struct {
	Title       string
	Description string
	Consts      map[string]string          // property -> const value, for string const properties
	Required    []string                   // in schema order
	Properties  []string                   // property names in schema order
	Schemas     map[string]json.RawMessage // property -> its schema
	AnyOf       [][]string                 // branch-level anyOf, each alternative's required names
}

// Branches returns the branches of a tool's strict input schema in schema
// order. A schema without a root oneOf is a single branch.
func Branches(tool string) ([]Branch, error) {
	raw, err := InputSchema(tool)
	if err != nil {
		return nil, err
	}
	return parseBranches(raw)
}

func parseBranches(strict json.RawMessage) ([]Branch, error) {
	var root struct {
		OneOf []json.RawMessage `json:"oneOf"`
	}
	if err := json.Unmarshal(strict, &root); err != nil {
		return nil, fmt.Errorf("decode strict schema: %w", err)
	}
	raws := root.OneOf
	if len(raws) == 0 {
		raws = []json.RawMessage{strict}
	}
	out := make([]Branch, 0, len(raws))
	for i, r := range raws {
		b, err := parseBranch(r)
		if err != nil {
			return nil, fmt.Errorf("decode branch %d: %w", i, err)
		}
		out = append(out, b)
	}
	return out, nil
}

func parseBranch(raw json.RawMessage) (Branch, error) {
	var s struct {
		Title       string                     `json:"title"`
		Description string                     `json:"description"`
		Properties  map[string]json.RawMessage `json:"properties"`
		Required    []string                   `json:"required"`
		AnyOf       []struct {
			Required []string `json:"required"`
		} `json:"anyOf"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return Branch{}, err
	}
	order, err := propertyOrder(raw)
	if err != nil {
		return Branch{}, err
	}
	b := Branch{Title: s.Title, Description: s.Description, Required: s.Required, Properties: order,
		Schemas: s.Properties, Consts: map[string]string{}}
	for name, ps := range s.Properties {
		var c struct {
			Const *string `json:"const"`
		}
		if json.Unmarshal(ps, &c) == nil && c.Const != nil {
			b.Consts[name] = *c.Const
		}
	}
	for _, a := range s.AnyOf {
		b.AnyOf = append(b.AnyOf, a.Required)
	}
	return b, nil
}

// propertyOrder returns the keys of the "properties" object of a schema in
// document order.
func propertyOrder(raw json.RawMessage) ([]string, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, err
	}
	p, ok := top["properties"]
	if !ok {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(p))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// MainDiscriminator is the property whose const values select a branch in
// every tool that has more than one action.
const MainDiscriminator = "action"

// annotation keywords that do not change what a schema accepts.
var annotations = []string{"title", "description", "default", "examples"}

// Project turns a strict input schema into its portable projection
// (DECISIONS D1): root type object; properties = the union of every branch's
// properties; required = what every branch requires; additionalProperties
// false; no root combinator and no $ref anywhere; no root $schema or title.
//
// A property whose variants are all string const/enum schemas becomes one
// string enum of their union (this is how the main discriminator and the
// secondary discriminators are published). Variants that differ only in
// annotations collapse into one schema, keeping a description only if all
// agree. Other differing variants are published as a nested anyOf inside the
// property.
//
// Every property schema whose values all have one JSON type says that type
// (addTypes), and the per-action rules a root without a conditional can
// carry are kept as dependentSchemas and dependentRequired (dependentRules).
func Project(strict json.RawMessage) (json.RawMessage, error) {
	var root map[string]any
	if err := decodeNumber(strict, &root); err != nil {
		return nil, fmt.Errorf("project: decode strict schema: %w", err)
	}
	inlined, err := inlineRefs(root, root, 0)
	if err != nil {
		return nil, fmt.Errorf("project: %w", err)
	}
	root = inlined.(map[string]any)
	for _, k := range []string{"anyOf", "allOf", "not", "if", "then", "else"} {
		if _, ok := root[k]; ok {
			return nil, fmt.Errorf("project: root %s is not supported", k)
		}
	}
	var branches []map[string]any
	if one, ok := root["oneOf"].([]any); ok {
		for i, b := range one {
			m, ok := b.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("project: branch %d is not an object schema", i)
			}
			branches = append(branches, m)
		}
	} else {
		branches = []map[string]any{root}
	}

	order, err := propertyUnionOrder(strict)
	if err != nil {
		return nil, fmt.Errorf("project: %w", err)
	}
	order = appendUnlisted(order, branches)
	props := map[string]any{}
	for _, name := range order {
		var variants []any
		for _, b := range branches {
			if p, ok := b["properties"].(map[string]any); ok {
				if s, ok := p[name]; ok {
					variants = append(variants, s)
				}
			}
		}
		props[name] = mergeVariants(variants)
	}

	// No $schema (2020-12 is MCP's default dialect) and no title (the
	// tool's name): a model reads every byte of tools/list.
	out := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if v, ok := root["description"]; ok {
		out["description"] = v
	}
	req := commonRequired(branches)
	if len(req) > 0 {
		out["required"] = req
	}
	schemas, requires := dependentRules(branches, order, req)
	if len(schemas) > 0 {
		out["dependentSchemas"] = schemas
	}
	if len(requires) > 0 {
		out["dependentRequired"] = requires
	}
	for _, p := range props {
		addTypes(p)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("project: encode: %w", err)
	}
	return b, nil
}

func decodeNumber(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

// propertyUnionOrder lists every branch property name once, in first-seen
// order.
func propertyUnionOrder(strict json.RawMessage) ([]string, error) {
	bs, err := parseBranches(strict)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, b := range bs {
		for _, p := range b.Properties {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// appendUnlisted adds, sorted, the property names a branch only reveals after
// $ref inlining.
func appendUnlisted(order []string, branches []map[string]any) []string {
	listed := map[string]bool{}
	for _, n := range order {
		listed[n] = true
	}
	var extra []string
	for _, b := range branches {
		p, _ := b["properties"].(map[string]any)
		for n := range p {
			if !listed[n] {
				listed[n] = true
				extra = append(extra, n)
			}
		}
	}
	sort.Strings(extra)
	return append(order, extra...)
}

func commonRequired(branches []map[string]any) []any {
	count := map[string]int{}
	var order []string
	for _, b := range branches {
		req, _ := b["required"].([]any)
		for _, r := range req {
			s, _ := r.(string)
			if count[s] == 0 {
				order = append(order, s)
			}
			count[s]++
		}
	}
	var out []any
	for _, s := range order {
		if count[s] == len(branches) {
			out = append(out, s)
		}
	}
	return out
}

// dependentRules are the per-action rules of a schema with branches that a
// portable root can carry (DECISIONS D1: no conditional or combinator over
// the root object). For each property that not every branch declares:
// dependentSchemas names the discriminator values it may come with (read_votes
// media only with action=by_request; write_request_create language only with
// provider=tmdb), and dependentRequired the fields that every branch
// declaring it requires (media needs request_id). A discriminator is a
// property some branch requires as a string const. Both rules hold for every
// instance the strict schema accepts, as long as every branch is closed;
// otherwise there are none. A rule on a discriminator's value alone
// (read_issues: action=list requires status) needs a root conditional and is
// left to the tool description.
func dependentRules(branches []map[string]any, order []string, required []any) (schemas, requires map[string]any) {
	if len(branches) < 2 {
		return nil, nil
	}
	props := make([]map[string]any, len(branches))
	for i, b := range branches {
		if b["additionalProperties"] != false {
			return nil, nil
		}
		props[i], _ = b["properties"].(map[string]any)
	}
	var keys []string
	for _, name := range order {
		for i, b := range branches {
			ps, _ := props[i][name].(map[string]any)
			if _, isString := ps["const"].(string); isString && slices.Contains(requiredOf(b), name) {
				keys = append(keys, name)
				break
			}
		}
	}
	// the string values a branch allows for a discriminator; none when it
	// does not declare it, and not known when its schema is no string
	// const or enum
	values := func(i int, key string) ([]string, bool) {
		ps, declared := props[i][key].(map[string]any)
		if !declared {
			return nil, true
		}
		if vals, ok := stringEnumUnion([]any{ps}); ok {
			out := make([]string, len(vals))
			for j, v := range vals {
				out[j] = v.(string)
			}
			return out, true
		}
		return nil, false
	}
	union := func(in []int, key string) ([]string, bool) {
		var out []string
		for _, i := range in {
			vs, ok := values(i, key)
			if !ok {
				return nil, false
			}
			for _, v := range vs {
				if !slices.Contains(out, v) {
					out = append(out, v)
				}
			}
		}
		return out, true
	}
	every := make([]int, len(branches))
	for i := range branches {
		every[i] = i
	}
	// a discriminator's values over every branch; nil when not all known
	all := map[string][]string{}
	for _, key := range keys {
		if vs, known := union(every, key); known {
			all[key] = vs
		}
	}
	schemas, requires = map[string]any{}, map[string]any{}
	for _, name := range order {
		var in []int
		for i := range branches {
			if _, ok := props[i][name]; ok {
				in = append(in, i)
			}
		}
		if len(in) == len(branches) {
			continue
		}
		with := map[string]any{}
		for _, key := range keys {
			if key == name {
				continue
			}
			vs, known := union(in, key)
			if known && len(vs) > 0 && (all[key] == nil || len(vs) < len(all[key])) {
				with[key] = map[string]any{"enum": anySlice(vs)}
			}
		}
		if len(with) > 0 {
			schemas[name] = map[string]any{"properties": with}
		}
		var co []string
		for _, q := range order {
			if q == name || slices.Contains(required, any(q)) {
				continue
			}
			withQ := true
			for _, i := range in {
				withQ = withQ && slices.Contains(requiredOf(branches[i]), q)
			}
			if withQ {
				co = append(co, q)
			}
		}
		if len(co) > 0 {
			requires[name] = anySlice(co)
		}
	}
	return schemas, requires
}

func requiredOf(b map[string]any) []string {
	req, _ := b["required"].([]any)
	out := make([]string, 0, len(req))
	for _, r := range req {
		if s, ok := r.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// addTypes gives a property schema, and every schema under it (properties,
// items, members of a nested oneOf/anyOf), that has no "type" the one JSON
// type all the values it admits share, when they share one: the type of its
// const, of every enum value, or of every combinator member. It returns the
// schema's type ("" for none or several). What a validator accepts does not
// change; a client that reads only "type" can then tell how to send a value
// (MCP Inspector's CLI sends an argument as an object only when its property
// says "type": "object").
func addTypes(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for _, p := range props {
			addTypes(p)
		}
	}
	addTypes(m["items"])
	var fromMembers string
	for _, k := range []string{"oneOf", "anyOf"} {
		members, ok := m[k].([]any)
		if !ok {
			continue
		}
		common := ""
		for i, x := range members {
			if t := addTypes(x); i == 0 {
				common = t
			} else if t != common {
				common = ""
			}
		}
		if fromMembers == "" {
			fromMembers = common
		}
	}
	if t, ok := m["type"]; ok {
		s, _ := t.(string)
		return s
	}
	t := fromMembers
	if c, ok := m["const"]; ok {
		t = jsonType(c)
	} else if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		t = jsonType(e[0])
		for _, x := range e[1:] {
			if jsonType(x) != t {
				t = ""
			}
		}
	}
	if t != "" {
		m["type"] = t
	}
	return t
}

// jsonType is the JSON Schema type of a decoded value (numbers as
// json.Number): "integer" only for a number written without a fraction or
// an exponent.
func jsonType(v any) string {
	switch x := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case nil:
		return "null"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		return "number"
	}
	return ""
}

func mergeVariants(variants []any) any {
	if vals, ok := stringEnumUnion(variants); ok {
		m := map[string]any{"type": "string", "enum": vals}
		for _, k := range []string{"description", "default"} {
			if d, ok := sharedKeyword(variants, k); ok {
				m[k] = d
			}
		}
		return m
	}
	distinct := dedupe(variants)
	if len(distinct) == 1 {
		return distinct[0]
	}
	stripped := make([]any, len(variants))
	for i, v := range variants {
		stripped[i] = stripAnnotations(v)
	}
	if s := dedupe(stripped); len(s) == 1 {
		m, ok := s[0].(map[string]any)
		if ok {
			if d, ok := sharedKeyword(variants, "description"); ok {
				m["description"] = d
			}
		}
		return s[0]
	}
	return map[string]any{"anyOf": distinct}
}

// stringEnumUnion reports whether every variant is a string const or a string
// enum (plus annotations and type string) and returns the union of values in
// first-seen order.
func stringEnumUnion(variants []any) ([]any, bool) {
	seen := map[string]bool{}
	var vals []any
	add := func(v any) bool {
		s, ok := v.(string)
		if !ok {
			return false
		}
		if !seen[s] {
			seen[s] = true
			vals = append(vals, s)
		}
		return true
	}
	for _, v := range variants {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		found := false
		for k, x := range m {
			switch {
			case k == "const":
				if !add(x) {
					return nil, false
				}
				found = true
			case k == "enum":
				arr, ok := x.([]any)
				if !ok {
					return nil, false
				}
				for _, e := range arr {
					if !add(e) {
						return nil, false
					}
				}
				found = true
			case k == "type":
				if x != "string" {
					return nil, false
				}
			case isAnnotation(k):
			default:
				return nil, false
			}
		}
		if !found {
			return nil, false
		}
	}
	return vals, true
}

func isAnnotation(k string) bool {
	for _, a := range annotations {
		if a == k {
			return true
		}
	}
	return false
}

// sharedKeyword returns the value of keyword k when every variant carries it
// with the same value.
func sharedKeyword(variants []any, k string) (any, bool) {
	var d any
	for i, v := range variants {
		m, _ := v.(map[string]any)
		x, ok := m[k]
		if !ok {
			return nil, false
		}
		if i > 0 && !reflect.DeepEqual(x, d) {
			return nil, false
		}
		d = x
	}
	return d, d != nil
}

func stripAnnotations(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for k, x := range m {
		if !isAnnotation(k) {
			out[k] = x
		}
	}
	return out
}

func dedupe(vs []any) []any {
	var out []any
	for _, v := range vs {
		dup := false
		for _, o := range out {
			if reflect.DeepEqual(o, v) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, v)
		}
	}
	return out
}

const maxRefDepth = 32

// inlineRefs replaces every local "#/$defs/..." reference with a copy of its
// target (sibling keywords of $ref are kept) and drops $defs.
func inlineRefs(v any, root map[string]any, depth int) (any, error) {
	if depth > maxRefDepth {
		return nil, fmt.Errorf("inline $ref: nesting deeper than %d (cycle?)", maxRefDepth)
	}
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		if ref, ok := t["$ref"].(string); ok {
			target, err := resolveLocal(root, ref)
			if err != nil {
				return nil, err
			}
			r, err := inlineRefs(target, root, depth+1)
			if err != nil {
				return nil, err
			}
			for k, x := range r.(map[string]any) {
				out[k] = x
			}
		}
		for k, x := range t {
			if k == "$ref" || k == "$defs" || k == "definitions" {
				continue
			}
			c, err := inlineRefs(x, root, depth)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			c, err := inlineRefs(x, root, depth)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	return v, nil
}

func resolveLocal(root map[string]any, ref string) (map[string]any, error) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, fmt.Errorf("inline $ref: only local references are supported, got %q", ref)
	}
	var cur any = root
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("inline $ref: %q does not resolve", ref)
		}
		cur, ok = m[part]
		if !ok {
			return nil, fmt.Errorf("inline $ref: %q does not resolve", ref)
		}
	}
	m, ok := cur.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("inline $ref: %q is not a schema object", ref)
	}
	return m, nil
}

// rootForbidden are the keywords a portable schema must not carry at its root.
var rootForbidden = []string{"oneOf", "anyOf", "allOf", "not", "if", "then", "else"}

// anywhereForbidden are the keywords a portable schema must not carry at any
// depth.
var anywhereForbidden = []string{"$ref", "$dynamicRef", "$recursiveRef", "$defs", "definitions"}

// CheckPortable reports every way a published input schema breaks the
// portability rules of DECISIONS D1: the root must be type object with
// properties and additionalProperties false, carry no
// oneOf/anyOf/allOf/not/if/then/else, list only declared properties in
// required, and no $ref (or $defs) may appear anywhere. A dependentSchemas
// subschema applies to the root object too, so it carries none of the
// root's forbidden keywords either. An empty result means the schema is
// portable.
func CheckPortable(schema json.RawMessage) []string {
	var root map[string]any
	if err := decodeNumber(schema, &root); err != nil {
		return []string{"decode schema: " + err.Error()}
	}
	var out []string
	if root["type"] != "object" {
		out = append(out, fmt.Sprintf("root type is %v, want \"object\"", root["type"]))
	}
	for _, k := range rootForbidden {
		if _, ok := root[k]; ok {
			out = append(out, "root carries "+k)
		}
	}
	if ap, ok := root["additionalProperties"]; !ok || ap != false {
		out = append(out, "root additionalProperties is not false")
	}
	props, ok := root["properties"].(map[string]any)
	if !ok {
		out = append(out, "root has no properties object")
	}
	if req, ok := root["required"]; ok {
		arr, isArr := req.([]any)
		if !isArr {
			out = append(out, "root required is not an array")
		}
		for _, r := range arr {
			s, _ := r.(string)
			if _, ok := props[s]; !ok {
				out = append(out, fmt.Sprintf("required %q is not a declared property", s))
			}
		}
	}
	if deps, ok := root["dependentSchemas"].(map[string]any); ok {
		for _, name := range slices.Sorted(maps.Keys(deps)) {
			d, _ := deps[name].(map[string]any)
			for _, k := range rootForbidden {
				if _, ok := d[k]; ok {
					out = append(out, fmt.Sprintf("/dependentSchemas/%s carries %s", escape(name), k))
				}
			}
		}
	}
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		switch t := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				for _, f := range anywhereForbidden {
					if k == f {
						out = append(out, fmt.Sprintf("%s carries %s", pointerOrRoot(ptr), k))
					}
				}
				walk(t[k], ptr+"/"+escape(k))
			}
		case []any:
			for i, x := range t {
				walk(x, fmt.Sprintf("%s/%d", ptr, i))
			}
		}
	}
	walk(root, "")
	return out
}

func pointerOrRoot(p string) string {
	if p == "" {
		return "root"
	}
	return p
}

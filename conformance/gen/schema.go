package gen

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

// Args returns a generator of argument objects for tool, aimed at its
// strict input schema: one oneOf branch, every required property, a random
// subset of the optional ones, values inside the declared bounds.
func Args(tool string) (*rapid.Generator[json.RawMessage], error) {
	raw, err := spec.InputSchema(tool)
	if err != nil {
		return nil, fmt.Errorf("generate arguments of %s: %w", tool, err)
	}
	g, err := FromSchema(raw)
	if err != nil {
		return nil, fmt.Errorf("generate arguments of %s: %w", tool, err)
	}
	return rapid.Map(g, mustJSON), nil
}

// FromSchema returns a generator of instances aimed at a JSON schema (the
// keywords the strict input schemas use: type, const, enum, oneOf, anyOf,
// properties, required, additionalProperties, propertyNames, min/max
// Properties, items, min/max Items, uniqueItems, min/max Length, pattern,
// format date-time, minimum, maximum, multipleOf).
func FromSchema(raw json.RawMessage) (*rapid.Generator[any], error) {
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, fmt.Errorf("decode schema: %w", err)
	}
	return rapid.Custom(func(t *rapid.T) any { return draw(t, root, "") }), nil
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("encode generated value: %v", err))
	}
	return b
}

// merge returns base without its combinators, overlaid with alt: the
// properties are united, required lists concatenated.
func merge(base, alt map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range base {
		if k != "oneOf" && k != "anyOf" {
			out[k] = v
		}
	}
	for k, v := range alt {
		switch k {
		case "properties":
			props := map[string]any{}
			if p, ok := out["properties"].(map[string]any); ok {
				for pk, pv := range p {
					props[pk] = pv
				}
			}
			for pk, pv := range v.(map[string]any) {
				props[pk] = pv
			}
			out[k] = props
		case "required":
			var req []any
			if r, ok := out["required"].([]any); ok {
				req = append(req, r...)
			}
			out[k] = append(req, v.([]any)...)
		default:
			out[k] = v
		}
	}
	return out
}

func draw(t *rapid.T, s map[string]any, path string) any {
	if c, ok := s["const"]; ok {
		return c
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return rapid.SampledFrom(e).Draw(t, path+"/enum")
	}
	for _, comb := range []string{"oneOf", "anyOf"} {
		if alts, ok := s[comb].([]any); ok && len(alts) > 0 {
			i := rapid.IntRange(0, len(alts)-1).Draw(t, path+"/"+comb)
			alt, _ := alts[i].(map[string]any)
			return draw(t, merge(s, alt), path)
		}
	}
	typ := schemaType(t, s, path)
	switch typ {
	case "object":
		return drawObject(t, s, path)
	case "array":
		return drawArray(t, s, path)
	case "string":
		return drawString(t, s, path)
	case "integer":
		return drawInteger(t, s, path)
	case "number":
		lo, hi := bounds(s, -1e6, 1e6)
		return rapid.Float64Range(lo, hi).Draw(t, path)
	case "boolean":
		return rapid.Bool().Draw(t, path)
	case "null":
		return nil
	}
	if _, ok := s["properties"]; ok {
		return drawObject(t, s, path)
	}
	return rapid.SampledFrom([]any{"x", float64(1), true, nil}).Draw(t, path+"/any")
}

func schemaType(t *rapid.T, s map[string]any, path string) string {
	switch v := s["type"].(type) {
	case string:
		return v
	case []any:
		var ts []string
		for _, x := range v {
			if str, ok := x.(string); ok {
				ts = append(ts, str)
			}
		}
		if len(ts) > 0 {
			return rapid.SampledFrom(ts).Draw(t, path+"/type")
		}
	}
	return ""
}

func number(v any) (float64, bool) {
	f, ok := v.(float64)
	return f, ok
}

func bounds(s map[string]any, lo, hi float64) (float64, float64) {
	if v, ok := number(s["minimum"]); ok {
		lo = v
	}
	if v, ok := number(s["maximum"]); ok {
		hi = v
	}
	if hi < lo {
		hi = lo
	}
	return lo, hi
}

func drawObject(t *rapid.T, s map[string]any, path string) any {
	props, _ := s["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	rules := objectRules{s}
	chosen := rules.closed(map[string]bool{}, stringsOf(s["required"]))
	for _, n := range names {
		if chosen[n] || !rapid.Bool().Draw(t, path+"/"+n+"?") {
			continue
		}
		// an optional member joins with the members it requires, unless
		// the rules of the members present leave some member no value
		if with := rules.closed(chosen, []string{n}); rules.consistent(with, props) {
			chosen = with
		}
	}
	out := map[string]any{}
	for _, n := range names {
		if chosen[n] {
			ps, _ := props[n].(map[string]any)
			out[n] = draw(t, rules.narrow(chosen, n, ps), path+"/"+n)
		}
	}
	for n := range chosen {
		if _, ok := out[n]; !ok {
			out[n] = "x" // a required name the schema does not describe
		}
	}
	if extra, ok := s["additionalProperties"].(map[string]any); ok && len(props) == 0 {
		minP, _ := number(s["minProperties"])
		maxP, ok := number(s["maxProperties"])
		if !ok {
			maxP = minP + 3
		}
		n := rapid.IntRange(int(minP), int(math.Min(maxP, minP+3))).Draw(t, path+"/#props")
		keys := rapid.StringMatching(`^[a-z][a-zA-Z0-9]{0,15}$`)
		if pn, ok := s["propertyNames"].(map[string]any); ok {
			if p, ok := pn["pattern"].(string); ok {
				keys = rapid.StringMatching(spec.ECMAPattern(p))
			}
		}
		for i := 0; i < n; i++ {
			k := keys.Draw(t, path+"/#key")
			out[k] = draw(t, extra, path+"/"+k)
		}
	}
	return out
}

func drawArray(t *rapid.T, s map[string]any, path string) any {
	items, _ := s["items"].(map[string]any)
	minN, _ := number(s["minItems"])
	maxN, ok := number(s["maxItems"])
	if !ok || maxN > minN+5 {
		maxN = minN + 5
	}
	n := rapid.IntRange(int(minN), int(maxN)).Draw(t, path+"/#items")
	unique, _ := s["uniqueItems"].(bool)
	var out []any
	seen := map[string]bool{}
	for i := 0; len(out) < n && i < n*4+4; i++ {
		v := draw(t, items, fmt.Sprintf("%s/%d", path, len(out)))
		key := string(mustJSON(v))
		if unique && seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, v)
	}
	if out == nil {
		out = []any{}
	}
	return out
}

// alphabets of generated free text: plain words, then unicode and
// punctuation that must survive escaping.
var textRunes = []*rapid.Generator[rune]{
	rapid.RuneFrom([]rune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ")),
	rapid.RuneFrom([]rune("éèüñçßøåÆ中文日本語한국어ёжשלוםمرحبا🎬🍿 /?#%&+=:;'\"\\<>.")),
	rapid.Rune(),
}

func drawString(t *rapid.T, s map[string]any, path string) any {
	if f, _ := s["format"].(string); f == "date-time" {
		sec := rapid.Int64Range(0, 4102444800).Draw(t, path+"/epoch")
		return time.Unix(sec, 0).UTC().Format(time.RFC3339)
	}
	minL, _ := number(s["minLength"])
	maxL, ok := number(s["maxLength"])
	if !ok || maxL > minL+40 {
		maxL = minL + 40
	}
	pattern, _ := s["pattern"].(string)
	var v string
	if strings.HasPrefix(pattern, "^") {
		v = rapid.StringMatching(spec.ECMAPattern(pattern)).Draw(t, path)
	} else {
		alpha := rapid.IntRange(0, len(textRunes)-1).Draw(t, path+"/#alphabet")
		v = rapid.StringOfN(textRunes[alpha], int(minL), int(maxL), -1).Draw(t, path)
		if pattern != "" {
			if re, err := regexp.Compile(pattern); err == nil && !re.MatchString(v) {
				v = "x" + v
			}
		}
	}
	if utf8.RuneCountInString(v) > int(maxL) && ok {
		v = string([]rune(v)[:int(maxL)])
	}
	return v
}

func drawInteger(t *rapid.T, s map[string]any, path string) any {
	lo, hi := bounds(s, -1000, 1000000)
	if hi-lo > 1000 && rapid.Bool().Draw(t, path+"/#small") {
		hi = lo + 1000 // mostly small ids, which the mock may hold
	}
	n := rapid.Int64Range(int64(lo), int64(hi)).Draw(t, path)
	if m, ok := number(s["multipleOf"]); ok && m >= 1 {
		n = n / int64(m) * int64(m)
		if float64(n) < lo {
			n += int64(m)
		}
	}
	return float64(n)
}

// objectRules reads an object schema's rules between its members:
// dependentRequired (a member present requires others) and dependentSchemas
// (a member present narrows others; the portable schemas hold enums there,
// such as read_votes media only with action by_request).
type objectRules struct{ s map[string]any }

// closed returns chosen with add and every member they require, transitively.
func (r objectRules) closed(chosen map[string]bool, add []string) map[string]bool {
	out := make(map[string]bool, len(chosen)+len(add))
	for n := range chosen {
		out[n] = true
	}
	deps, _ := r.s["dependentRequired"].(map[string]any)
	for len(add) > 0 {
		n := add[0]
		add = add[1:]
		if out[n] {
			continue
		}
		out[n] = true
		add = append(add, stringsOf(deps[n])...)
	}
	return out
}

// allowed returns the values member n may take with the members chosen
// present: its own enum or const narrowed by the dependentSchemas of the
// others; nil and false when nothing limits it to a list.
func (r objectRules) allowed(chosen map[string]bool, n string, own map[string]any) ([]any, bool) {
	vals, limited := listed(own)
	deps, _ := r.s["dependentSchemas"].(map[string]any)
	keys := make([]string, 0, len(deps))
	for k := range deps {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !chosen[k] || k == n {
			continue
		}
		dep, _ := deps[k].(map[string]any)
		dp, _ := dep["properties"].(map[string]any)
		rule, _ := dp[n].(map[string]any)
		these, ok := listed(rule)
		if !ok {
			continue
		}
		if !limited {
			vals, limited = these, true
			continue
		}
		var both []any
		for _, v := range vals {
			if slices.ContainsFunc(these, func(w any) bool { return fmt.Sprint(w) == fmt.Sprint(v) }) {
				both = append(both, v)
			}
		}
		vals = both
	}
	return vals, limited
}

// listed returns the values a schema's const or enum allows; false when
// it has neither.
func listed(s map[string]any) ([]any, bool) {
	if c, ok := s["const"]; ok {
		return []any{c}, true
	}
	e, ok := s["enum"].([]any)
	return e, ok
}

// consistent reports whether every member chosen still has a value.
func (r objectRules) consistent(chosen map[string]bool, props map[string]any) bool {
	for n := range chosen {
		own, _ := props[n].(map[string]any)
		if vals, limited := r.allowed(chosen, n, own); limited && len(vals) == 0 {
			return false
		}
	}
	return true
}

// narrow returns member n's schema with its values limited to those the
// members chosen allow.
func (r objectRules) narrow(chosen map[string]bool, n string, own map[string]any) map[string]any {
	vals, limited := r.allowed(chosen, n, own)
	if !limited || len(vals) == 0 {
		return own
	}
	out := map[string]any{"enum": vals}
	for k, v := range own {
		switch k {
		case "const", "enum", "oneOf", "anyOf":
		default:
			out[k] = v
		}
	}
	return out
}

func stringsOf(v any) []string {
	xs, _ := v.([]any)
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if n, ok := x.(string); ok {
			out = append(out, n)
		}
	}
	return out
}

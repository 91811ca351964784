package gen

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"pgregory.net/rapid"
)

// Kinds of fuzzed arguments.
const (
	KindValid     = "valid"      // drawn from the strict schema
	KindNearValid = "near-valid" // a drawn object with one mutation
	KindHostile   = "hostile"    // huge, deep, mistyped, unicode or traversal values
)

// Fuzzed is one generated argument object and how it was made.
type Fuzzed struct {
	Kind string          // KindValid, KindNearValid or KindHostile
	How  string          // the mutation applied, "" for KindValid
	Args json.RawMessage // the arguments as sent (may be any JSON value)
}

// Traversals are identifier values that try to leave their path segment.
var Traversals = []string{
	"../../api/v1/Settings/ombi", "..%2F..%2Fapi%2Fv1%2FSettings", "..", ".", "/etc/passwd",
	"a/b?c=d#e", "%00", "x\u0000y", "..\\..\\windows", "%2e%2e%2f", "http://169.254.169.254/", "?", "#",
}

// hostileStrings are single values that stress decoding and escaping.
var hostileStrings = []string{
	"\u202eevil\u202c", "\ufeffbom", "\u0000", "\ud7ff\ue000", "\U0001F600\U0001F3AC", "e\u0301", " ", "\t\n",
	"<script>alert(1)</script>", "'; DROP TABLE requests; --", "${jndi:ldap://x}", "%s%n%x", "\\u0000",
}

// Fuzz returns arguments around the strict schema of tool: valid-leaning
// objects, near-valid ones (one mutation) and hostile ones.
func Fuzz(tool string) (*rapid.Generator[Fuzzed], error) {
	args, err := Args(tool)
	if err != nil {
		return nil, err
	}
	return rapid.Custom(func(t *rapid.T) Fuzzed {
		base := args.Draw(t, "base")
		switch rapid.SampledFrom([]string{KindValid, KindNearValid, KindHostile}).Draw(t, "kind") {
		case KindNearValid:
			how, v := nearValid(t, decodeObject(base))
			return Fuzzed{Kind: KindNearValid, How: how, Args: v}
		case KindHostile:
			how, v := hostile(t, decodeObject(base))
			return Fuzzed{Kind: KindHostile, How: how, Args: v}
		}
		return Fuzzed{Kind: KindValid, Args: base}
	}), nil
}

func decodeObject(raw json.RawMessage) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	if m == nil {
		m = map[string]any{}
	}
	return m
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// pickKey draws one key of m, or "" when m is empty.
func pickKey(t *rapid.T, m map[string]any, label string) string {
	keys := sortedKeys(m)
	if len(keys) == 0 {
		return ""
	}
	return rapid.SampledFrom(keys).Draw(t, label)
}

func nearValid(t *rapid.T, m map[string]any) (string, json.RawMessage) {
	k := pickKey(t, m, "field")
	op := rapid.SampledFrom([]string{"drop", "extra", "wrong-type", "out-of-range", "empty-string", "long-string", "bad-discriminator", "null"}).Draw(t, "mutation")
	if k == "" && op != "extra" {
		op = "extra"
	}
	switch op {
	case "drop":
		delete(m, k)
	case "extra":
		k = rapid.SampledFrom([]string{"unexpected_property", "action_code", "status_code", "__proto__", "constructor", "Action"}).Draw(t, "extra")
		m[k] = rapid.SampledFrom([]any{true, float64(1), "x", nil, map[string]any{}}).Draw(t, "extra value")
	case "wrong-type":
		m[k] = rapid.SampledFrom([]any{"1", float64(1), 1.5, true, []any{}, map[string]any{}, []any{m[k]}}).Draw(t, "wrong value")
	case "out-of-range":
		m[k] = rapid.SampledFrom([]any{float64(-1), float64(0), float64(2147483648), 1e300, -1e300, float64(9007199254740993)}).Draw(t, "number")
	case "empty-string":
		m[k] = rapid.SampledFrom([]string{"", " ", "\t", "\u00a0", "\u3000"}).Draw(t, "blank")
	case "long-string":
		m[k] = strings.Repeat("x", rapid.SampledFrom([]int{201, 1000, 5000}).Draw(t, "length"))
	case "bad-discriminator":
		m["action"] = rapid.SampledFrom([]any{"LIST", "list ", "", "unknown_action", float64(1), nil}).Draw(t, "action")
	case "null":
		m[k] = nil
	}
	return op + " " + k, mustJSON(m)
}

func hostile(t *rapid.T, m map[string]any) (string, json.RawMessage) {
	op := rapid.SampledFrom([]string{"huge-string", "deep-array", "deep-object", "root-type", "unicode", "traversal", "many-properties", "duplicate-keys"}).Draw(t, "hostile")
	k := pickKey(t, m, "field")
	if k == "" {
		k = "action"
	}
	switch op {
	case "huge-string":
		n := rapid.SampledFrom([]int{64 << 10, 1 << 20, 4 << 20}).Draw(t, "huge length")
		m[k] = strings.Repeat("A", n)
	case "deep-array":
		d := rapid.SampledFrom([]int{64, 1000, 5000, 9000}).Draw(t, "depth")
		return fmt.Sprintf("%s %s depth %d", op, k, d), withRaw(m, k, strings.Repeat("[", d)+strings.Repeat("]", d))
	case "deep-object":
		d := rapid.SampledFrom([]int{64, 1000, 5000}).Draw(t, "depth")
		return fmt.Sprintf("%s %s depth %d", op, k, d), withRaw(m, k, strings.Repeat(`{"a":`, d)+"1"+strings.Repeat("}", d))
	case "root-type":
		v := rapid.SampledFrom([]string{`[]`, `"read"`, `42`, `null`, `true`, `[{"action":"list"}]`}).Draw(t, "root")
		return op + " " + v, json.RawMessage(v)
	case "unicode":
		m[k] = rapid.SampledFrom(hostileStrings).Draw(t, "unicode")
		if rapid.Bool().Draw(t, "raw surrogate") {
			return op + " lone surrogate in " + k, withRaw(m, k, `"\ud800x\udfff"`)
		}
	case "traversal":
		tr := rapid.SampledFrom(Traversals).Draw(t, "traversal")
		m[k] = tr // on an integer id this is also a wrong type
		return op + " " + k + "=" + tr, mustJSON(m)
	case "many-properties":
		for i := range rapid.SampledFrom([]int{100, 5000}).Draw(t, "count") {
			m[fmt.Sprintf("p%d", i)] = i
		}
	case "duplicate-keys":
		return op + " " + k, withRaw(m, k, `"first"`, `"second"`)
	}
	return op + " " + k, mustJSON(m)
}

// withRaw encodes m with key k set to each raw JSON text in order (two texts
// give a duplicate key).
func withRaw(m map[string]any, k string, raws ...string) json.RawMessage {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for _, key := range sortedKeys(m) {
		if key == k {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		kb, _ := json.Marshal(key)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(mustJSON(m[key]))
	}
	kb, _ := json.Marshal(k)
	for _, r := range raws {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.Write(kb)
		b.WriteByte(':')
		b.WriteString(r)
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

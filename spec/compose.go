package spec

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
)

const defsPrefix = "#/$defs/"

var loadDefs = sync.OnceValues(func() (map[string]json.RawMessage, error) {
	b, err := File("defs.json")
	if err != nil {
		return nil, err
	}
	var d struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("decode defs.json: %w", err)
	}
	return d.Defs, nil
})

// DefNames returns the names of every shared definition, sorted.
func DefNames() []string {
	d, err := loadDefs()
	if err != nil {
		panic(err)
	}
	var names []string
	for n := range d {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Closure returns the transitive closure of the named definitions: the names
// themselves plus every definition reachable by following $ref inside them,
// sorted.
func Closure(roots ...string) ([]string, error) {
	defs, err := loadDefs()
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	queue := append([]string(nil), roots...)
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if seen[n] {
			continue
		}
		raw, ok := defs[n]
		if !ok {
			return nil, fmt.Errorf("closure: unknown definition %q", n)
		}
		seen[n] = true
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, fmt.Errorf("closure: decode %s: %w", n, err)
		}
		queue = append(queue, refsIn(v)...)
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

func refsIn(v any) []string {
	var out []string
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			if s, ok := c.(string); ok && k == "$ref" && strings.HasPrefix(s, defsPrefix) {
				out = append(out, strings.TrimPrefix(s, defsPrefix))
				continue
			}
			out = append(out, refsIn(c)...)
		}
	case []any:
		for _, c := range t {
			out = append(out, refsIn(c)...)
		}
	}
	return out
}

var composed sync.Map // tool name -> json.RawMessage

// OutputSchema composes a tool's outputSchema by the rule of the results
// document: the envelope template with operation.const set to the tool name,
// data.oneOf listing the tool's allowed families, and $defs holding exactly the
// transitive closure of error plus those families.
func OutputSchema(tool string) (json.RawMessage, error) {
	if v, ok := composed.Load(tool); ok {
		return v.(json.RawMessage), nil
	}
	t, ok := Lookup(tool)
	if !ok {
		return nil, fmt.Errorf("output schema: unknown tool %q", tool)
	}
	out, err := composeOutput(t.Name, t.Families, true)
	if err != nil {
		return nil, err
	}
	composed.Store(tool, out)
	return out, nil
}

// UnprunedOutputSchema composes a tool's outputSchema with the whole shared
// library in $defs, as it would look without closure pruning. It exists to
// measure what pruning saves.
func UnprunedOutputSchema(tool string) (json.RawMessage, error) {
	t, ok := Lookup(tool)
	if !ok {
		return nil, fmt.Errorf("output schema: unknown tool %q", tool)
	}
	return composeOutput(t.Name, t.Families, false)
}

func composeOutput(name string, families []string, prune bool) (json.RawMessage, error) {
	b, err := File("envelope.json")
	if err != nil {
		return nil, err
	}
	var env map[string]any
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, fmt.Errorf("decode envelope.json: %w", err)
	}
	props := env["properties"].(map[string]any)
	props["operation"] = map[string]any{"const": name}
	var oneOf []any
	for _, f := range families {
		oneOf = append(oneOf, map[string]any{"$ref": defsPrefix + f})
	}
	props["data"] = map[string]any{"oneOf": oneOf}
	defs, err := loadDefs()
	if err != nil {
		return nil, err
	}
	names := DefNames()
	if prune {
		names, err = Closure(append([]string{"error"}, families...)...)
		if err != nil {
			return nil, fmt.Errorf("compose %s: %w", name, err)
		}
	}
	closure := map[string]json.RawMessage{}
	for _, n := range names {
		closure[n] = defs[n]
	}
	env["$defs"] = closure
	out, err := json.Marshal(env)
	if err != nil {
		return nil, fmt.Errorf("compose %s: %w", name, err)
	}
	return out, nil
}

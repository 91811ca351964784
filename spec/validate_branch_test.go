package spec

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"
)

// TestDiscriminator table-tests which schema documents validate through the
// one branch their discriminator selects: only an object schema whose sole
// assertion is a oneOf with a distinct string const on one property in
// every branch.
func TestDiscriminator(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		prop      string // "" when no discriminator
	}{
		{"two branches", branchSchema, "action"},
		{"annotations beside the oneOf", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "t", "description": "d", "$defs": {}, "type": "object",
			"oneOf": [{"properties": {"a": {"const": "x"}}}, {"properties": {"a": {"const": "y"}}}]}`, "a"},
		{"the first shared const wins", `{"type": "object", "oneOf": [{"properties": {"b": {"const": "1"}, "a": {"const": "x"}}}, {"properties": {"a": {"const": "y"}, "b": {"const": "2"}}}]}`, "a"},
		{"a property pinned only in some branches is passed over", `{"type": "object", "oneOf": [{"properties": {"a": {"const": "x"}, "b": {"const": "1"}}}, {"properties": {"b": {"const": "2"}}}]}`, "b"},
		{"required at the top", `{"type": "object", "required": ["q"], "oneOf": [{"properties": {"a": {"const": "x"}}}, {"properties": {"a": {"const": "y"}}}]}`, ""},
		{"properties at the top", `{"type": "object", "properties": {"q": {"type": "string"}}, "oneOf": [{"properties": {"a": {"const": "x"}}}, {"properties": {"a": {"const": "y"}}}]}`, ""},
		{"anyOf, not oneOf", `{"type": "object", "anyOf": [{"properties": {"a": {"const": "x"}}}, {"properties": {"a": {"const": "y"}}}]}`, ""},
		{"not an object schema", `{"oneOf": [{"properties": {"a": {"const": "x"}}}, {"properties": {"a": {"const": "y"}}}]}`, ""},
		{"one branch", `{"type": "object", "oneOf": [{"properties": {"a": {"const": "x"}}}]}`, ""},
		{"a shared const", `{"type": "object", "oneOf": [{"properties": {"a": {"const": "x"}}}, {"properties": {"a": {"const": "x"}}}]}`, ""},
		{"an enum, not a const", `{"type": "object", "oneOf": [{"properties": {"a": {"const": "x"}}}, {"properties": {"a": {"enum": ["y"]}}}]}`, ""},
		{"a const that is no string", `{"type": "object", "oneOf": [{"properties": {"a": {"const": "x"}}}, {"properties": {"a": {"const": 2}}}]}`, ""},
		{"a branch by reference", `{"type": "object", "$defs": {"y": {"properties": {"a": {"const": "y"}}}}, "oneOf": [{"properties": {"a": {"const": "x"}}}, {"$ref": "#/$defs/y"}]}`, ""},
		{"a boolean branch", `{"type": "object", "oneOf": [{"properties": {"a": {"const": "x"}}}, true]}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(tc.doc)))
			if err != nil {
				t.Fatal(err)
			}
			prop, index, ok := discriminator(doc)
			if prop != tc.prop || ok != (tc.prop != "") {
				t.Fatalf("discriminator = %q, %v; want %q", prop, ok, tc.prop)
			}
			if ok {
				branches, _ := doc.(map[string]any)["oneOf"].([]any)
				for value, i := range index {
					if got := branches[i].(map[string]any)["properties"].(map[string]any)[prop].(map[string]any)["const"]; got != value {
						t.Errorf("index[%q] = %d, whose const is %v", value, i, got)
					}
				}
				if len(index) != len(branches) {
					t.Errorf("index has %d branches, the oneOf %d", len(index), len(branches))
				}
			}
		})
	}
}

// TestValidator_branchAgreesWithFull is the clause the one-branch shortcut
// rests on: for every input, published and output schema of the catalogue,
// and for synthetic schemas with assertions beside the oneOf, an instance
// whose discriminator selects a branch is valid against that branch exactly
// when it is valid against the whole schema. Instances are the example
// tables' arguments, changed at random (a property dropped, replaced by
// another value, added, or the discriminator moved to another branch). Every
// catalogue schema with a discriminator must take the shortcut for at least
// one example.
func TestValidator_branchAgreesWithFull(t *testing.T) {
	args, results := exampleSeeds(t)
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	type target struct {
		name  string
		l     *lazySchema
		seeds []map[string]any
	}
	var targets []target
	for _, set := range []struct {
		schemas map[string]*lazySchema
		seeds   map[string][]map[string]any
	}{{v.input, args}, {v.published, args}, {v.output, results}} {
		for _, name := range sortedNames(set.schemas) {
			l := set.schemas[name]
			if _, err := l.compiled(); err != nil {
				t.Fatal(err)
			}
			if len(set.seeds[name]) > 0 {
				targets = append(targets, target{l.url, l, set.seeds[name]})
			}
		}
	}
	for i, doc := range []string{
		`{"type": "object", "required": ["q"], "oneOf": [{"properties": {"action": {"const": "x"}}}, {"properties": {"action": {"const": "y"}}}]}`,
		`{"type": "object", "properties": {"q": {"type": "string"}}, "oneOf": [{"properties": {"action": {"const": "x"}}}, {"properties": {"action": {"const": "y"}}}]}`,
		`{"type": "object", "maxProperties": 1, "oneOf": [{"properties": {"action": {"const": "x"}}}, {"properties": {"action": {"const": "y"}}}]}`,
	} {
		l := &lazySchema{url: "mem://synthetic/" + string(rune('a'+i)) + ".json", get: func(string) (json.RawMessage, error) { return json.RawMessage(doc), nil }}
		if _, err := l.compiled(); err != nil {
			t.Fatal(err)
		}
		targets = append(targets, target{l.url, l, []map[string]any{{"action": "x"}, {"action": "y", "q": "s"}, {"action": "x", "q": 1}}})
	}
	// agree checks the clause for one instance and reports whether it took
	// the shortcut.
	agree := func(tb interface{ Fatalf(string, ...any) }, tg target, inst map[string]any) bool {
		decoded := jsonRound(t, inst)
		value, _ := inst[tg.l.disc].(string)
		if tg.l.branches[value] == nil {
			return false
		}
		full := tg.l.s.Validate(decoded) == nil
		got := tg.l.branch(decoded)
		if got != full {
			tb.Fatalf("%s: %v is valid against its branch: %v, against the whole schema: %v", tg.name, inst, got, full)
		}
		return got
	}
	for _, tg := range targets {
		took := false
		for _, s := range tg.seeds {
			took = agree(t, tg, s) || took
		}
		if tg.l.branches != nil && !took && slices.ContainsFunc(tg.seeds, func(s map[string]any) bool { return tg.l.s.Validate(jsonRound(t, s)) == nil }) {
			t.Errorf("%s: no valid example took the one-branch shortcut", tg.name)
		}
	}
	rapid.Check(t, func(rt *rapid.T) {
		tg := rapid.SampledFrom(targets).Draw(rt, "schema")
		agree(rt, tg, mutate(rt, tg.l, rapid.SampledFrom(tg.seeds).Draw(rt, "example")))
	})
}

// mutate changes a copy of args at random: drops a property, gives one
// another value, adds one, or moves the discriminator to another branch.
func mutate(rt *rapid.T, l *lazySchema, args map[string]any) map[string]any {
	out := maps.Clone(args)
	keys := slices.Sorted(maps.Keys(out))
	values := []any{"", "x", "movie", "tv", "2026-01-01T00:00:00Z", 0, -1, 1, 2.5, 1e12, true, false, nil, []any{}, []any{"x"}, map[string]any{}, map[string]any{"limit": 5}}
	for range rapid.IntRange(0, 3).Draw(rt, "changes") {
		switch rapid.IntRange(0, 3).Draw(rt, "change") {
		case 0:
			if len(keys) > 0 {
				delete(out, rapid.SampledFrom(keys).Draw(rt, "drop"))
			}
		case 1:
			if len(keys) > 0 {
				out[rapid.SampledFrom(keys).Draw(rt, "key")] = rapid.SampledFrom(values).Draw(rt, "value")
			}
		case 2:
			out[rapid.SampledFrom([]string{"extra", "page", "media", "query", "id"}).Draw(rt, "add")] = rapid.SampledFrom(values).Draw(rt, "value")
		case 3:
			if len(l.branches) > 0 {
				out[l.disc] = rapid.SampledFrom(slices.Sorted(maps.Keys(l.branches))).Draw(rt, "branch")
			}
		}
	}
	return out
}

// exampleSeeds is every argument object and every result object of the
// example tables (valid and invalid), by tool.
func exampleSeeds(t *testing.T) (args, results map[string][]map[string]any) {
	t.Helper()
	paths, err := filepath.Glob("../fixtures/schema/*.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("example tables: %v (%d)", err, len(paths))
	}
	args, results = map[string][]map[string]any{}, map[string][]map[string]any{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var tab struct {
			Tool  string `json:"tool"`
			Valid []struct {
				Args json.RawMessage `json:"args"`
			} `json:"valid"`
			Invalid []struct {
				Args json.RawMessage `json:"args"`
			} `json:"invalid"`
			Results struct {
				Valid, Invalid []struct {
					Result json.RawMessage `json:"result"`
				}
			} `json:"results"`
		}
		if err := json.Unmarshal(b, &tab); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, e := range append(tab.Valid, tab.Invalid...) {
			var m map[string]any
			if json.Unmarshal(e.Args, &m) == nil && m != nil {
				args[tab.Tool] = append(args[tab.Tool], m)
			}
		}
		for _, e := range append(tab.Results.Valid, tab.Results.Invalid...) {
			var m map[string]any
			if json.Unmarshal(e.Result, &m) == nil && m != nil {
				results[tab.Tool] = append(results[tab.Tool], m)
			}
		}
	}
	return args, results
}

func jsonRound(t testing.TB, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := instance(raw)
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

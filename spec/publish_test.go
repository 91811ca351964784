package spec

import (
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"testing"
)

// admittedTypes is the set of JSON types a schema node admits, read from
// its type, const, enum and nested oneOf/anyOf; nil when the node does not
// narrow the types (an empty schema, a type list the test does not read).
func admittedTypes(node map[string]any) []string {
	switch t := node["type"].(type) {
	case string:
		return []string{t}
	case []any:
		return nil
	}
	if c, ok := node["const"]; ok {
		return []string{jsonTypeOf(c)}
	}
	if e, ok := node["enum"].([]any); ok {
		set := map[string]bool{}
		for _, v := range e {
			set[jsonTypeOf(v)] = true
		}
		return slices.Sorted(maps.Keys(set))
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		members, ok := node[k].([]any)
		if !ok {
			continue
		}
		set := map[string]bool{}
		for _, m := range members {
			mm, _ := m.(map[string]any)
			ts := admittedTypes(mm)
			if ts == nil {
				return nil
			}
			for _, t := range ts {
				set[t] = true
			}
		}
		return slices.Sorted(maps.Keys(set))
	}
	return nil
}

// jsonTypeOf is jsonType, for numbers decoded as float64 too.
func jsonTypeOf(v any) string {
	if x, ok := v.(float64); ok {
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	}
	if t := jsonType(v); t != "" {
		return t
	}
	return fmt.Sprintf("%T", v)
}

// propertySchemas calls fn with every schema a published input schema
// places at a property, an array item or a member of a nested combinator,
// and its JSON Pointer.
func propertySchemas(node map[string]any, ptr string, fn func(map[string]any, string)) {
	if props, ok := node["properties"].(map[string]any); ok {
		for _, name := range slices.Sorted(maps.Keys(props)) {
			p, _ := props[name].(map[string]any)
			fn(p, ptr+"/properties/"+escape(name))
			propertySchemas(p, ptr+"/properties/"+escape(name), fn)
		}
	}
	if items, ok := node["items"].(map[string]any); ok {
		fn(items, ptr+"/items")
		propertySchemas(items, ptr+"/items", fn)
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		members, _ := node[k].([]any)
		for i, m := range members {
			mm, _ := m.(map[string]any)
			p := fmt.Sprintf("%s/%s/%d", ptr, k, i)
			fn(mm, p)
			propertySchemas(mm, p, fn)
		}
	}
}

// TestPublished_typed: a client that reads only a property's "type" (MCP
// Inspector's CLI turns a --tool-arg into an object only when the property
// says "type": "object") can tell how to send every property whose values
// all have one JSON type: such a property says that type.
func TestPublished_typed(t *testing.T) {
	checked := 0
	for _, tool := range Tools() {
		raw, err := PublishedInputSchema(tool.Name)
		if err != nil {
			t.Fatal(err)
		}
		var root map[string]any
		if err := decodeNumber(raw, &root); err != nil {
			t.Fatal(err)
		}
		propertySchemas(root, "", func(node map[string]any, ptr string) {
			checked++
			ts := admittedTypes(node)
			if len(ts) == 1 && node["type"] != ts[0] {
				t.Errorf("%s: %s admits only %s values but says type %v", tool.Name, ptr, ts[0], node["type"])
			}
		})
	}
	if checked < 200 {
		t.Errorf("only %d property schemas checked", checked)
	}
}

// TestPublished_objectProperties: every top-level property whose strict
// schema admits only objects, in every branch that declares it, is
// "type": "object" in the published projection (read_media's target,
// write_request_create's selection).
func TestPublished_objectProperties(t *testing.T) {
	objects := 0
	for _, tool := range Tools() {
		strict, err := InputSchema(tool.Name)
		if err != nil {
			t.Fatal(err)
		}
		var root map[string]any
		if err := decodeNumber(strict, &root); err != nil {
			t.Fatal(err)
		}
		inlined, err := inlineRefs(root, root, 0)
		if err != nil {
			t.Fatal(err)
		}
		root = inlined.(map[string]any)
		branches := []any{root}
		if one, ok := root["oneOf"].([]any); ok {
			branches = one
		}
		variants := map[string][]map[string]any{}
		for _, b := range branches {
			props, _ := b.(map[string]any)["properties"].(map[string]any)
			for name, p := range props {
				variants[name] = append(variants[name], p.(map[string]any))
			}
		}
		raw, _ := PublishedInputSchema(tool.Name)
		var pub struct {
			Properties map[string]struct {
				Type any `json:"type"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(raw, &pub); err != nil {
			t.Fatal(err)
		}
		for _, name := range slices.Sorted(maps.Keys(variants)) {
			onlyObjects := true
			for _, v := range variants[name] {
				onlyObjects = onlyObjects && slices.Equal(admittedTypes(v), []string{"object"})
			}
			if !onlyObjects {
				continue
			}
			objects++
			if got := pub.Properties[name].Type; got != "object" {
				t.Errorf("%s: property %s admits only objects in the strict schema; published type is %v", tool.Name, name, got)
			}
		}
	}
	if objects < 10 {
		t.Errorf("only %d object-valued properties found", objects)
	}
}

// keysOf is a branch's discriminators: its required string consts.
func keysOf(b Branch) map[string]string {
	out := map[string]string{}
	for p, v := range b.Consts {
		if contains(b.Required, p) {
			out[p] = v
		}
	}
	return out
}

// declaring returns the branches that declare property p.
func declaring(bs []Branch, p string) []Branch {
	var out []Branch
	for _, b := range bs {
		if _, ok := b.Schemas[p]; ok {
			out = append(out, b)
		}
	}
	return out
}

func schemaMap(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestPublished_refusesFieldsAnActionDoesNotTake: a property that an action
// does not take (no branch with that action's discriminator values declares
// it) is refused by the published schema when sent with that action, as the
// strict schema refuses it (read_votes {"action":"list","media":"movie"}).
func TestPublished_refusesFieldsAnActionDoesNotTake(t *testing.T) {
	v := newValidator(t)
	n := 0
	for tool, bs := range toolBranches(t) {
		if len(bs) < 2 {
			continue
		}
		var all []string
		for _, b := range bs {
			for _, p := range b.Properties {
				if !contains(all, p) {
					all = append(all, p)
				}
			}
		}
		for _, b := range bs {
			keys := keysOf(b)
			for _, p := range all {
				takes := false
				for _, o := range declaring(bs, p) {
					same := true
					for k, v := range keys {
						same = same && o.Consts[k] == v
					}
					takes = takes || same
				}
				if takes {
					continue
				}
				ex := minimalExample(t, b)
				ex[p] = minimalValue(t, schemaMap(t, declaring(bs, p)[0].Schemas[p]))
				args, _ := json.Marshal(ex)
				n++
				if v.ValidateInput(tool, args) == nil {
					t.Fatalf("%s: strict accepts %s", tool, args)
				}
				if err := v.ValidatePublished(tool, args); !isValidationError(err) {
					t.Errorf("%s: published accepts %s, which branch %s refuses (err %v)", tool, args, b.Title, err)
				}
			}
		}
	}
	if n < 200 {
		t.Errorf("only %d refused fields checked", n)
	}
}

// TestPublished_requiresCoRequiredFields: when a property is present, every
// field that all branches declaring it require is required by the
// published schema too (read_votes media needs request_id).
func TestPublished_requiresCoRequiredFields(t *testing.T) {
	v := newValidator(t)
	n := 0
	for tool, bs := range toolBranches(t) {
		everywhere := func(q string) bool {
			for _, b := range bs {
				if !contains(b.Required, q) {
					return false
				}
			}
			return true
		}
		for _, b := range bs {
			keys := keysOf(b)
			for _, q := range b.Required {
				if _, isKey := keys[q]; isKey || everywhere(q) {
					continue
				}
				ex := minimalExample(t, b)
				delete(ex, q)
				implied := false
				for p := range ex {
					if everywhere(p) {
						continue
					}
					all := true
					for _, o := range declaring(bs, p) {
						all = all && contains(o.Required, q)
					}
					implied = implied || all
				}
				if !implied {
					continue
				}
				args, _ := json.Marshal(ex)
				n++
				if err := v.ValidatePublished(tool, args); !isValidationError(err) {
					t.Errorf("%s: published accepts %s without %s (err %v)", tool, args, q, err)
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d co-required fields checked", n)
	}
}

// TestPublished_acceptsEveryBranchField: a branch's minimal example with
// every optional field of the branch added, when the strict schema accepts
// it, is accepted by the published schema: the per-action rules of the
// projection never refuse what the strict schema takes.
func TestPublished_acceptsEveryBranchField(t *testing.T) {
	v := newValidator(t)
	n := 0
	for tool, bs := range toolBranches(t) {
		for _, b := range bs {
			ex := minimalExample(t, b)
			for _, p := range b.Properties {
				if _, ok := ex[p]; !ok {
					ex[p] = minimalValue(t, schemaMap(t, b.Schemas[p]))
				}
			}
			args, _ := json.Marshal(ex)
			if v.ValidateInput(tool, args) != nil {
				continue
			}
			n++
			if err := v.ValidatePublished(tool, args); err != nil {
				t.Errorf("%s: published refuses strict-valid %s: %v", tool, args, err)
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d full branch examples checked", n)
	}
}

// TestPublished_refusedCalls are the calls issue 36 found refused for rules
// a schema-only client could not see. Where DECISIONS D1 lets the rule into
// the published schema, the published schema refuses the call; where it
// does not (a field required for some values of action needs a conditional
// over the root object: if/then, oneOf, anyOf or not), the published
// schema accepts it and the tool description states the rule.
func TestPublished_refusedCalls(t *testing.T) {
	v := newValidator(t)
	tests := []struct {
		name, tool, args string
		inSchema         bool
		rule             string // the description line that states the rule
	}{
		{"list takes no media", "read_votes", `{"action":"list","media":"movie"}`, true, "\n- action=list: allows page\n"},
		{"by_request needs request_id", "read_votes", `{"action":"by_request","media":"movie"}`, true, "\n- action=by_request: requires media(movie|tv|album), request_id; allows page"},
		{"tvdb takes no language", "write_request_create", `{"action":"tv","provider":"tvdb","id":1,"selection":{"mode":"all"},"language":"en"}`, true, "\n- action=tv provider=tvdb: requires id, selection; allows language_profile_id,"},
		{"list needs status", "read_issues", `{"action":"list"}`, false, "\n- action=list|summary: requires status(pending|in_progress|resolved|closed); allows page\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if v.ValidateInput(tt.tool, []byte(tt.args)) == nil {
				t.Fatalf("strict accepts %s", tt.args)
			}
			err := v.ValidatePublished(tt.tool, []byte(tt.args))
			if refused := err != nil; refused != tt.inSchema {
				t.Errorf("published schema refuses %s = %v, want %v (err %v)", tt.args, refused, tt.inSchema, err)
			}
			if d := Description(tt.tool); !strings.Contains(d, tt.rule) {
				t.Errorf("Description(%s) lacks %q:\n%s", tt.tool, tt.rule, d)
			}
		})
	}
}

// toolBranches yields every tool of the catalogue with its branches.
func toolBranches(t *testing.T) iter.Seq2[string, []Branch] {
	t.Helper()
	return func(yield func(string, []Branch) bool) {
		for _, tool := range Tools() {
			bs, err := Branches(tool.Name)
			if err != nil {
				t.Fatal(err)
			}
			if !yield(tool.Name, bs) {
				return
			}
		}
	}
}

// isValidationError reports whether err is the validator's refusal of the
// arguments (not a failure to validate at all).
func isValidationError(err error) bool {
	var ve *ValidationError
	return errors.As(err, &ve)
}

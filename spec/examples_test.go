package spec_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

// examplesDir holds one example table per tool (fixtures/schema/README.md).
const examplesDir = "../fixtures/schema"

type inputExample struct {
	Name    string          `json:"name"`
	Args    json.RawMessage `json:"args"`
	Pointer *string         `json:"pointer"`
	Why     string          `json:"why"`
}

type resultExample struct {
	Name   string          `json:"name"`
	Result json.RawMessage `json:"result"`
	Why    string          `json:"why"`
}

type exampleTable struct {
	Tool    string         `json:"tool"`
	Valid   []inputExample `json:"valid"`
	Invalid []inputExample `json:"invalid"`
	Results struct {
		Valid   []resultExample `json:"valid"`
		Invalid []resultExample `json:"invalid"`
	} `json:"results"`
}

// loadExampleTables reads every table of fixtures/schema, keyed by file name.
func loadExampleTables(t *testing.T) map[string]exampleTable {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(examplesDir, "*.json"))
	if err != nil {
		t.Fatalf("list example tables: %v", err)
	}
	if len(paths) == 0 {
		t.Fatalf("list example tables: none under %s", examplesDir)
	}
	tables := map[string]exampleTable{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("read example table: %v", err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var tab exampleTable
		if err := dec.Decode(&tab); err != nil {
			t.Fatalf("decode example table %s: %v", filepath.Base(p), err)
		}
		tables[strings.TrimSuffix(filepath.Base(p), ".json")] = tab
	}
	return tables
}

func newValidator(t *testing.T) *spec.Validator {
	t.Helper()
	v, err := spec.NewValidator()
	if err != nil {
		t.Fatalf("build validator: %v", err)
	}
	return v
}

// sortedTools returns the table names in a stable order.
func sortedTools(tables map[string]exampleTable) []string {
	names := make([]string, 0, len(tables))
	for n := range tables {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func TestExamples_tables(t *testing.T) {
	tables := loadExampleTables(t)
	for _, file := range sortedTools(tables) {
		tab := tables[file]
		t.Run(file, func(t *testing.T) {
			if tab.Tool != file {
				t.Errorf("table %s.json names tool %q", file, tab.Tool)
			}
			if _, ok := spec.Lookup(tab.Tool); !ok {
				t.Errorf("table %s.json: %q is not a catalogue tool", file, tab.Tool)
			}
			if len(tab.Valid) == 0 || len(tab.Invalid) == 0 || len(tab.Results.Valid) == 0 || len(tab.Results.Invalid) == 0 {
				t.Errorf("table %s.json: every section needs examples (valid %d, invalid %d, results valid %d, results invalid %d)",
					file, len(tab.Valid), len(tab.Invalid), len(tab.Results.Valid), len(tab.Results.Invalid))
			}
			seen := map[string]bool{}
			names := []string{}
			for _, e := range tab.Valid {
				names = append(names, e.Name)
			}
			for _, e := range tab.Invalid {
				names = append(names, e.Name)
				if e.Why == "" {
					t.Errorf("invalid example %q has no why", e.Name)
				}
			}
			for _, e := range tab.Results.Valid {
				names = append(names, e.Name)
			}
			for _, e := range tab.Results.Invalid {
				names = append(names, e.Name)
				if e.Why == "" {
					t.Errorf("invalid result %q has no why", e.Name)
				}
			}
			for _, n := range names {
				if n == "" || seen[n] {
					t.Errorf("example name %q is empty or repeated", n)
				}
				seen[n] = true
			}
		})
	}
	for _, name := range spec.ToolNames() {
		if _, ok := tables[name]; !ok {
			t.Errorf("tool %s has no example table", name)
		}
	}
}

func TestExamples_input(t *testing.T) {
	tables := loadExampleTables(t)
	v := newValidator(t)
	var valid, invalid int
	for _, tool := range sortedTools(tables) {
		tab := tables[tool]
		t.Run(tool, func(t *testing.T) {
			for _, e := range tab.Valid {
				valid++
				t.Run(e.Name, func(t *testing.T) {
					if err := v.ValidateInput(tool, e.Args); err != nil {
						t.Errorf("strict schema rejects valid args %s: %v", e.Args, err)
					}
					if err := v.ValidatePublished(tool, e.Args); err != nil {
						t.Errorf("published projection rejects strict-valid args %s (DECISIONS D1): %v", e.Args, err)
					}
				})
			}
			for _, e := range tab.Invalid {
				invalid++
				t.Run(e.Name, func(t *testing.T) {
					err := v.ValidateInput(tool, e.Args)
					if err == nil {
						t.Fatalf("strict schema accepts invalid args %s (%s)", e.Args, e.Why)
					}
					var ve *spec.ValidationError
					if !errors.As(err, &ve) {
						t.Fatalf("validate %s: want *spec.ValidationError, got %T: %v", e.Args, err, err)
					}
					if e.Pointer != nil && ve.Pointer != *e.Pointer {
						t.Errorf("args %s: blamed pointer %q, want %q (%s); validator said: %s", e.Args, ve.Pointer, *e.Pointer, e.Why, ve.Message)
					}
				})
			}
		})
	}
	t.Logf("input examples: %d valid, %d invalid", valid, invalid)
}

// TestExamples_derived computes negatives from every valid example: an extra
// property, and the integer *_code twin of each label-valued enum field.
func TestExamples_derived(t *testing.T) {
	tables := loadExampleTables(t)
	v := newValidator(t)
	// Label-valued enum fields; their integer *_code twins must never be
	// accepted on input (02-tool-mapping rule 4).
	labelFields := []string{"status", "request_type", "agent", "notification_type"}
	var derived int
	for _, tool := range sortedTools(tables) {
		tab := tables[tool]
		t.Run(tool, func(t *testing.T) {
			for _, e := range tab.Valid {
				var args map[string]any
				dec := json.NewDecoder(bytes.NewReader(e.Args))
				dec.UseNumber()
				if err := dec.Decode(&args); err != nil {
					t.Fatalf("decode args of %q: %v", e.Name, err)
				}
				cases := map[string]string{"unexpected_property": "/unexpected_property"}
				for _, f := range labelFields {
					if _, ok := args[f]; ok {
						cases[f+"_code"] = "/" + f + "_code"
					}
				}
				for field, want := range cases {
					derived++
					t.Run(e.Name+" + "+field, func(t *testing.T) {
						mutated := make(map[string]any, len(args)+1)
						for k, val := range args {
							mutated[k] = val
						}
						mutated[field] = 1
						err := v.ValidateInput(tool, mutated)
						if err == nil {
							t.Fatalf("strict schema accepts %s added to valid args %s", field, e.Args)
						}
						var ve *spec.ValidationError
						if errors.As(err, &ve) && ve.Pointer != want {
							t.Errorf("blamed pointer %q, want %q", ve.Pointer, want)
						}
					})
				}
			}
		})
	}
	t.Logf("derived negatives: %d", derived)
}

func TestExamples_results(t *testing.T) {
	tables := loadExampleTables(t)
	v := newValidator(t)
	var valid, invalid int
	for _, tool := range sortedTools(tables) {
		tab := tables[tool]
		t.Run(tool, func(t *testing.T) {
			for _, e := range tab.Results.Valid {
				valid++
				t.Run(e.Name, func(t *testing.T) {
					if err := v.ValidateOutput(tool, e.Result); err != nil {
						t.Errorf("output schema rejects valid envelope %s: %v", e.Result, err)
					}
				})
			}
			for _, e := range tab.Results.Invalid {
				invalid++
				t.Run(e.Name, func(t *testing.T) {
					if err := v.ValidateOutput(tool, e.Result); err == nil {
						t.Errorf("output schema accepts invalid envelope %s (%s)", e.Result, e.Why)
					}
				})
			}
		})
	}
	t.Logf("result examples: %d valid, %d invalid", valid, invalid)
}

// TestExamples_typeOnlyClient sends every valid example the way MCP
// Inspector's CLI (0.15) does: each top-level argument is given as text
// (--tool-arg key=value) and turned back into JSON from the published
// property's "type" alone (number and integer by Number, boolean by
// "true", object and array by JSON.parse, anything else kept as a string).
// A client like that must get every valid example's arguments back as
// they were.
func TestExamples_typeOnlyClient(t *testing.T) {
	tables := loadExampleTables(t)
	n := 0
	for _, tool := range sortedTools(tables) {
		raw, err := spec.PublishedInputSchema(tool)
		if err != nil {
			t.Fatal(err)
		}
		var pub struct {
			Properties map[string]map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(raw, &pub); err != nil {
			t.Fatalf("%s: decode the published schema: %v", tool, err)
		}
		for _, e := range tables[tool].Valid {
			var args map[string]json.RawMessage
			if err := json.Unmarshal(e.Args, &args); err != nil {
				t.Fatalf("%s %q: decode args: %v", tool, e.Name, err)
			}
			for key, value := range args {
				n++
				text := string(value)
				var s string
				if json.Unmarshal(value, &s) == nil {
					text = s
				}
				typ := pub.Properties[key]["type"]
				got := inspectorValue(text, typ)
				if !sameJSONValue(t, got, value) {
					t.Errorf("%s %q: %s comes back as %.80s (published type %v)", tool, e.Name, key, got, typ)
				}
			}
		}
	}
	if n < 500 {
		t.Errorf("only %d arguments checked", n)
	}
}

// inspectorValue is the JSON value MCP Inspector's CLI (0.15,
// convertParameterValue) sends for the text of a --tool-arg, given the
// property's type.
func inspectorValue(text string, typ any) json.RawMessage {
	quoted, _ := json.Marshal(text)
	switch typ {
	case "number", "integer":
		if !json.Valid([]byte(text)) {
			return json.RawMessage(`null`) // NaN
		}
		return json.RawMessage(text)
	case "boolean":
		return json.RawMessage(strconv.FormatBool(strings.ToLower(text) == "true"))
	case "object", "array":
		if json.Valid([]byte(text)) {
			return json.RawMessage(text)
		}
	}
	return quoted
}

func sameJSONValue(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

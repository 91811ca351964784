package gen_test

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"

	"github.com/ombi-mcp/ombi-mcp/conformance/gen"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// TestArgs_mostlyValid checks that the schema-driven generator hits the
// strict schema of every tool most of the time.
func TestArgs_mostlyValid(t *testing.T) {
	v, err := spec.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range spec.ToolNames() {
		t.Run(tool, func(t *testing.T) {
			g, err := gen.Args(tool)
			if err != nil {
				t.Fatal(err)
			}
			valid, n := 0, 200
			var lastErr error
			for i := range n {
				args := g.Example(i)
				if err := v.ValidateInput(tool, []byte(args)); err != nil {
					lastErr = err
					continue
				}
				valid++
			}
			if valid < n/2 {
				t.Errorf("only %d of %d generated arguments are valid; last error: %v", valid, n, lastErr)
			}
		})
	}
}

// TestFromSchema_published checks that the generator also hits the
// portable schema tools/list advertises, whose per-action rules are
// dependentSchemas and dependentRequired (ANY-EXPLORE-001 draws from it):
// a tool with several actions must not come out valid only by luck of the
// seed.
func TestFromSchema_published(t *testing.T) {
	for _, tool := range spec.ToolNames() {
		t.Run(tool, func(t *testing.T) {
			raw, err := spec.PublishedInputSchema(tool)
			if err != nil {
				t.Fatal(err)
			}
			compiled, err := spec.Compile("mem://gen/"+tool+".json", raw, false)
			if err != nil {
				t.Fatal(err)
			}
			g, err := gen.FromSchema(raw)
			if err != nil {
				t.Fatal(err)
			}
			valid, n := 0, 200
			var lastErr error
			for i := range n {
				b, err := json.Marshal(g.Example(i))
				if err != nil {
					t.Fatal(err)
				}
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
				if err != nil {
					t.Fatal(err)
				}
				if err := compiled.Validate(inst); err != nil {
					lastErr = err
					continue
				}
				valid++
			}
			if valid < n*9/10 {
				t.Errorf("only %d of %d arguments drawn from the published schema are valid; last error: %v", valid, n, lastErr)
			}
		})
	}
}

// TestFuzz_kinds checks that every kind is drawn and that near-valid and
// hostile arguments are mostly refused by the strict schema.
func TestFuzz_kinds(t *testing.T) {
	v, err := spec.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	g, err := gen.Fuzz("read_search")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	invalid := map[string]int{}
	for i := range 300 {
		f := g.Example(i)
		seen[f.Kind]++
		if v.ValidateInput("read_search", []byte(f.Args)) != nil {
			invalid[f.Kind]++
		}
	}
	for _, k := range []string{gen.KindValid, gen.KindNearValid, gen.KindHostile} {
		if seen[k] == 0 {
			t.Errorf("kind %s never drawn", k)
		}
	}
	for _, k := range []string{gen.KindNearValid, gen.KindHostile} {
		if invalid[k]*2 < seen[k] {
			t.Errorf("only %d of %d %s arguments are schema-invalid", invalid[k], seen[k], k)
		}
	}
}

// TestPlant checks that planted documents keep every original property
// and carry at least one secret.
func TestPlant(t *testing.T) {
	tests := []struct {
		name string
		doc  string
	}{
		{"array of records", `[{"id":1,"title":"A","requestedUser":{"userName":"x"}},{"id":2,"title":"B"}]`},
		{"object", `{"collection":[{"id":1}],"total":1}`},
		{"scalar", `true`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc any
			if err := json.Unmarshal([]byte(tt.doc), &doc); err != nil {
				t.Fatal(err)
			}
			rapid.Check(t, func(rt *rapid.T) {
				p := gen.Plant(doc, []string{"CANARY-test-0123456789ab"}).Draw(rt, "planted")
				out := gen.JSON(p.Doc)
				if len(p.Places) > 0 && !strings.Contains(out, "CANARY-test-0123456789ab") {
					rt.Fatalf("places %v but no secret in %s", p.Places, out)
				}
				var got any
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					rt.Fatal(err)
				}
				if _, scalar := doc.(bool); !scalar {
					if miss := missingLeaf(doc, got, ""); miss != "" {
						rt.Fatalf("planting lost or changed %s: %s", miss, out)
					}
				}
			})
		})
	}
}

// TestInflate checks sizes, framing of long strings, the byte bound, and
// that a grown Ombi page keeps a total real Ombi could send: the records
// outside the page stay counted, so the total never falls below the page's
// position plus what it holds.
func TestInflate(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		outside int // records of the total that are not in the page
	}{
		{"first page", `{"collection":[{"id":1,"title":"A","seasons":[{"n":1}]}],"total":1}`, 0},
		{"page at position 9 of 10", `{"collection":[{"id":10,"title":"J"}],"total":10}`, 9},
		{"page in the middle", `{"collection":[{"id":3},{"id":4}],"total":57}`, 55},
	}
	const limit = 4 << 20
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var doc any
			if err := json.Unmarshal([]byte(tc.doc), &doc); err != nil {
				t.Fatal(err)
			}
			rapid.Check(t, func(rt *rapid.T) {
				in := gen.Inflate(doc, limit).Draw(rt, "inflated")
				out := gen.JSON(in.Doc)
				var got struct {
					Collection []json.RawMessage `json:"collection"`
					Total      int               `json:"total"`
				}
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					rt.Fatal(err)
				}
				if len(got.Collection) != in.Records || got.Total != tc.outside+in.Records {
					rt.Fatalf("records %d, collection %d, total %d; want total %d", in.Records, len(got.Collection), got.Total, tc.outside+in.Records)
				}
				if len(got.Collection)*32 > limit*2 && len(out) > 2*limit+in.Longest*4 {
					rt.Fatalf("document of %d bytes ignores the %d-byte bound", len(out), limit)
				}
				for _, id := range in.Markers {
					if !strings.Contains(out, gen.MarkerHead(id)) || !strings.Contains(out, gen.MarkerTail(id)) {
						rt.Fatalf("marker %s is not framed in the document", id)
					}
				}
			})
		})
	}
}

// missingLeaf returns the pointer of a leaf of want that got lacks or
// changed, or "".
func missingLeaf(want, got any, ptr string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return ptr
		}
		for k, v := range w {
			if m := missingLeaf(v, g[k], ptr+"/"+k); m != "" {
				return m
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return ptr
		}
		for i, v := range w {
			if m := missingLeaf(v, g[i], ptr+"/"+strconv.Itoa(i)); m != "" {
				return m
			}
		}
	default:
		if gen.JSON(want) != gen.JSON(got) {
			return ptr
		}
	}
	return ""
}

// TestGrow_wholeDocumentBounded checks that an answer with several
// collections (a movie's cast, crew and videos) stays within the byte
// bound as a whole, not per collection: the mock refuses fault bodies over
// 32 MiB, and a larger answer tests nothing a 16 MiB one does not.
func TestGrow_wholeDocumentBounded(t *testing.T) {
	var doc any
	if err := json.Unmarshal([]byte(`{"id":603,"credits":{"cast":[{"id":1,"name":"Keanu Reeves","character":"Neo"}],"crew":[{"id":2,"name":"Lana Wachowski","job":"Director"}]},"videos":{"results":[{"key":"abc","site":"YouTube"}]},"genres":[{"id":28,"name":"Action"}]}`), &doc); err != nil {
		t.Fatal(err)
	}
	const limit = 1 << 20
	in := gen.Grow(doc, limit, gen.Growth{Records: 100000, Nested: 1})
	// the bound is kept on the records' measured sizes; renumbered ids and
	// separators may add a little
	if n := len(gen.JSON(in.Doc)); n > limit*5/4 {
		t.Fatalf("grown document is %d bytes, over the %d-byte bound", n, limit)
	}
	if in.Records < 1000 {
		t.Fatalf("the first collection got only %d records; the bound should still let it grow", in.Records)
	}
}

package gen

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/fixtures"
)

// TestGrower_sizeIsTheEncodedSize: the grower's bottom-up size of what it
// built is exactly the length of its JSON, for every seed document of the
// mock and growths below and past the page and nested caps. The budget of a
// grown document rests on that size.
func TestGrower_sizeIsTheEncodedSize(t *testing.T) {
	root := fixtures.Ombi()
	names, err := fs.Glob(root, "ombi/*.json")
	if err != nil || len(names) == 0 {
		t.Fatalf("seed documents: %v %v", names, err)
	}
	growths := []Growth{{Records: 0, Nested: 0}, {Records: 3, Nested: 2}, {Records: 101, Nested: 1}, {Records: 1, Nested: 101}}
	for _, name := range names {
		b, err := fs.ReadFile(root, name)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, gr := range growths {
			g := grower{max: 8 << 20}
			out, size := g.sized(clone(doc), gr.Records, gr.Nested, true)
			if got := len(mustJSON(out)); got != size {
				t.Errorf("%s grown by %+v: sized %d bytes, encodes to %d", strings.TrimSuffix(strings.TrimPrefix(name, "ombi/"), ".json"), gr, size, got)
			}
		}
	}
}

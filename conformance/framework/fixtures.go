package framework

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"sort"

	"github.com/ombi-mcp/ombi-mcp/fixtures"
)

// Example is one named argument object of a schema table.
type Example struct {
	Name    string          `json:"name"`
	Args    json.RawMessage `json:"args"`
	Pointer string          `json:"pointer,omitempty"` // invalid examples: the failing field, when known
}

// Table is one fixtures/schema/<tool>.json file.
type Table struct {
	Tool    string    `json:"tool"`
	Valid   []Example `json:"valid"`
	Invalid []Example `json:"invalid"`
}

// LoadTables reads every *.json table in dir, keyed by tool.
func LoadTables(dir string) (map[string]Table, error) {
	return LoadTablesFS(os.DirFS(dir), dir)
}

// EmbeddedTables returns the schema tables built into the suite
// (fixtures/schema of the module it was built from).
func EmbeddedTables() (map[string]Table, error) {
	return LoadTablesFS(fixtures.Schema(), "the embedded fixtures/schema")
}

// LoadTablesFS reads every *.json table at the root of fsys, keyed by tool;
// where names it in errors.
func LoadTablesFS(fsys fs.FS, where string) (map[string]Table, error) {
	files, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, fmt.Errorf("load schema tables: %w", err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("load schema tables: no *.json in %s", where)
	}
	sort.Strings(files)
	out := map[string]Table{}
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("load schema tables: %w", err)
		}
		var t Table
		if err := json.Unmarshal(b, &t); err != nil {
			return nil, fmt.Errorf("load schema table %s: %w", f, err)
		}
		if t.Tool == "" {
			return nil, fmt.Errorf("load schema table %s: no tool", f)
		}
		out[t.Tool] = t
	}
	return out, nil
}

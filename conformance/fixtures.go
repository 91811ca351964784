package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
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
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("load schema tables: %w", err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("load schema tables: no *.json in %s", dir)
	}
	sort.Strings(files)
	out := map[string]Table{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("load schema tables: %w", err)
		}
		var t Table
		if err := json.Unmarshal(b, &t); err != nil {
			return nil, fmt.Errorf("load schema table %s: %w", filepath.Base(f), err)
		}
		if t.Tool == "" {
			return nil, fmt.Errorf("load schema table %s: no tool", filepath.Base(f))
		}
		out[t.Tool] = t
	}
	return out, nil
}

// FindFixtures locates the fixtures/schema directory: next to the
// executable's parent (an installed kit), then in the working directory or
// any of its parents (a source checkout).
func FindFixtures() (string, error) {
	var candidates []string
	if exe, err := os.Executable(); err == nil {
		d := filepath.Dir(exe)
		candidates = append(candidates, filepath.Join(d, "fixtures", "schema"), filepath.Join(d, "..", "fixtures", "schema"))
	}
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			candidates = append(candidates, filepath.Join(d, "fixtures", "schema"))
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c, nil
		}
	}
	return "", errors.New("find fixtures: no fixtures/schema directory next to the executable or above the working directory; pass --fixtures DIR")
}

package mockombi

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestRestoreState: a state this mock wrote goes back in as it was, even
// one a data file could not start from (an issue whose category is gone),
// which ReplaceState refuses; the exports before and after are the same.
func TestRestoreState(t *testing.T) {
	s := newDataServer(t, exampleData)
	var doc map[string]any
	if err := json.Unmarshal(stateOf(t, s), &doc); err != nil {
		t.Fatal(err)
	}
	issues, _ := doc["issues"].(map[string]any)
	if issues == nil || len(issues["issues"].([]any)) == 0 {
		t.Fatal("the example data has no issues")
	}
	issues["categories"] = []any{} // every issue's category gone
	dangling, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceState(dangling); err == nil {
		t.Fatal("ReplaceState took issues whose category is gone")
	}
	if err := s.RestoreState(dangling); err != nil {
		t.Fatalf("RestoreState: %v", err)
	}
	first := stateOf(t, s)
	if err := s.RestoreState(first); err != nil {
		t.Fatalf("RestoreState of its own export: %v", err)
	}
	if again := stateOf(t, s); !bytes.Equal(first, again) {
		t.Fatal("the export after RestoreState differs from the state put back")
	}
	if err := s.RestoreState([]byte(`{"issues":7}`)); err == nil {
		t.Fatal("RestoreState took a state of the wrong shape")
	}
}

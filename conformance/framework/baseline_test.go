package framework

import (
	"strings"
	"testing"
)

func TestParseBaseline(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		wantErr bool
	}{
		{"ids and comments", "# header\nA-001\n\n  B-002.read_search  # why\n", []string{"A-001", "B-002.read_search"}, false},
		{"two ids on a line", "A-001 B-002\n", nil, true},
		{"empty", "", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ParseBaseline(strings.NewReader(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseBaseline error = %v, wantErr %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if len(b) != len(tt.want) {
				t.Errorf("ParseBaseline = %v, want %v", b, tt.want)
			}
			for _, id := range tt.want {
				if !b.Has(id) {
					t.Errorf("baseline lacks %s", id)
				}
			}
		})
	}
}

package ombi

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"
)

func TestFlexID_UnmarshalJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    FlexID
		wantErr bool
	}{
		{`603`, "603", false},
		{`"603"`, "603", false},
		{` "603" `, "603", false},
		{`" 603 "`, "603", false},
		{`"00603"`, "00603", false},
		{`"\u0036\u0030\u0033"`, "603", false},
		{`0`, "", false},
		{`"0"`, "", false},
		{`null`, "", false},
		{`""`, "", false},
		{`-7`, "-7", false},
		{`2.5e3`, "2.5e3", false},
		{`"tt0133093"`, "tt0133093", false},
		{`0603`, "", true},
		{`"603`, "", true},
		{`true`, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var f FlexID
			err := f.UnmarshalJSON([]byte(tt.in))
			if (err != nil) != tt.wantErr || f != tt.want {
				t.Errorf("UnmarshalJSON(%s) = %q, %v; want %q, error %v", tt.in, f, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestFlexID_plainAgreesWithFullRead: the digits-only shortcut reads
// exactly what the full JSON read (flexText) reads, for every text it
// accepts, valid JSON or not.
func TestFlexID_plainAgreesWithFullRead(t *testing.T) {
	alphabet := []byte(`0123456789"- .e\u+`)
	rapid.Check(t, func(t *rapid.T) {
		raw := rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 12).Draw(t, "raw")
		got, ok := plainID(raw)
		if !ok {
			return
		}
		want, err := flexText(raw)
		if err != nil || got != want {
			t.Fatalf("plainID(%s) = %q; the full read gives %q, %v (valid JSON: %v)", raw, got, want, err, json.Valid(raw))
		}
	})
}

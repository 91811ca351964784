package jsonvalue

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// decodeOddBytes are inserted into an encoded value: invalid UTF-8, a NUL,
// JSON punctuation, escapes and trailing text.
var decodeOddBytes = []string{"\xff", "\xc3", "\x00", `"`, `\`, `\u00`, `\ud800`, "}", "]", ",", ":", " x", " []", "\t", "-", "0", "e", "."}

// referenceDecode is what encoding/json gives: json.Unmarshal's verdict
// and error, numbers kept as json.Number.
func referenceDecode(b []byte) (any, error) {
	var v any
	if !json.Valid(b) {
		return nil, json.Unmarshal(b, &v)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// TestDecode_matchesEncodingJSON: Decode gives what encoding/json gives
// (json.Unmarshal's verdict, numbers as json.Number), on values of every
// kind as encoding/json writes them and on that text with odd bytes put
// in or cut short.
func TestDecode_matchesEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := reference(t, valueGen(3).Draw(t, "v"), rapid.Bool().Draw(t, "html"))
		switch rapid.IntRange(0, 2).Draw(t, "mutation") {
		case 1:
			at := rapid.IntRange(0, len(text)).Draw(t, "at")
			text = slices.Insert(text, at, []byte(rapid.SampledFrom(decodeOddBytes).Draw(t, "bytes"))...)
		case 2:
			text = text[:rapid.IntRange(0, len(text)).Draw(t, "cut")]
		}
		want, wantErr := referenceDecode(text)
		got, gotErr := Decode(text)
		switch {
		case (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()):
			t.Fatalf("Decode(%q): error %v, encoding/json %v", text, gotErr, wantErr)
		case !reflect.DeepEqual(got, want):
			t.Fatalf("Decode(%q) = %#v, encoding/json %#v", text, got, want)
		}
	})
}

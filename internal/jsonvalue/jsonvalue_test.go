package jsonvalue

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// reference is what encoding/json writes for v.
func reference(t interface{ Fatalf(string, ...any) }, v any, html bool) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// tricky strings: escapes, HTML, invalid UTF-8, line separators.
var strGen = rapid.OneOf(
	rapid.String(),
	rapid.SampledFrom([]string{"", "<a href=\"x\">&amp;</a>", "tab\there\nnew\r\x00\x1f\x7f", "\xff\xfe bad", "\u2028\u2029", "é😀", `back\slash "quote"`}),
	rapid.StringOf(rapid.RuneFrom([]rune{'<', '>', '&', '"', '\\', '\n', '\u2028', '\u2029', 0, 0x1f, 0x7f, 'a', 'é', '😀', utf8.RuneError})),
	rapid.Map(rapid.SliceOf(rapid.Byte()), func(b []byte) string { return string(b) }),
)

var floatGen = rapid.OneOf(
	rapid.Float64(),
	rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1e-7, 1e-6, 1e20, 1e21, 123456789012345678901234.0, 0.1, -2.5e-9, 13.6}),
	rapid.Map(rapid.Int64(), func(i int64) float64 { return float64(i) }),
)

func valueGen(depth int) *rapid.Generator[any] {
	scalars := []*rapid.Generator[any]{
		rapid.Just[any](nil),
		rapid.Map(strGen, func(s string) any { return s }),
		rapid.Map(rapid.Bool(), func(b bool) any { return b }),
		rapid.Map(floatGen, func(f float64) any { return f }),
		rapid.Map(rapid.Int(), func(i int) any { return i }),
		rapid.Map(rapid.SliceOf(strGen), func(s []string) any { return s }),
		rapid.Map(rapid.SliceOf(rapid.Int()), func(s []int) any { return s }),
		rapid.Map(rapid.MapOf(strGen, strGen), func(m map[string]string) any { return m }),
		rapid.Just[any](time.Time{}),
		rapid.Just[any](time.Date(2026, 12, 1, 16, 30, 0, 123, time.UTC)),
		rapid.Just[any]((*string)(nil)),
		rapid.Map(rapid.Int(), func(i int) any { return &i }),
		rapid.Just[any](json.RawMessage(`{"raw": [1, 2]}`)),
		rapid.Map(rapid.SampledFrom([]string{"", "0", "-0", "12", "-3.25", "1e9", "2.5E-7", "6.02e+23"}), func(s string) any { return json.Number(s) }),
		rapid.Just[any](struct {
			A string `json:"a"`
			B []int  `json:"b,omitempty"`
		}{A: "<s>"}),
	}
	if depth == 0 {
		return rapid.OneOf(scalars...)
	}
	child := valueGen(depth - 1)
	return rapid.OneOf(append(scalars,
		rapid.Map(rapid.SliceOf(child), func(s []any) any { return s }),
		rapid.Map(rapid.MapOf(strGen, child), func(m map[string]any) any { return m }),
		rapid.Map(rapid.SliceOf(rapid.MapOf(strGen, child)), func(s []map[string]any) any { return s }),
		rapid.Just[any]([]any(nil)),
		rapid.Just[any](map[string]any(nil)),
	)...)
}

// TestAppend_matchesEncodingJSON: every generated value encodes to the
// bytes encoding/json writes, with and without HTML escaping.
func TestAppend_matchesEncodingJSON(t *testing.T) {
	gen := valueGen(3)
	var enc Encoder
	rapid.Check(t, func(t *rapid.T) {
		v := gen.Draw(t, "value")
		for _, html := range []bool{true, false} {
			want := reference(t, v, html)
			got, err := Append(nil, v, Options{EscapeHTML: html})
			if err != nil {
				t.Fatalf("html=%v: %v", html, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("html=%v:\n got %s\nwant %s", html, got, want)
			}
			for range 2 { // the second time from its memory of orders
				got, err = enc.Append(nil, v, Options{EscapeHTML: html})
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("Encoder html=%v (%v):\n got %s\nwant %s", html, err, got, want)
				}
			}
		}
	})
}

// TestAppend_numbers: a json.Number is written exactly when encoding/json
// writes it, and as encoding/json writes it.
func TestAppend_numbers(t *testing.T) {
	for _, n := range []string{"", "0", "-0", "1", "-1", "10", "01", "1.", ".5", "1.5", "1e5", "1E+5", "1e-5", "1e", "-", "+1",
		"1.5e3x", "0x10", "1..2", "00", "-01.0", "9007199254740993", " 1", "NaN"} {
		want, werr := json.Marshal([]any{json.Number(n)})
		got, err := Append(nil, []any{json.Number(n)}, Options{EscapeHTML: true})
		switch {
		case (err == nil) != (werr == nil):
			t.Errorf("json.Number(%q): error %v, encoding/json's %v", n, err, werr)
		case err == nil && !bytes.Equal(got, want):
			t.Errorf("json.Number(%q) = %s, want %s", n, got, want)
		}
	}
}

// TestAppend_unsupportedFloats: NaN and infinities are errors, as in
// encoding/json.
func TestAppend_unsupportedFloats(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := Append(nil, map[string]any{"x": f}, Options{}); err == nil {
			t.Errorf("%v: no error", f)
		}
	}
}

// TestEncoder_sameNamesOtherSet: a remembered order is used only for a map
// with exactly its names.
func TestEncoder_sameNamesOtherSet(t *testing.T) {
	var enc Encoder
	for _, m := range []map[string]any{
		{"b": 1, "a": 2, "c": 3},
		{"c": 1, "b": 2, "a": 3},
		{"a": 1, "b": 2, "d": 3},
		{"x": 1, "b": 2},
	} {
		got, err := enc.Append(nil, m, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want := reference(t, m, false); !bytes.Equal(got, want) {
			t.Errorf("got %s, want %s", got, want)
		}
	}
}

// TestAppend_encoded: a value Append encoded before is copied in as it
// is, and gives what encoding/json gives for it as a json.Marshaler (with
// HTML escaping on, the escaped spelling); nil is null.
func TestAppend_encoded(t *testing.T) {
	for _, inner := range []any{
		map[string]any{"s": "<a>&amp;\u2028\u2029", "b": []any{1.5, nil, true}, "a": map[string]any{}},
		"plain", nil,
	} {
		enc, err := Append(nil, inner, Options{EscapeHTML: false})
		if err != nil {
			t.Fatal(err)
		}
		for _, html := range []bool{false, true} {
			v := map[string]any{"m": Encoded(enc), "list": []any{Encoded(enc)}, "nil": Encoded(nil)}
			got, err := Append(nil, v, Options{EscapeHTML: html})
			if err != nil {
				t.Fatalf("%v html=%v: %v", inner, html, err)
			}
			if want := reference(t, v, html); !bytes.Equal(got, want) {
				t.Errorf("%v html=%v:\n got %s\nwant %s", inner, html, got, want)
			}
		}
	}
}

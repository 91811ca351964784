package jsonvalue

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// testFilter marks every string with its length in bytes (so a string
// that reached Text as invalid UTF-8 shows), refuses the name "small",
// and rewrites "extra" whole: wrapped in a list, refused when it is null.
type testFilter struct{}

func (testFilter) Text(s string) string { return s + "<" + strconv.Itoa(len(s)) }
func (testFilter) Name(k string) bool   { return k != "small" }
func (testFilter) Member(k string) bool { return k == "extra" }
func (testFilter) Rewrite(_ string, v any) (any, bool) {
	return []any{v, "&"}, v != nil
}

// filtered applies f to Of's value g as AppendOf promises to: the value
// Append must then write, or false where AppendOf must give up.
func filtered(g any, f Filter, maxLen int) (any, bool) {
	switch t := g.(type) {
	case string:
		return f.Text(t), true
	case []any:
		if len(t) > maxLen {
			return nil, false
		}
		out := make([]any, len(t))
		for i, e := range t {
			var ok bool
			if out[i], ok = filtered(e, f, maxLen); !ok {
				return nil, false
			}
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			if !f.Name(k) {
				return nil, false
			}
			var ok bool
			if f.Member(k) {
				out[k], ok = f.Rewrite(k, e)
				ok = ok && longest(out[k]) <= maxLen
			} else {
				out[k], ok = filtered(e, f, maxLen)
			}
			if !ok {
				return nil, false
			}
		}
		return out, true
	}
	return g, true
}

// TestAppendOf_matchesOf: where AppendOf does not give up, it writes
// Append(Of(v)) with the filter applied, byte for byte; and it takes the
// short way for plain values.
func TestAppendOf_matchesOf(t *testing.T) {
	const maxLen = 2
	var taken int
	rapid.Check(t, func(t *rapid.T) {
		typ := rapid.SampledFrom(ofTypes).Draw(t, "type")
		v := draw(t, typ, 0).Interface()
		html := rapid.Bool().Draw(t, "html")
		prefix := []byte(`{"data":`)
		got, ok := new(Plans).AppendOf(slices.Clone(prefix), v, Options{EscapeHTML: html}, Limits{List: maxLen, Bytes: math.MaxInt}, testFilter{})
		if !ok {
			if !bytes.Equal(got, prefix) {
				t.Fatalf("%s: gave up but changed dst to %s", typ, got)
			}
			return
		}
		taken++
		g, err := Of(v)
		if err != nil {
			t.Fatalf("%s: AppendOf wrote %s where Of fails: %v", typ, got, err)
		}
		want, fok := filtered(g, testFilter{}, maxLen)
		if !fok {
			t.Fatalf("%s: AppendOf wrote %s where it must give up (Of: %#v)", typ, got, g)
		}
		wantText, err := Append(slices.Clone(prefix), want, Options{EscapeHTML: html})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, wantText) {
			t.Fatalf("%s: AppendOf wrote\n  %s\nwant\n  %s", typ, got, wantText)
		}
	})
	if taken == 0 {
		t.Fatal("AppendOf gave up on every value drawn")
	}
}

type ofCycle struct {
	Next *ofCycle `json:"next"`
}

// plainFilter writes values as they are.
type plainFilter struct{}

func (plainFilter) Text(s string) string                { return s }
func (plainFilter) Name(string) bool                    { return true }
func (plainFilter) Member(k string) bool                { return k == "whole" }
func (plainFilter) Rewrite(_ string, v any) (any, bool) { return v, true }

func TestAppendOf_examples(t *testing.T) {
	cycle := &ofCycle{}
	cycle.Next = cycle
	empty := ""
	tests := []struct {
		name string
		in   any
		want string // "" : AppendOf gives up
	}{
		{"members sorted by name", struct {
			B int    `json:"b"`
			A string `json:"a,omitempty"`
			C []int  `json:"c"`
		}{B: 1}, `{"b":1,"c":null}`},
		{"integer keys sorted as text", map[int]bool{10: true, -3: false, 2: true}, `{"-3":false,"10":true,"2":true}`},
		{"numbers", []any{json.Number(""), json.Number("1.5e3"), 1e21, 1e-7, uint8(7)}, `[0,1.5e3,1e+21,1e-7,7]`},
		{"HTML escaped, U+2028 escaped, invalid UTF-8 replaced by U+FFFD as Of replaces it", "<a&\u2028\xff>", "\"\\u003ca\\u0026\\u2028\ufffd\\u003e\""},
		{"a member rewritten whole keeps its json.Number", map[string]any{"whole": []any{json.Number("12")}}, `{"whole":[12]}`},
		{"nil inside", []*int{nil}, `[null]`},
		{"empty string pointer", &empty, `""`},
		{"nil", nil, ""},
		{"nil pointer at the top", (*ofRecord)(nil), ""},
		{"nil map at the top", map[string]any(nil), ""},
		{"a marshaler", []time.Time{{}}, ""},
		{"a float32", []float32{1}, ""},
		{"bytes", [][]byte{{1}}, ""},
		{"an invalid json.Number", []json.Number{"abc"}, ""},
		{"NaN", []float64{math.NaN()}, ""},
		{"an embedded field", []ofEmbedding{{}}, ""},
		{"a key that is not UTF-8", map[string]int{"\xff": 1}, ""},
		{"a list over maxLen", make([]int, 6), ""},
		{"a rewritten member over maxLen", map[string]any{"whole": make([]any, 6)}, ""},
		{"a cycle", cycle, ""},
		{"over the byte limit in a list", []string{strings.Repeat("x", 20), strings.Repeat("y", 20)}, ""},
		{"over the byte limit in a member", map[string]string{"a": strings.Repeat("x", 40)}, ""},
		{"over the byte limit in a rewritten member", map[string]any{"whole": strings.Repeat("x", 40)}, ""},
		{"at the byte limit", strings.Repeat("x", 38), `"` + strings.Repeat("x", 38) + `"`},
		{"past the byte limit", strings.Repeat("x", 39), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := new(Plans).AppendOf(nil, tt.in, Options{EscapeHTML: true}, Limits{List: 5, Bytes: 40}, plainFilter{})
			if tt.want == "" {
				if ok {
					t.Fatalf("AppendOf wrote %s; want it to give up", got)
				}
				return
			}
			if !ok || string(got) != tt.want {
				t.Fatalf("AppendOf = %s, %v; want %s", got, ok, tt.want)
			}
		})
	}
}

// countingFilter counts the strings it is shown.
type countingFilter struct {
	plainFilter
	texts *int
}

func (c countingFilter) Text(s string) string { *c.texts++; return s }

// TestAppendOf_stopsAtTheByteLimit: AppendOf stops walking as soon as it
// has written past Limits.Bytes, in a list, a struct and a map, rather
// than writing the rest of a value it will throw away.
func TestAppendOf_stopsAtTheByteLimit(t *testing.T) {
	long := make([]string, 100)
	for i := range long {
		long[i] = strings.Repeat("x", 20)
	}
	type record struct {
		A string `json:"a"`
		B string `json:"b"`
		C string `json:"c"`
		D string `json:"d"`
	}
	x := strings.Repeat("x", 20)
	tests := []struct {
		name  string
		in    any
		texts int // the strings walked before the limit is passed
	}{
		{"list", long, 2},
		{"struct", record{x, x, x, x}, 2},
		{"map", map[string]string{"a": x, "b": x, "c": x, "d": x}, 2},
		{"rewritten member", map[string]any{"whole": x + x, "y": x, "z": x}, 0},
	}
	for _, tt := range tests {
		var texts int
		if got, ok := new(Plans).AppendOf(nil, tt.in, Options{}, Limits{List: 100, Bytes: 40}, countingFilter{texts: &texts}); ok {
			t.Fatalf("%s: wrote %s past the byte limit", tt.name, got)
		}
		if texts > tt.texts {
			t.Fatalf("%s: walked %d strings; the limit was passed after %d", tt.name, texts, tt.texts)
		}
	}
}

package jsonvalue

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// The types TestOf_matchesRoundTrip draws values of: every kind Of takes
// apart, and every shape it leaves to encoding/json.
type (
	ofRecord struct {
		Name     string            `json:"name"`
		ID       *int              `json:"id,omitempty"`
		Children []ofRecord        `json:"children,omitempty"`
		Extra    map[string]any    `json:"extra"`
		Score    float64           `json:"score,omitempty"`
		hidden   int               // an unexported field is left out
		Skipped  bool              `json:"-"`
		Small    uint8             `json:"small,omitempty"`
		Pair     [2]int8           `json:"pair"`
		None     [0]int            `json:"none,omitempty"`
		Any      any               `json:"any,omitempty"`
		Untagged string            //
		Flags    map[string]bool   `json:"flags,omitempty"`
		Tags     []string          `json:"tags"`
		Named    ofName            `json:"named,omitempty"`
		Counts   map[int]uint      `json:"counts,omitempty"`
		ByKey    map[ofKey]string  `json:"by_key,omitempty"`
		Nested   *ofOpaque         `json:"nested,omitempty"`
		Strs     map[string]string `json:"strs,omitempty"`
	}
	ofName   string
	ofOpaque struct {
		At     time.Time       `json:"at"`
		Number json.Number     `json:"number,omitempty"`
		Raw    json.RawMessage `json:"raw,omitempty"`
		Bytes  []byte          `json:"bytes"`
		Self   ofSelf          `json:"self"`
		Single float32         `json:"single"`
		Quoted int             `json:"quoted,string"`
	}
	ofEmbedding struct {
		OfPromoted
		Own string `json:"own"`
	}
	// OfPromoted is embedded: encoding/json promotes its members.
	OfPromoted struct {
		Inner string `json:"inner"`
		Own   int    `json:"own"` // hidden by the outer Own
	}
	ofKey  int
	ofSelf struct{ N int }
)

func (k ofKey) MarshalText() ([]byte, error) { return []byte("k" + strconv.Itoa(int(k))), nil }

// MarshalJSON has a pointer receiver: encoding/json calls it only on an
// addressable value.
func (s *ofSelf) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf(`{"self":%d}`, s.N)), nil }

// twinsType has two fields of one JSON name (encoding/json drops both),
// dashType a field named "-" by the tag "-,"; they are built at run time
// because vet and staticcheck refuse such tags in source.
var (
	twinsType = reflect.StructOf([]reflect.StructField{
		{Name: "A", Type: reflect.TypeFor[string](), Tag: `json:"x"`},
		{Name: "B", Type: reflect.TypeFor[string](), Tag: `json:"x"`},
	})
	dashType = reflect.StructOf([]reflect.StructField{
		{Name: "Dash", Type: reflect.TypeFor[bool](), Tag: `json:"-,"`},
		{Name: "Gone", Type: reflect.TypeFor[bool](), Tag: `json:"-"`},
	})
)

var ofTypes = []reflect.Type{
	reflect.TypeFor[ofRecord](), reflect.TypeFor[*ofRecord](), reflect.TypeFor[[]ofRecord](),
	reflect.TypeFor[ofOpaque](), reflect.TypeFor[[]ofOpaque](), reflect.TypeFor[ofEmbedding](),
	twinsType, dashType, reflect.TypeFor[map[string]ofRecord](), reflect.TypeFor[[]any](),
	reflect.TypeFor[ofSelf](), reflect.TypeFor[[]ofSelf](), reflect.TypeFor[map[string]ofSelf](),
}

// draw makes a random value of t; unexported fields stay zero.
func draw(t *rapid.T, typ reflect.Type, depth int) reflect.Value {
	v := reflect.New(typ).Elem()
	switch typ {
	case reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(time.Unix(rapid.Int64Range(-70000000000, 300000000000).Draw(t, "unix"), 0).UTC()))
		return v
	case reflect.TypeFor[json.Number]():
		v.SetString(rapid.SampledFrom([]string{"0", "12", "-7", "1.5e3", "", "abc", "01"}).Draw(t, "number"))
		return v
	case reflect.TypeFor[json.RawMessage]():
		v.SetBytes([]byte(rapid.SampledFrom([]string{`{"a":1}`, `[1, 2]`, `"x"`, `nul`, ``, ` 7 `}).Draw(t, "raw")))
		return v
	}
	switch typ.Kind() {
	case reflect.Bool:
		v.SetBool(rapid.Bool().Draw(t, "bool"))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := typ.Bits()
		v.SetInt(rapid.Int64Range(-1<<(bits-1), 1<<(bits-1)-1).Draw(t, "int"))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(rapid.Uint64().Draw(t, "uint") >> (64 - typ.Bits()))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(rapid.OneOf(rapid.Float64(), rapid.SampledFrom([]float64{0, 1e-7, 1e21, 123456789.125, math.NaN(), math.Inf(1)})).Draw(t, "float"))
	case reflect.String:
		v.SetString(rapid.OneOf(rapid.String(), rapid.Map(rapid.SliceOfN(rapid.Byte(), 0, 6), func(b []byte) string { return string(b) })).Draw(t, "string"))
	case reflect.Slice:
		if depth > 3 || rapid.IntRange(0, 4).Draw(t, "nil slice") == 0 {
			return v
		}
		n := rapid.IntRange(0, 3).Draw(t, "len")
		v.Set(reflect.MakeSlice(typ, n, n))
		for i := range n {
			v.Index(i).Set(draw(t, typ.Elem(), depth+1))
		}
	case reflect.Array:
		for i := range v.Len() {
			v.Index(i).Set(draw(t, typ.Elem(), depth+1))
		}
	case reflect.Map:
		if depth > 3 || rapid.IntRange(0, 4).Draw(t, "nil map") == 0 {
			return v
		}
		v.Set(reflect.MakeMap(typ))
		for range rapid.IntRange(0, 3).Draw(t, "entries") {
			v.SetMapIndex(draw(t, typ.Key(), depth+1), draw(t, typ.Elem(), depth+1))
		}
	case reflect.Pointer:
		if depth > 3 || rapid.Bool().Draw(t, "nil pointer") {
			return v
		}
		p := reflect.New(typ.Elem())
		p.Elem().Set(draw(t, typ.Elem(), depth+1))
		v.Set(p)
	case reflect.Interface:
		if depth > 3 {
			return v
		}
		dynamic := []reflect.Type{nil, reflect.TypeFor[string](), reflect.TypeFor[float64](), reflect.TypeFor[bool](),
			reflect.TypeFor[int](), reflect.TypeFor[[]any](), reflect.TypeFor[map[string]any](), reflect.TypeFor[*ofRecord](),
			reflect.TypeFor[ofOpaque](), reflect.TypeFor[ofSelf](), reflect.TypeFor[json.Number]()}
		if d := rapid.SampledFrom(dynamic).Draw(t, "dynamic"); d != nil {
			v.Set(draw(t, d, depth+1))
		}
	case reflect.Struct:
		for i := range typ.NumField() {
			if typ.Field(i).IsExported() {
				v.Field(i).Set(draw(t, typ.Field(i).Type, depth+1))
			}
		}
	default:
		t.Fatalf("draw: no generator for %s", typ)
	}
	return v
}

// TestOf_matchesRoundTrip: Of gives what json.Marshal then Decode give, and
// fails where they fail.
func TestOf_matchesRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		typ := rapid.SampledFrom(ofTypes).Draw(t, "type")
		v := draw(t, typ, 0).Interface()
		got, gerr := Of(v)
		var want any
		b, werr := json.Marshal(v)
		if werr == nil {
			want, werr = Decode(b)
		}
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("%s: Of error %v, json.Marshal and Decode error %v", typ, gerr, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: Of =\n  %#v\nround trip =\n  %#v\njson: %s", typ, got, want, b)
		}
	})
}

func TestOf_examples(t *testing.T) {
	id := 7
	tests := []struct {
		name string
		in   any
		want any
	}{
		{"nil", nil, nil},
		{"omitempty and names", ofRecord{Name: "a", ID: &id, Tags: []string{}, hidden: 3, Skipped: true},
			map[string]any{"name": "a", "id": json.Number("7"), "extra": nil, "pair": []any{json.Number("0"), json.Number("0")}, "Untagged": "", "tags": []any{}}},
		{"invalid UTF-8", "a\xffb\xc3", "a\ufffdb\ufffd"},
		{"float spelling", []any{1e21, 1e-7, 0.5, float64(100)}, []any{json.Number("1e+21"), json.Number("1e-7"), json.Number("0.5"), json.Number("100")}},
		{"integer keys", map[int]bool{-3: true}, map[string]any{"-3": true}},
		{"pointer receiver, addressable", []ofSelf{{N: 2}}, []any{map[string]any{"self": json.Number("2")}}},
		{"pointer receiver, not addressable", ofSelf{N: 2}, map[string]any{"N": json.Number("2")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Of(tt.in)
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Of = %#v, %v; want %#v", got, err, tt.want)
			}
		})
	}
	if _, err := Of(math.NaN()); err == nil {
		t.Fatal("Of(NaN): no error; json.Marshal fails on it")
	}
}

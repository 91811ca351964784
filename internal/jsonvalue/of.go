package jsonvalue

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Of returns what Decode(json.Marshal(v)) returns, without writing and
// reading the text: a struct becomes a map[string]any of the members its
// json tags give (omitempty and "-" honoured, unexported fields left
// out), a slice or an array []any, a map with string or integer keys
// map[string]any, a number json.Number spelt as encoding/json spells it,
// a string itself with each invalid UTF-8 byte replaced by U+FFFD, a nil
// pointer, interface, slice or map nil. A value Of does not take apart (a
// json.Marshaler or encoding.TextMarshaler, a struct with an embedded
// field or a tag option other than omitempty, a []byte, a json.Number, a
// map with other keys, a float32, a channel, ...) goes through
// json.Marshal and Decode, and so does its error. A value nested deeper
// than maxOfDepth goes that way too, so a pointer cycle fails as
// json.Marshal fails.
func Of(v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	var w walker
	return w.of(reflect.ValueOf(v), 0)
}

// walker is one Of: it looks at each type once per call (a page's records
// share one look).
type walker struct {
	types map[reflect.Type]typeInfo
	plans *Plans // when set, the types are looked up there
}

// typeInfo is what a walker found of a type.
type typeInfo struct {
	opaque bool    // its values go to roundTrip
	plan   []field // a struct's members; nil for other kinds
}

// info returns what t is to Of, found once per walker.
func (w *walker) info(t reflect.Type) typeInfo {
	if w.plans != nil {
		return w.plans.info(t).typeInfo
	}
	if ti, ok := w.types[t]; ok {
		return ti
	}
	if w.types == nil {
		w.types = map[reflect.Type]typeInfo{}
	}
	ti := infoOf(t)
	w.types[t] = ti
	return ti
}

// infoOf is what t is to Of: a struct's plan, and whether Of leaves its
// values to roundTrip.
func infoOf(t reflect.Type) typeInfo {
	var ti typeInfo
	if t.Kind() == reflect.Struct {
		ti.plan = buildPlan(t)
	}
	ti.opaque = opaque(t, ti.plan)
	return ti
}

const maxOfDepth = 256

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	numberType        = reflect.TypeFor[json.Number]()
)

func (w *walker) of(v reflect.Value, depth int) (any, error) {
	ti := w.info(v.Type())
	if depth > maxOfDepth || ti.opaque {
		return roundTrip(v)
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return nil, nil
		}
		return w.of(v.Elem(), depth+1)
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return json.Number(strconv.FormatInt(v.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return json.Number(strconv.FormatUint(v.Uint(), 10)), nil
	case reflect.Float64:
		var e encoder
		if err := e.float(v.Float()); err != nil {
			return nil, err
		}
		return json.Number(e.b), nil
	case reflect.String:
		return validUTF8(v.String()), nil
	case reflect.Slice:
		if v.IsNil() {
			return nil, nil
		}
		fallthrough
	case reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			x, err := w.of(v.Index(i), depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case reflect.Map:
		if v.IsNil() {
			return nil, nil
		}
		if v.Type().Key().Kind() == reflect.String && !validKeys(v) {
			return roundTrip(v)
		}
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			x, err := w.of(it.Value(), depth+1)
			if err != nil {
				return nil, err
			}
			out[mapKey(it.Key())] = x
		}
		return out, nil
	case reflect.Struct:
		out := make(map[string]any, len(ti.plan))
		for _, f := range ti.plan {
			fv := v.Field(f.index)
			if f.omitEmpty && empty(fv) {
				continue
			}
			x, err := w.of(fv, depth+1)
			if err != nil {
				return nil, err
			}
			out[f.name] = x
		}
		return out, nil
	}
	return roundTrip(v)
}

// roundTrip is the long way: the value encoded by encoding/json, then
// decoded. A method with a pointer receiver counts where encoding/json
// counts it: on an addressable value.
func roundTrip(v reflect.Value) (any, error) {
	x := v.Interface()
	if v.CanAddr() {
		x = v.Addr().Interface()
	}
	b, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	return Decode(b)
}

// opaque reports whether Of leaves values of t to roundTrip; plan is t's
// (buildPlan) when t is a struct.
func opaque(t reflect.Type, plan []field) bool {
	switch {
	case t.Implements(marshalerType), reflect.PointerTo(t).Implements(marshalerType),
		t.Implements(textMarshalerType), reflect.PointerTo(t).Implements(textMarshalerType),
		t == numberType:
		return true
	}
	switch t.Kind() {
	case reflect.Slice:
		return t.Elem().Kind() == reflect.Uint8 // base64, unless the elements marshal themselves
	case reflect.Map:
		if k := t.Key(); k.Kind() != reflect.String && (k.Implements(textMarshalerType) || reflect.PointerTo(k).Implements(textMarshalerType)) {
			return true // encoding/json names such keys by their text
		}
		switch t.Key().Kind() {
		case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			return false
		}
		return true
	case reflect.Struct:
		return plan == nil
	case reflect.Float32, reflect.Complex64, reflect.Complex128, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	}
	return false
}

// mapKey is a map key as encoding/json writes it (a map with a string
// key of invalid UTF-8 has gone to roundTrip).
func mapKey(k reflect.Value) string {
	switch k.Kind() {
	case reflect.String:
		return k.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10)
	}
	return strconv.FormatUint(k.Uint(), 10)
}

// validKeys reports whether every key of m, a map with string keys, is
// valid UTF-8: two invalid keys could be written alike, and encoding/json
// would keep only one of them.
func validKeys(m reflect.Value) bool {
	for it := m.MapRange(); it.Next(); {
		if !utf8.ValidString(it.Key().String()) {
			return false
		}
	}
	return true
}

// validUTF8 is s as encoding/json writes it: each byte that does not
// start a valid UTF-8 sequence becomes U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// empty is encoding/json's omitempty test.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64,
		reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// field is one member a struct type encodes.
type field struct {
	index     int
	name      string
	omitEmpty bool
}

// buildPlan is the members a struct type encodes, in field order, or nil
// when Of leaves the type to roundTrip: an embedded field (encoding/json
// promotes its members by rules Of does not repeat), a tag option other
// than omitempty, a tag name encoding/json would not take, or two members
// of one name.
func buildPlan(t reflect.Type) []field {
	plan := make([]field, 0, t.NumField())
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			return nil
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if opts != "" && opts != "omitempty" {
			return nil
		}
		if name == "" {
			name = sf.Name
		} else if !tagName(name) {
			return nil
		}
		for _, f := range plan {
			if f.name == name {
				return nil
			}
		}
		plan = append(plan, field{index: i, name: name, omitEmpty: opts == "omitempty"})
	}
	return plan
}

// tagName accepts the plain names Ombi's and this project's tags use:
// letters, digits, '_', '-' and '.'. encoding/json accepts more; a type
// with another name is left to roundTrip.
func tagName(s string) bool {
	for _, c := range s {
		switch {
		case c == '_' || c == '-' || c == '.':
		case c < utf8.RuneSelf && ('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'):
		default:
			return false
		}
	}
	return s != ""
}

package jsonvalue

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// A Filter rewrites what AppendOf writes. Given the generic value Of(v),
// rewritten by the filter's rules, AppendOf writes what Append would: the
// filter sees each string (Text), each member name (Name) and the members
// it takes whole (Member, Rewrite).
type Filter interface {
	// Text returns the string value s as it is to be written.
	Text(s string) string
	// Name reports whether a member name is written as it is; false makes
	// AppendOf give up.
	Name(name string) bool
	// Member reports whether the member of that name is handed to Rewrite
	// instead of being walked: its value is then Of's, unfiltered.
	Member(name string) bool
	// Rewrite returns the value to write for a member Member chose, given
	// Of's value of it; false makes AppendOf give up.
	Rewrite(name string, v any) (any, bool)
}

// Plans writes typed values as their generic values would be written
// (AppendOf), with a memory of the types it took apart: each type's
// members are found and sorted once, not once per call. It is safe for
// concurrent use; the zero value is ready.
type Plans struct {
	types sync.Map // reflect.Type -> appendInfo
}

// Limits bound what AppendOf writes.
type Limits struct {
	List  int // entries in any array or slice, in a rewritten member too
	Bytes int // length of dst; AppendOf stops as soon as dst passes it
}

// AppendOf appends the JSON encoding of Of(v) rewritten by f, as Append
// writes it, without building the generic value: one walk over v that
// writes as it goes. It gives up, and returns dst unchanged and false,
// where the long way is needed: a value Of would hand to encoding/json (a
// marshaler, a float32, an embedded field, ...) other than a valid
// json.Number, a value nested deeper than Of walks, a list or a length
// over lim, a map with a key that is not valid UTF-8, a nil v, a name f
// refuses or a rewrite f refuses.
func (p *Plans) AppendOf(dst []byte, v any, o Options, lim Limits, f Filter) ([]byte, bool) {
	if v == nil {
		return dst, false
	}
	a := appender{encoder: encoder{b: dst, html: o.EscapeHTML}, lim: lim, f: f, plans: p}
	rv := reflect.ValueOf(v)
	if nilValue(rv) || !a.value(rv, 0) || len(a.b) > lim.Bytes {
		return dst, false
	}
	return a.b, true
}

// nilValue reports a value Of returns as nil.
func nilValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer, reflect.Slice, reflect.Map:
		return v.IsNil()
	}
	return false
}

// appender is one AppendOf.
type appender struct {
	encoder
	lim   Limits
	f     Filter
	plans *Plans
}

// appendInfo is what an appender found of a type: whether Of leaves it to
// roundTrip, and a struct's members sorted by name, as Append writes the
// map Of builds of it.
type appendInfo struct {
	typeInfo
	sorted []field
}

func (p *Plans) info(t reflect.Type) appendInfo {
	if ti, ok := p.types.Load(t); ok {
		return ti.(appendInfo)
	}
	ti := appendInfo{typeInfo: infoOf(t)}
	if ti.plan != nil {
		ti.sorted = slices.SortedFunc(slices.Values(ti.plan), func(x, y field) int { return strings.Compare(x.name, y.name) })
	}
	p.types.Store(t, ti)
	return ti
}

func (a *appender) value(v reflect.Value, depth int) bool {
	t := v.Type()
	if t == numberType {
		s := v.String()
		if s == "" {
			s = "0"
		}
		if !isNumber(s) {
			return false
		}
		a.b = append(a.b, s...)
		return true
	}
	ti := a.plans.info(t)
	if depth > maxOfDepth || ti.opaque {
		return false
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			a.b = append(a.b, "null"...)
			return true
		}
		return a.value(v.Elem(), depth+1)
	case reflect.Bool:
		a.b = strconv.AppendBool(a.b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		a.b = strconv.AppendInt(a.b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		a.b = strconv.AppendUint(a.b, v.Uint(), 10)
	case reflect.Float64:
		return a.float(v.Float()) == nil
	case reflect.String:
		a.str(a.f.Text(validUTF8(v.String())))
	case reflect.Slice:
		if v.IsNil() {
			a.b = append(a.b, "null"...)
			return true
		}
		fallthrough
	case reflect.Array:
		if v.Len() > a.lim.List {
			return false
		}
		a.b = append(a.b, '[')
		for i := range v.Len() {
			if i > 0 {
				a.b = append(a.b, ',')
			}
			if !a.value(v.Index(i), depth+1) || len(a.b) > a.lim.Bytes {
				return false
			}
		}
		a.b = append(a.b, ']')
	case reflect.Map:
		if v.IsNil() {
			a.b = append(a.b, "null"...)
			return true
		}
		return a.mapValue(v, depth)
	case reflect.Struct:
		a.b = append(a.b, '{')
		n := 0
		for _, fl := range ti.sorted {
			fv := v.Field(fl.index)
			if fl.omitEmpty && empty(fv) {
				continue
			}
			if !a.member(fl.name, fv, n, depth) {
				return false
			}
			n++
		}
		a.b = append(a.b, '}')
	default:
		return false
	}
	return true
}

// mapValue writes a map's members sorted by their names, as Append writes
// the map Of builds of it.
func (a *appender) mapValue(v reflect.Value, depth int) bool {
	type entry struct {
		name string
		key  reflect.Value
	}
	entries := make([]entry, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		k := it.Key()
		if k.Kind() == reflect.String && !utf8.ValidString(k.String()) {
			return false
		}
		entries = append(entries, entry{mapKey(k), k})
	}
	slices.SortFunc(entries, func(x, y entry) int { return strings.Compare(x.name, y.name) })
	a.b = append(a.b, '{')
	for i, en := range entries {
		if !a.member(en.name, v.MapIndex(en.key), i, depth) {
			return false
		}
	}
	a.b = append(a.b, '}')
	return true
}

// member writes the n-th member of an object: its name, then its value,
// walked or rewritten whole.
func (a *appender) member(name string, v reflect.Value, n, depth int) bool {
	if !a.f.Name(name) {
		return false
	}
	if n > 0 {
		a.b = append(a.b, ',')
	}
	a.str(name)
	a.b = append(a.b, ':')
	if !a.f.Member(name) {
		return a.value(v, depth+1) && len(a.b) <= a.lim.Bytes
	}
	g, err := (&walker{plans: a.plans}).of(v, depth+1)
	if err != nil {
		return false
	}
	g, ok := a.f.Rewrite(name, g)
	if !ok || longest(g) > a.lim.List {
		return false
	}
	return a.encoder.value(g) == nil && len(a.b) <= a.lim.Bytes
}

// longest is the length of the longest array in a generic value.
func longest(v any) int {
	n := 0
	switch t := v.(type) {
	case []any:
		n = len(t)
		for _, e := range t {
			n = max(n, longest(e))
		}
	case map[string]any:
		for _, e := range t {
			n = max(n, longest(e))
		}
	}
	return n
}

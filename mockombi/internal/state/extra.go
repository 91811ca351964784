package state

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Extra holds the members a record carries that the mock does not model
// (undocumented members of a data document or a recorded answer). They are
// kept and written back, after the modelled members: a modelled member of
// the same name wins.
type Extra map[string]any

// member is one member a struct encodes: its wire name and value.
type member struct {
	name  string
	value reflect.Value
}

// members lists the members encoding/json writes for the struct rv, in
// declaration order: an embedded struct's members in its place, an
// omitempty member left out when it is empty. extra collects the Extra
// fields met (tagged "-"). ok is false for a tag option other than
// omitempty, which the walk does not read.
func members(rv reflect.Value, out []member, extra *[]Extra) (_ []member, ok bool) {
	rt := rv.Type()
	for i := range rt.NumField() {
		f := rt.Field(i)
		fv := rv.Field(i)
		tag := f.Tag.Get("json")
		if f.Type == reflect.TypeFor[Extra]() && tag == "-" {
			*extra = append(*extra, fv.Interface().(Extra))
			continue
		}
		if f.Anonymous && tag == "" {
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue
				}
				fv = fv.Elem()
			}
			if fv.Kind() == reflect.Struct {
				if out, ok = members(fv, out, extra); !ok {
					return out, false
				}
				continue
			}
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		switch {
		case name == "" || opts != "" && opts != "omitempty":
			return out, false
		case opts == "omitempty" && emptyValue(fv):
			continue
		}
		out = append(out, member{name, fv})
	}
	return out, true
}

// emptyValue is encoding/json's test for leaving out an omitempty member.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// Members is a view's members by wire name, its undocumented ones (an
// Extra) among them where no modelled member of the same name is written:
// the map the view stands for, with each member's Go value. v is a
// pointer to a view struct.
func Members(v any) map[string]any {
	var extras []Extra
	ms, _ := members(reflect.ValueOf(v).Elem(), nil, &extras)
	out := make(map[string]any, len(ms))
	for _, x := range extras {
		maps.Copy(out, x)
	}
	for _, m := range ms {
		out[m.name] = m.value.Interface()
	}
	return out
}

// marshalWith encodes v, a pointer to a view struct, as encoding/json
// writes the map of its members: the modelled members (an embedded
// struct's among them, an empty omitempty one left out) and the members
// of extra they do not name, all in sorted order. HTML characters are not
// escaped, as the mock writes its answers. A struct whose fields are
// declared flat in sorted order with no extra is encoded as it is; else
// the members are written one by one, so a large member (a nested user)
// is encoded once. A struct this walk cannot read (a tag with another
// option) takes the long way through a map of its encoded members.
func marshalWith(v any, extra Extra) ([]byte, error) {
	var nested []Extra
	ms, ok := members(reflect.ValueOf(v).Elem(), nil, &nested)
	if !ok {
		return marshalByMap(v, extra)
	}
	sorted := slices.IsSortedFunc(ms, func(a, b member) int { return strings.Compare(a.name, b.name) })
	if len(extra) == 0 && sorted && len(ms) == reflect.TypeOf(v).Elem().NumField()-len(nested) {
		return Encode(v)
	}
	if !sorted {
		slices.SortStableFunc(ms, func(a, b member) int { return strings.Compare(a.name, b.name) })
	}
	var keys []string
	for k := range extra {
		if _, found := slices.BinarySearchFunc(ms, k, func(m member, k string) int { return strings.Compare(m.name, k) }); !found {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	write := func(name string, value any) error {
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		if err := enc.Encode(name); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		buf.WriteByte(':')
		if err := enc.Encode(value); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1)
		return nil
	}
	buf.WriteByte('{')
	for _, m := range ms {
		for len(keys) > 0 && keys[0] < m.name {
			if err := write(keys[0], extra[keys[0]]); err != nil {
				return nil, err
			}
			keys = keys[1:]
		}
		if err := write(m.name, m.value.Interface()); err != nil {
			return nil, err
		}
	}
	for _, k := range keys {
		if err := write(k, extra[k]); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// marshalByMap is marshalWith the long way: v's encoding taken apart into
// its members, extra's added, and the whole encoded as a map.
func marshalByMap(v any, extra Extra) ([]byte, error) {
	b, err := Encode(v)
	if err != nil {
		return nil, err
	}
	members := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &members); err != nil {
		return nil, err
	}
	for k, x := range extra {
		if _, ok := members[k]; ok {
			continue
		}
		if members[k], err = Encode(x); err != nil {
			return nil, err
		}
	}
	return Encode(members)
}

// Encode is json.Marshal without HTML escaping: the encoding every answer
// of the mock has (encoding/json with HTML escaping off, the Encoder's
// newline dropped).
func Encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

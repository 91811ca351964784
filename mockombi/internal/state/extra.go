package state

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// Extra holds the members a record carries that the mock does not model
// (undocumented members of a data document or a recorded answer). They are
// kept and written back, after the modelled members: a modelled member of
// the same name wins.
type Extra map[string]any

// marshalWith encodes v, a pointer to a struct whose fields are declared
// in sorted wire-name order, with the members of extra it does not name
// added in their sorted places, as encoding/json writes a map. HTML
// characters are not escaped, as the mock writes its answers. The members
// are written one by one, so a large member (a nested user) is encoded
// once; a struct this walk cannot read (a tag with options, fields out of
// order) takes the long way through a map of its encoded members.
func marshalWith(v any, extra Extra) ([]byte, error) {
	if len(extra) == 0 {
		return Encode(v)
	}
	rv := reflect.ValueOf(v).Elem()
	rt := rv.Type()
	var names []string
	var fields []int
	for i := range rt.NumField() {
		f := rt.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" || opts != "" || (len(names) > 0 && names[len(names)-1] >= name) {
			return marshalByMap(v, extra)
		}
		names = append(names, name)
		fields = append(fields, i)
	}
	var keys []string
	for k := range extra {
		if _, found := slices.BinarySearch(names, k); !found {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	member := func(name string, value any) error {
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
	for i, name := range names {
		for len(keys) > 0 && keys[0] < name {
			if err := member(keys[0], extra[keys[0]]); err != nil {
				return nil, err
			}
			keys = keys[1:]
		}
		if err := member(name, rv.Field(fields[i]).Interface()); err != nil {
			return nil, err
		}
	}
	for _, k := range keys {
		if err := member(k, extra[k]); err != nil {
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

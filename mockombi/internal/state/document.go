package state

import (
	"encoding/json"
	"reflect"
	"strings"
)

// Document is what a settings document (or a block of the catalogue a
// view passes on) keeps beside the members of Ombi's model, so that the
// document is written back as it was saved: which of
// the model's members the saved JSON left out, and the members it carried
// that the model has not, or whose value does not fit the model's type,
// kept as given. A data document cannot carry such members (its shape is
// checked against the model, member by member); a settings body a client
// posts can, and the mock answers it back as it was posted (Ombi would
// bind it to its model, drop what the model lacks and fill what the body
// left out).
//
// A type that holds a Document embeds it (tagged "-") and has a
// MarshalJSON calling marshalDocument and an UnmarshalJSON calling
// decodeDocument; its nested documents are pointers or slices of pointers,
// so that their own methods run.
type Document struct {
	absent map[string]bool
	extra  Extra
}

// decodeDocument fills v, a pointer to a struct embedding d, from the JSON
// object b: null leaves v as it is, as encoding/json does.
func decodeDocument(b []byte, v any, d *Document) error {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	if m == nil {
		return nil
	}
	return fillDocument(m, v, d)
}

// fillDocument sets v's members from the decoded JSON object m: each
// member of the model from the key of its exact name, when the value fits
// the member's type; the others, and a value that does not fit, kept in d.
func fillDocument(m map[string]any, v any, d *Document) error {
	rv := reflect.ValueOf(v).Elem()
	rv.SetZero()
	*d = Document{absent: map[string]bool{}, extra: Extra{}}
	fields := documentFields(rv.Type())
	for name, i := range fields {
		raw, ok := m[name]
		if !ok {
			d.absent[name] = true
			continue
		}
		fv := rv.Field(i)
		if raw == nil && !nullable(fv.Kind()) {
			d.absent[name], d.extra[name] = true, nil
			continue
		}
		b, err := json.Marshal(raw)
		if err != nil {
			return err
		}
		fresh := reflect.New(fv.Type())
		if err := json.Unmarshal(b, fresh.Interface()); err != nil {
			d.absent[name], d.extra[name] = true, raw
			continue
		}
		fv.Set(fresh.Elem())
	}
	for k, x := range m {
		if _, ok := fields[k]; !ok {
			d.extra[k] = x
		}
	}
	return nil
}

// nullable reports whether JSON null is a value of a member of kind k
// (encoding/json leaves a bool, number or string member as it is on null).
func nullable(k reflect.Kind) bool {
	switch k {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return true
	}
	return false
}

// documentFields maps the wire names of a document type's members to
// their field indexes.
func documentFields(t reflect.Type) map[string]int {
	out := map[string]int{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		out[name] = i
	}
	return out
}

// marshalDocument encodes v, a pointer to a struct embedding d: the
// members of the model the document carries and the ones d keeps, sorted
// by name, as encoding/json writes the map the document was saved as.
func marshalDocument(v any, d *Document) ([]byte, error) {
	var nested []Extra
	ms, _ := members(reflect.ValueOf(v).Elem(), nil, &nested)
	out := make(map[string]any, len(ms)+len(d.extra))
	for k, x := range d.extra {
		out[k] = x
	}
	for _, m := range ms {
		if !d.absent[m.name] {
			out[m.name] = m.value.Interface()
		}
	}
	return Encode(out)
}

// HasMember reports whether the document carries the model's member name.
func (d *Document) HasMember(name string) bool { return !d.absent[name] }

// SetMember marks the model's member name as carried, after a handler set it.
func (d *Document) SetMember(name string) {
	delete(d.absent, name)
	delete(d.extra, name)
}

// DropMember leaves the model's member name out of the document.
func (d *Document) DropMember(name string) {
	if d.absent == nil {
		d.absent = map[string]bool{}
	}
	d.absent[name] = true
	delete(d.extra, name)
}

// Member is the member name of a document as it is written (nil when the
// document does not carry it): for a view that passes a saved member on.
func Member(doc json.Marshaler, name string) any {
	b, err := doc.MarshalJSON()
	if err != nil {
		return nil
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m[name]
}

// FromMembers decodes a document (a pointer to a document type) from a
// decoded JSON object, as UnmarshalJSON would from its encoding.
func FromMembers(m map[string]any, doc json.Unmarshaler) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return doc.UnmarshalJSON(b)
}

// ToMembers is a document as a decoded JSON object: for a handler that
// changes members by wire name before saving it again with FromMembers.
func ToMembers(doc json.Marshaler) map[string]any {
	b, err := doc.MarshalJSON()
	if err != nil {
		return nil
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

// Section is the saved section key ("ombi", "notifications/email", ...):
// a document, the feature list or the themes; nil when the settings do
// not carry it.
func (s *Settings) Section(key string) any {
	i, ok := documentFields(reflect.TypeFor[Settings]())[key]
	if !ok || !s.HasMember(key) {
		return nil
	}
	f := reflect.ValueOf(s).Elem().Field(i)
	if f.IsNil() {
		return nil
	}
	return f.Interface()
}

// SetSection saves the section key from a decoded JSON object, as a
// document of the section's model; false for a key that is no section.
func (s *Settings) SetSection(key string, m map[string]any) (bool, error) {
	i, ok := documentFields(reflect.TypeFor[Settings]())[key]
	if !ok {
		return false, nil
	}
	f := reflect.ValueOf(s).Elem().Field(i)
	b, err := json.Marshal(m)
	if err != nil {
		return true, err
	}
	fresh := reflect.New(f.Type())
	if err := json.Unmarshal(b, fresh.Interface()); err != nil {
		return true, err
	}
	f.Set(fresh.Elem())
	s.SetMember(key)
	return true, nil
}

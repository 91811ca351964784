package state

import (
	"bytes"
	"encoding/json"
)

// Extra holds the members a record carries that the mock does not model
// (undocumented members of a data document or a recorded answer). They are
// kept and written back, after the modelled members: a modelled member of
// the same name wins.
type Extra map[string]any

// marshalWith encodes v, a struct whose fields are declared in sorted
// wire-name order, with the members of extra it does not name added in
// their sorted places, as encoding/json writes a map. HTML characters are
// not escaped, as the mock writes its answers.
func marshalWith(v any, extra Extra) ([]byte, error) {
	b, err := encode(v)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	members := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &members); err != nil {
		return nil, err
	}
	for k, x := range extra {
		if _, ok := members[k]; ok {
			continue
		}
		if members[k], err = encode(x); err != nil {
			return nil, err
		}
	}
	return encode(members)
}

// encode is json.Marshal without HTML escaping.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

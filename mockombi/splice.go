package mockombi

import (
	"slices"
	"unicode/utf8"

	"github.com/ombi-mcp/ombi-mcp/internal/jsonvalue"
)

// rawJSON is a value already encoded as writeJSON encodes it (compact,
// nulls kept, <>& not escaped), placed in a splice so its bytes are copied
// into the answer rather than encoded again. MarshalJSON hands the same
// bytes to encoders that do not know the type (jsonvalue passes them to
// encoding/json, which compacts them unchanged), so an answer holding one
// encodes the same whichever encoder meets it.
type rawJSON []byte

// MarshalJSON returns the encoded bytes.
func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }

// splice is a view object holding rawJSON members, directly or in nested
// splices (or []any lists of them). writeJSON encodes it member by member in key order (as every
// object is encoded), copying the rawJSON members and encoding the others
// as any view. Pass a splice on as a splice (or any): converted to
// map[string]any it still encodes the same, only through encoding/json's
// slower path for its rawJSON members.
type splice map[string]any

// appendSplice appends v encoded as writeJSON encodes it: splices, []any
// lists (which may hold splices) and rawJSON here, every other value by enc.
func appendSplice(dst []byte, v any, enc *jsonvalue.Encoder) ([]byte, error) {
	switch x := v.(type) {
	case rawJSON:
		return append(dst, x...), nil
	case []any:
		if x == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendSplice(dst, e, enc); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case splice:
		if x == nil {
			return append(dst, "null"...), nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys) // the order encoding/json gives map keys
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendKey(dst, k, enc); err != nil {
				return dst, err
			}
			dst = append(dst, ':')
			if dst, err = appendSplice(dst, x[k], enc); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	}
	return enc.Append(dst, v, jsonvalue.Options{EscapeHTML: false})
}

// appendKey appends an object key as a JSON string: printable ASCII other
// than " and \ stands for itself (<>& are not escaped); any other key is
// left to enc.
func appendKey(dst []byte, k string, enc *jsonvalue.Encoder) ([]byte, error) {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			return enc.Append(dst, k, jsonvalue.Options{EscapeHTML: false})
		}
	}
	dst = append(dst, '"')
	dst = append(dst, k...)
	return append(dst, '"'), nil
}

package server

import (
	"bytes"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// This file holds what the stdio guard reads from a frame's bytes.

// frameShape returns the maximum nesting depth of arrays and objects in a
// JSON text, and the number of members of its top-level object (duplicates
// counted), ignoring brackets and colons inside strings.
func frameShape(b []byte) (depth, members int) {
	level := 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			level++
			depth = max(depth, level)
		case c == '}' || c == ']':
			level--
		case c == ':' && level == 1:
			members++
		}
	}
	return depth, members
}

// jsonDepth returns the maximum nesting depth of arrays and objects in a
// JSON text.
func jsonDepth(b []byte) int {
	depth, _ := frameShape(b)
	return depth
}

// topLevelID returns the raw JSON of the "id" member of the object b when it
// is a string or a number. On a frame cut short it finds a member that comes
// before the cut.
func topLevelID(b []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	for dec.More() {
		key, err := dec.Token()
		var v json.RawMessage
		// A member's value is followed by ',' or '}': one that ends b may
		// have been cut.
		if err != nil || dec.Decode(&v) != nil || dec.InputOffset() == int64(len(b)) {
			return "", false
		}
		if key == "id" && usableID(v) {
			return string(v), true
		}
	}
	return "", false
}

// usableID reports whether a raw JSON value is an id an answer can echo: a
// string or a number.
func usableID(raw []byte) bool {
	return len(raw) > 0 && (raw[0] == '"' || raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9')
}

// carriedID returns the SDK's id for a raw JSON id, and whether the SDK
// writes that id back as the same bytes. The SDK reads a number as a float64
// and writes it as an integer, and writes a string as encoding/json does
// without escaping HTML: so a plain integer of at most 2^53 in magnitude, or
// a string without needless escapes, comes back as sent.
func carriedID(raw []byte) (jsonrpc.ID, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return jsonrpc.ID{}, false
	}
	id, err := jsonrpc.MakeID(v)
	if err != nil || !id.IsValid() {
		return jsonrpc.ID{}, false
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	return id, enc.Encode(id.Raw()) == nil && bytes.Equal(bytes.TrimSuffix(b.Bytes(), []byte("\n")), raw)
}

var utf8BOM = []byte("\xef\xbb\xbf")

// trimFrame drops a leading UTF-8 byte order mark and surrounding JSON
// whitespace.
func trimFrame(b []byte) []byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	b = bytes.TrimPrefix(b, utf8BOM)
	return bytes.Trim(b, " \t\r\n")
}

package jsonvalue

import (
	"bytes"
	"encoding/json"

	fastjson "github.com/segmentio/encoding/json"
)

// Decode decodes one JSON text into the plain values encoding/json
// decodes into with UseNumber: map[string]any, []any, json.Number,
// string, bool and nil, as json.Unmarshal would (text after the value is
// an error). segmentio's parser (already in the build: the go-sdk decodes
// JSON-RPC with it) goes first: it scans the text once and builds the
// values in about half encoding/json's time. When it refuses the text,
// encoding/json decodes it, and its verdict stands.
// TestDecode_matchesEncodingJSON holds the two to the same values.
func Decode(b []byte) (any, error) {
	var v any
	if rest, err := fastjson.Parse(b, &v, fastjson.UseNumber); err == nil && len(bytes.TrimLeft(rest, " \t\r\n")) == 0 {
		return v, nil
	}
	return decodeStd(b)
}

// decodeStd is Decode by encoding/json alone: json.Unmarshal's verdict
// and error, numbers kept as json.Number.
func decodeStd(b []byte) (any, error) {
	if !json.Valid(b) {
		var v any
		return nil, json.Unmarshal(b, &v)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

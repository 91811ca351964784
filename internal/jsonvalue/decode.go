package jsonvalue

import (
	"bytes"
	"encoding/json"
	"reflect"

	fastjson "github.com/segmentio/encoding/json"
)

// Unmarshal is json.Unmarshal, faster: the same values, the same verdict
// and the same error. See parse.
func Unmarshal(b []byte, v any) error { return parse(b, v, false) }

// Decode decodes one JSON text into the plain values encoding/json
// decodes into with UseNumber: map[string]any, []any, json.Number,
// string, bool and nil, as json.Unmarshal would (text after the value is
// an error). See parse.
func Decode(b []byte) (any, error) {
	var v any
	if err := parse(b, &v, true); err != nil {
		return nil, err
	}
	return v, nil
}

// parse decodes b into v, a non-nil pointer, as json.Unmarshal does, with
// numbers in interfaces kept as json.Number when useNumber is set.
// segmentio's parser (already in the build: the go-sdk decodes JSON-RPC
// with it) goes first: it scans the text once where encoding/json scans it
// twice, and decodes a 100-request page of Ombi's in about two thirds of
// the time. When it refuses the text, or finds text after the value, v is
// zeroed and encoding/json decodes it again, whose verdict and error stand
// (the fast parser's syntax errors carry no offset).
// TestDecode_matchesEncodingJSON and the upstream client's
// TestUnmarshal_agreesWithEncodingJSON hold the two to the same values.
func parse(b []byte, v any, useNumber bool) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return json.Unmarshal(b, v) // its InvalidUnmarshalError
	}
	var flags fastjson.ParseFlags
	if useNumber {
		flags = fastjson.UseNumber
	}
	if rest, err := fastjson.Parse(b, v, flags); err == nil && len(bytes.TrimLeft(rest, " \t\r\n")) == 0 {
		return nil
	}
	rv.Elem().SetZero()
	if !useNumber || !json.Valid(b) {
		return json.Unmarshal(b, v) // for invalid text, the error Unmarshal gives
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

package ombi

import (
	"encoding/json"
	"reflect"

	fastjson "github.com/segmentio/encoding/json"
)

// unmarshal decodes an upstream answer into v, a non-nil pointer, as
// encoding/json.Unmarshal does. segmentio's decoder (already in the build:
// the go-sdk decodes JSON-RPC with it) goes first: it scans the text once
// where encoding/json scans it twice, and decodes a 100-request page in
// about two thirds of the time. When it refuses the text, v is zeroed and
// decoded again by encoding/json, whose verdict and error stand (the fast
// decoder's syntax errors carry no offset). TestUnmarshal_agreesWithEncodingJSON
// holds the two to the same verdict and value on mutated upstream answers.
func unmarshal(b []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return json.Unmarshal(b, v)
	}
	if fastjson.Unmarshal(b, v) == nil {
		return nil
	}
	rv.Elem().SetZero()
	return json.Unmarshal(b, v)
}

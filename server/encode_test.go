package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/internal/jsonvalue"
)

// TestEncodeEnvelope_matchesEncodingJSON: the budget's encoder writes every
// envelope byte for byte as json.Marshal does, whatever the data holds.
func TestEncodeEnvelope_matchesEncodingJSON(t *testing.T) {
	retry := 30
	odd := []string{"", "plain", `quote " and \ backslash`, "<b>&amp;</b>", "line\nbreak\ttab\r\b\f", "\x00\x01\x1f\x7f",
		"\u2028\u2029", "bad \xff\xfe utf-8", "ünïcødé ✓ 😀", strings.Repeat("long ", 300)}
	data := map[string]any{
		"kind": "media", "n": json.Number("42"), "neg": json.Number("-0.5e-3"), "big": json.Number("123456789012345678901234567890"),
		"empty": json.Number(""), "f": 1.5, "tiny": 1e-7, "huge": 1e21, "i": 7, "t": true, "nil": nil,
		"nilmap": map[string]any(nil), "nilarr": []any(nil), "arr": []any{}, "obj": map[string]any{},
		"typed": struct {
			A int    `json:"a"`
			B string `json:"b,omitempty"`
		}{A: 1}, "strs": []string{"a", "<"},
		"nested": []any{map[string]any{"z": 1, "a": []any{json.Number("1"), "x", map[string]any{"<k>": "v"}}}},
	}
	for i, s := range odd {
		data["s"+strings.Repeat("_", i)] = s
		data[s] = i // odd member names
	}
	envs := []*envelope{
		success("read_search", data, []string{"w <1>", "w\u2028"}),
		success("read_search", nil, nil),
		{OK: true, Operation: "x", Data: map[string]any{"items": []any{"a"}}},
		failure("read_requests", &envelopeError{Code: codeInternalError, Message: "m <&>", Field: "/f", RetryAfterSeconds: &retry}, []string{}),
		failure("read_requests", &envelopeError{Code: codeInvalidArgument, Message: "m"}, nil),
	}
	envs[4].Data = map[string]any{"partial": []any{json.Number("1")}}
	for i, env := range envs {
		want, err := json.Marshal(env)
		if err != nil {
			t.Fatal(err)
		}
		if got := encodeEnvelope(env); !bytes.Equal(got, want) {
			t.Errorf("envelope %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// TestDropRecords_sizeArithmetic: an envelope with the first n records
// serialises to the envelope with none plus each record once and n-1
// commas, the sum dropRecords searches with.
func TestDropRecords_sizeArithmetic(t *testing.T) {
	g, err := jsonvalue.Of(newMediaPage(mediaItems(12, "overview <with> & \u2028 text", 3), localPage3()))
	if err != nil {
		t.Fatal(err)
	}
	obj := g.(map[string]any)
	env := success("read_search", obj, nil)
	items := obj["items"].([]any)
	obj["items"] = items[:0]
	base := len(mustMarshal(env))
	sum := 0
	for n := 1; n <= len(items); n++ {
		sum += len(mustMarshal(items[n-1]))
		obj["items"] = items[:n]
		if got, want := base+sum+n-1, len(mustMarshal(env)); got != want {
			t.Fatalf("n=%d: arithmetic says %d bytes, json.Marshal %d", n, got, want)
		}
	}
}

package spec

import (
	"errors"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const branchSchema = `{
  "type": "object",
  "oneOf": [
    {"type": "object", "properties": {"action": {"const": "text"}, "media": {"enum": ["movie", "tv"]}, "query": {"type": "string", "minLength": 1}},
     "required": ["action", "media", "query"], "additionalProperties": false},
    {"type": "object", "properties": {"action": {"const": "multi"}, "query": {"type": "string"}, "include": {"type": "array", "minItems": 1}},
     "required": ["action", "query", "include"], "additionalProperties": false}
  ]
}`

func TestSummarize_blamesTheMeantBranch(t *testing.T) {
	s, err := Compile("mem://test/branch.json", []byte(branchSchema), true)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		in          string
		wantPointer string
	}{
		{"missing field of the matched branch", `{"action":"text","media":"movie"}`, "/query"},
		{"unexpected property", `{"action":"multi","query":"x","include":["a"],"media":"tv"}`, "/media"},
		{"nested constraint", `{"action":"text","media":"movie","query":""}`, "/query"},
		{"unknown discriminator value", `{"action":"nope","query":"x"}`, "/action"},
		{"wrong enum value", `{"action":"text","media":"album","query":"x"}`, "/media"},
		{"empty object", `{}`, "/action"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst, err := instance([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			err = s.Validate(inst)
			var ve *jsonschema.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Validate(%s) = %v, want a validation error", tt.in, err)
			}
			got := summarize("t", "input", ve)
			if got.Pointer != tt.wantPointer {
				t.Errorf("summarize(%s).Pointer = %q, want %q (message %q)\n%s", tt.in, got.Pointer, tt.wantPointer, got.Message, ve)
			}
		})
	}
}

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

func TestTranslateSpace_ecmaWhitespace(t *testing.T) {
	tests := []struct {
		pattern string
		in      string
		want    bool
	}{
		{`\S`, "\u00a0\u00a0", false},
		{`\S`, "\u3000", false},
		{`\S`, "\u2028\u2029", false},
		{`\S`, "\v", false},
		{`\S`, "  x  ", true},
		{`^\S+$`, "a\u00a0b", false},
		{`^\S+$`, "abc", true},
		{`^[\s]+$`, "\ufeff", true},
		{`^a\\s$`, `a\s`, true},
	}
	for _, tt := range tests {
		re, err := ecmaRegexp(tt.pattern)
		if err != nil {
			t.Fatalf("ecmaRegexp(%q): %v", tt.pattern, err)
		}
		if got := re.MatchString(tt.in); got != tt.want {
			t.Errorf("ecmaRegexp(%q).MatchString(%q) = %v, want %v", tt.pattern, tt.in, got, tt.want)
		}
	}
}

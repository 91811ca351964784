package conformance

import (
	"encoding/json"
	"fmt"
	"sort"
)

// portabilityViolations checks an advertised inputSchema against the
// portability rules of DECISIONS D1: root type object, no root combinators or
// conditionals, additionalProperties false at the root, no $ref anywhere.
func portabilityViolations(raw []byte) []string {
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil {
		return []string{fmt.Sprintf("inputSchema is not a JSON object: %v", err)}
	}
	var out []string
	if root["type"] != "object" {
		out = append(out, fmt.Sprintf("root type is %v, want \"object\"", root["type"]))
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf", "not", "if", "then", "else"} {
		if _, ok := root[k]; ok {
			out = append(out, "root carries "+k)
		}
	}
	if ap, ok := root["additionalProperties"]; !ok || ap != false {
		out = append(out, "root additionalProperties is not false")
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch t := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if k == "$ref" || k == "$dynamicRef" {
					out = append(out, fmt.Sprintf("%s at %s", k, path+"/"+k))
				}
				walk(path+"/"+k, t[k])
			}
		case []any:
			for i, c := range t {
				walk(fmt.Sprintf("%s/%d", path, i), c)
			}
		}
	}
	walk("", root)
	return out
}

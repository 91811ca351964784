package spec

import (
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
)

//go:embed defs.json envelope.json tools.json enums.json routes.json runtime_rules.json clauses.json input published
var files embed.FS

// Bundle names, as OMBI_BUNDLES spells them.
const (
	BundleCore           = "core"
	BundleModeration     = "moderation"
	BundleAdministration = "administration"
)

// Annotations are the MCP ToolAnnotations a tool advertises.
type Annotations struct {
	ReadOnlyHint    bool `json:"readOnlyHint"`
	DestructiveHint bool `json:"destructiveHint"`
	IdempotentHint  bool `json:"idempotentHint"`
	OpenWorldHint   bool `json:"openWorldHint"`
}

// Tool is one catalogue entry of spec/tools.json.
type Tool struct {
	Name        string      `json:"name"`
	Title       string      `json:"title"`
	Description string      `json:"description"`
	Bundle      string      `json:"bundle"`
	Families    []string    `json:"families"`
	Annotations Annotations `json:"annotations"`
}

type catalogue struct {
	Tools []Tool `json:"tools"`
}

// File returns the raw bytes of one embedded spec file, e.g. "defs.json" or
// "input/read_search.json".
func File(name string) ([]byte, error) {
	b, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("read spec file %s: %w", name, err)
	}
	return b, nil
}

var loadTools = sync.OnceValues(func() ([]Tool, error) {
	b, err := File("tools.json")
	if err != nil {
		return nil, err
	}
	var c catalogue
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("decode tools.json: %w", err)
	}
	return c.Tools, nil
})

// Tools returns the catalogue of all tools in catalogue order. It panics if
// the embedded catalogue is malformed, which the package tests rule out.
func Tools() []Tool {
	t, err := loadTools()
	if err != nil {
		panic(err)
	}
	return append([]Tool(nil), t...)
}

// Lookup returns the catalogue entry of the named tool.
func Lookup(name string) (Tool, bool) {
	for _, t := range Tools() {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// ToolNames returns every tool name, sorted.
func ToolNames() []string {
	var names []string
	for _, t := range Tools() {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return names
}

// InputSchema returns the strict input schema of a tool (spec/input/<tool>.json).
func InputSchema(tool string) (json.RawMessage, error) {
	if _, ok := Lookup(tool); !ok {
		return nil, fmt.Errorf("input schema: unknown tool %q", tool)
	}
	return File("input/" + tool + ".json")
}

// PublishedInputSchema returns the portable projection of a tool's input
// schema that tools/list advertises (spec/published/<tool>.json, DECISIONS D1).
func PublishedInputSchema(tool string) (json.RawMessage, error) {
	if _, ok := Lookup(tool); !ok {
		return nil, fmt.Errorf("published schema: unknown tool %q", tool)
	}
	return File("published/" + tool + ".json")
}

// loadInputEnums decodes, once, the enums of the top-level properties of
// every published input schema: tool -> property -> values.
var loadInputEnums = sync.OnceValues(func() (map[string]map[string][]string, error) {
	out := map[string]map[string][]string{}
	for _, t := range Tools() {
		raw, err := PublishedInputSchema(t.Name)
		if err != nil {
			return nil, err
		}
		var s struct {
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("input enums of %s: %w", t.Name, err)
		}
		out[t.Name] = map[string][]string{}
		for name, p := range s.Properties {
			if len(p.Enum) > 0 {
				out[t.Name][name] = p.Enum
			}
		}
	}
	return out, nil
})

// InputEnum returns the enum of a top-level property of a tool's published
// input schema, in schema order: for example the 14 job names of
// write_job_run's job. Code that must agree with the contract (which jobs
// exist, say) reads the list here instead of writing it again.
func InputEnum(tool, property string) ([]string, error) {
	if _, ok := Lookup(tool); !ok {
		return nil, fmt.Errorf("input enum: unknown tool %q", tool)
	}
	all, err := loadInputEnums()
	if err != nil {
		return nil, err
	}
	values, ok := all[tool][property]
	if !ok {
		return nil, fmt.Errorf("input enum %s.%s: no such enum property", tool, property)
	}
	return append([]string(nil), values...), nil
}

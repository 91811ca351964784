package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// ValidationError reports the first meaningful failure of a value against a
// tool's schema. Pointer is the JSON Pointer of the failing field inside the
// instance ("" for the root); for an unexpected property it names that
// property.
type ValidationError struct {
	Tool    string
	Schema  string // "input", "published" or "output"
	Pointer string
	Keyword string
	Message string
	Detail  string // the validator's full error tree
}

func (e *ValidationError) Error() string {
	p := e.Pointer
	if p == "" {
		p = "/"
	}
	return fmt.Sprintf("%s %s schema: at %s: %s", e.Tool, e.Schema, p, e.Message)
}

// Validator holds the schemas of every tool: strict input, published input
// projection and composed output. Each is compiled on its first use (a
// server or a check usually needs a few of the 93), once, and safe for
// concurrent use; CompileAll compiles them all at once.
type Validator struct {
	input, published, output map[string]*lazySchema
}

// lazySchema is one schema compiled on first use.
type lazySchema struct {
	once   sync.Once
	url    string
	get    func(string) (json.RawMessage, error)
	tool   string
	format bool
	s      *jsonschema.Schema
	err    error
	// the oneOf branches by discriminator value (see discriminator), nil
	// when the schema has none
	disc     string
	branches map[string]*jsonschema.Schema
}

func (l *lazySchema) compiled() (*jsonschema.Schema, error) {
	l.once.Do(func() {
		raw, err := l.get(l.tool)
		if err == nil {
			err = l.compile(raw)
		}
		if err != nil {
			l.err = fmt.Errorf("compile schema %s: %w", l.url, err)
		}
	})
	return l.s, l.err
}

func (l *lazySchema) compile(raw []byte) error {
	c, doc, err := compiler(l.url, raw, l.format)
	if err != nil {
		return err
	}
	if l.s, err = c.Compile(l.url); err != nil {
		return err
	}
	prop, index, ok := discriminator(doc)
	if !ok {
		return nil
	}
	l.disc, l.branches = prop, map[string]*jsonschema.Schema{}
	for value, i := range index {
		if l.branches[value], err = c.Compile(fmt.Sprintf("%s#/oneOf/%d", l.url, i)); err != nil {
			return err
		}
	}
	return nil
}

// branchTopLevel are the keywords a discriminated schema may hold beside
// oneOf: none of them asserts anything of an object instance.
var branchTopLevel = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "$defs": true,
	"title": true, "description": true, "type": true, "oneOf": true,
}

// discriminator reports whether a schema document is an object schema whose
// only assertion is a oneOf in which every branch pins one property, prop,
// to a string const of its own (the tools' action discriminator), with the
// const value of each branch and the branch's index. For such a schema an
// object instance whose prop is one of those strings is valid exactly when
// it is valid against that branch: every other branch fails on its const,
// so the oneOf passes or fails with the one branch, and nothing else at the
// top asserts anything of an object. Validating the one branch first spares
// building the others' failures; a failure is validated again in full, so
// its report does not change.
func discriminator(doc any) (prop string, index map[string]int, ok bool) {
	top, _ := doc.(map[string]any)
	if top == nil || top["type"] != "object" {
		return "", nil, false
	}
	for k := range top {
		if !branchTopLevel[k] {
			return "", nil, false
		}
	}
	branches, _ := top["oneOf"].([]any)
	if len(branches) < 2 {
		return "", nil, false
	}
	// consts[i] is branch i's string consts by property
	consts := make([]map[string]string, len(branches))
	for i, b := range branches {
		m, _ := b.(map[string]any)
		props, _ := m["properties"].(map[string]any)
		consts[i] = map[string]string{}
		for name, p := range props {
			ps, _ := p.(map[string]any)
			if c, isString := ps["const"].(string); isString {
				consts[i][name] = c
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(consts[0])) {
		index = map[string]int{}
		for i := range branches {
			c, has := consts[i][name]
			if _, dup := index[c]; !has || dup {
				index = nil
				break
			}
			index[c] = i
		}
		if index != nil {
			return name, index, true
		}
	}
	return "", nil, false
}

// NewValidator returns the validator of every catalogue tool's strict
// input, published input and composed output schema under JSON Schema
// draft 2020-12. Formats are asserted on input (e.g. date-time). Schemas
// compile on first use; CompileAll reports a broken one up front.
func NewValidator() (*Validator, error) {
	v := &Validator{
		input:     map[string]*lazySchema{},
		published: map[string]*lazySchema{},
		output:    map[string]*lazySchema{},
	}
	for _, t := range Tools() {
		for _, c := range []struct {
			kind string
			get  func(string) (json.RawMessage, error)
			dst  map[string]*lazySchema
		}{
			{"input", InputSchema, v.input},
			{"published", PublishedInputSchema, v.published},
			{"output", OutputSchema, v.output},
		} {
			c.dst[t.Name] = &lazySchema{url: fmt.Sprintf("mem://%s/%s.json", c.kind, t.Name), get: c.get, tool: t.Name, format: c.kind != "output"}
		}
	}
	return v, nil
}

// CompileAll compiles every schema now and returns the first failure.
func (v *Validator) CompileAll() error {
	for _, set := range []map[string]*lazySchema{v.input, v.published, v.output} {
		for _, name := range sortedNames(set) {
			if _, err := set[name].compiled(); err != nil {
				return err
			}
		}
	}
	return nil
}

func sortedNames(set map[string]*lazySchema) []string {
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Compile compiles one schema document under draft 2020-12.
func Compile(url string, raw []byte, assertFormat bool) (*jsonschema.Schema, error) {
	c, _, err := compiler(url, raw, assertFormat)
	if err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// compiler is a draft 2020-12 compiler holding the schema document raw at
// url, and the decoded document.
func compiler(url string, raw []byte, assertFormat bool) (*jsonschema.Compiler, any, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, nil, fmt.Errorf("decode schema %s: %w", url, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseRegexpEngine(ecmaRegexp)
	if assertFormat {
		c.AssertFormat()
	}
	if err := c.AddResource(url, doc); err != nil {
		return nil, nil, fmt.Errorf("add schema %s: %w", url, err)
	}
	return c, doc, nil
}

// ValidateInput validates tool arguments against the strict input schema.
// args may be raw JSON ([]byte or json.RawMessage) or a decoded value.
func (v *Validator) ValidateInput(tool string, args any) error {
	return v.validate(v.input, "input", tool, args)
}

// ValidatePublished validates tool arguments against the published projection.
func (v *Validator) ValidatePublished(tool string, args any) error {
	return v.validate(v.published, "published", tool, args)
}

// ValidateOutput validates a structuredContent envelope against the tool's
// composed outputSchema.
func (v *Validator) ValidateOutput(tool string, result any) error {
	return v.validate(v.output, "output", tool, result)
}

func (v *Validator) validate(set map[string]*lazySchema, kind, tool string, value any) error {
	l, ok := set[tool]
	if !ok {
		return fmt.Errorf("validate %s: unknown tool %q", kind, tool)
	}
	s, err := l.compiled()
	if err != nil {
		return err
	}
	inst, err := instance(value)
	if err != nil {
		return &ValidationError{Tool: tool, Schema: kind, Keyword: "json", Message: err.Error()}
	}
	if l.branch(inst) {
		return nil
	}
	err = s.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	return summarize(tool, kind, ve)
}

// branch reports whether inst is valid against the oneOf branch its
// discriminator selects, and so against the whole schema (discriminator);
// false when the schema has no discriminator, inst selects no branch or
// fails it.
func (l *lazySchema) branch(inst any) bool {
	obj, _ := inst.(map[string]any)
	value, _ := obj[l.disc].(string)
	b := l.branches[value]
	return b != nil && b.Validate(inst) == nil
}

func instance(value any) (any, error) {
	var raw []byte
	switch t := value.(type) {
	case []byte:
		raw = t
	case json.RawMessage:
		raw = t
	default:
		b, err := json.Marshal(value)
		if err != nil {
			return nil, fmt.Errorf("encode value: %w", err)
		}
		raw = b
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(raw))
}

type leaf struct {
	pointer string
	keyword string
	message string
	depth   int
}

// summarize picks the most specific failure. Inside a oneOf/anyOf it follows
// the branch whose const discriminators matched (the branch the caller meant);
// when every branch fails on the same discriminator, it blames that
// discriminator and lists the accepted values. Among the remaining leaves the
// deepest instance location wins.
func summarize(tool, kindName string, ve *jsonschema.ValidationError) *ValidationError {
	leaves := collect(ve)
	if len(leaves) == 0 {
		return &ValidationError{Tool: tool, Schema: kindName, Message: ve.Error(), Detail: ve.Error()}
	}
	sort.SliceStable(leaves, func(i, j int) bool { return leaves[i].depth > leaves[j].depth })
	best := leaves[0]
	return &ValidationError{Tool: tool, Schema: kindName, Pointer: best.pointer, Keyword: best.keyword, Message: best.message, Detail: ve.Error()}
}

func collect(e *jsonschema.ValidationError) []leaf {
	switch e.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
		return collectBranches(e)
	}
	if len(e.Causes) > 0 {
		var out []leaf
		for _, c := range e.Causes {
			out = append(out, collect(c)...)
		}
		return out
	}
	return []leaf{toLeaf(e)}
}

// collectBranches chooses among the failed branches of a oneOf/anyOf.
func collectBranches(e *jsonschema.ValidationError) []leaf {
	if len(e.Causes) == 0 {
		return []leaf{toLeaf(e)}
	}
	var candidates [][]leaf
	wants := map[string][]string{} // discriminator pointer -> accepted consts
	for _, c := range e.Causes {
		if consts := constFailures(c); len(consts) > 0 {
			for _, k := range consts {
				wants[k.pointer] = append(wants[k.pointer], k.message)
			}
			continue
		}
		candidates = append(candidates, collect(c))
	}
	if len(candidates) > 0 {
		sort.SliceStable(candidates, func(i, j int) bool { return len(candidates[i]) < len(candidates[j]) })
		return candidates[0]
	}
	// Every branch failed on a discriminator: blame the one most branches
	// disagree on.
	var ptr string
	for p, w := range wants {
		if len(w) > len(wants[ptr]) || (len(w) == len(wants[ptr]) && p < ptr) {
			ptr = p
		}
	}
	accepted := uniq(wants[ptr])
	return []leaf{{
		pointer: ptr,
		keyword: "const",
		message: "value must be one of " + strings.Join(accepted, ", "),
		depth:   strings.Count(ptr, "/"),
	}}
}

// constFailures returns the const failures (discriminator mismatches) in a
// branch's error tree, outside nested combinators. The message holds the
// wanted value.
func constFailures(e *jsonschema.ValidationError) []leaf {
	if k, ok := e.ErrorKind.(*kind.Const); ok {
		b, _ := json.Marshal(k.Want)
		return []leaf{{pointer: pointer(e.InstanceLocation), message: string(b)}}
	}
	switch e.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
		return nil
	}
	var out []leaf
	for _, c := range e.Causes {
		out = append(out, constFailures(c)...)
	}
	return out
}

func toLeaf(e *jsonschema.ValidationError) leaf {
	ptr := pointer(e.InstanceLocation)
	l := leaf{pointer: ptr, keyword: strings.Join(e.ErrorKind.KeywordPath(), "/"), depth: len(e.InstanceLocation)}
	switch k := e.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		if len(k.Properties) > 0 {
			l.pointer = ptr + "/" + escape(k.Properties[0])
			l.depth++
		}
	case *kind.Required:
		if len(k.Missing) > 0 {
			l.pointer = ptr + "/" + escape(k.Missing[0])
			l.depth++
		}
	}
	l.message = strings.TrimSpace(k2s(e))
	return l
}

func uniq(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

var printer = message.NewPrinter(language.English)

func k2s(e *jsonschema.ValidationError) string {
	return e.ErrorKind.LocalizedString(printer)
}

func pointer(loc []string) string {
	if len(loc) == 0 {
		return ""
	}
	parts := make([]string, len(loc))
	for i, p := range loc {
		parts[i] = escape(p)
	}
	return "/" + strings.Join(parts, "/")
}

func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

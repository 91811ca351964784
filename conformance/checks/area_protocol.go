package checks

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// bundleSets are the OMBI_BUNDLES values whose tools/list the protocol area
// compares with the catalogue.
var bundleSets = []string{"core", "core,moderation", "core,administration", harness.AllBundles}

func catalogueNames(bundles string) []string {
	on := map[string]bool{}
	for _, b := range strings.Split(bundles, ",") {
		on[strings.TrimSpace(b)] = true
	}
	var names []string
	for _, t := range spec.Tools() {
		if on[t.Bundle] {
			names = append(names, t.Name)
		}
	}
	sort.Strings(names)
	return names
}

func diffNames(got, want []string) (missing, extra []string) {
	g, w := map[string]bool{}, map[string]bool{}
	for _, n := range got {
		g[n] = true
	}
	for _, n := range want {
		w[n] = true
		if !g[n] {
			missing = append(missing, n)
		}
	}
	for _, n := range got {
		if !w[n] {
			extra = append(extra, n)
		}
	}
	return missing, extra
}

func findTool(tools []*mcp.Tool, name string) *mcp.Tool {
	for _, t := range tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

func (s *Suite) protocolArea() {
	ginkgo.Describe("protocol", ginkgo.Label("protocol"), func() {
		ginkgo.BeforeEach(s.clean)

		ginkgo.Context("initialize", ginkgo.Label(LabelReadOnly), ginkgo.Ordered, ginkgo.ContinueOnFailure, func() {
			var init map[string]json.RawMessage
			ginkgo.BeforeAll(func(ctx ginkgo.SpecContext) {
				raw, msg, err := s.h.StartRaw(ctx, s.allConfig())
				if err != nil {
					s.fail(nil, "initialize over a raw stdio session: %v", err)
				}
				defer raw.Close()
				if msg.Error != nil {
					s.fail(nil, "initialize answered with a JSON-RPC error: %s", msg.Line)
				}
				if err := json.Unmarshal(msg.Result, &init); err != nil {
					s.fail(nil, "decode initialize result %s: %v", msg.Result, err)
				}
			})
			s.ClauseIt("MCP-INIT-SERVERINFO-001", func() {
				var info struct{ Name, Version string }
				err := json.Unmarshal(init["serverInfo"], &info)
				s.expect(err == nil && info.Name != "" && info.Version != "", nil,
					"serverInfo must carry a name and a version; got %s", init["serverInfo"])
			})
			s.ClauseIt("MCP-INIT-VERSION-001", func() {
				var v string
				_ = json.Unmarshal(init["protocolVersion"], &v)
				s.expect(v == harness.ProtocolVersion, nil, "requested protocol %s, server answered %s", harness.ProtocolVersion, init["protocolVersion"])
			})
			s.ClauseIt("MCP-TOOLS-CAPABILITY-001", func() {
				var caps map[string]json.RawMessage
				_ = json.Unmarshal(init["capabilities"], &caps)
				t := strings.TrimSpace(string(caps["tools"]))
				s.expect(strings.HasPrefix(t, "{"), nil, "capabilities.tools must be declared as an object; capabilities: %s", init["capabilities"])
			})
			s.ClauseIt("MCP-TOOLS-LISTCHANGED-001", func() {
				var caps struct {
					Tools struct {
						ListChanged *bool `json:"listChanged"`
					} `json:"tools"`
				}
				_ = json.Unmarshal(init["capabilities"], &caps)
				s.expect(caps.Tools.ListChanged == nil || !*caps.Tools.ListChanged, nil,
					"the tool list is fixed for a process (bundles are chosen at startup), so listChanged must not be declared; capabilities: %s", init["capabilities"])
			})
			s.ClauseIt("RESULTS-CAPABILITIES-001", func() {
				var caps map[string]json.RawMessage
				_ = json.Unmarshal(init["capabilities"], &caps)
				var bad []string
				if _, ok := caps["tasks"]; ok {
					bad = append(bad, "declares tasks")
				}
				var res struct {
					Subscribe bool `json:"subscribe"`
				}
				if r, ok := caps["resources"]; ok && json.Unmarshal(r, &res) == nil && res.Subscribe {
					bad = append(bad, "declares resources.subscribe")
				}
				s.expect(len(bad) == 0, nil, "capabilities advertise what is not implemented (%s): %s", strings.Join(bad, ", "), init["capabilities"])
			})
		})

		ginkgo.Context("tools/list", ginkgo.Label(LabelReadOnly), func() {
			for _, bundles := range bundleSets {
				s.ClauseItFor("VERIFY-AUTHZ-BUNDLES-001", "list."+strings.ReplaceAll(bundles, ",", "+"), func(ctx ginkgo.SpecContext) {
					srv := s.shared(ctx, harness.Config{Bundles: bundles})
					tools, _ := srv.Tools(ctx)
					want := s.judgedNames(catalogueNames(bundles))
					missing, extra := diffNames(toolNames(tools), want)
					s.expect(len(missing) == 0 && len(extra) == 0, nil,
						"OMBI_BUNDLES=%s: want the %d catalogue tools of those bundles, got %d; missing %v, extra %v", bundles, len(want), len(tools), missing, extra)
				})
			}
			s.catalogueCheck()
			s.ClauseItFor("VERIFY-CATALOGUE-NAMES-001", "no-ombi-prefix", func(ctx ginkgo.SpecContext) {
				tools, _ := s.shared(ctx, s.allConfig()).Tools(ctx)
				var bad []string
				for _, t := range tools {
					if strings.HasPrefix(strings.ToLower(t.Name), "ombi_") {
						bad = append(bad, t.Name)
					}
				}
				s.expect(len(bad) == 0, nil, "tools advertised with an ombi_ prefix: %v", bad)
			})
			s.ClauseIt("MCP-TOOLS-NAMES-001", func(ctx ginkgo.SpecContext) {
				tools, _ := s.shared(ctx, s.allConfig()).Tools(ctx)
				var e errs
				seen := map[string]bool{}
				for _, t := range tools {
					if !toolNameRE.MatchString(t.Name) {
						e.addf("name %q is not 1-128 characters of [A-Za-z0-9_.-]", t.Name)
					}
					if seen[t.Name] {
						e.addf("name %q is advertised twice", t.Name)
					}
					seen[t.Name] = true
				}
				s.expectNone(e, "tool names break the MCP naming rules")
			})
			s.ClauseIt("ROUTING-RULE9-ANNOTATIONS-001", func(ctx ginkgo.SpecContext) {
				tools, _ := s.shared(ctx, s.allConfig()).Tools(ctx)
				var e errs
				for _, t := range tools {
					a := t.Annotations
					if a == nil {
						e.addf("%s advertises no annotations", t.Name)
						continue
					}
					if a.OpenWorldHint != nil && !*a.OpenWorldHint {
						e.addf("%s advertises openWorldHint false", t.Name)
					}
					if !a.ReadOnlyHint && a.IdempotentHint {
						e.addf("%s mutates but advertises idempotentHint true", t.Name)
					}
				}
				s.expectNone(e, "annotations are not conservative")
			})
			for tool, want := range map[string]int{"write_settings_patch": 32, "read_settings": 41} {
				s.ClauseItFor("DECISION-D4-SETTINGS-001", tool, func(ctx ginkgo.SpecContext) {
					tools, _ := s.shared(ctx, s.allConfig()).Tools(ctx)
					t := findTool(tools, tool)
					s.expect(t != nil, nil, "%s is not advertised", tool)
					raw, _ := json.Marshal(t.InputSchema)
					var schema struct {
						Properties map[string]any `json:"properties"`
					}
					_ = json.Unmarshal(raw, &schema)
					got := enumValues(schema.Properties["section"])
					s.expect(len(got) == want, nil, "%s must offer exactly %d settings sections (32 writable%s), got %d: %v",
						tool, want, map[bool]string{true: " plus 9 read-only", false: ""}[want == 41], len(got), got)
				})
			}
			for _, t := range spec.Tools() {
				s.toolChecks(t)
			}
		})

		ginkgo.Context("tools/call errors", func() {
			s.ClauseItFor("VERIFY-AUTHZ-BUNDLES-001", "call-time", ginkgo.Label(LabelNeedsMock), func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, harness.Config{Bundles: "core"})
				for _, t := range s.judgedTools() {
					if t.Bundle == spec.BundleCore {
						continue
					}
					args := s.validExample(t.Name)
					o := s.call(ctx, srv, t.Name, args)
					s.expect(o.RPCError == nil && o.Result != nil && o.Result.IsError, o,
						"%s belongs to the disabled %s bundle: it must be refused with a tool error (isError true), not run and not a JSON-RPC error", t.Name, t.Bundle)
					s.expect(o.Envelope != nil && !o.Envelope.OK && o.Envelope.Error != nil, o, "the refusal must be an envelope with ok false and an error")
					s.expect(len(o.Journal) == 0, o, "a disabled tool must not reach upstream")
				}
			})
			s.ClauseIt("MCP-TOOLS-UNKNOWN-001", ginkgo.Label(LabelReadOnly), func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, s.allConfig())
				for _, name := range []string{"no_such_tool", "ombi_read_search", "READ_SEARCH"} {
					o := s.callUnchecked(ctx, srv, name, map[string]any{})
					s.expect(o.RPCError != nil, o, "an unknown tool %q must be answered with a JSON-RPC error, not a result", name)
					s.expect(o.RPCError.Code <= -32000 && o.RPCError.Code >= -32768, o,
						"the JSON-RPC error code %d for unknown tool %q is not a standard code (-32602 expected)", o.RPCError.Code, name)
				}
			})
			s.ClauseIt("MCP-TOOLS-MALFORMED-001", ginkgo.Label(LabelReadOnly), func(ctx ginkgo.SpecContext) {
				s.malformed(ctx, map[string]string{
					"params is a string":         `"read_search"`,
					"params has no name":         `{"arguments":{}}`,
					"name is a number":           `{"name":42,"arguments":{}}`,
					"arguments is an array":      `{"name":"read_search","arguments":[1,2]}`,
					"arguments is a string":      `{"name":"read_search","arguments":"action=text"}`,
					"params is missing":          ``,
					"name is null":               `{"name":null}`,
					"arguments is a bare number": `{"name":"read_search","arguments":7}`,
				})
			})
			s.ClauseIt("MCP-JSONRPC-CODES-001", ginkgo.Label(LabelReadOnly), func(ctx ginkgo.SpecContext) {
				raw, _, err := s.h.StartRaw(ctx, s.allConfig())
				if err != nil {
					s.fail(nil, "start a raw stdio session: %v", err)
				}
				defer raw.Close()
				msg, err := raw.Request(ctx, 7, "tools/frobnicate", json.RawMessage(`{}`))
				if err != nil {
					s.fail(nil, "send an unknown method: %v", err)
				}
				s.expect(msg.Error != nil, nil, "an unknown method must get a JSON-RPC error; got %s", msg.Line)
				var code int
				s.expect(json.Unmarshal(msg.Error.Code, &code) == nil, nil, "error code must be an integer; got %s", msg.Line)
				s.expect(code == -32601, nil, "an unknown method must get -32601 (method not found); got %s", msg.Line)
			})
			s.ClauseIt("MCP-TOOLS-INPUT-ERROR-001", ginkgo.Label(LabelReadOnly), func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, s.allConfig())
				for _, args := range []string{`{}`, `{"action":"text"}`, `{"action":"text","media":"movie","query":7}`} {
					o := s.call(ctx, srv, "read_search", json.RawMessage(args))
					s.expect(o.RPCError == nil, o, "invalid arguments must be a tool result with isError true, not a JSON-RPC error")
					s.expect(o.Result.IsError && o.ErrorCode() == "INVALID_ARGUMENT", o, "invalid arguments must give isError true with INVALID_ARGUMENT")
				}
			})
			s.ClauseIt("RESULTS-JSONRPC-ERRORS-001", ginkgo.Label(LabelReadOnly), func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, s.allConfig())
				o := s.call(ctx, srv, "read_search", json.RawMessage(`{"action":"text","media":"movie","query":"Alien","bogus":true}`))
				s.expect(o.RPCError == nil && o.Result.IsError && o.ErrorCode() == "INVALID_ARGUMENT", o,
					"an argument failure is an actionable tool error (INVALID_ARGUMENT), not a JSON-RPC error")
			})
		})
	})
}

// malformed sends tools/call frames whose params break the CallToolRequest
// schema and expects a JSON-RPC error with a standard integer code for each.
func (s *Suite) malformed(ctx context.Context, cases map[string]string) {
	ginkgo.GinkgoHelper()
	raw, _, err := s.h.StartRaw(ctx, s.allConfig())
	if err != nil {
		s.fail(nil, "start a raw stdio session: %v", err)
	}
	defer raw.Close()
	names := make([]string, 0, len(cases))
	for n := range cases {
		names = append(names, n)
	}
	sort.Strings(names)
	var e errs
	for i, name := range names {
		var params json.RawMessage
		if cases[name] != "" {
			params = json.RawMessage(cases[name])
		}
		msg, err := raw.Request(ctx, 100+i, "tools/call", params)
		if err != nil {
			s.fail(nil, "%s: %v", name, err)
		}
		if msg.Error == nil {
			e.addf("%s (params %s): want a JSON-RPC error, got %s", name, cases[name], msg.Line)
			continue
		}
		var code int
		if json.Unmarshal(msg.Error.Code, &code) != nil || code > -32000 || code < -32768 {
			e.addf("%s (params %s): error code is not a standard JSON-RPC code (-32602 expected): %s", name, cases[name], msg.Line)
		}
	}
	s.expectNone(e, "malformed tools/call requests")
}

// toolChecks declares the per-tool tools/list checks.
func (s *Suite) toolChecks(t spec.Tool) {
	name := t.Name
	get := func(ctx context.Context) *mcp.Tool {
		ginkgo.GinkgoHelper()
		tools, _ := s.shared(ctx, s.allConfig()).Tools(ctx)
		tool := findTool(tools, name)
		if tool == nil {
			s.fail(nil, "tool %s is not advertised by tools/list with every bundle enabled", name)
		}
		return tool
	}
	s.ClauseItFor("RESULTS-REGISTRATION-001", name, func(ctx ginkgo.SpecContext) {
		tool := get(ctx)
		var e errs
		if strings.TrimSpace(tool.Description) == "" {
			e.addf("description is empty")
		}
		for _, w := range []string{"outputSchema", "$defs", "\"ok\":", "correlation_id"} {
			if strings.Contains(tool.Description, w) {
				e.addf("description carries an output contract (%q)", w)
			}
		}
		if tool.InputSchema == nil {
			e.addf("no inputSchema")
		}
		if tool.OutputSchema == nil {
			e.addf("no outputSchema")
		}
		if tool.Annotations == nil {
			e.addf("no annotations")
		}
		s.expectNone(e, "tool "+name+" is not registered as the results document requires")
	})
	s.ClauseItFor("RESULTS-ANNOTATIONS-001", name, func(ctx ginkgo.SpecContext) {
		tool := get(ctx)
		a := tool.Annotations
		s.expect(a != nil, nil, "%s advertises no annotations", name)
		want := t.Annotations
		got := spec.Annotations{ReadOnlyHint: a.ReadOnlyHint, IdempotentHint: a.IdempotentHint,
			DestructiveHint: a.DestructiveHint == nil || *a.DestructiveHint, OpenWorldHint: a.OpenWorldHint == nil || *a.OpenWorldHint}
		s.expect(got == want, nil, "%s annotations (missing hints read with MCP defaults): got %+v, want the catalogue's %+v", name, got, want)
	})
	s.ClauseItFor("RESULTS-OUTPUTSCHEMA-001", name+".advertised", func(ctx ginkgo.SpecContext) {
		tool := get(ctx)
		want, err := spec.OutputSchema(name)
		if err != nil {
			s.fail(nil, "compose the spec outputSchema: %v", err)
		}
		got, _ := json.Marshal(tool.OutputSchema)
		s.expect(tool.OutputSchema != nil && harness.SameJSON(got, want), nil,
			"advertised outputSchema of %s differs from the composed spec outputSchema (compared as JSON)\n advertised: %s\n spec: %s", name, clip(got, 1500), clip(want, 1500))
	})
	s.ClauseItFor("MCP-TOOLS-INPUTSCHEMA-001", name, func(ctx ginkgo.SpecContext) {
		tool := get(ctx)
		raw, _ := json.Marshal(tool.InputSchema)
		var root map[string]any
		s.expect(json.Unmarshal(raw, &root) == nil && root["type"] == "object", nil, "inputSchema must be an object schema with root type object; got %s", clip(raw, 500))
		_, err := spec.Compile("mem://advertised-input/"+name+".json", raw, true)
		s.expect(err == nil, nil, "inputSchema does not compile under JSON Schema 2020-12: %v", err)
	})
	s.ClauseItFor("DECISION-D1-PORTABLE-001", name, func(ctx ginkgo.SpecContext) {
		tool := get(ctx)
		raw, _ := json.Marshal(tool.InputSchema)
		v := spec.CheckPortable(raw)
		s.expect(len(v) == 0, nil, "published inputSchema of %s is not portable: %s\n schema: %s", name, strings.Join(v, "; "), clip(raw, 1500))
	})
	s.ClauseItFor("DECISION-D1-EXAMPLES-001", name, func(ctx ginkgo.SpecContext) {
		tool := get(ctx)
		raw, _ := json.Marshal(tool.InputSchema)
		sch, err := spec.Compile("mem://advertised-input/"+name+".json", raw, true)
		if err != nil {
			s.fail(nil, "compile the advertised inputSchema: %v", err)
		}
		table := s.table(name)
		var e errs
		for _, ex := range table.Valid {
			if err := validateRaw(sch, ex.Args); err != nil {
				e.addf("%s %s: %v", ex.Name, clip(ex.Args, 300), err)
			}
		}
		s.expectNone(e, "the advertised inputSchema of "+name+" rejects valid examples")
	})
}

func clip(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + fmt.Sprintf("… (%d bytes)", len(b))
}

// enumValues collects the distinct enum and const values of a property
// schema, including those inside nested combinators.
func enumValues(v any) []string {
	seen := map[string]bool{}
	walkMembers(v, func(key string, value any) bool {
		switch key {
		case "enum":
			if e, ok := value.([]any); ok {
				for _, x := range e {
					seen[fmt.Sprint(x)] = true
				}
			}
			return false
		case "const":
			seen[fmt.Sprint(value)] = true
			return false
		}
		return true
	})
	return sortedSet(seen)
}

// walkMembers calls visit with every object member of a JSON document,
// depth first; visit returns whether to descend into the member's value.
func walkMembers(v any, visit func(key string, value any) bool) {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			if visit(k, c) {
				walkMembers(c, visit)
			}
		}
	case []any:
		for _, c := range t {
			walkMembers(c, visit)
		}
	}
}

// sortedSet lists a set's members in order.
func sortedSet(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

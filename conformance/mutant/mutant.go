package mutant

import (
	"encoding/json"
	"sort"
	"strings"
)

// Frame is one decoded JSON-RPC message.
type Frame map[string]any

// call is what the proxy remembers about a client request.
type call struct {
	method string
	tool   string
	args   any
}

// Mutant is one named corruption.
type Mutant struct {
	Name        string
	Area        string // the suite area expected to kill it
	Description string
	// Filter is a narrower label filter that still kills the mutant, used by
	// the kill test to keep it fast; "" = the Area's example-based checks
	// (its rapid properties excluded).
	Filter string
	// Focus is a --focus regexp on check ids narrowing the run further, for
	// mutants only the (slow) property checks see; "" = no focus.
	Focus string

	// answer may reply to a client request itself instead of forwarding it.
	answer func(req Frame, c call) (Frame, bool)
	// rewriteRequest may change a client request before it is forwarded.
	rewriteRequest func(req Frame, c call)
	// rewrite changes a server response to the remembered request.
	rewrite func(resp Frame, c call)
	// extra may return one more request to send the server right after the
	// forwarded one; the server's response to it is swallowed.
	extra func(req Frame, c call) Frame
}

func result(f Frame) map[string]any {
	r, _ := f["result"].(map[string]any)
	return r
}

func toolsOf(f Frame) []any {
	r := result(f)
	if r == nil {
		return nil
	}
	t, _ := r["tools"].([]any)
	return t
}

func eachTool(f Frame, fn func(t map[string]any)) {
	for _, x := range toolsOf(f) {
		if t, ok := x.(map[string]any); ok {
			fn(t)
		}
	}
}

func envelopeOf(r map[string]any) map[string]any {
	e, _ := r["structuredContent"].(map[string]any)
	return e
}

func isWrite(tool string) bool { return strings.HasPrefix(tool, "write_") }

func isEmptyObject(v any) bool {
	m, ok := v.(map[string]any)
	return v == nil || (ok && len(m) == 0)
}

// protocolMutants and the tables of the other files make up All.
var protocolMutants = []Mutant{
	{
		Name: "drop-output-schema", Area: "protocol",
		Description: "removes outputSchema from read_search in tools/list",
		rewrite: func(resp Frame, c call) {
			if c.method == "tools/list" {
				eachTool(resp, func(t map[string]any) {
					if t["name"] == "read_search" {
						delete(t, "outputSchema")
					}
				})
			}
		},
	},
	{
		Name: "flip-is-error", Area: "schema",
		Description: "inverts isError on every tools/call result",
		rewrite: func(resp Frame, c call) {
			if r := result(resp); c.method == "tools/call" && r != nil {
				b, _ := r["isError"].(bool)
				r["isError"] = !b
			}
		},
	},
	{
		Name: "rename-tool", Area: "protocol",
		Description: "advertises read_media as read_medias",
		rewrite: func(resp Frame, c call) {
			if c.method == "tools/list" {
				eachTool(resp, func(t map[string]any) {
					if t["name"] == "read_media" {
						t["name"] = "read_medias"
					}
				})
			}
		},
	},
	{
		Name: "ombi-prefix", Area: "protocol",
		Description: "advertises every tool with an ombi_ prefix (and strips it from calls)",
		rewriteRequest: func(req Frame, c call) {
			if p, ok := req["params"].(map[string]any); ok && c.method == "tools/call" {
				p["name"] = strings.TrimPrefix(c.tool, "ombi_")
			}
		},
		rewrite: func(resp Frame, c call) {
			if c.method == "tools/list" {
				eachTool(resp, func(t map[string]any) { t["name"] = "ombi_" + t["name"].(string) })
			}
		},
	},
	{
		Name: "text-mismatch", Area: "schema",
		Description: "the text block carries a different object than structuredContent",
		rewrite: func(resp Frame, c call) {
			r := result(resp)
			if c.method != "tools/call" || r == nil || envelopeOf(r) == nil {
				return
			}
			env := map[string]any{}
			for k, v := range envelopeOf(r) {
				env[k] = v
			}
			env["correlation_id"] = "text-mismatch"
			b, _ := json.Marshal(env)
			r["content"] = []any{map[string]any{"type": "text", "text": string(b)}}
		},
	},
	{
		Name: "accept-empty-write", Area: "schema",
		Description: "answers {} on a write tool with an ok:true envelope without forwarding",
		answer: func(req Frame, c call) (Frame, bool) {
			if c.method != "tools/call" || !isWrite(c.tool) || !isEmptyObject(c.args) {
				return nil, false
			}
			env := map[string]any{"ok": true, "operation": c.tool, "data": map[string]any{"kind": "mutation", "outcome": "completed"},
				"warnings": []any{}, "truncated": false, "correlation_id": "mutant"}
			b, _ := json.Marshal(env)
			return Frame{"jsonrpc": "2.0", "id": req["id"], "result": map[string]any{
				"content": []any{map[string]any{"type": "text", "text": string(b)}}, "structuredContent": env, "isError": false}}, true
		},
	},
	{
		Name: "list-changed", Area: "protocol",
		Description: "declares tools.listChanged without ever notifying",
		rewrite: func(resp Frame, c call) {
			if r := result(resp); c.method == "initialize" && r != nil {
				if caps, ok := r["capabilities"].(map[string]any); ok {
					caps["tools"] = map[string]any{"listChanged": true}
				}
			}
		},
	},
	{
		Name: "old-protocol", Area: "protocol",
		Description: "answers initialize with protocol 2025-06-18 although 2025-11-25 was requested",
		rewrite: func(resp Frame, c call) {
			if r := result(resp); c.method == "initialize" && r != nil {
				r["protocolVersion"] = "2025-06-18"
			}
		},
	},
	{
		Name: "invalid-args-rpc-error", Area: "protocol",
		Description: "turns INVALID_ARGUMENT tool results into JSON-RPC -32602 errors",
		rewrite: func(resp Frame, c call) {
			r := result(resp)
			if c.method != "tools/call" || r == nil {
				return
			}
			if e, ok := envelopeOf(r)["error"].(map[string]any); ok && e["code"] == "INVALID_ARGUMENT" {
				delete(resp, "result")
				resp["error"] = map[string]any{"code": -32602, "message": "invalid params"}
			}
		},
	},
	{
		Name: "drop-structured", Area: "schema",
		Description: "removes structuredContent from every tools/call result",
		rewrite: func(resp Frame, c call) {
			if r := result(resp); c.method == "tools/call" && r != nil {
				delete(r, "structuredContent")
			}
		},
	},
	{
		Name: "annotation-flip", Area: "protocol",
		Description: "advertises write tools as read-only",
		rewrite: func(resp Frame, c call) {
			if c.method == "tools/list" {
				eachTool(resp, func(t map[string]any) {
					if a, ok := t["annotations"].(map[string]any); ok && isWrite(t["name"].(string)) {
						a["readOnlyHint"] = true
					}
				})
			}
		},
	},
	{
		Name: "ref-input-schema", Area: "protocol",
		Description: "publishes every inputSchema behind a $ref",
		rewrite: func(resp Frame, c call) {
			if c.method == "tools/list" {
				eachTool(resp, func(t map[string]any) {
					t["inputSchema"] = map[string]any{"type": "object", "$ref": "#/$defs/input", "$defs": map[string]any{"input": t["inputSchema"]}}
				})
			}
		},
	},
}

// Names returns every mutant name, sorted.
func Names() []string {
	var n []string
	for _, m := range All() {
		n = append(n, m.Name)
	}
	sort.Strings(n)
	return n
}

// All returns every mutant.
func All() []Mutant {
	var out []Mutant
	for _, set := range [][]Mutant{protocolMutants, adminMutants, mediaMutants, propertyMutants, requestMutants} {
		out = append(out, set...)
	}
	return out
}

// Lookup returns the named mutant.
func Lookup(name string) (Mutant, bool) {
	for _, m := range All() {
		if m.Name == name {
			return m, true
		}
	}
	return Mutant{}, false
}

package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// Envelope is the decoded structuredContent of a tools/call result
// (04-results).
type Envelope struct {
	OK            bool            `json:"ok"`
	Operation     string          `json:"operation"`
	Data          json.RawMessage `json:"data,omitempty"`
	Error         *EnvelopeError  `json:"error,omitempty"`
	Warnings      []string        `json:"warnings"`
	Truncated     bool            `json:"truncated"`
	CorrelationID string          `json:"correlation_id"`
}

// EnvelopeError is the envelope's error object.
type EnvelopeError struct {
	Code              string `json:"code"`
	Message           string `json:"message"`
	Retryable         bool   `json:"retryable"`
	HTTPStatus        *int   `json:"http_status,omitempty"`
	Field             string `json:"field,omitempty"`
	RetryAfterSeconds *int   `json:"retry_after_seconds,omitempty"`
}

// Violation is one contract breach found in a result by the central checks
// every call goes through.
type Violation struct {
	Clause  string // clause id, e.g. RESULTS-ISERROR-001
	Message string
}

func (v Violation) String() string { return v.Clause + ": " + v.Message }

// Outcome is everything observed about one tools/call.
type Outcome struct {
	Tool      string
	Arguments json.RawMessage     // as sent
	Request   string              // the exact tools/call params as JSON-RPC request JSON
	Result    *mcp.CallToolResult // nil on a JSON-RPC error
	RPCError  *jsonrpc.Error      // non-nil when the server answered with a JSON-RPC error

	Structured json.RawMessage     // structuredContent re-encoded; nil if absent
	Envelope   *Envelope           // decoded structuredContent; nil if absent or not an envelope
	Text       string              // the first text content block
	TextBlocks int                 // number of text content blocks
	Links      []*mcp.ResourceLink // the resource link blocks

	Journal    []mockombi.Call // upstream calls made during this call (nil when live)
	Violations []Violation     // central contract checks that failed
	Duration   time.Duration
}

// OK reports whether the call answered a result envelope with ok true; a
// call that got no envelope (a JSON-RPC error, a tool the server does not
// list) is not OK.
func (o *Outcome) OK() bool { return o.Envelope != nil && o.Envelope.OK }

// ErrorCode returns the envelope error code, or "" when there is none.
func (o *Outcome) ErrorCode() string {
	if o.Envelope == nil || o.Envelope.Error == nil {
		return ""
	}
	return o.Envelope.Error.Code
}

// Describe renders the call for a failure message: request, result
// envelope or JSON-RPC error, and the upstream journal slice.
func (o *Outcome) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tools/call: %s\n", o.Request)
	switch {
	case o.RPCError != nil:
		fmt.Fprintf(&b, "JSON-RPC error: code %d: %s\n", o.RPCError.Code, o.RPCError.Message)
	case o.Result != nil:
		fmt.Fprintf(&b, "isError: %v\n", o.Result.IsError)
		if o.Structured != nil {
			fmt.Fprintf(&b, "structuredContent: %s\n", clip(string(o.Structured), 4000))
		} else {
			fmt.Fprintf(&b, "structuredContent: (absent)\n")
		}
		if o.Text != "" && o.Text != string(o.Structured) {
			fmt.Fprintf(&b, "text block: %s\n", clip(o.Text, 2000))
		}
	}
	fmt.Fprintf(&b, "upstream journal (%d calls):\n", len(o.Journal))
	for _, c := range o.Journal {
		q := ""
		if c.Query != "" {
			q = "?" + c.Query
		}
		fmt.Fprintf(&b, "  %s %s%s -> %d", c.Method, c.Path, q, c.Status)
		if len(c.Body) > 0 {
			fmt.Fprintf(&b, " body %s", clip(string(c.Body), 500))
		}
		if c.Fault != "" {
			fmt.Fprintf(&b, " [fault %s]", c.Fault)
		}
		b.WriteString("\n")
	}
	for _, v := range o.Violations {
		fmt.Fprintf(&b, "violation %s\n", v)
	}
	return b.String()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("… (%d bytes)", len(s))
}

// CallRaw sends tools/call with raw JSON arguments (which may be anything,
// including JSON that is not an object) and records the outcome.
func (s *Server) CallRaw(ctx context.Context, tool string, args json.RawMessage) (*Outcome, error) {
	o := &Outcome{Tool: tool, Arguments: args}
	if args == nil {
		o.Arguments = json.RawMessage("{}")
	}
	params, _ := json.Marshal(map[string]any{"name": tool, "arguments": o.Arguments})
	o.Request = fmt.Sprintf(`{"jsonrpc":"2.0","method":"tools/call","params":%s}`, params)
	if _, err := s.Tools(ctx); err != nil {
		return nil, err
	}
	before := s.h.Upstream.mark()
	cctx, cancel := context.WithTimeout(ctx, s.h.callTimeout(s.cfg))
	defer cancel()
	start := time.Now()
	res, err := s.session.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: o.Arguments})
	o.Duration = time.Since(start)
	var rpc *jsonrpc.Error
	if err != nil && !errors.As(err, &rpc) {
		// reported before the journal is read: reading it waits for the
		// requests in flight, which a stalled call may be one of
		return nil, s.harnessErr(fmt.Sprintf("await tools/call %s response", tool), err, ctx, cctx)
	}
	o.Journal = s.h.Upstream.since(before)
	if rpc != nil {
		o.RPCError = rpc
		return o, nil
	}
	o.Result = res
	s.inspect(o)
	return o, nil
}

// Call marshals args and calls tool; see CallRaw.
func (s *Server) Call(ctx context.Context, tool string, args any) (*Outcome, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("encode arguments of %s: %w", tool, err)
	}
	if args == nil {
		raw = json.RawMessage("{}")
	}
	return s.CallRaw(ctx, tool, raw)
}

// inspect decodes the envelope and runs the central result checks.
func (s *Server) inspect(o *Outcome) {
	res := o.Result
	add := func(clause, format string, a ...any) {
		o.Violations = append(o.Violations, Violation{Clause: clause, Message: fmt.Sprintf(format, a...)})
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			if o.TextBlocks == 0 {
				o.Text = t.Text
			}
			o.TextBlocks++
		}
	}
	if res.StructuredContent == nil {
		add("RESULTS-STRUCTURED-001", "the result has no structuredContent")
		return
	}
	structured, err := json.Marshal(res.StructuredContent)
	if err != nil {
		add("RESULTS-STRUCTURED-001", "structuredContent cannot be encoded: %v", err)
		return
	}
	o.Structured = structured
	// one text block with the envelope JSON, first; only resource links
	// may follow it (S-RESULTS-0120)
	others := 0
	for _, c := range res.Content {
		if l, ok := c.(*mcp.ResourceLink); ok {
			o.Links = append(o.Links, l)
		} else if _, ok := c.(*mcp.TextContent); !ok {
			others++
		}
	}
	first := len(res.Content) > 0
	if first {
		_, first = res.Content[0].(*mcp.TextContent)
	}
	if o.TextBlocks != 1 || others > 0 || !first {
		add("RESULTS-STRUCTURED-001", "want one content block, a text block with the envelope JSON, followed only by resource links; got %d blocks (%d text, %d resource links)", len(res.Content), o.TextBlocks, len(o.Links))
	}
	if o.TextBlocks > 0 {
		if eq, why := sameJSON(structured, []byte(o.Text)); !eq {
			add("RESULTS-STRUCTURED-001", "the text block does not carry the same object as structuredContent: %s", why)
		}
	}
	var env Envelope
	dec := json.NewDecoder(bytes.NewReader(structured))
	if err := dec.Decode(&env); err != nil {
		add("RESULTS-ENVELOPE-001", "structuredContent is not an envelope: %v", err)
	} else {
		o.Envelope = &env
		var probe map[string]json.RawMessage
		_ = json.Unmarshal(structured, &probe)
		if _, ok := probe["ok"]; !ok {
			add("RESULTS-ENVELOPE-001", "structuredContent has no ok field")
		} else if res.IsError != !env.OK {
			add("RESULTS-ISERROR-001", "isError is %v but ok is %v", res.IsError, env.OK)
		}
	}
	s.mu.Lock()
	adv, listed := s.advertised[o.Tool]
	_, known := s.toolNamed(o.Tool)
	s.mu.Unlock()
	switch {
	case listed:
		if err := validate(adv, structured); err != nil {
			add("MCP-TOOLS-OUTPUT-CONFORM-001", "structuredContent does not validate against the advertised outputSchema: %v", err)
		}
	case known:
		add("MCP-TOOLS-OUTPUT-CONFORM-001", "tool %s is advertised without a usable outputSchema", o.Tool)
	}
	if s.h.Validator != nil {
		if err := s.h.Validator.ValidateOutput(o.Tool, structured); err != nil {
			add("RESULTS-OUTPUTSCHEMA-001", "structuredContent does not validate against the spec outputSchema of %s: %v", o.Tool, err)
		}
	}
}

// toolNamed reports whether tools/list advertised name; s.mu must be held.
func (s *Server) toolNamed(name string) (*mcp.Tool, bool) {
	for _, t := range s.tools {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}

func validate(sch *jsonschema.Schema, raw []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("decode instance: %w", err)
	}
	return sch.Validate(inst)
}

// sameJSON compares two JSON texts as values.
func sameJSON(a, b []byte) (bool, string) {
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		return false, "first value is not JSON: " + err.Error()
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		return false, "text is not JSON: " + err.Error()
	}
	if !reflect.DeepEqual(va, vb) {
		return false, "values differ"
	}
	return true, ""
}

// SameJSON reports whether two JSON texts encode the same value.
func SameJSON(a, b []byte) bool {
	eq, _ := sameJSON(a, b)
	return eq
}

package checks

import (
	"context"
	"fmt"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"pgregory.net/rapid"

	"github.com/ombi-mcp/ombi-mcp/conformance/gen"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

func (p *properties) fuzzProperty() {
	p.perTool(perToolProperty{describe: "fuzz properties", area: "fuzz", clause: "VERIFY-SCHEMA-REJECT-BEFORE-UPSTREAM-001", qualifier: "property",
		check: func(ctx context.Context, t spec.Tool) { p.fuzzCheck(ctx, t.Name) }})
}

func (p *properties) fuzzCheck(ctx context.Context, tool string) {
	ginkgo.GinkgoHelper()
	env := p.env(mockombi.Options{}, p.s.allConfig())
	g, err := gen.Fuzz(tool)
	if err != nil {
		p.s.fail(nil, "%v", err)
	}
	p.check("fuzz", func(t *rapid.T) *caseReport {
		f := g.Draw(t, "arguments")
		valid := p.s.h.Validator.ValidateInput(tool, []byte(f.Args)) == nil
		rep := &caseReport{Tool: tool, Args: string(f.Args), Upstream: "(the mock's own data, no fault)"}
		o, err := env.call(ctx, tool, f.Args)
		if err != nil {
			rep.Observed = fmt.Sprintf("%s arguments (%s) crashed or hung the server: %v", f.Kind, f.How, err)
			return rep
		}
		rep.Outcome = o
		rep.Observed = fuzzBreach(o, tool, f, valid)
		if rep.Observed == "" {
			return nil
		}
		return rep
	})
}

// standardRPC reports whether code is a JSON-RPC 2.0 error code: the
// predefined ones or the implementation-defined server range.
func standardRPC(code int64) bool {
	switch code {
	case -32700, -32600, -32601, -32602, -32603:
		return true
	}
	return code >= -32099 && code <= -32000
}

// fuzzBreach checks one fuzzed outcome; "" when it holds.
func fuzzBreach(o *harness.Outcome, tool string, f gen.Fuzzed, valid bool) string {
	kind := f.Kind
	if f.How != "" {
		kind += " (" + f.How + ")"
	}
	validity := "schema-invalid"
	if valid {
		validity = "schema-valid"
	}
	for _, c := range o.Journal {
		for _, seg := range strings.Split(pathOnly(c.Path), "/") {
			if seg == "." || seg == ".." {
				return fmt.Sprintf("%s %s arguments sent %s %s upstream: a dot segment escaped its path parameter", validity, kind, c.Method, c.Path)
			}
		}
	}
	if !valid && len(o.Journal) > 0 {
		return fmt.Sprintf("%s %s arguments reached upstream (%d calls, first %s %s)", validity, kind, len(o.Journal), o.Journal[0].Method, o.Journal[0].Path)
	}
	if o.RPCError != nil {
		if !standardRPC(int64(o.RPCError.Code)) {
			return fmt.Sprintf("%s %s arguments gave JSON-RPC error code %d, not a standard one", validity, kind, o.RPCError.Code)
		}
		if valid && f.Kind != gen.KindHostile {
			// hostile input may be refused at the protocol layer (nesting,
			// size); anything else the schema accepts is a tool call
			return fmt.Sprintf("schema-valid %s arguments gave JSON-RPC error %d %q; a tool failure must be a result", kind, o.RPCError.Code, o.RPCError.Message)
		}
		return ""
	}
	if b := centralBreach(o); b != "" {
		return fmt.Sprintf("%s %s arguments: %s", validity, kind, b)
	}
	if o.Envelope.Operation != tool {
		return fmt.Sprintf("operation is %q, want %q", o.Envelope.Operation, tool)
	}
	if !valid && (o.Envelope.OK || o.ErrorCode() != "INVALID_ARGUMENT") {
		return fmt.Sprintf("schema-invalid %s arguments gave ok=%v code %q; want INVALID_ARGUMENT", kind, o.Envelope.OK, o.ErrorCode())
	}
	if valid && o.ErrorCode() == "INTERNAL_ERROR" {
		return fmt.Sprintf("schema-valid %s arguments gave INTERNAL_ERROR: %s", kind, o.Envelope.Error.Message)
	}
	return ""
}

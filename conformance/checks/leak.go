package checks

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/onsi/ginkgo/v2"
	"pgregory.net/rapid"

	"github.com/ombi-mcp/ombi-mcp/conformance/gen"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// control is what one unfaulted call of a tool showed: its outcome and,
// per journaled upstream GET, the real answer.
type control struct {
	out    *harness.Outcome
	stderr string // what the server wrote to stderr during the call
	calls  []mockombi.Call
	bodies map[int]any // index in calls -> decoded 200 answer
}

// controls caches the unfaulted run of each argument object in one check.
type controls struct {
	env  *propEnv
	tool string
	seen map[string]*control
}

func newControls(env *propEnv, tool string) *controls {
	return &controls{env: env, tool: tool, seen: map[string]*control{}}
}

// get runs args once without faults (cached) and fetches the real answer
// of every upstream GET it made.
func (cs *controls) get(ctx context.Context, args json.RawMessage) (*control, error) {
	if c, ok := cs.seen[string(args)]; ok {
		return c, nil
	}
	_ = cs.env.up.ClearFaults()
	before := cs.env.stderr()
	o, err := cs.env.call(ctx, cs.tool, args)
	if err != nil {
		return nil, err
	}
	c := &control{out: o, stderr: cs.env.stderrSince(before), calls: upstreamCalls(o), bodies: map[int]any{}}
	for i, call := range c.calls {
		if call.Method != "GET" || call.Status != 200 {
			continue
		}
		status, body := cs.env.fetch(call)
		var doc any
		if status == 200 && json.Unmarshal(body, &doc) == nil {
			c.bodies[i] = doc
		}
	}
	cs.seen[string(args)] = c
	return c, nil
}

// drawArgs draws a valid example of the tool's schema table or, half of
// the time (always when the table has none), arguments generated from the
// strict schema.
func (p *properties) drawArgs(t *rapid.T, tool string, g *rapid.Generator[json.RawMessage]) json.RawMessage {
	table := p.s.tables[tool]
	if len(table.Valid) > 0 && (g == nil || rapid.Bool().Draw(t, "from table")) {
		return rapid.SampledFrom(table.Valid).Draw(t, "example").Args
	}
	if g == nil {
		return json.RawMessage(`{}`)
	}
	return g.Draw(t, "args")
}

func (p *properties) leakProperty() {
	p.perTool(perToolProperty{describe: "leak properties", area: "leak", clause: "VERIFY-OUTPUT-NESTED-SECRETS-001", qualifier: "property",
		check: func(ctx context.Context, t spec.Tool) { p.leakCheck(ctx, t.Name) }})
}

func (p *properties) leakCheck(ctx context.Context, tool string) {
	ginkgo.GinkgoHelper()
	env, args, ctl := p.toolEnv(tool, mockombi.Options{})
	var planted []string
	for _, s := range env.secrets() {
		planted = append(planted, s.value)
	}
	p.check("leak", func(t *rapid.T) *caseReport {
		a := p.drawArgs(t, tool, args)
		rep := &caseReport{Tool: tool, Args: string(a)}
		c, err := ctl.get(ctx, a)
		if err != nil {
			rep.Observed = fmt.Sprintf("the unfaulted call failed at the harness level: %v", err)
			return rep
		}
		if what, ex, leaked := findSecret(env.secrets(), outputs(c.out, c.stderr)); leaked {
			rep.Upstream, rep.Outcome = "(the mock's own data, no fault)", c.out
			rep.Observed, rep.Excerpt = what, ex
			return rep
		}
		o, stderr := c.out, c.stderr
		rep.Upstream = "(no upstream call)"
		if len(c.calls) > 0 {
			i := rapid.IntRange(0, len(c.calls)-1).Draw(t, "target call")
			target := c.calls[i]
			doc, hasBody := c.bodies[i]
			var f mockombi.Fault
			if hasBody && rapid.Bool().Draw(t, "plant in payload") {
				pl := gen.Plant(doc, planted).Draw(t, "planted payload")
				body := gen.JSON(pl.Doc)
				f = mockombi.Fault{Status: 200, Headers: map[string]string{"Content-Type": "application/json; charset=utf-8"}, Body: body}
				rep.Upstream = fmt.Sprintf("%s %s answered 200 with secrets planted at %v: %s", target.Method, pathOnly(target.Path), pl.Places, body)
			} else {
				eb := gen.ErrorBodies(planted).Draw(t, "error body")
				f = mockombi.Fault{Status: eb.Status, Headers: map[string]string{"Content-Type": eb.ContentType}, Body: eb.Body}
				if eb.Shape == "html" {
					f.Kind = "html"
				}
				rep.Upstream = fmt.Sprintf("%s %s answered %d (%s, %s): %s", target.Method, pathOnly(target.Path), eb.Status, eb.Shape, eb.ContentType, eb.Body)
			}
			if err := env.up.InjectFault(faultFor(target, f)); err != nil {
				rep.Observed = err.Error()
				return rep
			}
			before := env.stderr()
			o, err = env.call(ctx, tool, a)
			stderr = env.stderrSince(before)
			_ = env.up.ClearFaults()
			if err != nil {
				rep.Observed = fmt.Sprintf("the server stopped answering: %v", err)
				return rep
			}
		}
		rep.Outcome = o
		if what, ex, leaked := findSecret(env.secrets(), outputs(o, stderr)); leaked {
			rep.Observed, rep.Excerpt = what, ex
			return rep
		}
		if b := centralBreach(o); b != "" {
			rep.Observed = b
			return rep
		}
		return nil
	})
}

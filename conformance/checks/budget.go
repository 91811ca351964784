package checks

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"
	"pgregory.net/rapid"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/gen"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// Budgets of 04-results (RESULTS-BUDGET-001).
const (
	budgetBytes    = 64 << 10 // serialized structured result
	budgetRecords  = 100      // records, and nested records per array
	budgetLogLines = 500      // lines of a log excerpt
	inflateMax     = 16 << 20 // bytes one generated upstream array may take
)

func (p *properties) budgetProperty() {
	p.perTool(perToolProperty{describe: "budget properties", area: "budget", clause: "RESULTS-BUDGET-001", qualifier: "property", readOnly: true,
		check: func(ctx context.Context, t spec.Tool) { p.budgetCheck(ctx, t.Name) }})
}

func (p *properties) budgetCheck(ctx context.Context, tool string) {
	ginkgo.GinkgoHelper()
	env, args, ctl := p.toolEnv(tool, mockombi.Options{})
	p.budgetEdges(ctx, env, ctl, tool)
	p.check("budget", func(t *rapid.T) *caseReport {
		rep, c, targets := p.drawCase(ctx, t, ctl, args)
		if c == nil {
			return rep
		}
		o := c.out
		var infl gen.Inflated
		rep.Upstream = "(no upstream answer to grow)"
		if len(targets) > 0 {
			i := rapid.SampledFrom(targets).Draw(t, "target call")
			target := c.calls[i]
			infl = gen.Inflate(c.bodies[i], inflateMax).Draw(t, "inflated payload")
			body := gen.JSON(infl.Doc)
			rep.Upstream = fmt.Sprintf("%s %s answered 200 with every array grown to %d records and %d long strings (longest %d bytes), %d bytes: %s",
				target.Method, pathOnly(target.Path), infl.Records, len(infl.Markers), infl.Longest, len(body), body)
			f := faultFor(target, mockombi.Fault{Status: 200, Headers: map[string]string{"Content-Type": "application/json; charset=utf-8"}, Body: body})
			if err := env.up.InjectFault(f); err != nil {
				rep.Observed = err.Error()
				return rep
			}
			var err error
			o, err = env.call(ctx, tool, json.RawMessage(rep.Args))
			_ = env.up.ClearFaults()
			if err != nil {
				rep.Observed = fmt.Sprintf("the server stopped answering: %v", err)
				return rep
			}
		}
		rep.Outcome = o
		if msg := budgetBreach(o, infl); msg != "" {
			rep.Observed = msg
			return rep
		}
		return nil
	})
}

// Edge cases of the budget property: at most this many table examples (one
// per action) get every over-budget growth on every run.
const budgetEdgeExamples = 8

// budgetEdges runs the over-budget growths of gen.OverBudget, with no
// randomness, on one table example per action of the tool and on every
// upstream answer those examples read: each growth crosses one budget edge,
// so a server that breaks a budget rule fails this check whatever the seed.
// The random cases of the property follow.
func (p *properties) budgetEdges(ctx context.Context, env *propEnv, ctl *controls, tool string) {
	ginkgo.GinkgoHelper()
	tried := 0
	p.edgeExamples(ctx, ctl, budgetEdgeExamples, func(ex framework.Example, c *control) bool {
		if len(c.bodies) == 0 {
			return false
		}
		for i, target := range c.calls {
			doc, ok := c.bodies[i]
			if !ok {
				continue
			}
			for gi, g := range gen.OverBudget() {
				tried++
				infl := gen.Grow(doc, inflateMax, g)
				body := gen.JSON(infl.Doc)
				rep := &caseReport{Tool: tool, Args: string(ex.Args),
					Upstream: fmt.Sprintf("edge case %d of %d: %s %s answered 200 with outermost arrays of %d records, nested arrays of %d and %d long strings (longest %d bytes), %d bytes: %s",
						gi+1, len(gen.OverBudget()), target.Method, pathOnly(target.Path), infl.Records, g.Nested, len(infl.Markers), infl.Longest, len(body), body)}
				f := faultFor(target, mockombi.Fault{Status: 200, Headers: map[string]string{"Content-Type": "application/json; charset=utf-8"}, Body: body})
				if err := env.up.InjectFault(f); err != nil {
					p.s.fail(nil, "%v", err)
				}
				o, err := env.call(ctx, tool, ex.Args)
				_ = env.up.ClearFaults()
				if err != nil {
					rep.Observed = fmt.Sprintf("the server stopped answering: %v", err)
				} else {
					rep.Outcome = o
					rep.Observed = budgetBreach(o, infl)
				}
				if rep.Observed != "" {
					p.count("budget", tried, 0, true)
					p.s.fail(nil, "%s", p.edgeReport("budget", rep))
				}
			}
		}
		return true
	})
	p.count("budget", tried, 0, false)
}

// exampleAction is the discriminator of a table example (its "action",
// else "kind", else "media"), "" when it has none.
func exampleAction(args json.RawMessage) string {
	var m map[string]any
	_ = json.Unmarshal(args, &m)
	for _, k := range []string{"action", "kind", "media"} {
		if v, ok := m[k].(string); ok {
			return k + "=" + v
		}
	}
	return ""
}

// budgetBreach checks one result against the response budget and the
// paging honesty rules; it returns "" when the result keeps them.
func budgetBreach(o *harness.Outcome, infl gen.Inflated) string {
	if o.RPCError != nil {
		return fmt.Sprintf("a valid read answered with JSON-RPC error %d: %s", o.RPCError.Code, o.RPCError.Message)
	}
	if b := centralBreach(o); b != "" {
		return b
	}
	if n := len(o.Structured); n > budgetBytes {
		return fmt.Sprintf("structuredContent is %d bytes, over the %d-byte budget", n, budgetBytes)
	}
	if n := len(o.Text); n > budgetBytes+1024 {
		return fmt.Sprintf("the text block is %d bytes, over the budget", n)
	}
	env := o.Envelope
	if env.Truncated && len(env.Warnings) == 0 {
		return "truncated is true but no warning says what was cut"
	}
	var data any
	_ = json.Unmarshal(env.Data, &data)
	if msg := arrayBreach(data, "/data"); msg != "" {
		return msg
	}
	for _, id := range infl.Markers {
		head, tail := gen.MarkerHead(id), gen.MarkerTail(id)
		if strings.Contains(o.Text, head) && !strings.Contains(o.Text, tail) && !(env.Truncated && len(env.Warnings) > 0) {
			return fmt.Sprintf("a long upstream string (%s…%s) was cut but the result has truncated=%v and %d warnings", head, tail, env.Truncated, len(env.Warnings))
		}
	}
	return pagingBreach(data)
}

// arrayBreach finds an array over its cap: 500 for log lines, 100 for
// everything else.
func arrayBreach(v any, ptr string) string {
	switch x := v.(type) {
	case []any:
		limit := budgetRecords
		if strings.HasSuffix(ptr, "/lines") {
			limit = budgetLogLines
		}
		if len(x) > limit {
			return fmt.Sprintf("%s has %d elements, over its cap of %d", ptr, len(x), limit)
		}
		for i, e := range x {
			if msg := arrayBreach(e, fmt.Sprintf("%s/%d", ptr, i)); msg != "" {
				return msg
			}
		}
	case map[string]any:
		for k, e := range x {
			if msg := arrayBreach(e, ptr+"/"+k); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// pagingBreach checks every page object of data: returned matches the
// items, a continuation is only offered when consistent, a total only when
// it is consistent with what was returned.
func pagingBreach(data any) string {
	m, ok := data.(map[string]any)
	if !ok {
		return ""
	}
	page, ok := m["page"].(map[string]any)
	if !ok {
		return ""
	}
	num := func(k string) (float64, bool) { f, ok := page[k].(float64); return f, ok }
	offset, _ := num("offset")
	limit, _ := num("limit")
	returned, _ := num("returned")
	if items, ok := m["items"].([]any); ok && float64(len(items)) != returned {
		return fmt.Sprintf("page.returned is %v but data.items has %d elements", returned, len(items))
	}
	if limit > 0 && returned > limit {
		return fmt.Sprintf("page.returned %v exceeds page.limit %v", returned, limit)
	}
	next, hasNext := num("next_offset")
	hasMore, moreKnown := page["has_more"].(bool)
	if hasNext && next != offset+returned {
		return fmt.Sprintf("page.next_offset %v is not offset %v + returned %v", next, offset, returned)
	}
	if hasNext && moreKnown && !hasMore {
		return "page.has_more is false but a next_offset continuation is offered"
	}
	if total, ok := num("total"); ok {
		if total < returned || (returned > 0 && total < offset+returned) {
			return fmt.Sprintf("page.total %v is below what was returned (offset %v, returned %v)", total, offset, returned)
		}
		if moreKnown && hasMore != (total > offset+returned) {
			return fmt.Sprintf("page.has_more %v contradicts total %v with offset %v + returned %v", hasMore, total, offset, returned)
		}
	}
	return ""
}

// Memory bound of the server process tree while it reads an oversized body.
const (
	memoryBoundKiB = 256 << 10
	oversizedBytes = 3 << 30
)

func (p *properties) memoryCheck() {
	ginkgo.Describe("memory", ginkgo.Label("budget", LabelOwnMock, LabelReadOnly, "property"), func() {
		p.s.ClauseItFor("RESULTS-BUDGET-BOUNDED-READ-001", "oversized", func(ctx ginkgo.SpecContext) {
			p.memory(ctx)
		})
	})
}

// memory sends every read tool a streamed multi-gigabyte upstream body and
// watches the server's resident memory: it must stay under the bound, each
// call must end, and the server must answer a normal call afterwards.
func (p *properties) memory(ctx context.Context) {
	ginkgo.GinkgoHelper()
	env := p.env(mockombi.Options{}, p.s.allConfig())
	var (
		e     errs
		tried int
		probe *control
	)
	for _, t := range p.s.judgedTools() {
		if !t.Annotations.ReadOnlyHint {
			continue
		}
		ctl := newControls(env, t.Name)
		var c *control
		var args json.RawMessage
		for _, ex := range p.s.tables[t.Name].Valid {
			got, err := ctl.get(ctx, ex.Args)
			if err != nil {
				p.s.fail(nil, "unfaulted call of %s: %v", t.Name, err)
			}
			if len(got.bodies) > 0 {
				c, args = got, ex.Args
				break
			}
		}
		if c == nil {
			continue
		}
		if probe == nil {
			probe = c
		}
		var target mockombi.Call
		for i, call := range c.calls {
			if _, ok := c.bodies[i]; ok {
				target = call
				break
			}
		}
		srv, err := env.server(ctx)
		if err != nil {
			p.s.fail(nil, "start the server: %v", err)
		}
		tried++
		if err := env.up.InjectFault(faultFor(target, mockombi.Fault{Kind: "oversized", Size: oversizedBytes})); err != nil {
			p.s.fail(nil, "%v", err)
		}
		peak, o, err := p.watch(ctx, env, srv, t.Name, args)
		_ = env.up.ClearFaults()
		what := fmt.Sprintf("%s %s with a %d GiB body at %s %s", t.Name, clip(args, 200), oversizedBytes>>30, target.Method, pathOnly(target.Path))
		switch {
		case peak > memoryBoundKiB:
			e.addf("%s: the server's resident memory reached %d MiB, over the %d MiB bound (killed)", what, peak>>10, memoryBoundKiB>>10)
			env.restart()
		case err != nil:
			e.addf("%s: the call did not end: %v", what, err)
		default:
			if msg := budgetBreach(o, gen.Inflated{}); msg != "" {
				e.addf("%s: %s", what, msg)
			}
		}
	}
	p.count("memory", tried, 0, len(e) > 0)
	s := p.s
	s.expect(tried > 0, nil, "no read tool made an upstream GET with a JSON answer; nothing could be oversized")
	if probe != nil {
		o, err := env.call(ctx, probe.out.Tool, probe.out.Arguments)
		if err != nil {
			e.addf("after the oversized bodies the server does not answer %s: %v", probe.out.Tool, err)
		} else if o.Result == nil {
			e.addf("after the oversized bodies %s answers a JSON-RPC error", probe.out.Tool)
		}
	}
	if env.srv != nil {
		m, err := env.srv.Memory()
		switch {
		case err != nil:
			e.addf("%v", err)
		case m.PeakKiB > memoryBoundKiB:
			e.addf("peak resident memory of the server (VmHWM over %d processes) is %d MiB, over the %d MiB bound", m.Processes, m.PeakKiB>>10, memoryBoundKiB>>10)
		}
	}
	s.expectNone(e, fmt.Sprintf("oversized upstream bodies were not bounded while reading (%d read tools tried)", tried))
}

// watch runs one call while sampling the server's resident memory every
// 20ms; past the bound it kills the server and returns the peak seen.
func (p *properties) watch(ctx context.Context, env *propEnv, srv *harness.Server, tool string, args json.RawMessage) (int64, *harness.Outcome, error) {
	done := make(chan struct{})
	sampled := make(chan int64, 1)
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		var top int64
		defer func() { sampled <- top }()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				m, err := srv.Memory()
				if err != nil {
					continue
				}
				top = max(top, m.RSSKiB, m.PeakKiB)
				if top > memoryBoundKiB {
					srv.Kill()
					return
				}
			}
		}
	}()
	o, err := env.call(ctx, tool, args)
	close(done)
	return <-sampled, o, err
}

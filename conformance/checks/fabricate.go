package checks

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"pgregory.net/rapid"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/gen"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// The never-fabricate property (RESULTS-PROJECTION-001 "never convert
// missing ... counts into false/zero", RESULTS-PAGING-TOTAL-001): every
// count a read result reports, and every total, has_more and next_offset
// of its pages, is held against what upstream actually answered in that
// call. A count or total must be a count upstream sent (a member whose name
// says it counts); a local page's total may also count a fetched
// collection (at most its length); a continuation needs evidence of more
// records. The
// upstream answers are the mock's own, or a copy with members removed: the
// count members and then every member (on every run, for one example per
// action), or a random set of members.

// countKeys are the output members that report a count; the metrics'
// integer values are held the same way.
var countKeys = map[string]bool{
	"total": true, "count": true, "affected_count": true, "up": true, "down": true,
	"pending": true, "approved": true, "available": true, "denied": true,
	"remaining": true, "resolved": true, "in_progress": true, "open": true,
}

// upstreamCountWords mark an upstream member as a count; the count edge
// removes every member whose lower-cased name contains one.
var upstreamCountWords = []string{"count", "total", "votes", "pending", "approved", "available", "denied", "remaining", "resolved", "progress", "limit", "completed", "requests"}

func isUpstreamCountKey(k string) bool {
	l := strings.ToLower(k)
	for _, w := range upstreamCountWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// identityMember is never dropped from a record by the random cases: every
// Ombi entity and view model carries a non-nullable integer Id (Ombi.Store
// Entities/Entity.cs; the search view models' Id), serialised on every
// answer, so a record without one is an answer real Ombi cannot send. (A
// server leaves such a record out, and its paging then rightly counts the
// upstream record it consumed.)
const identityMember = "id"

// fabricateEdgeExamples bounds the fixed edge cases: one example per
// action, at most this many.
const fabricateEdgeExamples = 8

func (p *properties) fabricateProperty() {
	p.perTool(perToolProperty{describe: "never-fabricate properties", area: "budget", clause: "RESULTS-PROJECTION-001", qualifier: "never-fabricate", readOnly: true,
		check: func(ctx context.Context, t spec.Tool) { p.fabricateCheck(ctx, t.Name) }})
}

func (p *properties) fabricateCheck(ctx context.Context, tool string) {
	ginkgo.GinkgoHelper()
	env, args, ctl := p.toolEnv(tool, mockombi.Options{JournalResponses: true, JournalBodyBytes: -1})
	p.fabricateEdges(ctx, env, ctl, tool)
	p.check("fabricate", func(t *rapid.T) *caseReport {
		rep, c, targets := p.drawCase(ctx, t, ctl, args)
		if c == nil {
			return rep
		}
		if len(targets) == 0 || rapid.IntRange(0, 3).Draw(t, "perturb") == 0 {
			rep.Upstream = "the mock's own answers"
			rep.Outcome = c.out
			rep.Observed = fabrication(c.out, evidenceOf(c.out))
			return reportIf(rep)
		}
		i := rapid.SampledFrom(targets).Draw(t, "target call")
		keys := memberNames(c.bodies[i])
		var drop []string
		if rapid.Bool().Draw(t, "drop the count members") {
			drop = countMembers(c.bodies[i])
		} else {
			for _, k := range keys {
				if k == identityMember {
					continue
				}
				if rapid.IntRange(0, 3).Draw(t, "drop "+k) == 0 {
					drop = append(drop, k)
				}
			}
		}
		return p.fabricateCase(ctx, env, rep, c.calls[i], c.bodies[i], drop)
	})
}

// fabricateEdges removes the count members of every upstream answer of one
// table example per action, on every run.
func (p *properties) fabricateEdges(ctx context.Context, env *propEnv, ctl *controls, tool string) {
	ginkgo.GinkgoHelper()
	tried := 0
	p.edgeExamples(ctx, ctl, fabricateEdgeExamples, func(ex framework.Example, c *control) bool {
		tried++
		rep := &caseReport{Tool: tool, Args: string(ex.Args), Upstream: "the mock's own answers", Outcome: c.out}
		if rep.Observed = fabrication(c.out, evidenceOf(c.out)); rep.Observed != "" {
			p.count("fabricate", tried, 0, true)
			p.s.fail(nil, "%s", p.edgeReport("fabricate", rep))
		}
		for i, target := range c.calls {
			doc, ok := c.bodies[i]
			if !ok {
				continue
			}
			// the count members, then every member: an answer that says
			// nothing is never a complete, empty collection
			for _, drop := range [][]string{countMembers(doc), memberNames(doc)} {
				if len(drop) == 0 {
					continue
				}
				tried++
				rep := &caseReport{Tool: tool, Args: string(ex.Args)}
				if r := p.fabricateCase(ctx, env, rep, target, doc, drop); r != nil {
					p.count("fabricate", tried, 0, true)
					p.s.fail(nil, "%s", p.edgeReport("fabricate", r))
				}
			}
		}
		return true
	})
	p.count("fabricate", tried, 0, false)
}

// countMembers are the member names of a document that name a count.
func countMembers(doc any) []string {
	var out []string
	for _, k := range memberNames(doc) {
		if isUpstreamCountKey(k) {
			out = append(out, k)
		}
	}
	return out
}

// fabricateCase answers target with doc less the members named in drop
// and holds the result against that answer; nil when it holds.
func (p *properties) fabricateCase(ctx context.Context, env *propEnv, rep *caseReport, target mockombi.Call, doc any, drop []string) *caseReport {
	planted := withoutMembers(doc, drop)
	body := gen.JSON(planted)
	rep.Upstream = fmt.Sprintf("%s %s answered 200 without the members %s: %s", target.Method, pathOnly(target.Path), strings.Join(drop, ", "), body)
	f := faultFor(target, mockombi.Fault{Status: 200, Headers: map[string]string{"Content-Type": "application/json; charset=utf-8"}, Body: body})
	if err := env.up.InjectFault(f); err != nil {
		rep.Observed = err.Error()
		return rep
	}
	o, err := env.call(ctx, rep.Tool, json.RawMessage(rep.Args))
	_ = env.up.ClearFaults()
	if err != nil {
		rep.Observed = fmt.Sprintf("the server stopped answering: %v", err)
		return rep
	}
	rep.Outcome = o
	rep.Observed = fabrication(o, evidenceOf(o))
	return reportIf(rep)
}

func reportIf(rep *caseReport) *caseReport {
	if rep.Observed == "" {
		return nil
	}
	return rep
}

// evidence is what upstream said in one call: the values of its count
// members (and bare numbers answered whole) and the lengths of its arrays,
// over every answer the server read (the private mock journals its
// answers whole). A 204 answers an empty collection.
type evidence struct {
	counts  map[int64]bool // values of upstream count members
	longest int            // length of the longest upstream array, -1 with none
}

func evidenceOf(o *harness.Outcome) *evidence {
	ev := &evidence{counts: map[int64]bool{}, longest: -1}
	for _, call := range upstreamCalls(o) {
		if call.Status == 204 {
			ev.counts[0] = true
			ev.longest = max(ev.longest, 0)
			continue
		}
		var doc any
		if call.Status != 200 || call.ResponseTruncated || json.Unmarshal(call.ResponseBody, &doc) != nil {
			continue
		}
		if n, ok := doc.(float64); ok && n == math.Trunc(n) { // a bare count answer
			ev.counts[int64(n)] = true
		}
		ev.add(doc, "")
	}
	return ev
}

func (ev *evidence) add(v any, key string) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			ev.add(c, k)
		}
	case []any:
		ev.longest = max(ev.longest, len(x))
		for _, c := range x {
			ev.add(c, "")
		}
	case float64:
		if key != "" && isUpstreamCountKey(key) && x == math.Trunc(x) {
			ev.counts[int64(x)] = true
		}
	}
}

// has reports whether n is a count upstream sent.
func (ev *evidence) has(n float64) bool { return n == math.Trunc(n) && ev.counts[int64(n)] }

// fabrication returns what in a successful result upstream did not say, ""
// when nothing; a failed call reports nothing and holds.
func fabrication(o *harness.Outcome, ev *evidence) string {
	if o == nil || o.Envelope == nil || !o.Envelope.OK {
		return ""
	}
	var data any
	if json.Unmarshal(o.Envelope.Data, &data) != nil {
		return ""
	}
	var found []string
	walkFabrication(data, "/data", ev, &found)
	if len(found) == 0 {
		return ""
	}
	return "the result reports what upstream did not say: " + strings.Join(found, "; ")
}

func walkFabrication(v any, at string, ev *evidence, found *[]string) {
	switch x := v.(type) {
	case map[string]any:
		if isPage(x) {
			if msg := pageFabrication(x, ev); msg != "" {
				*found = append(*found, at+": "+msg)
			}
			return
		}
		if name, ok := x["name"].(string); ok {
			if n, ok := x["value"].(float64); ok && x["scope"] != nil && !ev.has(n) {
				*found = append(*found, fmt.Sprintf("%s: metric %s = %v is not a count upstream sent", at, name, n))
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if n, ok := x[k].(float64); ok && countKeys[k] && !ev.has(n) {
				*found = append(*found, fmt.Sprintf("%s/%s = %v is not a count upstream sent", at, k, n))
				continue
			}
			walkFabrication(x[k], at+"/"+k, ev, found)
		}
	case []any:
		for i, c := range x {
			walkFabrication(c, fmt.Sprintf("%s/%d", at, i), ev, found)
		}
	}
}

// isPage recognises a $defs/paging object.
func isPage(m map[string]any) bool {
	for _, k := range []string{"offset", "limit", "returned", "mode"} {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

// pageFabrication holds one page object against the evidence: a known
// total is an upstream count or a collection's length; a continuation
// needs a total beyond the window, a fetched collection longer than the
// window, or an upstream pager that filled it; "no more" needs a known
// total; next_offset follows the window.
func pageFabrication(pg map[string]any, ev *evidence) string {
	num := func(k string) (float64, bool) { n, ok := pg[k].(float64); return n, ok }
	offset, _ := num("offset")
	limit, _ := num("limit")
	returned, _ := num("returned")
	mode, _ := pg["mode"].(string)
	end := offset + returned
	total, hasTotal := num("total")
	// A local page counts a fetched collection, perhaps filtered: its
	// total is at most the longest one; a details page counts its record.
	counted := mode == "local" && total <= float64(ev.longest) || mode == "none" && total == returned
	if hasTotal && !ev.has(total) && !counted {
		return fmt.Sprintf("total %v is neither an upstream count nor within a fetched collection", total)
	}
	more, hasMore := pg["has_more"].(bool)
	longer := float64(ev.longest) > end
	filled := mode == "upstream" && returned >= limit
	switch {
	case hasMore && more && !(hasTotal && total > end) && !longer && !filled:
		return fmt.Sprintf("has_more is true, but no upstream total is beyond the window (offset %v + returned %v) and no upstream collection is longer", offset, returned)
	case hasMore && !more && !hasTotal && mode != "none":
		return "has_more is false without a known total"
	}
	if next, ok := num("next_offset"); ok {
		if next != end {
			return fmt.Sprintf("next_offset %v is not offset %v + returned %v", next, offset, returned)
		}
		if !(hasMore && more) && !filled && !longer {
			return fmt.Sprintf("next_offset %v is offered without evidence of more records", next)
		}
	}
	return ""
}

// memberNames lists the distinct object member names of a document.
func memberNames(v any) []string {
	seen := map[string]bool{}
	walkMembers(v, func(key string, _ any) bool { seen[key] = true; return true })
	return sortedSet(seen)
}

// withoutMembers copies a document without the members named in drop, at
// any depth.
func withoutMembers(v any, drop []string) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, c := range x {
			if !slices.Contains(drop, k) {
				m[k] = withoutMembers(c, drop)
			}
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, c := range x {
			a[i] = withoutMembers(c, drop)
		}
		return a
	}
	return v
}

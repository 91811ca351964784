package checks

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"
	"pgregory.net/rapid"

	"github.com/ombi-mcp/ombi-mcp/conformance/gen"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// Fault kinds the property injects; each maps to documented outcomes.
var faultKinds = []string{"401", "403", "404", "429", "5xx", "reset", "timeout", "malformed", "truncate", "empty", "business_error", "wrong_content_type", "oversized"}

// answered200 are the kinds answering HTTP 200 with a body that may still
// parse as the expected shape.
var answered200 = map[string]bool{"empty": true, "business_error": true, "wrong_content_type": true, "oversized": true}

// The deadline the fault property gives the server, and the delay that
// outlasts it.
const (
	faultTimeout = "500ms"
	faultDelay   = 1500 * time.Millisecond
)

// faultExpectation is what an upstream fault must become.
type faultExpectation struct {
	codes     []string // allowed error codes
	okAllowed bool     // a successful envelope is also acceptable
	retryable string   // "true", "false" or "" (not decided by the contract)
}

// expectFor maps a fault kind to its documented outcome. mutating says the
// faulted call was the write itself (sent, so its effect is unknown);
// writeTool says the tool mutates at all.
func expectFor(kind string, mutating, writeTool bool) faultExpectation {
	readRetry := "true"
	if writeTool {
		readRetry = "" // a failed preliminary read of a write: replay is the server's call
	}
	if !mutating {
		switch kind {
		case "401":
			return faultExpectation{codes: []string{"AUTHENTICATION_FAILED"}, retryable: "false"}
		case "403":
			return faultExpectation{codes: []string{"FORBIDDEN"}, retryable: "false"}
		case "404":
			return faultExpectation{codes: []string{"NOT_FOUND"}, retryable: "false"}
		case "429":
			return faultExpectation{codes: []string{"RATE_LIMITED"}, retryable: readRetry}
		case "5xx":
			return faultExpectation{codes: []string{"UPSTREAM_REJECTED"}, retryable: readRetry}
		case "reset":
			e := faultExpectation{codes: []string{"UPSTREAM_REJECTED"}, retryable: readRetry}
			if writeTool {
				e.codes = append(e.codes, "UNKNOWN_OUTCOME")
			}
			return e
		case "timeout":
			e := faultExpectation{codes: []string{"TIMEOUT"}, retryable: readRetry}
			if writeTool {
				e.codes = append(e.codes, "UNKNOWN_OUTCOME")
			}
			return e
		case "malformed":
			return faultExpectation{codes: []string{"UPSTREAM_SCHEMA_MISMATCH"}}
		case "truncate":
			e := faultExpectation{codes: []string{"UPSTREAM_SCHEMA_MISMATCH", "UPSTREAM_REJECTED"}}
			if writeTool {
				e.codes = append(e.codes, "UNKNOWN_OUTCOME")
			}
			return e
		case "empty":
			return faultExpectation{codes: []string{"UPSTREAM_SCHEMA_MISMATCH", "NOT_FOUND"}, okAllowed: true}
		case "business_error":
			return faultExpectation{codes: []string{"UPSTREAM_REJECTED", "UPSTREAM_SCHEMA_MISMATCH"}, okAllowed: true}
		default: // wrong_content_type, oversized
			return faultExpectation{codes: []string{"UPSTREAM_SCHEMA_MISMATCH", "UPSTREAM_REJECTED"}, okAllowed: true}
		}
	}
	switch kind {
	case "401":
		return faultExpectation{codes: []string{"AUTHENTICATION_FAILED"}, retryable: "false"}
	case "403":
		return faultExpectation{codes: []string{"FORBIDDEN"}, retryable: "false"}
	case "404":
		return faultExpectation{codes: []string{"NOT_FOUND"}, retryable: "false"}
	case "429":
		return faultExpectation{codes: []string{"RATE_LIMITED"}}
	case "5xx":
		return faultExpectation{codes: []string{"UPSTREAM_REJECTED", "UNKNOWN_OUTCOME"}, retryable: "false"}
	case "reset", "timeout":
		return faultExpectation{codes: []string{"UNKNOWN_OUTCOME"}, retryable: "false"}
	default: // malformed, truncate, empty, wrong_content_type, oversized after a 200
		return faultExpectation{codes: []string{"UPSTREAM_SCHEMA_MISMATCH", "UNKNOWN_OUTCOME", "UPSTREAM_REJECTED"}, okAllowed: true, retryable: "false"}
	}
}

// drawFault draws the details of one fault of a kind.
func drawFault(t *rapid.T, kind string) (mockombi.Fault, string) {
	body := rapid.SampledFrom([]string{"json", "html", "empty"}).Draw(t, "body")
	withBody := func(status int) (mockombi.Fault, string) {
		switch body {
		case "html":
			return mockombi.Fault{Status: status, Kind: "html"}, fmt.Sprintf("HTTP %d with an HTML page", status)
		case "empty":
			return mockombi.Fault{Status: status, Kind: "empty"}, fmt.Sprintf("HTTP %d with an empty body", status)
		}
		return mockombi.Fault{Status: status, Body: `{"error":"Server=db;Password=fault-body-secret","stackTrace":"at Ombi.Controllers.Fault"}`},
			fmt.Sprintf("HTTP %d with a JSON error body", status)
	}
	switch kind {
	case "401", "403", "404":
		n, _ := strconv.Atoi(kind)
		return withBody(n)
	case "429":
		f, what := withBody(429)
		ra := rapid.SampledFrom([]string{"", "0", "7", "120", "date"}).Draw(t, "Retry-After")
		switch ra {
		case "":
			what += ", no Retry-After"
		case "date":
			f.Headers = map[string]string{"Retry-After": time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)}
			what += ", Retry-After as an HTTP date 30s ahead"
		default:
			f.Headers = map[string]string{"Retry-After": ra}
			what += ", Retry-After: " + ra
		}
		return f, what
	case "5xx":
		return withBody(rapid.SampledFrom([]int{500, 502, 503, 504}).Draw(t, "status"))
	case "timeout":
		return mockombi.Fault{Status: 200, Body: "[]", DelayMS: int(faultDelay / time.Millisecond)}, fmt.Sprintf("answer delayed %s, past OMBI_TIMEOUT=%s", faultDelay, faultTimeout)
	case "business_error":
		return mockombi.Fault{Kind: "business_error"}, "HTTP 200 with a RequestEngineResult isError:true"
	case "oversized":
		return mockombi.Fault{Kind: "oversized", Size: 32 << 20}, "HTTP 200 streaming a 32 MiB JSON array"
	}
	return mockombi.Fault{Kind: kind}, "fault " + kind
}

func (p *properties) faultProperty() {
	p.perTool(perToolProperty{describe: "fault properties", area: "errors", clause: "VERIFY-OUTPUT-SAFE-ERRORS-001", qualifier: "property", check: p.faultCheck})
}

// faultCase is one example whose unfaulted run reached upstream.
type faultCase struct {
	args    json.RawMessage
	code    string          // the unfaulted run's error code, "" when ok
	targets []mockombi.Call // calls up to and including the first mutation
}

func (p *properties) faultCheck(ctx context.Context, tool spec.Tool) {
	ginkgo.GinkgoHelper()
	env := p.env(mockombi.Options{}, p.s.allConfig())
	short := p.s.allConfig()
	short.Timeout = faultTimeout
	slow := env.variant(short) // only the timeout kind runs on the short deadline
	ctl := newControls(env, tool.Name)
	var usable []faultCase
	add := func(args json.RawMessage) {
		c, err := ctl.get(ctx, args)
		if err != nil {
			p.s.fail(nil, "unfaulted call of %s %s: %v", tool.Name, clip(args, 200), err)
		}
		fc := faultCase{args: args, code: c.out.ErrorCode()}
		for _, call := range c.calls {
			fc.targets = append(fc.targets, call)
			if !tool.Annotations.ReadOnlyHint && isMutation(call) {
				break
			}
		}
		if len(fc.targets) > 0 {
			usable = append(usable, fc)
		}
	}
	for _, ex := range p.s.tables[tool.Name].Valid {
		add(ex.Args)
	}
	if len(usable) == 0 {
		// no table example reaches upstream: try arguments generated from
		// the strict schema
		g, err := gen.Args(tool.Name)
		if err != nil {
			p.s.fail(nil, "%v", err)
		}
		for i := 0; i < 40 && len(usable) < 3; i++ {
			if a := g.Example(i); p.s.h.Validator.ValidateInput(tool.Name, []byte(a)) == nil {
				add(a)
			}
		}
	}
	if len(usable) == 0 {
		// the tool refuses every argument before upstream in this setup (for
		// example a profile that must be provisioned out of band): no fault
		// can be placed, so only the refusals themselves are judged
		var e errs
		for args, c := range ctl.seen {
			switch {
			case c.out.RPCError != nil:
				e.addf("%s: JSON-RPC error %d %s", args, c.out.RPCError.Code, c.out.RPCError.Message)
			case centralBreach(c.out) != "":
				e.addf("%s: %s", args, centralBreach(c.out))
			case c.out.ErrorCode() == "INTERNAL_ERROR":
				e.addf("%s: INTERNAL_ERROR", args)
			}
		}
		ginkgo.AddReportEntry("no fault placed", fmt.Sprintf("no valid or generated arguments of %s reached upstream; %d refusals judged", tool.Name, len(ctl.seen)))
		p.s.expectNone(e, "refusals of "+tool.Name+" are not valid tool errors")
		return
	}
	// log the short-deadline server in before any fault, so a deadline
	// case measures the faulted call, not the login
	_, _ = slow.call(ctx, tool.Name, usable[0].args)
	p.check("faults", func(t *rapid.T) *caseReport {
		fc := rapid.SampledFrom(usable).Draw(t, "example")
		ti := rapid.IntRange(0, len(fc.targets)-1).Draw(t, "target call")
		target := fc.targets[ti]
		kind := rapid.SampledFrom(faultKinds).Draw(t, "kind")
		f, what := drawFault(t, kind)
		writeTool := !tool.Annotations.ReadOnlyHint
		mutating := writeTool && isMutation(target) // a read-only tool may read through POST
		rep := &caseReport{Tool: tool.Name, Args: string(fc.args),
			Upstream: fmt.Sprintf("%s %s answered: %s (fault %s)", target.Method, pathOnly(target.Path), what, kind)}
		if err := env.up.InjectFault(faultFor(target, f)); err != nil {
			rep.Observed = err.Error()
			return rep
		}
		run := env
		if kind == "timeout" {
			run = slow
		}
		o, err := run.call(ctx, tool.Name, fc.args)
		_ = env.up.ClearFaults()
		if err != nil {
			rep.Observed = fmt.Sprintf("the server stopped answering: %v", err)
			return rep
		}
		rep.Outcome = o
		want := expectFor(kind, mutating, writeTool)
		if answered200[kind] && fc.code != "" {
			// a 200 body the server may parse as it parsed the real one:
			// its unfaulted verdict stays acceptable
			want.codes = append(want.codes, fc.code)
		}
		if ti > 0 && tool.Annotations.ReadOnlyHint {
			// a later part of a compound read failed: 04-results has the
			// read return PARTIAL_FAILURE with what it knows
			want.codes = append(want.codes, "PARTIAL_FAILURE")
		}
		if fallbackServed(tool.Name, o.Journal) {
			// the ledger's documented fallback answered instead, with a
			// record or without one
			want.okAllowed = true
			want.codes = append(want.codes, "NOT_FOUND")
		}
		rep.Observed = faultBreach(o, kind, f, want, mutating)
		if rep.Observed == "" {
			return nil
		}
		return rep
	})
}

// faultBreach checks one faulted outcome; "" when it is as documented.
func faultBreach(o *harness.Outcome, kind string, f mockombi.Fault, want faultExpectation, mutating bool) string {
	if o.RPCError != nil {
		return fmt.Sprintf("an upstream fault became JSON-RPC error %d %q; it must be a tool result", o.RPCError.Code, o.RPCError.Message)
	}
	if b := centralBreach(o); b != "" {
		return b
	}
	env := o.Envelope
	where := "the faulted call"
	if mutating {
		where = "the faulted write (already sent)"
	}
	if env.OK {
		if !want.okAllowed {
			return fmt.Sprintf("%s was reported as success (ok:true); want error %s", where, strings.Join(want.codes, " or "))
		}
		if len(o.Structured) > budgetBytes {
			return fmt.Sprintf("the result is %d bytes, over the budget", len(o.Structured))
		}
		return ""
	}
	e := env.Error
	if !slices.Contains(want.codes, e.Code) {
		return fmt.Sprintf("%s gave error code %s; want %s", where, e.Code, strings.Join(want.codes, " or "))
	}
	if want.retryable != "" && strconv.FormatBool(e.Retryable) != want.retryable {
		return fmt.Sprintf("%s gave %s with retryable %v; want retryable %s", where, e.Code, e.Retryable, want.retryable)
	}
	if kind == "429" {
		if v, ok := f.Headers["Retry-After"]; ok {
			n, err := strconv.Atoi(v)
			if err == nil && n > 0 && (e.RetryAfterSeconds == nil || *e.RetryAfterSeconds != n) {
				return fmt.Sprintf("Retry-After: %s must give retry_after_seconds %d, got %v", v, n, intPtr(e.RetryAfterSeconds))
			}
			if err == nil && n == 0 && e.RetryAfterSeconds != nil && *e.RetryAfterSeconds != 0 {
				return fmt.Sprintf("Retry-After: 0 gave retry_after_seconds %d", *e.RetryAfterSeconds)
			}
			if err != nil && e.RetryAfterSeconds != nil && (*e.RetryAfterSeconds < 0 || *e.RetryAfterSeconds > 60) {
				return fmt.Sprintf("Retry-After %q (30s ahead) gave retry_after_seconds %d", v, *e.RetryAfterSeconds)
			}
		}
	}
	low := strings.ToLower(e.Message)
	for _, bad := range []string{"<html", "<!doctype", "fault-body-secret", "stacktrace", "ombi.controllers", "nginx"} {
		if strings.Contains(low, bad) {
			return fmt.Sprintf("the error message forwards upstream body text %q: %q", bad, e.Message)
		}
	}
	return ""
}

func intPtr(p *int) string {
	if p == nil {
		return "none"
	}
	return strconv.Itoa(*p)
}

// fallbackServed reports whether a journal slice reached a route the
// ledger marks as the tool's fallback (used when the primary answer fails).
func fallbackServed(tool string, calls []mockombi.Call) bool {
	for _, r := range spec.RoutesFor(tool) {
		if r.Purpose != spec.PurposeFallback {
			continue
		}
		re := regexp.MustCompile("(?i)^" + templateParam.ReplaceAllString(regexp.QuoteMeta(r.Path), "[^/]+") + "$")
		for _, c := range calls {
			if c.Method == r.Method && re.MatchString(pathOnly(c.Path)) {
				return true
			}
		}
	}
	return false
}

// templateParam is a {name} path parameter of a quoted ledger template.
var templateParam = regexp.MustCompile(`\\\{[A-Za-z0-9_]+\\\}`)

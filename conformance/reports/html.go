package reports

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/internal/buildinfo"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// Exit codes of a run, which the reports show beside its verdict.
const (
	ExitPass    = 0 // every executed check passed (or failed as the baseline expects)
	ExitFail    = 1 // a check failed unexpectedly, or a baseline entry is stale
	ExitHarness = 2 // usage error, harness error, or no check executed
)

// ansiEscape is a terminal colour, which a failure message may carry.
var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// FirstLine is s up to its first non-empty line, without terminal colours.
func FirstLine(s string) string {
	s = ansiEscape.ReplaceAllString(s, "")
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return s
}

// htmlStates are the states of a check in report order: the columns of
// the HTML report's summary tables.
var htmlStates = []string{framework.StatePassed, framework.StateFailed, framework.StateExpected, framework.StateStale, framework.StateSkipped, framework.StateUnimplemented, framework.StateNotApplicable}

// WriteHTML writes the --html report of a run to w: one self-contained
// page (inline CSS, no script, no external asset) with the run's facts
// and verdict, the counts per area and per tool, and every failure with
// its clause, the failure message and the line that reruns the check.
// Every string is escaped: a failure message is shown as text, whatever
// it contains.
func WriteHTML(w io.Writer, opts framework.Options, r *framework.Result) error {
	var b bytes.Buffer
	if err := htmlReport.Execute(&b, newHTMLPage(opts, r, time.Now())); err != nil {
		return fmt.Errorf("render html report: %w", err)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	return nil
}

// WriteHTMLFile writes the --html report of a run to path.
func WriteHTMLFile(path string, opts framework.Options, r *framework.Result) error {
	var b bytes.Buffer
	if err := WriteHTML(&b, opts, r); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	return nil
}

// htmlPage is what the report template shows.
type htmlPage struct {
	Server, Upstream, Protocol, Version, Date string
	Seed                                      int64
	LabelFilter, Focus                        string
	Checks, Executed, Calls                   int
	Took                                      string         // how long the run took
	Slowest                                   []htmlSlow     // the checks that took longest
	All                                       []htmlCheck    // every check, for the browser's find
	Groups                                    []FailureGroup // failures by clause, when a clause failed more than once

	Verdict string // PASS, PARTIAL, FAIL, NOTHING RAN or HARNESS ERROR
	Exit    int
	Why     string // what decided the verdict

	States   []string
	Areas    []htmlRow
	Total    htmlRow
	Tools    []htmlRow     // tools with an executed check
	Idle     []htmlRow     // tools whose every check was skipped
	Failures []htmlFailure // failed unexpectedly
	Expected []htmlFailure // failed as the baseline expects
	Stale    []htmlFailure // passed although listed in the baseline
	Skips    []htmlSkip
}

// htmlCheck is one line of the list of every check.
type htmlCheck struct{ ID, State, Area, Tool, Took string }

// htmlSlow is one of the slowest checks.
type htmlSlow struct{ ID, Took string }

// htmlRow is one line of a summary table: a count per htmlStates.
type htmlRow struct {
	Name   string
	Counts []htmlCount
}

// ran reports whether a check of the row was executed.
func (r htmlRow) ran() bool {
	for _, c := range r.Counts {
		if c.State != framework.StateSkipped && c.N > 0 {
			return true
		}
	}
	return false
}

type htmlCount struct {
	State string
	N     int
}

// htmlFailure is one failed (or stale) check.
type htmlFailure struct {
	ID, State, Area, Tool, Duration string
	Clause, Document, Rule, Text    string // the clause the check guards
	Observed                        string // the message's observed: line, else its first line
	Rerun                           string
	Message                         string
	Open                            bool // show the whole message unfolded
}

// htmlSkip is a reason checks were not run, with how many.
type htmlSkip struct {
	State, Reason string
	N             int
}

// openFailures is how many failures the report shows unfolded; past it
// only the first failure's message starts unfolded.
const openFailures = 3

func newHTMLPage(opts framework.Options, r *framework.Result, now time.Time) htmlPage {
	p := htmlPage{
		Server: opts.Target.String(), Upstream: "embedded mock Ombi", Protocol: harness.ProtocolVersion,
		Version: buildinfo.Version(), Date: now.UTC().Format("2006-01-02 15:04:05 UTC"),
		Seed: r.Seed, LabelFilter: opts.LabelFilter, Focus: opts.Focus,
		Checks: len(r.Checks), Executed: r.Executed(), Calls: r.Calls, States: htmlStates,
	}
	if opts.OmbiURL != "" {
		p.Upstream = "live Ombi " + htmlRedact(opts.OmbiURL)
	}
	p.Verdict, p.Exit, p.Why = Verdict(r)
	p.Took = r.Duration.Round(100 * time.Millisecond).String()
	for _, c := range r.Checks {
		p.All = append(p.All, htmlCheck{ID: c.ID, State: c.State, Area: c.Area, Tool: c.Tool, Took: c.Duration.Round(time.Millisecond).String()})
	}
	for _, g := range FailureGroups(r) {
		if len(g.IDs) > 1 {
			p.Groups = append(p.Groups, g)
		}
	}
	for _, c := range Slowest(r, 5) {
		p.Slowest = append(p.Slowest, htmlSlow{ID: c.ID, Took: c.Duration.Round(100 * time.Millisecond).String()})
	}
	p.Areas, p.Total = htmlTally(r.Checks, func(c framework.CheckResult) string { return htmlName(c.Area, "(none)") }, false)
	tools, _ := htmlTally(r.Checks, func(c framework.CheckResult) string { return htmlName(c.Tool, "(general)") }, true)
	for _, t := range tools {
		if t.ran() {
			p.Tools = append(p.Tools, t)
		} else {
			p.Idle = append(p.Idle, t)
		}
	}

	skips := map[[2]string]int{}
	var order [][2]string
	for _, c := range r.Checks {
		switch c.State {
		case framework.StateFailed, framework.StateExpected, framework.StateStale:
			f := newHTMLFailure(opts, r.Seed, c)
			switch c.State {
			case framework.StateFailed:
				p.Failures = append(p.Failures, f)
			case framework.StateExpected:
				p.Expected = append(p.Expected, f)
			default:
				p.Stale = append(p.Stale, f)
			}
		case framework.StateSkipped, framework.StateUnimplemented, framework.StateNotApplicable:
			if c.Reason == "" {
				continue
			}
			k := [2]string{c.State, c.Reason}
			if skips[k] == 0 {
				order = append(order, k)
			}
			skips[k]++
		}
	}
	for _, k := range order {
		p.Skips = append(p.Skips, htmlSkip{State: k[0], Reason: k[1], N: skips[k]})
	}
	for i := range p.Failures {
		p.Failures[i].Open = i == 0 || len(p.Failures) <= openFailures
	}
	return p
}

// htmlTally counts the checks per state in groups named by name, in order of
// first appearance, or sorted by name with the general group first.
func htmlTally(cs []framework.CheckResult, name func(framework.CheckResult) string, sorted bool) ([]htmlRow, htmlRow) {
	col := map[string]int{}
	for i, s := range htmlStates {
		col[s] = i
	}
	newRow := func(n string) htmlRow {
		r := htmlRow{Name: n, Counts: make([]htmlCount, len(htmlStates))}
		for i, s := range htmlStates {
			r.Counts[i].State = s
		}
		return r
	}
	index := map[string]int{}
	var rows []htmlRow
	total := newRow("total")
	for _, c := range cs {
		n := name(c)
		i, ok := index[n]
		if !ok {
			i = len(rows)
			index[n] = i
			rows = append(rows, newRow(n))
		}
		j, ok := col[c.State]
		if !ok {
			j = col[framework.StateSkipped]
		}
		rows[i].Counts[j].N++
		total.Counts[j].N++
	}
	if sorted {
		sort.SliceStable(rows, func(a, b int) bool {
			ga, gb := strings.HasPrefix(rows[a].Name, "("), strings.HasPrefix(rows[b].Name, "(")
			if ga != gb {
				return ga
			}
			return rows[a].Name < rows[b].Name
		})
	}
	return rows, total
}

func htmlName(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

func newHTMLFailure(opts framework.Options, seed int64, c framework.CheckResult) htmlFailure {
	msg := strings.TrimRight(ansiEscape.ReplaceAllString(c.Failure, ""), "\n")
	f := htmlFailure{
		ID: htmlName(c.ID, c.Text), State: c.State, Area: htmlName(c.Area, "(none)"), Tool: htmlName(c.Tool, "(general)"),
		Duration: c.Duration.Round(time.Millisecond).String(), Clause: c.Clause, Message: msg,
	}
	if c.Duration < time.Millisecond {
		f.Duration = "<1ms"
	}
	if cl, ok := spec.LookupClause(c.Clause); ok {
		f.Document, f.Rule, f.Text = cl.Document, cl.Rule, cl.Text
	}
	lines := strings.Split(msg, "\n")
	for _, l := range lines {
		if after, ok := strings.CutPrefix(l, "observed: "); ok {
			f.Observed = after
			break
		}
	}
	if f.Observed == "" {
		f.Observed = FirstLine(msg)
	}
	// The suite ends every failure message with the check's rerun line.
	// Only that last line counts: a rerun: line anywhere else may be text
	// the server under test made the suite print, and must not become the
	// command offered for copying.
	if after, ok := strings.CutPrefix(lines[len(lines)-1], "rerun: "); ok {
		f.Rerun = after
	} else {
		f.Rerun = htmlRerun(opts, seed, f.ID)
	}
	return f
}

// htmlRerun is the command that reruns one check as the suite's own
// rerun line builds it: the invocation's flags, the run's seed and a
// focus on the check alone, after a non-default case count.
func htmlRerun(opts framework.Options, seed int64, checkID string) string {
	words := opts.Rerun
	if len(words) == 0 {
		words = []string{"ombi-conformance", "--server", framework.ShellQuote(opts.Target.String())}
	}
	var b strings.Builder
	if v := os.Getenv(framework.ChecksEnv); v != "" {
		fmt.Fprintf(&b, "%s=%s ", framework.ChecksEnv, framework.ShellWord(v))
	}
	fmt.Fprintf(&b, "%s --seed %d --focus %s", strings.Join(words, " "), seed, framework.ShellQuote(regexp.QuoteMeta(checkID)))
	return b.String()
}

// htmlRedact hides a password in a live Ombi URL.
func htmlRedact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

var htmlReport = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ombi-conformance {{.Verdict}}: {{.Server}}</title>
<style>
:root { --fg:#1f2328; --muted:#656d76; --line:#d0d7de; --bg:#f6f8fa;
  --passed:#1a7f37; --failed:#cf222e; --expected-failure:#9a6700; --stale:#8250df; --skipped:#656d76; --unimplemented:#0969da; --partial:#9a6700; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 24px; color: var(--fg); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.verdict { display: inline-block; padding: 2px 10px; border-radius: 6px; color: #fff; font-weight: 600; }
.verdict.PASS { background: var(--passed); } .verdict.PARTIAL { background: var(--partial); } .verdict.FAIL { background: var(--failed); } .verdict.NOTHING { background: var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 12px 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 4px 0 8px; }
th, td { border: 1px solid var(--line); padding: 3px 10px; }
th { background: var(--bg); font-weight: 600; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; min-width: 5em; }
td.zero { color: #b0b7be; }
td.n.failed:not(.zero) { color: var(--failed); font-weight: 700; }
td.n.stale:not(.zero) { color: var(--stale); font-weight: 700; }
td.n.expected-failure:not(.zero) { color: var(--expected-failure); }
td.n.unimplemented:not(.zero) { color: var(--unimplemented); }
tr.total td { font-weight: 600; background: var(--bg); }
.top { display: flex; flex-wrap: wrap; gap: 8px 48px; align-items: flex-start; margin-top: 12px; }
.top dl.facts { margin: 0; flex: 1 1 420px; }
.state { display: inline-block; padding: 0 6px; border-radius: 4px; border: 1px solid currentColor; font-size: 12px; }
.state.failed { color: var(--failed); } .state.expected-failure { color: var(--expected-failure); } .state.stale { color: var(--stale); }
.state.skipped { color: var(--skipped); } .state.unimplemented { color: var(--unimplemented); }
ul.index { columns: 2; margin: 4px 0; padding-left: 20px; }
.failure { border: 1px solid var(--line); border-left: 4px solid var(--failed); border-radius: 6px; padding: 10px 14px; margin: 12px 0; }
.failure.expected-failure { border-left-color: var(--expected-failure); } .failure.stale { border-left-color: var(--stale); }
.failure h3 { margin: 0 0 4px; font-size: 15px; overflow-wrap: anywhere; }
.meta { color: var(--muted); font-size: 12.5px; }
.clause { margin: 6px 0; padding: 6px 10px; background: var(--bg); border-radius: 4px; }
.clause .id { font-weight: 600; }
.observed { margin: 6px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.label { color: var(--muted); font-size: 12px; margin: 8px 0 2px; }
pre { margin: 0; padding: 8px 10px; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; }
pre.rerun { background: #0d1117; color: #e6edf3; border-color: #0d1117; user-select: all; -webkit-user-select: all; cursor: text; }
details { margin-top: 6px; } summary { cursor: pointer; color: var(--muted); }
pre.message { max-height: 520px; overflow: auto; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
</style>
</head>
<body>
<header>
<h1>ombi-conformance report <span class="verdict {{.Verdict}}">{{.Verdict}}</span></h1>
<div class="meta">exit code {{.Exit}}: {{.Why}}</div>
</header>
<div class="top">
<dl class="facts">
<dt>server</dt><dd class="mono">{{.Server}}</dd>
<dt>upstream</dt><dd>{{.Upstream}}</dd>
<dt>seed</dt><dd class="mono">{{.Seed}}</dd>
<dt>date</dt><dd>{{.Date}}</dd>
<dt>suite version</dt><dd class="mono">{{.Version}}</dd>
<dt>protocol</dt><dd class="mono">{{.Protocol}}</dd>
{{- if .LabelFilter}}
<dt>label filter</dt><dd class="mono">{{.LabelFilter}}</dd>
{{- end}}
{{- if .Focus}}
<dt>focus</dt><dd class="mono">{{.Focus}}</dd>
{{- end}}
<dt>totals</dt><dd>{{.Checks}} checks, {{.Executed}} executed, {{.Calls}} tools/call requests</dd>
<dt>took</dt><dd>{{.Took}}</dd>
{{- if .Slowest}}
<dt>slowest checks</dt><dd class="mono">{{range $i, $c := .Slowest}}{{if $i}}, {{end}}{{$c.ID}} {{$c.Took}}{{end}}</dd>
{{- end}}
</dl>
<table id="areas">
<thead><tr><th>area</th>{{range .States}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Areas}}
<tr>{{template "row" .}}</tr>
{{- end}}
<tr class="total">{{template "row" .Total}}</tr>
</tbody>
</table>
</div>

<h2 id="tools">Per tool</h2>
{{- if .Tools}}
<table>
<thead><tr><th>tool</th>{{range .States}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Tools}}
<tr>{{template "row" .}}</tr>
{{- end}}
</tbody>
</table>
{{- end}}
{{- if .Idle}}
<details><summary>Tools with no check executed ({{len .Idle}})</summary>
<table>
<thead><tr><th>tool</th>{{range .States}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Idle}}
<tr>{{template "row" .}}</tr>
{{- end}}
</tbody>
</table>
</details>
{{- end}}

{{- if .Skips}}
<h2>Not run</h2>
<ul>
{{- range .Skips}}
<li><span class="state {{.State}}">{{.State}}</span> {{.N}}: {{.Reason}}</li>
{{- end}}
</ul>
{{- end}}

<h2 id="failures">Failures ({{len .Failures}})</h2>
{{- if .Groups}}
<p>By clause: a clause broken once usually fails several checks.</p>
<ul>
{{- range .Groups}}
<li><span class="mono">{{.Clause}}</span>: {{len .IDs}} checks ({{range $i, $id := .IDs}}{{if $i}}, {{end}}<a href="#check-{{$id}}">{{$id}}</a>{{end}})</li>
{{- end}}
</ul>
{{- end}}
{{- if .Failures}}
<ul class="index">
{{- range .Failures}}
<li><a class="mono" href="#check-{{.ID}}">{{.ID}}</a></li>
{{- end}}
</ul>
{{- range .Failures}}{{template "failure" .}}{{end}}
{{- else}}
<p>No check failed unexpectedly.</p>
{{- end}}

{{- if .Stale}}
<h2 id="stale">Stale baseline entries ({{len .Stale}})</h2>
<p>These checks are listed as expected failures but pass: remove them from the baseline.</p>
{{- range .Stale}}{{template "failure" .}}{{end}}
{{- end}}

{{- if .Expected}}
<h2 id="expected">Expected failures ({{len .Expected}})</h2>
<p>Listed in the baseline; they do not fail the run.</p>
{{- range .Expected}}{{template "failure" .}}{{end}}
{{- end}}

{{- if .All}}
<h2 id="checks">Every check</h2>
<details><summary>All {{len .All}} checks with their state (open, then search with the browser's find)</summary>
<table class="all">
<thead><tr><th>check</th><th>state</th><th>area</th><th>tool</th><th>took</th></tr></thead>
<tbody>
{{- range .All}}
<tr id="all-{{.ID}}"><td class="mono">{{.ID}}</td><td><span class="state {{.State}}">{{.State}}</span></td><td>{{.Area}}</td><td>{{.Tool}}</td><td>{{.Took}}</td></tr>
{{- end}}
</tbody>
</table>
</details>
{{- end}}

<footer>Written by ombi-conformance {{.Version}} on {{.Date}}. Self-contained: no script, no external resource.</footer>
</body>
</html>
{{- define "row"}}<td>{{.Name}}</td>{{range .Counts}}<td class="n {{.State}}{{if eq .N 0}} zero{{end}}">{{.N}}</td>{{end}}{{end}}
{{- define "failure"}}
<section class="failure {{.State}}" id="check-{{.ID}}">
<h3 class="mono">{{.ID}}</h3>
<div class="meta"><span class="state {{.State}}">{{.State}}</span> area {{.Area}} · tool {{.Tool}} · {{.Duration}}</div>
{{- if .Clause}}
<div class="clause"><span class="id mono">{{.Clause}}</span>{{if .Document}} <span class="meta">({{.Document}}, {{.Rule}})</span>{{end}}<div class="text">{{.Text}}</div></div>
{{- end}}
{{- if .Observed}}
<div class="observed">{{.Observed}}</div>
{{- end}}
<div class="label">rerun this check</div>
<pre class="rerun"><code>{{.Rerun}}</code></pre>
{{- if .Message}}
<details{{if .Open}} open{{end}}><summary>failure message (call, envelope, upstream journal)</summary>
<pre class="message">{{.Message}}</pre>
</details>
{{- end}}
</section>
{{- end}}
`))

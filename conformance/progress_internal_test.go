package conformance

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
)

// fakeClock is a clock that moves a second each time it is read.
func fakeClock() func() time.Time {
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(time.Second)
		return t
	}
}

// TestProgress_lines: what each mode prints for a run's plans and
// checks. An area's line comes when every check of the area ran (all
// processes' plans in), or, in one process whose plan has no areas, when
// the next area starts; failures as they happen (unless Ginkgo's own
// reporter shows them); nothing in a quiet run.
func TestProgress_lines(t *testing.T) {
	pass := func(id, area string) checkEvent { return checkEvent{ID: id, Area: area, State: StatePassed} }
	plan := func(total int, areas map[string]int) checkEvent {
		return checkEvent{Plan: &runPlan{Total: total, Areas: areas}}
	}
	fail := checkEvent{ID: "S-1", Area: "schema", State: StateFailed, Failure: "want an object"}
	unimpl := checkEvent{ID: "W-3", Area: "wire", State: StateUnimplemented}
	tests := []struct {
		name   string
		mode   string
		procs  int
		dots   bool
		events []checkEvent
		want   string
	}{
		{
			name:  "split run: areas when complete, a failure at once",
			procs: 2,
			events: []checkEvent{
				plan(3, map[string]int{"wire": 2, "schema": 1}), plan(1, map[string]int{"wire": 1}),
				pass("W-1", "wire"), fail, pass("W-2", "wire"), unimpl,
			},
			want: "FAILED  S-1 (schema): want an object\n" +
				"-- area schema       0 passed    1 failed    0 not run (0s)\n" +
				"-- area wire         2 passed    0 failed    1 not run (3s)\n",
		},
		{
			name:  "split run: a plan missing, areas at the end in the order they started",
			procs: 2,
			events: []checkEvent{
				plan(2, map[string]int{"wire": 2}),
				pass("W-1", "wire"), pass("P-1", "protocol"), pass("W-2", "wire"),
			},
			want: "-- area wire         2 passed    0 failed    0 not run (2s)\n" +
				"-- area protocol     1 passed    0 failed    0 not run (0s)\n",
		},
		{
			name:  "one process without areas: an area ends when the next starts",
			procs: 1,
			dots:  true,
			events: []checkEvent{
				plan(4, nil),
				pass("W-1", "wire"), fail, pass("W-2", "wire"), unimpl,
			},
			want: "\n-- area wire         1 passed    0 failed    0 not run (0s)\n" +
				"\n-- area schema       0 passed    1 failed    0 not run (0s)\n" +
				"\n-- area wire         1 passed    0 failed    1 not run (1s)\n",
		},
		{
			name:   "quiet",
			mode:   ProgressQuiet,
			procs:  1,
			events: []checkEvent{plan(2, map[string]int{"schema": 1, "wire": 1}), fail, pass("W-1", "wire")},
			want:   "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			p := newProgress(&out, tt.mode, tt.procs, fakeClock())
			p.dots = tt.dots
			for _, e := range tt.events {
				p.event(e)
			}
			p.finish()
			if got := out.String(); got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestProgress_live: on a terminal the status line is redrawn in place
// with the checks done of those planned, the area at work, failures, the
// time so far and an estimate of the time left; an area's line and a
// failure take the status line away and it is drawn again below them.
func TestProgress_live(t *testing.T) {
	var out bytes.Buffer
	// the clock moves a second at each reading: the start, each check,
	// each status line
	p := newProgress(&out, ProgressLive, 1, fakeClock())
	p.event(checkEvent{Plan: &runPlan{Total: 4, Areas: map[string]int{"wire": 3, "schema": 1}}})
	p.event(checkEvent{ID: "W-1", Area: "wire", State: StatePassed})
	p.event(checkEvent{ID: "S-1", Area: "schema", State: StateFailed, Failure: "boom"})
	p.tick()
	want := "\r\x1b[K[1/4  25%] wire 1/3 · 0 failed · 0:02 elapsed, about 0:06 left" +
		"\r\x1b[KFAILED  S-1 (schema): boom\n" +
		"-- area schema       0 passed    1 failed    0 not run (0s)\n" +
		"\r\x1b[K[2/4  50%] schema 1/1 · 1 failed · 0:04 elapsed, about 0:04 left" +
		"\r\x1b[K[2/4  50%] schema 1/1 · 1 failed · 0:05 elapsed, about 0:05 left"
	if got := out.String(); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	out.Reset()
	p.finish()
	if got, want := out.String(), "\r\x1b[K-- area wire         1 passed    0 failed    0 not run (0s)\n"; got != want {
		t.Errorf("finish: got %q, want %q", got, want)
	}
}

// TestProgress_livePlansMissing: until every process has said what it
// will run, the total is a floor and there is no estimate.
func TestProgress_livePlansMissing(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, ProgressLive, 2, fakeClock())
	p.event(checkEvent{Plan: &runPlan{Total: 3, Areas: map[string]int{"wire": 3}}})
	p.event(checkEvent{ID: "W-1", Area: "wire", State: StatePassed})
	if got, want := out.String(), "\r\x1b[K[1/3+] wire 1 · 0 failed · 0:02 elapsed"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestProgress_leftByCost: with the listed checks' costs the estimate
// weighs what is left by them, a check not listed by their mean.
func TestProgress_leftByCost(t *testing.T) {
	p := newProgress(&bytes.Buffer{}, ProgressLines, 1, fakeClock())
	p.costs([]Check{{ID: "A"}, {ID: "B"}}, []float64{100, 300})
	p.plan(runPlan{Total: 3})
	p.add(checkEvent{ID: "A", Area: "wire", State: StatePassed})
	// 100 of 100+300+200 done in 10s: 50s left
	if got, ok := p.left(10 * time.Second); !ok || got != 50*time.Second {
		t.Errorf("left = %v, %v; want 50s", got, ok)
	}
	p.add(checkEvent{ID: "C", Area: "wire", State: StatePassed})
	// then 100+200 of 600 done in 20s: 20s left
	if got, ok := p.left(20 * time.Second); !ok || got != 20*time.Second {
		t.Errorf("left = %v, %v; want 20s", got, ok)
	}
	p.add(checkEvent{ID: "B", Area: "wire", State: StatePassed})
	if got, ok := p.left(time.Minute); ok {
		t.Errorf("every check done, left = %v; want none", got)
	}
}

// TestRanHere: a spec the filters or another process's share left out is
// not counted; a check that ran, or ended itself without judging, is.
func TestRanHere(t *testing.T) {
	tests := []struct {
		name string
		r    types.SpecReport
		want bool
	}{
		{"filtered out", types.SpecReport{LeafNodeType: types.NodeTypeIt, State: types.SpecStateSkipped}, false},
		{"passed", types.SpecReport{LeafNodeType: types.NodeTypeIt, State: types.SpecStatePassed, NumAttempts: 1}, true},
		{"failed", types.SpecReport{LeafNodeType: types.NodeTypeIt, State: types.SpecStateFailed, NumAttempts: 1}, true},
		{"unimplemented", types.SpecReport{LeafNodeType: types.NodeTypeIt, State: types.SpecStateSkipped, NumAttempts: 1,
			Failure: types.Failure{Message: "unimplemented: read_search is not listed"}}, true},
		{"skipped after an ordered failure", types.SpecReport{LeafNodeType: types.NodeTypeIt, State: types.SpecStateSkipped,
			Failure: types.Failure{Message: "Spec skipped because an earlier spec in an ordered container failed"}}, true},
		{"a suite node", types.SpecReport{LeafNodeType: types.NodeTypeBeforeSuite, State: types.SpecStatePassed}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ranHere(tt.r); got != tt.want {
				t.Errorf("ranHere = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPlanOf: a process's plan counts the checks its label filter
// selects by area, and tells no areas when they do not add up to what
// Ginkgo will run or a focus selects.
func TestPlanOf(t *testing.T) {
	declared := framework.Declared{
		"[W-1]": {ID: "W-1", Area: "wire", Labels: []string{"wire", "tool:read_search"}},
		"[W-2]": {ID: "W-2", Area: "wire", Labels: []string{"wire", "tool:read_media"}},
		"[S-1]": {ID: "S-1", Area: "schema", Labels: []string{"schema", "tool:read_search"}},
	}
	tests := []struct {
		name, filter, focus string
		willRun             int
		want                runPlan
	}{
		{"everything", "", "", 3, runPlan{Total: 3, Areas: map[string]int{"wire": 2, "schema": 1}}},
		{"a tool", "tool:read_search", "", 2, runPlan{Total: 2, Areas: map[string]int{"wire": 1, "schema": 1}}},
		{"an area of a tool", "(wire) && (tool:read_media)", "", 1, runPlan{Total: 1, Areas: map[string]int{"wire": 1}}},
		{"not what Ginkgo runs", "wire", "", 3, runPlan{Total: 3}},
		{"a focus", "", "W-1", 1, runPlan{Total: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := planOf(declared, tt.filter, tt.focus, tt.willRun); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("planOf = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestTailEvents: the parent of a split run reads each complete line a
// process appends, a line cut in the middle once its end is written, and
// what is left after stop; a line that is not an event is passed over.
func TestTailEvents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	first := `{"id":"A","area":"wire","state":"passed"}` + "\n" + "not json\n" + `{"id":"B","ar`
	if err := os.WriteFile(path, []byte(first), 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan checkEvent, 10)
	stop := make(chan struct{})
	done := make(chan error)
	go func() { done <- tailEvents(path, time.Millisecond, stop, func(e checkEvent) { got <- e }) }()
	if e := <-got; e.ID != "A" {
		t.Fatalf("first event %+v, want A", e)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`ea":"schema","state":"failed","failure":"boom"}` + "\n" + `{"plan":{"total":2}}` + "\n"); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	close(got)
	var rest []checkEvent
	for e := range got {
		rest = append(rest, e)
	}
	want := []checkEvent{{ID: "B", Area: "schema", State: StateFailed, Failure: "boom"}, {Plan: &runPlan{Total: 2}}}
	if !reflect.DeepEqual(rest, want) {
		t.Errorf("then %+v, want %+v", rest, want)
	}
}

// TestFailureLine: a failure line says what was observed, not the
// check's name again.
func TestFailureLine(t *testing.T) {
	tests := []struct{ msg, want string }{
		{"check A failed\nclause: A (doc)\nobserved: want GET /x upstream, got no call\ntools/call: {}", "want GET /x upstream, got no call"},
		{"Expected\n  <int>: 1\nto equal 2", "Expected"},
		{"observed: " + strings.Repeat("x", 200), strings.Repeat("x", 120) + "… (200 bytes)"},
	}
	for _, tt := range tests {
		if got := failureLine(tt.msg); got != tt.want {
			t.Errorf("failureLine(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

// TestProgressMode: live progress only on a terminal; a file or a pipe
// gets the area lines; --quiet wins.
func TestProgressMode(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tests := []struct {
		name  string
		w     io.Writer
		quiet bool
		want  string
	}{
		{"a buffer", &bytes.Buffer{}, false, ProgressLines},
		{"a file", f, false, ProgressLines},
		{"a file, quiet", f, true, ProgressQuiet},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := progressMode(tt.w, tt.quiet); got != tt.want {
				t.Errorf("progressMode = %q, want %q", got, tt.want)
			}
		})
	}
	if got := clock(75 * time.Second); got != "1:15" {
		t.Errorf("clock(75s) = %q, want 1:15", got)
	}
}

package conformance

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/ombi-mcp/ombi-mcp/conformance/checks"
	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/reports"
)

// How a run shows its progress on Options.Out (Options.Progress).
const (
	// ProgressLines prints a line per area when the area is done, and (in
	// a split run) each unexpected failure as it happens.
	ProgressLines = ""
	// ProgressLive adds one status line redrawn in place: checks done of
	// the total, the area at work, failures, elapsed time and an estimate
	// of the time left. For a terminal.
	ProgressLive = "live"
	// ProgressQuiet prints nothing but the summary.
	ProgressQuiet = "quiet"
)

// progressMode is the progress a command writing to stdout shows: live on
// a terminal, lines elsewhere, nothing but the summary when quiet.
func progressMode(stdout io.Writer, quiet bool) string {
	switch {
	case quiet:
		return ProgressQuiet
	case isTerminal(stdout):
		return ProgressLive
	}
	return ProgressLines
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// checkEvent is one check a process ran, with its verdict: what the
// progress counts, and what a process of a split run writes to its
// parent, one JSON line each. The first line a process writes is its
// plan instead.
type checkEvent struct {
	ID      string   `json:"id,omitempty"`
	Area    string   `json:"area,omitempty"`
	State   string   `json:"state,omitempty"`   // a CheckResult state
	Failure string   `json:"failure,omitempty"` // the first line of an unexpected failure
	Plan    *runPlan `json:"plan,omitempty"`
}

// runPlan is what a process will run: how many checks, and how many of
// each area (nil when it cannot tell).
type runPlan struct {
	Total int            `json:"total"`
	Areas map[string]int `json:"areas,omitempty"`
}

// planOf is the plan of a process that runs willRun checks of declared,
// those its label filter selects: the checks by area when the filter
// accounts for every check that will run (a focus also selects by the
// containers' text, which declared does not hold).
func planOf(declared framework.Declared, labelFilter, focus string, willRun int) runPlan {
	pl := runPlan{Total: willRun}
	if focus != "" {
		return pl
	}
	match := func([]string) bool { return true }
	if labelFilter != "" {
		f, err := types.ParseLabelFilter(labelFilter)
		if err != nil {
			return pl
		}
		match = f
	}
	areas, n := map[string]int{}, 0
	for _, c := range declared {
		if match(c.Labels) {
			areas[c.Area]++
			n++
		}
	}
	if n == willRun {
		pl.Areas = areas
	}
	return pl
}

// ranHere reports whether this process ran the spec: a spec left out by
// the label filter, the focus or the share of another process of a split
// run is reported skipped, never attempted, with no message; a check that
// ended itself without judging (unimplemented, not applicable, a skip)
// was attempted and says why.
func ranHere(r types.SpecReport) bool {
	return r.LeafNodeType == types.NodeTypeIt &&
		!(r.State.Is(types.SpecStateSkipped) && r.NumAttempts == 0 && r.Failure.Message == "")
}

// eventOf is the event of a check's verdict.
func eventOf(v CheckResult) checkEvent {
	e := checkEvent{ID: v.ID, Area: v.Area, State: v.State}
	if e.ID == "" {
		e.ID = v.Text
	}
	if v.State == StateFailed {
		e.Failure = failureLine(v.Failure)
	}
	return e
}

// failureLine is what a failure observed, in a line: the "observed:" line
// of the suite's own failures (their first line only names the check),
// else the first line, clipped.
func failureLine(msg string) string {
	line := reports.FirstLine(msg)
	for _, l := range strings.Split(msg, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "observed: "); ok {
			line = rest
			break
		}
	}
	return checks.ClipString(line, 120)
}

// areaCount is what the progress counted of one area.
type areaCount struct {
	passed, failed, notRun int
	first, last            time.Time
	printed                bool
}

func (a *areaCount) done() int { return a.passed + a.failed + a.notRun }

// progress follows a run check by check and writes what its mode shows.
// It learns what the run will run from the plan of each of its processes;
// an area's line is printed when all its checks ran (or, for a run in one
// process that cannot tell, when the next area starts), and at the end.
// Its methods may be called from several goroutines.
type progress struct {
	mu   sync.Mutex
	out  io.Writer
	mode string
	// dots: Ginkgo's own reporter writes on the same stream (a run in
	// process, in ProgressLines), its dots on the line an area line
	// starts, and its failures in full.
	dots  bool
	now   func() time.Time
	start time.Time

	procs, plans int            // processes of the run, plans received
	total        int            // checks the run runs, as planned so far
	areaTotal    map[string]int // checks of each area, once every plan is in; nil = not known
	planAreas    map[string]int // the areas of the plans received
	areasUnknown bool           // a plan did not tell its areas

	weight     map[string]float64 // estimated cost of each listed check; nil = by count
	listedCost float64            // the cost of the checks listed
	meanCost   float64            // the cost of a check not listed
	doneWeight float64

	done, failed int
	areas        map[string]*areaCount
	order        []string // areas in the order they started
	current      string   // the area of the latest check
	drawn        bool     // a status line is on screen
}

// newProgress starts following a run of procs processes at now().
func newProgress(out io.Writer, mode string, procs int, now func() time.Time) *progress {
	if now == nil {
		now = time.Now
	}
	return &progress{out: out, mode: mode, now: now, start: now(), procs: procs, areas: map[string]*areaCount{}, planAreas: map[string]int{}}
}

// costs sets the estimated cost of the checks listed for the run (est[i]
// is cs[i]'s): the estimate of the time left weighs checks by them.
func (p *progress) costs(cs []Check, est []float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.weight = map[string]float64{}
	var sum float64
	for i, c := range cs {
		p.weight[c.ID] = est[i]
		sum += est[i]
	}
	p.listedCost = sum
	if len(cs) > 0 {
		p.meanCost = sum / float64(len(cs))
	}
}

// event counts a check, or a process's plan.
func (p *progress) event(e checkEvent) {
	if e.Plan != nil {
		p.plan(*e.Plan)
		return
	}
	p.add(e)
}

// plan adds what one process will run.
func (p *progress) plan(pl runPlan) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.plans++
	p.total += pl.Total
	if pl.Areas == nil {
		p.areasUnknown = true
	}
	for a, n := range pl.Areas {
		p.planAreas[a] += n
	}
	if p.plans < p.procs || p.areasUnknown {
		return
	}
	p.areaTotal = p.planAreas
	for _, a := range p.order {
		if t, ok := p.areaTotal[a]; ok && p.areas[a].done() >= t {
			p.line(a)
		}
	}
}

// add counts one check that ran.
func (p *progress) add(e checkEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == ProgressQuiet {
		return
	}
	now := p.now()
	if e.Area != p.current && p.current != "" && p.procs == 1 && p.areaTotal == nil {
		p.line(p.current) // one process, one area after the other
	}
	p.current = e.Area
	a := p.areas[e.Area]
	if a == nil || a.printed {
		a = &areaCount{first: now}
		p.areas[e.Area] = a
		p.order = append(p.order, e.Area)
	}
	a.last = now
	p.done++
	if w, ok := p.weight[e.ID]; ok {
		p.doneWeight += w
	} else {
		p.doneWeight += p.meanCost
	}
	switch e.State {
	case StatePassed, StateStale:
		a.passed++
	case StateFailed, StateExpected:
		a.failed++
	default:
		a.notRun++
	}
	if e.State == StateFailed {
		p.failed++
		if !p.dots {
			p.clear()
			fmt.Fprintf(p.out, "FAILED  %s (%s): %s\n", e.ID, e.Area, e.Failure)
		}
	}
	if t, ok := p.areaTotal[e.Area]; ok && a.done() >= t {
		p.line(e.Area)
	}
	p.draw()
}

// tick redraws the status line (its elapsed time and estimate).
func (p *progress) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draw()
}

// finish prints the lines of the areas not yet printed and takes the
// status line away.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == ProgressQuiet {
		return
	}
	for _, area := range p.order {
		p.line(area)
	}
	p.clear()
}

// line prints an area's line once, if any of its checks ran.
func (p *progress) line(area string) {
	a := p.areas[area]
	if a == nil || a.printed || a.done() == 0 {
		return
	}
	a.printed = true
	p.clear()
	lead := ""
	if p.dots {
		lead = "\n"
	}
	fmt.Fprintf(p.out, "%s-- area %-9s %4d passed %4d failed %4d not run (%s)\n", lead, area, a.passed, a.failed, a.notRun, a.last.Sub(a.first).Round(time.Millisecond))
}

// clear takes the status line away.
func (p *progress) clear() {
	if p.drawn {
		fmt.Fprint(p.out, "\r\x1b[K")
		p.drawn = false
	}
}

// draw redraws the status line in ProgressLive.
func (p *progress) draw() {
	if p.mode != ProgressLive {
		return
	}
	fmt.Fprint(p.out, "\r\x1b[K"+p.status())
	p.drawn = true
}

// status is the status line: checks done of the total, the area at work,
// failures, elapsed time and the time left.
func (p *progress) status() string {
	elapsed := p.now().Sub(p.start)
	var b strings.Builder
	switch {
	case p.total > 0 && p.plans < p.procs: // a process has not said what it will run yet
		fmt.Fprintf(&b, "[%d/%d+]", p.done, p.total)
	case p.total > 0:
		width := len(fmt.Sprint(p.total))
		fmt.Fprintf(&b, "[%*d/%d %3d%%]", width, p.done, p.total, min(100, 100*p.done/p.total))
	default:
		fmt.Fprintf(&b, "[%d checks]", p.done)
	}
	if a := p.areas[p.current]; a != nil {
		fmt.Fprintf(&b, " %s %d", p.current, a.done())
		if t, ok := p.areaTotal[p.current]; ok {
			fmt.Fprintf(&b, "/%d", t)
		}
	}
	fmt.Fprintf(&b, " · %d failed · %s elapsed", p.failed, clock(elapsed))
	if left, ok := p.left(elapsed); ok {
		fmt.Fprintf(&b, ", about %s left", clock(left))
	}
	return b.String()
}

// left estimates the time left: the time so far scaled by the estimated
// cost still to run over the cost run (checks alike when no costs are
// known; a check not listed weighs the mean of those listed).
func (p *progress) left(elapsed time.Duration) (time.Duration, bool) {
	if p.plans < p.procs || p.done == 0 || p.done >= p.total {
		return 0, false
	}
	done, all := float64(p.done), float64(p.total)
	if p.weight != nil {
		done, all = p.doneWeight, p.listedCost+p.meanCost*float64(max(0, p.total-len(p.weight)))
	}
	if done <= 0 || all <= done {
		return 0, false
	}
	return time.Duration(float64(elapsed) * (all - done) / done), true
}

// clock writes a duration as m:ss.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// tickEvery redraws the status line every d until the returned stop is
// called; in any other mode than ProgressLive it does nothing.
func (p *progress) tickEvery(d time.Duration) (stop func()) {
	if p.mode != ProgressLive {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				p.tick()
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// eventWriter writes events as JSON lines, one write each: the events
// file of a process of a split run.
type eventWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (ew *eventWriter) write(e checkEvent) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	ew.mu.Lock()
	defer ew.mu.Unlock()
	_, err = ew.w.Write(append(b, '\n'))
	return err
}

// tailEvents follows the events file a process of a split run appends
// to, handing each event to add, every interval, until stop is closed;
// it then reads what is left and returns. A line not yet complete waits
// for its end.
func tailEvents(path string, interval time.Duration, stop <-chan struct{}, add func(checkEvent)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rd := bufio.NewReader(f)
	var partial string
	drain := func() {
		for {
			s, err := rd.ReadString('\n')
			partial += s
			if err != nil {
				return
			}
			var e checkEvent
			if json.Unmarshal([]byte(partial), &e) == nil {
				add(e)
			}
			partial = ""
		}
	}
	for {
		drain()
		select {
		case <-stop:
			drain()
			return nil
		case <-time.After(interval):
		}
	}
}

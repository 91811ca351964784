package conformance

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// StressOptions configure a stress run: long sessions of short tools/calls
// against the embedded mock, several at once, until a call gets no answer
// in time or a bound is reached. It is the shape of the conformance runs
// in which a call once went unanswered, without their checks.
type StressOptions struct {
	Target harness.Target
	// Calls bounds the calls of the run (0 = no bound but Duration).
	Calls int64
	// Duration bounds the run's time (0 = no bound but Calls; one of them
	// must be set).
	Duration time.Duration
	// Sessions is how many sessions call at once; 0 = 3.
	Sessions int
	// SessionCalls is how many calls a session makes before its server is
	// stopped and a new one started; 0 = 5,000.
	SessionCalls int
	// CallTimeout is how long a call may go unanswered before it is a
	// stall; 0 = 10s.
	CallTimeout time.Duration
	// KeepGoing goes on after a stall (a new session replaces the stalled
	// one) instead of ending the run at the first.
	KeepGoing bool
	// Out receives a progress line every ProgressEvery and the report of
	// every stall; nil = io.Discard.
	Out           io.Writer
	ProgressEvery time.Duration // 0 = 10s
}

// StressResult counts a stress run.
type StressResult struct {
	Calls    int64         `json:"calls"`    // calls answered
	Stalls   int64         `json:"stalls"`   // calls with no answer within CallTimeout
	Failures int64         `json:"failures"` // other harness errors: a server that died or could not start
	Sessions int64         `json:"sessions"` // servers started
	Elapsed  time.Duration `json:"elapsed_ns"`
}

func (r *StressResult) add(o StressResult) {
	r.Calls += o.Calls
	r.Stalls += o.Stalls
	r.Failures += o.Failures
	r.Sessions += o.Sessions
	r.Elapsed = max(r.Elapsed, o.Elapsed)
}

// stressCall is one call of the mix: a tool with valid arguments, or
// tools/list when Tool is "".
type stressCall struct {
	Tool string
	Args json.RawMessage
}

// Stress runs o in this process with an embedded mock.
func Stress(ctx context.Context, o StressOptions) (StressResult, error) {
	if o.Calls <= 0 && o.Duration <= 0 {
		return StressResult{}, errors.New("stress: set a bound: calls or duration")
	}
	o.Sessions = cmp0(o.Sessions, 3)
	o.SessionCalls = cmp0(o.SessionCalls, 5000)
	if o.CallTimeout <= 0 {
		o.CallTimeout = 10 * time.Second
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 10 * time.Second
	}
	out := o.Out
	if out == nil {
		out = io.Discard
	}
	tables, err := framework.EmbeddedTables()
	if err != nil {
		return StressResult{}, err
	}
	// A bounded journal: a run of millions of calls must not keep them all.
	up, err := harness.StartMock(mockombi.Options{JournalSize: 1000, JournalBytes: 8 << 20, JournalBodyBytes: 4096})
	if err != nil {
		return StressResult{}, err
	}
	defer up.Close()
	procs := &harness.Processes{}
	defer procs.Close()
	h := &harness.Harness{Target: o.Target, Upstream: up, CallTimeout: o.CallTimeout, Processes: procs}

	start := time.Now()
	var deadline time.Time
	if o.Duration > 0 {
		deadline = start.Add(o.Duration)
	}
	var (
		calls, stalls, failures, sessions atomic.Int64
		reserved                          atomic.Int64 // calls handed out, for the Calls bound
		mu                                sync.Mutex   // serialises stall reports
	)
	// alive reports whether the run goes on; take also claims one call of
	// the Calls bound.
	alive := func() bool {
		if ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) {
			return false
		}
		if !o.KeepGoing && (stalls.Load() > 0 || failures.Load() > 0) {
			return false
		}
		return o.Calls <= 0 || reserved.Load() < o.Calls
	}
	take := func() bool { return alive() && (o.Calls <= 0 || reserved.Add(1) <= o.Calls) }
	report := func(kind string, err error) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, "stress: %s after %d calls, at +%s:\n%v\n", kind, calls.Load(), time.Since(start).Round(time.Millisecond), err)
	}
	session := func(worker int) {
		srv, err := h.Start(ctx, harness.Config{AuthMode: []string{"jwt", "api_key"}[worker%2]})
		sessions.Add(1)
		if err != nil {
			if ctx.Err() == nil {
				failures.Add(1)
				report("a server did not start", err)
			}
			return
		}
		defer srv.Close()
		tools, err := srv.Tools(ctx)
		if err != nil {
			report(countStall(err, &stalls, &failures), err)
			return
		}
		mix := stressMix(tools, tables)
		for i := 0; i < o.SessionCalls && take(); i++ {
			c := mix[(worker*7919+i)%len(mix)]
			if c.Tool == "" {
				_, err = srv.ListTools(ctx)
			} else {
				_, err = srv.CallRaw(ctx, c.Tool, c.Args)
			}
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				report(countStall(err, &stalls, &failures), err)
				return
			}
			calls.Add(1)
		}
	}
	stop := make(chan struct{})
	go func() { // progress
		t := time.NewTicker(o.ProgressEvery)
		defer t.Stop()
		last, lastAt := int64(0), start
		for {
			select {
			case <-stop:
				return
			case now := <-t.C:
				n := calls.Load()
				fmt.Fprintf(out, "stress: %d calls, %d stalls, %d sessions, %.0f calls/s, +%s\n", n, stalls.Load(), sessions.Load(), float64(n-last)/now.Sub(lastAt).Seconds(), now.Sub(start).Round(time.Second))
				last, lastAt = n, now
			}
		}
	}()
	var wg sync.WaitGroup
	for w := range o.Sessions {
		wg.Go(func() {
			for alive() {
				session(w)
			}
		})
	}
	wg.Wait()
	close(stop)
	return StressResult{Calls: calls.Load(), Stalls: stalls.Load(), Failures: failures.Load(), Sessions: sessions.Load(), Elapsed: time.Since(start)}, nil
}

// countStall counts a harness error as a stall (no answer in time) or a
// failure, and names it.
func countStall(err error, stalls, failures *atomic.Int64) string {
	if errors.Is(err, context.DeadlineExceeded) {
		stalls.Add(1)
		return "a call got no answer"
	}
	failures.Add(1)
	return "a call failed"
}

// stressMix is the calls a session cycles through: every valid example of
// every tool the server lists, and a tools/list for every 50 of them. A
// server that lists no tool of the tables is sent tools/list only.
func stressMix(tools []*mcp.Tool, tables map[string]framework.Table) []stressCall {
	var mix []stressCall
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, ex := range tables[name].Valid {
			mix = append(mix, stressCall{Tool: name, Args: ex.Args})
		}
	}
	for i := len(mix) / 50; i >= 0; i-- {
		mix = append(mix, stressCall{})
	}
	return mix
}

func cmp0(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// stressMain is `ombi-conformance stress`: Stress in Procs processes of
// this executable at once, with Load processes that only burn CPU beside
// them. It prints the totals and exits 1 when a call stalled or failed.
func stressMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ombi-conformance stress", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o StressOptions
	server := fs.String("server", "", "command line of the server under test (default: ombi-mcp next to this executable, else on PATH)")
	transport := fs.String("transport", harness.TransportStdio, "stdio or http (the command line then carries "+harness.AddrPlaceholder+")")
	fs.Int64Var(&o.Calls, "calls", 200000, "calls in all, over every process (0: bounded by --duration only)")
	fs.DurationVar(&o.Duration, "duration", 10*time.Minute, "the longest the run takes (0: bounded by --calls only)")
	fs.IntVar(&o.Sessions, "sessions", 3, "sessions calling at once in each process")
	procs := fs.Int("procs", 2, "processes of the suite, each with its own embedded mock")
	load := fs.Int("load", runtime.NumCPU(), "processes that only burn CPU beside the run")
	fs.IntVar(&o.SessionCalls, "session-calls", 5000, "calls a session makes before its server is replaced")
	fs.DurationVar(&o.CallTimeout, "call-timeout", 10*time.Second, "a call with no answer in this time is a stall")
	fs.BoolVar(&o.KeepGoing, "keep-going", false, "go on after a stall, counting them, instead of ending at the first")
	child := fs.Bool("child", false, "internal: run one process of a stress run and print its counts as JSON")
	burn := fs.Bool("burn", false, "internal: burn CPU until killed")
	usage(fs, stdout, stderr, "usage: ombi-conformance stress [flags]\n\nDrives the server under test with long sessions of short tools/calls (the\nvalid examples of its tools) against the embedded mock, in several processes\nwith CPU burners beside them, until a call gets no answer within\n--call-timeout or a bound is reached. A stall prints the full report of the\ncall (the server's and the suite's goroutines, the mock's requests in\nflight, the session's traffic). Exit 0: no stall and no failure; 1: a call\nstalled or failed; 2: usage error.\n")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if *burn {
		burnCPU(ctx)
		return 0
	}
	t, err := targetOf(*server, *transport, "", "")
	if err != nil {
		fmt.Fprintf(stderr, "ombi-conformance stress: %v\n", err)
		return ExitHarness
	}
	o.Target = t
	if err := harness.CheckTarget(o.Target); err != nil {
		fmt.Fprintf(stderr, "ombi-conformance stress: %v\n", err)
		return ExitHarness
	}
	if *child {
		o.Out = stderr
		res, err := Stress(ctx, o)
		if err != nil {
			fmt.Fprintf(stderr, "ombi-conformance stress: %v\n", err)
			return ExitHarness
		}
		_ = json.NewEncoder(stdout).Encode(res)
		return 0
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "ombi-conformance stress: %v\n", err)
		return ExitHarness
	}
	if o.Calls <= 0 && o.Duration <= 0 {
		fmt.Fprintln(stderr, "ombi-conformance stress: set a bound: --calls or --duration")
		return ExitHarness
	}
	res, err := stressProcesses(ctx, self, args, o, *procs, *load, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "ombi-conformance stress: %v\n", err)
		return ExitHarness
	}
	interrupted := ""
	if ctx.Err() != nil {
		interrupted = " (interrupted)"
	}
	fmt.Fprintf(stdout, "stress: %d calls in %s over %d sessions (%d processes × %d at once, %d CPU burners)%s: %d stalls, %d failures\n",
		res.Calls, res.Elapsed.Round(time.Second), res.Sessions, *procs, o.Sessions, *load, interrupted, res.Stalls, res.Failures)
	if res.Stalls > 0 || res.Failures > 0 {
		return ExitFail
	}
	return ExitPass
}

// stressProcesses runs procs child processes of self with args, the calls
// shared out between them, and load CPU burners until they are done.
func stressProcesses(ctx context.Context, self string, args []string, o StressOptions, procs, load int, out io.Writer) (StressResult, error) {
	procs = max(procs, 1)
	bctx, stopBurners := context.WithCancel(ctx)
	var burners sync.WaitGroup
	defer func() {
		stopBurners()
		burners.Wait()
	}()
	for range load {
		b := exec.CommandContext(bctx, self, "stress", "--burn")
		if err := b.Start(); err != nil {
			return StressResult{}, fmt.Errorf("start a CPU burner: %w", err)
		}
		burners.Go(func() { _ = b.Wait() })
	}
	var (
		mu    sync.Mutex
		total StressResult
		errs  []error
		wg    sync.WaitGroup
		outMu sync.Mutex
	)
	for i := range procs {
		calls := o.Calls / int64(procs)
		if int64(i) < o.Calls%int64(procs) {
			calls++
		}
		cargs := append(append([]string{"stress"}, args...), "--child", "--calls", fmt.Sprint(calls))
		cmd := exec.CommandContext(ctx, self, cargs...)
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
		cmd.WaitDelay = 30 * time.Second
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return StressResult{}, err
		}
		stderr, err := cmd.StderrPipe()
		if err != nil {
			return StressResult{}, err
		}
		if err := cmd.Start(); err != nil {
			return StressResult{}, fmt.Errorf("start a stress process: %w", err)
		}
		wg.Go(func() {
			var res StressResult
			done := make(chan struct{})
			go func() {
				defer close(done)
				sc := bufio.NewScanner(stderr)
				sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
				for sc.Scan() {
					outMu.Lock()
					fmt.Fprintf(out, "[%d] %s\n", i+1, sc.Text())
					outMu.Unlock()
				}
			}()
			derr := json.NewDecoder(stdout).Decode(&res)
			<-done
			werr := cmd.Wait()
			mu.Lock()
			defer mu.Unlock()
			switch {
			case werr != nil && !(ctx.Err() != nil && derr == nil):
				errs = append(errs, fmt.Errorf("stress process %d: %w", i+1, werr))
			case derr != nil:
				errs = append(errs, fmt.Errorf("stress process %d: read its counts: %w", i+1, derr))
			}
			total.add(res)
		})
	}
	wg.Wait()
	return total, errors.Join(errs...)
}

// burnCPU keeps a CPU busy until ctx is done, the way `yes > /dev/null`
// does: small writes to /dev/null back to back, so that the load enters
// and leaves the kernel as a busy machine's processes do, and the
// scheduler preempts the run's processes at arbitrary points.
func burnCPU(ctx context.Context) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer null.Close()
	line := []byte(strings.Repeat("y\n", 4096))
	for ctx.Err() == nil {
		for range 1024 {
			_, _ = null.Write(line)
		}
	}
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ombi-mcp/ombi-mcp/internal/stdio"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// noopEnv makes the test binary a no-op go-sdk MCP server over stdio: one
// tool that answers at once. It is the MCP half of the floor a tool call
// through ombi-mcp is measured against. With noopResultEnv naming a file,
// the tool answers that file's JSON as its result (the text block and the
// structured content, as ombi-mcp answers); without it, {}. With
// noopRelayEnv naming a file (a relay), the tool first sends its upstream
// requests itself, as ombi-mcp does, and reads their answers.
const (
	noopEnv       = "OMBI_MCP_BENCH_NOOP_SERVER"
	noopResultEnv = "OMBI_MCP_BENCH_NOOP_RESULT"
	noopRelayEnv  = "OMBI_MCP_BENCH_NOOP_RELAY"
)

// compareEnv names another ombi-mcp binary (an earlier build, say):
// BenchmarkFloorRatio then calls it too, interleaved with this build on
// the same mock and floor, and reports x-compare, its median over this
// build's. Two builds measured in one run differ by less noise than two
// runs do.
const compareEnv = "OMBI_MCP_BENCH_COMPARE"

// relay is what a relaying no-op server sends before it answers.
type relay struct {
	Base  string          `json:"base"`
	Calls []mockombi.Call `json:"calls"`
}

func TestMain(m *testing.M) {
	if os.Getenv(noopEnv) != "" {
		os.Exit(serveNoop())
	}
	if data := os.Getenv(mockEnv); data != "" {
		os.Exit(serveMock(data))
	}
	code := m.Run()
	if shared.dir != "" {
		_ = os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

func serveNoop() int {
	result := func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "{}"}}}
	}
	if file := os.Getenv(noopResultEnv); file != "" {
		raw, err := os.ReadFile(file)
		if err != nil || !json.Valid(raw) {
			fmt.Fprintln(os.Stderr, "noop result:", err)
			return 1
		}
		text := string(raw)
		result = func() *mcp.CallToolResult {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: json.RawMessage(raw)}
		}
	}
	var upstream relay
	if file := os.Getenv(noopRelayEnv); file != "" {
		raw, err := os.ReadFile(file)
		if err == nil {
			err = json.Unmarshal(raw, &upstream)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "noop relay:", err)
			return 1
		}
	}
	client := &http.Client{}
	s := mcp.NewServer(&mcp.Implementation{Name: "noop", Version: "0"}, nil)
	s.AddTool(&mcp.Tool{Name: "noop", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			for _, c := range upstream.Calls {
				if err := send(ctx, client, upstream.Base, c); err != nil {
					return nil, err
				}
			}
			return result(), nil
		})
	if err := s.Run(context.Background(), &mcp.IOTransport{Reader: stdio.Pollable(os.Stdin), Writer: stdio.Pollable(os.Stdout)}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// shared is the ombi-mcp binary the benchmarks build once per run.
var shared struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

func benchBinary(b *testing.B) string {
	b.Helper()
	shared.once.Do(func() {
		if shared.dir, shared.err = os.MkdirTemp("", "ombi-mcp-bench"); shared.err != nil {
			return
		}
		shared.bin = filepath.Join(shared.dir, "ombi-mcp")
		if out, err := exec.Command("go", "build", "-o", shared.bin, ".").CombinedOutput(); err != nil {
			shared.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if shared.err != nil {
		b.Fatal(shared.err)
	}
	return shared.bin
}

// fixture is a mock process with one ombi-mcp process serving it over
// stdio.
type fixture struct {
	mock   *remoteMock
	server *mcp.ClientSession
}

// startFixture starts a mock holding data (mockFor) and an ombi-mcp
// process on it, both stopped when b ends.
func startFixture(b *testing.B, data string) *fixture {
	b.Helper()
	f := &fixture{mock: mockFor(b, data)}
	f.server, _ = startServer(b, f.mock)
	return f
}

// startServer starts an ombi-mcp process on m and returns its session and
// process id; the session is closed when b ends at the latest.
func startServer(b *testing.B, m *remoteMock) (*mcp.ClientSession, int) {
	b.Helper()
	return startBinary(b, benchBinary(b), m)
}

// startBinary starts the ombi-mcp binary bin on m, as startServer does.
func startBinary(b *testing.B, bin string, m *remoteMock) (*mcp.ClientSession, int) {
	b.Helper()
	cmd := exec.Command(bin)
	cs := connectStdio(b, cmd, []string{"OMBI_URL=" + m.URL, "OMBI_AUTH_MODE=api_key", "OMBI_API_KEY=" + m.APIKey,
		"OMBI_TIMEOUT=30s", "OMBI_BUNDLES=core,moderation,administration"})
	return cs, cmd.Process.Pid
}

// ownExecutable is a private copy of this test binary, removed when b
// ends. Every process a benchmark starts from it runs from a file of its
// own: processes started from one file share its pages, and so its code in
// the CPU caches. A no-op floor started from the benchmark's own file
// would run on code the client (and the mock) had just run, warm, where
// ombi-mcp, a binary of its own, runs its code cold; each measured
// process must pay for its own code.
func ownExecutable(b *testing.B) string {
	b.Helper()
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	raw, err := os.ReadFile(self)
	if err != nil {
		b.Fatal(err)
	}
	file := filepath.Join(b.TempDir(), filepath.Base(self))
	if err := os.WriteFile(file, raw, 0o700); err != nil {
		b.Fatal(err)
	}
	return file
}

// startNoop starts the no-op go-sdk server (a copy of this test binary,
// ownExecutable), answering result ("": {}); with up not nil, it sends
// up's calls before it answers.
func startNoop(b *testing.B, result string, up *relay) *mcp.ClientSession {
	b.Helper()
	self := ownExecutable(b)
	env := []string{noopEnv + "=1"}
	if result != "" {
		file := filepath.Join(b.TempDir(), "result.json")
		if err := os.WriteFile(file, []byte(result), 0o600); err != nil {
			b.Fatal(err)
		}
		env = append(env, noopResultEnv+"="+file)
	}
	if up != nil {
		raw, err := json.Marshal(up)
		if err != nil {
			b.Fatal(err)
		}
		file := filepath.Join(b.TempDir(), "relay.json")
		if err := os.WriteFile(file, raw, 0o600); err != nil {
			b.Fatal(err)
		}
		env = append(env, noopRelayEnv+"="+file)
	}
	return connectStdio(b, exec.Command(self), env)
}

var noopCall = &mcp.CallToolParams{Name: "noop", Arguments: map[string]any{}}

// floorCase is one tool call measured against its floor.
type floorCase struct {
	name string
	data string // the mock's DataSet
	tool string
	args map[string]any
}

// floorCases are the calls BenchmarkFloorRatio measures: a small read, a
// write the mock accepts every time (a comment on an existing issue; the
// answer does not grow with the comments added) and a full page of 100
// records near the 64 KiB result budget (pageData).
var floorCases = []floorCase{
	{"read_search", "", "read_search", map[string]any{"action": "text", "media": "movie", "query": "matrix"}},
	{"write_issue_comment", "", "write_issue_comment", map[string]any{"issue_id": 1, "comment": "Playback fails at the same point on a second device."}},
	{"read_requests_100", pageData, "read_requests", map[string]any{"action": "list", "media": "movie", "page": map[string]any{"limit": 100}}},
}

// pageData is the large data set with its movie requests cut to
// pageRequests: the records are as long (a page of 100 comes near the
// result budget), and the mock's own work for a page stays that of a page
// rather than of sorting thousands of requests.
const (
	pageData     = "large-page"
	pageRequests = 120
)

// BenchmarkFloorRatio measures a tool call through ombi-mcp over stdio
// against its floor, in the same run and interleaved: a no-op go-sdk tool
// call over stdio plus the very upstream requests the ombi-mcp call made
// (read from the mock's journal: the same method, route, headers and
// body), sent directly. The no-op tool answers the very result the
// ombi-mcp call returned, so carrying the answer (the SDK's encoding and
// the client's decoding of it) is in both; the mock is a process of its
// own, as Ombi is. It reports the median and p99 of both and their ratios
// (goal: median ratio at most 1.2), the ratio against a bare floor whose
// no-op tool answers {} (x-bare-floor-median), and the result size.
//
// A relay, measured too, is a no-op server that sends the upstream
// requests itself before it answers: the structure of an ombi-mcp call
// (the upstream hop made from the server process) without its work.
// x-relay-median, ombi-mcp's median over the relay's, is the share of the
// gap that is the server's own work; relay-x-floor-median shows whether
// the floor's shape (the hop made from the client) flatters it. With
// compareEnv set, a second build is measured too (x-compare).
func BenchmarkFloorRatio(b *testing.B) {
	bare := startNoop(b, "", nil)
	fixtures := map[string]*fixture{}
	client := &http.Client{}
	for _, tc := range floorCases {
		f := fixtures[tc.data]
		if f == nil {
			f = startFixture(b, tc.data)
			fixtures[tc.data] = f
		}
		b.Run(tc.name, func(b *testing.B) {
			ctx := context.Background()
			params := &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args}
			upstream, result := upstreamOf(b, f, params)
			noop := startNoop(b, result, nil)
			relayed := startNoop(b, result, &relay{Base: f.mock.URL, Calls: upstream})
			var other *mcp.ClientSession
			if bin := os.Getenv(compareEnv); bin != "" {
				other, _ = startBinary(b, bin, f.mock)
			}
			var size int
			floorWith := func(noop *mcp.ClientSession) func() time.Duration {
				return func() time.Duration {
					start := time.Now()
					callTool(b, noop, noopCall)
					for _, c := range upstream {
						replay(b, ctx, client, f.mock.URL, c)
					}
					return time.Since(start)
				}
			}
			floor, bareFloor := floorWith(noop), floorWith(bare)
			timed := func(cs *mcp.ClientSession, params *mcp.CallToolParams) func() time.Duration {
				return func() time.Duration {
					start := time.Now()
					callTool(b, cs, params)
					return time.Since(start)
				}
			}
			relayCall, compare := timed(relayed, noopCall), func() time.Duration { return 0 }
			if other != nil {
				compare = timed(other, params)
			}
			through := func() time.Duration {
				start := time.Now()
				res := callTool(b, f.server, params)
				d := time.Since(start)
				size = len(resultText(res))
				return d
			}
			for range 20 { // warm up connections and caches on all sides
				floor()
				bareFloor()
				relayCall()
				compare()
				through()
			}
			var fs, bs, ts, rs, cs []time.Duration
			for i := 0; b.Loop(); i++ {
				if i%2 == 0 {
					fs, ts = append(fs, floor()), append(ts, through())
				} else {
					ts, fs = append(ts, through()), append(fs, floor())
				}
				if i%4 == 0 {
					bs = append(bs, bareFloor())
				}
				if i%2 == 0 {
					rs = append(rs, relayCall())
				}
				if other != nil {
					cs = append(cs, compare())
				}
			}
			fm, tm, fp, tp, bm := quantile(fs, 0.5), quantile(ts, 0.5), quantile(fs, 0.99), quantile(ts, 0.99), quantile(bs, 0.5)
			rm := quantile(rs, 0.5)
			b.ReportMetric(float64(tm.Microseconds()), "median-µs")
			b.ReportMetric(float64(fm.Microseconds()), "floor-median-µs")
			b.ReportMetric(float64(tm)/float64(fm), "x-floor-median")
			b.ReportMetric(float64(tp)/float64(fp), "x-floor-p99")
			b.ReportMetric(float64(tm)/float64(bm), "x-bare-floor-median")
			b.ReportMetric(float64(size), "result-bytes")
			b.ReportMetric(float64(tm)/float64(rm), "x-relay-median")
			b.ReportMetric(float64(rm)/float64(fm), "relay-x-floor-median")
			if other != nil {
				b.ReportMetric(float64(quantile(cs, 0.5))/float64(tm), "x-compare")
			}
		})
	}
}

// upstreamOf makes one call through f's server and returns the upstream
// requests it sent, which a floor sends again, and the call's result text.
func upstreamOf(b *testing.B, f *fixture, params *mcp.CallToolParams) ([]mockombi.Call, string) {
	b.Helper()
	f.mock.ClearJournal(b)
	res := callTool(b, f.server, params)
	upstream := f.mock.Journal(b)
	if len(upstream) == 0 {
		b.Fatalf("%s made no upstream call", params.Name)
	}
	return upstream, resultText(res)
}

// BenchmarkConcurrency keeps N read_search calls in flight against one
// ombi-mcp process (one client session, N goroutines calling at once) and,
// alternating with it in the same run, the floor at the same N: N
// goroutines each making a no-op go-sdk call to one no-op server process
// (answering the very result read_search returned, as BenchmarkFloorRatio's)
// and then sending the call's upstream request directly. It reports the
// throughput and p99 latency of both and their ratios.
func BenchmarkConcurrency(b *testing.B) {
	f := startFixture(b, "")
	params := &mcp.CallToolParams{Name: "read_search", Arguments: floorCases[0].args}
	upstream, result := upstreamOf(b, f, params)
	noop := startNoop(b, result, nil)
	// the floor's upstream client is configured as ombi-mcp's own
	client := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	b.Cleanup(client.CloseIdleConnections)
	ctx := context.Background()
	through := func() error {
		res, err := f.server.CallTool(ctx, params)
		return callError(params.Name, res, err)
	}
	floor := func() error {
		res, err := noop.CallTool(ctx, noopCall)
		if err := callError("noop", res, err); err != nil {
			return err
		}
		for _, c := range upstream {
			if err := send(ctx, client, f.mock.URL, c); err != nil {
				return err
			}
		}
		return nil
	}
	for _, n := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			const window = 200 * time.Millisecond         // several windows a run, so the median rate means something
			inFlight(b, n, 100*time.Millisecond, through) // warm up: connections at this N
			inFlight(b, n, 100*time.Millisecond, floor)
			var ts, fs load
			for i := 0; b.Loop(); i++ {
				if i%2 == 0 {
					fs.add(inFlight(b, n, window, floor))
					ts.add(inFlight(b, n, window, through))
				} else {
					ts.add(inFlight(b, n, window, through))
					fs.add(inFlight(b, n, window, floor))
				}
			}
			tr, fr := ts.rate(), fs.rate()
			tp, fp := quantile(ts.lat, 0.99), quantile(fs.lat, 0.99)
			b.ReportMetric(tr, "calls/s")
			b.ReportMetric(fr, "floor-calls/s")
			b.ReportMetric(float64(tp.Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(fp.Microseconds())/1000, "floor-p99-ms")
			b.ReportMetric(tr/fr, "x-floor-calls/s")
			b.ReportMetric(float64(tp)/float64(fp), "x-floor-p99")
		})
	}
}

// load is what windows of concurrent calls achieved: their latencies and
// each window's rate (calls per second).
type load struct {
	lat   []time.Duration
	rates []float64
}

func (l *load) add(o load) {
	l.lat = append(l.lat, o.lat...)
	l.rates = append(l.rates, o.rates...)
}

// rate is the median window's: one window stalled by the machine (a
// paused VM, another process's burst) does not stand for the run.
func (l *load) rate() float64 {
	rs := slices.Clone(l.rates)
	slices.Sort(rs)
	if len(rs) == 0 {
		return 0
	}
	return rs[len(rs)/2]
}

// inFlight keeps n calls of do in flight until window has passed and
// every call started has ended.
func inFlight(b *testing.B, n int, window time.Duration, do func() error) load {
	b.Helper()
	lats := make([][]time.Duration, n)
	errs := make([]error, n)
	start := time.Now()
	stop := start.Add(window)
	var wg sync.WaitGroup
	for g := range n {
		wg.Go(func() {
			for time.Now().Before(stop) {
				t := time.Now()
				if err := do(); err != nil {
					errs[g] = err
					return
				}
				lats[g] = append(lats[g], time.Since(t))
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		b.Fatal(err)
	}
	all := slices.Concat(lats...)
	return load{lat: all, rates: []float64{float64(len(all)) / time.Since(start).Seconds()}}
}

// memoryCase is a read call whose upstream answer is replaced by a huge
// streamed body.
type memoryCase struct {
	name string
	size int64
	tool string
	args func(b *testing.B, f *fixture) map[string]any
}

// BenchmarkPeakRSS reports the ombi-mcp process's peak resident memory
// (VmHWM of /proc/<pid>/status) while the mock streams a 1 GiB and a 4 GiB
// JSON body (the oversized fault) to a read call's upstream GET, each case
// on a fresh process, and the peak of an idle process (started and
// initialised, no call) as its floor. read_search's body is refused by its
// length; read_logs streams a log file through a bounded window. It never
// fails on a number.
func BenchmarkPeakRSS(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads /proc/<pid>/status")
	}
	f := startFixture(b, "")
	search := func(*testing.B, *fixture) map[string]any { return floorCases[0].args }
	logFile := func(b *testing.B, f *fixture) map[string]any {
		res := callTool(b, f.server, &mcp.CallToolParams{Name: "read_logs", Arguments: map[string]any{"action": "list"}})
		var env struct {
			Data struct {
				Files []struct {
					FileID string `json:"file_id"`
				} `json:"files"`
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(resultText(res)), &env); err != nil || len(env.Data.Files) == 0 {
			b.Fatalf("read_logs list: %v %s", err, resultText(res))
		}
		return map[string]any{"action": "read", "file_id": env.Data.Files[0].FileID}
	}
	var idle float64
	b.Run("idle", func(b *testing.B) {
		for b.Loop() {
			cs, pid := startServer(b, f.mock)
			idle = max(idle, peakMiB(b, pid))
			_ = cs.Close()
		}
		b.ReportMetric(idle, "peak-MiB")
	})
	for _, tc := range []memoryCase{
		{"read_search_1GiB", 1 << 30, "read_search", search},
		{"read_search_4GiB", 4 << 30, "read_search", search},
		{"read_logs_1GiB", 1 << 30, "read_logs", logFile},
		{"read_logs_4GiB", 4 << 30, "read_logs", logFile},
	} {
		b.Run(tc.name, func(b *testing.B) {
			params := &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args(b, f)}
			upstream, _ := upstreamOf(b, f, params)
			target := upstream[len(upstream)-1] // the call's answer, after any listing
			var peak float64
			var took time.Duration
			var outcome string
			for b.Loop() {
				cs, pid := startServer(b, f.mock)
				f.mock.InjectFault(b, mockombi.Fault{Method: target.Method, Path: target.Path, Kind: mockombi.FaultOversized, Size: tc.size})
				start := time.Now()
				res, err := cs.CallTool(context.Background(), params)
				took = max(took, time.Since(start))
				f.mock.ClearFaults(b)
				if err != nil {
					b.Fatalf("%s with a %d MiB body: %v", tc.tool, tc.size>>20, err)
				}
				outcome = resultCode(res)
				peak = max(peak, peakMiB(b, pid))
				_ = cs.Close()
			}
			b.ReportMetric(peak, "peak-MiB")
			b.ReportMetric(idle, "idle-MiB")
			b.ReportMetric(peak/idle, "x-idle")
			b.ReportMetric(float64(took.Milliseconds()), "call-ms")
			b.Logf("%s with a %d MiB body at %s %s: %s", tc.tool, tc.size>>20, target.Method, target.Path, outcome)
		})
	}
}

// peakMiB is the peak resident memory of process pid.
func peakMiB(b *testing.B, pid int) float64 {
	b.Helper()
	fh, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kib, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				b.Fatalf("VmHWM %q: %v", v, err)
			}
			return kib / 1024
		}
	}
	b.Fatalf("no VmHWM for process %d", pid)
	return 0
}

func connectStdio(b *testing.B, cmd *exec.Cmd, env []string) *mcp.ClientSession {
	b.Helper()
	cmd.Env = append(os.Environ(), env...)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close() })
	return cs
}

func callTool(b *testing.B, cs *mcp.ClientSession, params *mcp.CallToolParams) *mcp.CallToolResult {
	res, err := cs.CallTool(context.Background(), params)
	if err := callError(params.Name, res, err); err != nil {
		b.Fatal(err)
	}
	return res
}

// callError is the failure of a tool call: a protocol error or a tool
// error result.
func callError(name string, res *mcp.CallToolResult, err error) error {
	if err != nil {
		return fmt.Errorf("call %s: %w", name, err)
	}
	if res.IsError {
		return fmt.Errorf("call %s: %s", name, resultText(res))
	}
	return nil
}

// resultText is the text block of a tool result.
func resultText(res *mcp.CallToolResult) string {
	if res != nil && len(res.Content) > 0 {
		if t, ok := res.Content[0].(*mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

// resultCode is "ok" or the error code of a tool result.
func resultCode(res *mcp.CallToolResult) string {
	var env struct {
		Error *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(resultText(res)), &env); err != nil {
		return "no envelope"
	}
	if env.Error != nil {
		return env.Error.Code
	}
	return "ok"
}

// replay sends one journaled upstream request again, as the server sent it.
func replay(b *testing.B, ctx context.Context, client *http.Client, base string, c mockombi.Call) {
	if err := send(ctx, client, base, c); err != nil {
		b.Fatal(err)
	}
}

// send sends one journaled upstream request again, as the server sent it,
// and reads the answer; an answer of another status than the journaled one
// is an error (the floor must do the same work).
func send(ctx context.Context, client *http.Client, base string, c mockombi.Call) error {
	var body io.Reader
	if len(c.Body) > 0 {
		body = bytes.NewReader(c.Body)
	}
	url := base + c.Path
	if c.Query != "" {
		url += "?" + c.Query
	}
	req, err := http.NewRequestWithContext(ctx, c.Method, url, body)
	if err != nil {
		return err
	}
	for k, v := range c.Header {
		req.Header[k] = v
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != c.Status {
		return fmt.Errorf("%s %s: status %d, the server's call got %d", c.Method, c.Path, resp.StatusCode, c.Status)
	}
	return nil
}

func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(int(float64(len(s))*q), len(s)-1)]
}

// mockEnv makes the test binary a mockombi process holding the data set
// its value names: the benchmarks' upstream lives in a process of its own,
// as Ombi does, so that ombi-mcp's upstream calls and a floor's direct
// ones both cross a process boundary to reach it. The process prints one
// JSON line (its URL and ApiKey) and serves until its stdin closes.
const mockEnv = "OMBI_MCP_BENCH_MOCK"

// serveMock is the mock process's main.
func serveMock(data string) int {
	m, err := loadMock(data)
	if err == nil {
		err = m.Start("127.0.0.1:0")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer m.Close()
	if err := json.NewEncoder(os.Stdout).Encode(mockAddress{URL: m.URL(), APIKey: m.Credentials().APIKey}); err != nil {
		return 1
	}
	_, _ = io.Copy(io.Discard, stdio.Pollable(os.Stdin))
	return 0
}

// mockAddress is what the mock process prints when it is up.
type mockAddress struct {
	URL    string `json:"url"`
	APIKey string `json:"api_key"`
}

// loadMock builds the mock for data; pageData is the large data set with
// its movie requests cut to pageRequests, loaded as POST /_mock/state
// would.
func loadMock(data string) (*mockombi.Server, error) {
	o := mockombi.Options{DataSet: data}
	if data == pageData {
		o.DataSet = "large"
	}
	m, err := mockombi.New(o)
	if err != nil || data != pageData {
		return m, err
	}
	var state bytes.Buffer
	if err := m.WriteState(&state); err != nil {
		return nil, err
	}
	var doc, requests map[string]json.RawMessage
	var movies []json.RawMessage
	if err := json.Unmarshal(state.Bytes(), &doc); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(doc["requests"], &requests); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(requests["movies"], &movies); err != nil || len(movies) < pageRequests {
		return nil, fmt.Errorf("large data set: %d movie requests, %v", len(movies), err)
	}
	var errs [2]error
	requests["movies"], errs[0] = json.Marshal(movies[:pageRequests])
	doc["requests"], errs[1] = json.Marshal(requests)
	if err := errors.Join(errs[:]...); err != nil {
		return nil, err
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return m, m.ReplaceState(out)
}

// remoteMock drives a mock process through its control API.
type remoteMock struct {
	mockAddress
	client *http.Client
}

// mockFor starts a mock process holding data, stopped when b ends.
func mockFor(b *testing.B, data string) *remoteMock {
	b.Helper()
	cmd := exec.Command(ownExecutable(b))
	cmd.Env = append(os.Environ(), mockEnv+"="+orDefault(data, "default"))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = stdin.Close()
		if err := cmd.Wait(); err != nil {
			b.Errorf("mock process: %v", err)
		}
	})
	m := &remoteMock{client: &http.Client{}}
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	if err == nil {
		err = json.Unmarshal(line, &m.mockAddress)
	}
	if err != nil {
		b.Fatalf("mock process: %v (%q)", err, line)
	}
	b.Cleanup(m.client.CloseIdleConnections)
	return m
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// control sends one control request and decodes its JSON answer into out
// (nil: none).
func (m *remoteMock) control(b *testing.B, method, path string, in, out any) {
	b.Helper()
	var body io.Reader
	if in != nil {
		raw, err := json.Marshal(in)
		if err != nil {
			b.Fatal(err)
		}
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, m.URL+path, body)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := m.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode >= 300 {
		b.Fatalf("%s %s: %d %v %s", method, path, resp.StatusCode, err, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			b.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// ClearJournal forgets the mock's journal.
func (m *remoteMock) ClearJournal(b *testing.B) {
	m.control(b, http.MethodDelete, "/_mock/journal", nil, nil)
}

// Journal is the mock's journal.
func (m *remoteMock) Journal(b *testing.B) []mockombi.Call {
	var calls []mockombi.Call
	m.control(b, http.MethodGet, "/_mock/journal", nil, &calls)
	return calls
}

// InjectFault injects f.
func (m *remoteMock) InjectFault(b *testing.B, f mockombi.Fault) {
	m.control(b, http.MethodPost, "/_mock/faults", f, nil)
}

// ClearFaults removes every fault.
func (m *remoteMock) ClearFaults(b *testing.B) {
	m.control(b, http.MethodDelete, "/_mock/faults", nil, nil)
}

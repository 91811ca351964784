package harness

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// closeWithin bounds Close with the default shutdown timings: 2s after
// closing stdin, 2s after SIGTERM, then SIGKILL, plus slack.
const closeWithin = 7 * time.Second

// helperPIDs are the processes a helper server started.
type helperPIDs struct{ leader, child int }

// helperHarness returns a harness whose target is this test binary running
// helper behaviour mode, and the file the helper writes its pids to. Every
// process the helper starts is SIGKILLed when the test ends, pass or fail.
func helperHarness(t *testing.T, mode string) (*Harness, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "pids")
	t.Cleanup(func() {
		p, ok := readPIDs(pidFile)
		if !ok {
			return
		}
		_ = syscall.Kill(-p.leader, syscall.SIGKILL)
		_ = syscall.Kill(p.leader, syscall.SIGKILL)
		if p.child > 0 {
			_ = syscall.Kill(p.child, syscall.SIGKILL)
		}
	})
	return &Harness{
		// GORACE: a race-enabled helper would otherwise sleep 1s at exit.
		Target:       Target{Command: []string{exe}, Env: []string{helperMode + "=" + mode, helperPIDFile + "=" + pidFile, "GORACE=atexit_sleep_ms=0"}},
		Upstream:     Live("http://127.0.0.1:1", Credentials{}),
		StartTimeout: time.Second,
	}, pidFile
}

func readPIDs(path string) (helperPIDs, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return helperPIDs{}, false
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return helperPIDs{}, false
	}
	l, err1 := strconv.Atoi(f[0])
	c, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil || l <= 0 {
		return helperPIDs{}, false
	}
	return helperPIDs{leader: l, child: c}, true
}

// awaitPIDs waits for the helper to have started its child.
func awaitPIDs(t *testing.T, path string) helperPIDs {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if p, ok := readPIDs(path); ok {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatal("the helper server wrote no pid file within 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// testStat returns the state letter and process group of pid from /proc.
func testStat(pid int) (state byte, pgrp int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(b[i+1:])) // state ppid pgrp ...
	if len(f) < 3 {
		return 0, 0, false
	}
	g, err := strconv.Atoi(f[2])
	return f[0][0], g, err == nil && len(f[0]) > 0
}

// testRunning reports whether pid exists and is not a zombie (a dead process
// not yet reaped by its parent, possibly an init that never reaps).
func testRunning(pid int) bool {
	st, _, ok := testStat(pid)
	return ok && st != 'Z' && st != 'X'
}

// testGroupMembers lists the running processes of process group pgid.
func testGroupMembers(pgid int) []int {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return nil
	}
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, g, ok := testStat(pid); ok && g == pgid && st != 'Z' && st != 'X' {
			out = append(out, pid)
		}
	}
	return out
}

// requireOwnGroup fails unless the helper server leads its own process
// group and its child is in it.
func requireOwnGroup(t *testing.T, p helperPIDs) {
	t.Helper()
	if _, g, ok := testStat(p.leader); !ok || g != p.leader {
		t.Errorf("server %d runs in process group %d, want its own group %d", p.leader, g, p.leader)
	}
	if p.child > 0 {
		if _, g, ok := testStat(p.child); !ok || g != p.leader {
			t.Errorf("the server's child %d runs in process group %d, want the server's group %d", p.child, g, p.leader)
		}
	}
}

// requireNothingLeft fails if any process of the helper is still running.
func requireNothingLeft(t *testing.T, p helperPIDs) {
	t.Helper()
	if m := testGroupMembers(p.leader); len(m) > 0 {
		t.Errorf("process group %d still has running processes %v", p.leader, m)
	}
	for _, pid := range []int{p.leader, p.child} {
		if pid > 0 && testRunning(pid) {
			t.Errorf("process %d is still running", pid)
		}
	}
}

// within runs f and fails the test if it does not return within d.
func within(t *testing.T, d time.Duration, what string, f func()) time.Duration {
	t.Helper()
	start := time.Now()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
		took := time.Since(start)
		t.Logf("%s took %s", what, took.Round(time.Millisecond))
		return took
	case <-time.After(d):
		t.Fatalf("%s did not return within %s", what, d)
		return 0
	}
}

func TestServerClose_hostileServerAndChildIgnoringSIGTERM(t *testing.T) {
	t.Parallel()
	h, pidFile := helperHarness(t, "hostile")
	srv, err := h.Start(context.Background(), Config{})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	p := awaitPIDs(t, pidFile)
	requireOwnGroup(t, p)
	within(t, closeWithin, "Server.Close of a hostile server", func() { _ = srv.Close() })
	requireNothingLeft(t, p)
}

func TestRawSessionClose_hostileServerAndChildIgnoringSIGTERM(t *testing.T) {
	t.Parallel()
	h, pidFile := helperHarness(t, "hostile")
	raw, msg, err := h.StartRaw(context.Background(), Config{})
	if err != nil {
		t.Fatalf("StartRaw: %v", err)
	}
	if msg == nil || len(msg.Result) == 0 {
		t.Fatalf("StartRaw: no initialize result: %+v", msg)
	}
	p := awaitPIDs(t, pidFile)
	requireOwnGroup(t, p)
	within(t, closeWithin, "RawSession.Close of a hostile server", raw.Close)
	requireNothingLeft(t, p)
}

func TestStart_serverNeverAnswersInitialize(t *testing.T) {
	t.Parallel()
	h, pidFile := helperHarness(t, "mute")
	var err error
	within(t, h.StartTimeout+closeWithin, "Start of a mute server", func() {
		var srv *Server
		if srv, err = h.Start(context.Background(), Config{}); srv != nil {
			_ = srv.Close()
		}
	})
	var he *HarnessError
	if !errors.As(err, &he) {
		t.Fatalf("Start error = %v, want a *HarnessError", err)
	}
	requireNothingLeft(t, awaitPIDs(t, pidFile))
}

func TestStartRaw_serverNeverAnswersInitialize(t *testing.T) {
	t.Parallel()
	h, pidFile := helperHarness(t, "mute")
	var err error
	within(t, h.StartTimeout+closeWithin, "StartRaw of a mute server", func() {
		var raw *RawSession
		if raw, _, err = h.StartRaw(context.Background(), Config{}); raw != nil {
			raw.Close()
		}
	})
	var he *HarnessError
	if !errors.As(err, &he) {
		t.Fatalf("StartRaw error = %v, want a *HarnessError", err)
	}
	requireNothingLeft(t, awaitPIDs(t, pidFile))
}

func TestServerClose_serverExitsLeavingChildOnThePipes(t *testing.T) {
	t.Parallel()
	h, pidFile := helperHarness(t, "orphaning")
	srv, err := h.Start(context.Background(), Config{})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	p := awaitPIDs(t, pidFile)
	requireOwnGroup(t, p)
	within(t, closeWithin, "Server.Close of a server leaving a child", func() { _ = srv.Close() })
	requireNothingLeft(t, p)
}

func TestServerKill_killsTheGroup(t *testing.T) {
	t.Parallel()
	h, pidFile := helperHarness(t, "hostile")
	srv, err := h.Start(context.Background(), Config{})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	p := awaitPIDs(t, pidFile)
	requireOwnGroup(t, p)
	srv.Kill()
	deadline := time.Now().Add(2 * time.Second)
	for (len(testGroupMembers(p.leader)) > 0 || testRunning(p.child) || testRunning(p.leader)) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	requireNothingLeft(t, p)
	// Nothing is left to wait for: Close returns well before the grace period.
	within(t, time.Second, "Server.Close after Kill", func() { _ = srv.Close() })
}

func TestClose_politeServerIsNotSignalled(t *testing.T) {
	t.Parallel()
	t.Run("sdk", func(t *testing.T) {
		h, pidFile := helperHarness(t, "polite")
		srv, err := h.Start(context.Background(), Config{})
		if err != nil {
			t.Fatalf("Start: %v", err)
		}
		p := awaitPIDs(t, pidFile)
		requireOwnGroup(t, p)
		within(t, time.Second, "Server.Close of a polite server", func() {
			if err := srv.Close(); err != nil {
				t.Errorf("Close: %v, want nil (the server exits 0 when stdin closes)", err)
			}
		})
		requireNothingLeft(t, p)
	})
	t.Run("raw", func(t *testing.T) {
		h, pidFile := helperHarness(t, "polite")
		raw, _, err := h.StartRaw(context.Background(), Config{})
		if err != nil {
			t.Fatalf("StartRaw: %v", err)
		}
		p := awaitPIDs(t, pidFile)
		requireOwnGroup(t, p)
		within(t, time.Second, "RawSession.Close of a polite server", raw.Close)
		requireNothingLeft(t, p)
	})
}

func TestClose_stopGraceBoundsShutdown(t *testing.T) {
	t.Parallel()
	h, pidFile := helperHarness(t, "hostile")
	h.StopGrace = 100 * time.Millisecond
	srv, err := h.Start(context.Background(), Config{})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	p := awaitPIDs(t, pidFile)
	var cerr error
	took := within(t, closeWithin, "Server.Close with StopGrace 100ms", func() { cerr = srv.Close() })
	if took > 2*h.StopGrace+time.Second {
		t.Errorf("Close took %s, want about 2*StopGrace = %s", took, 2*h.StopGrace)
	}
	if cerr == nil || !strings.Contains(cerr.Error(), "SIGKILL") {
		t.Errorf("Close error = %v, want one saying SIGKILL was needed", cerr)
	}
	requireNothingLeft(t, p)
}

func TestProcesses_closeStopsWhatWasNeverClosed(t *testing.T) {
	t.Parallel()
	ps := &Processes{}
	hostile, hostilePIDs := helperHarness(t, "hostile")
	polite, politePIDs := helperHarness(t, "polite")
	for _, h := range []*Harness{hostile, polite} {
		h.StopGrace = 100 * time.Millisecond
		h.Processes = ps
	}
	closed, _ := helperHarness(t, "polite")
	closed.Processes = ps
	srv, err := closed.Start(context.Background(), Config{})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if err := srv.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if n := ps.Open(); n != 0 {
		t.Fatalf("Open() = %d after Close, want 0", n)
	}
	if _, err := hostile.Start(context.Background(), Config{}); err != nil {
		t.Fatalf("Start: %v", err)
	}
	if _, _, err := polite.StartRaw(context.Background(), Config{}); err != nil {
		t.Fatalf("StartRaw: %v", err)
	}
	// A copy of the harness (as a check makes for a private upstream) shares
	// the record.
	other, otherPIDs := helperHarness(t, "hostile")
	cp := *hostile
	cp.Target = other.Target
	if _, err := cp.Start(context.Background(), Config{}); err != nil {
		t.Fatalf("Start: %v", err)
	}
	if n := ps.Open(); n != 3 {
		t.Fatalf("Open() = %d, want 3", n)
	}
	pids := []helperPIDs{awaitPIDs(t, hostilePIDs), awaitPIDs(t, politePIDs), awaitPIDs(t, otherPIDs)}
	within(t, closeWithin, "Processes.Close", func() { _ = ps.Close() })
	if n := ps.Open(); n != 0 {
		t.Errorf("Open() = %d after Processes.Close, want 0", n)
	}
	for _, p := range pids {
		requireNothingLeft(t, p)
	}
}

// TestTools_hungServerReportsItsStacks: a stdio server that never answers
// tools/list fails as a HarnessError carrying what it wrote on SIGQUIT (a
// Go server's goroutines), so a hang can be told from a slow machine.
func TestTools_hungServerReportsItsStacks(t *testing.T) {
	h, _ := helperHarness(t, "nolist")
	h.CallTimeout = 500 * time.Millisecond
	s, err := h.Start(context.Background(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.Tools(context.Background())
	var herr *HarnessError
	if !errors.As(err, &herr) {
		t.Fatalf("tools/list of a server that never answers: %v, want a *HarnessError", err)
	}
	if !strings.Contains(herr.Stacks, "goroutine ") || !strings.Contains(err.Error(), "on SIGQUIT") {
		t.Fatalf("the report carries no goroutine dump:\n%v", err)
	}
	// the traffic shows the request left and what came back last: the
	// initialize answer
	for _, want := range []string{"the session's traffic:", `"method":"tools/list"`, "B read from stdout", `"protocolVersion"`} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("the report lacks %q:\n%v", want, err)
		}
	}
}

// TestClose_stopsProcessesThatLeftTheGroup: a server whose child calls
// setsid, ignores SIGTERM and starts a child of its own (so neither is in
// the server's group, and neither is the server's descendant once the
// server exits) leaves nothing running once Close returns.
func TestClose_stopsProcessesThatLeftTheGroup(t *testing.T) {
	h, pidFile := helperHarness(t, "setsid")
	s, err := h.Start(context.Background(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	p := awaitPIDs(t, pidFile)
	if _, g, ok := testStat(p.child); !ok || g == p.leader {
		t.Fatalf("precondition: the child %d should run in a group of its own, not the server's %d", p.child, p.leader)
	}
	// the helper's own mark, independent of the harness's: the pid file
	// path is in the environment of the server and all it started
	mark := helperPIDFile + "=" + pidFile
	waitFor(t, func() bool { return len(testMarked(mark)) >= 3 }, "the server, its child and grandchild to run")
	t.Cleanup(func() {
		for _, pid := range testMarked(mark) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	_ = s.Close()
	if left := testMarked(mark); len(left) > 0 {
		t.Fatalf("processes of the server still running after Close: %v", left)
	}
}

// testMarked lists the running processes whose environment holds kv.
func testMarked(kv string) []int {
	var out []int
	for _, pid := range markedProcesses(kv) {
		if testRunning(pid) {
			out = append(out, pid)
		}
	}
	return out
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

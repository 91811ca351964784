package harness

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Shutdown timings of a server process (see proc.Close).
const (
	// DefaultStopGrace is how long Close waits after closing the server's
	// stdin before sending SIGTERM to its process group, and again after
	// SIGTERM before sending SIGKILL.
	DefaultStopGrace = 2 * time.Second
	// killWait is how long Close waits for the group to vanish after SIGKILL.
	killWait = 2 * time.Second
	// pipeWaitDelay bounds how long reaping the server waits for its stderr
	// to be drained once it exited (a child may hold the pipe open).
	pipeWaitDelay = 500 * time.Millisecond
	// pollInterval is how often Close looks whether the group is gone.
	pollInterval = 10 * time.Millisecond
)

// proc is one server process started by the harness. It leads its own
// process group, so that everything it starts (unless it leaves the group
// on purpose) can be signalled and accounted for together. Its stdin and
// stdout are pipes owned by proc, not by exec.Cmd, so that reaping the
// process never closes stdout under a reader that has not drained it.
type proc struct {
	cmd    *exec.Cmd
	pgid   int      // process group id: the server's pid
	stdin  *os.File // write end of the server's stdin
	stdout *os.File // read end of the server's stdout
	grace  time.Duration
	track  *Processes // nil = untracked

	// marker is the KEY=VALUE entry of ProcessMarker this server was
	// started with: every process it starts inherits it, even one that
	// leaves the group and its parent, and so can be found and stopped.
	marker string

	exited  chan struct{} // closed once cmd.Wait returned
	waitErr error         // cmd.Wait's result; read only after exited is closed
	gone    atomic.Bool   // the group was seen empty; never signal it again

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error
}

// startProc starts command with env in a new process group. stderr receives
// the server's stderr; grace is the Close grace period (0 = DefaultStopGrace);
// track, when not nil, records the process until it is closed.
func startProc(command, env []string, stderr io.Writer, grace time.Duration, track *Processes) (*proc, error) {
	if len(command) == 0 {
		return nil, errors.New("no command given")
	}
	if grace <= 0 {
		grace = DefaultStopGrace
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		_ = inR.Close()
		_ = inW.Close()
		return nil, err
	}
	var id [12]byte
	_, _ = rand.Read(id[:])
	marker := ProcessMarker + "=" + hex.EncodeToString(id[:])
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Env = append(env[:len(env):len(env)], marker)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = pipeWaitDelay
	err = cmd.Start()
	// The child holds its own copies; the parent keeps only its ends, so
	// that stdout reaches EOF once every process of the server closed it.
	_ = inR.Close()
	_ = outW.Close()
	if err != nil {
		_ = inW.Close()
		_ = outR.Close()
		return nil, err
	}
	p := &proc{
		cmd: cmd, pgid: cmd.Process.Pid, stdin: inW, stdout: outR, grace: grace, track: track, marker: marker,
		exited: make(chan struct{}), closed: make(chan struct{}),
	}
	track.add(p)
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// closeBound is the longest Close can take.
func (p *proc) closeBound() time.Duration { return 2*p.grace + killWait + time.Second }

// pid returns the server's process id, or 0 once it exited.
func (p *proc) pid() int {
	select {
	case <-p.exited:
		return 0
	default:
		return p.pgid
	}
}

// signal sends sig to the whole process group, and to every process that
// carries the server's marker but left the group, unless all are known
// gone.
func (p *proc) signal(sig syscall.Signal) {
	if !p.gone.Load() {
		_ = syscall.Kill(-p.pgid, sig)
		for _, pid := range p.strays() {
			_ = syscall.Kill(pid, sig)
		}
	}
}

// strays lists the running processes that carry the server's marker
// outside its process group: children that called setsid, or were left
// behind when their parent exited.
func (p *proc) strays() []int {
	var out []int
	for _, pid := range markedProcesses(p.marker) {
		if st, ok := readStat(pid); ok && st.pgrp != p.pgid && st.state != 'Z' && st.state != 'X' {
			out = append(out, pid)
		}
	}
	return out
}

// kill sends SIGKILL to the process group and to every descendant of the
// server (which may have left the group), at once.
func (p *proc) kill() {
	if p.pid() != 0 {
		for _, d := range descendants(p.pgid) {
			_ = syscall.Kill(d, syscall.SIGKILL)
		}
	}
	p.signal(syscall.SIGKILL) // the group and the strays
}

// groupRunning reports whether any process of the group, or any stray
// that carries the server's marker, is still running. Zombies do not
// count: they are dead, and an init that never reaps would keep them
// forever.
func (p *proc) groupRunning() bool {
	if p.gone.Load() {
		return false
	}
	if err := syscall.Kill(-p.pgid, 0); err == nil && len(groupMembers(p.pgid)) > 0 {
		return true
	}
	return len(p.strays()) > 0
}

// awaitGone waits up to d for the server to be reaped and its group to be
// empty, and reports whether it happened.
func (p *proc) awaitGone(d time.Duration) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	exited := p.exited
	for {
		if exited == nil && !p.groupRunning() {
			p.gone.Store(true)
			return true
		}
		select {
		case <-exited:
			exited = nil
		case <-tick.C:
		case <-deadline.C:
			return false
		}
	}
}

// Close stops the server: it closes stdin and gives the process group the
// grace period to exit, then sends SIGTERM to the group and waits the grace
// period again, then sends SIGKILL to the group. It returns within
// closeBound whatever the server does; concurrent and repeated calls wait
// for the first and return its result: nil or the exit error when the
// server exited by itself, an error naming the signal otherwise.
func (p *proc) Close() error {
	p.closeOnce.Do(func() {
		p.closeErr = p.shutdown()
		p.track.remove(p)
		close(p.closed)
	})
	<-p.closed
	return p.closeErr
}

func (p *proc) shutdown() error {
	// Whatever happens, readers of stdout are released at the end.
	defer p.stdout.Close()
	_ = p.stdin.Close()
	if p.awaitGone(p.grace) {
		if errors.Is(p.waitErr, exec.ErrWaitDelay) {
			return nil // a child held stderr a while after the server exited 0
		}
		return p.waitErr
	}
	p.signal(syscall.SIGTERM)
	if p.awaitGone(p.grace) {
		return fmt.Errorf("stop server: its process group was still running %s after stdin closed; stopped it with SIGTERM (%v)", p.grace, p.exitStatus())
	}
	p.kill()
	if p.awaitGone(killWait) {
		return fmt.Errorf("stop server: its process group was still running %s after stdin closed and %s after SIGTERM; killed it with SIGKILL (%v)", p.grace, p.grace, p.exitStatus())
	}
	return fmt.Errorf("stop server: its process group %d was still running %s after SIGKILL", p.pgid, killWait)
}

// hasExited reports whether the server process exited by now (its output
// then is all read: cmd.Wait returned).
func (p *proc) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// exitStatus describes how the server itself ended.
func (p *proc) exitStatus() string {
	select {
	case <-p.exited:
		if p.waitErr == nil || errors.Is(p.waitErr, exec.ErrWaitDelay) {
			return "server exit status 0"
		}
		return "server " + p.waitErr.Error()
	default:
		return "server not reaped"
	}
}

// Processes records the server processes started through every Harness
// that shares it (Harness.Processes), so that a run can stop, when it ends,
// whatever is still running: servers whose Close was never called and
// servers still being closed in the background. The zero value is ready to
// use; a nil *Processes records nothing.
type Processes struct {
	mu   sync.Mutex
	live map[*proc]struct{}
}

func (ps *Processes) add(p *proc) {
	if ps == nil {
		return
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.live == nil {
		ps.live = map[*proc]struct{}{}
	}
	ps.live[p] = struct{}{}
}

func (ps *Processes) remove(p *proc) {
	if ps == nil {
		return
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	delete(ps.live, p)
}

// Open returns how many recorded servers are not closed yet.
func (ps *Processes) Open() int {
	if ps == nil {
		return 0
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return len(ps.live)
}

// Close stops every recorded server not closed yet, all at once and each
// the way Server.Close does (a close already under way is waited for), and
// returns when all are stopped: within 2*StopGrace+3s of the slowest.
func (ps *Processes) Close() error {
	if ps == nil {
		return nil
	}
	ps.mu.Lock()
	procs := make([]*proc, 0, len(ps.live))
	for p := range ps.live {
		procs = append(procs, p)
	}
	ps.mu.Unlock()
	errs := make([]error, len(procs))
	var wg sync.WaitGroup
	for i, p := range procs {
		wg.Go(func() { errs[i] = p.Close() })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// procStat is what /proc/PID/stat tells about one process.
type procStat struct {
	state byte // R, S, D, Z, ...
	ppid  int
	pgrp  int
}

// readStat reads /proc/PID/stat.
func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	// "PID (COMM) STATE PPID PGRP ..."; COMM may contain blanks and ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return procStat{}, false
	}
	var st procStat
	if _, err := fmt.Sscanf(string(b[i+2:]), "%c %d %d", &st.state, &st.ppid, &st.pgrp); err != nil {
		return procStat{}, false
	}
	return st, true
}

// groupMembers lists the processes of group pgid that are not zombies.
func groupMembers(pgid int) []int {
	var out []int
	for _, pid := range allPIDs() {
		if st, ok := readStat(pid); ok && st.pgrp == pgid && st.state != 'Z' && st.state != 'X' {
			out = append(out, pid)
		}
	}
	return out
}

// ProcessMarker is the environment variable every server process the
// harness starts carries, with a value of its own: the processes that
// carry it are that server's, wherever they went (docs/harness.md).
const ProcessMarker = "OMBI_CONFORMANCE_PROCESS"

// markedProcesses lists the processes whose initial environment holds the
// entry marker (KEY=VALUE); this process is never one.
func markedProcesses(marker string) []int {
	want := []byte(marker)
	self := os.Getpid()
	var out []int
	for _, pid := range allPIDs() {
		if pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		if err != nil {
			continue
		}
		for kv := range bytes.SplitSeq(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// allPIDs lists every process id in /proc.
func allPIDs() []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

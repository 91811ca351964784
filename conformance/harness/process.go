package harness

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Pid returns the process id of the spawned server command, or 0 when it
// has exited. It is also the id of the server's process group.
func (s *Server) Pid() int {
	if s.proc == nil {
		return 0
	}
	return s.proc.pid()
}

// Memory is the resident memory of a process tree read from /proc.
type Memory struct {
	Processes int   // processes measured: the server and its descendants
	PeakKiB   int64 // sum of VmHWM (peak resident set) over the tree
	RSSKiB    int64 // sum of VmRSS (current resident set) over the tree
}

// Memory measures the server process and every descendant (a wrapper such
// as a mutant proxy and the real server below it). It needs Linux /proc.
func (s *Server) Memory() (Memory, error) {
	pid := s.Pid()
	if pid == 0 {
		return Memory{}, fmt.Errorf("measure server memory: the server is not running")
	}
	return treeMemory(pid)
}

func treeMemory(root int) (Memory, error) {
	var m Memory
	for i, pid := range append([]int{root}, descendants(root)...) {
		hwm, ok := statusField(pid, "VmHWM")
		if !ok {
			if i == 0 {
				return Memory{}, fmt.Errorf("measure server memory: no VmHWM for process %d in /proc", root)
			}
			continue
		}
		rss, _ := statusField(pid, "VmRSS")
		m.Processes++
		m.PeakKiB += hwm
		m.RSSKiB += rss
	}
	return m, nil
}

// statusField reads one numeric field ("VmHWM:  1234 kB") of /proc/PID/status.
func statusField(pid int, name string) (int64, bool) {
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || k != name {
			continue
		}
		fields := strings.Fields(v)
		if len(fields) == 0 {
			return 0, false
		}
		n, err := strconv.ParseInt(fields[0], 10, 64)
		return n, err == nil
	}
	return 0, false
}

// Kill sends SIGKILL to the server's process group and to every
// descendant of the server (which may have left the group), for a server
// that must be stopped at once (runaway memory); Close still releases the
// session afterwards, and returns at once.
func (s *Server) Kill() {
	if s.proc != nil {
		s.proc.kill()
	}
}

// descendants lists the processes below root, deepest last.
func descendants(root int) []int {
	children := map[int][]int{}
	for _, pid := range allPIDs() {
		if st, ok := readStat(pid); ok {
			children[st.ppid] = append(children[st.ppid], pid)
		}
	}
	var out []int
	queue := children[root]
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		out = append(out, pid)
		queue = append(queue, children[pid]...)
	}
	return out
}

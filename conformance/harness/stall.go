package harness

import (
	"fmt"
	"runtime"
	"strings"
	"time"
)

// What the report of a request that got no answer keeps.
const (
	// suiteStackBytes bounds the dump of the suite's own goroutines.
	suiteStackBytes = 4 << 20
	// suiteStackLines bounds the part of it a report carries.
	suiteStackLines = 400
	// recentCalls is how many of the mock's last journal entries it shows.
	recentCalls = 8
)

// timedOut is the error of a request that got no answer within the
// harness's deadline. Besides the server's stderr it carries everything
// that tells a hung server from a hung upstream or a hung suite, taken in
// this order so that each is seen before the next disturbs it:
//
//   - the suite's own goroutines (Suite), taken first: the embedded mock's
//     handlers and the suite's MCP client run in this process;
//   - the embedded mock's requests in flight and its last journal entries
//     (Upstream);
//   - the end of the session's traffic with times, and which side read or
//     wrote last (Wire);
//   - the server's goroutines (Stacks): a process the harness started is
//     sent SIGQUIT, which a Go server answers with every goroutine's stack
//     (the server does not survive it; the caller closes it).
func (s *Server) timedOut(action string, err error) *HarnessError {
	return s.h.timedOut(action, err, s.h.callTimeout(s.cfg), s.proc, s.stderr, s.wire)
}

// timedOut builds the report of a request that got no answer within
// timeout (see Server.timedOut); p, stderr and wire are the server's (p and
// wire may be nil).
func (h *Harness) timedOut(action string, err error, timeout time.Duration, p *proc, stderr *TailBuffer, wire *wireLog) *HarnessError {
	e := &HarnessError{
		Action: action,
		Err:    fmt.Errorf("no answer within %s (%w)", timeout, err),
		Suite:  suiteStacks(),
	}
	e.Upstream = h.Upstream.inFlightReport()
	if wire != nil {
		e.Wire = wire.String()
	}
	e.Stderr = stderr.Tail(20)
	e.Stacks = stacks(p, stderr)
	return e
}

// suiteStacks returns the stacks of every goroutine of this process, the
// goroutines that belong to the request path (the MCP client, the harness,
// the embedded mock, net/http) first, cut at suiteStackLines lines.
func suiteStacks() string {
	buf := make([]byte, suiteStackBytes)
	buf = buf[:runtime.Stack(buf, true)]
	var path, rest []string
	for g := range strings.SplitSeq(strings.TrimSpace(string(buf)), "\n\n") {
		if onRequestPath(g) {
			path = append(path, g)
		} else {
			rest = append(rest, g)
		}
	}
	all := append(path, rest...)
	lines := strings.Split(strings.Join(all, "\n\n"), "\n")
	out := fmt.Sprintf("%d goroutines, %d on the request path (shown first)\n", len(all), len(path))
	if len(lines) > suiteStackLines {
		return out + strings.Join(lines[:suiteStackLines], "\n") + fmt.Sprintf("\n… (%d more lines)", len(lines)-suiteStackLines)
	}
	return out + strings.Join(lines, "\n")
}

// onRequestPath reports whether a goroutine's stack runs code of the path
// a request takes through the suite's process.
func onRequestPath(stack string) bool {
	for _, pkg := range []string{"/mockombi.", "/harness.", "go-sdk/", "net/http."} {
		if strings.Contains(stack, pkg) {
			return true
		}
	}
	return false
}

// inFlightReport describes the embedded mock's requests in flight and its
// last journal entries; "" for a live upstream.
func (u *Upstream) inFlightReport() string {
	if u == nil || u.mock == nil {
		return ""
	}
	now := time.Now()
	var b strings.Builder
	inflight := u.mock.InFlight()
	if len(inflight) == 0 {
		b.WriteString("no request in flight at the mock")
	} else {
		fmt.Fprintf(&b, "%d requests in flight at the mock (their handlers are among the suite's goroutines, in mockombi code):", len(inflight))
		for _, r := range inflight {
			fmt.Fprintf(&b, "\n  #%d %s %s, for %s", r.Seq, r.Method, r.Path, secs(now.Sub(r.Since)))
		}
	}
	recent := u.mock.RecentCalls(recentCalls)
	if len(recent) == 0 {
		b.WriteString("\nthe journal is empty")
		return b.String()
	}
	fmt.Fprintf(&b, "\nthe journal's last %d entries:", len(recent))
	for _, c := range recent {
		fmt.Fprintf(&b, "\n  #%d %s ago: %s %s", c.Seq, secs(now.Sub(c.Time)), c.Method, c.Path)
		if c.Query != "" {
			b.WriteString("?" + clip(c.Query, 80))
		}
		fmt.Fprintf(&b, " -> %d in %.1f ms", c.Status, c.DurationMS)
		if c.Fault != "" {
			b.WriteString(" (fault " + c.Fault + ")")
		}
	}
	return b.String()
}

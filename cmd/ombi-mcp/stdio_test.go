package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBinary_stdinWaitsInThePoller: the server reads its stdin pipe through
// Go's poller, not with a blocking read(2). A goroutine blocked in read(2)
// holds its P in a system call, and under Go 1.26 the garbage collector's
// ragged barrier can wait on that P until the read returns or a signal
// comes, leaving a request already in the pipe unread for seconds (see
// internal/stdio). The poller needs the descriptor non-blocking; the flag
// is on the open file description, which /proc shows for fd 0.
func TestBinary_stdinWaitsInThePoller(t *testing.T) {
	bin := buildBinary(t)
	m := startLoopbackMock(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin) // killed if it outlives the test
	cmd.Env = append(os.Environ(), "OMBI_URL="+m.URL(), "OMBI_AUTH_MODE=api_key", "OMBI_API_KEY="+m.Credentials().APIKey)
	// blocking pipes, as many clients hand them to a server (os.Pipe's
	// would already be non-blocking)
	inR, stdin := blockingPipe(t)
	stdout, outW := blockingPipe(t)
	cmd.Stdin, cmd.Stdout = inR, outW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = inR.Close()
	_ = outW.Close()
	defer stdout.Close()
	defer func() {
		_ = stdin.Close() // the server ends at EOF
		_ = cmd.Wait()
	}()
	// once the server answered, it reads its stdin
	fmt.Fprintf(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`+"\n")
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- l
	}()
	select {
	case l := <-line:
		if !strings.Contains(l, `"id":1`) {
			t.Fatalf("initialize answer: %q", l)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no initialize answer within 30s")
	}
	for fd, name := range []string{"stdin", "stdout"} {
		flags, err := fdFlags(cmd.Process.Pid, fd)
		if err != nil {
			t.Fatal(err)
		}
		if flags&0o4000 == 0 { // O_NONBLOCK
			t.Errorf("the server's %s (fd %d) is blocking (flags %#o): it is read or written with blocking system calls, not through the poller", name, fd, flags)
		}
	}
}

// blockingPipe returns the two ends of a pipe in blocking mode.
func blockingPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	return os.NewFile(uintptr(fds[0]), "pipe-r"), os.NewFile(uintptr(fds[1]), "pipe-w")
}

// fdFlags reads the open flags of fd of process pid from /proc.
func fdFlags(pid, fd int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/%d", pid, fd))
	if err != nil {
		return 0, err
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "flags:"); ok {
			return strconv.ParseInt(strings.TrimSpace(v), 8, 64)
		}
	}
	return 0, fmt.Errorf("no flags in /proc/%d/fdinfo/%d", pid, fd)
}

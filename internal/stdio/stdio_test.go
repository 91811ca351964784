package stdio

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A pipe comes back as a new file that waits in the poller: only such a
// file takes a read deadline, and a read past it ends with
// os.ErrDeadlineExceeded instead of blocking in read(2).
func TestPollable_pipeWaitsInThePoller(t *testing.T) {
	// A blocking pipe, as a parent hands a child its stdin.
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(fds[0]), "r"), os.NewFile(uintptr(fds[1]), "w")
	defer r.Close()
	defer w.Close()
	if err := r.SetReadDeadline(time.Now()); !errors.Is(err, os.ErrNoDeadline) {
		t.Fatalf("precondition: a blocking pipe end takes no deadline, got %v", err)
	}
	p := Pollable(r)
	if p == r {
		t.Fatal("Pollable returned the blocking file itself")
	}
	defer p.Close()
	if err := p.SetReadDeadline(time.Now().Add(20 * time.Millisecond)); err != nil {
		t.Fatalf("SetReadDeadline: %v (the file is not in the poller)", err)
	}
	buf := make([]byte, 8)
	if _, err := p.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read of an empty pipe: got %v, want os.ErrDeadlineExceeded", err)
	}
	_ = p.SetReadDeadline(time.Time{})
	if _, err := w.Write([]byte("frame\n")); err != nil {
		t.Fatal(err)
	}
	n, err := p.Read(buf)
	if err != nil || string(buf[:n]) != "frame\n" {
		t.Fatalf("read: %q, %v", buf[:n], err)
	}
	// Closing the pollable file leaves the original descriptor open.
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Stat(); err != nil {
		t.Fatalf("the original descriptor was closed with the duplicate: %v", err)
	}
}

// What is neither a pipe nor a socket is returned as it is.
func TestPollable_otherFilesUnchanged(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "plain"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := Pollable(f); got != f {
		t.Fatal("a regular file was replaced")
	}
}

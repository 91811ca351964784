// Package stdio hands a process's standard streams to Go's network poller.
//
// A goroutine that reads a pipe with a blocking read(2) sits in a system
// call while it waits. Under Go 1.26 a process in that state can stop
// scheduling for seconds: the garbage collector's ragged barrier (forEachP
// in mark termination) waits for the P of the goroutine in the system call,
// and nothing takes that P until a signal or the read returns, so a request
// already in the pipe is not read. The conformance suite saw it as a
// tools/call with no answer for 30 s, about once in 100,000 calls on a busy
// machine (make stress reproduces it). A pipe read through the poller parks
// the goroutine instead, holding no P, and the barrier passes.
package stdio

import (
	"os"
	"syscall"
)

// Pollable returns a file for f's descriptor whose reads and writes wait in
// the network poller, when f is a pipe or a socket: a duplicate of the
// descriptor, switched to non-blocking mode. Anything else (a terminal, a
// regular file, /dev/null), or a descriptor that cannot be switched, is
// returned as it is.
//
// The switch is made on the open file description, which f shares: once
// Pollable returned a new file, f must not be used for reading or writing
// (a blocking read through f would fail with EAGAIN). Closing the returned
// file closes only the duplicate.
func Pollable(f *os.File) *os.File {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return f
	}
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return f
	}
	syscall.CloseOnExec(fd)
	if err := syscall.SetNonblock(fd, true); err != nil {
		_ = syscall.Close(fd)
		return f
	}
	// os.NewFile sees the non-blocking flag and registers the descriptor
	// with the poller.
	return os.NewFile(uintptr(fd), f.Name())
}

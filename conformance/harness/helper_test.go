package harness

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the servers under test of the process tests:
// with helperMode set in its environment it runs one helper behaviour
// instead of the tests (the usual helper-process pattern).
const (
	helperMode    = "HARNESS_TEST_HELPER"  // behaviour, see runHelper
	helperPIDFile = "HARNESS_TEST_PIDFILE" // where the helper writes "LEADER CHILD"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperMode); mode != "" {
		os.Exit(runHelper(mode))
	}
	os.Exit(m.Run())
}

// runHelper runs one helper behaviour:
//
//	hostile    answers initialize and tools/list, starts a child that
//	           ignores SIGTERM and inherits stdout and stderr, ignores
//	           SIGTERM itself and keeps running after stdin closes
//	mute       like hostile but never writes a frame (initialize is never
//	           answered)
//	orphaning  answers like hostile, starts the same child, and exits 0
//	           when stdin closes, leaving the child holding the pipes
//	polite     answers, starts no child and exits 0 when stdin closes
//	nolist     like polite, but never answers tools/list
//	child      ignores SIGTERM and sleeps (the child of the above)
func runHelper(mode string) int {
	if mode == "child" {
		signal.Ignore(syscall.SIGTERM)
		sleepForever()
	}
	child := 0
	if mode != "polite" && mode != "nolist" {
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			return 3
		}
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), helperMode+"=child")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr // the child holds the harness pipes
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			return 3
		}
		child = cmd.Process.Pid
	}
	if path := os.Getenv(helperPIDFile); path != "" {
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, fmt.Appendf(nil, "%d %d\n", os.Getpid(), child), 0o600); err != nil || os.Rename(tmp, path) != nil {
			fmt.Fprintln(os.Stderr, "helper: write pid file:", err)
			return 3
		}
	}
	if mode == "hostile" || mode == "mute" {
		signal.Ignore(syscall.SIGTERM)
	}
	fmt.Fprintf(os.Stderr, "helper %s: pid %d child %d\n", mode, os.Getpid(), child)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<22)
	for sc.Scan() {
		if mode == "mute" {
			continue
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue
		}
		var result string
		switch req.Method {
		case "initialize":
			result = fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"harness-helper-%s","version":"1"}}`, ProtocolVersion, mode)
		case "tools/list":
			if mode == "nolist" {
				continue
			}
			result = `{"tools":[]}`
		case "ping":
			result = `{}`
		default:
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", req.ID)
			continue
		}
		fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, result)
	}
	if mode == "hostile" || mode == "mute" {
		sleepForever()
	}
	return 0
}

func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}

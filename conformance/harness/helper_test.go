package harness

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
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
//	upstream   like polite, lists one tool, and answers tools/call only
//	           once GET $OMBI_URL/api/v1/Status answered (a test delays it)
//	setsid     answers like polite and exits 0 when stdin closes, having
//	           started a setsidchild in a session of its own, with no pipe
//	           of the harness
//	setsidchild ignores SIGTERM, starts a child and sleeps
//	child      ignores SIGTERM and sleeps (the child of the above)
func runHelper(mode string) int {
	switch mode {
	case "child":
		signal.Ignore(syscall.SIGTERM)
		sleepForever()
	case "setsidchild":
		signal.Ignore(syscall.SIGTERM)
		if _, err := startHelper("child", false); err != nil {
			return 3
		}
		sleepForever()
	}
	child := 0
	switch mode {
	case "polite", "nolist", "upstream":
	default:
		pid, err := startHelper(map[bool]string{true: "setsidchild", false: "child"}[mode == "setsid"], mode == "setsid")
		if err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			return 3
		}
		child = pid
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
			if mode == "upstream" {
				result = `{"tools":[{"name":"probe","inputSchema":{"type":"object"}}]}`
			}
		case "tools/call":
			if mode != "upstream" {
				fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", req.ID)
				continue
			}
			if resp, err := http.Get(os.Getenv("OMBI_URL") + "/api/v1/Status"); err == nil {
				_ = resp.Body.Close()
			}
			result = `{"content":[{"type":"text","text":"{}"}]}`
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

// startHelper starts this binary as helper mode. A child in a session of
// its own holds none of the harness's pipes; any other holds stdout and
// stderr.
func startHelper(mode string, setsid bool) (int, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), helperMode+"="+mode)
	if setsid {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	} else {
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr // the child holds the harness pipes
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	return cmd.Process.Pid, nil
}

func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}

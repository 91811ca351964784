package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpHelperEnv makes the test binary an MCP Streamable HTTP server (the
// helper-process pattern of helper_test.go, for HTTP): it listens on its
// first argument, writes its pid to httpHelperPIDFile, serves GET /healthz
// (unless the mode is "nohealth") and a stateful MCP endpoint at /mcp with
// one tool, and exits 0 on SIGTERM. Mode "late" waits 300ms before it
// listens; in mode "stall" the tool never answers.
const (
	httpHelperEnv     = "HARNESS_TEST_HTTP_HELPER"
	httpHelperPIDFile = "HARNESS_TEST_HTTP_PIDFILE"
)

func init() {
	if mode := os.Getenv(httpHelperEnv); mode != "" {
		os.Exit(runHTTPHelper(mode))
	}
}

func runHTTPHelper(mode string) int {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "http helper: missing listen address")
		return 3
	}
	if path := os.Getenv(httpHelperPIDFile); path != "" {
		if err := os.WriteFile(path, []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "http helper:", err)
			return 3
		}
	}
	if mode == "late" {
		time.Sleep(300 * time.Millisecond)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "harness-http-helper", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(ctx context.Context, _ *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
		if mode == "stall" {
			<-ctx.Done()
		}
		b, _ := json.Marshal(in)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, nil
	})
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	if mode != "nohealth" {
		mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	}
	ln, err := net.Listen("tcp", os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "http helper:", err)
		return 3
	}
	fmt.Fprintf(os.Stderr, "http helper %s: listening on %s\n", mode, ln.Addr())
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(ln) }()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	<-sig
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx)
	return 0
}

// httpHelper returns a harness whose target is this test binary serving
// Streamable HTTP in the given mode, and a function reporting the pid the
// helper wrote. The helper is SIGKILLed when the test ends.
func httpHelper(t *testing.T, mode string, args ...string) (*Harness, func() int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	pid := func() int {
		b, _ := os.ReadFile(pidFile)
		n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		return n
	}
	t.Cleanup(func() {
		if p := pid(); p > 0 {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	})
	if len(args) == 0 {
		args = []string{AddrPlaceholder}
	}
	return &Harness{
		Target: Target{
			Command:   append([]string{exe}, args...),
			Env:       []string{httpHelperEnv + "=" + mode, httpHelperPIDFile + "=" + pidFile, "GORACE=atexit_sleep_ms=0"},
			Transport: TransportHTTP,
		},
		Upstream:     Live("http://127.0.0.1:1", Credentials{}),
		StartTimeout: 5 * time.Second,
	}, pid
}

func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	st, ok := readStat(pid)
	return ok && st.state != 'Z' && st.state != 'X'
}

func TestStartHTTP_startsCallsAndStopsTheServer(t *testing.T) {
	for _, mode := range []string{"plain", "late", "nohealth"} {
		t.Run(mode, func(t *testing.T) {
			h, pid := httpHelper(t, mode)
			ctx := context.Background()
			srv, err := h.Start(ctx, Config{})
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			if got := srv.InitializeResult().ServerInfo.Name; got != "harness-http-helper" {
				t.Errorf("serverInfo.name = %q", got)
			}
			tools, err := srv.Tools(ctx)
			if err != nil || len(tools) != 1 || tools[0].Name != "echo" {
				t.Fatalf("Tools = %v, %v; want the echo tool", tools, err)
			}
			res, err := srv.session.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"x": 1}})
			if err != nil || len(res.Content) != 1 {
				t.Fatalf("CallTool = %v, %v", res, err)
			}
			p := pid()
			if !alive(p) || srv.Pid() != p {
				t.Fatalf("helper pid %d (alive %v), Server.Pid %d", p, alive(p), srv.Pid())
			}
			start := time.Now()
			if err := srv.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			// SIGTERM is sent at once: no wait for an stdin an HTTP server ignores.
			if d := time.Since(start); d > DefaultStopGrace {
				t.Errorf("Close took %s, want under %s", d, DefaultStopGrace)
			}
			if alive(p) {
				t.Errorf("helper %d still running after Close", p)
			}
			if !strings.Contains(srv.StderrAll(), "listening on 127.0.0.1:") {
				t.Errorf("stderr lacks the helper's listening line:\n%s", srv.StderrAll())
			}
		})
	}
}

func TestStartRawHTTP_framesAsOnStdio(t *testing.T) {
	h, pid := httpHelper(t, "plain")
	ctx := context.Background()
	raw, init, err := h.StartRaw(ctx, Config{})
	if err != nil {
		t.Fatalf("StartRaw: %v", err)
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if init.Error != nil || json.Unmarshal(init.Result, &res) != nil || res.ProtocolVersion != ProtocolVersion {
		t.Fatalf("initialize answer %s", init.Line)
	}
	// The stateful helper issued a session id: later frames must carry it.
	msg, err := raw.Request(ctx, 7, "ping", json.RawMessage(`{}`))
	if err != nil || msg.Error != nil || string(msg.ID) != "7" {
		t.Fatalf("ping = %+v, %v", msg, err)
	}
	// The plain SDK handler refuses an unknown method with a text 400: the
	// raw session reports that answer instead of waiting for a frame.
	_, err = raw.Request(ctx, 8, "tools/frobnicate", json.RawMessage(`{}`))
	if err == nil || !strings.Contains(err.Error(), "HTTP 400") || !strings.Contains(err.Error(), "not handled") {
		t.Fatalf("unknown method: err %v; want the HTTP 400 and its text", err)
	}
	p := pid()
	raw.Close()
	if alive(p) {
		t.Errorf("helper %d still running after Close", p)
	}
}

func TestStartHTTP_exitBeforeReadyIsAHarnessError(t *testing.T) {
	h, _ := httpHelper(t, "plain", "not-an-address") // {addr} absent from the helper's args
	h.Target.Command = append(h.Target.Command, "#"+AddrPlaceholder)
	_, err := h.Start(context.Background(), Config{})
	var he *HarnessError
	if !errors.As(err, &he) || !strings.Contains(he.Error(), "exited before it was ready") || !strings.Contains(he.Error(), "http helper:") {
		t.Fatalf("Start error = %v; want a harness error naming the early exit and quoting stderr", err)
	}
}

// TestStartHTTP_portTakenMeanwhile holds that a server which exits saying
// its address is in use (another socket took the port the harness picked)
// is started again on another port, at most three times in all, and that a
// server exiting for any other reason is not.
func TestStartHTTP_portTakenMeanwhile(t *testing.T) {
	tests := []struct {
		name      string
		fails     int    // how many starts fail before the server runs
		say       string // what a failing start writes on stderr
		wantOK    bool
		wantStart int
	}{
		{"taken once", 1, "listen tcp 127.0.0.1:1: bind: address already in use", true, 2},
		{"taken twice, node's words", 2, "Error: listen EADDRINUSE: address already in use", true, 3},
		{"always taken", 9, "OSError: [Errno 98] Address already in use", false, 3},
		{"another failure", 9, "fatal: no configuration", false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, _ := httpHelper(t, "plain")
			count := filepath.Join(t.TempDir(), "starts")
			// count the starts; fail the first ones as told, then run the helper
			script := `n=$(( $(cat "$0" 2>/dev/null || echo 0) + 1 )); echo $n > "$0"; if [ $n -le ` + strconv.Itoa(tt.fails) + ` ]; then echo "$1" >&2; exit 1; fi; shift; exec "$@"`
			h.Target.Command = append([]string{"sh", "-c", script, count, tt.say}, h.Target.Command...)
			srv, err := h.Start(context.Background(), Config{})
			if err == nil {
				defer srv.Close()
			}
			if (err == nil) != tt.wantOK {
				t.Fatalf("Start: %v, want ok %v", err, tt.wantOK)
			}
			b, _ := os.ReadFile(count)
			if got := strings.TrimSpace(string(b)); got != strconv.Itoa(tt.wantStart) {
				t.Errorf("the server was started %s times, want %d", got, tt.wantStart)
			}
		})
	}
}

func TestStart_stdioHintForAServerSilentOnStdout(t *testing.T) {
	addr, err := freeLoopbackAddr()
	if err != nil {
		t.Fatal(err)
	}
	h, _ := httpHelper(t, "plain", addr)
	h.Target.Transport = TransportStdio
	h.StartTimeout = time.Second
	_, err = h.Start(context.Background(), Config{})
	if err == nil || !strings.Contains(err.Error(), "--transport http") {
		t.Fatalf("Start error = %v; want the hint to run with --transport http", err)
	}
}

func TestStartHTTP_URLTargetServesOnlyTheRunningConfiguration(t *testing.T) {
	h, _ := httpHelper(t, "plain")
	first, err := h.Start(context.Background(), Config{})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	defer first.Close()
	url := first.http.url
	up := h.Upstream
	var reasons []string
	u := &Harness{
		Target:      Target{URL: url},
		Upstream:    up,
		Running:     &RunningServer{Config: Config{Bundles: "moderation,core,administration"}, Upstream: up},
		Unavailable: func(reason string) { reasons = append(reasons, reason) },
	}
	srv, err := u.Start(context.Background(), Config{Bundles: AllBundles, AuthMode: "jwt"})
	if err != nil {
		t.Fatalf("Start at the URL with the running configuration: %v", err)
	}
	if srv.Pid() != 0 {
		t.Errorf("a URL target has no process, Pid = %d", srv.Pid())
	}
	if err := srv.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	_, err = u.Start(context.Background(), Config{Bundles: "core", Env: []string{"OMBI_PASSWORD=hunter2"}})
	var ue *UnavailableError
	if !errors.As(err, &ue) || len(reasons) != 1 || !strings.Contains(reasons[0], "OMBI_BUNDLES=core") {
		t.Fatalf("other bundles: err %v, reasons %q; want UnavailableError naming the configuration", err, reasons)
	}
	if strings.Contains(reasons[0], "hunter2") {
		t.Errorf("the reason quotes an environment value: %q", reasons[0])
	}
	other := *u
	other.Upstream = Live("http://127.0.0.1:2", Credentials{})
	if _, _, err := other.StartRaw(context.Background(), Config{}); !errors.As(err, &ue) {
		t.Fatalf("other upstream: err %v; want UnavailableError", err)
	}
}

func TestCheckTarget(t *testing.T) {
	tests := []struct {
		name string
		t    Target
		ok   bool
	}{
		{"stdio", Target{Command: []string{"srv"}}, true},
		{"http with addr", Target{Command: []string{"srv", "--listen={addr}"}, Transport: TransportHTTP}, true},
		{"http without addr", Target{Command: []string{"srv"}, Transport: TransportHTTP}, false},
		{"unknown transport", Target{Command: []string{"srv"}, Transport: "sse"}, false},
		{"relative path", Target{Command: []string{"srv", "{addr}"}, Transport: TransportHTTP, MCPPath: "mcp"}, false},
		{"url", Target{URL: "http://127.0.0.1:8080/mcp"}, true},
		{"bad url", Target{URL: "127.0.0.1:8080"}, false},
		{"nothing", Target{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := CheckTarget(tt.t); (err == nil) != tt.ok {
				t.Errorf("CheckTarget(%+v) = %v, want ok %v", tt.t, err, tt.ok)
			}
		})
	}
}

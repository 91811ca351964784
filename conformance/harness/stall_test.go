package harness

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// A tools/call with no answer in time reports, besides the server's
// stderr, everything that tells where it is stuck: the request at the mock
// and how long it has been there, the mock's last journal entries, the
// session's traffic with the side it waits on, the server's goroutines
// (SIGQUIT) and the suite's own, the mock's handler among them.
func TestCall_noAnswerReportsEverySide(t *testing.T) {
	up, err := StartMock(mockombi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer up.Close()
	h, _ := helperHarness(t, "upstream")
	h.Upstream = up
	h.CallTimeout = 700 * time.Millisecond
	if err := up.InjectFault(mockombi.Fault{Method: "GET", Path: "/api/v1/Status", DelayMS: 5000}); err != nil {
		t.Fatal(err)
	}
	s, err := h.Start(context.Background(), Config{AuthMode: "api_key"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.Call(context.Background(), "probe", nil)
	herr, ok := errors.AsType[*HarnessError](err)
	if !ok {
		t.Fatalf("a tools/call with no answer: %v, want a *HarnessError", err)
	}
	msg := err.Error()
	for _, want := range []string{
		"no answer within 700ms",
		// the upstream side
		"1 requests in flight at the mock", "GET /api/v1/Status, for ",
		// the traffic, and the side it waits on
		`"method":"tools/call"`, "waiting on the server: 1 requests written have no answer:", " tools/call, written at +",
		// the server's goroutines
		"on SIGQUIT", "goroutine ",
		// the suite's, with the mock's handler
		"the suite's own goroutines at that moment:", "mockombi.(*Server).serve",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if herr.Suite == "" || herr.Upstream == "" || herr.Stacks == "" || herr.Wire == "" {
		t.Errorf("a part of the report is empty: suite %d B, upstream %d B, stacks %d B, wire %d B", len(herr.Suite), len(herr.Upstream), len(herr.Stacks), len(herr.Wire))
	}
	if t.Failed() || testing.Verbose() {
		t.Logf("the report:\n%s", msg)
	}
}

// Over Streamable HTTP too, a tools/call with no answer reports the
// session's traffic (the POSTs sent and what came back), the side it waits
// on, and the server's goroutines.
func TestCall_noAnswerOverHTTP(t *testing.T) {
	h, _ := httpHelper(t, "stall")
	h.CallTimeout = 700 * time.Millisecond
	s, err := h.Start(context.Background(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.Call(context.Background(), "echo", map[string]any{"x": 1})
	if _, ok := errors.AsType[*HarnessError](err); !ok {
		t.Fatalf("a tools/call with no answer: %v, want a *HarnessError", err)
	}
	msg := err.Error()
	for _, want := range []string{
		"no answer within 700ms",
		"frames written to the MCP endpoint", `POST /mcp {"jsonrpc":"2.0","id":3,"method":"tools/call"`,
		"waiting on the server",
		"on SIGQUIT", "goroutine ",
		"the suite's own goroutines at that moment:",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if t.Failed() || testing.Verbose() {
		t.Logf("the report:\n%s", msg)
	}
}

// Command ombi-conformance runs the ombi-mcp conformance suite against any
// MCP server binary that accepts the harness contract (docs/harness.md).
//
//	ombi-conformance --server "./my-server --flag" --junit junit.xml
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/ombi-mcp/ombi-mcp/conformance"
)

// A run is a short batch that builds and drops many large generated
// payloads: collecting at 4x the live heap, below a soft 2 GiB limit, cuts
// the CPU of a property run (suite and server) by about a quarter against
// the default pacing. GOGC and GOMEMLIMIT still decide when set.
const (
	gcPercent   = 400
	memoryLimit = 2 << 30
)

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := conformance.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

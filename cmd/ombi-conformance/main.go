// Command ombi-conformance runs the ombi-mcp conformance suite against any
// MCP server binary that accepts the harness contract (docs/harness.md).
//
//	ombi-conformance --server "./my-server --flag" --junit junit.xml
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/ombi-mcp/ombi-mcp/conformance"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := conformance.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Package harness runs an MCP server binary under the harness contract and
// observes it from outside: it starts the binary as a child process speaking
// newline-delimited JSON-RPC on stdio, points it at an upstream (the
// in-process mockombi by default, or a live Ombi), pins MCP protocol
// 2025-11-25, and records everything a conformance check needs about a tool
// call: the exact tools/call request, the raw result, the decoded envelope,
// the text block, any JSON-RPC error, the upstream journal slice the call
// produced and the contract violations found in the result.
//
// Every server process leads its own process group. Closing a server closes
// its stdin, waits Harness.StopGrace (2s), sends SIGTERM to the group, waits
// again, then sends SIGKILL to the group, so Close returns in bounded time
// and nothing the server started in its group outlives it.
//
// A Target with Transport TransportHTTP speaks MCP Streamable HTTP instead
// (http.go): its command line carries AddrPlaceholder ({addr}), which the
// harness replaces with a free loopback address; it waits for GET /healthz,
// connects the go-sdk Streamable HTTP client to the MCP path, and closing
// sends SIGTERM to the group at once (then as above). A Target with a URL
// is a server already running, described by Harness.Running; a request for
// another configuration is refused with an *UnavailableError.
//
// The package never imports the reference server; it works for any
// executable that accepts the OMBI_* environment.
//
//	up, _ := harness.StartMock(mockombi.Options{})
//	defer up.Close()
//	srv, err := harness.Start(ctx, harness.Target{Command: []string{"./ombi-mcp"}}, up, harness.Config{})
//	if err != nil { ... } // a harness error: not an MCP server, exited, or hung
//	defer srv.Close()
//	out, err := srv.Call(ctx, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Alien"})
package harness

// Package server is the ombi-mcp reference MCP server: it publishes the 31
// tools of the spec catalogue on the official go-sdk, validates every call
// against the strict input schema, routes it through one upstream Ombi
// client, projects the answer into the tool's result family, cuts it to the
// response budget and wraps it in the result envelope.
//
// Layout: the upstream Ombi client is package internal/ombi (one file per
// Ombi controller group: typed requests and wire shapes, one Do and
// CheckResponse). This package holds the tool layer: config.go (Options
// from the environment), client.go (the client built from Options),
// errors.go (the one mapper from upstream and call errors to the envelope
// error), sanitize.go, envelope.go, budget.go, enums.go, tools.go (the one
// registry), server.go (New), transport.go (the hardened stdio transport),
// http.go (Streamable HTTP: RunHTTP), and one file per Ombi domain
// (search.go, reference.go ...) holding that domain's projections and tool
// handlers. CONTRIBUTING-TOOLS.md says how to add one.
//
// Example:
//
//	opts, err := server.OptionsFromEnv(os.LookupEnv)
//	if err != nil { ... }
//	s, err := server.New(opts)
//	if err != nil { ... }
//	err = s.Run(ctx, server.NewStdioTransport(os.Stdin, os.Stdout))
//
// or, over Streamable HTTP on a loopback address:
//
//	err = server.RunHTTP(ctx, opts, server.HTTPConfig{Addr: "127.0.0.1:8080"})
package server

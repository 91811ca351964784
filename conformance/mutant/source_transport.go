package mutant

// Source mutants of the transports (MCP 2025-11-25 "Transports" and
// "Authorization"; the Streamable HTTP endpoint in server/http.go, the
// stdio guard in server/transport.go): an Origin, a bearer token (or its
// prefix) or a
// JSON-RPC version let through, a health check that stays green while the
// server drains.
var transportSources = []Source{
	{
		Name: "origin-null-allowed", Domain: DomainAdmin, Clause: "MCP-HTTP-ORIGIN-001",
		Description: "Origin: null (a sandboxed page, a file: URL) is let through like a request without Origin",
		File:        "server/http.go",
		Old:         "\tif origin == \"\" || h.anyOrigin {",
		New:         "\tif origin == \"\" || origin == \"null\" || h.anyOrigin {",
		Filter:      "protocol", Focus: `MCP-HTTP-ORIGIN-001`, Transport: "http",
	},
	{
		Name: "bearer-optional", Domain: DomainAdmin, Clause: "MCP-HTTP-AUTH-001",
		Description: "a request without a bearer token (or with another scheme) is let through; only a wrong bearer token is refused",
		File:        "server/http.go",
		Old:         "if ok, given := h.authorized(r.Header.Get(\"Authorization\")); !ok {",
		New:         "if ok, given := h.authorized(r.Header.Get(\"Authorization\")); !ok && given {",
		Filter:      "protocol", Focus: `MCP-HTTP-AUTH-001`, Transport: "http",
	},
	{
		Name: "bearer-prefix-significant", Domain: DomainAdmin, Clause: "MCP-HTTP-AUTH-001",
		Description: "only the first 16 characters of the bearer token are compared (the configured token and the given one are both cut before hashing), so any token sharing that prefix opens the endpoint",
		File:        "server/http.go",
		Old:         "\t\tsum := sha256.Sum256([]byte(opts.MCPToken))\n",
		New:         "\t\tsum := sha256.Sum256([]byte(opts.MCPToken[:min(16, len(opts.MCPToken))]))\n",
		Also: []Edit{{
			File: "server/http.go",
			Old:  "\tsum := sha256.Sum256([]byte(strings.TrimSpace(token)))\n",
			New:  "\ttoken = strings.TrimSpace(token)\n\tsum := sha256.Sum256([]byte(token[:min(16, len(token))]))\n",
		}},
		Filter: "protocol", Focus: `MCP-HTTP-AUTH-001`, Transport: "http",
	},
	{
		Name: "healthz-green-while-draining", Domain: DomainAdmin, Clause: "MCP-HTTP-DRAIN-001",
		Description: "on SIGTERM the server waits a grace period with its listener open so load balancers notice, but /healthz still answers 200 all along",
		File:        "server/http.go",
		Old:         "\th.Drain()\n\ttimeout := cfg.ShutdownTimeout",
		New:         "\ttime.Sleep(opts.timeout()) // let load balancers notice before the listener closes\n\ttimeout := cfg.ShutdownTimeout",
		Filter:      "protocol", Focus: `MCP-HTTP-DRAIN-001`, Transport: "http",
	},
	{
		Name: "jsonrpc-version-refused-without-id", Domain: DomainAdmin, Clause: "MCP-JSONRPC-VERSION-001",
		Description: "the stdio guard refuses a frame whose jsonrpc is not \"2.0\" under id null, so the client never learns which request failed",
		File:        "server/transport.go",
		Old:         "return nil, g.refuse(id, jsonrpc.CodeInvalidRequest, `invalid request: \"jsonrpc\" must be \"2.0\"`)",
		New:         "return nil, g.refuse(nil, jsonrpc.CodeInvalidRequest, `invalid request: \"jsonrpc\" must be \"2.0\"`)",
		Filter:      "protocol", Focus: `MCP-JSONRPC-VERSION-001`,
	},
}

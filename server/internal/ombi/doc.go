// Package ombi is the upstream Ombi client of the reference server, in
// go-github's shape: one Client built from a Config, NewRequest and Do (the
// authentication of either mode, redirects kept to the origin, one fresh
// connection per write, the per-call deadline, the per-answer read cap and
// the body budget all calls in flight share), and CheckResponse, which turns
// an HTTP answer into a typed error (APIError, RateLimitError,
// BusinessError, SchemaError, TransportError, RedirectError, and sentinels
// such as ErrNoContent for errors.Is).
//
// Each Ombi controller group has its file (search.go, requests.go,
// issues.go, users.go, settings.go, ...) holding its endpoint methods and
// the wire shapes they decode into: structs with only the fields the server
// projects. Every endpoint method ends its doc comment with the literal
// operation of the route ledger it calls (spec/routes.json), for example
//
//	// upstream: GET /api/v1/Search/movie/{searchTerm}
//
// and a test checks every such line against the ledger.
//
// The package knows nothing of MCP, tools or the result envelope; only
// package server imports it, and maps its errors to the envelope's codes.
//
// Example:
//
//	c, err := ombi.NewClient(ombi.Config{
//		URL: "http://127.0.0.1:5000", AuthMode: ombi.AuthAPIKey, APIKey: key,
//		Timeout: 10 * time.Second, MaxBodyBytes: 8 << 20, BodyBudgetBytes: 64 << 20,
//	})
//	if err != nil { ... }
//	movies, err := c.SearchMovie(ombi.ReadOnly(ctx), "The Matrix")
package ombi

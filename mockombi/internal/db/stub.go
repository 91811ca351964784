package db

// Stub is a canned answer that a route gives instead of its own: a call
// with the stub's method and a path that fits the stub's path gets
// Status, Headers and Body, before authentication and the route's handler
// (faults still come first). The newest stub that fits answers.
type Stub struct {
	// Method is the HTTP method, e.g. GET; "*" matches any.
	Method string `json:"method"`
	// Path is the path below the base path, exact ("/api/v1/Status") or
	// a route pattern whose {name} segments match any one segment
	// ("/api/v1/Request/movie/{id}"), compared ignoring case and escaping.
	Path string `json:"path"`
	// Status is the answer's status, 200-599.
	Status int `json:"status"`
	// Headers are set on the answer, e.g. {"Content-Type": "text/plain"};
	// without a Content-Type a JSON body is served as application/json,
	// any other body as text/plain.
	Headers map[string]string `json:"headers,omitempty"`
	// Body is the answer's body text, at most MaxStubBody bytes.
	Body string `json:"body,omitempty"`
	// Times is how many calls the stub answers before it is spent and
	// removed; 0 means every call.
	Times int `json:"times,omitempty"`
}

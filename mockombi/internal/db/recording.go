package db

// Recording is one recorded Ombi answer, an entry of a data document's
// "recordings": the call it answers and what Ombi answered. A recorded
// answer is served before the mock's own routes (and its authentication)
// to a call with the same method, the same path ignoring case, the same
// query and, when the recording has one, a JSON-equal body.
type Recording struct {
	// Method is the HTTP method, e.g. GET.
	Method string `json:"method"`
	// Path is the escaped path below the base path, e.g.
	// /api/v1/Search/movie/The%20Matrix.
	Path string `json:"path"`
	// Query is the raw query string without "?", compared exactly once the
	// values of secret parameters (apikey, ...) are redacted on both sides.
	Query string `json:"query,omitempty"`
	// Body is the request body text. A JSON body matches any JSON-equal one
	// (e-mail addresses and secret values aside); an empty Body matches only
	// a call without a body.
	Body string `json:"body,omitempty"`
	// Status is the answer's status, 200-599.
	Status int `json:"status"`
	// Headers are the answer's headers the replay sets: Content-Type.
	Headers map[string]string `json:"headers,omitempty"`
	// Response is the exact body text of the answer; ResponseBase64 holds
	// instead a body that is not UTF-8 text.
	Response       string `json:"response"`
	ResponseBase64 string `json:"response_base64,omitempty"`
}

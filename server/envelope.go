package server

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// envelope is the structuredContent of every tools/call result
// (04-results): ok, operation, data or error, warnings, truncated,
// correlation_id.
type envelope struct {
	OK            bool           `json:"ok"`
	Operation     string         `json:"operation"`
	Data          any            `json:"data,omitempty"`
	Error         *envelopeError `json:"error,omitempty"`
	Warnings      []string       `json:"warnings"`
	Truncated     bool           `json:"truncated"`
	CorrelationID string         `json:"correlation_id"`
}

// success wraps a result family value.
func success(tool string, data any, warnings []string) *envelope {
	return &envelope{OK: true, Operation: tool, Data: data, Warnings: nonNil(warnings), CorrelationID: correlationID()}
}

// failure wraps an error object.
func failure(tool string, e *envelopeError, warnings []string) *envelope {
	return &envelope{OK: false, Operation: tool, Error: e, Warnings: nonNil(warnings), CorrelationID: correlationID()}
}

func nonNil(w []string) []string {
	if w == nil {
		return []string{}
	}
	return w
}

// toolResult serialises the bounded envelope once: structuredContent and the
// one text block carry the same bytes, and isError is !ok.
// Implements S-RESULTS-0005, S-RESULTS-0006 and S-RESULTS-0128 (envelope).
func toolResult(env *envelope) *mcp.CallToolResult {
	b := fit(env)
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
		IsError:           !env.OK,
	}
}

// correlationID is a random id that ties a result to the server's stderr log.
func correlationID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

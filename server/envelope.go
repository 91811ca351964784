package server

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ombi-mcp/ombi-mcp/internal/jsonvalue"
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
func toolResult(env *envelope, plans *jsonvalue.Plans) *mcp.CallToolResult {
	b := fit(env, plans)
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
		IsError:           !env.OK,
	}
}

// encodeEnvelope is json.Marshal(env), byte for byte, without reflection
// over the data: fit leaves Data a generic value (maps, slices,
// json.Number, strings, booleans, ints), which jsonvalue encodes; any
// other value is handed to encoding/json.
func encodeEnvelope(env *envelope) []byte {
	var e genericEncoder
	e.envelope(env)
	return e.b
}

// genericEncoder appends the envelope and generic JSON values as
// encoding/json encodes them: object members sorted by name, strings
// escaped with HTML escaping on. b is reused across serialisations.
type genericEncoder struct {
	b []byte
}

var htmlEscaping = jsonvalue.Options{EscapeHTML: true}

// envelope appends env with the fields in the order and with the
// omissions of its struct tags.
func (e *genericEncoder) envelope(env *envelope) {
	e.head(env)
	if env.Data != nil {
		e.b = append(e.b, `,"data":`...)
		e.value(env.Data)
	}
	e.tail(env)
}

// head appends the members before data.
func (e *genericEncoder) head(env *envelope) {
	e.b = append(e.b, `{"ok":`...)
	e.b = strconv.AppendBool(e.b, env.OK)
	e.b = append(e.b, `,"operation":`...)
	e.value(env.Operation)
}

// tail appends the members after data.
func (e *genericEncoder) tail(env *envelope) {
	if env.Error != nil {
		e.b = append(e.b, `,"error":`...)
		e.b = append(e.b, mustMarshal(env.Error)...)
	}
	e.b = append(e.b, `,"warnings":`...)
	e.value(env.Warnings)
	e.b = append(e.b, `,"truncated":`...)
	e.b = strconv.AppendBool(e.b, env.Truncated)
	e.b = append(e.b, `,"correlation_id":`...)
	e.value(env.CorrelationID)
	e.b = append(e.b, '}')
}

// value appends v as encoding/json would; a value encoding/json refuses
// (a NaN, an invalid json.Number) is a programming error.
func (e *genericEncoder) value(v any) {
	b, err := jsonvalue.Append(e.b, v, htmlEscaping)
	if err != nil {
		panic(fmt.Sprintf("encode envelope: %v", err))
	}
	e.b = b
}

// correlationID is a random id that ties a result to the server's stderr log.
func correlationID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

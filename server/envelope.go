package server

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ombi-mcp/ombi-mcp/internal/jsonvalue"
)

// envelope is the structuredContent of every tools/call result
// (04-results): ok, operation, data or error, warnings, truncated,
// correlation_id.
type envelope struct {
	OK            bool         `json:"ok"`
	Operation     string       `json:"operation"`
	Data          any          `json:"data,omitempty"`
	Error         *ErrorObject `json:"error,omitempty"`
	Warnings      []string     `json:"warnings"`
	Truncated     bool         `json:"truncated"`
	CorrelationID string       `json:"correlation_id"`
}

// success wraps a result family value.
func success(tool string, data any, warnings []string) *envelope {
	return &envelope{OK: true, Operation: tool, Data: data, Warnings: nonNil(warnings), CorrelationID: correlationID()}
}

// failure wraps an error object.
func failure(tool string, e *ErrorObject, warnings []string) *envelope {
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

// encodeEnvelope is json.Marshal(env), byte for byte, without reflection
// over the data: fit leaves Data a generic value (maps, slices,
// json.Number, strings, booleans, ints), which is encoded directly; any
// other value is handed to encoding/json.
func encodeEnvelope(env *envelope) []byte {
	var e genericEncoder
	e.envelope(env)
	return e.b
}

// genericEncoder appends generic JSON values as encoding/json encodes them:
// object members sorted by name, strings escaped with HTML escaping on.
// keys holds one reusable name slice per object depth.
type genericEncoder struct {
	b    []byte
	keys [][]string
}

var htmlEscaping = jsonvalue.Options{EscapeHTML: true}

// envelope appends env with the fields in the order and with the
// omissions of its struct tags.
func (e *genericEncoder) envelope(env *envelope) {
	e.b = append(e.b, `{"ok":`...)
	e.b = strconv.AppendBool(e.b, env.OK)
	e.b = append(e.b, `,"operation":`...)
	e.scalar(env.Operation)
	if env.Data != nil {
		e.b = append(e.b, `,"data":`...)
		e.value(env.Data, 0)
	}
	if env.Error != nil {
		e.b = append(e.b, `,"error":`...)
		e.b = append(e.b, mustMarshal(env.Error)...)
	}
	e.b = append(e.b, `,"warnings":`...)
	if env.Warnings == nil {
		e.b = append(e.b, "null"...)
	} else {
		e.b = append(e.b, '[')
		for i, w := range env.Warnings {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.scalar(w)
		}
		e.b = append(e.b, ']')
	}
	e.b = append(e.b, `,"truncated":`...)
	e.b = strconv.AppendBool(e.b, env.Truncated)
	e.b = append(e.b, `,"correlation_id":`...)
	e.scalar(env.CorrelationID)
	e.b = append(e.b, '}')
}

// value appends v; depth is the object nesting, which selects the name
// slice.
func (e *genericEncoder) value(v any, depth int) {
	switch t := v.(type) {
	case map[string]any:
		if t == nil {
			e.b = append(e.b, "null"...)
			return
		}
		if depth == len(e.keys) {
			e.keys = append(e.keys, nil)
		}
		keys := e.keys[depth][:0]
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		e.keys[depth] = keys
		e.b = append(e.b, '{')
		for i, k := range keys {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.name(k)
			e.b = append(e.b, ':')
			e.value(t[k], depth+1)
		}
		e.b = append(e.b, '}')
	case []any:
		if t == nil {
			e.b = append(e.b, "null"...)
			return
		}
		e.b = append(e.b, '[')
		for i, c := range t {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.value(c, depth)
		}
		e.b = append(e.b, ']')
	case json.Number:
		if t == "" {
			t = "0"
		}
		if !isJSONNumber(string(t)) {
			panic(fmt.Sprintf("encode envelope: invalid number literal %q", string(t)))
		}
		e.b = append(e.b, t...)
	case nil, string, bool, float64, int:
		e.scalar(v)
	default:
		e.b = append(e.b, mustMarshal(v)...)
	}
}

// scalar appends a string, boolean, number or null.
func (e *genericEncoder) scalar(v any) {
	b, err := jsonvalue.Append(e.b, v, htmlEscaping)
	if err != nil {
		panic(fmt.Sprintf("encode envelope: %v", err))
	}
	e.b = b
}

// name appends an object member name: as is when no byte needs escaping,
// else escaped as a string.
func (e *genericEncoder) name(k string) {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			e.scalar(k)
			return
		}
	}
	e.b = append(e.b, '"')
	e.b = append(e.b, k...)
	e.b = append(e.b, '"')
}

// isJSONNumber reports whether s is a JSON number literal, the check
// encoding/json makes before it writes a json.Number.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// correlationID is a random id that ties a result to the server's stderr log.
func correlationID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

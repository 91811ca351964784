package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// deps are what handlers need; passed in, never global.
type deps struct {
	client    *ombi.Client
	validator *spec.Validator
	log       *slog.Logger

	allowedJobs map[string]bool // write_job_run (Options.AllowedJobs)
	profiles    map[string]bool // write_integration_test (Options.Profiles)
}

// tool is one registry entry: a catalogue name and the handler serving it.
type tool struct {
	name   string
	handle handlerFunc
	stub   bool // registered without handlers (unsupported)
}

// handlerFunc serves one call whose arguments already passed the strict
// schema: decode into a typed input, apply runtime rules, route to exactly
// one client method, project into the result family, return it. Errors go
// through errorObject; warnings and truncation go through the call.
type handlerFunc func(ctx context.Context, c *call) (any, error)

// tools is the ONE registry: one constructor per tool, in catalogue order,
// grouped by domain. Every catalogue tool appears exactly once (a test
// checks it against spec.Tools).
func tools(d *deps) []tool {
	return []tool{
		// Search, discovery and details (Ombi Search controllers): search.go
		readSearch(d),
		readDiscover(d),
		readMedia(d),
		// Reference data (TheMovieDb, Identity, Issues categories): reference.go
		readReference(d),
		// Requests
		readRequests(d),
		readRequestStats(d),
		// Issues, votes, users
		readIssues(d),
		readVotes(d),
		readUsers(d),
		// Library, server, integrations
		readLibrary(d),
		readServer(d),
		readIntegration(d),
		// Request writes
		writeRequestCreate(d),
		writeRequestSubscribe(d),
		// Issue, vote and user writes
		writeIssueCreate(d),
		writeIssueComment(d),
		writeVote(d),
		writeUserPreferences(d),
		// Moderation
		writeRequestModerate(d),
		writeRequestDelete(d),
		writeRequestOptions(d),
		writeRequestReprocess(d),
		writeIssueManage(d),
		// Administration
		readSettings(d),
		writeSettingsPatch(d),
		writeUserManage(d),
		writeIntegrationTest(d),
		writeJobRun(d),
		writeNotificationSend(d),
		writeRetryRemove(d),
		readLogs(d),
	}
}

// unsupported registers a tool whose handlers are not implemented yet: every
// valid call answers UNSUPPORTED_CAPABILITY, honestly, with no upstream call.
func unsupported(name string) tool {
	return tool{name: name, stub: true, handle: func(context.Context, *call) (any, error) {
		return nil, &unsupportedError{Message: name + " is not implemented by this server version"}
	}}
}

// call is one tools/call in flight: its arguments, plus the warnings and
// truncation a handler reports.
type call struct {
	tool      string
	args      json.RawMessage
	warnings  []string
	truncated bool
	links     []*mcp.ResourceLink // resource links after the text block
}

// decode fills a typed input struct from the (already validated) arguments.
func (c *call) decode(v any) error {
	if err := json.Unmarshal(c.args, v); err != nil {
		return &ombi.ArgumentError{Message: "arguments do not match the input schema"}
	}
	return nil
}

// warn adds a warning to the envelope.
func (c *call) warn(format string, a ...any) {
	c.warnings = append(c.warnings, fmt.Sprintf(format, a...))
}

// link adds a resource link to the result (S-RESULTS-0120: it need not be
// in resources/list).
func (c *call) link(uri, name, title string) {
	c.links = append(c.links, &mcp.ResourceLink{URI: uri, Name: name, Title: title, MIMEType: resourceMIME})
}

// truncate marks the result truncated and says why.
func (c *call) truncate(format string, a ...any) {
	c.truncated = true
	c.warn(format, a...)
}

// serve adapts a handler to the go-sdk: strict validation before any
// upstream traffic, the handler under a panic guard, one mapper for errors,
// the envelope and the budget; the resource links the handler added follow
// the text block.
func (d *deps) serve(t spec.Tool, h handlerFunc) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		start := time.Now()
		args := json.RawMessage(req.Params.Arguments)
		if len(args) == 0 || string(args) == "null" {
			args = json.RawMessage("{}")
		}
		if !isObject(args) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tool arguments must be a JSON object"}
		}
		env, links := d.envelope(ctx, t, h, args)
		res := toolResult(env)
		if env.OK {
			for _, l := range links {
				res.Content = append(res.Content, l)
			}
		}
		code := "ok"
		if env.Error != nil {
			code = env.Error.Code
		}
		d.log.Info("tool call", "tool", t.Name, "result", code, "ms", time.Since(start).Milliseconds(), "correlation_id", env.CorrelationID)
		return res, nil
	}
}

// envelope runs one call of tool t with args (a JSON object) and wraps what
// it gave in the envelope, not yet bounded; links are the resource links
// the handler added. Resource reads go through here too.
func (d *deps) envelope(ctx context.Context, t spec.Tool, h handlerFunc, args json.RawMessage) (*envelope, []*mcp.ResourceLink) {
	write := !t.Annotations.ReadOnlyHint
	c := &call{tool: t.Name, args: args}
	data, err := d.run(ombi.WithIntent(ctx, write), t.Name, h, c)
	var env *envelope
	if err != nil {
		env = failure(t.Name, errorObject(err, write), c.warnings)
		var part *partialError
		if errors.As(err, &part) {
			env.Data = part.data // PARTIAL_FAILURE carries what is known
		}
	} else {
		env = success(t.Name, data, c.warnings)
	}
	env.Truncated = env.Truncated || c.truncated
	return env, c.links
}

// run validates and calls the handler; a panic becomes INTERNAL_ERROR.
func (d *deps) run(ctx context.Context, name string, h handlerFunc, c *call) (data any, err error) {
	defer func() {
		if r := recover(); r != nil {
			d.log.Error("handler panic", "tool", name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			data, err = nil, errors.New("handler panic")
		}
	}()
	if err := d.validator.ValidateInput(name, c.args); err != nil {
		var ve *spec.ValidationError
		if errors.As(err, &ve) {
			return nil, &ombi.ArgumentError{Field: ve.Pointer, Message: ve.Message}
		}
		return nil, fmt.Errorf("validate arguments: %w", err)
	}
	data, err = h(ctx, c)
	return data, blamePathValue(err, c.args)
}

package checks

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file judges, as classes, call-level rules that operator mutants of
// the reference server slipped through (make mutation SAMPLE=200
// SEED=20261205, the second half of the sample):
//
//   - an engine answer that carries neither result nor isError does not
//     say the write happened (04-results: HTTP 200 is not success);
//   - a write whose login fails before anything is sent fails as a read
//     would, never UNKNOWN_OUTCOME (docs/server.md: UNKNOWN_OUTCOME means
//     the write was sent and its answer was lost);
//   - a path value "." or ".." is an INVALID_ARGUMENT naming the argument
//     that carried it, and nothing is sent (docs/server.md);
//   - a response frame from the client is never answered, and one that
//     carries both result and error is refused -32600 (JSON-RPC 2.0;
//     docs/server.md, The stdio transport);
//   - a tool of a disabled bundle called without arguments (MCP makes them
//     optional) is answered FORBIDDEN, like one called with them.

// engineAnswersWithoutOutcome are RequestEngineResult answers that say
// neither result nor isError.
var engineAnswersWithoutOutcome = []string{`{}`, `{"message":"Request added","requestId":0}`}

// dotPathValues are path values that would change the upstream route.
var dotPathValues = []string{".", ".."}

// dotPathCall is a call whose argument field becomes an upstream path
// segment, with the other arguments of its branch.
type dotPathCall struct {
	tool, field string
	args        map[string]any
}

// dotPathCalls are calls whose string arguments become path segments.
var dotPathCalls = []dotPathCall{
	{"read_search", "query", map[string]any{"action": "text", "media": "movie"}},
	{"read_search", "query", map[string]any{"action": "text", "media": "artist"}},
	{"read_requests", "query", map[string]any{"action": "search", "media": "movie"}},
	{"read_requests", "query", map[string]any{"action": "search", "media": "tv"}},
	{"read_users", "user_id", map[string]any{"action": "get"}},
}

const (
	// unsentDeadline is the OMBI_TIMEOUT of the server whose login stalls
	// before a write, unsentStall how long Ombi holds that login.
	unsentDeadline = time.Second
	unsentStall    = 8 * time.Second
	// maxTimeoutSetting is the largest OMBI_TIMEOUT docs/server.md
	// allows, overTimeoutSetting one over it.
	maxTimeoutSetting  = "10m"
	overTimeoutSetting = "11m"
	// responseID is the id of the response frames the client sends.
	responseID = 4242
)

func (s *Suite) operatorSecondCallChecks() {
	ginkgo.Describe("wire call outcomes", ginkgo.Label("wire"), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("RESULTS-BUSINESS-FAILURE-001", "write_request_create.engine-answer-without-outcome", func(ctx ginkgo.SpecContext) {
			s.requireTool("write_request_create")
			srv := s.shared(ctx, apiKeyConfig())
			var e errs
			for _, body := range engineAnswersWithoutOutcome {
				s.clean()
				s.injectFault(mockombi.Fault{Method: http.MethodPost, Path: "/api/v1/Request/movie", Status: http.StatusOK, Body: body})
				o := s.call(ctx, srv, "write_request_create", map[string]any{"action": "movie", "tmdb_id": 603})
				if o.OK() {
					e.addf("Ombi answered the request %s (HTTP 200, neither result nor isError), and the write was reported done: %s", body, clip(o.Structured, 300))
				}
			}
			s.clean()
			s.expectNone(e, "an engine answer without result or isError is not a success")
		})

		s.ClauseItFor("RESULTS-ERRORS-RETRYABLE-001", "write_request_create.login-timeout-unsent", func(ctx ginkgo.SpecContext) {
			s.requireMode("jwt")
			s.requireTool("write_request_create")
			// a fresh server has not logged in yet: the write's first
			// upstream request is the login
			srv := s.fresh(ctx, harness.Config{Bundles: harness.AllBundles, AuthMode: "jwt", Timeout: unsentDeadline.String()})
			s.injectFault(mockombi.Fault{Method: http.MethodPost, Path: tokenPath, DelayMS: int(unsentStall / time.Millisecond)})
			o := s.call(ctx, srv, "write_request_create", map[string]any{"action": "movie", "tmdb_id": 603})
			s.clean()
			for _, c := range upstreamCalls(o) {
				s.expect(c.Method == http.MethodGet, o, "the login stalled past OMBI_TIMEOUT, yet the write went out: %s", callLine(c))
			}
			s.expect(o.ErrorCode() == "TIMEOUT" && o.Envelope.Error.Retryable, o,
				"a write whose login passed the deadline was never sent: want TIMEOUT, retryable (as for a read), got %q (UNKNOWN_OUTCOME means the write was sent)", o.ErrorCode())
		})

		s.ClauseItFor("VERIFY-AUTHZ-HTTP-CLIENT-001", "dot-path-value-names-its-field", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			var e errs
			judged := 0
			for _, pc := range dotPathCalls {
				if !s.Judged(pc.tool) {
					continue
				}
				for _, v := range dotPathValues {
					s.clean()
					args := map[string]any{pc.field: v}
					for k, a := range pc.args {
						args[k] = a
					}
					o := s.call(ctx, srv, pc.tool, args)
					judged++
					for _, c := range upstreamCalls(o) {
						if strings.Contains(c.Path, "/"+v+"/") || strings.HasSuffix(c.Path, "/"+v) {
							e.addf("%s %s=%q: the value went upstream as a path segment: %s", pc.tool, pc.field, v, callLine(c))
						}
					}
					field := ""
					if o.Envelope != nil && o.Envelope.Error != nil {
						field = o.Envelope.Error.Field
					}
					if o.ErrorCode() != "INVALID_ARGUMENT" || field != "/"+pc.field {
						e.addf("%s %s=%q, a path value that would change the route: want INVALID_ARGUMENT naming /%s, got %q naming %q", pc.tool, pc.field, v, pc.field, o.ErrorCode(), field)
					}
				}
			}
			s.clean()
			s.expect(judged > 0, nil, "the server serves none of the tools whose arguments become path segments; nothing was judged")
			s.expectNone(e, "a dot path value is refused on the argument that carried it")
		}, ginkgo.Label(LabelReadOnly))

		s.ClauseItFor("MCP-JSONRPC-CODES-001", "response-frames-not-answered", func(ctx ginkgo.SpecContext) {
			raw := s.rawStdio(ctx)
			defer raw.Close()
			for _, f := range []string{
				fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, responseID),
				fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32601,"message":"method not found"}}`, responseID),
			} {
				if err := raw.Send(f); err != nil {
					s.fail(nil, "send %s: %v", f, err)
				}
			}
			// the first answer under that id must be the ping's: a response
			// is never answered
			msg, err := raw.Request(ctx, responseID, "ping", nil)
			s.expect(err == nil && msg.Error == nil, nil,
				"two response frames with id %d (one with a result, one with an error), then a ping with that id: the first answer under it must be the ping's result, got %v %v", responseID, rawLine(msg), err)
		}, ginkgo.Label(LabelReadOnly))

		s.ClauseItFor("MCP-JSONRPC-CODES-001", "response-with-result-and-error-refused", func(ctx ginkgo.SpecContext) {
			raw := s.rawStdio(ctx)
			defer raw.Close()
			f := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{},"error":{"code":-32601,"message":"method not found"}}`, responseID+1)
			if err := raw.Send(f); err != nil {
				s.fail(nil, "send %s: %v", f, err)
			}
			msg, err := raw.Await(ctx, "null", 10*time.Second)
			var code int
			s.expect(err == nil && msg.Error != nil && json.Unmarshal(msg.Error.Code, &code) == nil && code == -32600, nil,
				"a response frame with both a result and an error is not a JSON-RPC message: want -32600 under id null, got %v %v", rawLine(msg), err)
			msg, err = raw.Request(ctx, 999, "ping", nil)
			s.expect(err == nil && msg.Error == nil, nil, "a valid ping after the refused frame: want a result, got %v %v", rawLine(msg), err)
		}, ginkgo.Label(LabelReadOnly))

		// docs/server.md, Configuration: OMBI_TIMEOUT is a Go duration of at
		// most 10m; an invalid setting is reported on stderr naming the
		// variable, and the process exits before serving.
		s.ClauseItFor("RESULTS-BUDGET-BOUNDED-READ-001", "timeout-setting-bound", func(ctx ginkgo.SpecContext) {
			cfg := s.allConfig()
			cfg.Timeout = maxTimeoutSetting
			raw, _, err := s.h.StartRaw(ctx, cfg)
			if err != nil {
				s.fail(nil, "OMBI_TIMEOUT=%s, the documented bound, is a valid setting: the server must start and serve, got %v", maxTimeoutSetting, err)
			}
			msg, err := raw.Request(ctx, 2, "ping", nil)
			raw.Close()
			s.expect(err == nil && msg.Error == nil, nil, "a ping to the server started with OMBI_TIMEOUT=%s: want a result, got %v %v", maxTimeoutSetting, rawLine(msg), err)
			cfg.Timeout = overTimeoutSetting
			raw, _, err = s.h.StartRaw(ctx, cfg)
			if err == nil {
				raw.Close()
				s.fail(nil, "OMBI_TIMEOUT=%s is over the documented bound of %s: the server must refuse to start, and it served", overTimeoutSetting, maxTimeoutSetting)
			}
			var he *harness.HarnessError
			s.expect(errors.As(err, &he) && strings.Contains(he.Stderr, "OMBI_TIMEOUT"), nil,
				"the server refused OMBI_TIMEOUT=%s; its report must name the variable, got: %v", overTimeoutSetting, err)
		}, ginkgo.Label(LabelReadOnly))

		s.ClauseItFor("VERIFY-AUTHZ-BUNDLES-001", "disabled-tool-without-arguments", func(ctx ginkgo.SpecContext) {
			cfg := s.allConfig()
			cfg.Bundles = "core"
			raw, _, err := s.h.StartRaw(ctx, cfg)
			if err != nil {
				s.fail(nil, "start a raw session with the core bundle only: %v", err)
			}
			defer raw.Close()
			var e errs
			for i, params := range []string{`{"name":"read_settings"}`, `{"name":"read_settings","arguments":{}}`} {
				msg, err := raw.Request(ctx, 700+i, "tools/call", json.RawMessage(params))
				if err != nil {
					s.fail(nil, "tools/call %s: %v", params, err)
				}
				var res struct {
					IsError    bool `json:"isError"`
					Structured struct {
						Error struct {
							Code string `json:"code"`
						} `json:"error"`
					} `json:"structuredContent"`
				}
				if msg.Error != nil || json.Unmarshal(msg.Result, &res) != nil || !res.IsError || res.Structured.Error.Code != "FORBIDDEN" {
					e.addf("tools/call %s on a server without the administration bundle: want a tool result, isError true, code FORBIDDEN, got %s", params, clip(msg.Line, 300))
				}
			}
			s.expectNone(e, "a tool of a disabled bundle is FORBIDDEN, with or without arguments")
		}, ginkgo.Label(LabelReadOnly))
	})
}

// rawLine is a raw answer's frame for a failure message.
func rawLine(m *harness.RawMessage) string {
	if m == nil {
		return "(none)"
	}
	return clip(m.Line, 300)
}

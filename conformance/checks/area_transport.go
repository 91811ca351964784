package checks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file declares the transport checks of the protocol area: what a
// server must refuse or keep on the wire itself, whatever its tools. The
// JSON-RPC version rule holds on both transports (profile design); the
// Origin, bearer token and shutdown rules are Streamable HTTP's and are not
// applicable on stdio (Origin and shutdown in both profiles, the token in
// profile design, whose server reads it from OMBI_MCP_TOKEN).

// drainTimeout is the upstream deadline of the server the shutdown check
// stops, so the call it leaves in flight ends soon after.
const drainTimeout = 2 * time.Second

func (s *Suite) transportChecks() {
	ginkgo.Describe("transport", ginkgo.Label("protocol", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		// profile design: the reference server's stdio guard answers every
		// malformed frame (docs/server.md); servers on the TypeScript SDK
		// drop such a frame unanswered
		s.ClauseIt("MCP-JSONRPC-VERSION-001", func(ctx ginkgo.SpecContext) {
			if s.h.Target.IsHTTP() {
				s.versionOverHTTP(ctx)
				return
			}
			raw, _, err := s.h.StartRaw(ctx, s.allConfig())
			if err != nil {
				s.fail(nil, "start a raw session: %v", err)
			}
			defer raw.Close()
			var e errs
			for i, frame := range badVersions {
				id := 900 + i
				f := fmt.Sprintf(frame, id)
				if err := raw.Send(f); err != nil {
					s.fail(nil, "send %s: %v", f, err)
				}
				msg, err := raw.Await(ctx, fmt.Sprint(id), 10*time.Second)
				if err != nil {
					e.addf("%s: no answer under id %d: %v", f, id, err)
					continue
				}
				var code int
				if msg.Error == nil || json.Unmarshal(msg.Error.Code, &code) != nil || code != -32600 {
					e.addf("%s: want a JSON-RPC error -32600 (invalid request) under id %d, got %s", f, id, msg.Line)
				}
			}
			msg, err := raw.Request(ctx, 999, "ping", nil)
			if err != nil || msg.Error != nil {
				e.addf("a valid ping after the refused frames: want a result, got %v %v", msg, err)
			}
			s.expectNone(e, `a frame whose "jsonrpc" is not exactly "2.0" is not a JSON-RPC 2.0 request and must be refused with -32600`)
		})
		s.ClauseIt("MCP-HTTP-ORIGIN-001", func(ctx ginkgo.SpecContext) {
			srv := s.httpServer(ctx, s.allConfig())
			var e errs
			// A loopback name is matched exactly: a host that only starts or
			// ends like one (localhost.attacker.example, 127.0.0.1.nip.io,
			// evil-localhost) is another host.
			for _, origin := range []string{"null", "http://attacker.example", "https://rebind.example:8443",
				"http://localhost.attacker.example", "http://localhostx:8080", "http://127.0.0.1.nip.io", "http://evil-localhost"} {
				code, body := s.post(ctx, srv.Endpoint(), map[string]string{"Origin": origin}, initializeFrame)
				if code != http.StatusForbidden {
					e.addf("Origin: %s: HTTP %d (want 403): %s", origin, code, ClipString(body, 200))
				}
			}
			s.expectNone(e, "a request whose Origin the server does not allow must be refused with 403 (DNS rebinding)")
		}, ginkgo.Label(framework.LabelAny))
		s.ClauseIt("MCP-HTTP-AUTH-001", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_search") // the design's OMBI_MCP_TOKEN (docs/server.md)
			token := randomToken()
			cfg := s.allConfig()
			cfg.Env = append(cfg.Env, "OMBI_MCP_TOKEN="+token)
			cfg.Token = token
			srv := s.httpServer(ctx, cfg)
			var e errs
			for _, c := range []struct{ name, header string }{
				{"no Authorization", ""},
				{"the token without its last character", "Bearer " + token[:len(token)-1]},
				{"the token's first half", "Bearer " + token[:len(token)/2]},
				{"the token with one more character", "Bearer " + token + "0"},
				{"another token of the same length", "Bearer " + strings.Repeat("0", len(token))},
				{"the token in the Basic scheme", "Basic " + token},
			} {
				hdr := map[string]string{}
				if c.header != "" {
					hdr["Authorization"] = c.header
				}
				code, body := s.post(ctx, srv.Endpoint(), hdr, initializeFrame)
				if code != http.StatusUnauthorized {
					e.addf("%s: HTTP %d (want 401): %s", c.name, code, ClipString(body, 200))
				}
			}
			if code, body := s.post(ctx, srv.Endpoint(), map[string]string{"Authorization": "Bearer " + token}, initializeFrame); code != http.StatusOK {
				e.addf("the token itself: HTTP %d (want 200): %s", code, ClipString(body, 200))
			}
			s.expectNone(e, "with OMBI_MCP_TOKEN set, only that exact bearer token opens the MCP endpoint")
		}, ginkgo.Label(LabelNeedsMock))
		s.ClauseIt("MCP-HTTP-DRAIN-001", func(ctx ginkgo.SpecContext) {
			s.drainCheck(ctx)
		}, ginkgo.Label(LabelNeedsMock, framework.LabelAny))
	})
}

// badVersions are requests (%d is the id) that are not JSON-RPC 2.0.
var badVersions = []string{
	`{"jsonrpc":"1.0","id":%d,"method":"ping"}`,
	`{"id":%d,"method":"ping"}`,
	`{"jsonrpc":2.0,"id":%d,"method":"ping"}`,
	`{"jsonrpc":"2.0 ","id":%d,"method":"ping"}`,
}

// versionOverHTTP posts each bad version: Streamable HTTP lets a server
// refuse input it cannot accept with an HTTP error status, its body a
// JSON-RPC error or nothing; a 2xx, or a JSON-RPC error of another code,
// breaks the rule.
func (s *Suite) versionOverHTTP(ctx context.Context) {
	ginkgo.GinkgoHelper()
	srv := s.shared(ctx, s.allConfig())
	var e errs
	for i, frame := range badVersions {
		f := fmt.Sprintf(frame, 900+i)
		code, body := s.post(ctx, srv.Endpoint(), nil, f)
		var msg struct {
			Error *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		isRPC := json.Unmarshal([]byte(body), &msg) == nil && msg.Error != nil
		switch {
		case code < 400 && !(isRPC && msg.Error.Code == -32600):
			e.addf("%s: HTTP %d without a -32600 error: %s", f, code, ClipString(body, 200))
		case isRPC && msg.Error.Code != -32600:
			e.addf("%s: HTTP %d with JSON-RPC error %d (want -32600): %s", f, code, msg.Error.Code, ClipString(body, 200))
		}
	}
	s.expectNone(e, `a frame whose "jsonrpc" is not exactly "2.0" must be refused (an HTTP error status, or -32600)`)
}

// initializeFrame is a complete initialize request.
const initializeFrame = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"ombi-conformance","version":"1"}}}`

// httpServer starts a server of its own for cfg; a stdio target makes the
// check not applicable.
func (s *Suite) httpServer(ctx context.Context, cfg harness.Config) *harness.Server {
	ginkgo.GinkgoHelper()
	if !s.h.Target.IsHTTP() {
		skipAs(framework.StateNotApplicable, "a rule of Streamable HTTP; the server is judged on stdio (--transport http judges it)")
	}
	return s.fresh(ctx, cfg)
}

// post sends one JSON-RPC frame to url with the given headers and returns
// the status and the body.
func (s *Suite) post(ctx context.Context, url string, headers map[string]string, frame string) (int, string) {
	ginkgo.GinkgoHelper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(frame))
	if err != nil {
		s.fail(nil, "build a request to %s: %v", url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", harness.ProtocolVersion)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.fail(nil, "POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return resp.StatusCode, string(b)
}

// drainCheck stops a server with SIGTERM while one of its calls waits on a
// hung Ombi: from then on /healthz must never answer 200 (a load balancer
// would keep sending calls to a server on its way out), and the call in
// flight must still get its answer.
func (s *Suite) drainCheck(ctx context.Context) {
	ginkgo.GinkgoHelper()
	cfg := s.allConfig()
	cfg.Timeout = drainTimeout.String()
	srv := s.httpServer(ctx, cfg)
	health := strings.TrimSuffix(srv.Endpoint(), s.mcpPath()) + "/healthz"
	if code := s.get(ctx, health); code != http.StatusOK {
		skipAs(framework.StateNotApplicable, fmt.Sprintf("the server has no /healthz (GET answered %d)", code))
	}
	var tool *mcp.Tool
	var args json.RawMessage
	if s.Listed() != nil {
		for _, t := range s.Listed() {
			if t.Annotations == nil || !t.Annotations.ReadOnlyHint {
				continue
			}
			if a, ok := s.tryReaching(ctx, srv, t); ok {
				tool, args = t, a
				break
			}
		}
	}
	if tool == nil {
		skipAs(framework.StateNotApplicable, "no read-only tool of the server reached upstream")
	}
	s.clean()
	if err := s.h.Upstream.InjectFault(mockombi.Fault{Path: "/**", DelayMS: int(4 * drainTimeout / time.Millisecond)}); err != nil {
		s.fail(nil, "inject the hang: %v", err)
	}
	type answer struct {
		o   *harness.Outcome
		err error
	}
	done := make(chan answer, 1)
	go func() {
		o, err := srv.CallRaw(ctx, tool.Name, args)
		done <- answer{o, err}
	}()
	// the call is in flight once Ombi has seen it
	m := s.h.Upstream.Mock()
	if m == nil {
		skipAs(framework.StateNotApplicable, "needs the embedded mock, to know when the call is in flight")
	}
	for deadline := time.Now().Add(5 * time.Second); len(m.InFlight()) == 0; {
		if time.Now().After(deadline) {
			s.fail(nil, "%s %s never reached upstream", tool.Name, args)
		}
		time.Sleep(10 * time.Millisecond)
	}
	srv.Terminate()
	var e errs
	for end := time.Now().Add(drainTimeout + time.Second); time.Now().Before(end) && !srv.Exited(); time.Sleep(20 * time.Millisecond) {
		if code := s.get(ctx, health); code == http.StatusOK {
			e.addf("GET /healthz answered 200 after SIGTERM, while %s was still in flight", tool.Name)
			break
		}
	}
	a := <-done
	_ = s.h.Upstream.ClearFaults()
	if a.err != nil {
		e.addf("%s %s, in flight at SIGTERM, got no answer: %v", tool.Name, args, a.err)
	} else if a.o.Result == nil && a.o.RPCError == nil {
		e.addf("%s %s, in flight at SIGTERM, got no answer", tool.Name, args)
	}
	s.expectNone(e, "a server stopped with SIGTERM must stop saying it is healthy and still answer the calls in flight")
}

// get answers the status of one GET, 0 when nothing answered.
func (s *Suite) get(ctx context.Context, url string) int {
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(cctx, http.MethodGet, url, nil)
	if err != nil {
		return 0
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	_ = resp.Body.Close()
	return resp.StatusCode
}

func (s *Suite) mcpPath() string {
	if s.h.Target.MCPPath != "" {
		return s.h.Target.MCPPath
	}
	return harness.DefaultMCPPath
}

func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

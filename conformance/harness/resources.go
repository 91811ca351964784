package harness

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// ListResources sends resources/list (every page) and returns what it
// lists. A server without the resources capability answers -32601, which is
// returned as the *jsonrpc.Error.
func (s *Server) ListResources(ctx context.Context) ([]*mcp.Resource, error) {
	cctx, cancel := context.WithTimeout(ctx, s.h.callTimeout(s.cfg))
	defer cancel()
	var out []*mcp.Resource
	for r, err := range s.session.Resources(cctx, nil) {
		if err != nil {
			return nil, s.rpcOrHarnessErr("await resources/list response", err, ctx, cctx)
		}
		out = append(out, r)
	}
	return out, nil
}

// ListResourceTemplates sends resources/templates/list (every page).
func (s *Server) ListResourceTemplates(ctx context.Context) ([]*mcp.ResourceTemplate, error) {
	cctx, cancel := context.WithTimeout(ctx, s.h.callTimeout(s.cfg))
	defer cancel()
	var out []*mcp.ResourceTemplate
	for r, err := range s.session.ResourceTemplates(cctx, nil) {
		if err != nil {
			return nil, s.rpcOrHarnessErr("await resources/templates/list response", err, ctx, cctx)
		}
		out = append(out, r)
	}
	return out, nil
}

// ResourceRead is the outcome of one resources/read: the result or the
// JSON-RPC error, and the upstream calls made meanwhile (nil when live).
type ResourceRead struct {
	URI      string
	Request  string // the JSON-RPC request, for reports
	Result   *mcp.ReadResourceResult
	RPCError *jsonrpc.Error
	Journal  []mockombi.Call
	Duration time.Duration
}

// ReadResource sends resources/read for uri. A JSON-RPC error answer is in
// the outcome; only a harness failure (no answer, a broken session) is an
// error.
func (s *Server) ReadResource(ctx context.Context, uri string) (*ResourceRead, error) {
	o := &ResourceRead{URI: uri, Request: fmt.Sprintf(`{"jsonrpc":"2.0","method":"resources/read","params":{"uri":%q}}`, uri)}
	before := s.h.Upstream.mark()
	cctx, cancel := context.WithTimeout(ctx, s.h.callTimeout(s.cfg))
	defer cancel()
	start := time.Now()
	res, err := s.session.ReadResource(cctx, &mcp.ReadResourceParams{URI: uri})
	o.Duration = time.Since(start)
	var rpc *jsonrpc.Error
	if err != nil && !errors.As(err, &rpc) {
		return nil, s.harnessErr("await resources/read "+uri+" response", err, ctx, cctx)
	}
	o.Journal = s.h.Upstream.since(before)
	o.Result, o.RPCError = res, rpc
	return o, nil
}

// rpcOrHarnessErr returns a JSON-RPC error answer as it is, anything else
// as harnessErr does.
func (s *Server) rpcOrHarnessErr(action string, err error, ctx, cctx context.Context) error {
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) {
		return rpc
	}
	return s.harnessErr(action, err, ctx, cctx)
}

package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// Name is the serverInfo.name every client sees.
const Name = "ombi-mcp"

// protocolVersions are the MCP revisions served: 2025-11-25 and the older
// ones the SDK negotiates. Newer drafts are not advertised.
var protocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// New builds the MCP server: every tool of an enabled bundle is registered
// from spec/ (published input schema and composed outputSchema served
// verbatim); a call to a tool of a disabled bundle is refused with a tool
// error; nothing is advertised but the tools capability without
// listChanged, and the resources capability (resources.go) when a tool
// whose data resources serve is enabled.
func New(opts Options) (*mcp.Server, error) {
	if err := opts.Validate(); err != nil {
		return nil, fmt.Errorf("configure server: %w", err)
	}
	client, err := newClient(opts)
	if err != nil {
		return nil, err
	}
	v, err := spec.NewValidator()
	if err != nil {
		return nil, fmt.Errorf("load spec: %w", err)
	}
	d := &deps{client: client, validator: v, log: opts.logger(),
		allowedJobs: allowedJobs(opts.AllowedJobs), profiles: parseProfiles(opts.Profiles)}
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	handlers := map[string]handlerFunc{}
	for _, t := range tools(d) {
		handlers[t.name] = t.handle
	}
	enabled := opts.bundles()
	disabled := map[string]string{} // tool -> bundle
	served := map[string]registered{}
	var order []spec.Tool
	for _, t := range spec.Tools() {
		h, ok := handlers[t.Name]
		if !ok {
			return nil, fmt.Errorf("register %s: no handler in the registry", t.Name)
		}
		if !enabled[t.Bundle] {
			disabled[t.Name] = t.Bundle
			continue
		}
		if len(opts.Tools) > 0 && !slices.Contains(opts.Tools, t.Name) {
			continue
		}
		served[t.Name] = registered{tool: t, h: h}
		order = append(order, t)
	}
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: false}}
	if servesResources(served) {
		// neither listChanged nor subscribe: the set is fixed at start
		caps.Resources = &mcp.ResourceCapabilities{}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: Name, Title: "Ombi MCP server", Version: version}, &mcp.ServerOptions{
		Capabilities:              caps,
		Logger:                    opts.logger(),
		SupportedProtocolVersions: protocolVersions,
	})
	for _, t := range order {
		mt, err := mcpTool(t)
		if err != nil {
			return nil, err
		}
		s.AddTool(mt, d.serve(t, served[t.Name].h))
	}
	addResources(s, d, served, opts.referenceTTL())
	s.AddReceivingMiddleware(refuseDisabled(disabled))
	return s, nil
}

// mcpTool builds the advertised Tool object from the catalogue.
func mcpTool(t spec.Tool) (*mcp.Tool, error) {
	in, err := spec.PublishedInputSchema(t.Name)
	if err != nil {
		return nil, fmt.Errorf("register %s: %w", t.Name, err)
	}
	out, err := spec.OutputSchema(t.Name)
	if err != nil {
		return nil, fmt.Errorf("register %s: %w", t.Name, err)
	}
	destructive, openWorld := t.Annotations.DestructiveHint, t.Annotations.OpenWorldHint
	return &mcp.Tool{
		Name:         t.Name,
		Title:        t.Title,
		Description:  spec.Description(t.Name),
		InputSchema:  json.RawMessage(in),
		OutputSchema: json.RawMessage(out),
		Annotations: &mcp.ToolAnnotations{
			Title:           t.Title,
			ReadOnlyHint:    t.Annotations.ReadOnlyHint,
			DestructiveHint: &destructive,
			IdempotentHint:  t.Annotations.IdempotentHint,
			OpenWorldHint:   &openWorld,
		},
	}, nil
}

// refuseDisabled answers a tools/call for a tool of a disabled bundle with a
// FORBIDDEN tool error (the tool is absent from tools/list because it was
// never added). Other unknown names fall through to the SDK's -32602.
func refuseDisabled(disabled map[string]string) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			p, ok := req.GetParams().(*mcp.CallToolParamsRaw)
			if !ok {
				return next(ctx, method, req)
			}
			bundle, off := disabled[p.Name]
			if !off {
				return next(ctx, method, req)
			}
			if len(p.Arguments) > 0 && !isObject(p.Arguments) {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tool arguments must be a JSON object"}
			}
			return toolResult(failure(p.Name, &envelopeError{
				Code:    codeForbidden,
				Message: fmt.Sprintf("%s belongs to the %s bundle, which this server does not enable (OMBI_BUNDLES)", p.Name, bundle),
			}, nil)), nil
		}
	}
}

// isObject reports whether raw is one JSON object: valid JSON whose first
// byte past white space opens an object. It reads raw once and keeps
// nothing.
func isObject(raw json.RawMessage) bool {
	t := bytes.TrimLeft(raw, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && json.Valid(t)
}

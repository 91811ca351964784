// Command ombi-mcp is the reference MCP server for Ombi. It speaks
// newline-delimited JSON-RPC on stdio, or MCP Streamable HTTP with --http
// ADDR, and reads its configuration from the environment (OMBI_URL,
// OMBI_AUTH_MODE, OMBI_USERNAME, OMBI_PASSWORD, OMBI_API_KEY,
// OMBI_USER_NAME, OMBI_BUNDLES, OMBI_TIMEOUT; over HTTP also OMBI_MCP_TOKEN
// or OMBI_MCP_TOKEN_FILE, and OMBI_MCP_ALLOWED_ORIGINS). Logs go to stderr
// and never carry credentials.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/ombi-mcp/ombi-mcp/internal/buildinfo"
	"github.com/ombi-mcp/ombi-mcp/internal/stdio"
	"github.com/ombi-mcp/ombi-mcp/server"
)

const usage = `ombi-mcp: MCP server for Ombi over stdio (newline-delimited JSON-RPC)
or MCP Streamable HTTP (--http).

Usage:
  ombi-mcp [--help] [--version] [--log-level debug|info|warn|error]
           [--http ADDR [--http-path /mcp] [--http-allow-remote]]

Flags:
  --http ADDR          serve Streamable HTTP (stateless) on ADDR, e.g. 127.0.0.1:8080,
                       instead of stdio; GET /healthz answers 200 while serving
  --http-path PATH     MCP endpoint path (default /mcp)
  --http-allow-remote  allow an ADDR that is not loopback (set OMBI_MCP_TOKEN too;
                       without a token the server warns at startup)

Environment:
  OMBI_URL         Ombi base URL; a reverse-proxy path prefix is kept (required)
  OMBI_AUTH_MODE   jwt or api_key (required)
  OMBI_USERNAME    jwt: login user name
  OMBI_PASSWORD    jwt: login password
  OMBI_API_KEY     api_key: sent as the ApiKey header
  OMBI_USER_NAME   api_key: optional UserName header (act as that user)
  OMBI_BUNDLES     comma list of core,moderation,administration (default core)
  OMBI_TIMEOUT     upstream request deadline, a Go duration (default 30s)
  OMBI_MCP_TOKEN   --http: bearer token the MCP endpoint requires (16+ characters);
                   set but empty is an error
  OMBI_MCP_TOKEN_FILE
                   --http: a file holding that token instead (one of the two);
                   missing, unreadable or empty is an error
  OMBI_MCP_ALLOWED_ORIGINS
                   --http: comma list of browser origins accepted besides
                   loopback ones (e.g. https://app.example), or *

Exit status: 0 after a clean shutdown (stdin closed and every request read
answered, or SIGINT/SIGTERM; over HTTP once the calls in flight finished),
2 for a configuration error, 1 otherwise.
`

func main() {
	os.Exit(run(os.Args[1:], os.LookupEnv, os.Stdout, os.Stderr))
}

func run(args []string, lookupEnv func(string) (string, bool), stdout, stderr io.Writer) int {
	version := buildinfo.Version()
	fs := flag.NewFlagSet("ombi-mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stdout, usage) }
	showVersion := fs.Bool("version", false, "print the version and exit")
	level := fs.String("log-level", "info", "stderr log level: debug, info, warn or error")
	var hc server.HTTPConfig
	fs.StringVar(&hc.Addr, "http", "", "serve MCP Streamable HTTP on this address instead of stdio")
	fs.StringVar(&hc.Path, "http-path", server.DefaultMCPPath, "MCP endpoint path over HTTP")
	fs.BoolVar(&hc.AllowRemote, "http-allow-remote", false, "allow a --http address that is not loopback")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ombi-mcp: unexpected arguments: %s\n", strings.Join(fs.Args(), " "))
		return 2
	}
	if *showVersion {
		fmt.Fprintf(stdout, "ombi-mcp %s\n", version)
		return 0
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintf(stderr, "ombi-mcp: --log-level: %q is not debug, info, warn or error\n", *level)
		return 2
	}
	if hc.Addr != "" {
		if err := hc.Validate(); err != nil {
			fmt.Fprintf(stderr, "ombi-mcp: %v\n", err)
			return 2
		}
	}
	opts, err := server.OptionsFromEnv(lookupEnv)
	if err != nil {
		fmt.Fprintf(stderr, "ombi-mcp: configuration error:\n  %s\n", strings.ReplaceAll(err.Error(), "\n", "\n  "))
		return 2
	}
	opts.Version = version
	opts.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: lv}))
	if hc.Addr != "" {
		return runHTTP(opts, hc)
	}
	s, err := server.New(opts)
	if err != nil {
		fmt.Fprintf(stderr, "ombi-mcp: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts.Logger.Info("serving on stdio", "version", version, "auth_mode", opts.AuthMode, "bundles", strings.Join(opts.Bundles, ","))
	if err := s.Run(ctx, server.NewStdioTransport(stdio.Pollable(os.Stdin), stdio.Pollable(os.Stdout))); err != nil && !errors.Is(err, context.Canceled) {
		opts.Logger.Error("server stopped", "error", err)
		return 1
	}
	return 0
}

// runHTTP serves Streamable HTTP until SIGINT or SIGTERM, then lets the
// calls in flight finish. A second signal ends the process at once.
func runHTTP(opts server.Options, hc server.HTTPConfig) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // restore the default action: a second signal ends the process
	}()
	opts.Logger.Info("starting", "version", opts.Version, "auth_mode", opts.AuthMode, "bundles", strings.Join(opts.Bundles, ","))
	if err := server.RunHTTP(ctx, opts, hc); err != nil {
		opts.Logger.Error("server stopped", "error", err)
		return 1
	}
	opts.Logger.Info("server stopped")
	return 0
}

package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Streamable HTTP (MCP 2025-11-25) endpoint paths.
const (
	// DefaultMCPPath is where the MCP endpoint is served unless
	// HTTPConfig.Path says otherwise.
	DefaultMCPPath = "/mcp"
	// HealthPath answers GET with 200 while the server accepts calls and
	// 503 once it is shutting down. It needs no token.
	HealthPath = "/healthz"
)

// Environment variables of the Streamable HTTP endpoint (ombi-mcp --http),
// read by OptionsFromEnv and unused on stdio.
const (
	// EnvMCPToken is the bearer token the MCP endpoint requires when set.
	// Set but empty (or blank) is an error, not "no token".
	EnvMCPToken = "OMBI_MCP_TOKEN"
	// EnvMCPTokenFile names a file holding the bearer token instead (a
	// mounted secret; blanks and line ends around it are dropped). A file
	// named but missing, unreadable or empty is an error; give it or
	// EnvMCPToken, not both.
	EnvMCPTokenFile = "OMBI_MCP_TOKEN_FILE"
	// EnvAllowedOrigins is a comma list of browser origins the MCP endpoint
	// accepts besides loopback ones, or "*" for any.
	EnvAllowedOrigins = "OMBI_MCP_ALLOWED_ORIGINS"
)

// minTokenLen is the shortest OMBI_MCP_TOKEN accepted.
const minTokenLen = 16

// readHeaderTimeout bounds how long a client may take to send its request
// headers; request bodies are bounded by MaxFrameBytes.
const readHeaderTimeout = 10 * time.Second

// HTTPConfig says where the Streamable HTTP endpoint listens. The
// endpoint's own settings (bearer token, allowed origins) are Options
// fields read from the environment.
type HTTPConfig struct {
	// Addr is the listen address, host:port. The host must be a loopback
	// address or "localhost" unless AllowRemote is set (an empty host means
	// every interface); port 0 picks a free port.
	Addr string
	// AllowRemote permits an Addr that is not loopback.
	AllowRemote bool
	// Path is the MCP endpoint path; "" means DefaultMCPPath.
	Path string
	// ShutdownTimeout bounds how long a shutdown waits for the calls in
	// flight to finish; 0 means the upstream timeout plus 5s.
	ShutdownTimeout time.Duration
	// Listening, when not nil, is called with the bound address once the
	// server accepts connections (before GET /healthz answers 200).
	Listening func(net.Addr)
}

// Validate reports a listen address that cannot be used, or is not
// loopback without AllowRemote, and a path that is not absolute.
func (c HTTPConfig) Validate() error {
	host, _, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return fmt.Errorf("--http: %q is not host:port (e.g. 127.0.0.1:8080)", c.Addr)
	}
	if !c.AllowRemote && !isLoopbackHost(host) {
		what := fmt.Sprintf("%q is not a loopback address", host)
		if host == "" {
			what = "an empty host listens on every interface"
		}
		return fmt.Errorf("--http: %s; bind 127.0.0.1, [::1] or localhost, or pass --http-allow-remote (and set %s) to serve other hosts", what, EnvMCPToken)
	}
	if c.Path != "" && (!strings.HasPrefix(c.Path, "/") || c.Path == HealthPath) {
		return fmt.Errorf("--http-path: %q must start with / and differ from %s", c.Path, HealthPath)
	}
	return nil
}

func (c HTTPConfig) path() string {
	if c.Path == "" {
		return DefaultMCPPath
	}
	return c.Path
}

// httpFromEnv fills the HTTP endpoint's Options from the environment. A
// token variable that is set must yield a token: set but empty, or a token
// file that cannot be read or holds nothing, is an error naming the
// variable (and the file), so a secret that failed to arrive never turns
// into an endpoint without authentication.
func (o *Options) httpFromEnv(lookupEnv func(string) (string, bool)) error {
	var errs []error
	token, tokenSet := lookupEnv(EnvMCPToken)
	file, fileSet := lookupEnv(EnvMCPTokenFile)
	switch {
	case tokenSet && fileSet:
		errs = append(errs, &settingError{Setting: EnvMCPToken + " and " + EnvMCPTokenFile, Problem: "both set; give the token in one of them"})
	case tokenSet:
		if o.MCPToken = strings.TrimSpace(token); o.MCPToken == "" {
			errs = append(errs, &settingError{Setting: EnvMCPToken, Problem: "set but empty; give the bearer token (16+ characters, e.g. the output of openssl rand -hex 32), or unset it to serve without one"})
		}
	case fileSet:
		t, err := readTokenFile(file)
		if err != nil {
			errs = append(errs, err)
		}
		o.MCPToken, o.mcpTokenFrom = t, EnvMCPTokenFile
	}
	origins, _ := lookupEnv(EnvAllowedOrigins)
	for _, origin := range strings.Split(origins, ",") {
		if origin = strings.TrimSpace(origin); origin != "" {
			o.AllowedOrigins = append(o.AllowedOrigins, origin)
		}
	}
	return errors.Join(errs...)
}

// maxTokenFileBytes bounds what is read of an OMBI_MCP_TOKEN_FILE: the file
// holds one token.
const maxTokenFileBytes = 4 << 10

// readTokenFile reads the token of OMBI_MCP_TOKEN_FILE, without the blanks
// and line ends around it.
func readTokenFile(path string) (string, error) {
	if strings.TrimSpace(path) == "" {
		return "", &settingError{Setting: EnvMCPTokenFile, Problem: "set but empty; name the file that holds the bearer token, or unset it"}
	}
	f, err := os.Open(path)
	if err != nil {
		return "", &settingError{Setting: EnvMCPTokenFile, Problem: "read the token file", Err: err}
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxTokenFileBytes+1))
	if err != nil {
		return "", &settingError{Setting: EnvMCPTokenFile, Problem: "read the token file", Err: err}
	}
	if len(b) > maxTokenFileBytes {
		return "", &settingError{Setting: EnvMCPTokenFile, Problem: fmt.Sprintf("%s is over %d bytes; it should hold the token alone", path, maxTokenFileBytes)}
	}
	t := strings.TrimSpace(string(b))
	if t == "" {
		return "", &settingError{Setting: EnvMCPTokenFile, Problem: fmt.Sprintf("%s is empty; write the bearer token into it (e.g. openssl rand -hex 32 > %s)", path, path)}
	}
	return t, nil
}

// validateHTTP reports problems of the HTTP endpoint's Options, naming the
// variable and never the token.
func (o Options) validateHTTP() error {
	var errs []error
	if o.MCPToken != "" {
		if len(o.MCPToken) < minTokenLen || strings.ContainsAny(o.MCPToken, " \t\r\n") {
			from := EnvMCPToken
			if o.mcpTokenFrom != "" {
				from = o.mcpTokenFrom
			}
			errs = append(errs, &settingError{Setting: from, Problem: fmt.Sprintf("the token must be at least %d characters without blanks (e.g. the output of openssl rand -hex 32)", minTokenLen)})
		}
	}
	for _, origin := range o.AllowedOrigins {
		if origin == "*" {
			continue
		}
		if _, ok := normalOrigin(origin); !ok {
			errs = append(errs, fmt.Errorf("%s: %q is not an origin such as https://app.example or http://localhost:3000 (scheme, host and optional port, no path)", EnvAllowedOrigins, origin))
		}
	}
	return errors.Join(errs...)
}

// HTTPHandler is the Streamable HTTP face of one MCP server: the MCP
// endpoint (stateless: every POST is served on its own, so any number of
// instances can stand behind any load balancer without session affinity)
// and GET /healthz. Requests to the MCP endpoint pass, in order:
//
//   - the Origin check against DNS rebinding: a request carrying an Origin
//     header is refused with 403 unless the origin is a loopback one
//     (http(s)://localhost, 127.0.0.0/8, [::1], any port) or listed in
//     Options.AllowedOrigins ("*" allows any); requests without Origin
//     (non-browser clients) pass;
//   - the bearer token, when Options.MCPToken is set: a missing or wrong
//     "Authorization: Bearer" is refused with 401 and a WWW-Authenticate
//     challenge; tokens are compared in constant time and never logged;
//   - the SDK's own checks: its Host check (a request reaching a loopback
//     listener with a Host that is not loopback is refused with 403), the
//     Content-Type, Accept and MCP-Protocol-Version.
//
// A JSON-RPC request the SDK turns away with a plain-text 400 (unknown
// method, missing params, an id where none belongs) is answered instead as
// stdio answers it: a JSON-RPC error carrying the request's id (-32601,
// -32602, -32600); so are, as on stdio, a body over MaxFrameBytes (-32600)
// and one nested deeper than MaxFrameDepth (-32602). Other refusals
// (malformed JSON, batches, a body without an id) stay HTTP errors.
type HTTPHandler struct {
	mux       *http.ServeMux
	log       *slog.Logger
	tokenSum  *[sha256.Size]byte // nil: no token required
	origins   map[string]bool    // normalised allowed origins
	anyOrigin bool
	draining  atomic.Bool
}

// NewHTTPHandler returns the handler serving s at path ("" means
// DefaultMCPPath) with the endpoint settings of opts (MCPToken,
// AllowedOrigins, Logger).
func NewHTTPHandler(s *mcp.Server, opts Options, path string) (*HTTPHandler, error) {
	if err := opts.validateHTTP(); err != nil {
		return nil, fmt.Errorf("configure http endpoint: %w", err)
	}
	if path == "" {
		path = DefaultMCPPath
	}
	h := &HTTPHandler{mux: http.NewServeMux(), log: opts.logger(), origins: map[string]bool{}}
	if opts.MCPToken != "" {
		sum := sha256.Sum256([]byte(opts.MCPToken))
		h.tokenSum = &sum
	}
	for _, origin := range opts.AllowedOrigins {
		if origin == "*" {
			h.anyOrigin = true
		} else if n, ok := normalOrigin(origin); ok {
			h.origins[n] = true
		}
	}
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		Stateless:           true,
		JSONResponse:        true,
		Logger:              h.log,
		MaxRequestBodyBytes: MaxFrameBytes,
	})
	h.mux.Handle(path, h.guard(rpcErrors(mcpHandler)))
	h.mux.HandleFunc("GET "+HealthPath, h.health)
	return h, nil
}

func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// Drain makes GET /healthz answer 503 so load balancers stop sending new
// calls; the MCP endpoint keeps serving.
func (h *HTTPHandler) Drain() { h.draining.Store(true) }

func (h *HTTPHandler) health(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if h.draining.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("shutting down\n"))
		return
	}
	_, _ = w.Write([]byte("ok\n"))
}

func (h *HTTPHandler) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !h.originAllowed(r.Header.Get("Origin")) {
			h.log.Warn("refused http request", "reason", "origin not allowed", "remote", r.RemoteAddr)
			http.Error(w, "forbidden: origin not allowed (list it in "+EnvAllowedOrigins+")", http.StatusForbidden)
			return
		}
		if h.tokenSum != nil {
			if ok, given := h.authorized(r.Header.Get("Authorization")); !ok {
				challenge := `Bearer realm="ombi-mcp"`
				if given {
					challenge += `, error="invalid_token"`
				}
				h.log.Warn("refused http request", "reason", "missing or invalid bearer token", "remote", r.RemoteAddr)
				w.Header().Set("WWW-Authenticate", challenge)
				http.Error(w, "unauthorized: missing or invalid bearer token", http.StatusUnauthorized)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// authorized checks an Authorization header against the token in constant
// time; given reports whether a bearer token was presented at all.
func (h *HTTPHandler) authorized(header string) (ok, given bool) {
	scheme, token, found := strings.Cut(strings.TrimSpace(header), " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return false, false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(token)))
	return subtle.ConstantTimeCompare(sum[:], h.tokenSum[:]) == 1, true
}

func (h *HTTPHandler) originAllowed(origin string) bool {
	if origin == "" || h.anyOrigin {
		return true
	}
	n, ok := normalOrigin(origin)
	if !ok {
		return false // "null" and anything else that is not an http(s) origin
	}
	if h.origins[n] {
		return true
	}
	u, _ := url.Parse(n)
	return isLoopbackHost(u.Hostname())
}

// normalOrigin lower-cases an http(s) origin and checks that it is one:
// scheme and host, an optional port, no path, query or credentials.
func normalOrigin(s string) (string, bool) {
	u, err := url.Parse(strings.ToLower(strings.TrimSpace(s)))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" ||
		u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", false
	}
	return u.Scheme + "://" + u.Host, true
}

// isLoopbackHost reports whether host (no port) names a loopback address.
func isLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// rpcErrors answers as JSON-RPC errors the requests the SDK refuses with a
// plain-text 400 before dispatching them (see HTTPHandler).
func rpcErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		head, err := io.ReadAll(io.LimitReader(r.Body, MaxFrameBytes+1))
		if err != nil {
			http.Error(w, "read request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		if len(head) > MaxFrameBytes {
			// As on stdio: refused with the request's id when it shows one.
			// A little more of the body is read and dropped, so a client
			// still sending gets the answer rather than a reset.
			_, _ = io.CopyN(io.Discard, r.Body, MaxFrameBytes)
			msg := fmt.Sprintf("invalid request: body is over %d bytes; it was discarded", MaxFrameBytes)
			if raw, ok := topLevelID(head); ok && bytes.HasPrefix(bytes.TrimSpace(head), []byte("{")) {
				writeRPCError(w, json.RawMessage(raw), jsonrpc.CodeInvalidRequest, msg)
				return
			}
			http.Error(w, msg, http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
		if jsonDepth(head) > MaxFrameDepth {
			// The SDK's decoder would refuse it with a plain 400.
			msg := fmt.Sprintf("invalid params: JSON nested deeper than %d levels", MaxFrameDepth)
			if raw, ok := topLevelID(head); ok && bytes.HasPrefix(bytes.TrimSpace(head), []byte("{")) {
				writeRPCError(w, json.RawMessage(raw), jsonrpc.CodeInvalidParams, msg)
				return
			}
			http.Error(w, msg, http.StatusBadRequest)
			return
		}
		id := requestID(head)
		if id == nil {
			next.ServeHTTP(w, r)
			return
		}
		fw := &rpcErrorWriter{ResponseWriter: w}
		next.ServeHTTP(fw, r)
		if !fw.held {
			return
		}
		msg := strings.TrimSpace(fw.body.String())
		code, ok := refusalCode(msg)
		if code == jsonrpc.CodeInvalidParams {
			msg = "invalid params: " + strings.TrimPrefix(msg, "invalid request: ")
		}
		if !ok {
			w.WriteHeader(fw.status)
			_, _ = w.Write(fw.body.Bytes())
			return
		}
		writeRPCError(w, id, code, msg)
	})
}

// writeRPCError answers a request with a JSON-RPC error (HTTP 200).
func writeRPCError(w http.ResponseWriter, id json.RawMessage, code int64, msg string) {
	hdr := w.Header()
	hdr.Del("X-Content-Type-Options")
	hdr.Del("Content-Length")
	hdr.Set("Content-Type", "application/json")
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": msg},
	})
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// requestID returns the id of a body that is one JSON-RPC request with a
// string or number id, else nil.
func requestID(body []byte) json.RawMessage {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return nil
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
	}
	if json.Unmarshal(body, &m) != nil || m.Method == nil || !usableID(m.ID) {
		return nil
	}
	return m.ID
}

// refusalCode maps the text of the SDK's pre-dispatch refusal to the
// JSON-RPC code stdio would answer with.
func refusalCode(msg string) (int64, bool) {
	switch {
	case strings.Contains(msg, "JSON RPC not handled"):
		return jsonrpc.CodeMethodNotFound, true
	case strings.Contains(msg, `missing required "params"`):
		return jsonrpc.CodeInvalidParams, true
	case strings.HasPrefix(msg, "invalid request"):
		return jsonrpc.CodeInvalidRequest, true
	}
	return 0, false
}

// rpcErrorWriter holds back a plain-text 400 so rpcErrors can rewrite it;
// everything else passes straight through.
type rpcErrorWriter struct {
	http.ResponseWriter
	held   bool
	status int
	body   bytes.Buffer
}

func (w *rpcErrorWriter) WriteHeader(code int) {
	if code == http.StatusBadRequest && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.held, w.status = true, code
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *rpcErrorWriter) Write(p []byte) (int, error) {
	if w.held {
		return w.body.Write(p)
	}
	return w.ResponseWriter.Write(p)
}

func (w *rpcErrorWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.held {
		f.Flush()
	}
}

func (w *rpcErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// quietSessions lowers to debug the SDK's per-session info lines, which a
// stateless HTTP server would write three times per request.
type quietSessions struct{ slog.Handler }

func (q quietSessions) Handle(ctx context.Context, r slog.Record) error {
	switch r.Message {
	case "server connecting", "server session connected", "server session disconnected":
		if r.Level == slog.LevelInfo {
			if !q.Enabled(ctx, slog.LevelDebug) {
				return nil
			}
			r.Level = slog.LevelDebug
		}
	}
	return q.Handler.Handle(ctx, r)
}

func (q quietSessions) WithAttrs(as []slog.Attr) slog.Handler {
	return quietSessions{q.Handler.WithAttrs(as)}
}

func (q quietSessions) WithGroup(name string) slog.Handler {
	return quietSessions{q.Handler.WithGroup(name)}
}

// RunHTTP serves the MCP server built from opts over Streamable HTTP as cfg
// says until ctx is done, then shuts down gracefully: GET /healthz answers
// 503, no new connection is accepted, and the calls in flight finish
// (bounded by cfg.ShutdownTimeout) before RunHTTP returns. It returns nil
// after a clean shutdown.
func RunHTTP(ctx context.Context, opts Options, cfg HTTPConfig) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	opts.Logger = slog.New(quietSessions{opts.logger().Handler()})
	s, err := New(opts)
	if err != nil {
		return err
	}
	h, err := NewHTTPHandler(s, opts, cfg.path())
	if err != nil {
		return err
	}
	log := opts.logger()
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	auth := "none"
	if opts.MCPToken != "" {
		auth = "bearer"
	}
	host, _, _ := net.SplitHostPort(cfg.Addr)
	if !isLoopbackHost(host) && opts.MCPToken == "" {
		log.Warn("serving a non-loopback address without authentication: anyone who reaches it can call every enabled tool; set "+EnvMCPToken+" or "+EnvMCPTokenFile,
			"addr", ln.Addr().String())
	}
	log.Info("serving streamable http", "addr", ln.Addr().String(), "path", cfg.path(), "auth", auth)
	if cfg.Listening != nil {
		cfg.Listening(ln.Addr())
	}
	select {
	case err := <-served:
		return fmt.Errorf("serve http: %w", err)
	case <-ctx.Done():
	}
	h.Drain()
	timeout := cfg.ShutdownTimeout
	if timeout <= 0 {
		timeout = opts.timeout() + 5*time.Second
	}
	log.Info("shutting down: finishing the calls in flight", "timeout", timeout.String())
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
		return fmt.Errorf("shut down http: calls still in flight after %s: %w", timeout, err)
	}
	return nil
}

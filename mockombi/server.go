package mockombi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultAPIKey is the API key used when Options.APIKey is empty.
const DefaultAPIKey = "0b6d0e2c4f8a4d1e9c3b7a5f2e1d4c6b"

// maxRequestBody caps how much of a request body is read and journaled.
const maxRequestBody = 16 << 20

// Options configure a Server. The zero value is a usable mock.
type Options struct {
	// APIKey is the accepted ApiKey; "" means DefaultAPIKey.
	APIKey string
	// Users are the accounts that can log in; nil means DefaultUsers().
	Users []User
	// DataSet selects the seed: "" or "default" for the realistic set,
	// "large" for the generated budget-test set.
	DataSet string
	// BasePath is a reverse-proxy prefix such as "/ombi"; "" means none.
	BasePath string
	// Latency is added to every upstream (non-control) request; 0 means none.
	Latency time.Duration
	// TokenTTL is the JWT lifetime; 0 means 7 days (1 year with rememberMe).
	TokenTTL time.Duration
	// StaticDir, when set, is a built frontend served at "/".
	StaticDir string
	// Log receives one JSON line per request; nil means no log.
	Log io.Writer
	// Clock is the time source; nil means time.Now.
	Clock func() time.Time
}

// User is a login account of the mock.
type User struct {
	Username string
	Password string
	Role     string // "admin" | "power_user" | "user"
}

// DefaultUsers returns the accounts used when Options.Users is nil: one per role.
func DefaultUsers() []User {
	return []User{
		{Username: "admin", Password: "OmbiAdmin1!", Role: RoleAdmin},
		{Username: "power", Password: "OmbiPower1!", Role: RolePowerUser},
		{Username: "user", Password: "OmbiUser1!", Role: RoleUser},
	}
}

// Role names accepted in User.Role.
const (
	RoleAdmin     = "admin"
	RolePowerUser = "power_user"
	RoleUser      = "user"
)

// Credentials is what GET /_mock/credentials returns.
type Credentials struct {
	APIKey string           `json:"api_key"`
	Users  []CredentialUser `json:"users"`
}

// CredentialUser is one login account in Credentials.
type CredentialUser struct {
	Username string `json:"username"`
	Password string `json:"password"`
	Role     string `json:"role"`
}

// Canary is one planted secret: its name, its exact value and where it lives.
type Canary struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Where string `json:"where"`
}

// Server is a stateful mock of the Ombi HTTP API with a control API under /_mock/.
type Server struct {
	opts     Options
	basePath string
	users    []User
	router   *router
	store    *store
	journal  *journal
	faults   *faultSet
	quirks   *quirkSet
	auth     *authKeys

	mu   sync.Mutex
	ln   net.Listener
	http *http.Server
}

// New builds a Server from opts; it does not listen. It panics only when the
// embedded seed data is broken, which is a build defect.
func New(opts Options) *Server {
	if opts.APIKey == "" {
		opts.APIKey = DefaultAPIKey
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.TokenTTL == 0 {
		opts.TokenTTL = 7 * 24 * time.Hour
	}
	users := opts.Users
	if users == nil {
		users = DefaultUsers()
	}
	s := &Server{
		opts:     opts,
		basePath: strings.TrimSuffix(opts.BasePath, "/"),
		users:    append([]User(nil), users...),
		journal:  &journal{},
		faults:   &faultSet{},
		quirks:   newQuirkSet(),
		auth:     newAuthKeys(),
	}
	if s.basePath != "" && !strings.HasPrefix(s.basePath, "/") {
		s.basePath = "/" + s.basePath
	}
	rt, err := newRouter(s.routes())
	if err != nil {
		panic(err)
	}
	s.router = rt
	st, err := newStore(opts.DataSet, s.users, opts.Clock)
	if err != nil {
		panic(fmt.Errorf("load mockombi seed: %w", err))
	}
	s.store = st
	return s
}

// Handler returns the upstream routes plus the /_mock/ control API.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.serve) }

// Start listens on addr (for example "127.0.0.1:0") and serves in the background.
func (s *Server) Start(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	s.mu.Lock()
	s.ln, s.http = ln, srv
	s.mu.Unlock()
	go func() { _ = srv.Serve(ln) }()
	return nil
}

// URL is the base URL clients use, including BasePath; "" before Start.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return ""
	}
	return "http://" + s.ln.Addr().String() + s.basePath
}

// Close stops the listener and open connections.
func (s *Server) Close() error {
	s.mu.Lock()
	srv := s.http
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	return srv.Close()
}

// Shutdown stops accepting connections and waits for active ones until ctx ends.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	srv := s.http
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	return srv.Shutdown(ctx)
}

// Reset puts the store back to its seed, clears journal, faults and quirks,
// and rotates auth so earlier tokens stop working.
func (s *Server) Reset() {
	if err := s.store.reset(); err != nil {
		panic(fmt.Errorf("reload mockombi seed: %w", err))
	}
	s.journal.clear()
	s.faults.clear()
	s.quirks.reset()
	s.auth.rotate()
}

// Journal returns copies of the recorded upstream calls in arrival order.
func (s *Server) Journal() []Call { return s.journal.list() }

// ClearJournal forgets every recorded call.
func (s *Server) ClearJournal() { s.journal.clear() }

// InjectFault adds a fault; it fails when the fault is malformed.
func (s *Server) InjectFault(f Fault) error { return s.faults.add(f) }

// ClearFaults removes every fault.
func (s *Server) ClearFaults() { s.faults.clear() }

// SetQuirk switches a named quirk; an unknown name is an error.
func (s *Server) SetQuirk(name string, on bool) error { return s.quirks.set(name, on) }

// Quirks lists every quirk name.
func (s *Server) Quirks() []string { return quirkNames() }

// Canaries lists every planted secret.
func (s *Server) Canaries() []Canary {
	var out []Canary
	s.store.Read(func(st *store) { out = append(out, st.canaries...) })
	return out
}

// RotateAuth makes every issued JWT invalid.
func (s *Server) RotateAuth() { s.auth.rotate() }

// Credentials returns the API key and login accounts.
func (s *Server) Credentials() Credentials {
	c := Credentials{APIKey: s.opts.APIKey, Users: []CredentialUser{}}
	for _, u := range s.users {
		c.Users = append(c.Users, CredentialUser(u))
	}
	return c
}

// now is the injected clock.
func (s *Server) now() time.Time { return s.opts.Clock() }

// serve is the whole pipeline: control API, CORS, journal, latency, faults,
// base path, API key middleware, routing, authorization and the handler.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	escaped := r.URL.EscapedPath()
	if rest, ok := s.controlPath(escaped); ok {
		s.serveControl(w, r, rest)
		return
	}
	start := time.Now()
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxRequestBody))
	_ = r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))

	rec := &recorder{ResponseWriter: w}
	reset := false // a reset fault answers nothing: the journal records status 0
	call := Call{
		Method: r.Method,
		Path:   escaped,
		Query:  r.URL.RawQuery,
		Header: r.Header.Clone(),
		Body:   journalBody(body),
	}
	defer func() {
		call.Status = rec.statusCode()
		if reset {
			call.Status = 0
		}
		s.journal.add(call)
		s.logRequest(call, time.Since(start))
	}()

	s.cors(rec, r)
	if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
		rec.WriteHeader(http.StatusNoContent)
		return
	}
	if s.opts.Latency > 0 {
		select {
		case <-time.After(s.opts.Latency):
		case <-r.Context().Done():
			return
		}
	}

	upstream, inBase := s.stripBase(escaped)
	var wrongType bool
	if f, name, ok := s.faults.match(r.Method, upstream, unescape(upstream), escaped); ok {
		call.Fault = name
		reset = f.Kind == FaultReset
		if handled := s.applyFault(rec, r, f); handled {
			return
		}
		wrongType = f.Kind == FaultWrongContentType
	}
	var out http.ResponseWriter = rec
	if wrongType {
		out = &contentTypeOverride{ResponseWriter: rec}
	}
	if !inBase {
		http.NotFound(out, r)
		return
	}
	if isAPIPath(upstream) {
		call.Route = s.serveAPI(out, r, upstream)
		return
	}
	if cr, params, _ := s.router.match(r.Method, upstream); cr != nil {
		call.Route = cr.pattern
		s.dispatch(out, r, cr, params, nil)
		return
	}
	s.serveStatic(out, r, upstream)
}

// serveAPI runs the Ombi middleware order for /api paths and returns the
// matched route pattern.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, upstream string) string {
	p, stop := s.authenticate(w, r)
	if stop {
		return ""
	}
	cr, params, otherMethod := s.router.match(r.Method, upstream)
	if cr == nil {
		if otherMethod {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return ""
		}
		w.WriteHeader(http.StatusNotFound)
		return ""
	}
	s.dispatch(w, r, cr, params, p)
	return cr.pattern
}

// dispatch checks the route's auth level and runs its handler, turning a panic
// into Ombi's 500 {"error": ...} body.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request, cr *compiledRoute, params map[string]string, p *principal) {
	if !s.authorize(w, r, cr.auth, p) {
		return
	}
	for k, v := range params {
		r.SetPathValue(k, v)
	}
	r = r.WithContext(withPrincipal(r.Context(), p))
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			writeOmbiError(w, http.StatusInternalServerError, fmt.Sprint(v))
		}
	}()
	cr.handler(w, r)
}

// stripBase removes BasePath from an escaped path; ok is false when the path
// lies outside it.
func (s *Server) stripBase(escaped string) (string, bool) {
	if s.basePath == "" {
		return escaped, true
	}
	if len(escaped) >= len(s.basePath) && strings.EqualFold(escaped[:len(s.basePath)], s.basePath) {
		rest := escaped[len(s.basePath):]
		if rest == "" {
			return "/", true
		}
		if strings.HasPrefix(rest, "/") {
			return rest, true
		}
	}
	return escaped, false
}

// isAPIPath reports whether the Ombi API middleware applies (paths starting
// with the segment /api, any case).
func isAPIPath(p string) bool {
	if len(p) < 4 || !strings.EqualFold(p[:4], "/api") {
		return false
	}
	return len(p) == 4 || p[4] == '/'
}

// cors answers browsers from any origin, as a development mock should.
func (s *Server) cors(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Set("Access-Control-Expose-Headers", "Retry-After, WWW-Authenticate, Content-Disposition")
	if r.Method == http.MethodOptions {
		h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE, PATCH, OPTIONS")
		h.Set("Access-Control-Allow-Headers", allowHeaders(r.Header.Get("Access-Control-Request-Headers")))
		h.Set("Access-Control-Max-Age", "600")
	}
}

// corsHeaders are the request headers Ombi's clients send.
const corsHeaders = "Authorization, ApiKey, UserName, ApiAlias, UserAccessToken, Content-Type, Accept, X-Requested-With"

// allowHeaders lists corsHeaders plus any other header the preflight asked
// for, each once (names compared case-insensitively).
func allowHeaders(requested string) string {
	out := strings.Split(corsHeaders, ", ")
	for _, h := range strings.Split(requested, ",") {
		h = strings.TrimSpace(h)
		if h != "" && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, h) }) {
			out = append(out, h)
		}
	}
	return strings.Join(out, ", ")
}

// logRequest writes one JSON line per upstream request to Options.Log.
func (s *Server) logRequest(c Call, d time.Duration) {
	if s.opts.Log == nil {
		return
	}
	line, err := json.Marshal(map[string]any{
		"time":        s.now().UTC().Format(time.RFC3339Nano),
		"method":      c.Method,
		"path":        c.Path,
		"query":       c.Query,
		"status":      c.Status,
		"route":       c.Route,
		"fault":       c.Fault,
		"duration_ms": float64(d.Microseconds()) / 1000,
	})
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = s.opts.Log.Write(append(line, '\n'))
}

// recorder remembers the status a handler wrote.
type recorder struct {
	http.ResponseWriter
	status int
}

// WriteHeader records the status.
func (rw *recorder) WriteHeader(code int) {
	if rw.status == 0 {
		rw.status = code
	}
	rw.ResponseWriter.WriteHeader(code)
}

// Write records an implicit 200.
func (rw *recorder) Write(b []byte) (int, error) {
	if rw.status == 0 {
		rw.status = http.StatusOK
	}
	return rw.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach Flush and Hijack.
func (rw *recorder) Unwrap() http.ResponseWriter { return rw.ResponseWriter }

// statusCode is the recorded status, 200 when the handler wrote nothing.
func (rw *recorder) statusCode() int {
	if rw.status == 0 {
		return http.StatusOK
	}
	return rw.status
}

// contentTypeOverride replaces the response content type with text/html.
type contentTypeOverride struct {
	http.ResponseWriter
	done bool
}

// WriteHeader swaps the content type before the header goes out.
func (c *contentTypeOverride) WriteHeader(code int) {
	if !c.done {
		c.done = true
		c.Header().Set("Content-Type", "text/html; charset=utf-8")
	}
	c.ResponseWriter.WriteHeader(code)
}

// Write makes sure the header swap happened.
func (c *contentTypeOverride) Write(b []byte) (int, error) {
	if !c.done {
		c.WriteHeader(http.StatusOK)
	}
	return c.ResponseWriter.Write(b)
}

// Unwrap exposes the underlying writer.
func (c *contentTypeOverride) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// unescape is the unescaped form of an escaped path, or the path itself.
func unescape(p string) string {
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
}

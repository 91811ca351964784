package ombi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// reasonEmptyBody is the SchemaError reason of a 200 answer without a body
// where JSON was expected.
const reasonEmptyBody = "empty body where JSON was expected"

// Client is the one upstream Ombi client every tool shares (go-github's
// shape): NewRequest builds a request against the base URL, do sends it with
// authentication, the per-call deadline and the bounded read, and decodes the
// JSON answer. Endpoint methods live in the domain files; each is a few lines
// ending in a doc comment line "upstream: METHOD /literal/path/{param}".
//
// Upstream policy, whatever the request:
//   - a redirect to another origin than OMBI_URL's is never followed (a
//     307/308 would re-send the body, the login's password included); it
//     fails as a RedirectError. Same-origin redirects are followed, at most
//     MaxRedirects.
//   - a write goes through its own transport with keep-alives off: it never
//     rides a reused connection, so no layer replays it when upstream drops
//     one (Go's transport retries idempotent-looking requests such as the
//     newsletter opt-out GET only on reused connections).
//   - every upstream body is read under the per-call cap and the budget all
//     calls in flight share (Options.BodyBudgetBytes).
type Client struct {
	base      *url.URL
	origin    string       // normalised scheme://host:port of base
	http      *http.Client // reads and the login
	writeHTTP *http.Client // writes: one fresh connection each
	// writeTraced says writeHTTP runs on a transport of this client's own,
	// whose httptrace hooks prove that a failed write never left.
	writeTraced bool
	mode        string
	username    string
	password    string
	apiKey      string
	userName    string
	timeout     time.Duration
	maxBody     int64
	chunk       int64 // unit of a streamed read and of a call's admission
	bodies      *bodyBudget
	chunks      sync.Pool // *[]byte of chunk bytes
	log         *slog.Logger

	mu    sync.Mutex // guards token; held across a login so concurrent calls share one
	token string
}

// MaxRedirects bounds the same-origin redirects one request follows.
const MaxRedirects = 5

// BodyChunkBytes is the unit in which an answer of unknown length is read.
const BodyChunkBytes = 64 << 10

// AuthMode is the client's authentication mode (AuthJWT or AuthAPIKey).
func (c *Client) AuthMode() string { return c.mode }

// ActsAs is the user an API key acts as (Config.UserName); "" for the key's
// own admin principal or in AuthJWT mode.
func (c *Client) ActsAs() string { return c.userName }

// BodiesInUse is how many bytes of the shared body budget calls in flight
// hold now.
func (c *Client) BodiesInUse() int64 { return c.bodies.inUse() }

// Authentication modes (Config.AuthMode).
const (
	AuthJWT    = "jwt"     // log in with Username and Password; send the token as a bearer
	AuthAPIKey = "api_key" // send APIKey (and UserName, when set) on every request
)

// Config is what the client is built from. Every field is already
// validated and defaulted by the caller (server.Options).
type Config struct {
	URL        string       // Ombi's base URL
	HTTPClient *http.Client // nil: a client with a transport of its own
	AuthMode   string       // AuthJWT or AuthAPIKey
	Username   string       // AuthJWT login
	Password   string       // AuthJWT login
	APIKey     string       // AuthAPIKey
	UserName   string       // AuthAPIKey: the user the key acts as ("" for the key's admin)
	Timeout    time.Duration
	// MaxBodyBytes caps one answer; BodyBudgetBytes caps the bytes all
	// answers in flight hold together.
	MaxBodyBytes    int64
	BodyBudgetBytes int64
	Logger          *slog.Logger
}

// NewClient builds the upstream client.
func NewClient(o Config) (*Client, error) {
	base, err := url.Parse(strings.TrimRight(o.URL, "/"))
	if err != nil {
		return nil, fmt.Errorf("parse OMBI_URL: %w", err)
	}
	hc := &http.Client{Transport: cloneDefaultTransport()}
	if o.HTTPClient != nil {
		cp := *o.HTTPClient
		hc = &cp
	}
	wc := *hc
	var traced bool
	wc.Transport, traced = noReuse(hc.Transport)
	c := &Client{
		base: base, origin: originKey(base), http: hc, writeHTTP: &wc, writeTraced: traced, mode: o.AuthMode,
		username: o.Username, password: o.Password, apiKey: o.APIKey, userName: o.UserName,
		timeout: o.Timeout, maxBody: o.MaxBodyBytes, log: o.Logger,
	}
	c.chunk = min(BodyChunkBytes, c.maxBody+1)
	c.bodies = &bodyBudget{limit: o.BodyBudgetBytes}
	c.chunks.New = func() any {
		b := make([]byte, c.chunk)
		return &b
	}
	hc.CheckRedirect = c.checkRedirect
	wc.CheckRedirect = c.checkRedirect
	return c, nil
}

// cloneDefaultTransport is a transport of the client's own.
func cloneDefaultTransport() http.RoundTripper {
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		return t.Clone()
	}
	return http.DefaultTransport
}

// noReuse derives the write transport: a clone with keep-alives off, so a
// write always has a connection of its own and the transport never retries
// it (it only retries on reused connections). traced reports that the
// clone is an *http.Transport, whose GotConn hook then proves whether a
// failed write left. A RoundTripper of another kind is used as it is: the
// caller who supplied it owns its connection reuse.
func noReuse(rt http.RoundTripper) (_ http.RoundTripper, traced bool) {
	if rt == nil {
		rt = http.DefaultTransport
	}
	t, ok := rt.(*http.Transport)
	if !ok {
		return rt, false
	}
	w := t.Clone()
	w.DisableKeepAlives = true
	return w, true
}

// CloseIdle closes the idle upstream connections.
func (c *Client) CloseIdle() {
	c.http.CloseIdleConnections()
	c.writeHTTP.CloseIdleConnections()
}

type intentKey struct{}

// intent is what a call's context says about it: whether the calling tool
// mutates, and the mark, shared by every request of the call, that one of
// its writes was handed to the transport.
type intent struct {
	write bool
	sent  *atomic.Bool
}

// WithIntent records whether the calling tool mutates. The registry sets it
// for every call; requests built from a context without it count as writes.
// A context that already has an intent keeps its sent mark.
func WithIntent(ctx context.Context, write bool) context.Context {
	in := intent{write: write, sent: new(atomic.Bool)}
	if prev, ok := ctx.Value(intentKey{}).(intent); ok {
		in.sent = prev.sent
	}
	return context.WithValue(ctx, intentKey{}, in)
}

// ReadOnly marks a private read made by a write tool (e.g. the TV details
// read before a season request) as safe to replay once after a re-login.
func ReadOnly(ctx context.Context) context.Context { return WithIntent(ctx, false) }

func isWrite(ctx context.Context) bool {
	in, ok := ctx.Value(intentKey{}).(intent)
	return !ok || in.write
}

// writeSent reports whether a write of this call may have reached upstream
// (true when the context carries no intent: nothing is known).
func writeSent(ctx context.Context) bool {
	in, ok := ctx.Value(intentKey{}).(intent)
	return !ok || in.sent.Load()
}

func markWriteSent(ctx context.Context) {
	if in, ok := ctx.Value(intentKey{}).(intent); ok {
		in.sent.Store(true)
	}
}

// unsent marks err as a failure that happened before any write of the call
// left (a login, a private read, a write whose connection never opened),
// unless a write of the call may already have reached upstream.
func unsent(ctx context.Context, err error) error {
	if err == nil || writeSent(ctx) {
		return err
	}
	var u *UnsentError
	if errors.As(err, &u) {
		return err
	}
	return &UnsentError{err: err}
}

// NewRequest builds a request for relPath, a path relative to the base URL
// with every value already escaped (url.PathEscape for segments, url.Values
// for the query). Absolute paths, other origins and "." or ".." segments are
// refused. A non-nil body is sent as JSON.
func (c *Client) NewRequest(ctx context.Context, method, relPath string, body any) (*http.Request, error) {
	if strings.HasPrefix(relPath, "/") || strings.Contains(relPath, "://") {
		return nil, fmt.Errorf("build request: path %q is not relative", relPath)
	}
	pathPart, query, _ := strings.Cut(relPath, "?")
	for _, seg := range strings.Split(pathPart, "/") {
		raw, err := url.PathUnescape(seg)
		if err != nil {
			return nil, fmt.Errorf("build request: bad escape in path: %w", err)
		}
		if seg == "" || strings.TrimSpace(raw) == "" {
			return nil, fmt.Errorf("build request: empty path segment: %w", ErrPathValue)
		}
		if raw == "." || raw == ".." {
			return nil, &PathValueError{Value: raw}
		}
	}
	u, err := url.Parse(c.base.String() + "/" + pathPart)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	u.RawQuery = query
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("encode request body: %w", err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// Do sends req and decodes a JSON answer into v (nil: the body is read,
// bounded, and discarded). The whole call, login included, runs under the
// per-call deadline. In jwt mode a 401 on a read invalidates the cached
// token, logs in exactly once more and retries exactly once; a write is
// never replayed and its 401 is returned as is. A failure before a write
// left (admission, login) or of a read is marked unsent when no write of the
// call may have reached upstream, so it maps to its own error, never
// UNKNOWN_OUTCOME.
func (c *Client) Do(req *http.Request, v any) (err error) {
	write := isWrite(req.Context())
	op := req.Method + " " + strings.TrimPrefix(req.URL.EscapedPath(), c.base.EscapedPath())
	ctx, cancel := context.WithTimeout(req.Context(), c.timeout)
	defer cancel()
	req = req.WithContext(ctx)
	sent := false // this request is a write that may have reached upstream
	defer func() {
		if err != nil && !sent {
			err = unsent(ctx, err)
		}
	}()

	body := c.lease()
	defer body.done()
	if !body.grow(c.chunk) { // admission: nothing is sent without a first chunk
		return fmt.Errorf("admit %s: %w", op, ErrBodyBudget)
	}
	used, err := c.authorize(ctx, req)
	if err != nil {
		return err
	}
	resp, sent, err := c.send(req, write, op)
	if err != nil {
		return err
	}
	if resp.StatusCode == http.StatusUnauthorized && c.mode == AuthJWT && !write {
		drain(resp)
		c.invalidate(used)
		retry := req.Clone(ctx)
		if req.GetBody != nil {
			if retry.Body, err = req.GetBody(); err != nil {
				return fmt.Errorf("rewind request body: %w", err)
			}
		}
		if _, err := c.authorize(ctx, retry); err != nil {
			return err
		}
		if resp, _, err = c.send(retry, false, op); err != nil {
			return err
		}
	}
	defer drain(resp)
	if err := CheckResponse(resp); err != nil {
		return err
	}
	return c.decode(resp, op, write, v, body)
}

// send hands req to the transport of its intent. sent reports that req is
// a write that may have reached upstream (also after an error); a write
// whose connection provably never opened is not sent, and its error says
// so. A refused redirect is returned as the *RedirectError.
func (c *Client) send(req *http.Request, write bool, op string) (resp *http.Response, sent bool, err error) {
	hc := c.http
	var connected atomic.Bool
	if write {
		hc = c.writeHTTP
		if c.writeTraced {
			req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
				GotConn: func(httptrace.GotConnInfo) { connected.Store(true) },
			}))
		}
	}
	resp, err = hc.Do(req)
	if write && (err == nil || !((c.writeTraced && !connected.Load()) || dialFailed(err))) {
		sent = true
		markWriteSent(req.Context())
	}
	if err == nil {
		return resp, sent, nil
	}
	var redirect *RedirectError
	if errors.As(err, &redirect) {
		return nil, sent, redirect
	}
	return nil, sent, &TransportError{Op: op, Write: sent, Err: err}
}

// dialFailed reports a failure to open the connection: nothing was sent.
func dialFailed(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// decode reads the body through the hard cap and the shared budget, and
// decodes it into v.
func (c *Client) decode(resp *http.Response, op string, write bool, v any, l *lease) error {
	buf, err := c.readBody(resp, op, write, l)
	if err != nil {
		return err
	}
	trimmed := bytes.TrimSpace(buf)
	if v == nil {
		// an answer the tool does not read (Ombi's empty Ok()) must still be
		// empty or JSON: an HTML page or garbage is not Ombi's answer
		if len(trimmed) == 0 || resp.StatusCode == http.StatusNoContent {
			return nil
		}
		if err := htmlContent(resp, op); err != nil {
			return err
		}
		if !json.Valid(trimmed) {
			return &SchemaError{Op: op, Reason: "not valid JSON"}
		}
		return nil
	}
	if resp.StatusCode == http.StatusNoContent {
		return ErrNoContent
	}
	if len(trimmed) == 0 {
		return &SchemaError{Op: op, Reason: reasonEmptyBody}
	}
	if err := htmlContent(resp, op); err != nil {
		return err
	}
	if bytes.Equal(trimmed, []byte("null")) {
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.Elem().Kind() == reflect.Struct {
			return ErrNoContent
		}
		return nil
	}
	// Unmarshal decodes in place: no second buffer as a Decoder would grow.
	if err := json.Unmarshal(trimmed, v); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) && syn.Offset > 1 && json.Valid(trimmed[:syn.Offset-1]) {
			return &SchemaError{Op: op, Reason: "trailing data after the JSON value"}
		}
		return &SchemaError{Op: op, Reason: decodeReason(err)}
	}
	return nil
}

// readBody reads an answer under the per-call cap and the shared budget,
// reserving before it allocates. A known length over the cap is refused
// unread and one of at most the cap is read into one exact buffer; an
// unknown length is read in pooled chunks (cut as soon as it passes the
// cap) and assembled once when there is more than one. The bytes stay
// valid until l is done. A budget refusal is ErrBodyBudget; for a write,
// whose answer is then lost, inside a TransportError.
func (c *Client) readBody(resp *http.Response, op string, write bool, l *lease) ([]byte, error) {
	tooLarge := func() error { return fmt.Errorf("read %s: %w", op, ErrBodyTooLarge) }
	overBudget := func() error {
		if write {
			return &TransportError{Op: op, Write: true, Err: fmt.Errorf("read answer: %w", ErrBodyBudget)}
		}
		return fmt.Errorf("read %s: %w", op, ErrBodyBudget)
	}
	if n := resp.ContentLength; n >= 0 {
		if n > c.maxBody {
			return nil, tooLarge()
		}
		if n > l.held && !l.grow(n-l.held) {
			return nil, overBudget()
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(resp.Body, buf); err != nil {
			return nil, &TransportError{Op: op, Write: write, Err: err}
		}
		return buf, nil
	}
	var (
		parts [][]byte
		total int64
	)
	for {
		if int64(len(l.chunks)+1)*c.chunk > l.held && !l.grow(c.chunk) {
			return nil, overBudget()
		}
		buf := l.getChunk()
		n, err := fill(resp.Body, buf)
		total += int64(n)
		parts = append(parts, buf[:n])
		if total > c.maxBody {
			return nil, tooLarge()
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &TransportError{Op: op, Write: write, Err: err}
		}
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	if !l.grow(total) {
		return nil, overBudget()
	}
	buf := make([]byte, 0, total)
	for _, p := range parts {
		buf = append(buf, p...)
	}
	l.putChunks()
	return buf, nil
}

// fill reads into buf until it is full or r fails; io.EOF is the end of
// the answer, any other error (a truncated body included) a failure.
func fill(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// lease is one call's share of the body budget and the pooled chunks it
// read into. done gives both back; a lease is used by one goroutine.
type lease struct {
	c      *Client
	held   int64
	chunks []*[]byte
}

func (c *Client) lease() *lease { return &lease{c: c} }

// grow reserves n more bytes; false (nothing reserved) when they do not fit.
func (l *lease) grow(n int64) bool {
	if !l.c.bodies.reserve(n) {
		return false
	}
	l.held += n
	return true
}

func (l *lease) getChunk() []byte {
	b := l.c.chunks.Get().(*[]byte)
	l.chunks = append(l.chunks, b)
	return *b
}

// putChunks returns the chunks to the pool and their bytes to the budget.
func (l *lease) putChunks() {
	n := min(int64(len(l.chunks))*l.c.chunk, l.held)
	for _, b := range l.chunks {
		l.c.chunks.Put(b)
	}
	l.chunks = nil
	l.held -= n
	l.c.bodies.release(n)
}

// done ends the lease: every chunk and reserved byte goes back.
func (l *lease) done() {
	l.putChunks()
	l.c.bodies.release(l.held)
	l.held = 0
}

// htmlContent refuses an answer served as HTML or XML where JSON was due.
func htmlContent(resp *http.Response, op string) error {
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		mt, _, _ := mime.ParseMediaType(ct)
		if strings.Contains(mt, "html") || strings.Contains(mt, "xml") {
			return &SchemaError{Op: op, Reason: "content type " + mt + " instead of JSON"}
		}
	}
	return nil
}

// decodeReason describes a decode failure without quoting the body.
func decodeReason(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %q is not a %s", te.Field, te.Type)
	}
	return "not valid JSON"
}

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
}

// authorize sets the credential headers and returns the JWT it used ("" in
// api_key mode). api_key mode sends ApiKey (+ UserName) and never
// Authorization or a login.
func (c *Client) authorize(ctx context.Context, req *http.Request) (string, error) {
	if c.mode == AuthAPIKey {
		req.Header.Set("ApiKey", c.apiKey)
		if c.userName != "" {
			req.Header.Set("UserName", c.userName)
		}
		return "", nil
	}
	tok, err := c.jwt(ctx)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	return tok, nil
}

// jwt returns the cached token, logging in when there is none. The mutex is
// held across the login so concurrent calls share a single login.
func (c *Client) jwt(ctx context.Context) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.token != "" {
		return c.token, nil
	}
	tok, err := c.login(ctx)
	if err != nil {
		return "", err
	}
	c.token = tok
	return tok, nil
}

// invalidate drops the cached token if it is still the one that failed.
func (c *Client) invalidate(used string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.token == used {
		c.token = ""
	}
}

type loginRequest struct {
	Username   string `json:"username"`
	Password   string `json:"password"`
	RememberMe bool   `json:"rememberMe"`
}

type tokenResponse struct {
	AccessToken string `json:"access_token"`
}

// login obtains a JWT. A redirect off OMBI_URL's origin is refused before
// the password could follow it.
//
// upstream: POST /api/v1/Token
func (c *Client) login(ctx context.Context) (string, error) {
	req, err := c.NewRequest(ctx, http.MethodPost, "api/v1/Token", loginRequest{Username: c.username, Password: c.password})
	if err != nil {
		return "", err
	}
	op := "POST /api/v1/Token"
	body := c.lease()
	defer body.done()
	if !body.grow(c.chunk) {
		return "", fmt.Errorf("admit %s: %w", op, ErrBodyBudget)
	}
	resp, _, err := c.send(req, false, op)
	if err != nil {
		return "", err
	}
	defer drain(resp)
	if err := CheckResponse(resp); err != nil {
		return "", err
	}
	var t tokenResponse
	if err := c.decode(resp, op, false, &t, body); err != nil {
		return "", err
	}
	if t.AccessToken == "" {
		return "", &SchemaError{Op: op, Reason: "no access_token in the login answer"}
	}
	c.log.Debug("logged in to ombi", "mode", c.mode)
	return t.AccessToken, nil
}

// checkRedirect follows at most MaxRedirects redirects, and none that
// leaves OMBI_URL's origin (scheme, host and port): Go would re-send the
// body of a 307/308 there (the login's password) and the answer would be
// trusted (its token). Credentials never go to another origin, so neither
// does any request.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	status := 0
	if req.Response != nil {
		status = req.Response.StatusCode
	}
	if originKey(req.URL) != c.origin {
		return &RedirectError{Status: status, Origin: displayOrigin(req.URL)}
	}
	if len(via) >= MaxRedirects {
		return &RedirectError{Status: status, TooMany: true}
	}
	return nil
}

// originKey is the normalised origin of u: lower-case scheme and host, and
// the port spelled out (80 and 443 by default).
func originKey(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

var (
	schemeText = regexp.MustCompile(`^[a-z][a-z0-9+.-]{0,15}$`)
	hostText   = regexp.MustCompile(`^(\[[0-9a-f:.]{2,45}\]|[a-z0-9.-]{1,253})(:[0-9]{1,5})?$`)
)

// displayOrigin spells u's origin for an error message: scheme and host
// only (never user info, path or query), or a fixed text when either is
// not plain.
func displayOrigin(u *url.URL) string {
	scheme, host := strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	if !schemeText.MatchString(scheme) || !hostText.MatchString(host) {
		return "an origin that cannot be displayed"
	}
	return scheme + "://" + host
}

// Secrets are the values no output may ever contain.
func (c *Client) Secrets() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return []string{c.apiKey, c.password, c.token}
}

// send builds, sends and decodes one upstream call into a T.
func send[T any](ctx context.Context, c *Client, method, relPath string, body any) (T, error) {
	var out T
	req, err := c.NewRequest(ctx, method, relPath, body)
	if err != nil {
		return out, err
	}
	return out, c.Do(req, &out)
}

func seg(s string) string { return url.PathEscape(s) }

func SegInt(n int) string { return strconv.Itoa(n) }

// sendDiscard sends one call whose answer body is read, bounded, and
// ignored (Ombi's empty 200 answers).
func sendDiscard(ctx context.Context, c *Client, method, relPath string, body any) error {
	req, err := c.NewRequest(ctx, method, relPath, body)
	if err != nil {
		return err
	}
	return c.Do(req, nil)
}

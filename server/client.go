package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"time"
)

// Client is the one upstream Ombi client every tool shares (go-github's
// shape): newRequest builds a request against the base URL, do sends it with
// authentication, the per-call deadline and the bounded read, and decodes the
// JSON answer. Endpoint methods live in the domain files; each is a few lines
// ending in a doc comment line "upstream: METHOD /literal/path/{param}".
type Client struct {
	base     *url.URL
	http     *http.Client
	mode     string
	username string
	password string
	apiKey   string
	userName string
	timeout  time.Duration
	maxBody  int64
	log      *slog.Logger

	mu    sync.Mutex // guards token; held across a login so concurrent calls share one
	token string
}

// newClient builds the upstream client from validated Options.
func newClient(o Options) (*Client, error) {
	base, err := url.Parse(strings.TrimRight(o.URL, "/"))
	if err != nil {
		return nil, fmt.Errorf("parse OMBI_URL: %w", err)
	}
	hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	if o.HTTPClient != nil {
		cp := *o.HTTPClient
		hc = &cp
	}
	c := &Client{
		base: base, http: hc, mode: o.AuthMode,
		username: o.Username, password: o.Password, apiKey: o.APIKey, userName: o.UserName,
		timeout: o.timeout(), maxBody: o.maxBody(), log: o.logger(),
	}
	hc.CheckRedirect = c.checkRedirect
	return c, nil
}

type intentKey struct{}

// withIntent records whether the calling tool mutates. The registry sets it
// for every call; requests built from a context without it count as writes.
func withIntent(ctx context.Context, write bool) context.Context {
	return context.WithValue(ctx, intentKey{}, write)
}

// readOnly marks a private read made by a write tool (e.g. the TV details
// read before a season request) as safe to replay once after a re-login.
func readOnly(ctx context.Context) context.Context { return withIntent(ctx, false) }

func isWrite(ctx context.Context) bool {
	w, ok := ctx.Value(intentKey{}).(bool)
	return !ok || w
}

// newRequest builds a request for relPath, a path relative to the base URL
// with every value already escaped (url.PathEscape for segments, url.Values
// for the query). Absolute paths, other origins and "." or ".." segments are
// refused. A non-nil body is sent as JSON.
func (c *Client) newRequest(ctx context.Context, method, relPath string, body any) (*http.Request, error) {
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
			return nil, fmt.Errorf("build request: %w", ErrPathValue)
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

// do sends req and decodes a JSON answer into v (nil: the body is read,
// bounded, and discarded). The whole call, login included, runs under the
// per-call deadline. In jwt mode a 401 on a read invalidates the cached
// token, logs in exactly once more and retries exactly once; a write is
// never replayed and its 401 is returned as is.
func (c *Client) do(req *http.Request, v any) error {
	write := isWrite(req.Context())
	op := req.Method + " " + strings.TrimPrefix(req.URL.EscapedPath(), c.base.EscapedPath())
	ctx, cancel := context.WithTimeout(req.Context(), c.timeout)
	defer cancel()
	req = req.WithContext(ctx)

	used, err := c.authorize(ctx, req)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return &TransportError{Op: op, Write: write, Err: err}
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
		if resp, err = c.http.Do(retry); err != nil {
			return &TransportError{Op: op, Write: write, Err: err}
		}
	}
	defer drain(resp)
	if err := checkResponse(resp); err != nil {
		return err
	}
	return c.decode(resp, op, write, v)
}

// decode reads the body through the hard cap and decodes it into v.
func (c *Client) decode(resp *http.Response, op string, write bool, v any) error {
	buf, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBody+1))
	if err != nil {
		return &TransportError{Op: op, Write: write, Err: err}
	}
	if int64(len(buf)) > c.maxBody {
		return fmt.Errorf("read %s: %w", op, ErrBodyTooLarge)
	}
	if v == nil {
		return nil
	}
	trimmed := bytes.TrimSpace(buf)
	if resp.StatusCode == http.StatusNoContent {
		return ErrNoContent
	}
	if len(trimmed) == 0 {
		return &SchemaError{Op: op, Reason: "empty body where JSON was expected"}
	}
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		mt, _, _ := mime.ParseMediaType(ct)
		if strings.Contains(mt, "html") || strings.Contains(mt, "xml") {
			return &SchemaError{Op: op, Reason: "content type " + mt + " instead of JSON"}
		}
	}
	if bytes.Equal(trimmed, []byte("null")) {
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.Elem().Kind() == reflect.Struct {
			return ErrNoContent
		}
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(v); err != nil {
		return &SchemaError{Op: op, Reason: decodeReason(err)}
	}
	if dec.InputOffset() != int64(len(trimmed)) {
		return &SchemaError{Op: op, Reason: "trailing data after the JSON value"}
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

// login obtains a JWT.
//
// upstream: POST /api/v1/Token
func (c *Client) login(ctx context.Context) (string, error) {
	req, err := c.newRequest(ctx, http.MethodPost, "api/v1/Token", loginRequest{Username: c.username, Password: c.password})
	if err != nil {
		return "", err
	}
	op := "POST /api/v1/Token"
	resp, err := c.http.Do(req)
	if err != nil {
		return "", &TransportError{Op: op, Err: err}
	}
	defer drain(resp)
	if err := checkResponse(resp); err != nil {
		return "", err
	}
	var t tokenResponse
	if err := c.decode(resp, op, false, &t); err != nil {
		return "", err
	}
	if t.AccessToken == "" {
		return "", &SchemaError{Op: op, Reason: "no access_token in the login answer"}
	}
	c.log.Debug("logged in to ombi", "mode", c.mode)
	return t.AccessToken, nil
}

// checkRedirect follows at most five redirects and strips every credential
// header when a redirect leaves the base URL's origin.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 5 {
		return errors.New("follow redirect: too many redirects")
	}
	if req.URL.Scheme != c.base.Scheme || req.URL.Host != c.base.Host {
		for _, h := range []string{"Authorization", "ApiKey", "UserName", "Cookie"} {
			req.Header.Del(h)
		}
	}
	return nil
}

// secrets are the values no output may ever contain.
func (c *Client) secrets() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return []string{c.apiKey, c.password, c.token}
}

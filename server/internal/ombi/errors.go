package ombi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Sentinels for errors.Is. Nothing matches error strings.
var (
	// ErrNoContent: upstream answered 204 or a JSON null where a record was
	// expected (Ombi's "not found" for many lookups).
	ErrNoContent = errors.New("upstream returned no content")
	// ErrBodyTooLarge: the upstream body exceeded the read cap.
	ErrBodyTooLarge = errors.New("upstream body exceeds the read cap")
	// ErrPathValue: a path value would change the route ("." or "..").
	ErrPathValue = errors.New("path value not allowed")
	// ErrBodyBudget: the upstream answers of the calls in flight already
	// hold the whole body budget (Options.BodyBudgetBytes).
	ErrBodyBudget = errors.New("upstream body budget exhausted")
)

// RedirectError is an upstream redirect the client refused: one to another
// origin than OMBI_URL's (never followed: the body and the credentials
// would go there), or one more than the bound. Origin is the target's
// scheme and host only, never a path, query or credential.
type RedirectError struct {
	Status  int
	Origin  string
	TooMany bool
}

// Error implements error.
func (e *RedirectError) Error() string {
	if e.TooMany {
		return fmt.Sprintf("follow redirect: more than %d redirects (the last HTTP %d)", MaxRedirects, e.Status)
	}
	return fmt.Sprintf("follow redirect: upstream answered HTTP %d to %s, another origin; refused", e.Status, e.Origin)
}

// PathValueError is a path segment NewRequest refused; value is the
// segment as the caller gave it, so the registry can blame its field.
type PathValueError struct{ Value string }

// Error implements error.
func (e *PathValueError) Error() string { return "build request: " + ErrPathValue.Error() }

// Unwrap returns ErrPathValue.
func (e *PathValueError) Unwrap() error { return ErrPathValue }

// UnsentError marks a failure that happened before any write of the call
// left: a login, an admission, a private read, a write whose connection
// never opened. The mapper treats it as a read's failure: it is never
// UNKNOWN_OUTCOME, and retrying is as safe as for a read.
type UnsentError struct{ err error }

// Error implements error.
func (e *UnsentError) Error() string { return e.err.Error() }

// Unwrap returns the failure.
func (e *UnsentError) Unwrap() error { return e.err }

// APIError is an upstream HTTP status outside 2xx. Message is fixed text
// chosen by the server; upstream bodies are never quoted.
type APIError struct {
	Status  int
	Code    string // upstream business code when one was safely recognised
	Message string
}

// Error implements error.
func (e *APIError) Error() string {
	return fmt.Sprintf("upstream answered HTTP %d: %s", e.Status, e.Message)
}

// RateLimitError is an upstream 429. HasRetryAfter reports whether a readable
// Retry-After header came with it; RetryAfter may then be zero ("retry now").
type RateLimitError struct {
	RetryAfter    time.Duration
	HasRetryAfter bool
}

// Error implements error.
func (e *RateLimitError) Error() string {
	return "upstream rate limit reached (HTTP 429)"
}

// BusinessError is an HTTP 200 carrying a failure: RequestEngineResult with
// isError or result:false, an IdentityResult failure, or a tester false.
// Message is already sanitised.
type BusinessError struct {
	Code    string
	Message string
}

// Error implements error.
func (e *BusinessError) Error() string {
	if e.Message == "" {
		return "upstream reported a failure"
	}
	return "upstream reported a failure: " + e.Message
}

// SchemaError is an upstream body that is not JSON or not the expected shape.
type SchemaError struct {
	Op     string // "GET /api/v1/Search/movie/{searchTerm}"
	Reason string
}

// Error implements error.
func (e *SchemaError) Error() string {
	return fmt.Sprintf("decode upstream answer of %s: %s", e.Op, e.Reason)
}

// TransportError is a failure to send or receive: connection refused or
// reset, a deadline, a cancelled call. Write says whether the request was a
// mutation, which decides between retryable and UNKNOWN_OUTCOME.
type TransportError struct {
	Op    string
	Write bool
	Err   error
}

// Error implements error.
func (e *TransportError) Error() string {
	if e.Timeout() {
		return fmt.Sprintf("call %s: deadline exceeded", e.Op)
	}
	return fmt.Sprintf("call %s: connection failed", e.Op)
}

// Unwrap returns the underlying failure.
func (e *TransportError) Unwrap() error { return e.Err }

// Timeout reports whether the failure was the per-call deadline.
func (e *TransportError) Timeout() bool {
	var t interface{ Timeout() bool }
	return errors.Is(e.Err, context.DeadlineExceeded) || (errors.As(e.Err, &t) && t.Timeout())
}

// ArgumentError rejects tool arguments before any upstream traffic. Field is
// the JSON pointer of the failing argument ("" when it is the whole input).
type ArgumentError struct {
	Field   string
	Message string
}

// Error implements error.
func (e *ArgumentError) Error() string { return "invalid argument " + e.Field + ": " + e.Message }

// StatusMessage is the fixed text for an upstream status.
func StatusMessage(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "upstream refused the credentials (HTTP 401)"
	case http.StatusForbidden:
		return "upstream denied this operation to the configured principal (HTTP 403)"
	case http.StatusNotFound:
		return "upstream has no such resource (HTTP 404)"
	}
	text := http.StatusText(status)
	if text == "" {
		text = "unexpected status"
	}
	return fmt.Sprintf("upstream answered HTTP %d %s", status, text)
}

// CheckResponse turns a non-2xx upstream answer into a typed error. The
// body is never quoted: messages are fixed per status.
func CheckResponse(resp *http.Response) error {
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		after, ok := ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		return &RateLimitError{RetryAfter: after, HasRetryAfter: ok}
	}
	return &APIError{Status: resp.StatusCode, Message: StatusMessage(resp.StatusCode)}
}

// MaxRetryAfterSeconds bounds a Retry-After value (one day).
const MaxRetryAfterSeconds = 86400

// ParseRetryAfter reads delay-seconds or an HTTP date. ok is false when the
// header is absent or unreadable; a date in the past or "0" is a zero delay.
func ParseRetryAfter(v string, now time.Time) (after time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n < 0 {
			return 0, false
		}
		n = min(n, MaxRetryAfterSeconds)
		return time.Duration(n) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(t.Sub(now), 0), MaxRetryAfterSeconds*time.Second), true
	}
	return 0, false
}

package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Error codes of the envelope's error object (04-results).
const (
	codeInvalidArgument        = "INVALID_ARGUMENT"
	codeAuthenticationFailed   = "AUTHENTICATION_FAILED"
	codeForbidden              = "FORBIDDEN"
	codeNotFound               = "NOT_FOUND"
	codeUnsupportedCapability  = "UNSUPPORTED_CAPABILITY"
	codeUpstreamRejected       = "UPSTREAM_REJECTED"
	codeRateLimited            = "RATE_LIMITED"
	codeTimeout                = "TIMEOUT"
	codeUnknownOutcome         = "UNKNOWN_OUTCOME"
	codeConflict               = "CONFLICT"
	codePartialFailure         = "PARTIAL_FAILURE"
	codeUpstreamSchemaMismatch = "UPSTREAM_SCHEMA_MISMATCH"
	codeInternalError          = "INTERNAL_ERROR"
)

// Sentinels for errors.Is. Nothing matches error strings.
var (
	// errNoContent: upstream answered 204 or a JSON null where a record was
	// expected (Ombi's "not found" for many lookups).
	errNoContent = errors.New("upstream returned no content")
	// errBodyTooLarge: the upstream body exceeded the read cap.
	errBodyTooLarge = errors.New("upstream body exceeds the read cap")
	// errPathValue: a path value would change the route ("." or "..").
	errPathValue = errors.New("path value not allowed")
	// errBodyBudget: the upstream answers of the calls in flight already
	// hold the whole body budget (Options.BodyBudgetBytes).
	errBodyBudget = errors.New("upstream body budget exhausted")
)

// redirectError is an upstream redirect the client refused: one to another
// origin than OMBI_URL's (never followed: the body and the credentials
// would go there), or one more than the bound. Origin is the target's
// scheme and host only, never a path, query or credential.
type redirectError struct {
	Status  int
	Origin  string
	TooMany bool
}

// Error implements error.
func (e *redirectError) Error() string {
	if e.TooMany {
		return fmt.Sprintf("follow redirect: more than %d redirects (the last HTTP %d)", maxRedirects, e.Status)
	}
	return fmt.Sprintf("follow redirect: upstream answered HTTP %d to %s, another origin; refused", e.Status, e.Origin)
}

// pathValueError is a path segment newRequest refused; value is the
// segment as the caller gave it, so the registry can blame its field.
type pathValueError struct{ value string }

// Error implements error.
func (e *pathValueError) Error() string { return "build request: " + errPathValue.Error() }

// Unwrap returns errPathValue.
func (e *pathValueError) Unwrap() error { return errPathValue }

// blamePathValue turns a refused path value into an INVALID_ARGUMENT on the
// argument that carried it: the first (in pointer order) string of args
// equal to the refused segment. Any other error is returned as is.
func blamePathValue(err error, args json.RawMessage) error {
	var pv *pathValueError
	if !errors.As(err, &pv) {
		return err
	}
	var v any
	if json.Unmarshal(args, &v) != nil {
		return err
	}
	var found []string
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		switch t := v.(type) {
		case string:
			if t == pv.value {
				found = append(found, ptr)
			}
		case map[string]any:
			for k, e := range t {
				walk(e, ptr+"/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(k))
			}
		case []any:
			for i, e := range t {
				walk(e, ptr+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(v, "")
	if len(found) == 0 {
		return err
	}
	slices.Sort(found)
	return &argumentError{Field: found[0], Message: "must not be \".\" or \"..\" (it would change the upstream route)"}
}

// unsentError marks a failure that happened before any write of the call
// left: a login, an admission, a private read, a write whose connection
// never opened. The mapper treats it as a read's failure: it is never
// UNKNOWN_OUTCOME, and retrying is as safe as for a read.
type unsentError struct{ err error }

// Error implements error.
func (e *unsentError) Error() string { return e.err.Error() }

// Unwrap returns the failure.
func (e *unsentError) Unwrap() error { return e.err }

// apiError is an upstream HTTP status outside 2xx. Message is fixed text
// chosen by the server; upstream bodies are never quoted.
type apiError struct {
	Status  int
	Code    string // upstream business code when one was safely recognised
	Message string
}

// Error implements error.
func (e *apiError) Error() string {
	return fmt.Sprintf("upstream answered HTTP %d: %s", e.Status, e.Message)
}

// rateLimitError is an upstream 429. HasRetryAfter reports whether a readable
// Retry-After header came with it; RetryAfter may then be zero ("retry now").
type rateLimitError struct {
	RetryAfter    time.Duration
	HasRetryAfter bool
}

// Error implements error.
func (e *rateLimitError) Error() string {
	return "upstream rate limit reached (HTTP 429)"
}

// businessError is an HTTP 200 carrying a failure: RequestEngineResult with
// isError or result:false, an IdentityResult failure, or a tester false.
// Message is already sanitised.
type businessError struct {
	Code    string
	Message string
}

// Error implements error.
func (e *businessError) Error() string {
	if e.Message == "" {
		return "upstream reported a failure"
	}
	return "upstream reported a failure: " + e.Message
}

// schemaError is an upstream body that is not JSON or not the expected shape.
type schemaError struct {
	Op     string // "GET /api/v1/Search/movie/{searchTerm}"
	Reason string
}

// Error implements error.
func (e *schemaError) Error() string {
	return fmt.Sprintf("decode upstream answer of %s: %s", e.Op, e.Reason)
}

// transportError is a failure to send or receive: connection refused or
// reset, a deadline, a cancelled call. Write says whether the request was a
// mutation, which decides between retryable and UNKNOWN_OUTCOME.
type transportError struct {
	Op    string
	Write bool
	Err   error
}

// Error implements error.
func (e *transportError) Error() string {
	if e.Timeout() {
		return fmt.Sprintf("call %s: deadline exceeded", e.Op)
	}
	return fmt.Sprintf("call %s: connection failed", e.Op)
}

// Unwrap returns the underlying failure.
func (e *transportError) Unwrap() error { return e.Err }

// Timeout reports whether the failure was the per-call deadline.
func (e *transportError) Timeout() bool {
	var t interface{ Timeout() bool }
	return errors.Is(e.Err, context.DeadlineExceeded) || (errors.As(e.Err, &t) && t.Timeout())
}

// argumentError rejects tool arguments before any upstream traffic. Field is
// the JSON pointer of the failing argument ("" when it is the whole input).
type argumentError struct {
	Field   string
	Message string
}

// Error implements error.
func (e *argumentError) Error() string { return "invalid argument " + e.Field + ": " + e.Message }

// partialError is a compound read of which one part failed: the envelope
// is ok:false with PARTIAL_FAILURE and carries data, what is known; what
// says what is missing, cause is the failure of the lost part (it decides
// retryable).
type partialError struct {
	data  any
	what  string
	cause error
}

// Error implements error.
func (e *partialError) Error() string { return "partial result: " + e.what }

// Unwrap returns the failure of the lost part.
func (e *partialError) Unwrap() error { return e.cause }

// notFoundError is a lookup the server made that found nothing, although
// no upstream call answered 404 (for example a fallback search without an
// exact match): NOT_FOUND without an http_status.
type notFoundError struct{ Message string }

// Error implements error.
func (e *notFoundError) Error() string { return e.Message }

// unsupportedError is a branch or tool this server does not serve, or an
// argument it cannot honour upstream. Field is the JSON pointer of that
// argument ("" when the refusal is the whole call's).
type unsupportedError struct {
	Field   string
	Message string
}

// Error implements error.
func (e *unsupportedError) Error() string { return e.Message }

// envelopeError is the envelope's error object (04-results $defs/error).
type envelopeError struct {
	Code              string `json:"code"`
	Message           string `json:"message"`
	Retryable         bool   `json:"retryable"`
	HTTPStatus        int    `json:"http_status,omitempty"`
	Field             string `json:"field,omitempty"`
	RetryAfterSeconds *int   `json:"retry_after_seconds,omitempty"`
}

// errorObject is the ONE mapper from any error to the envelope error object.
// write says whether the tool mutates: replay is never called safe for a
// write, and a transport failure or deadline after sending one is
// UNKNOWN_OUTCOME. A failure marked unsent (nothing of the call's writes
// left) maps as a read's.
func errorObject(err error, write bool) *envelopeError {
	var (
		arg      *argumentError
		unsup    *unsupportedError
		api      *apiError
		rate     *rateLimitError
		biz      *businessError
		sch      *schemaError
		tr       *transportError
		redirect *redirectError
		un       *unsentError
		nf       *notFoundError
	)
	if errors.As(err, &un) {
		write = false
	}
	var part *partialError
	if errors.As(err, &part) {
		o := &envelopeError{Code: codePartialFailure, Message: part.what + "; the available data is returned"}
		if part.cause != nil {
			o.Retryable = errorObject(part.cause, write).Retryable
		}
		return o
	}
	switch {
	case errors.As(err, &arg):
		// The validator's text may quote the offending value, and a field
		// pointer may name a hostile property: both are bounded so a huge
		// argument can never blow the response budget.
		return &envelopeError{Code: codeInvalidArgument, Message: clip(arg.Message, maxArgumentMessageRunes), Field: clip(arg.Field, maxFieldRunes)}
	case errors.As(err, &unsup):
		return &envelopeError{Code: codeUnsupportedCapability, Message: unsup.Message, Field: clip(unsup.Field, maxFieldRunes)}
	case errors.As(err, &rate):
		o := &envelopeError{Code: codeRateLimited, Message: "upstream rate limit reached; wait before calling again", Retryable: !write, HTTPStatus: http.StatusTooManyRequests}
		if rate.HasRetryAfter {
			s := int((rate.RetryAfter + time.Second - 1) / time.Second)
			o.RetryAfterSeconds = &s
		}
		return o
	case errors.As(err, &api):
		return apiErrorObject(api, write)
	case errors.As(err, &biz):
		msg := "upstream rejected the operation"
		if code := sanitizeMessage(biz.Code); code != "" && !strings.Contains(code, " ") {
			msg += " (" + code + ")"
		}
		if biz.Message != "" {
			msg += ": " + biz.Message
		}
		return &envelopeError{Code: codeUpstreamRejected, Message: msg}
	case errors.Is(err, errBodyTooLarge):
		return &envelopeError{Code: codeUpstreamSchemaMismatch, Message: "upstream answer is larger than the read cap; it was refused, not parsed"}
	case errors.As(err, &sch):
		return &envelopeError{Code: codeUpstreamSchemaMismatch, Message: "upstream answer is not the expected JSON shape (" + sch.Op + ")"}
	case errors.Is(err, errNoContent):
		return &envelopeError{Code: codeNotFound, Message: "upstream returned no record for this id"}
	case errors.As(err, &nf):
		return &envelopeError{Code: codeNotFound, Message: nf.Message}
	case errors.Is(err, errPathValue):
		return &envelopeError{Code: codeInvalidArgument, Message: "a path value may not be \".\" or \"..\""}
	case errors.As(err, &redirect):
		if redirect.TooMany {
			return &envelopeError{Code: codeUpstreamRejected, Message: fmt.Sprintf("upstream redirected more than %d times (the last HTTP %d); the redirects were not followed further", maxRedirects, redirect.Status)}
		}
		return &envelopeError{Code: codeUpstreamRejected, Message: fmt.Sprintf("upstream answered HTTP %d, a redirect to another origin (%s); it was refused, not followed", redirect.Status, redirect.Origin)}
	case errors.Is(err, errBodyBudget):
		if errors.As(err, &tr) && tr.Write {
			return &envelopeError{Code: codeUnknownOutcome, Message: "the request was sent but its answer could not be read (the memory budget for upstream answers is exhausted); read the current state before retrying"}
		}
		return &envelopeError{Code: codeRateLimited, Message: "the server's memory budget for upstream answers is held by calls in flight; retry shortly", Retryable: !write}
	case errors.As(err, &tr):
		write = write || tr.Write
		switch {
		case write:
			return &envelopeError{Code: codeUnknownOutcome, Message: "the request was sent but no answer arrived; read the current state before retrying"}
		case tr.Timeout():
			return &envelopeError{Code: codeTimeout, Message: "upstream did not answer within the deadline", Retryable: true}
		case errors.Is(tr.Err, context.Canceled):
			return &envelopeError{Code: codeUpstreamRejected, Message: "the call was cancelled before upstream answered", Retryable: true}
		default:
			return &envelopeError{Code: codeUpstreamRejected, Message: "upstream could not be reached", Retryable: true}
		}
	}
	return &envelopeError{Code: codeInternalError, Message: "internal error"}
}

// Bounds of the caller-influenced parts of an INVALID_ARGUMENT error.
const (
	maxArgumentMessageRunes = 300
	maxFieldRunes           = 200
)

// clip shortens s to at most n runes, marking the cut with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// statusMessage is the fixed text for an upstream status.
func statusMessage(status int) string {
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

func apiErrorObject(e *apiError, write bool) *envelopeError {
	o := &envelopeError{HTTPStatus: e.Status, Message: e.Message}
	if o.Message == "" {
		o.Message = statusMessage(e.Status)
	}
	switch {
	case e.Status == http.StatusUnauthorized:
		o.Code = codeAuthenticationFailed
	case e.Status == http.StatusForbidden:
		o.Code = codeForbidden
	case e.Status == http.StatusNotFound:
		o.Code = codeNotFound
	case e.Status == http.StatusConflict:
		o.Code = codeConflict
	case e.Status >= 500:
		o.Code = codeUpstreamRejected
		o.Retryable = !write
	default:
		o.Code = codeUpstreamRejected
	}
	if o.HTTPStatus < 100 || o.HTTPStatus > 599 {
		o.HTTPStatus = 0
	}
	return o
}

// checkResponse turns a non-2xx upstream answer into a typed error. The
// body is never quoted: messages are fixed per status.
func checkResponse(resp *http.Response) error {
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		after, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		return &rateLimitError{RetryAfter: after, HasRetryAfter: ok}
	}
	return &apiError{Status: resp.StatusCode, Message: statusMessage(resp.StatusCode)}
}

// maxRetryAfterSeconds bounds a Retry-After value (one day).
const maxRetryAfterSeconds = 86400

// parseRetryAfter reads delay-seconds or an HTTP date. ok is false when the
// header is absent or unreadable; a date in the past or "0" is a zero delay.
func parseRetryAfter(v string, now time.Time) (after time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n < 0 {
			return 0, false
		}
		n = min(n, maxRetryAfterSeconds)
		return time.Duration(n) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(t.Sub(now), 0), maxRetryAfterSeconds*time.Second), true
	}
	return 0, false
}

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

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
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

// blamePathValue turns a refused path value into an INVALID_ARGUMENT on the
// argument that carried it: the first (in pointer order) string of args
// equal to the refused segment. Any other error is returned as is.
func blamePathValue(err error, args json.RawMessage) error {
	var pv *ombi.PathValueError
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
			if t == pv.Value {
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
	return &ombi.ArgumentError{Field: found[0], Message: "must not be \".\" or \"..\" (it would change the upstream route)"}
}

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
		arg      *ombi.ArgumentError
		unsup    *unsupportedError
		api      *ombi.APIError
		rate     *ombi.RateLimitError
		biz      *ombi.BusinessError
		sch      *ombi.SchemaError
		tr       *ombi.TransportError
		redirect *ombi.RedirectError
		un       *ombi.UnsentError
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
	case errors.Is(err, ombi.ErrBodyTooLarge):
		return &envelopeError{Code: codeUpstreamSchemaMismatch, Message: "upstream answer is larger than the read cap; it was refused, not parsed"}
	case errors.As(err, &sch):
		return &envelopeError{Code: codeUpstreamSchemaMismatch, Message: "upstream answer is not the expected JSON shape (" + sch.Op + ")"}
	case errors.Is(err, ombi.ErrNoContent):
		return &envelopeError{Code: codeNotFound, Message: "upstream returned no record for this id"}
	case errors.As(err, &nf):
		return &envelopeError{Code: codeNotFound, Message: nf.Message}
	case errors.Is(err, ombi.ErrPathValue):
		return &envelopeError{Code: codeInvalidArgument, Message: "a path value may not be \".\" or \"..\""}
	case errors.As(err, &redirect):
		if redirect.TooMany {
			return &envelopeError{Code: codeUpstreamRejected, Message: fmt.Sprintf("upstream redirected more than %d times (the last HTTP %d); the redirects were not followed further", ombi.MaxRedirects, redirect.Status)}
		}
		return &envelopeError{Code: codeUpstreamRejected, Message: fmt.Sprintf("upstream answered HTTP %d, a redirect to another origin (%s); it was refused, not followed", redirect.Status, redirect.Origin)}
	case errors.Is(err, ombi.ErrBodyBudget):
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

func apiErrorObject(e *ombi.APIError, write bool) *envelopeError {
	o := &envelopeError{HTTPStatus: e.Status, Message: e.Message}
	if o.Message == "" {
		o.Message = ombi.StatusMessage(e.Status)
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

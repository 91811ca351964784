package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestErrorObject_mapping(t *testing.T) {
	tests := []struct {
		name      string
		err       error
		write     bool
		code      string
		retryable bool
		status    int
	}{
		{"argument", &ArgumentError{Field: "/query", Message: "m"}, false, CodeInvalidArgument, false, 0},
		{"unsupported", &UnsupportedError{Message: "m"}, false, CodeUnsupportedCapability, false, 0},
		{"401", &APIError{Status: 401}, false, CodeAuthenticationFailed, false, 401},
		{"403", &APIError{Status: 403}, false, CodeForbidden, false, 403},
		{"404", &APIError{Status: 404}, false, CodeNotFound, false, 404},
		{"409", &APIError{Status: 409}, true, CodeConflict, false, 409},
		{"500 read", &APIError{Status: 500}, false, CodeUpstreamRejected, true, 500},
		{"502 write", &APIError{Status: 502}, true, CodeUpstreamRejected, false, 502},
		{"429 read", &RateLimitError{RetryAfter: 2 * time.Second, HasRetryAfter: true}, false, CodeRateLimited, true, 429},
		{"429 write", &RateLimitError{}, true, CodeRateLimited, false, 429},
		{"business", &BusinessError{Code: "AlreadyRequested", Message: "already requested"}, true, CodeUpstreamRejected, false, 0},
		{"schema", &SchemaError{Op: "GET /x", Reason: "r"}, false, CodeUpstreamSchemaMismatch, false, 0},
		{"too large", fmt.Errorf("read: %w", ErrBodyTooLarge), false, CodeUpstreamSchemaMismatch, false, 0},
		{"no content", ErrNoContent, false, CodeNotFound, false, 0},
		{"transport read", &TransportError{Op: "GET /x", Err: errors.New("reset")}, false, CodeUpstreamRejected, true, 0},
		{"transport write", &TransportError{Op: "POST /x", Write: true, Err: errors.New("reset")}, true, CodeUnknownOutcome, false, 0},
		{"deadline read", &TransportError{Op: "GET /x", Err: context.DeadlineExceeded}, false, CodeTimeout, true, 0},
		{"deadline write", &TransportError{Op: "POST /x", Write: true, Err: context.DeadlineExceeded}, true, CodeUnknownOutcome, false, 0},
		{"anything else", errors.New("boom: Server=db;Password=x"), false, CodeInternalError, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := errorObject(tt.err, tt.write)
			if o.Code != tt.code || o.Retryable != tt.retryable || o.HTTPStatus != tt.status || o.Message == "" {
				t.Fatalf("errorObject = %+v, want %s retryable=%v status=%d", o, tt.code, tt.retryable, tt.status)
			}
		})
	}
	if o := errorObject(&RateLimitError{RetryAfter: 1500 * time.Millisecond, HasRetryAfter: true}, false); o.RetryAfterSeconds == nil || *o.RetryAfterSeconds != 2 {
		t.Fatalf("retry_after_seconds rounds up: %+v", o)
	}
	if o := errorObject(&ArgumentError{Field: "/target/id", Message: "m"}, false); o.Field != "/target/id" {
		t.Fatalf("field = %q", o.Field)
	}
	if o := errorObject(&BusinessError{Code: "AlreadyRequested", Message: `"Heat" has already been requested`}, true); o.Message != `upstream rejected the operation (AlreadyRequested): "Heat" has already been requested` {
		t.Fatalf("business message = %q", o.Message)
	}
	if o := errorObject(errors.New("internal detail"), false); o.Message != "internal error" {
		t.Fatalf("internal errors must not echo their text: %q", o.Message)
	}
}

func TestCheckResponse_neverQuotesBody(t *testing.T) {
	for _, status := range []int{400, 401, 403, 404, 409, 500, 503} {
		resp := &http.Response{StatusCode: status, Header: http.Header{}}
		err := checkResponse(resp)
		var api *APIError
		if !errors.As(err, &api) || api.Status != status || api.Message == "" {
			t.Fatalf("status %d: %v", status, err)
		}
	}
	if err := checkResponse(&http.Response{StatusCode: 204}); err != nil {
		t.Fatalf("204: %v", err)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		in     string
		want   time.Duration
		wantOK bool
	}{
		{"", 0, false}, {"30", 30 * time.Second, true}, {"0", 0, true}, {"-5", 0, false}, {"abc", 0, false},
		{"999999999", maxRetryAfterSeconds * time.Second, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
	}
	for _, tt := range tests {
		if got, ok := parseRetryAfter(tt.in, now); got != tt.want || ok != tt.wantOK {
			t.Errorf("parseRetryAfter(%q) = %v, %v, want %v, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
	if o := errorObject(&RateLimitError{HasRetryAfter: true}, false); o.RetryAfterSeconds == nil || *o.RetryAfterSeconds != 0 {
		t.Errorf("Retry-After: 0 gave retry_after_seconds %v, want 0", o.RetryAfterSeconds)
	}
	if o := errorObject(&RateLimitError{}, false); o.RetryAfterSeconds != nil {
		t.Errorf("no Retry-After gave retry_after_seconds %v, want absent", *o.RetryAfterSeconds)
	}
}

func TestErrorObject_argumentBounded(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	o := errorObject(&ArgumentError{Field: "/" + huge, Message: "'" + huge + "' does not match pattern"}, false)
	if n := len([]rune(o.Message)); n > maxArgumentMessageRunes {
		t.Errorf("message has %d runes, want at most %d", n, maxArgumentMessageRunes)
	}
	if n := len([]rune(o.Field)); n > maxFieldRunes {
		t.Errorf("field has %d runes, want at most %d", n, maxFieldRunes)
	}
	if o.Code != CodeInvalidArgument {
		t.Errorf("code = %s, want %s", o.Code, CodeInvalidArgument)
	}
}

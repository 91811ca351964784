package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
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
		{"argument", &ombi.ArgumentError{Field: "/query", Message: "m"}, false, codeInvalidArgument, false, 0},
		{"unsupported", &unsupportedError{Message: "m"}, false, codeUnsupportedCapability, false, 0},
		{"401", &ombi.APIError{Status: 401}, false, codeAuthenticationFailed, false, 401},
		{"403", &ombi.APIError{Status: 403}, false, codeForbidden, false, 403},
		{"404", &ombi.APIError{Status: 404}, false, codeNotFound, false, 404},
		{"409", &ombi.APIError{Status: 409}, true, codeConflict, false, 409},
		{"500 read", &ombi.APIError{Status: 500}, false, codeUpstreamRejected, true, 500},
		{"502 write", &ombi.APIError{Status: 502}, true, codeUpstreamRejected, false, 502},
		{"429 read", &ombi.RateLimitError{RetryAfter: 2 * time.Second, HasRetryAfter: true}, false, codeRateLimited, true, 429},
		{"429 write", &ombi.RateLimitError{}, true, codeRateLimited, false, 429},
		{"business", &ombi.BusinessError{Code: "AlreadyRequested", Message: "already requested"}, true, codeUpstreamRejected, false, 0},
		{"schema", &ombi.SchemaError{Op: "GET /x", Reason: "r"}, false, codeUpstreamSchemaMismatch, false, 0},
		{"too large", fmt.Errorf("read: %w", ombi.ErrBodyTooLarge), false, codeUpstreamSchemaMismatch, false, 0},
		{"no content", ombi.ErrNoContent, false, codeNotFound, false, 0},
		{"transport read", &ombi.TransportError{Op: "GET /x", Err: errors.New("reset")}, false, codeUpstreamRejected, true, 0},
		{"transport write", &ombi.TransportError{Op: "POST /x", Write: true, Err: errors.New("reset")}, true, codeUnknownOutcome, false, 0},
		{"deadline read", &ombi.TransportError{Op: "GET /x", Err: context.DeadlineExceeded}, false, codeTimeout, true, 0},
		{"deadline write", &ombi.TransportError{Op: "POST /x", Write: true, Err: context.DeadlineExceeded}, true, codeUnknownOutcome, false, 0},
		{"anything else", errors.New("boom: Server=db;Password=x"), false, codeInternalError, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := errorObject(tt.err, tt.write)
			if o.Code != tt.code || o.Retryable != tt.retryable || o.HTTPStatus != tt.status || o.Message == "" {
				t.Fatalf("errorObject = %+v, want %s retryable=%v status=%d", o, tt.code, tt.retryable, tt.status)
			}
		})
	}
	if o := errorObject(&ombi.RateLimitError{RetryAfter: 1500 * time.Millisecond, HasRetryAfter: true}, false); o.RetryAfterSeconds == nil || *o.RetryAfterSeconds != 2 {
		t.Fatalf("retry_after_seconds rounds up: %+v", o)
	}
	if o := errorObject(&ombi.ArgumentError{Field: "/target/id", Message: "m"}, false); o.Field != "/target/id" {
		t.Fatalf("field = %q", o.Field)
	}
	if o := errorObject(&ombi.BusinessError{Code: "AlreadyRequested", Message: `"Heat" has already been requested`}, true); o.Message != `upstream rejected the operation (AlreadyRequested): "Heat" has already been requested` {
		t.Fatalf("business message = %q", o.Message)
	}
	if o := errorObject(errors.New("internal detail"), false); o.Message != "internal error" {
		t.Fatalf("internal errors must not echo their text: %q", o.Message)
	}
}

func TestCheckResponse_neverQuotesBody(t *testing.T) {
	for _, status := range []int{400, 401, 403, 404, 409, 500, 503} {
		resp := &http.Response{StatusCode: status, Header: http.Header{}}
		err := ombi.CheckResponse(resp)
		var api *ombi.APIError
		if !errors.As(err, &api) || api.Status != status || api.Message == "" {
			t.Fatalf("status %d: %v", status, err)
		}
	}
	if err := ombi.CheckResponse(&http.Response{StatusCode: 204}); err != nil {
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
		{"999999999", ombi.MaxRetryAfterSeconds * time.Second, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
	}
	for _, tt := range tests {
		if got, ok := ombi.ParseRetryAfter(tt.in, now); got != tt.want || ok != tt.wantOK {
			t.Errorf("parseRetryAfter(%q) = %v, %v, want %v, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
	if o := errorObject(&ombi.RateLimitError{HasRetryAfter: true}, false); o.RetryAfterSeconds == nil || *o.RetryAfterSeconds != 0 {
		t.Errorf("Retry-After: 0 gave retry_after_seconds %v, want 0", o.RetryAfterSeconds)
	}
	if o := errorObject(&ombi.RateLimitError{}, false); o.RetryAfterSeconds != nil {
		t.Errorf("no Retry-After gave retry_after_seconds %v, want absent", *o.RetryAfterSeconds)
	}
}

func TestErrorObject_argumentBounded(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	o := errorObject(&ombi.ArgumentError{Field: "/" + huge, Message: "'" + huge + "' does not match pattern"}, false)
	if n := len([]rune(o.Message)); n > maxArgumentMessageRunes {
		t.Errorf("message has %d runes, want at most %d", n, maxArgumentMessageRunes)
	}
	if n := len([]rune(o.Field)); n > maxFieldRunes {
		t.Errorf("field has %d runes, want at most %d", n, maxFieldRunes)
	}
	if o.Code != codeInvalidArgument {
		t.Errorf("code = %s, want %s", o.Code, codeInvalidArgument)
	}
}

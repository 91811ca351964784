package ombi

import (
	"context"
	"net/http"
)

// RetryQueue lists the failed-request queue (Admin).
//
// upstream: GET /api/v1/RequestRetry
func (c *Client) RetryQueue(ctx context.Context) ([]Retry, error) {
	return send[[]Retry](ctx, c, http.MethodGet, "api/v1/RequestRetry", nil)
}

// RetryRemove deletes one queue entry by queue id (Admin).
//
// upstream: DELETE /api/v1/RequestRetry/{queueId}
func (c *Client) RetryRemove(ctx context.Context, queueID int) (*bool, error) {
	return send[*bool](ctx, c, http.MethodDelete, "api/v1/RequestRetry/"+SegInt(queueID), nil)
}

// Retry is FailedRequestViewModel.
type Retry struct {
	FailedID  FlexID `json:"failedId"`
	Title     string `json:"title"`
	RequestID FlexID `json:"requestId"`
	Type      *int   `json:"type"`
	Error     string `json:"error"`
}

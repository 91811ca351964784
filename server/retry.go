package server

import (
	"context"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file serves the request retry queue: read_requests retry_queue and
// write_retry_remove. Queue ids (failedId) are their own namespace, never a
// request id.

// ---- retry_page ----

const unitQueueEntries = "queue_entries"

type (
	retryPage struct {
		Kind  string        `json:"kind"` // "retry_page"
		Items []retryRecord `json:"items"`
		Page  paging        `json:"page"`
	}
	retryRecord struct {
		QueueID         int    `json:"queue_id"`
		RequestID       int    `json:"request_id,omitempty"`
		RequestType     string `json:"request_type,omitempty"`
		RequestTypeCode *int   `json:"request_type_code,omitempty"`
		Title           string `json:"title,omitempty"`
		Reason          string `json:"reason,omitempty"`
	}
)

// retryQueuePage reads the whole queue and slices it locally.
func (d *deps) retryQueuePage(ctx context.Context, c *call, p *pageArg) (any, error) {
	ws, err := d.client.RetryQueue(ctx)
	if err != nil {
		return nil, err
	}
	recs := make([]retryRecord, 0, len(ws))
	for _, w := range ws {
		r, ok := projectRetry(c, w, d.client.Secrets())
		if ok {
			recs = append(recs, r)
		}
	}
	window, pg := localPage(recs, p, len(recs) == len(ws), unitQueueEntries)
	return retryPage{Kind: "retry_page", Items: window, Page: pg}, nil
}

// projectRetry maps one queue row; a row without a queue id is left out.
// The failure text is kept only when it is a plain, safe sentence.
func projectRetry(c *call, w ombi.Retry, secrets []string) (retryRecord, bool) {
	q := w.FailedID.Positive()
	if q == 0 {
		return retryRecord{}, false
	}
	r := retryRecord{QueueID: q, RequestID: w.RequestID.Positive(), Title: strings.TrimSpace(w.Title), Reason: sanitizeMessage(w.Error, secrets...)}
	if w.Type != nil {
		// request_type_code is bounded to the T1 values, so an unmapped
		// code is reported in warnings only.
		if label, ok := enumLabel(c, enumRequestType, "request_type", *w.Type); ok {
			code := *w.Type
			r.RequestType, r.RequestTypeCode = label, &code
		}
	}
	return r, true
}

// ---- write_retry_remove ----

type retryRemoveInput struct {
	QueueID int `json:"queue_id"`
}

// writeRetryRemove serves write_retry_remove: one DELETE in the queue
// namespace; never a POST to the queue.
// Implements S-ROUTING-0275 and S-RESULTS-0086.
func writeRetryRemove(d *deps) tool {
	return tool{name: "write_retry_remove", handle: func(ctx context.Context, c *call) (any, error) {
		var in retryRemoveInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		ok, err := d.client.RetryRemove(ctx, in.QueueID)
		if err != nil {
			return nil, err
		}
		if err := trueAnswer(ok, "DELETE /api/v1/RequestRetry/{queueId}"); err != nil {
			return nil, err
		}
		return mutation{Kind: "mutation", Outcome: mutationCompleted, QueueID: in.QueueID, UpstreamResult: ok}, nil
	}}
}

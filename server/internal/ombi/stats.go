package ombi

import (
	"context"
	"net/http"
	"net/url"
)

// RequestCount reads the instance request counts.
//
// upstream: GET /api/v1/Request/count
func (c *Client) RequestCount(ctx context.Context) (RequestCount, error) {
	return send[RequestCount](ctx, c, http.MethodGet, "api/v1/Request/count", nil)
}

// RequestTotal reads the total number of requests of one media.
//
// upstream: GET /api/v1/Request/movie/total
// upstream: GET /api/v1/Request/tv/total
// upstream: GET /api/v1/request/music/total
func (c *Client) RequestTotal(ctx context.Context, media string) (*int, error) {
	return send[*int](ctx, c, http.MethodGet, RequestsBase(media)+"/total", nil)
}

// RequestRemaining reads the calling principal's quota for one media.
//
// upstream: GET /api/v1/Request/movie/remaining
// upstream: GET /api/v1/Request/tv/remaining
// upstream: GET /api/v1/request/music/remaining
func (c *Client) RequestRemaining(ctx context.Context, media string) (Quota, error) {
	return send[Quota](ctx, c, http.MethodGet, RequestsBase(media)+"/remaining", nil)
}

// UserHasRequest reports whether a user has any request.
//
// upstream: GET /api/v1/Request/userhasrequest
func (c *Client) UserHasRequest(ctx context.Context, userID string) (*bool, error) {
	q := url.Values{"userId": {userID}}
	return send[*bool](ctx, c, http.MethodGet, "api/v1/Request/userhasrequest?"+q.Encode(), nil)
}

// RequestsBase is the v1 request route prefix of a media: the literal
// spellings Request/movie, Request/tv and request/music.
func RequestsBase(media string) string {
	switch media {
	case "movie":
		return "api/v1/Request/movie"
	case "tv":
		return "api/v1/Request/tv"
	}
	return "api/v1/request/music"
}

type (
	// RequestCount is RequestCountModel.
	RequestCount struct {
		Pending   *int `json:"pending"`
		Approved  *int `json:"approved"`
		Available *int `json:"available"`
		Denied    *int `json:"denied"`
	}
	// Quota is RequestQuotaCountModel.
	Quota struct {
		HasLimit    *bool  `json:"hasLimit"`
		Limit       *int   `json:"limit"`
		Remaining   *int   `json:"remaining"`
		NextRequest string `json:"nextRequest"`
	}
)

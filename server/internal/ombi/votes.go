package ombi

import (
	"context"
	"net/http"
)

// VoteSummaries lists the per-request vote summaries.
//
// upstream: GET /api/v1/Vote
func (c *Client) VoteSummaries(ctx context.Context) ([]VoteSummary, error) {
	return send[[]VoteSummary](ctx, c, http.MethodGet, "api/v1/Vote", nil)
}

// VotesOf lists the vote records of one request; segment is movie, tv or
// music.
//
// upstream: GET /api/v1/Vote/movie/{requestId}
// upstream: GET /api/v1/Vote/tv/{requestId}
// upstream: GET /api/v1/Vote/music/{requestId}
func (c *Client) VotesOf(ctx context.Context, segment string, requestID int) ([]Vote, error) {
	return send[[]Vote](ctx, c, http.MethodGet, "api/v1/Vote/"+segment+"/"+SegInt(requestID), nil)
}

// Vote casts an up or down vote; media is movie, tv or album.
//
// upstream: POST /api/v1/Vote/up/movie/{requestId}
// upstream: POST /api/v1/Vote/up/tv/{requestId}
// upstream: POST /api/v1/Vote/up/album/{requestId}
// upstream: POST /api/v1/Vote/down/movie/{requestId}
// upstream: POST /api/v1/Vote/down/tv/{requestId}
// upstream: POST /api/v1/Vote/down/album/{requestId}
func (c *Client) Vote(ctx context.Context, direction, media string, requestID int) (VoteResult, error) {
	return send[VoteResult](ctx, c, http.MethodPost, "api/v1/Vote/"+direction+"/"+media+"/"+SegInt(requestID), nil)
}

type (
	VoteSummary struct {
		RequestID   int  `json:"requestId"`
		RequestType *int `json:"requestType"`
		Upvotes     *int `json:"upvotes"`
		Downvotes   *int `json:"downvotes"`
	}
	Vote struct {
		RequestID int    `json:"requestId"`
		VoteType  *int   `json:"voteType"`
		UserID    string `json:"userId"`
	}
	// VoteResult is Ombi's VoteEngineResult.
	VoteResult struct {
		Result       bool   `json:"result"`
		Message      string `json:"message"`
		IsError      bool   `json:"isError"`
		ErrorMessage string `json:"errorMessage"`
	}
)

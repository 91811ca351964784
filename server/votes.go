package server

import (
	"context"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file serves Ombi's Vote controller: read_votes and write_vote.

const unitVotes = "votes"

// Output types of the vote_page family.
type (
	votePage struct {
		Kind  string       `json:"kind"` // "vote_page"
		Items []voteRecord `json:"items"`
		Page  paging       `json:"page"`
	}
	voteRecord struct {
		RequestID int    `json:"request_id,omitempty"`
		Media     string `json:"media,omitempty"`
		UserID    string `json:"user_id,omitempty"`
		VoteCode  *int   `json:"vote_code,omitempty"`
		Up        *int   `json:"up,omitempty"`
		Down      *int   `json:"down,omitempty"`
	}
)

// voteReadSegment is the read route's media segment: albums read as music.
var voteReadSegment = map[string]string{"movie": "movie", "tv": "tv", "album": "music"}

// ---- projections ----

func nonNegative(p *int) *int {
	if p == nil || *p < 0 {
		return nil
	}
	return ptr(*p)
}

// ---- read_votes ----

type votesInput struct {
	Action    string   `json:"action"`
	Media     string   `json:"media"`
	RequestID int      `json:"request_id"`
	Page      *pageArg `json:"page"`
}

// readVotes serves read_votes. An upstream failure (HTTP 500 is known on
// 4.53.10) stays an error and is never turned into an empty page.
// Implements S-ROUTING-0213, S-ROUTING-0218 and S-RESULTS-0063.
func readVotes(d *deps) tool {
	return tool{name: "read_votes", handle: func(ctx context.Context, c *call) (any, error) {
		var in votesInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		var all []voteRecord
		switch in.Action {
		case "list":
			ws, err := d.client.VoteSummaries(ctx)
			if err != nil {
				return nil, err
			}
			for _, w := range ws {
				r := voteRecord{Up: nonNegative(w.Upvotes), Down: nonNegative(w.Downvotes)}
				if w.RequestID > 0 {
					r.RequestID = w.RequestID
				}
				if w.RequestType != nil {
					if l, ok := enumLabel(c, enumRequestType, "request_type", *w.RequestType); ok {
						r.Media = l
					}
				}
				all = append(all, r)
			}
		case "by_request":
			ws, err := d.client.VotesOf(ctx, voteReadSegment[in.Media], in.RequestID)
			if err != nil {
				return nil, err
			}
			for _, w := range ws {
				r := voteRecord{Media: in.Media, UserID: w.UserID, RequestID: in.RequestID}
				if w.VoteType != nil {
					if *w.VoteType == 0 || *w.VoteType == 1 {
						r.VoteCode = ptr(*w.VoteType)
					} else {
						c.warn("unmapped upstream vote type %d left out", *w.VoteType)
					}
				}
				all = append(all, r)
			}
		default:
			return nil, &unsupportedError{Message: "read_votes: unknown branch"}
		}
		if all == nil {
			all = []voteRecord{}
		}
		window, pg := localPage(all, in.Page, true, unitVotes)
		return votePage{Kind: "vote_page", Items: window, Page: pg}, nil
	}}
}

// ---- write_vote ----

type voteInput struct {
	Action    string `json:"action"`
	Media     string `json:"media"`
	RequestID int    `json:"request_id"`
}

// writeVote serves write_vote. A repeat vote ("You have already voted!")
// is a failure; a vote can trigger auto-approval.
// Implements S-ROUTING-0213, S-ROUTING-0214, S-ROUTING-0215.
func writeVote(d *deps) tool {
	return tool{name: "write_vote", handle: func(ctx context.Context, c *call) (any, error) {
		var in voteInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		if in.Action != "up" && in.Action != "down" {
			return nil, &unsupportedError{Message: "write_vote: unknown branch"}
		}
		w, err := d.client.Vote(ctx, in.Action, in.Media, in.RequestID)
		if err != nil {
			return nil, err
		}
		if err := voteFailure(d, w); err != nil {
			return nil, err
		}
		m := completed()
		m.RequestID = in.RequestID
		m.UpstreamResult = ptr(w.Result)
		if msg := sanitizeMessage(w.Message, d.client.Secrets()...); msg != "" {
			m.Message = msg
		}
		c.warn("a vote can trigger auto-approval of the request")
		return m, nil
	}}
}

// voteFailure turns an engine result carrying a failure into a
// BusinessError with a sanitised message.
func voteFailure(d *deps, w ombi.VoteResult) error {
	if !w.IsError && w.Result {
		return nil
	}
	msg := w.ErrorMessage
	if msg == "" {
		msg = w.Message
	}
	return &ombi.BusinessError{Message: sanitizeMessage(msg, d.client.Secrets()...)}
}

package db

import (
	"fmt"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// newVoteState loads votes.json.
func newVoteState(sd *seedSet) (state.Votes, error) {
	var seed struct {
		Votes []map[string]any `json:"votes"`
	}
	if err := sd.decode("votes.json", &seed); err != nil {
		return state.Votes{}, err
	}
	var vs state.Votes
	for _, raw := range seed.Votes {
		var v state.Vote
		if err := seedRecord(raw, &v); err != nil {
			return state.Votes{}, fmt.Errorf("decode vote: %w", err)
		}
		v.Extra = UndocumentedFields(raw, "id", "requestId", "voteType", "requestType", "voter", "date", "deleted")
		vs.List = append(vs.List, &v)
		sd.seenID("vote", v.ID)
	}
	return vs, nil
}

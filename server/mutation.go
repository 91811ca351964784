package server

import "github.com/ombi-mcp/ombi-mcp/server/internal/ombi"

// Mutation outcomes (04-results $defs/mutation).
const (
	mutationCompleted = "completed"
	mutationAccepted  = "accepted"
)

// mutation is the result family of every write tool.
type mutation struct {
	Kind            string      `json:"kind"` // "mutation"
	Outcome         string      `json:"outcome"`
	Target          *target     `json:"target,omitempty"`
	RequestID       int         `json:"request_id,omitempty"`
	IssueID         int         `json:"issue_id,omitempty"`
	CommentID       int         `json:"comment_id,omitempty"`
	CategoryID      int         `json:"category_id,omitempty"`
	UserID          string      `json:"user_id,omitempty"`
	QueueID         int         `json:"queue_id,omitempty"`
	Message         string      `json:"message,omitempty"`
	UpstreamResult  *bool       `json:"upstream_result,omitempty"`
	UpstreamIsError *bool       `json:"upstream_is_error,omitempty"`
	AffectedCount   *int        `json:"affected_count,omitempty"`
	ItemResults     []itemState `json:"item_results,omitempty"`
}

// itemState is one per-item outcome, reported only when upstream gave it.
type itemState struct {
	Identifier string `json:"identifier"`
	Outcome    string `json:"outcome"`
	Message    string `json:"message,omitempty"`
}

// completed is a mutation upstream confirmed.
func completed() mutation { return mutation{Kind: "mutation", Outcome: mutationCompleted} }

// boolOutcome reads an upstream boolean answer: false is a rejection.
// Implements S-RESULTS-0088, S-RESULTS-0097.
func boolOutcome(ok bool, what string) (mutation, error) {
	if !ok {
		return mutation{}, &ombi.BusinessError{Message: what + " was refused (upstream answered false)"}
	}
	m := completed()
	m.UpstreamResult = ptr(true)
	return m, nil
}

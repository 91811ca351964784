package state

import "time"

// Vote types (Ombi's VoteType).
const (
	VoteUp   = 0
	VoteDown = 1
)

// Request types a vote is cast on (Ombi's RequestType).
const (
	VoteMediaTV    = 0
	VoteMediaMovie = 1
	VoteMediaAlbum = 2
)

// Vote is one row of Ombi's Votes table as a data document holds it:
// Voter is a user id or, in seed data, a user name (Ombi's UserId).
type Vote struct {
	Date        time.Time `json:"date"`
	Deleted     bool      `json:"deleted"`
	ID          int       `json:"id"`
	RequestID   int       `json:"requestId"`
	RequestType int       `json:"requestType"`
	VoteType    int       `json:"voteType"`
	Voter       string    `json:"voter"`
	Extra       Extra     `json:"-"`
}

// MarshalJSON writes the vote with its undocumented members.
func (v *Vote) MarshalJSON() ([]byte, error) {
	type plain Vote
	return marshalWith((*plain)(v), v.Extra)
}

// Votes holds the votes; the requests voted on live with the requests.
type Votes struct {
	List []*Vote
}

// Delete removes one vote.
func (vs *Votes) Delete(target *Vote) {
	out := vs.List[:0]
	for _, v := range vs.List {
		if v != target {
			out = append(out, v)
		}
	}
	vs.List = out
}

// VoteViewModel is Ombi's VoteViewModel: one pending request with its vote
// counts and the caller's vote.
type VoteViewModel struct {
	AlreadyVoted bool   `json:"alreadyVoted"`
	Background   string `json:"background"`
	Description  string `json:"description"`
	Downvotes    int    `json:"downvotes"`
	Image        string `json:"image"`
	MyVote       int    `json:"myVote"`
	RequestID    int    `json:"requestId"`
	RequestType  int    `json:"requestType"`
	Title        string `json:"title"`
	Upvotes      int    `json:"upvotes"`
}

// VoteEngineResult is Ombi's VoteEngineResult, the answer to a vote.
type VoteEngineResult struct {
	ErrorMessage *string `json:"errorMessage"`
	IsError      bool    `json:"isError"`
	Message      *string `json:"message"`
	Result       bool    `json:"result"`
}

// VoteRecord is Ombi's Votes entity as GET Vote/{media}/{requestId} answers
// it: the user navigation is not loaded.
type VoteRecord struct {
	Date        time.Time `json:"date"`
	Deleted     bool      `json:"deleted"`
	ID          int       `json:"id"`
	RequestID   int       `json:"requestId"`
	RequestType int       `json:"requestType"`
	User        *struct{} `json:"user"` // always null
	UserID      string    `json:"userId"`
	VoteType    int       `json:"voteType"`
	Extra       Extra     `json:"-"`
}

// MarshalJSON writes the record with the vote's undocumented members.
func (r *VoteRecord) MarshalJSON() ([]byte, error) {
	type plain VoteRecord
	return marshalWith((*plain)(r), r.Extra)
}

// Record is the vote as VoteRecord, its voter resolved to userID.
func (v *Vote) Record(userID string) *VoteRecord {
	return &VoteRecord{Date: v.Date, Deleted: v.Deleted, ID: v.ID, RequestID: v.RequestID, RequestType: v.RequestType,
		UserID: userID, VoteType: v.VoteType, Extra: v.Extra}
}

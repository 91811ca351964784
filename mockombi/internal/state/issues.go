package state

import (
	"slices"
	"strings"
	"time"
)

// Issue statuses (Ombi's IssueStatus).
const (
	IssuePending    = 0
	IssueInProgress = 1
	IssueResolved   = 2
)

// IssueCategory is one row of Ombi's IssueCategory table, as a data
// document holds it and as Ombi answers it.
type IssueCategory struct {
	ID    int    `json:"id"`
	Value string `json:"value"`
	Extra Extra  `json:"-"`
}

// MarshalJSON writes the category with its undocumented members.
func (c *IssueCategory) MarshalJSON() ([]byte, error) {
	type plain IssueCategory
	return marshalWith((*plain)(c), c.Extra)
}

// IssueComment is one row of Ombi's IssueComments table as a data document
// holds it: Author is a user id or, in seed data, a user name (Ombi's
// UserId).
type IssueComment struct {
	Author  string    `json:"author"`
	Comment string    `json:"comment"`
	Date    time.Time `json:"date"`
	ID      int       `json:"id"`
	IssueID int       `json:"-"`
}

// Issue is one row of Ombi's Issues table as a data document holds it:
// Reporter is a user id or, in seed data, a user name (Ombi's
// UserReportedId). resovledDate is Ombi's spelling.
type Issue struct {
	Comments        []*IssueComment `json:"comments"`
	CreatedDate     time.Time       `json:"createdDate"`
	Description     string          `json:"description"`
	ID              int             `json:"id"`
	IssueCategoryID int             `json:"issueCategoryId"`
	PosterPath      *string         `json:"posterPath"`
	ProviderID      *string         `json:"providerId"`
	Reporter        string          `json:"reporter"`
	RequestID       *int            `json:"requestId"`
	RequestType     int             `json:"requestType"`
	ResolvedDate    *time.Time      `json:"resovledDate"`
	Status          int             `json:"status"`
	Subject         string          `json:"subject"`
	Title           string          `json:"title"`
	Extra           Extra           `json:"-"`
}

// IssueKnownKeys are the members of a data document's issue typed into
// Issue; every other member is kept in its Extra.
var IssueKnownKeys = []string{"id", "title", "requestType", "providerId", "requestId", "subject", "description",
	"issueCategoryId", "status", "resovledDate", "createdDate", "reporter", "posterPath", "comments"}

// MarshalJSON writes the issue as a data document holds it: its comments
// (an empty list for none) and its undocumented members.
func (x *Issue) MarshalJSON() ([]byte, error) {
	type plain Issue
	p := plain(*x)
	if p.Comments == nil {
		p.Comments = []*IssueComment{}
	}
	return marshalWith(&p, x.Extra)
}

// Issues holds the issue categories and the issues with their comments.
type Issues struct {
	Categories []*IssueCategory
	List       []*Issue
}

// Category finds a category by id.
func (is *Issues) Category(id int) *IssueCategory {
	for _, c := range is.Categories {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// Find finds an issue by id.
func (is *Issues) Find(id int) *Issue {
	for _, x := range is.List {
		if x.ID == id {
			return x
		}
	}
	return nil
}

// IssueGroup is one IssuesSummaryModel group key.
type IssueGroup struct{ Title, ProviderID string }

// SummaryGroups is IssuesEngine.GetIssues: the issues with a provider id
// and the status, paged (position, take) before they are ordered by title
// and grouped by (title, providerId), so a page counts issues, not groups.
func (is *Issues) SummaryGroups(status, position, take int) ([]IssueGroup, map[IssueGroup]int) {
	var page []*Issue
	seen := 0
	for _, x := range is.List {
		if x.ProviderID == nil || x.Status != status {
			continue
		}
		seen++
		if seen > position && len(page) < take {
			page = append(page, x)
		}
	}
	slices.SortStableFunc(page, func(a, b *Issue) int { return strings.Compare(a.Title, b.Title) })
	var order []IssueGroup
	counts := map[IssueGroup]int{}
	for _, x := range page {
		g := IssueGroup{x.Title, *x.ProviderID}
		if _, ok := counts[g]; !ok {
			order = append(order, g)
		}
		counts[g]++
	}
	return order, counts
}

// IssueView is Ombi's Issues entity as its routes answer it; navigations
// not loaded are null, as EF leaves them.
type IssueView struct {
	Comments        []*IssueCommentView `json:"comments"`
	CreatedDate     time.Time           `json:"createdDate"`
	Description     string              `json:"description"`
	ID              int                 `json:"id"`
	IssueCategory   *IssueCategory      `json:"issueCategory"`
	IssueCategoryID int                 `json:"issueCategoryId"`
	PosterPath      *string             `json:"posterPath"`
	ProviderID      *string             `json:"providerId"`
	RequestID       *int                `json:"requestId"`
	RequestType     int                 `json:"requestType"`
	ResolvedDate    *time.Time          `json:"resovledDate"`
	Status          int                 `json:"status"`
	Subject         string              `json:"subject"`
	Title           string              `json:"title"`
	UserReported    any                 `json:"userReported"` // an OmbiUser or null
	UserReportedID  string              `json:"userReportedId"`
	Extra           Extra               `json:"-"`
}

// MarshalJSON writes the view with the issue's undocumented members.
func (v *IssueView) MarshalJSON() ([]byte, error) {
	type plain IssueView
	return marshalWith((*plain)(v), v.Extra)
}

// IssueCommentView is Ombi's IssueComments entity as its routes answer it.
type IssueCommentView struct {
	Comment  string     `json:"comment"`
	Date     time.Time  `json:"date"`
	ID       int        `json:"id"`
	Issues   *IssueView `json:"issues"`
	IssuesID int        `json:"issuesId"`
	User     any        `json:"user"` // an OmbiUser or null
	UserID   string     `json:"userId"`
}

// IssueChat is Ombi's IssueCommentChatViewModel.
type IssueChat struct {
	AdminComment bool      `json:"adminComment"`
	Comment      string    `json:"comment"`
	Date         time.Time `json:"date"`
	ID           int       `json:"id"`
	Username     *string   `json:"username"`
}

// IssueCount is Ombi's IssueCountModel.
type IssueCount struct {
	InProgress int `json:"inProgress"`
	Pending    int `json:"pending"`
	Resolved   int `json:"resolved"`
}

// IssuesSummary is Ombi's IssuesSummaryModel: a group of issues of one
// title and provider id, the issues themselves listed only by the details
// route.
type IssuesSummary struct {
	Count      int          `json:"count"`
	Issues     []*IssueView `json:"issues"`
	ProviderID string       `json:"providerId"`
	Title      string       `json:"title"`
}

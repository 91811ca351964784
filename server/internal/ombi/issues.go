package ombi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
)

// Issues lists one window of issues with a status.
//
// upstream: GET /api/v1/Issues/{take}/{skip}/{status}
func (c *Client) Issues(ctx context.Context, take, skip, status int) ([]Issue, error) {
	return send[[]Issue](ctx, c, http.MethodGet, "api/v1/Issues/"+SegInt(take)+"/"+SegInt(skip)+"/"+SegInt(status), nil)
}

// IssueSummaries lists one window of provider-grouped issue summaries.
//
// upstream: GET /api/v2/Issues/{position}/{take}/{status}
func (c *Client) IssueSummaries(ctx context.Context, position, take, status int) ([]IssueGroup, error) {
	return send[[]IssueGroup](ctx, c, http.MethodGet, "api/v2/Issues/"+SegInt(position)+"/"+SegInt(take)+"/"+SegInt(status), nil)
}

// IssueDetails reads the summary of one provider id with its issues; the
// raw body is returned because null, [] and empty mean "no issues".
//
// upstream: GET /api/v2/Issues/details/{providerId}
func (c *Client) IssueDetails(ctx context.Context, providerID string) (json.RawMessage, error) {
	raw, err := send[json.RawMessage](ctx, c, http.MethodGet, "api/v2/Issues/details/"+seg(providerID), nil)
	var se *SchemaError
	if errors.As(err, &se) && se.Reason == reasonEmptyBody {
		// an empty 200 is one of the "no issues" answers, like null and []
		return nil, ErrNoContent
	}
	return raw, err
}

// IssueComments lists the comments of an issue.
//
// upstream: GET /api/v1/Issues/{id}/comments
func (c *Client) IssueComments(ctx context.Context, id int) ([]Comment, error) {
	return send[[]Comment](ctx, c, http.MethodGet, "api/v1/Issues/"+SegInt(id)+"/comments", nil)
}

// IssueCount reads the issue counters.
//
// upstream: GET /api/v1/Issues/count
func (c *Client) IssueCount(ctx context.Context) (IssueCount, error) {
	return send[IssueCount](ctx, c, http.MethodGet, "api/v1/Issues/count", nil)
}

// CreateIssue creates an issue; the answer is the bare new id.
//
// upstream: POST /api/v1/Issues
func (c *Client) CreateIssue(ctx context.Context, body IssueBody) (int, error) {
	return send[int](ctx, c, http.MethodPost, "api/v1/Issues", body)
}

// AddIssueComment adds a comment; a 204 means the issue is missing.
//
// upstream: POST /api/v1/Issues/comments
func (c *Client) AddIssueComment(ctx context.Context, body CommentBody) (Comment, error) {
	return send[Comment](ctx, c, http.MethodPost, "api/v1/Issues/comments", body)
}

// SetIssueStatus changes an issue's status.
//
// upstream: POST /api/v1/Issues/status
func (c *Client) SetIssueStatus(ctx context.Context, body IssueStatusBody) (bool, error) {
	return send[bool](ctx, c, http.MethodPost, "api/v1/Issues/status", body)
}

// DeleteIssue deletes an issue.
//
// upstream: DELETE /api/v1/Issues/{id}
func (c *Client) DeleteIssue(ctx context.Context, id int) (bool, error) {
	return send[bool](ctx, c, http.MethodDelete, "api/v1/Issues/"+SegInt(id), nil)
}

// DeleteIssueComment deletes one comment.
//
// upstream: DELETE /api/v1/Issues/comments/{id}
func (c *Client) DeleteIssueComment(ctx context.Context, id int) (bool, error) {
	return send[bool](ctx, c, http.MethodDelete, "api/v1/Issues/comments/"+SegInt(id), nil)
}

// CreateIssueCategory adds an issue category.
//
// upstream: POST /api/v1/Issues/categories
func (c *Client) CreateIssueCategory(ctx context.Context, name string) (bool, error) {
	return send[bool](ctx, c, http.MethodPost, "api/v1/Issues/categories", CategoryBody{Value: name})
}

// DeleteIssueCategory deletes an issue category.
//
// upstream: DELETE /api/v1/Issues/categories/{catId}
func (c *Client) DeleteIssueCategory(ctx context.Context, id int) (bool, error) {
	return send[bool](ctx, c, http.MethodDelete, "api/v1/Issues/categories/"+SegInt(id), nil)
}

type (
	Issue struct {
		ID              int    `json:"id"`
		Title           string `json:"title"`
		Subject         string `json:"subject"`
		Description     string `json:"description"`
		IssueCategoryID int    `json:"issueCategoryId"`
		Status          *int   `json:"status"`
		RequestType     *int   `json:"requestType"`
		RequestID       *int   `json:"requestId"`
		ProviderID      string `json:"providerId"`
		CreatedDate     string `json:"createdDate"`
		ResovledDate    string `json:"resovledDate"` // upstream spelling
		UserReportedID  string `json:"userReportedId"`
	}
	IssueGroup struct {
		Title      string  `json:"title"`
		Count      *int    `json:"count"`
		ProviderID string  `json:"providerId"`
		Issues     []Issue `json:"issues"`
	}
	Comment struct {
		ID      int    `json:"id"`
		Comment string `json:"comment"`
		Date    string `json:"date"`
	}
	IssueCount struct {
		Pending    *int `json:"pending"`
		InProgress *int `json:"inProgress"`
		Resolved   *int `json:"resolved"`
	}
	IssueBody struct {
		Title           string  `json:"title"`
		Subject         string  `json:"subject"`
		Description     string  `json:"description"`
		IssueCategoryID int     `json:"issueCategoryId"`
		RequestType     int     `json:"requestType"`
		RequestID       *int    `json:"requestId,omitempty"`
		ProviderID      *string `json:"providerId,omitempty"`
	}
	CommentBody struct {
		Comment string `json:"comment"`
		IssueID int    `json:"issueId"`
	}
	IssueStatusBody struct {
		IssueID int `json:"issueId"`
		Status  int `json:"status"`
	}
	CategoryBody struct {
		Value string `json:"value"`
	}
)

package server

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file serves Ombi's Issues controllers (v1 and v2): read_issues,
// write_issue_create, write_issue_comment and write_issue_manage. It also
// holds the metrics and mutation family types the other administrative
// domains share (metrics types live in stats.go).

// Page units of the issue families (04-results $defs/paging).
const (
	unitIssues   = "issues"
	unitGroups   = "provider_groups"
	unitComments = "comments"
)

// Output types: issue_page, comment_page, group_page, metrics, mutation.
type (
	issuePage struct {
		Kind  string        `json:"kind"` // "issue_page"
		Items []issueRecord `json:"items"`
		Page  paging        `json:"page"`
	}
	issueRecord struct {
		ID               int    `json:"id"`
		Title            string `json:"title,omitempty"`
		Subject          string `json:"subject,omitempty"`
		Description      string `json:"description,omitempty"`
		CategoryID       int    `json:"category_id,omitempty"`
		Status           string `json:"status,omitempty"`
		StatusCode       *int   `json:"status_code,omitempty"`
		RequestType      string `json:"request_type,omitempty"`
		RequestTypeCode  *int   `json:"request_type_code,omitempty"`
		RequestID        int    `json:"request_id,omitempty"`
		ProviderID       string `json:"provider_id,omitempty"`
		CreatedDate      string `json:"created_date,omitempty"`
		ResolvedDate     string `json:"resolved_date,omitempty"`
		ReportedByUserID string `json:"reported_by_user_id,omitempty"`
	}
	commentPage struct {
		Kind  string          `json:"kind"` // "comment_page"
		Items []commentRecord `json:"items"`
		Page  paging          `json:"page"`
	}
	commentRecord struct {
		ID          int    `json:"id,omitempty"`
		IssueID     int    `json:"issue_id,omitempty"`
		Comment     string `json:"comment"`
		CreatedDate string `json:"created_date,omitempty"`
	}
	groupPage struct {
		Kind  string        `json:"kind"` // "group_page"
		Items []groupRecord `json:"items"`
		Page  paging        `json:"page"`
	}
	groupRecord struct {
		ProviderID string        `json:"provider_id,omitempty"`
		Title      string        `json:"title,omitempty"`
		Count      *int          `json:"count,omitempty"`
		Issues     []issueRecord `json:"issues,omitempty"`
	}
)

// ---- projections ----

// projectIssue keeps the allowlisted issue fields; nested users, comments
// and categories are never read.
func projectIssue(c *call, w *ombi.Issue) (issueRecord, bool) {
	if w.ID < 1 {
		return issueRecord{}, false
	}
	r := issueRecord{
		ID: w.ID, Title: w.Title, Subject: w.Subject, Description: w.Description,
		ProviderID: strings.TrimSpace(w.ProviderID), CreatedDate: w.CreatedDate, ResolvedDate: w.ResovledDate,
		ReportedByUserID: w.UserReportedID,
	}
	if w.IssueCategoryID > 0 {
		r.CategoryID = w.IssueCategoryID
	}
	if w.Status != nil {
		r.StatusCode = ptr(*w.Status)
		if l, ok := enumLabel(c, enumIssueStatus, "status", *w.Status); ok {
			r.Status = l
		} else if *w.Status < 0 || *w.Status > 3 {
			r.StatusCode = nil // outside the published code set: neither label nor code
		}
	}
	if w.RequestType != nil {
		r.RequestTypeCode = ptr(*w.RequestType)
		if l, ok := enumLabel(c, enumRequestType, "request_type", *w.RequestType); ok {
			r.RequestType = l
		} else if *w.RequestType < 0 || *w.RequestType > 2 {
			r.RequestTypeCode = nil
		}
	}
	if w.RequestID != nil && *w.RequestID > 0 {
		r.RequestID = *w.RequestID
	}
	return r, true
}

func projectIssues(c *call, ws []ombi.Issue) []issueRecord {
	out := make([]issueRecord, 0, len(ws))
	for i := range ws {
		if r, ok := projectIssue(c, &ws[i]); ok {
			out = append(out, r)
		}
	}
	return out
}

// projectGroup keeps a provider group, cutting nested issues to maxNested
// with a warning.
func projectGroup(c *call, w *ombi.IssueGroup) groupRecord {
	g := groupRecord{ProviderID: strings.TrimSpace(w.ProviderID), Title: w.Title}
	if w.Count != nil && *w.Count >= 0 {
		g.Count = ptr(*w.Count)
	}
	issues := w.Issues
	if len(issues) > maxNested {
		c.truncate("provider group %q has %d issues; returned the first %d", g.ProviderID, len(issues), maxNested)
		issues = issues[:maxNested]
	}
	g.Issues = projectIssues(c, issues)
	return g
}

// ---- read_issues ----

type issuesInput struct {
	Action     string   `json:"action"`
	Status     string   `json:"status"`
	ProviderID string   `json:"provider_id"`
	IssueID    int      `json:"issue_id"`
	Page       *pageArg `json:"page"`
}

// readIssues serves read_issues: list (v1, upstream paged individual
// issues), summary (v2, upstream paged provider groups), provider_summary,
// comments (local page) and counts (instance metrics).
// Implements S-ROUTING-0200, S-ROUTING-0201, S-ROUTING-0202 and S-RESULTS-0054 to S-RESULTS-0059.
func readIssues(d *deps) tool {
	return tool{name: "read_issues", handle: func(ctx context.Context, c *call) (any, error) {
		var in issuesInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		cl := d.client
		switch in.Action {
		case "list":
			status, err := enumCode(enumIssueStatus, "/status", in.Status)
			if err != nil {
				return nil, err
			}
			offset, limit := in.Page.window()
			ws, err := cl.Issues(ctx, limit, offset, status)
			if err != nil {
				return nil, err
			}
			ws = ws[:min(len(ws), limit)] // upstream may ignore take; the page never exceeds its limit
			items := projectIssues(c, ws)
			return issuePage{Kind: "issue_page", Items: items, Page: upstreamPage(offset, limit, len(ws), unitIssues)}, nil
		case "summary":
			status, err := enumCode(enumIssueStatus, "/status", in.Status)
			if err != nil {
				return nil, err
			}
			offset, limit := in.Page.window()
			ws, err := cl.IssueSummaries(ctx, offset, limit, status)
			if err != nil {
				return nil, err
			}
			ws = ws[:min(len(ws), limit)]
			items := make([]groupRecord, 0, len(ws))
			for i := range ws {
				items = append(items, projectGroup(c, &ws[i]))
			}
			return groupPage{Kind: "group_page", Items: items, Page: upstreamPage(offset, limit, len(ws), unitGroups)}, nil
		case "provider_summary":
			raw, err := cl.IssueDetails(ctx, in.ProviderID)
			if err != nil && !errors.Is(err, ombi.ErrNoContent) {
				return nil, err
			}
			items, err := providerGroups(c, raw)
			if err != nil {
				return nil, err
			}
			return groupPage{Kind: "group_page", Items: items, Page: singlePage(len(items), unitGroups)}, nil
		case "comments":
			ws, err := cl.IssueComments(ctx, in.IssueID)
			if err != nil {
				return nil, err
			}
			all := make([]commentRecord, 0, len(ws))
			for _, w := range ws {
				r := commentRecord{IssueID: in.IssueID, Comment: w.Comment, CreatedDate: w.Date}
				if w.ID > 0 {
					r.ID = w.ID
				}
				all = append(all, r)
			}
			window, pg := localPage(all, in.Page, true, unitComments)
			return commentPage{Kind: "comment_page", Items: window, Page: pg}, nil
		case "counts":
			w, err := cl.IssueCount(ctx)
			if err != nil {
				return nil, err
			}
			var ms []metric
			ms = appendIntMetric(ms, "pending", w.Pending, scopeInstance, unitIssues)
			ms = appendIntMetric(ms, "in_progress", w.InProgress, scopeInstance, unitIssues)
			ms = appendIntMetric(ms, "resolved", w.Resolved, scopeInstance, unitIssues)
			return newMetrics(ms), nil
		}
		return nil, &unsupportedError{Message: "read_issues: unknown branch"}
	}}
}

// providerGroups decodes the provider details answer: empty, null or []
// is an empty page, an object is one group.
func providerGroups(c *call, raw json.RawMessage) ([]groupRecord, error) {
	t := strings.TrimSpace(string(raw))
	if t == "" || t == "null" || t == "[]" {
		return []groupRecord{}, nil
	}
	var w ombi.IssueGroup
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, &ombi.SchemaError{Op: "GET /api/v2/Issues/details/{providerId}", Reason: "not an issue summary object"}
	}
	return []groupRecord{projectGroup(c, &w)}, nil
}

// ---- write_issue_create ----

type issueCreateInput struct {
	Title       string  `json:"title"`
	Subject     string  `json:"subject"`
	Description string  `json:"description"`
	CategoryID  int     `json:"category_id"`
	RequestType string  `json:"request_type"`
	RequestID   *int    `json:"request_id"`
	ProviderID  *string `json:"provider_id"`
}

// writeIssueCreate serves write_issue_create. The server never accepts
// author, timestamps, status or comments; the answer is the bare new id.
// Implements S-ROUTING-0205, S-ROUTING-0206, S-ROUTING-0207, S-ROUTING-0208.
func writeIssueCreate(d *deps) tool {
	return tool{name: "write_issue_create", handle: func(ctx context.Context, c *call) (any, error) {
		var in issueCreateInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		for _, f := range []struct{ field, v string }{{"/title", in.Title}, {"/subject", in.Subject}, {"/description", in.Description}} {
			if err := nonBlank(f.field, f.v); err != nil {
				return nil, err
			}
		}
		if in.RequestID == nil && in.ProviderID == nil {
			return nil, &ombi.ArgumentError{Field: "", Message: "give request_id or provider_id (at least one association)"}
		}
		rt, err := enumCode(enumRequestType, "/request_type", in.RequestType)
		if err != nil {
			return nil, err
		}
		if in.RequestID != nil && in.ProviderID != nil {
			if err := d.sameMedia(ctx, in.RequestType, *in.RequestID, *in.ProviderID); err != nil {
				return nil, err
			}
		}
		id, err := d.client.CreateIssue(ctx, ombi.IssueBody{
			Title: in.Title, Subject: in.Subject, Description: in.Description,
			IssueCategoryID: in.CategoryID, RequestType: rt, RequestID: in.RequestID, ProviderID: in.ProviderID,
		})
		if err != nil {
			return nil, err
		}
		m := completed()
		if id > 0 {
			m.IssueID = id
		} else {
			c.warn("upstream did not return the new issue id")
		}
		if in.RequestID != nil {
			m.RequestID = *in.RequestID
		}
		return m, nil
	}}
}

// sameMedia checks (RT-ISSUE-ASSOCIATION) that a request id and a provider
// id name the same media, with a read of the request's media.
func (d *deps) sameMedia(ctx context.Context, media string, requestID int, providerID string) error {
	ctx = ombi.ReadOnly(ctx)
	var (
		w   ombi.Media
		err error
	)
	switch media {
	case "movie":
		w, err = d.client.MovieByRequest(ctx, requestID)
	case "tv":
		w, err = d.client.TVByRequest(ctx, requestID)
	default:
		// An album request's media read names the artist, not the release
		// group an issue's provider id carries: the pair cannot be checked.
		return &ombi.ArgumentError{Field: "/provider_id", Message: "for album issues give request_id or provider_id, not both (the pair cannot be verified)"}
	}
	if err != nil {
		return associationError(err)
	}
	if w.TheMovieDbID == "" && w.ID == "" && w.TheTvDbID == "" && w.ImdbID == "" {
		// an answer without any id is not the request's media (for example
		// a RequestEngineResult failure): it cannot prove a mismatch
		return &ombi.SchemaError{Op: "GET /api/v2/Search/" + media + "/request/{requestId}", Reason: "the answer carries no media id"}
	}
	for _, id := range []ombi.FlexID{w.TheMovieDbID, w.ID, w.TheTvDbID} {
		if id != "" && string(id) == strings.TrimSpace(providerID) {
			return nil
		}
	}
	if w.ImdbID != "" && w.ImdbID == providerID {
		return nil
	}
	return &ombi.ArgumentError{Field: "/provider_id", Message: "provider_id does not match the media of request_id"}
}

func associationError(err error) error {
	if errors.Is(err, ombi.ErrNoContent) {
		return &ombi.ArgumentError{Field: "/request_id", Message: "request_id names no request of this request_type"}
	}
	return err
}

// ---- write_issue_comment ----

type issueCommentInput struct {
	IssueID int    `json:"issue_id"`
	Comment string `json:"comment"`
}

// writeIssueComment serves write_issue_comment; a 204 means the issue is
// missing (NOT_FOUND).
func writeIssueComment(d *deps) tool {
	return tool{name: "write_issue_comment", handle: func(ctx context.Context, c *call) (any, error) {
		var in issueCommentInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		if err := nonBlank("/comment", in.Comment); err != nil {
			return nil, err
		}
		w, err := d.client.AddIssueComment(ctx, ombi.CommentBody{Comment: in.Comment, IssueID: in.IssueID})
		if errors.Is(err, ombi.ErrNoContent) {
			return nil, &notFoundError{Message: "upstream has no issue " + strconv.Itoa(in.IssueID)}
		}
		if err != nil {
			return nil, err
		}
		m := completed()
		m.IssueID = in.IssueID
		if w.ID > 0 {
			m.CommentID = w.ID
		}
		return m, nil
	}}
}

// ---- write_issue_manage ----

type issueManageInput struct {
	Action     string `json:"action"`
	IssueID    int    `json:"issue_id"`
	Status     string `json:"status"`
	CommentID  int    `json:"comment_id"`
	Name       string `json:"name"`
	CategoryID int    `json:"category_id"`
}

// writeIssueManage serves write_issue_manage (moderation bundle). A false
// answer from a delete or category write is a rejection.
func writeIssueManage(d *deps) tool {
	return tool{name: "write_issue_manage", handle: func(ctx context.Context, c *call) (any, error) {
		var in issueManageInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		cl := d.client
		switch in.Action {
		case "set_status":
			status, err := enumCode(enumIssueStatus, "/status", in.Status)
			if err != nil {
				return nil, err
			}
			// Upstream lets any user change a status; the moderation
			// policy is enforced here: only power users and admins.
			me, err := cl.Self(ombi.ReadOnly(ctx))
			if err != nil {
				return nil, err
			}
			if !cl.CallerHas(&me, ombi.RoleAdmin, ombi.RolePowerUser) {
				return nil, forbidden("changing an issue's status needs the PowerUser or Admin role")
			}
			if in.Status == "closed" {
				c.warn("status closed is sent as 3, which upstream names Deleted (DECISIONS D5)")
			}
			ok, err := cl.SetIssueStatus(ctx, ombi.IssueStatusBody{IssueID: in.IssueID, Status: status})
			if err != nil {
				return nil, err
			}
			m, err := boolOutcome(ok, "the status change")
			m.IssueID = in.IssueID
			return m, err
		case "delete":
			ok, err := cl.DeleteIssue(ctx, in.IssueID)
			if err != nil {
				return nil, err
			}
			m, err := boolOutcome(ok, "the issue delete")
			m.IssueID = in.IssueID
			return m, err
		case "delete_comment":
			ok, err := cl.DeleteIssueComment(ctx, in.CommentID)
			if err != nil {
				return nil, err
			}
			m, err := boolOutcome(ok, "the comment delete")
			m.CommentID = in.CommentID
			return m, err
		case "create_category":
			if err := nonBlank("/name", in.Name); err != nil {
				return nil, err
			}
			ok, err := cl.CreateIssueCategory(ctx, in.Name)
			if err != nil {
				return nil, err
			}
			return boolOutcome(ok, "the category create")
		case "delete_category":
			ok, err := cl.DeleteIssueCategory(ctx, in.CategoryID)
			if err != nil {
				return nil, err
			}
			m, err := boolOutcome(ok, "the category delete")
			m.CategoryID = in.CategoryID
			return m, err
		}
		return nil, &unsupportedError{Message: "write_issue_manage: unknown branch"}
	}}
}

package mockombi

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// Issue statuses, from the state.
const (
	issuePending    = state.IssuePending
	issueInProgress = state.IssueInProgress
	issueResolved   = state.IssueResolved
)

// lookupUser resolves a stored reference (account id or user name).
func (st *store) lookupUser(ref string) *db.Account {
	if ref == "" {
		return nil
	}
	if a := st.Users.ByID(ref); a != nil {
		return a
	}
	return st.Users.ByName(ref)
}

// ombiUserOrNil projects a user reference as OmbiUser, or nil.
func (st *store) ombiUserOrNil(ref string) *state.OmbiUser {
	if a := st.lookupUser(ref); a != nil {
		return a.OmbiUser()
	}
	return nil
}

// ombiUserNav is the OmbiUser navigation of a projection: ombiUser, or
// with encoded its kept encoding (ombiUserJSON).
func (st *store) ombiUserNav(a *db.Account, encoded bool) any {
	if encoded {
		return st.Users.OmbiUserJSON(a)
	}
	return a.OmbiUser()
}

// issueView selects which navigations an Issues projection includes.
type issueView struct {
	reporter bool // Include(UserReported)
	comments bool // Include(Comments) with each comment's user
	// encoded puts each OmbiUser in as its kept encoding (a
	// json.RawMessage writeJSON copies in).
	encoded bool
}

// issueJSON projects an Issues entity; navigations not included are null,
// as EF leaves them.
func (st *store) issueJSON(x *state.Issue, v issueView) *state.IssueView {
	out := &state.IssueView{
		ID: x.ID, Title: x.Title, RequestType: x.RequestType, ProviderID: x.ProviderID,
		RequestID: x.RequestID, Subject: x.Subject, Description: x.Description,
		IssueCategoryID: x.IssueCategoryID, IssueCategory: st.Issues.Category(x.IssueCategoryID), Status: x.Status,
		ResolvedDate: x.ResolvedDate, CreatedDate: x.CreatedDate, UserReportedID: x.Reporter,
		PosterPath: x.PosterPath, Extra: x.Extra,
	}
	reporter := st.lookupUser(x.Reporter)
	if reporter != nil {
		out.UserReportedID = reporter.ID
	}
	if v.reporter && reporter != nil {
		out.UserReported = st.ombiUserNav(reporter, v.encoded)
	}
	if v.comments {
		out.Comments = make([]*state.IssueCommentView, 0, len(x.Comments))
		for _, c := range x.Comments {
			out.Comments = append(out.Comments, st.commentJSON(c, v.encoded))
		}
	}
	return out
}

// commentJSON projects an IssueComments entity with its user; encoded is
// as in issueView.
func (st *store) commentJSON(c *state.IssueComment, encoded bool) *state.IssueCommentView {
	out := &state.IssueCommentView{ID: c.ID, UserID: c.Author, Comment: c.Comment, IssuesID: c.IssueID, Date: c.Date}
	if a := st.lookupUser(c.Author); a != nil {
		out.UserID, out.User = a.ID, st.ombiUserNav(a, encoded)
	}
	return out
}

// issuesCategories answers GET Issues/categories.
func (s *Server) issuesCategories(w http.ResponseWriter, _ *http.Request) {
	var out []*state.IssueCategory
	s.store.Read(func(st *store) {
		out = slices.Clone(st.Issues.Categories)
		if out == nil {
			out = []*state.IssueCategory{}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// issuesCategoryCreate answers POST Issues/categories {value} with true.
func (s *Server) issuesCategoryCreate(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Value string `json:"value"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	s.store.Write(func(st *store) {
		st.Issues.Categories = append(st.Issues.Categories,
			&state.IssueCategory{ID: st.NextID("issueCategory"), Value: in.Value, Extra: state.Extra{}})
	})
	writeJSON(w, http.StatusOK, true)
}

// issuesCategoryDelete answers DELETE Issues/categories/{catId}; deleting a
// missing row throws upstream (500).
func (s *Server) issuesCategoryDelete(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "catId")
	if !ok {
		return
	}
	found := false
	s.store.Write(func(st *store) {
		st.Issues.Categories = slices.DeleteFunc(st.Issues.Categories, func(c *state.IssueCategory) bool {
			if c.ID == id {
				found = true
				return true
			}
			return false
		})
	})
	if !found {
		writeOmbiError(w, http.StatusInternalServerError, "Value cannot be null. (Parameter 'entity')")
		return
	}
	writeJSON(w, http.StatusOK, true)
}

// issuesAll answers GET Issues: every issue with its category.
func (s *Server) issuesAll(w http.ResponseWriter, _ *http.Request) {
	var out []*state.IssueView
	s.store.Read(func(st *store) {
		out = make([]*state.IssueView, 0, len(st.Issues.List))
		for _, x := range st.Issues.List {
			out = append(out, st.issueJSON(x, issueView{}))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// issuesList answers GET Issues/{take}/{skip}/{status}.
func (s *Server) issuesList(w http.ResponseWriter, r *http.Request) {
	take, ok := intParam(w, r, "take")
	if !ok {
		return
	}
	skip, ok := intParam(w, r, "skip")
	if !ok {
		return
	}
	status, ok := issueStatusParam(w, r.PathValue("status"))
	if !ok {
		return
	}
	var out []*state.IssueView
	s.store.Read(func(st *store) {
		out = []*state.IssueView{}
		seen := 0
		for _, x := range st.Issues.List {
			if x.Status != status {
				continue
			}
			seen++
			if seen <= skip || len(out) >= take {
				continue
			}
			out = append(out, st.issueJSON(x, issueView{reporter: true}))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// issueStatusParam binds an IssueStatus route value: a number or an enum
// name; anything else fails model binding (400).
func issueStatusParam(w http.ResponseWriter, v string) (int, bool) {
	if n, err := strconv.Atoi(v); err == nil {
		return n, true
	}
	for name, n := range map[string]int{"pending": 0, "inprogress": 1, "resolved": 2, "deleted": 3} {
		if strings.EqualFold(v, name) {
			return n, true
		}
	}
	writeProblemErrors(w, http.StatusBadRequest, map[string][]string{"status": {fmt.Sprintf("The value '%s' is not valid.", v)}})
	return 0, false
}

// issuesCount answers GET Issues/count.
func (s *Server) issuesCount(w http.ResponseWriter, _ *http.Request) {
	var counts state.IssueCount
	s.store.Read(func(st *store) {
		for _, x := range st.Issues.List {
			switch x.Status {
			case issuePending:
				counts.Pending++
			case issueInProgress:
				counts.InProgress++
			case issueResolved:
				counts.Resolved++
			}
		}
	})
	writeJSON(w, http.StatusOK, counts)
}

// issueCreateBody is the Issues body the client posts.
type issueCreateBody struct {
	Title           string  `json:"title"`
	RequestType     int     `json:"requestType"`
	ProviderID      *string `json:"providerId"`
	RequestID       *int    `json:"requestId"`
	Subject         string  `json:"subject"`
	Description     string  `json:"description"`
	IssueCategoryID int     `json:"issueCategoryId"`
	Status          int     `json:"status"`
	PosterPath      *string `json:"posterPath"`
}

// issuesCreate answers POST Issues with the new id as a bare int. Like
// upstream it stores the posted entity (status included) but sets the
// reporter and creation time itself.
func (s *Server) issuesCreate(w http.ResponseWriter, r *http.Request) {
	var in issueCreateBody
	if !decodeBody(w, r, &in) {
		return
	}
	p := principalOf(r)
	var id int
	s.store.Write(func(st *store) {
		id = st.NextID("issue")
		st.Issues.List = append(st.Issues.List, &state.Issue{
			ID: id, Title: in.Title, RequestType: in.RequestType, ProviderID: in.ProviderID, RequestID: in.RequestID,
			Subject: in.Subject, Description: in.Description, IssueCategoryID: in.IssueCategoryID,
			Status: in.Status, CreatedDate: s.now().UTC(), Reporter: p.id, PosterPath: in.PosterPath,
			Extra: state.Extra{},
		})
	})
	writeJSON(w, http.StatusOK, id)
}

// issuesGet answers GET Issues/{id}; a missing issue is null (204).
func (s *Server) issuesGet(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "id")
	if !ok {
		return
	}
	var out *state.IssueView
	s.store.Read(func(st *store) {
		if x := st.Issues.Find(id); x != nil {
			out = st.issueJSON(x, issueView{reporter: true})
		}
	})
	if out == nil {
		noContent(w)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// issuesByRequest answers GET Issues/request/{id}.
func (s *Server) issuesByRequest(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "id")
	if !ok {
		return
	}
	s.issuesWhere(w, func(x *state.Issue) bool { return x.RequestID != nil && *x.RequestID == id })
}

// issuesByProvider answers GET Issues/provider/{id}.
func (s *Server) issuesByProvider(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	s.issuesWhere(w, func(x *state.Issue) bool { return x.ProviderID != nil && *x.ProviderID == id })
}

// issuesWhere answers the issues matching keep, with category and reporter.
func (s *Server) issuesWhere(w http.ResponseWriter, keep func(*state.Issue) bool) {
	var out []*state.IssueView
	s.store.Read(func(st *store) {
		out = []*state.IssueView{}
		for _, x := range st.Issues.List {
			if keep(x) {
				out = append(out, st.issueJSON(x, issueView{reporter: true}))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// issuesComments answers GET Issues/{id}/comments as IssueCommentChatViewModel[].
func (s *Server) issuesComments(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "id")
	if !ok {
		return
	}
	var out []state.IssueChat
	s.store.Read(func(st *store) {
		out = []state.IssueChat{}
		x := st.Issues.Find(id)
		if x == nil {
			return
		}
		for _, c := range x.Comments {
			chat := state.IssueChat{ID: c.ID, Comment: c.Comment, Date: c.Date}
			if a := st.lookupUser(c.Author); a != nil {
				name := a.DisplayName()
				chat.Username = &name
				chat.AdminComment = slices.Contains(a.Roles, db.OmbiRoleAdmin) || slices.Contains(a.Roles, db.OmbiRolePowerUser) || a.UserType == 0
			}
			out = append(out, chat)
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// issuesCommentCreate answers POST Issues/comments {comment, issueId} with the
// new IssueComments, its user and issues populated as IssuesController.AddComment
// returns it; a missing issue is null (204).
func (s *Server) issuesCommentCreate(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Comment string `json:"comment"`
		IssueID *int   `json:"issueId"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	p := principalOf(r)
	var out *state.IssueCommentView
	s.store.Write(func(st *store) {
		if in.IssueID == nil {
			return
		}
		x := st.Issues.Find(*in.IssueID)
		if x == nil {
			return
		}
		c := &state.IssueComment{ID: st.NextID("issueComment"), Author: p.id, Comment: in.Comment, Date: s.now().UTC(), IssueID: x.ID}
		x.Comments = append(x.Comments, c)
		// EF fixes the new row's navigations up to the tracked user and
		// issue (loaded with UserReported and IssueCategory); the issue's
		// comments hold only the new row, a loop Newtonsoft drops. The
		// users go in as their kept encodings.
		out = st.commentJSON(c, true)
		issue := st.issueJSON(x, issueView{reporter: true, encoded: true})
		issue.Comments = []*state.IssueCommentView{}
		out.Issues = issue
	})
	if out == nil {
		noContent(w) // writeRecord's answer to a missing record
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// issuesCommentDelete answers DELETE Issues/comments/{id}; a missing comment
// throws upstream (500).
func (s *Server) issuesCommentDelete(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "id")
	if !ok {
		return
	}
	found := false
	s.store.Write(func(st *store) {
		for _, x := range st.Issues.List {
			n := len(x.Comments)
			x.Comments = slices.DeleteFunc(x.Comments, func(c *state.IssueComment) bool { return c.ID == id })
			found = found || len(x.Comments) != n
		}
	})
	if !found {
		writeOmbiError(w, http.StatusInternalServerError, "Value cannot be null. (Parameter 'entity')")
		return
	}
	writeJSON(w, http.StatusOK, true)
}

// issuesDelete answers DELETE Issues/{id}: false when missing.
func (s *Server) issuesDelete(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "id")
	if !ok {
		return
	}
	found := false
	s.store.Write(func(st *store) {
		st.Issues.List = slices.DeleteFunc(st.Issues.List, func(x *state.Issue) bool {
			if x.ID == id {
				found = true
				return true
			}
			return false
		})
	})
	writeJSON(w, http.StatusOK, found)
}

// issuesStatus answers POST Issues/status {issueId, status}: false when
// missing; Resolved stamps resovledDate.
func (s *Server) issuesStatus(w http.ResponseWriter, r *http.Request) {
	var in struct {
		IssueID int `json:"issueId"`
		Status  int `json:"status"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	found := false
	s.store.Write(func(st *store) {
		x := st.Issues.Find(in.IssueID)
		if x == nil {
			return
		}
		found = true
		x.Status = in.Status
		if in.Status == issueResolved {
			now := s.now().UTC()
			x.ResolvedDate = &now
		}
	})
	writeJSON(w, http.StatusOK, found)
}

// issuesSummary answers v2 GET Issues/{position}/{take}/{status}.
func (s *Server) issuesSummary(w http.ResponseWriter, r *http.Request) {
	position, ok := intParam(w, r, "position")
	if !ok {
		return
	}
	take, ok := intParam(w, r, "take")
	if !ok {
		return
	}
	status, ok := issueStatusParam(w, r.PathValue("status"))
	if !ok {
		return
	}
	var out []state.IssuesSummary
	s.store.Read(func(st *store) {
		order, counts := st.Issues.SummaryGroups(status, position, take)
		out = []state.IssuesSummary{}
		for _, g := range order {
			out = append(out, state.IssuesSummary{Title: g.Title, Count: counts[g], ProviderID: g.ProviderID})
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// issuesDetails answers v2 GET Issues/details/{providerId}: the issues of
// that provider id with the first title (IssuesEngine groups by title and
// keeps the first group), with comments, reporter and category; none is
// null (204).
func (s *Server) issuesDetails(w http.ResponseWriter, r *http.Request) {
	pid := r.PathValue("providerId")
	var out *state.IssuesSummary
	s.store.Read(func(st *store) {
		var list []*state.IssueView
		title := ""
		for _, x := range st.Issues.List {
			if x.ProviderID == nil || *x.ProviderID != pid {
				continue
			}
			if list == nil {
				title = x.Title
			}
			if x.Title == title {
				list = append(list, st.issueJSON(x, issueView{reporter: true, comments: true}))
			}
		}
		if list != nil {
			out = &state.IssuesSummary{Title: title, Count: len(list), ProviderID: pid, Issues: list}
		}
	})
	if out == nil {
		noContent(w)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

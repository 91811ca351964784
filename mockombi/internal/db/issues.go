package db

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// newIssueState loads issues.json; the large data set adds generated issues.
func newIssueState(sd *seedSet) (state.Issues, error) {
	var seed struct {
		Categories []map[string]any `json:"categories"`
		Issues     []map[string]any `json:"issues"`
	}
	if err := sd.decode("issues.json", &seed); err != nil {
		return state.Issues{}, err
	}
	var st state.Issues
	for _, raw := range seed.Categories {
		var c state.IssueCategory
		if err := seedRecord(raw, &c); err != nil {
			return state.Issues{}, fmt.Errorf("decode issue category: %w", err)
		}
		c.Extra = UndocumentedFields(raw, "id", "value")
		st.Categories = append(st.Categories, &c)
		sd.seenID("issueCategory", c.ID)
	}
	for _, raw := range seed.Issues {
		var is state.Issue
		if err := seedRecord(raw, &is); err != nil {
			return state.Issues{}, fmt.Errorf("decode issue %v: %w", raw["id"], err)
		}
		is.Extra = UndocumentedFields(raw, state.IssueKnownKeys...)
		for _, c := range is.Comments {
			c.IssueID = is.ID
			sd.seenID("issueComment", c.ID)
		}
		st.List = append(st.List, &is)
		sd.seenID("issue", is.ID)
	}
	if sd.large {
		base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := range 2000 {
			id := len(st.List) + 1
			pid := strconv.Itoa(100000 + i%400)
			is := &state.Issue{
				ID: id, Title: "Generated Title " + strconv.Itoa(i%400), RequestType: i % 2, ProviderID: &pid,
				Subject: "Generated issue " + strconv.Itoa(i), Description: "Generated description for load tests.",
				IssueCategoryID: 1 + i%5, Status: i % 3, CreatedDate: base.Add(time.Duration(i) * time.Hour),
				Reporter: []string{"admin", "power", "user"}[i%3], Extra: state.Extra{"generated": true},
			}
			for j := range i % 4 {
				is.Comments = append(is.Comments, &state.IssueComment{
					ID: 100000 + i*4 + j, Author: "user", Comment: "Generated comment " + strconv.Itoa(j),
					Date: is.CreatedDate.Add(time.Duration(j+1) * time.Minute), IssueID: id,
				})
			}
			st.List = append(st.List, is)
			sd.seenID("issue", id)
		}
		sd.seenID("issueComment", 100000+2000*4)
	}
	return st, nil
}

// seedRecord converts a decoded JSON value into a typed one.
func seedRecord(in, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// UndocumentedFields returns the keys of raw not listed in known: the undocumented
// fields a record carries.
func UndocumentedFields(raw map[string]any, known ...string) map[string]any {
	out := map[string]any{}
	for k, v := range raw {
		if !slices.Contains(known, k) {
			out[k] = v
		}
	}
	return out
}

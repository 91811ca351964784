package mockombi

import (
	"slices"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// TestSortByProperty_views: typed views sort by a member's wire name in
// any case, nulls first, by an undocumented member too; a list or nested
// request fails as Ombi's comparer does, the requesting user compares
// equal, a name the first item lacks is Ombi's null reference.
func TestSortByProperty_views(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }
	reason := func(s string) *string { return &s }
	views := func() []*state.ChildRequests {
		return []*state.ChildRequests{
			{BaseRequest: state.BaseRequest{ID: 1, Title: "b", RequestedDate: day(3), DeniedReason: reason("z"), RequestedUser: &state.OmbiUser{ID: "u1"}},
				SeasonRequests: []*state.SeasonRequests{}, ParentRequest: &state.TvRequests{}, Extra: state.Extra{"rank": 2.0}},
			{BaseRequest: state.BaseRequest{ID: 2, Title: "C", RequestedDate: day(1)},
				SeasonRequests: []*state.SeasonRequests{}, Extra: state.Extra{"rank": 3.0, "late": 1.0}},
			{BaseRequest: state.BaseRequest{ID: 3, Title: "a", RequestedDate: day(2), DeniedReason: reason("y"), RequestedUser: &state.OmbiUser{ID: "u2"}},
				SeasonRequests: []*state.SeasonRequests{}, ParentRequest: &state.TvRequests{}, Extra: state.Extra{"rank": 1.0}},
		}
	}
	tests := []struct {
		prop string
		asc  bool
		ids  []int
		err  string
	}{
		{"title", true, []int{3, 1, 2}, ""},
		{"TITLE", false, []int{2, 1, 3}, ""},
		{"requestedDate", true, []int{2, 3, 1}, ""},
		{"deniedReason", true, []int{2, 3, 1}, ""},
		{"rank", false, []int{2, 1, 3}, ""},
		{"requestedUser", true, []int{2, 1, 3}, ""},
		{"seasonRequests", true, []int{1, 2, 3}, "Failed to compare two elements in the array."},
		{"parentRequest", true, []int{1, 2, 3}, "Failed to compare two elements in the array."},
		{"nothing", true, []int{1, 2, 3}, msgNullReference},
		{"late", true, []int{1, 2, 3}, msgNullReference}, // the first item has no such member
	}
	for _, tt := range tests {
		t.Run(tt.prop, func(t *testing.T) {
			items := views()
			err := sortByProperty(items, viewMembers, tt.prop, tt.asc)
			var ids []int
			for _, it := range items {
				ids = append(ids, it.ID)
			}
			if err != tt.err || !slices.Equal(ids, tt.ids) {
				t.Errorf("sort by %s: %v %q, want %v %q", tt.prop, ids, err, tt.ids, tt.err)
			}
		})
	}
}

package spec

import (
	"strings"
	"testing"
)

func TestDescription(t *testing.T) {
	tests := []struct {
		name string
		tool string
		want []string
	}{
		{"text branch", "read_search", []string{"action=text: requires media(movie|tv|artist|album), query; allows page"}},
		{"optional media default", "read_requests", []string{"action=list: allows media=movie (default), status(", "action=list media=tv: allows status("}},
		{"selection modes", "write_request_create", []string{"selection: {mode=all} | {mode=first_season} | {mode=latest_season} | {mode=season, season_numbers} | {mode=episodes, seasons[{season_number, episodes}]}"}},
		{"details targets", "read_media", []string{"target: {media=movie, provider=tmdb, id}"}},
		{"single branch without action", "write_issue_comment", []string{"\n- requires issue_id, comment"}},
		{"at least one", "write_request_options", []string{"action=movie_advanced: requires request_id; at least one of root_folder_id, quality_profile_id\n"}},
		{"moderation", "write_request_moderate", []string{"action=deny media=movie: requires request_id, reason; allows is_4k"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Description(tt.tool)
			tool, _ := Lookup(tt.tool)
			if !strings.HasPrefix(d, tool.Description+"\n") {
				t.Errorf("Description(%s) does not start with the catalogue description:\n%s", tt.tool, d)
			}
			for _, w := range tt.want {
				if !strings.Contains(d, w) {
					t.Errorf("Description(%s) lacks %q:\n%s", tt.tool, w, d)
				}
			}
		})
	}
}

func TestDescription_everyBranchOneLine(t *testing.T) {
	total := 0
	for _, tool := range Tools() {
		bs, err := Branches(tool.Name)
		if err != nil {
			t.Fatal(err)
		}
		d := Description(tool.Name)
		total += len(d)
		if got := strings.Count(d, "\n- "); got != len(bs) {
			t.Errorf("Description(%s) has %d branch lines, want %d:\n%s", tool.Name, got, len(bs), d)
		}
		for _, banned := range []string{"outputSchema", "structuredContent", "envelope"} {
			if strings.Contains(d, banned) {
				t.Errorf("Description(%s) mentions the output contract (%q)", tool.Name, banned)
			}
		}
	}
	if Description("no_such_tool") != "" {
		t.Error("Description of an unknown tool is not empty")
	}
	t.Logf("descriptions of all %d tools: %d bytes", len(Tools()), total)
}

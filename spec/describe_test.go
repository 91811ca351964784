package spec

import (
	"slices"
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
		{"folded branches", "write_request_moderate", []string{"\n- action=approve|available|unavailable media=tv|album: requires request_id\n"}},
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

// expandBranchLine is the branch lines a folded line stands for: every
// combination of its label's values ("a=x|y b=z: ..." is "a=x b=z: ..."
// and "a=y b=z: ...").
func expandBranchLine(line string) []string {
	label, body, ok := strings.Cut(line, ": ")
	if !ok || !strings.Contains(label, "=") {
		return []string{line}
	}
	combos := []string{""}
	for _, tok := range strings.Fields(label) {
		k, vs, _ := strings.Cut(tok, "=")
		var next []string
		for _, c := range combos {
			for _, v := range strings.Split(vs, "|") {
				next = append(next, strings.TrimSpace(c+" "+k+"="+v))
			}
		}
		combos = next
	}
	for i := range combos {
		combos[i] += ": " + body
	}
	return combos
}

// TestDescription_everyBranchOneLine: every strict branch is described,
// once: on a line of its own, or folded into a line that lists the values
// of the one discriminator in which branches saying the same differ.
func TestDescription_everyBranchOneLine(t *testing.T) {
	total := 0
	for _, tool := range Tools() {
		bs, err := Branches(tool.Name)
		if err != nil {
			t.Fatal(err)
		}
		d := Description(tool.Name)
		total += len(d)
		// the published lines, each folded line expanded to the branches it
		// stands for, are the branch lines one by one
		var want, got []string
		for _, b := range bs {
			want = append(want, branchParts(b, len(bs) == 1).String())
		}
		for _, line := range strings.Split(d, "\n- ")[1:] {
			line, _, _ = strings.Cut(line, "\n") // nested choices follow the last one
			got = append(got, expandBranchLine(line)...)
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("Description(%s) stands for the branches\n%s\nwant\n%s", tool.Name, strings.Join(got, "\n"), strings.Join(want, "\n"))
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

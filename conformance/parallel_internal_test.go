package conformance

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
)

// TestPlanShards: every unit's checks land in exactly one process (a
// tool's example checks together, each property check on its own), the
// checks of no tool in the first, each process's label filter selects its
// own checks and no other's, and the same checks always give the same
// plan.
func TestPlanShards(t *testing.T) {
	var all []Check
	tools := []string{"", "read_search", "read_media", "write_vote", "read_logs", "write_job_run"}
	costs := map[string]float64{}
	for i, tool := range tools {
		for j := range 10 * (i + 1) {
			area := []string{"schema", "errors", "wire"}[j%3]
			c := Check{ID: fmt.Sprintf("X-%d-%d", i, j), Area: area, Tool: tool, Clause: "X-" + area}
			c.Labels = []string{area, framework.ClauseLabelPrefix + c.Clause}
			if tool != "" {
				c.Labels = append(c.Labels, framework.ToolLabelPrefix+tool)
			}
			if j < 2 {
				c.Clause = fmt.Sprintf("P-%d", j)
				c.Labels = []string{area, framework.LabelProperty, framework.ClauseLabelPrefix + c.Clause}
				if tool != "" {
					c.Labels = append(c.Labels, framework.ToolLabelPrefix+tool)
				}
			}
			if j%4 == 0 {
				costs[c.ID] = float64(100 * (j + 1))
			}
			all = append(all, c)
		}
	}
	for _, n := range []int{1, 2, 3, 4, 10, 100} {
		shards := planShards(all, costs, n)
		if want := min(n, len(tools)*3); len(shards) != want {
			t.Errorf("n=%d: %d shards, want %d", n, len(shards), want)
		}
		if !reflect.DeepEqual(shardFilters(shards), shardFilters(planShards(all, costs, n))) {
			t.Errorf("n=%d: two plans of the same checks differ", n)
		}
		owner := map[string]int{}
		units := map[shardUnit]int{}
		total := 0
		for i, s := range shards {
			total += s.checks
			match, err := types.ParseLabelFilter(s.filter)
			if err != nil {
				t.Fatalf("n=%d shard %d: filter %q: %v", n, i, s.filter, err)
			}
			for _, c := range all {
				if !match(c.Labels) {
					continue
				}
				if prev, ok := owner[c.ID]; ok {
					t.Errorf("n=%d: check %s selected by shards %d and %d", n, c.ID, prev, i)
				}
				owner[c.ID] = i
				u := unitOf(c)
				if prev, ok := units[u]; ok && prev != i {
					t.Errorf("n=%d: unit %s split over shards %d and %d", n, u.key(), prev, i)
				}
				units[u] = i
			}
		}
		if len(owner) != len(all) || total != len(all) {
			t.Errorf("n=%d: %d of %d checks owned, %d counted", n, len(owner), len(all), total)
		}
		if units[shardUnit{}] != 0 {
			t.Errorf("n=%d: the checks of no tool are in shard %d, want the first", n, units[shardUnit{}])
		}
	}
	if _, err := checkCosts(); err != nil {
		t.Errorf("the embedded cost table: %v", err)
	}
	if got := len(planShards(all, costs, 100)); got != 18 {
		t.Errorf("%d units, want 18: 6 groups of example checks and 12 property checks", got)
	}
}

func shardFilters(shards []*shard) []string {
	out := make([]string, len(shards))
	for i, s := range shards {
		out[i] = s.filter
	}
	return out
}

// TestStopOnFailure: every event reaches the progress, and the stop file
// appears at the first failed check (one in the baseline too, as
// --fail-fast counts it), never before.
func TestStopOnFailure(t *testing.T) {
	tests := []struct {
		states []string
		stop   bool
	}{
		{[]string{framework.StatePassed, framework.StateSkipped, framework.StateUnimplemented, framework.StateStale}, false},
		{[]string{framework.StatePassed, framework.StateFailed}, true},
		{[]string{framework.StateExpected}, true},
		{[]string{framework.StateFailed, framework.StateFailed}, true},
	}
	for _, tt := range tests {
		stop := filepath.Join(t.TempDir(), "stop")
		var seen []string
		var errOut bytes.Buffer
		event := stopOnFailure(stop, func(e checkEvent) { seen = append(seen, e.State) }, &errOut)
		for _, s := range tt.states {
			event(checkEvent{ID: "X", State: s})
		}
		_, err := os.Stat(stop)
		if got := err == nil; got != tt.stop {
			t.Errorf("%v: stop file %v, want %v", tt.states, got, tt.stop)
		}
		if !reflect.DeepEqual(seen, tt.states) || errOut.Len() != 0 {
			t.Errorf("%v: progress saw %v; errors %q", tt.states, seen, errOut.String())
		}
	}
}

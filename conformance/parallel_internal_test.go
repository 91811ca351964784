package conformance

import (
	"fmt"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

// TestPlanShards: every tool's checks land in exactly one process, the
// checks of no tool too, and each process's label filter selects its own
// checks and no other's.
func TestPlanShards(t *testing.T) {
	var checks []Check
	tools := []string{"", "read_search", "read_media", "write_vote", "read_logs", "write_job_run"}
	for i, tool := range tools {
		for j := range 10 * (i + 1) {
			area := []string{"schema", "errors", "wire"}[j%3]
			checks = append(checks, Check{ID: fmt.Sprintf("X-%d-%d", i, j), Area: area, Tool: tool})
		}
	}
	for _, n := range []int{1, 2, 3, 4, 10} {
		shards := planShards(checks, n)
		if len(shards) != min(n, len(tools)) {
			t.Errorf("n=%d: %d shards", n, len(shards))
		}
		owner := map[string]int{}
		total := 0
		for i, s := range shards {
			total += s.checks
			match, err := types.ParseLabelFilter(s.filter)
			if err != nil {
				t.Fatalf("n=%d shard %d: filter %q: %v", n, i, s.filter, err)
			}
			for _, tool := range tools {
				labels := []string{"schema"}
				if tool != "" {
					labels = append(labels, toolLabelPrefix+tool)
				}
				if match(labels) {
					if prev, ok := owner[tool]; ok {
						t.Errorf("n=%d: tool %q selected by shards %d and %d", n, tool, prev, i)
					}
					owner[tool] = i
				}
			}
		}
		if len(owner) != len(tools) || total != len(checks) {
			t.Errorf("n=%d: %d of %d tools owned, %d of %d checks", n, len(owner), len(tools), total, len(checks))
		}
	}
}

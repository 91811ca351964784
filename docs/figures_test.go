package docs

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/conformance/mutant"
)

// TestFigures_mutants holds the mutant counts docs/conformance.md quotes to
// the mutant tables themselves, so the page cannot drift when a mutant is
// added: the proxy mutants' kill score, the number of source mutants and
// how they spread over the five domains.
func TestFigures_mutants(t *testing.T) {
	b, err := os.ReadFile("conformance.md")
	if err != nil {
		t.Fatal(err)
	}
	page := strings.Join(strings.Fields(string(b)), " ") // prose wraps anywhere
	perDomain := map[string]int{}
	for _, m := range mutant.Sources() {
		perDomain[m.Domain]++
	}
	proxies := len(mutant.All())
	tests := []struct {
		name string
		re   string
		want []int
	}{
		{"proxy kill score", `It logs the kill score \((\d+)/(\d+)\)`, []int{proxies, proxies}},
		{"source mutants per domain", `There are (\d+), across the five domains \(search and details (\d+), requests and quotas (\d+), issues, votes and users (\d+), library, server, settings, integrations, logs and the transports (\d+), notifications and jobs (\d+)\)`,
			[]int{len(mutant.Sources()), perDomain[mutant.DomainSearch], perDomain[mutant.DomainRequests], perDomain[mutant.DomainUsers], perDomain[mutant.DomainAdmin], perDomain[mutant.DomainNotifications]}},
		{"make mutants", "`make mutants` judges all (\\d+)", []int{len(mutant.Sources())}},
	}
	for _, tt := range tests {
		m := regexp.MustCompile(tt.re).FindStringSubmatch(page)
		if m == nil {
			t.Errorf("%s: docs/conformance.md no longer says %q", tt.name, tt.re)
			continue
		}
		for i, want := range tt.want {
			if got, _ := strconv.Atoi(m[i+1]); got != want {
				t.Errorf("%s: docs/conformance.md quotes %q; figure %d is %d, the mutants give %d", tt.name, m[0], i+1, got, want)
			}
		}
	}
}

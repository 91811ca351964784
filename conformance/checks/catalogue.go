package checks

import (
	"fmt"
	"sort"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
)

// catalogueCheck is the one check of the tool catalogue: with every
// bundle enabled the server lists catalogue names only, every declared
// tool among them. Tools neither listed nor declared make it
// unimplemented, naming them.
func (s *Suite) catalogueCheck() {
	s.ClauseItFor("VERIFY-CATALOGUE-NAMES-001", "all-bundles", func(ctx ginkgo.SpecContext) {
		tools, _ := s.shared(ctx, s.allConfig()).Tools(ctx)
		missing, extra := diffNames(toolNames(tools), catalogueNames(harness.AllBundles))
		var declaredMissing, undeclared []string
		for _, name := range missing {
			if st, ok := s.ToolStatus(name); ok && !st.Declared {
				undeclared = append(undeclared, name)
			} else {
				declaredMissing = append(declaredMissing, name)
			}
		}
		s.expect(len(extra) == 0 && len(declaredMissing) == 0, nil,
			"tools/list with every bundle enabled has %d tools: declared (or expected) but not listed %v; not catalogue names %v (the 31 catalogue names are the contract); not listed and not declared, so unimplemented: %v",
			len(tools), declaredMissing, extra, undeclared)
		if len(undeclared) > 0 {
			sort.Strings(undeclared)
			skipAs(framework.StateUnimplemented, fmt.Sprintf("%d of the 31 catalogue tools are not listed: %s", len(undeclared), strings.Join(undeclared, ", ")))
		}
	})
}

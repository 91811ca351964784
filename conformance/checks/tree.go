package checks

import "github.com/onsi/ginkgo/v2"

// Labels with a meaning for live runs.
const (
	// LabelReadOnly marks checks that never mutate upstream state; a live
	// run without --allow-mutations runs only these.
	LabelReadOnly = "read-only"
	// LabelNeedsMock marks checks that need the embedded mock (journal,
	// faults, quirks, canaries); a live run never runs them.
	LabelNeedsMock = "needs-mock"
	// LabelNeedsJournal marks checks that need only the upstream's journal
	// and injected faults, which a live run has through the mockombi proxy
	// it puts in front of the live Ombi.
	LabelNeedsJournal = "needs-journal"
	// LabelOwnMock marks checks that start a private mock of their own
	// (the properties): they judge the server on the Ombi answers they
	// generate whatever the run's upstream is, so a live run runs them too.
	LabelOwnMock = "own-mock"
)

// Tree declares every area on the Ginkgo tree.
func (s *Suite) Tree() {
	ginkgo.BeforeEach(s.SkipUnjudged)
	s.protocolArea()
	s.schemaArea()
	s.wireArea()
	s.errorsArea()
	s.authArea()
	s.leakArea()
	s.budgetArea()
	s.propertyAreas()
	s.requestsAreas()
	s.adminAreas()
	s.wireGaps()
	s.routingGaps()
	s.mediaAreas()
	s.enumAreas()
	s.anyArea()
	s.resourcesArea()
	s.transportChecks()
	s.catchAreas()
	s.liveAreas()
}

// LiveFilter narrows a label filter for a live run.
func LiveFilter(filter string, allowMutations bool) string {
	live := "!" + LabelNeedsMock
	if !allowMutations {
		live += " && " + LabelReadOnly
	}
	if filter == "" {
		return live
	}
	return "(" + filter + ") && " + live
}

package checks

import (
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
)

// This file judges the reference catalogue resources of the design as a
// class (docs/server.md, Resources: ombi://reference/{catalogue}, and
// ombi://reference/{catalogue}/{media} with movie or tv for the catalogues
// kept per media kind): a URI that gives a media kind to a catalogue that
// has none, leaves it out of one that needs it, or names another media
// kind or no catalogue is refused.

// referenceUnlisted are reference URIs the template does not list.
var referenceUnlisted = []struct{ uri, why string }{
	{"ombi://reference/languages/movie", "languages is one catalogue, not one per media kind"},
	{"ombi://reference/countries/tv", "streaming countries are one catalogue"},
	{"ombi://reference/issue-categories/movie", "issue categories are one catalogue"},
	{"ombi://reference/genres/music", "genres are kept for movie and tv only"},
	{"ombi://reference/watch-providers/album", "watch providers are kept for movie and tv only"},
	{"ombi://reference/genres", "genres need a media kind"},
	{"ombi://reference/ratings", "no such catalogue"},
}

func (s *Suite) referenceResourceChecks() {
	ginkgo.Describe("resources reference", ginkgo.Label(framework.LabelResources, LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		s.ClauseItFor("RESOURCES-URI-001", "read_reference.reference-unlisted-refused", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_reference")
			srv := s.shared(ctx, s.allConfig())
			var e errs
			for _, u := range referenceUnlisted {
				rd, err := srv.ReadResource(ctx, u.uri)
				if err != nil {
					s.fail(nil, "read %s: %v", u.uri, err)
				}
				if rd.RPCError == nil {
					e.addf("%s was read (%s):\n    contents: %s", u.uri, u.why, ClipString(strings.TrimSpace(contentsText(rd.Result)), 300))
				}
			}
			s.expectNone(e, "a reference URI the template does not list must be refused")
		})
	})
}

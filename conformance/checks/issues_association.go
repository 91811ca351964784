package checks

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file judges the association of an issue with both a request and a
// provider id as a class (02-tool-mapping, write_issue_create: the pair is
// verified against the request's media before anything is written). The
// media read of the request is answered with each shape Ombi gives: the
// provider id matching any id the answer carries (TMDB, TVDB, the media id,
// IMDb) is the same media and the issue is created; an answer that carries
// no id at all proves no mismatch, so the call is not refused as one.

// associationAnswer is a media read answer and the provider id the case
// sends with it.
type associationAnswer struct {
	name     string
	body     map[string]any
	provider string
}

// associationCases are media answers whose ids match the provider id in
// each of the forms an answer names it.
var associationCases = []associationAnswer{
	{"tmdb-only", map[string]any{"theMovieDbId": "603", "title": "The Matrix"}, "603"},
	{"media-id-only", map[string]any{"id": 603, "title": "The Matrix"}, "603"},
	{"tvdb-only", map[string]any{"theTvDbId": "81189", "title": "Breaking Bad"}, "81189"},
	{"imdb", map[string]any{"id": 603, "theMovieDbId": "603", "imdbId": "tt0133093", "title": "The Matrix"}, "tt0133093"},
}

func (s *Suite) issueAssociationChecks() {
	ginkgo.Describe("wire issue association", ginkgo.Label("wire"), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("ROUTING-RULE8-RUNTIME-001", "write_issue_create.association-every-id-form", func(ctx ginkgo.SpecContext) {
			s.requireTool("write_issue_create")
			srv := s.shared(ctx, apiKeyConfig())
			var e errs
			for _, media := range []string{"movie", "tv"} {
				for _, c := range append(associationCases, associationAnswer{name: "no-id", body: map[string]any{"title": "The Matrix"}, provider: "603"}) {
					s.clean()
					body, _ := json.Marshal(c.body)
					if err := s.h.Upstream.InjectFault(mockombi.Fault{Method: http.MethodGet, Path: fmt.Sprintf("/api/v2/Search/%s/request/*", media), Status: http.StatusOK, Body: string(body)}); err != nil {
						s.fail(nil, "inject a media answer: %v", err)
					}
					args := map[string]any{"title": "The Matrix", "subject": "Audio", "description": "Out of sync.", "category_id": 1,
						"request_type": media, "request_id": 12, "provider_id": c.provider}
					o := s.call(ctx, srv, "write_issue_create", args)
					switch {
					case c.name == "no-id" && o.ErrorCode() == "INVALID_ARGUMENT":
						e.addf("%s: the request's media read answered no id (%s), yet the pair was refused as a mismatch: %s", media, body, clip(o.Structured, 300))
					case c.name != "no-id" && !o.OK():
						e.addf("%s %s: the request's media read answered %s, whose id matches provider_id %q, yet the issue was not created: %s", media, c.name, body, c.provider, clip(o.Structured, 300))
					}
				}
			}
			s.expectNone(e, "a provider id is verified against every id form of the request's media, and an answer without ids proves no mismatch")
		})
	})
}

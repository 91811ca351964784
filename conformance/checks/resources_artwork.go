package checks

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file judges the artwork resources of the design as a class (docs
// server.md, Resources: ombi://artwork/{media}/{provider}/{id}/{kind} for
// movie/tmdb, tv/tmdb and tv/tvdb with poster, background or banner, and
// music/musicbrainz/{id}/cover; read_library links it from a successful
// artwork answer, except random_artwork). Every artwork answer of every
// schema example that returns an item links its own resource, and that
// link reads; an artwork URI of a combination the template does not list
// is refused, whatever branch its segments resemble.

// artworkActions are the read_library actions whose answers have a stable
// artwork URI.
var artworkActions = []string{"movie_images", "tv_images", "album_art"}

// artworkArgs are the arguments of a read_library artwork call.
type artworkArgs struct {
	Action        string `json:"action"`
	Kind          string `json:"kind"`
	TMDBID        int    `json:"tmdb_id"`
	TVDBID        int    `json:"tvdb_id"`
	MusicBrainzID string `json:"musicbrainz_id"`
}

// artworkURIs are the resource URIs an artwork answer for a may link: one
// per id the arguments name.
func artworkURIs(a artworkArgs) []string {
	var out []string
	switch a.Action {
	case "movie_images":
		if a.TMDBID > 0 {
			out = append(out, fmt.Sprintf("ombi://artwork/movie/tmdb/%d/%s", a.TMDBID, a.Kind))
		}
	case "tv_images":
		if a.TVDBID > 0 {
			out = append(out, fmt.Sprintf("ombi://artwork/tv/tvdb/%d/%s", a.TVDBID, a.Kind))
		}
		if a.TMDBID > 0 {
			out = append(out, fmt.Sprintf("ombi://artwork/tv/tmdb/%d/%s", a.TMDBID, a.Kind))
		}
	case "album_art":
		if a.MusicBrainzID != "" {
			out = append(out, "ombi://artwork/music/musicbrainz/"+a.MusicBrainzID+"/cover")
		}
	}
	return out
}

// artworkUnlisted are artwork URIs of combinations the template does not
// list, each beside the branch its segments resemble: a read must be
// refused.
var artworkUnlisted = []struct{ uri, why string }{
	{"ombi://artwork/movie/tvdb/603/poster", "a movie has no TVDB artwork"},
	{"ombi://artwork/movie/musicbrainz/603/poster", "a movie has no MusicBrainz artwork"},
	{"ombi://artwork/music/tmdb/a7f3c5e2-0b1d-4c7e-9f3a-2d6b8e1c4f90/cover", "music artwork is keyed by MusicBrainz only"},
	{"ombi://artwork/tv/musicbrainz/81189/poster", "a series has no MusicBrainz artwork"},
	{"ombi://artwork/movie/tvdb/603/cover", "cover is music artwork's kind, and a movie has no TVDB artwork"},
	{"ombi://artwork/music/musicbrainz/a7f3c5e2-0b1d-4c7e-9f3a-2d6b8e1c4f90/poster", "music artwork has the kind cover only"},
	{"ombi://artwork/movie/tmdb/0/poster", "an id is positive"},
	{"ombi://artwork/tv/tmdb/01396/poster", "an id is written without leading zeros"},
}

// artworkImage is a plain image URL upstream may answer.
const artworkImage = "https://image.example.org/t/p/w500/artwork.jpg"

// artworkItems is how many items an artwork answer holds.
func artworkItems(o *harness.Outcome) int {
	var page struct {
		Items []json.RawMessage `json:"items"`
	}
	if !o.OK() || json.Unmarshal(o.Envelope.Data, &page) != nil {
		return 0
	}
	return len(page.Items)
}

func (s *Suite) artworkResourceChecks() {
	ginkgo.Describe("resources artwork", ginkgo.Label(framework.LabelResources, LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("RESOURCES-READ-001", "read_library.artwork-links", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_library")
			srv := s.shared(ctx, s.allConfig())
			var e errs
			judged := map[string]int{}
			for _, ex := range s.table("read_library").Valid {
				var a artworkArgs
				if json.Unmarshal(ex.Args, &a) != nil || !slices.Contains(artworkActions, a.Action) {
					continue
				}
				// the mock's own answer first; where it holds no artwork,
				// upstream answers a plain image URL in either shape
				o := s.call(ctx, srv, "read_library", ex.Args)
				for _, body := range []string{`"` + artworkImage + `"`, `{"url":"` + artworkImage + `"}`} {
					if artworkItems(o) > 0 {
						break
					}
					s.clean()
					if err := s.h.Upstream.InjectFault(mockombi.Fault{Method: http.MethodGet, Path: "/**", Status: http.StatusOK, Body: body}); err != nil {
						s.fail(nil, "inject an artwork answer: %v", err)
					}
					o = s.call(ctx, srv, "read_library", ex.Args)
				}
				s.clean()
				if artworkItems(o) == 0 {
					continue
				}
				judged[a.Action]++
				want := artworkURIs(a)
				var linked []string
				for _, l := range o.Links {
					linked = append(linked, l.URI)
				}
				i := slices.IndexFunc(linked, func(u string) bool { return slices.Contains(want, u) })
				if i < 0 {
					e.addf("read_library %s answered an artwork item but links %v, not its resource (one of %v)", clip(ex.Args, 160), linked, want)
					continue
				}
				rd, err := srv.ReadResource(ctx, linked[i])
				if err != nil {
					s.fail(o, "read %s: %v", linked[i], err)
				}
				if rd.RPCError != nil {
					e.addf("read_library %s links %s, whose read is refused: %v", clip(ex.Args, 160), linked[i], rd.RPCError)
				}
			}
			for _, action := range artworkActions {
				s.expect(judged[action] > 0, nil, "no schema example of read_library %s answered an artwork item; nothing was judged for it", action)
			}
			s.expectNone(e, "every artwork answer links its own artwork resource, and the link reads")
		})

		s.ClauseItFor("RESOURCES-URI-001", "read_library.artwork-unlisted-refused", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_library")
			srv := s.shared(ctx, s.allConfig())
			var e errs
			for _, u := range artworkUnlisted {
				rd, err := srv.ReadResource(ctx, u.uri)
				if err != nil {
					s.fail(nil, "read %s: %v", u.uri, err)
				}
				if rd.RPCError == nil {
					e.addf("%s was read (%s):\n    contents: %s", u.uri, u.why, ClipString(strings.TrimSpace(contentsText(rd.Result)), 300))
				}
			}
			s.expectNone(e, "an artwork URI of a combination the template does not list must be refused")
		})
	})
}

package checks

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file guards the provenance of emitted ids: a credit names the
// caller's person (04-results: Ombi returns only the person id, so the
// credit carries the caller-supplied person), every emitted provider id
// is a positive integer that upstream sent, and the TVDB request overlay
// finds its parent by tvDbId or by imdbId (02-tool-mapping).

// mediaItems is a media page as the provenance checks read it.
type mediaItems struct {
	Items []struct {
		Identifiers []struct {
			Namespace string `json:"namespace"`
			Value     string `json:"value"`
		} `json:"identifiers"`
		Credits []struct {
			Name     string `json:"name"`
			PersonID *int   `json:"person_id"`
		} `json:"credits"`
		Requested      *bool `json:"requested"`
		RequestTargets []struct {
			Kind string `json:"kind"`
			ID   int    `json:"id"`
		} `json:"request_targets"`
	} `json:"items"`
}

// numericNamespaces are identifier namespaces whose values are integers.
var numericNamespaces = map[string]bool{"tmdb": true, "tvdb": true}

func (s *Suite) provenanceChecks() {
	ginkgo.Describe("wire provenance of emitted ids", ginkgo.Label("wire"), func() {
		ginkgo.BeforeEach(s.clean)

		// Every credit of a person's credits names the caller's person, and
		// every title's TMDB id is a positive integer upstream listed.
		s.ClauseItFor("RESULTS-PROJECTION-001", "read_discover.credits-provenance", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			var e errs
			credits := 0
			for _, ex := range s.table("read_discover").Valid {
				var args struct {
					Action   string `json:"action"`
					PersonID int    `json:"person_id"`
					Name     string `json:"person_name"`
					Media    string `json:"media"`
				}
				if json.Unmarshal(ex.Args, &args) != nil || args.Action != "credits" {
					continue
				}
				// upstream's credits with a crew entry added: the person's
				// crew credits must name the caller's person as the cast do
				path := fmt.Sprintf("/api/v2/Search/actor/%d/%s", args.PersonID, args.Media)
				var raw map[string]any
				s.mockRaw(http.MethodGet, path, &raw)
				s.expect(raw != nil, nil, "the mock answers GET %s with no object", path)
				crew, _ := raw["crew"].([]any)
				raw["crew"] = append(crew, map[string]any{"id": 990001, "title": "Crew credit", "name": "Crew credit", "job": "Producer",
					"department": "Production", "release_date": "2001-01-01", "first_air_date": "2001-01-01"})
				b, _ := json.Marshal(raw)
				s.clean()
				s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: path, Status: http.StatusOK, Body: string(b)})
				listed := scalarSet(raw)
				o := s.call(ctx, srv, "read_discover", ex.Args)
				var page mediaItems
				s.okData(o, &page)
				for i, it := range page.Items {
					for _, c := range it.Credits {
						credits++
						if c.PersonID == nil || *c.PersonID != args.PersonID || c.Name != args.Name {
							got := "none"
							if c.PersonID != nil {
								got = strconv.Itoa(*c.PersonID)
							}
							e.addf("%s: items/%d: a credit names person %s (%q), not the caller's %d (%q)", clip(ex.Args, 120), i, got, c.Name, args.PersonID, args.Name)
						}
					}
					for _, id := range it.Identifiers {
						if !numericNamespaces[id.Namespace] {
							continue
						}
						if n, err := strconv.Atoi(id.Value); err != nil || n <= 0 {
							e.addf("%s: items/%d: %s id %q is no positive integer", clip(ex.Args, 120), i, id.Namespace, id.Value)
						} else if !listed[id.Value] {
							e.addf("%s: items/%d: %s id %s is not in upstream's answer", clip(ex.Args, 120), i, id.Namespace, id.Value)
						}
					}
				}
			}
			s.expect(credits > 0, nil, "no credits example returned a credit; nothing was judged")
			s.expectNone(e, "credit provenance")
		}, ginkgo.Label(LabelReadOnly))

		// The TVDB details overlay a TV parent that carries the show's
		// imdbId but another tvDbId (or none), with its real id; a parent
		// matching neither is no match.
		s.ClauseItFor("RESULTS-PROJECTION-001", "read_media.tvdb-overlay-provenance", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.allConfig())
			const tvdb = 81189
			var show map[string]any
			s.mockRaw(http.MethodGet, fmt.Sprintf("/api/v1/Search/tv/info/%d", tvdb), &show)
			imdb, _ := show["imdbId"].(string)
			s.expect(imdb != "", nil, "the mock's TVDB details of %d carry no imdbId", tvdb)
			var parents []map[string]any
			s.mockRaw(http.MethodGet, "/api/v1/Request/tv", &parents)
			s.liveNeedsData(len(parents) > 0, "TV parent request")
			s.expect(len(parents) > 0, nil, "the mock holds no TV parent requests")
			var e errs
			for _, tc := range []struct {
				name         string
				tvDbID       any
				imdbID       string
				wantMatch    bool
				parentRecord int
			}{
				{"imdb only", 0, imdb, true, 9101},
				{"other tvdb, same imdb", tvdb + 1, imdb, true, 9102},
				{"neither", tvdb + 1, "tt0000001", false, 9103},
			} {
				s.clean()
				p := map[string]any{}
				for k, v := range parents[0] {
					p[k] = v
				}
				p["id"], p["tvDbId"], p["imdbId"], p["childRequests"] = tc.parentRecord, tc.tvDbID, tc.imdbID, []any{}
				b, _ := json.Marshal([]any{p})
				if err := s.h.Upstream.InjectFault(mockombi.Fault{Method: http.MethodGet, Path: "/api/v1/Request/tv", Status: http.StatusOK, Body: string(b)}); err != nil {
					s.fail(nil, "inject the TV parents: %v", err)
				}
				o := s.call(ctx, srv, "read_media", mdDetails("tv", "tvdb", tvdb))
				var page mediaItems
				s.okData(o, &page)
				if len(page.Items) != 1 {
					e.addf("%s: want one record, got %d", tc.name, len(page.Items))
					continue
				}
				it := page.Items[0]
				found := false
				for _, t := range it.RequestTargets {
					if t.ID == tc.parentRecord {
						found = true
					} else {
						e.addf("%s: request target %s %d is not the parent upstream listed (%d)", tc.name, t.Kind, t.ID, tc.parentRecord)
					}
				}
				switch {
				case tc.wantMatch && (it.Requested == nil || !*it.Requested || !found):
					e.addf("%s: the parent %d matches by imdbId, but requested is %v and request_targets %v", tc.name, tc.parentRecord, provenanceBool(it.Requested), it.RequestTargets)
				case !tc.wantMatch && (found || it.Requested != nil && *it.Requested):
					e.addf("%s: the parent %d matches neither tvDbId nor imdbId, but the record is overlaid", tc.name, tc.parentRecord)
				}
			}
			s.expectNone(e, "TVDB overlay provenance")
		}, ginkgo.Label(LabelReadOnly))
	})
}

func provenanceBool(b *bool) string {
	if b == nil {
		return "absent"
	}
	return strconv.FormatBool(*b)
}

// scalarSet is every scalar of a JSON document as text (numbers as
// written, strings as they are).
func scalarSet(v any) map[string]bool {
	out := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			for _, e := range t {
				walk(e)
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		case float64:
			out[strconv.FormatFloat(t, 'f', -1, 64)] = true
		case nil:
		default:
			out[fmt.Sprint(t)] = true
		}
	}
	walk(v)
	return out
}

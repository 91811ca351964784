package checks

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode"

	"github.com/onsi/ginkgo/v2"
)

// This file holds the live checks of the TV id namespaces (S-ROUTING-0135,
// S-VERIFY-0032): Ombi's RecentlyAdded TV model and its multi-search carry
// ids whose provider its documents leave open, and a result that names an
// id with the wrong namespace sends an agent to another show. Each check
// reads through the server under test, then asks the Ombi itself for each
// identifier the result names, by that identifier's namespace (TMDB TV
// details, the v1 TVDB info route), and requires the
// title the Ombi finds to be the item's: the same TVDB or IMDb id where both
// name one, else the same title. The Ombi is the second source of ids: its
// details routes ask the providers themselves. An identifier the Ombi finds
// nothing for by its label is read in the other TV namespace: finding the
// item's title there shows the label wrong. An identifier found nowhere is
// not judged; a check that could judge none is skipped in a live run (its
// Ombi's providers did not answer) and fails against the mock, whose data
// resolve.

// liveIDRead is a read whose items name titles by provider ids.
type liveIDRead struct {
	name string
	tool string
	args func(s *Suite) map[string]any
	// providerTitles: the items' titles come from the same provider
	// calls as the Ombi's details (a search), so a differing title alone
	// is another title; a media server's titles (recently added) may
	// differ from the provider's and need a differing id as well.
	providerTitles bool
}

// liveIDReads are the reads the id checks judge.
var liveIDReads = []liveIDRead{
	{name: "read_library.recent_tv", tool: "read_library", args: func(*Suite) map[string]any { return map[string]any{"action": "recent_tv"} }},
	{name: "read_library.recent_tv_grouped", tool: "read_library", args: func(*Suite) map[string]any { return map[string]any{"action": "recent_tv_grouped"} }},
	{name: "read_search.multi.tv", tool: "read_search", args: func(s *Suite) map[string]any {
		return map[string]any{"action": "multi", "query": s.livePopularTVTitle(), "include": []string{"tv_shows"}}
	}, providerTitles: true},
	{name: "read_media.by_request.tv", tool: "read_media", args: func(s *Suite) map[string]any {
		return map[string]any{"action": "by_request", "media": "tv", "request_id": s.liveFirstTVRequest().ID}
	}, providerTitles: true},
	{name: "read_media.details.tv.tvdb", tool: "read_media", args: func(s *Suite) map[string]any {
		return map[string]any{"action": "details", "target": map[string]any{"media": "tv", "provider": "tvdb", "id": s.liveFirstTVRequest().TvDbID}}
	}, providerTitles: true},
}

// liveFirstTVRequest is the Ombi's first TV parent request with a TVDB id,
// read directly.
func (s *Suite) liveFirstTVRequest() (r struct {
	ID     int `json:"id"`
	TvDbID int `json:"tvDbId"`
}) {
	ginkgo.GinkgoHelper()
	var parents []struct {
		ID     int `json:"id"`
		TvDbID int `json:"tvDbId"`
	}
	s.directList("/api/v1/Request/tv", "TV requests", &parents)
	for _, p := range parents {
		if p.ID > 0 && p.TvDbID > 0 {
			return p
		}
	}
	s.liveNeedsData(false, "TV request with a TVDB id")
	s.fail(nil, "the mock holds no TV request with a TVDB id")
	return r
}

func (s *Suite) liveIDAreas() {
	ginkgo.Describe("wire", ginkgo.Label("wire", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		for _, r := range liveIDReads {
			s.ClauseItFor("RESULTS-PROJECTION-001", "live.ids."+r.name, func(ctx ginkgo.SpecContext) {
				s.liveIDs(ctx, r)
			})
		}
	})
}

// livePopularTVTitle is the title of the first show of the Ombi's popular
// TV list, read directly: a query its multi-search finds.
func (s *Suite) livePopularTVTitle() string {
	ginkgo.GinkgoHelper()
	for _, p := range s.livePopular("tv") {
		if strings.TrimSpace(p.Title) != "" {
			return p.Title
		}
	}
	s.liveNeedsData(false, "show in its popular TV list")
	s.fail(nil, "the mock's popular TV list names no show")
	return ""
}

// first is the value of the item's first identifier of namespace ns (""
// when none).
func (it mdItem) first(ns string) string {
	if ids := it.ids(ns); len(ids) > 0 {
		return ids[0]
	}
	return ""
}

// liveIDs reads r through the server and resolves each identifier of its
// items on the Ombi, by its namespace.
func (s *Suite) liveIDs(ctx ginkgo.SpecContext, r liveIDRead) {
	s.requireTool(r.tool)
	srv := s.shared(ctx, s.allConfig())
	args := r.args(s)
	o := s.call(ctx, srv, r.tool, args)
	var page struct {
		Items []mdItem `json:"items"`
	}
	s.okData(o, &page)
	var e errs
	judged := 0
	seen := map[string]bool{}
	for _, it := range page.Items {
		for _, x := range it.Identifiers {
			key := it.Media + " " + x.Namespace + " " + x.Value
			if seen[key] || len(seen) >= 12 {
				continue
			}
			seen[key] = true
			verdict, why := liveIDUnknown, ""
			if found, ok := s.liveResolve(it.Media, x.Namespace, x.Value); ok {
				verdict, why = liveSameTitle(it, found, r.providerTitles)
			}
			switch verdict {
			case liveIDSame:
				judged++
			case liveIDOther:
				judged++
				e.addf("%q names %s %s; the Ombi's %s details of %s are of another title: %s", it.Title, x.Namespace, x.Value, x.Namespace, x.Value, why)
			default:
				// nothing found by the label: the id may be another
				// provider's, which the Ombi then finds as this title
				other := liveOtherNamespace[x.Namespace]
				if found, ok := s.liveResolve(it.Media, other, x.Value); ok && other != "" {
					if v, _ := liveSameTitle(it, found, r.providerTitles); v == liveIDSame {
						judged++
						e.addf("%q names %s %s; the Ombi finds no title as %s %s, and finds this one as %s %s (%q): the id is %s", it.Title, x.Namespace, x.Value, x.Namespace, x.Value, other, x.Value, found.Title, other)
					}
				}
			}
		}
	}
	if judged == 0 {
		s.skipLive(fmt.Sprintf("the Ombi resolved none of the %d identifiers the result names (its providers did not answer for them)", len(seen)))
		s.fail(o, "the mock resolved none of the %d identifiers the result names by their namespace", len(seen))
	}
	s.expect(len(e) == 0, o, "%s %v: identifiers whose namespace the Ombi does not confirm (%d judged):\n%s", r.tool, args, judged, strings.Join(e, "\n"))
}

// liveOtherNamespace is, for a TV id namespace, the one it is mistaken
// for.
var liveOtherNamespace = map[string]string{"tmdb": "tvdb", "tvdb": "tmdb"}

// liveIDFound is what the Ombi's details say of an id: its title and the
// other ids they name.
type liveIDFound struct {
	Title     string
	TheTvDbID string
	ImdbID    string
}

// liveResolve asks the Ombi's details of an id by its namespace; false when
// there is no such route or the Ombi answers no title.
func (s *Suite) liveResolve(media, ns, value string) (liveIDFound, bool) {
	path := ""
	switch media + " " + ns {
	case "tv tmdb":
		path = "/api/v2/Search/tv/moviedb/" + value
	case "tv tvdb":
		path = "/api/v1/Search/tv/info/" + value
	default:
		return liveIDFound{}, false
	}
	rec := s.mockDirect(http.MethodGet, path, s.directHeader())
	var raw struct {
		Title     string `json:"title"`
		TheTvDbID any    `json:"theTvDbId"` // a string in v2 details, sometimes a number
		ImdbID    any    `json:"imdbId"`
	}
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &raw) != nil || strings.TrimSpace(raw.Title) == "" {
		return liveIDFound{}, false
	}
	text := func(v any) string {
		switch x := v.(type) {
		case string:
			return strings.TrimSpace(x)
		case float64:
			return fmt.Sprint(int64(x))
		}
		return ""
	}
	return liveIDFound{Title: raw.Title, TheTvDbID: text(raw.TheTvDbID), ImdbID: text(raw.ImdbID)}, true
}

// liveIDVerdict is what the Ombi's details say of an item's identifier.
type liveIDVerdict int

const (
	liveIDUnknown liveIDVerdict = iota // no evidence either way (a title only, which a locale may change)
	liveIDSame                         // the same title
	liveIDOther                        // another title
)

// liveSameTitle compares an item with the Ombi's details of one of its
// ids: the same TVDB or IMDb id where both name one, or the same title, is
// the same title; another title with an id of both that differs is
// another; a differing title alone is another only when the item's title
// came from the same provider (providerTitles), else it proves nothing (a
// media server's title may not be the provider's).
func liveSameTitle(it mdItem, f liveIDFound, providerTitles bool) (liveIDVerdict, string) {
	tvdb, imdb := it.first("tvdb"), it.first("imdb")
	if (tvdb != "" && tvdb == f.TheTvDbID) || (imdb != "" && strings.EqualFold(imdb, f.ImdbID)) || foldTitle(it.Title) == foldTitle(f.Title) {
		return liveIDSame, ""
	}
	var ids []string
	if tvdb != "" && f.TheTvDbID != "" {
		ids = append(ids, fmt.Sprintf("TVDB %s, not %s", f.TheTvDbID, tvdb))
	}
	if imdb != "" && f.ImdbID != "" {
		ids = append(ids, fmt.Sprintf("IMDb %s, not %s", f.ImdbID, imdb))
	}
	if len(ids) == 0 && !providerTitles {
		return liveIDUnknown, ""
	}
	if len(ids) == 0 {
		return liveIDOther, fmt.Sprintf("%q", f.Title)
	}
	return liveIDOther, fmt.Sprintf("%q (%s)", f.Title, strings.Join(ids, "; "))
}

// foldTitle is a title without case, spaces and punctuation.
func foldTitle(t string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, t)
}

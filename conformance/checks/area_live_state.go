package checks

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file holds the live checks of sentences about what a real Ombi
// does to a caller: the legacy TVDB info route answers requested: false
// whatever the truth (the server overlays the request state of the TV
// requests the Ombi holds), the ratings routes fail since the Rotten
// Tomatoes endpoints they call are gone (the server falls back to the
// search), the TV request search can fail on a LINQ
// fault (the server falls back to a bounded scan), and an invalid ApiKey
// is refused even on the routes that need no credentials (the server
// reports that as an authentication failure, naming no secret). They run against a live Ombi
// and the embedded mock alike, and only read.

// liveTVScan is how many TV requests of the Ombi the request-state check
// tries before it gives up finding one whose show the info route knows.
const liveTVScan = 5

// liveBadKey is the API key the invalid-key checks start a server with.
const liveBadKey = "invalid-key-0f3e9a7c51"

func (s *Suite) liveStateAreas() {
	ginkgo.Describe("wire", ginkgo.Label("wire", LabelReadOnly, LabelNeedsJournal), func() {
		ginkgo.BeforeEach(s.clean)
		s.ClauseItFor("RESULTS-PROJECTION-001", "live.read_media.details.tv.tvdb.requested-show", s.liveTVDBRequested)
		s.ClauseItFor("ROUTING-RULE5-TV-PARENT-CHILD-001", "live.read_requests.search.tv.answer-or-fallback", s.liveTVSearch)
	})
	ginkgo.Describe("errors", ginkgo.Label("errors", LabelReadOnly, LabelNeedsJournal), func() {
		ginkgo.BeforeEach(s.clean)
		s.ClauseItFor("VERIFY-ERROR-BOUNDARIES-001", "live.read_media.ratings.movie.answer-or-fallback", s.liveRatings)
	})
	ginkgo.Describe("auth", ginkgo.Label("auth", LabelReadOnly, LabelNeedsJournal), func() {
		ginkgo.BeforeEach(s.clean)
		for _, r := range liveBadKeyReads {
			s.ClauseItFor("VERIFY-OUTPUT-SAFE-ERRORS-001", "live.invalid-api-key."+r.name, func(ctx ginkgo.SpecContext) {
				s.liveBadKey(ctx, r.tool, r.args, r.route)
			})
		}
	})
}

// liveTVParent is what the check reads of a TV request of the Ombi.
type liveTVParent struct {
	ID            int    `json:"id"`
	Title         string `json:"title"`
	TvDbID        int    `json:"tvDbId"`
	ChildRequests []struct {
		SeasonRequests []liveSeason `json:"seasonRequests"`
	} `json:"childRequests"`
}

// liveSeason is a season of a TV child request: the episodes it holds.
type liveSeason struct {
	SeasonNumber int `json:"seasonNumber"`
	Episodes     []struct {
		EpisodeNumber int `json:"episodeNumber"`
	} `json:"episodes"`
}

// liveTVDBRequested reads the TV requests the Ombi holds, then the TVDB
// details of a requested show through the server: the v1 info route
// answers requested: false regardless, so the result must carry the
// request state of the Ombi's own requests (requested, the parent as a
// request target, each requested episode).
func (s *Suite) liveTVDBRequested(ctx ginkgo.SpecContext) {
	s.requireTool("read_media")
	parents := s.liveTVParents()
	srv := s.shared(ctx, s.allConfig())
	var tried []string
	for _, p := range parents {
		if p.TvDbID <= 0 || p.ID <= 0 || len(tried) == liveTVScan {
			continue
		}
		o := s.callUnchecked(ctx, srv, "read_media", map[string]any{"action": "details", "target": map[string]any{"media": "tv", "provider": "tvdb", "id": p.TvDbID}})
		info, ok := routeCall(o, fmt.Sprintf("GET /api/v1/Search/tv/info/%d", p.TvDbID))
		if !ok || info.Status != http.StatusOK {
			tried = append(tried, fmt.Sprintf("tvdb %d (the info route answered %d)", p.TvDbID, info.Status))
			continue // the Ombi's TV source does not know the show: nothing to overlay
		}
		s.judgeTVDBRequested(o, p)
		return
	}
	s.skipLive("the Ombi holds no TV request whose show its TVDB info route knows; tried " + strings.Join(tried, ", "))
	s.fail(nil, "the mock holds no TV request whose show its TVDB info route knows; tried %s", strings.Join(tried, ", "))
}

// liveTVParents reads the TV requests the Ombi holds, directly.
func (s *Suite) liveTVParents() []liveTVParent {
	ginkgo.GinkgoHelper()
	var parents []liveTVParent
	s.directList("/api/v1/Request/tv", "TV requests", &parents)
	return parents
}

// liveTVSearch searches the TV requests for the title of one the Ombi
// holds, as the Ombi answers and then with the search route answering 500
// (Ombi 4.53.10's LINQ translation fault, which the proxy or the mock
// answers): a search the Ombi answered is its parents, and a search it
// failed falls back to one bounded scan of the TV parents, matched on the
// title and said in a warning, never an error or an empty page.
func (s *Suite) liveTVSearch(ctx ginkgo.SpecContext) {
	s.requireTool("read_requests")
	var p liveTVParent
	for _, x := range s.liveTVParents() {
		if x.ID > 0 && strings.TrimSpace(x.Title) != "" && !strings.Contains(x.Title, "/") {
			p = x
			break
		}
	}
	s.liveNeedsData(p.ID > 0, "TV request with a title")
	if p.ID == 0 {
		s.fail(nil, "the mock holds no TV request with a title")
	}
	srv := s.shared(ctx, s.adminConfig())
	args := map[string]any{"action": "search", "media": "tv", "query": p.Title}
	judge := func(o *harness.Outcome, why string) {
		ginkgo.GinkgoHelper()
		calls := upstreamCalls(o)
		i := slices.IndexFunc(calls, func(c mockombi.Call) bool {
			return c.Method == http.MethodGet && strings.HasPrefix(strings.ToLower(pathOnly(c.Path)), "/api/v1/request/tv/search/")
		})
		if i < 0 {
			s.fail(o, "%s: the TV request search did not call GET /api/v1/Request/tv/search/{term}", why)
		}
		var page struct {
			Items []struct {
				Target target `json:"target"`
			} `json:"items"`
		}
		var e errs
		switch st := calls[i].Status; {
		case st == http.StatusOK:
			s.wantOK(o)
			_ = json.Unmarshal(o.Envelope.Data, &page)
			for _, it := range page.Items {
				if it.Target.Kind != "tv_parent" {
					e.addf("the Ombi's search answers TV parents; item %+v is not one", it.Target)
				}
			}
		case st >= 500:
			scan := slices.IndexFunc(calls[i+1:], func(c mockombi.Call) bool {
				return c.Method == http.MethodGet && strings.EqualFold(pathOnly(c.Path), "/api/v1/Request/tv")
			})
			if scan < 0 {
				e.addf("the search answered %d and the server made no bounded scan of GET /api/v1/Request/tv", st)
			}
			if !o.OK() {
				s.fail(o, "%s: the search answered %d; the fallback scan must answer it, got %q", why, st, o.ErrorCode())
			}
			_ = json.Unmarshal(o.Envelope.Data, &page)
			if !slices.ContainsFunc(page.Items, func(it struct {
				Target target `json:"target"`
			}) bool {
				return it.Target == target{Kind: "tv_parent", ID: p.ID}
			}) {
				e.addf("the fallback did not find TV request %d titled %q", p.ID, p.Title)
			}
			if len(o.Envelope.Warnings) == 0 {
				e.addf("the fallback is not said in warnings")
			}
		default:
			s.skipLive(fmt.Sprintf("the Ombi answered the TV request search with %d", st))
			e.addf("the mock answered the TV request search with %d", st)
		}
		s.expect(len(e) == 0, o, "%s:\n%s", why, strings.Join(e, "\n"))
	}
	judge(s.callUnchecked(ctx, srv, "read_requests", args), "as the Ombi answered")
	s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: "/api/v1/Request/tv/search/*", Status: http.StatusInternalServerError,
		Headers: map[string]string{"Content-Type": "application/json"}, Body: `{"error":"An error has occurred."}`})
	judge(s.callUnchecked(ctx, srv, "read_requests", args), "with the search answering 500")
}

// liveRatings reads the ratings of a movie the Ombi holds a request for,
// as the Ombi answers and then with the ratings route answering 500 (what
// Ombi 4.53.x answers since the Rotten Tomatoes endpoints it calls are
// gone): ratings the route gave are its Rotten Tomatoes values, and a
// route that failed is followed by the movie search, whose exact title
// and year match stands in (TMDB figures, said in a warning), or else the
// route's own failure is the answer; never Rotten Tomatoes values from a
// failed route, nor a not-found in place of its failure.
func (s *Suite) liveRatings(ctx ginkgo.SpecContext) {
	s.requireTool("read_media")
	var movies []struct {
		Title       string `json:"title"`
		ReleaseDate string `json:"releaseDate"`
	}
	s.directList("/api/v1/Request/movie", "movie requests", &movies)
	i := slices.IndexFunc(movies, func(m struct {
		Title       string `json:"title"`
		ReleaseDate string `json:"releaseDate"`
	}) bool {
		return strings.TrimSpace(m.Title) != "" && !strings.Contains(m.Title, "/") && len(m.ReleaseDate) >= 4 && m.ReleaseDate[:4] > "1000"
	})
	s.liveNeedsData(i >= 0, "movie request with a title and a release date")
	if i < 0 {
		s.fail(nil, "the mock holds no movie request with a title and a release date")
	}
	var year int
	_, _ = fmt.Sscanf(movies[i].ReleaseDate[:4], "%d", &year)
	args := map[string]any{"action": "ratings", "media": "movie", "title": movies[i].Title, "year": year}
	srv := s.shared(ctx, s.allConfig())
	judge := func(o *harness.Outcome, why string) {
		ginkgo.GinkgoHelper()
		calls := upstreamCalls(o)
		r := slices.IndexFunc(calls, func(c mockombi.Call) bool {
			return c.Method == http.MethodGet && strings.HasPrefix(strings.ToLower(pathOnly(c.Path)), "/api/v2/search/ratings/movie/")
		})
		if r < 0 {
			s.fail(o, "%s: the ratings read did not call GET /api/v2/Search/ratings/movie/{title}/{year}", why)
		}
		var page struct {
			Items []struct {
				Ratings []struct {
					Category string `json:"category"`
				} `json:"ratings"`
			} `json:"items"`
		}
		if o.OK() {
			_ = json.Unmarshal(o.Envelope.Data, &page)
		}
		var categories []string
		for _, it := range page.Items {
			for _, x := range it.Ratings {
				categories = append(categories, x.Category)
			}
		}
		searched := slices.ContainsFunc(calls[r+1:], func(c mockombi.Call) bool {
			return c.Method == http.MethodGet && strings.Contains(strings.ToLower(pathOnly(c.Path)), "/search/movie")
		})
		var e errs
		switch st := calls[r].Status; {
		case st == http.StatusOK && slices.Contains(categories, "rotten_tomatoes"):
			if searched {
				e.addf("the ratings route answered; no search may follow")
			}
		case st == http.StatusOK || st == http.StatusNotFound || st == http.StatusNoContent || st >= 500:
			if !searched {
				e.addf("the ratings route answered %d without ratings; the movie search must follow", st)
			}
			switch {
			case o.OK():
				if slices.Contains(categories, "rotten_tomatoes") || len(categories) == 0 {
					e.addf("the ratings route gave none, yet the result's ratings are %q (want the TMDB figures of the exact match)", categories)
				}
				if len(o.Envelope.Warnings) == 0 {
					e.addf("the stand-in figures are not said in a warning")
				}
			case st >= 500 && o.ErrorCode() != "UPSTREAM_REJECTED":
				e.addf("the route failed with %d and the search matched nothing; the route's failure is the answer (UPSTREAM_REJECTED), got %q", st, o.ErrorCode())
			}
		default:
			s.skipLive(fmt.Sprintf("the Ombi answered the ratings route with %d", st))
			e.addf("the mock answered the ratings route with %d", st)
		}
		s.expect(len(e) == 0, o, "%s:\n%s", why, strings.Join(e, "\n"))
	}
	judge(s.callUnchecked(ctx, srv, "read_media", args), "as the Ombi answered")
	s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: "/api/v2/Search/ratings/movie/*/*", Status: http.StatusInternalServerError,
		Headers: map[string]string{"Content-Type": "application/json"}, Body: `{"error":"An error has occurred."}`})
	judge(s.callUnchecked(ctx, srv, "read_media", args), "with the ratings route answering 500")
}

// judgeTVDBRequested judges the details of the show of parent p.
func (s *Suite) judgeTVDBRequested(o *harness.Outcome, p liveTVParent) {
	ginkgo.GinkgoHelper()
	s.wantOK(o)
	var page struct {
		Items []struct {
			Requested      *bool    `json:"requested"`
			RequestTargets []target `json:"request_targets"`
			Seasons        []struct {
				SeasonNumber int `json:"season_number"`
				Episodes     []struct {
					EpisodeNumber int   `json:"episode_number"`
					Requested     *bool `json:"requested"`
				} `json:"episodes"`
			} `json:"seasons"`
		} `json:"items"`
	}
	if json.Unmarshal(o.Envelope.Data, &page) != nil || len(page.Items) != 1 {
		s.fail(o, "the details of tvdb %d are not one media record", p.TvDbID)
	}
	it := page.Items[0]
	var e errs
	if it.Requested == nil || !*it.Requested {
		e.addf("requested is %s; the Ombi holds TV request %d of the show (its info route's requested flag is unreliable)", boolText(it.Requested), p.ID)
	}
	if !slices.Contains(it.RequestTargets, target{Kind: "tv_parent", ID: p.ID}) {
		e.addf("request_targets %v lack the Ombi's TV request {tv_parent %d}", it.RequestTargets, p.ID)
	}
	for _, ch := range p.ChildRequests {
		for _, sr := range ch.SeasonRequests {
			for _, ep := range sr.Episodes {
				for _, rs := range it.Seasons {
					for _, re := range rs.Episodes {
						if rs.SeasonNumber == sr.SeasonNumber && re.EpisodeNumber == ep.EpisodeNumber && (re.Requested == nil || !*re.Requested) {
							e.addf("S%02dE%02d is not requested; a child request of TV request %d holds it", sr.SeasonNumber, ep.EpisodeNumber, p.ID)
						}
					}
				}
			}
		}
	}
	s.expect(len(e) == 0, o, "the TVDB details do not carry the Ombi's request state:\n%s", strings.Join(e, "\n"))
}

// target is a request target of a result.
type target struct {
	Kind string `json:"kind"`
	ID   int    `json:"id"`
}

func boolText(b *bool) string {
	if b == nil {
		return "absent"
	}
	return fmt.Sprint(*b)
}

// liveBadKeyReads are reads a server started with an invalid API key makes:
// the health route and the base URL, which need no credentials, and a
// catalogue read.
var liveBadKeyReads = []struct {
	name  string
	tool  string
	args  map[string]any
	route string
}{
	{"read_server.status", "read_server", map[string]any{"action": "status"}, "GET /api/v1/Status"},
	{"read_settings.base_url", "read_settings", map[string]any{"section": "base_url"}, "GET /api/v1/Settings/baseurl"},
	{"read_reference.languages", "read_reference", map[string]any{"action": "languages"}, "GET /api/v2/Search/Languages"},
}

// liveBadKey starts a server in api_key mode with an invalid key (and no
// UserName, so that its first call is the read itself) and reads through
// it: Ombi validates a presented key on every route, open ones too, so
// the answer is 401, which the server reports as AUTHENTICATION_FAILED,
// without retrying without the key and without showing it. An Ombi that
// answers the open route anyway gets its answer reported as a success.
func (s *Suite) liveBadKey(ctx ginkgo.SpecContext, tool string, args map[string]any, route string) {
	s.requireTool(tool)
	srv := s.fresh(ctx, harness.Config{Bundles: harness.AllBundles, AuthMode: "api_key",
		Env: []string{"OMBI_API_KEY=" + liveBadKey, "OMBI_USER_NAME="}})
	o := s.callUnchecked(ctx, srv, tool, args)
	c, ok := routeCall(o, route)
	if !ok {
		s.fail(o, "the server answered %s without calling %s", tool, route)
	}
	var e errs
	for _, x := range upstreamCalls(o) {
		if x.Header.Get("ApiKey") != liveBadKey {
			e.addf("%s %s was sent with ApiKey %q, not the configured key (no call may drop or replace it)", x.Method, pathOnly(x.Path), x.Header.Get("ApiKey"))
		}
	}
	switch c.Status {
	case http.StatusUnauthorized:
		if o.ErrorCode() != "AUTHENTICATION_FAILED" {
			e.addf("the Ombi answered %s with 401 for the invalid key; the result must be AUTHENTICATION_FAILED, got %q", route, o.ErrorCode())
		}
		if o.Envelope != nil && o.Envelope.Error != nil && o.Envelope.Error.Retryable {
			e.addf("an invalid key is not retryable")
		}
	case http.StatusOK:
		if o.Envelope == nil || !o.Envelope.OK {
			e.addf("the Ombi answered %s with 200 despite the invalid key; the result must be that answer, got %q", route, o.ErrorCode())
		}
	default:
		s.skipLive(fmt.Sprintf("the Ombi answered %s with %d to an invalid key", route, c.Status))
		e.addf("the mock answered %s with %d to an invalid key; want 401", route, c.Status)
	}
	if strings.Contains(o.Text+string(o.Structured), liveBadKey) {
		e.addf("the result shows the configured API key")
	}
	s.expect(len(e) == 0, o, "with an invalid API key:\n%s", strings.Join(e, "\n"))
}

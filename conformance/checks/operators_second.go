package checks

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file judges, as classes, rules that operator mutants of the
// reference server slipped through (make mutation SAMPLE=200
// SEED=20261205, the second half of the sample):
//
//   - output hygiene removes exactly the terminal control sequences of an
//     upstream string (docs/server.md, Output hygiene): the text around
//     them reaches the client unchanged, whatever the sequence's form;
//   - an upstream answer planted on a read reaches the client as its
//     projection (04-results, Domain projections): a recently added
//     title's four-digit release year, a TV entry without a season number
//     listed without seasons, a credit's own title or name;
//   - an artwork URL that is not plain http(s) is withheld (04-results,
//     artwork_page: validated URIs).

// controlTitle is an upstream title carrying a terminal control sequence
// and the title the client must see: the sequence removed, nothing else.
type controlTitle struct {
	form, upstream, want string
}

// controlTitles cover the forms of ANSI/VT sequences output hygiene
// removes: CSI with parameters, CSI with an intermediate byte, an OSC
// ended by ST (ESC \), the C1 CSI, and a CSI cut off at the end.
var controlTitles = []controlTitle{
	{"CSI with parameters", "Alien\u001b[31m Resurrection", "Alien Resurrection"},
	{"CSI with an intermediate byte", "Alien\u001b[1 q Covenant", "Alien Covenant"},
	{"OSC ended by ST", "Heat\u001b]0;window title\u001b\\ Wave", "Heat Wave"},
	{"C1 CSI with parameters", "Tenet \u009b1mRising", "Tenet Rising"},
	{"CSI cut off at the end", "Dune\u001b[38;5", "Dune"},
}

// plantedRead is an upstream answer planted on one route of a read, and
// what the read must then show.
type plantedRead struct {
	name  string
	tool  string
	args  map[string]any
	route string // the glob of the GET answered
	body  string
	judge func(data json.RawMessage, o plantedOutcome) []string
}

// plantedOutcome is what a planted read's judge may look at besides data.
type plantedOutcome struct {
	calls []mockombi.Call
}

// plantedMedia is a media page's records, as far as these checks read them.
type plantedMedia struct {
	Items []struct {
		Title       string `json:"title"`
		Year        *int   `json:"year"`
		Identifiers []struct {
			Namespace string `json:"namespace"`
			Value     string `json:"value"`
		} `json:"identifiers"`
		Seasons []json.RawMessage `json:"seasons"`
	} `json:"items"`
}

// plantedReads are the answers planted on reads: each judged value is one
// upstream gave.
var plantedReads = []plantedRead{
	{
		name: "read_library.recent-projection", tool: "read_library",
		args:  map[string]any{"action": "recent_movies"},
		route: "/api/v1/RecentlyAdded/movies",
		body:  `[{"title":"Planted Year","theMovieDbId":"603","releaseYear":"1999"},{"title":"Planted Date","theMovieDbId":604,"releaseYear":"2003-05-15"}]`,
		judge: func(data json.RawMessage, _ plantedOutcome) []string {
			var p plantedMedia
			if err := json.Unmarshal(data, &p); err != nil {
				return []string{"decode the page: " + err.Error()}
			}
			want := map[string]int{"Planted Year": 1999, "Planted Date": 2003}
			var out []string
			for _, it := range p.Items {
				y, ok := want[it.Title]
				if !ok {
					continue
				}
				delete(want, it.Title)
				if it.Year == nil || *it.Year != y {
					out = append(out, fmt.Sprintf("%q: upstream's releaseYear gives the year %d, the record carries %v", it.Title, y, yearText(it.Year)))
				}
			}
			for t := range want {
				out = append(out, fmt.Sprintf("%q, recently added upstream, is not listed", t))
			}
			return out
		},
	},
	{
		name: "read_library.recent-tv-without-season", tool: "read_library",
		args:  map[string]any{"action": "recent_tv"},
		route: "/api/v1/RecentlyAdded/tv",
		body:  `[{"title":"Planted Show","tvDbId":81189,"releaseYear":"2008"},{"title":"Planted Episode","tvDbId":121361,"releaseYear":"2011","seasonNumber":2,"episodeNumber":3}]`,
		judge: func(data json.RawMessage, _ plantedOutcome) []string {
			var p plantedMedia
			if err := json.Unmarshal(data, &p); err != nil {
				return []string{"decode the page: " + err.Error()}
			}
			seen := map[string]int{}
			for _, it := range p.Items {
				seen[it.Title] = len(it.Seasons)
			}
			var out []string
			if n, ok := seen["Planted Show"]; !ok || n != 0 {
				out = append(out, fmt.Sprintf("a recently added show without a season number must be listed without seasons (listed: %v, seasons: %d)", ok, n))
			}
			if n, ok := seen["Planted Episode"]; !ok || n != 1 {
				out = append(out, fmt.Sprintf("a recently added episode of season 2 must be listed with that one season (listed: %v, seasons: %d)", ok, n))
			}
			return out
		},
	},
	{
		name: "read_discover.credit-titles", tool: "read_discover",
		args:  map[string]any{"action": "credits", "person_id": 6384, "person_name": "Keanu Reeves", "media": "movie"},
		route: "/api/v2/Search/actor/*/movie",
		body:  `{"cast":[{"id":603,"title":"Planted Credit","release_date":"1999-03-30","character":"Neo"}],"crew":[{"id":604,"title":"Planted Crew Credit","release_date":"2003-05-15","job":"Stunts","department":"Crew"}]}`,
		judge: creditTitles("Planted Credit", "Planted Crew Credit"),
	},
	{
		name: "read_discover.credit-names", tool: "read_discover",
		args:  map[string]any{"action": "credits", "person_id": 17419, "person_name": "Bryan Cranston", "media": "tv"},
		route: "/api/v2/Search/actor/*/tv",
		body:  `{"cast":[{"id":1396,"name":"Planted Series","first_air_date":"2008-01-20","character":"Walter White"}],"crew":[]}`,
		judge: func(data json.RawMessage, o plantedOutcome) []string {
			out := creditTitles("Planted Series")(data, o)
			for _, c := range o.calls {
				if strings.HasPrefix(c.Path, "/api/v2/Search/tv/") {
					out = append(out, "upstream named the TV credit; its title was read again from "+c.Path)
				}
			}
			return out
		},
	},
}

// creditTitles judges that the credits page lists each title.
func creditTitles(titles ...string) func(json.RawMessage, plantedOutcome) []string {
	return func(data json.RawMessage, _ plantedOutcome) []string {
		var p plantedMedia
		if err := json.Unmarshal(data, &p); err != nil {
			return []string{"decode the page: " + err.Error()}
		}
		have := map[string]bool{}
		for _, it := range p.Items {
			have[it.Title] = true
		}
		var out []string
		for _, t := range titles {
			if !have[t] {
				out = append(out, fmt.Sprintf("the credit upstream titled %q is not listed under that title: %s", t, clip(data, 300)))
			}
		}
		return out
	}
}

func yearText(y *int) string {
	if y == nil {
		return "none"
	}
	return fmt.Sprint(*y)
}

// recentTVRows are recently requested TV children that no parent of
// recentTVParents lists: each is placed through its media id, the TVDB id
// of one parent and the external provider id of another.
const recentTVRows = `[
 {"requestId": 99901, "type": 0, "title": "Planted Child One", "mediaId": "81189", "requestDate": "2026-01-02T00:00:00"},
 {"requestId": 99902, "type": 0, "title": "Planted Child Two", "mediaId": "1396", "requestDate": "2026-01-03T00:00:00"}
]`

// recentTVParents is the TV parent scan the rows are placed through.
const recentTVParents = `[
 {"id": 71, "title": "Planted Parent One", "tvDbId": 81189, "externalProviderId": 0, "childRequests": [{"id": 5}]},
 {"id": 72, "title": "Planted Parent Two", "tvDbId": 121361, "externalProviderId": 1396, "childRequests": [{"id": 6}]}
]`

// recentTVWant is the parent of each planted child, recentTVVia the id
// that names it.
var (
	recentTVWant = map[string]int{"99901": 71, "99902": 72}
	recentTVVia  = map[string]string{"99901": "tvDbId 81189", "99902": "externalProviderId 1396"}
)

// otherSchemeArtwork are image URLs of schemes other than http(s).
var otherSchemeArtwork = []string{
	"ftp://image.example.org/t/p/w500/poster.jpg",
	"javascript://image.example.org/%0Aalert(1)",
	"file://image.example.org/etc/poster.jpg",
}

func (s *Suite) operatorSecondChecks() {
	ginkgo.Describe("wire planted answers", ginkgo.Label("wire", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("RESULTS-PROJECTION-001", "read_search.control-sequences-only-removed", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_search")
			srv := s.shared(ctx, s.allConfig())
			var e errs
			for i, c := range controlTitles {
				s.clean()
				body, _ := json.Marshal([]map[string]any{{"id": 900 + i, "theMovieDbId": fmt.Sprint(900 + i), "title": c.upstream, "releaseDate": "2001-01-01T00:00:00"}})
				s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: searchMoviePrefix + "*", Status: http.StatusOK, Body: string(body)})
				o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": "movie", "query": "Planted"})
				var p plantedMedia
				if !o.OK() || json.Unmarshal(o.Envelope.Data, &p) != nil || len(p.Items) != 1 {
					e.addf("%s: a search answering one movie titled %q: want one record, got ok=%v %s %s", c.form, c.upstream, o.OK(), o.ErrorCode(), clip(o.Structured, 300))
					continue
				}
				if got := p.Items[0].Title; got != c.want {
					e.addf("%s: upstream's title %q reached the client as %q, want %q (the sequence removed, the text kept)", c.form, c.upstream, got, c.want)
				}
			}
			s.clean()
			s.expectNone(e, "output hygiene removes a control sequence and nothing else")
		})

		for _, r := range plantedReads {
			s.ClauseItFor("RESULTS-PROJECTION-001", r.name, func(ctx ginkgo.SpecContext) {
				s.requireTool(r.tool)
				srv := s.shared(ctx, s.allConfig())
				s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: r.route, Status: http.StatusOK, Body: r.body})
				o := s.call(ctx, srv, r.tool, r.args)
				s.clean()
				if !o.OK() {
					s.fail(o, "%s %v with a planted upstream answer: want an ok result, got %q", r.tool, r.args, o.ErrorCode())
				}
				s.expectNone(r.judge(o.Envelope.Data, plantedOutcome{calls: upstreamCalls(o)}), "the planted upstream answer reaches the client as its projection")
			})
		}

		s.ClauseItFor("RESULTS-PROJECTION-001", "read_requests.recent-tv-parent-by-provider-id", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_requests")
			srv := s.shared(ctx, s.allConfig())
			s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: "/api/v2/Requests/recentlyRequested", Status: http.StatusOK, Body: recentTVRows})
			s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: "/api/v1/Request/tv", Status: http.StatusOK, Body: recentTVParents})
			o := s.call(ctx, srv, "read_requests", map[string]any{"action": "recent"})
			s.clean()
			var page struct {
				Items []struct {
					Target struct {
						Kind string `json:"kind"`
						ID   int    `json:"id"`
					} `json:"target"`
					Identifiers []struct {
						Namespace string `json:"namespace"`
						Value     string `json:"value"`
					} `json:"identifiers"`
				} `json:"items"`
			}
			s.okData(o, &page)
			got := map[string]int{} // child id -> parent target id
			for _, it := range page.Items {
				for _, id := range it.Identifiers {
					if id.Namespace == "ombi_tv_child" {
						got[id.Value] = it.Target.ID
					}
				}
			}
			var e errs
			for child, parent := range recentTVWant {
				if got[child] != parent {
					e.addf("TV child request %s, whose media id is only its parent's %s: want target tv_parent %d, got %d (0: not listed)", child, recentTVVia[child], parent, got[child])
				}
			}
			s.expectNone(e, "a recently requested TV child is placed under the one parent its provider id names")
		})

		s.ClauseItFor("RESULTS-PROJECTION-001", "read_library.artwork-other-scheme-withheld", func(ctx ginkgo.SpecContext) {
			s.requireTool("read_library")
			srv := s.shared(ctx, s.allConfig())
			var e errs
			for _, u := range otherSchemeArtwork {
				for _, body := range []any{u, map[string]any{"url": u}} {
					s.clean()
					b, _ := json.Marshal(body)
					s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: "/api/v1/Images/**", Status: http.StatusOK, Body: string(b)})
					o := s.call(ctx, srv, "read_library", map[string]any{"action": "movie_images", "tmdb_id": 603, "kind": "poster"})
					if strings.Contains(string(o.Structured)+"\n"+o.Text, u) {
						e.addf("an artwork answer %s reached the client: an artwork URI is a plain http(s) URL", b)
					}
				}
			}
			s.clean()
			s.expectNone(e, "artwork URLs of another scheme are withheld")
		})
	})
}

package checks

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file holds what the request-domain checks share: direct reads of
// the embedded mock (to learn its current state independently of the
// server under test), journal helpers and the catalogue ids the mock
// knows. The mock's state is shared by every check and mutated by write
// checks in any order, so checks discover what exists instead of assuming
// seeded ids.

// Catalogue ids the mock holds (TMDB movie ids; TMDB/TVDB pairs of shows).
var (
	rqCatalogueMovies = []int{604, 605, 155, 13, 238, 278, 120, 121, 122, 11, 1891, 1892, 329, 105, 165, 196, 863, 10193, 438631, 346698, 1184918, 950396, 1241982, 299534, 299536, 1022789}
	rqCatalogueShows  = [][2]int{{2316, 73244}, {66732, 305288}, {1668, 79168}, {60059, 273181}, {100088, 392256}, {1429, 267440}, {119051, 396390}}
)

// rqRawMovies lists every movie request the mock holds.
func (s *Suite) rqRawMovies() []map[string]any {
	ginkgo.GinkgoHelper()
	var page struct {
		Collection []map[string]any `json:"collection"`
	}
	s.mockRaw("GET", "/api/v2/Requests/movie/1000/0/RequestedDate/desc", &page)
	return page.Collection
}

// rqRawParents lists every TV parent request the mock holds.
func (s *Suite) rqRawParents() []map[string]any {
	ginkgo.GinkgoHelper()
	var ps []map[string]any
	s.mockRaw("GET", "/api/v1/Request/tv", &ps)
	return ps
}

func rqNum(v any) int {
	switch x := v.(type) {
	case float64:
		return int(x)
	case string:
		n, _ := strconv.Atoi(x)
		return n
	}
	return 0
}

// rqFreshMovie returns a catalogue movie nobody has requested yet.
func (s *Suite) rqFreshMovie() int {
	ginkgo.GinkgoHelper()
	s.skipLive("needs a movie of the mock's catalogue nobody has requested")
	taken := map[int]bool{}
	for _, m := range s.rqRawMovies() {
		taken[rqNum(m["theMovieDbId"])] = true
	}
	for _, id := range rqCatalogueMovies {
		if !taken[id] {
			ginkgo.DeferCleanup(s.rqReleaseMovie, id)
			return id
		}
	}
	s.fail(nil, "the mock has no unrequested catalogue movie left")
	return 0
}

// rqFreshShow returns the TMDB and TVDB ids of a catalogue show without a
// parent request.
func (s *Suite) rqFreshShow() (tmdb, tvdb int) {
	ginkgo.GinkgoHelper()
	s.skipLive("needs a show of the mock's catalogue nobody has requested")
	taken := map[int]bool{}
	for _, p := range s.rqRawParents() {
		taken[rqNum(p["externalProviderId"])] = true
		taken[rqNum(p["tvDbId"])] = true
	}
	for _, sh := range rqCatalogueShows {
		if !taken[sh[0]] && !taken[sh[1]] {
			ginkgo.DeferCleanup(s.rqReleaseShow, sh[0], sh[1])
			return sh[0], sh[1]
		}
	}
	s.fail(nil, "the mock has no unrequested catalogue show left")
	return 0, 0
}

// rqReleaseMovie deletes, directly upstream, every request of a catalogue
// movie a check requested, so later checks find it fresh again.
func (s *Suite) rqReleaseMovie(tmdb int) {
	for _, m := range s.rqRawMovies() {
		if rqNum(m["theMovieDbId"]) == tmdb {
			s.mockRaw("DELETE", fmt.Sprintf("/api/v1/Request/movie/%d", rqNum(m["id"])), nil)
		}
	}
}

// rqReleaseShow deletes, directly upstream, the parent request (and so the
// children) of a catalogue show a check requested.
func (s *Suite) rqReleaseShow(tmdb, tvdb int) {
	for _, p := range s.rqRawParents() {
		if rqNum(p["externalProviderId"]) == tmdb || rqNum(p["tvDbId"]) == tvdb {
			s.mockRaw("DELETE", fmt.Sprintf("/api/v1/Request/tv/%d", rqNum(p["id"])), nil)
		}
	}
}

// rqEpisodeLists reads a show's details from the mock directly and returns
// season number -> episode numbers, as the server must expand them.
func (s *Suite) rqEpisodeLists(path string) map[int][]int {
	ginkgo.GinkgoHelper()
	var d struct {
		SeasonRequests []struct {
			SeasonNumber int `json:"seasonNumber"`
			Episodes     []struct {
				EpisodeNumber int `json:"episodeNumber"`
			} `json:"episodes"`
		} `json:"seasonRequests"`
	}
	if code := s.mockRaw("GET", path, &d); code != http.StatusOK {
		s.fail(nil, "the mock answered %d to GET %s", code, path)
	}
	out := map[int][]int{}
	for _, se := range d.SeasonRequests {
		for _, e := range se.Episodes {
			out[se.SeasonNumber] = append(out[se.SeasonNumber], e.EpisodeNumber)
		}
	}
	return out
}

// rqPostedEpisodes reads seasons[] of a posted TV body as season -> episodes.
func rqPostedEpisodes(body map[string]any) (map[int][]int, bool) {
	out := map[int][]int{}
	seasons, ok := body["seasons"].([]any)
	if !ok {
		return nil, false
	}
	for _, x := range seasons {
		se, _ := x.(map[string]any)
		n := rqNum(se["seasonNumber"])
		eps, _ := se["episodes"].([]any)
		out[n] = []int{}
		for _, e := range eps {
			em, _ := e.(map[string]any)
			out[n] = append(out[n], rqNum(em["episodeNumber"]))
		}
	}
	return out, true
}

func rqSorted(xs []int) []int {
	out := append([]int(nil), xs...)
	sort.Ints(out)
	return out
}

// rqPage is the request_page / retry_page shape the checks read.
type rqPage struct {
	Kind  string `json:"kind"`
	Items []struct {
		Target struct {
			Kind string `json:"kind"`
			ID   int    `json:"id"`
		} `json:"target"`
		ParentRequestID int `json:"parent_request_id"`
		Title           string
		Identifiers     []struct{ Namespace, Value string } `json:"identifiers"`
		Approved        *bool                               `json:"approved"`
		Available       *bool                               `json:"available"`
		Denied          *bool                               `json:"denied"`
		Is4K            *bool                               `json:"is_4k"`
		Approved4K      *bool                               `json:"approved_4k"`
		Available4K     *bool                               `json:"available_4k"`
		Denied4K        *bool                               `json:"denied_4k"`
		QueueID         int                                 `json:"queue_id"`
		RequestID       int                                 `json:"request_id"`
	} `json:"items"`
	Page truthPage `json:"page"`
}

// rqMutation is the mutation shape the checks read.
type rqMutation struct {
	Kind    string `json:"kind"`
	Outcome string `json:"outcome"`
	Target  *struct {
		Kind string `json:"kind"`
		ID   int    `json:"id"`
	} `json:"target"`
	RequestID     int               `json:"request_id"`
	Message       string            `json:"message"`
	AffectedCount *int              `json:"affected_count"`
	ItemResults   []json.RawMessage `json:"item_results"`
}

// rqMetrics reads a metrics family as name -> value (present keys only).
func (s *Suite) rqMetrics(o *harness.Outcome) map[string]any {
	ginkgo.GinkgoHelper()
	var ms struct {
		Kind   string `json:"kind"`
		Values []struct {
			Name  string `json:"name"`
			Value any    `json:"value"`
			Scope string `json:"scope"`
		} `json:"values"`
	}
	s.okData(o, &ms)
	out := map[string]any{}
	for _, v := range ms.Values {
		out[v.Name] = v.Value
		out[v.Name+"#scope"] = v.Scope
	}
	return out
}

// rqJournalSince waits up to wait for the journal to hold at least one call
// matching method and path after index start, then returns the matches.
func (s *Suite) rqJournalSince(start int, method, path string, wait time.Duration) []mockombi.Call {
	deadline := time.Now().Add(wait)
	for {
		var got []mockombi.Call
		j := s.h.Upstream.Journal()
		if start <= len(j) {
			for _, c := range j[start:] {
				if c.Method == method && strings.EqualFold(c.Path, path) {
					got = append(got, c)
				}
			}
		}
		if len(got) > 0 || time.Now().After(deadline) {
			return got
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// rqSettle waits a little so a delayed upstream answer is journaled.
func rqSettle(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

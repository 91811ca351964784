package checks

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
)

// This file holds the live check of a collection request (S-VERIFY-0051):
// Ombi answers one result for a whole collection, whatever each title's
// request did, so a server knows no per-title outcome unless it asked for
// each title itself. The check requests a collection through the server,
// then again (a retry), reads the Ombi's movie requests directly before and
// after each call, and holds every claim of the server's answers to what
// the Ombi did. It removes the requests the collection made when it ends.
// In a live run it needs --allow-mutations (the proxy's ledger owns the
// movie requests a collection request creates, read before and after).

// liveCollectionPick is a collection of the Ombi a run may request: its
// titles (TMDB ids) and those already requested or available.
type liveCollectionPick struct {
	id     int
	titles map[int]string // TMDB id -> title
	held   map[int]bool
}

// liveMovieState reads the Ombi's movie requests directly, each as
// "movie N" (without the requesting user's record).
func (s *Suite) liveMovieState() map[string]liveTVEntity {
	ginkgo.GinkgoHelper()
	return s.liveRequestState("/api/v1/Request/movie", "movie")
}

// liveCollectionFind picks, from the collections of the Ombi's popular
// movies, one with a title nobody requested; one that also holds a
// requested title first (a collection request then meets both).
func (s *Suite) liveCollectionFind(movies map[string]liveTVEntity) liveCollectionPick {
	ginkgo.GinkgoHelper()
	requested := map[int]bool{}
	for _, m := range movies {
		var tmdb int
		m.member("theMovieDbId", &tmdb)
		requested[tmdb] = true
	}
	popular := s.livePopular("movie")
	var fallback liveCollectionPick
	seen := map[int]bool{}
	for _, p := range popular {
		var details struct {
			BelongsToCollection *struct {
				ID int `json:"id"`
			} `json:"belongsToCollection"`
		}
		_ = json.Unmarshal(s.mockDirect(http.MethodGet, "/api/v2/Search/movie/"+strconv.Itoa(p.ID), s.directHeader()).Body.Bytes(), &details)
		if details.BelongsToCollection == nil || details.BelongsToCollection.ID <= 0 || seen[details.BelongsToCollection.ID] {
			continue
		}
		c := liveCollectionPick{id: details.BelongsToCollection.ID, titles: map[int]string{}, held: map[int]bool{}}
		seen[c.id] = true
		var coll struct {
			Collection []struct {
				ID        int    `json:"id"`
				Title     string `json:"title"`
				Requested bool   `json:"requested"`
				Available bool   `json:"available"`
			} `json:"collection"`
		}
		_ = json.Unmarshal(s.mockDirect(http.MethodGet, "/api/v2/Search/movie/collection/"+strconv.Itoa(c.id), s.directHeader()).Body.Bytes(), &coll)
		for _, m := range coll.Collection {
			c.titles[m.ID] = m.Title
			if m.Requested || m.Available || requested[m.ID] {
				c.held[m.ID] = true
			}
		}
		switch {
		case len(c.titles) == len(c.held):
		case len(c.held) > 0:
			return c
		case fallback.id == 0:
			fallback = c
		}
	}
	return fallback
}

// liveCollection requests a collection through the server twice (the
// second call is a retry) and judges each answer against what the Ombi did.
func (s *Suite) liveCollection(ctx ginkgo.SpecContext) {
	s.requireTool("write_request_create")
	if s.h.Validator.ValidateInput("write_request_create", json.RawMessage(`{"action":"collection","collection_id":1}`)) != nil {
		skipAs(framework.StateNotApplicable, "the catalogue's write_request_create takes no collection")
	}
	s.liveWritesOrSkip()
	srv := s.shared(ctx, s.liveWriteConfig())
	before := s.liveMovieState()
	c := s.liveCollectionFind(before)
	s.liveNeedsData(c.id > 0, "collection of a popular movie with a title nobody requested")
	if c.id == 0 {
		s.fail(nil, "the mock's popular movies belong to no collection with a title nobody requested")
	}
	var made []int
	ginkgo.DeferCleanup(func() {
		// the collection's requests go with the check
		now := s.liveMovieState()
		for _, id := range made {
			if _, there := now["movie "+strconv.Itoa(id)]; there {
				s.mockDirect(http.MethodDelete, "/api/v1/Request/movie/"+strconv.Itoa(id), s.directHeader())
			}
		}
	})
	args := map[string]any{"action": "collection", "collection_id": c.id}
	for _, call := range []string{"the collection request", "its retry"} {
		o := s.callUnchecked(ctx, srv, "write_request_create", args)
		s.SkipGated(o)
		after := s.liveMovieState()
		created := map[int]int{} // request id -> TMDB id
		counts := s.liveCounts() // in a live run, not another user's new request
		var e errs
		for k, m := range after {
			if _, old := before[k]; old || !counts(k) {
				continue
			}
			var id, tmdb int
			m.member("id", &id)
			m.member("theMovieDbId", &tmdb)
			created[id] = tmdb
			made = append(made, id)
			if _, ours := c.titles[tmdb]; !ours {
				e.addf("movie request %d of tmdb %d is new, and tmdb %d is no title of collection %d", id, tmdb, tmdb, c.id)
			}
			if c.held[tmdb] {
				e.addf("movie request %d asks again for tmdb %d (%s), which was requested or available before", id, tmdb, c.titles[tmdb])
			}
		}
		if ch := s.liveChanged(before, after); len(ch) > 0 {
			e.addf("requests there before changed: %s", strings.Join(ch, ", "))
		}
		e = append(e, liveCollectionSent(upstreamWrites(o))...)
		e = append(e, liveCollectionClaims(o, c, created)...)
		s.expect(len(e) == 0, o, "write_request_create %v, %s (the Ombi made %d movie requests: %v):\n%s", args, call, len(created), created, strings.Join(e, "\n"))
		for _, tmdb := range created {
			c.held[tmdb] = true
		}
		before = after
	}
}

// liveCollectionSent holds that a call sent no write twice: a collection
// request that is sent again may request again what the first made.
func liveCollectionSent(writes []string) errs {
	var e errs
	seen := map[string]bool{}
	for _, w := range writes {
		if seen[w] {
			e.addf("%s was sent twice in one call", w)
		}
		seen[w] = true
	}
	if len(writes) == 0 {
		e.addf("the call sent the Ombi no write")
	}
	return e
}

// liveCollectionClaims holds a collection request's answer to what the Ombi
// did (created: the new movie requests, by id, with their TMDB ids): a
// request id, a count or a per-title outcome only as the Ombi's requests
// show them; "completed" only when every title nobody had requested now
// is; "rejected", or a failure other than PARTIAL_FAILURE, only when
// nothing was made (RESULTS-PARTIAL-001).
func liveCollectionClaims(o *harness.Outcome, c liveCollectionPick, created map[int]int) errs {
	var e errs
	if !o.OK() {
		if len(created) > 0 && o.ErrorCode() != "PARTIAL_FAILURE" {
			e.addf("the call failed with %s, though the Ombi made %d movie requests (a partial effect is PARTIAL_FAILURE, never a claim that nothing happened)", o.ErrorCode(), len(created))
		}
		return e
	}
	var m struct {
		Outcome       string `json:"outcome"`
		RequestID     int    `json:"request_id"`
		AffectedCount *int   `json:"affected_count"`
		ItemResults   []struct {
			Identifier string `json:"identifier"`
			Outcome    string `json:"outcome"`
		} `json:"item_results"`
	}
	_ = json.Unmarshal(o.Envelope.Data, &m)
	if _, ok := created[m.RequestID]; m.RequestID != 0 && !ok {
		e.addf("the answer names request %d, which the call did not make (it made %v)", m.RequestID, slices.Sorted(maps.Keys(created)))
	}
	if m.AffectedCount != nil && *m.AffectedCount != len(created) {
		e.addf("the answer counts %d affected, and the Ombi made %d movie requests", *m.AffectedCount, len(created))
	}
	var missing []string
	for tmdb, title := range c.titles {
		if !c.held[tmdb] && !slices.Contains(slices.Collect(maps.Values(created)), tmdb) {
			missing = append(missing, fmt.Sprintf("%d (%s)", tmdb, title))
		}
	}
	slices.Sort(missing)
	switch {
	case m.Outcome == "completed" && len(missing) > 0:
		e.addf("the answer says completed, and titles nobody had requested are still not: %s", strings.Join(missing, ", "))
	case m.Outcome == "rejected" && len(created) > 0:
		e.addf("the answer says rejected, and the Ombi made %d movie requests", len(created))
	}
	for _, it := range m.ItemResults {
		req, tmdb, ok := liveCollectionItem(it.Identifier, c, created)
		switch {
		case !ok:
			e.addf("item %q names no title of collection %d and no request the call made", it.Identifier, c.id)
		case it.Outcome == "completed" && req == 0:
			e.addf("item %q says completed, and the Ombi holds no new request of tmdb %d", it.Identifier, tmdb)
		case it.Outcome == "rejected" && req != 0:
			e.addf("item %q says rejected, and the call made request %d of tmdb %d", it.Identifier, req, tmdb)
		}
	}
	return e
}

// liveCollectionItem reads a per-title outcome's identifier as a title of
// the collection (its TMDB id or its title) or a request the call made: the
// request made of that title (0 when none) and its TMDB id.
func liveCollectionItem(identifier string, c liveCollectionPick, created map[int]int) (req, tmdb int, ok bool) {
	n, err := strconv.Atoi(strings.TrimSpace(identifier))
	if err == nil {
		if t, made := created[n]; made {
			return n, t, true
		}
	}
	for t, title := range c.titles {
		if (err == nil && t == n) || strings.EqualFold(title, strings.TrimSpace(identifier)) {
			for id, ct := range created {
				if ct == t {
					return id, t, true
				}
			}
			return 0, t, true
		}
	}
	return 0, 0, false
}

// upstreamWrites lists the writes a call sent upstream, each as callLine
// renders it.
func upstreamWrites(o *harness.Outcome) []string {
	var out []string
	for _, c := range upstreamCalls(o) {
		if c.Method != http.MethodGet && c.Method != http.MethodHead {
			out = append(out, callLine(c))
		}
	}
	return out
}

package server

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"pgregory.net/rapid"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

var reqAllBundles = []string{spec.BundleCore, spec.BundleModeration, spec.BundleAdministration}

// reqAPIKeyOptions are server Options using the mock's API key (the principal
// API, an admin) with every bundle enabled.
func reqAPIKeyOptions(m *mockombi.Server) Options {
	return Options{URL: m.URL(), AuthMode: AuthAPIKey, APIKey: m.Credentials().APIKey, Bundles: reqAllBundles}
}

// reqUserOptions log in as the mock's plain user (movie quota 10 a week).
func reqUserOptions(t testing.TB, m *mockombi.Server) Options {
	t.Helper()
	for _, u := range m.Credentials().Users {
		if u.Role == mockombi.RoleUser {
			return Options{URL: m.URL(), AuthMode: AuthJWT, Username: u.Username, Password: u.Password, Bundles: reqAllBundles}
		}
	}
	t.Fatal("mockombi has no plain user")
	return Options{}
}

// reqFatal is what testing.TB and *rapid.T share.
type reqFatal interface {
	Helper()
	Fatalf(format string, args ...any)
}

// reqCall is harness.call for any reqFatal (a *rapid.T is not a
// testing.TB): the envelope must validate against the outputSchema and
// isError must equal !ok.
func reqCall(t reqFatal, h *harness, tool string, args any) result {
	t.Helper()
	res, err := h.session.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatalf("encode structuredContent: %v", err)
	}
	if err := h.validator.ValidateOutput(tool, raw); err != nil {
		t.Fatalf("%s %v: envelope violates outputSchema: %v\n%s", tool, args, err, raw)
	}
	var r result
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("decode envelope: %v", err)
	}
	r.raw = raw
	if res.IsError == r.OK {
		t.Fatalf("%s: isError=%v but ok=%v", tool, res.IsError, r.OK)
	}
	return r
}

func reqPage(t reqFatal, r result) reqPageOut {
	t.Helper()
	var p reqPageOut
	if !r.OK || json.Unmarshal(r.Data, &p) != nil || p.Kind != "request_page" {
		t.Fatalf("want a request_page, got %s", r.raw)
	}
	return p
}

func reqMetrics(t reqFatal, r result) map[string]any {
	t.Helper()
	var ms metrics
	if !r.OK || json.Unmarshal(r.Data, &ms) != nil {
		t.Fatalf("want metrics, got %s", r.raw)
	}
	out := map[string]any{}
	for _, m := range ms.Values {
		out[m.Name] = m.Value
	}
	return out
}

func TestRequestsEndToEnd_tvSeasonLifecycle(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	h := newHarness(t, m, reqAPIKeyOptions(m))
	m.ClearJournal()
	// Stranger Things (TMDB 66732) is in the catalogue, not requested.
	r := h.call(t, "write_request_create", map[string]any{"action": "tv", "provider": "tmdb", "id": 66732,
		"selection": map[string]any{"mode": "season", "season_numbers": []int{2, 1}}})
	mu := reqMutation(t, r)
	if mu.Target == nil || mu.Target.Kind != "tv_child" {
		t.Fatalf("mutation = %s", r.raw)
	}
	calls := h.upstreamCalls()
	if len(calls) != 2 || calls[0].Method != "GET" || calls[0].Path != "/api/v2/Search/tv/moviedb/66732" ||
		calls[1].Method != "POST" || calls[1].Path != "/api/v2/Requests/tv" {
		t.Fatalf("journal = %+v", calls)
	}
	var body ombi.TVRequestBody
	if err := json.Unmarshal(calls[1].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.RequestAll || body.FirstSeason || body.LatestSeason || len(body.Seasons) != 2 ||
		body.Seasons[0].SeasonNumber != 2 || len(body.Seasons[0].Episodes) != 9 || len(body.Seasons[1].Episodes) != 8 {
		t.Fatalf("posted body = %s", calls[1].Body)
	}
	// The child shows up in the TV list with its parent, and in recent as
	// the resolved parent.
	list := reqPage(t, h.call(t, "read_requests", map[string]any{"action": "list", "media": "tv", "page": map[string]any{"limit": 100}}))
	var parent int
	for _, it := range list.Items {
		if it.Target == *mu.Target {
			parent = it.ParentRequestID
		}
	}
	if parent == 0 {
		t.Fatalf("created child %d not listed with a parent: %+v", mu.Target.ID, list.Items)
	}
	recent := reqPage(t, h.call(t, "read_requests", map[string]any{"action": "recent"}))
	if !slices.ContainsFunc(recent.Items, func(it reqItemOut) bool {
		return it.Target == target{Kind: "tv_parent", ID: parent}
	}) {
		t.Fatalf("recent lacks tv_parent %d: %+v", parent, recent.Items)
	}
	// Deleting the parent removes its children.
	del := reqMutation(t, h.call(t, "write_request_delete", map[string]any{"kind": "tv_parent", "request_id": parent}))
	if del.Outcome != "completed" || !strings.Contains(del.Message, "child") {
		t.Fatalf("delete = %+v", del)
	}
	kids := h.call(t, "read_requests", map[string]any{"action": "children", "parent_request_id": parent})
	if kids.OK && len(reqPage(t, kids).Items) != 0 {
		t.Fatalf("children survive their parent: %s", kids.raw)
	}
}

func TestRequestsEndToEnd_knownUpstreamFaults(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	h := newHarness(t, m, reqAPIKeyOptions(m))
	if err := m.SetQuirk("v2_list_null_reference", true); err != nil {
		t.Fatal(err)
	}
	r := h.call(t, "read_requests", map[string]any{"action": "list", "media": "movie"})
	if r.OK || r.Error.Code != codeUpstreamRejected || !r.Error.Retryable {
		t.Fatalf("v2 list fault = %s", r.raw)
	}
	for _, c := range h.upstreamCalls() {
		if strings.Contains(strings.ToLower(c.Path), "tvlite") || strings.HasPrefix(c.Path, "/api/v1/") {
			t.Fatalf("a failed v2 list must not be replaced by another route: %+v", c)
		}
	}
	if err := m.SetQuirk("tv_search_linq", true); err != nil {
		t.Fatal(err)
	}
	m.ClearJournal()
	p := reqPage(t, h.call(t, "read_requests", map[string]any{"action": "search", "media": "tv", "query": "breaking"}))
	if len(p.Items) != 1 || p.Items[0].Target.Kind != "tv_parent" || p.Items[0].Title != "Breaking Bad" {
		t.Fatalf("fallback search = %+v", p)
	}
	calls := h.upstreamCalls()
	if len(calls) != 2 || calls[1].Path != "/api/v1/Request/tv" {
		t.Fatalf("journal = %+v", calls)
	}
}

// reqMovieState is the model of one movie request.
type reqMovieState struct {
	tmdb                        string
	approved, denied, available bool
	mine                        bool // created by the user during this run
}

// reqModel is what the state machine expects upstream to hold.
type reqModel struct {
	admin, user *harness
	movies      map[int]*reqMovieState
	remaining   int
	otherCounts map[string]float64 // counts of TV children (not touched)
}

func reqBool(b *bool) bool { return b != nil && *b }

// reqCatalogueMovies are TMDB ids of the mock's movie catalogue.
var reqCatalogueMovies = []int{603, 604, 605, 550, 27205, 157336, 155, 680, 13, 238, 278, 120, 121, 122, 11, 1891, 1892, 329, 105, 165}

// TestRequestsStateMachine drives random create/moderate/delete/subscribe
// sequences through the server against the mock and checks the movie list,
// counts, total and the user's quota after every step.
func TestRequestsStateMachine(t *testing.T) {
	mock := startMock(t, mockombi.Options{})
	admin := newHarness(t, mock, reqAPIKeyOptions(mock))
	user := newHarness(t, mock, reqUserOptions(t, mock))
	rapid.Check(t, func(rt *rapid.T) {
		mock.Reset()
		md := &reqModel{admin: admin, user: user, movies: map[int]*reqMovieState{}}
		// A read first: the reset rotated the mock's tokens, and only a
		// read may renew the login.
		q := reqMetrics(rt, reqCall(rt, user, "read_request_stats", map[string]any{"action": "quota", "media": "movie"}))
		if q["has_limit"] != true || q["limit"] != 10.0 {
			rt.Fatalf("user quota = %v", q)
		}
		md.remaining = int(q["remaining"].(float64))
		for _, it := range reqPage(rt, reqCall(rt, admin, "read_requests", map[string]any{"action": "list", "media": "movie", "page": map[string]any{"limit": 100}})).Items {
			st := &reqMovieState{approved: reqBool(it.Approved), denied: reqBool(it.Denied), available: reqBool(it.Available)}
			for _, id := range it.Identifiers {
				if id.Namespace == "tmdb" {
					st.tmdb = id.Value
				}
			}
			md.movies[it.Target.ID] = st
		}
		counts := reqMetrics(rt, reqCall(rt, admin, "read_request_stats", map[string]any{"action": "counts"}))
		md.otherCounts = map[string]float64{}
		for k, v := range md.tally() {
			md.otherCounts[k] = counts[k].(float64) - v
		}
		rt.Repeat(map[string]func(*rapid.T){
			"":          md.check,
			"create":    md.create,
			"moderate":  md.moderate,
			"delete":    md.delete,
			"subscribe": md.subscribe,
		})
	})
}

func (md *reqModel) ids() []int {
	var ids []int
	for id := range md.movies {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// pickID draws a known request id, or now and then one that does not exist.
func (md *reqModel) pickID(t *rapid.T) int {
	ids := md.ids()
	if len(ids) == 0 || rapid.IntRange(0, 9).Draw(t, "missing") == 0 {
		return 90000 + rapid.IntRange(0, 99).Draw(t, "missingID")
	}
	return rapid.SampledFrom(ids).Draw(t, "id")
}

func (md *reqModel) byTMDB(tmdb string) bool {
	for _, m := range md.movies {
		if m.tmdb == tmdb {
			return true
		}
	}
	return false
}

func (md *reqModel) create(t *rapid.T) {
	tmdb := rapid.SampledFrom(reqCatalogueMovies).Draw(t, "tmdb")
	r := reqCall(t, md.user, "write_request_create", map[string]any{"action": "movie", "tmdb_id": tmdb})
	key := strconv.Itoa(tmdb)
	if md.byTMDB(key) || md.remaining == 0 {
		if r.OK || r.Error.Code != codeUpstreamRejected {
			t.Fatalf("create of an already requested movie or over quota must be UPSTREAM_REJECTED: %s", r.raw)
		}
		return
	}
	mu := reqMutation(t, r)
	if mu.Target == nil || mu.Target.Kind != "movie" || md.movies[mu.Target.ID] != nil {
		t.Fatalf("create = %s", r.raw)
	}
	md.movies[mu.Target.ID] = &reqMovieState{tmdb: key, mine: true}
	md.remaining--
}

func (md *reqModel) moderate(t *rapid.T) {
	action := rapid.SampledFrom([]string{"approve", "deny", "available", "unavailable"}).Draw(t, "action")
	id := md.pickID(t)
	args := map[string]any{"action": action, "media": "movie", "request_id": id}
	if action == "deny" {
		args["reason"] = "Not now"
	}
	r := reqCall(t, md.admin, "write_request_moderate", args)
	st := md.movies[id]
	if st == nil {
		if r.OK || r.Error.Code != codeUpstreamRejected {
			t.Fatalf("moderating a missing request must fail: %s", r.raw)
		}
		return
	}
	if mu := reqMutation(t, r); mu.Target == nil || *mu.Target != (target{Kind: "movie", ID: id}) {
		t.Fatalf("moderate = %s", r.raw)
	}
	switch action {
	case "approve":
		st.approved, st.denied = true, false
	case "deny":
		st.denied = true
	case "available":
		st.available = true
	case "unavailable":
		st.available = false
	}
}

func (md *reqModel) delete(t *rapid.T) {
	id := md.pickID(t)
	r := reqCall(t, md.admin, "write_request_delete", map[string]any{"kind": "movie", "request_id": id})
	st := md.movies[id]
	if st == nil {
		if r.OK {
			t.Fatalf("deleting a missing request must fail: %s", r.raw)
		}
		return
	}
	reqMutation(t, r)
	delete(md.movies, id)
	if st.mine {
		md.remaining++
	}
}

func (md *reqModel) subscribe(t *rapid.T) {
	ids := md.ids()
	if len(ids) == 0 {
		t.Skip("no request to subscribe to")
	}
	id := rapid.SampledFrom(ids).Draw(t, "id")
	action := rapid.SampledFrom([]string{"subscribe", "unsubscribe"}).Draw(t, "action")
	mu := reqMutation(t, reqCall(t, md.user, "write_request_subscribe", map[string]any{"action": action, "media": "movie", "request_id": id}))
	if mu.Target == nil || mu.Target.ID != id {
		t.Fatalf("subscribe = %+v", mu)
	}
	got := reqCall(t, md.user, "read_requests", map[string]any{"action": "get", "media": "movie", "request_id": id})
	p := reqPage(t, got)
	if len(p.Items) != 1 || p.Items[0].Subscribed == nil || *p.Items[0].Subscribed != (action == "subscribe") {
		t.Fatalf("after %s, get = %s", action, got.raw)
	}
}

// tally counts the model's movies as upstream's Request/count does: the
// buckets overlap (a denied request that is also approved or available is
// counted in both).
func (md *reqModel) tally() map[string]float64 {
	out := map[string]float64{"pending": 0, "approved": 0, "available": 0, "denied": 0}
	for _, m := range md.movies {
		if !m.approved && !m.available && !m.denied {
			out["pending"]++
		}
		if m.approved && !m.available {
			out["approved"]++
		}
		if m.available {
			out["available"]++
		}
		if m.denied {
			out["denied"]++
		}
	}
	return out
}

func (md *reqModel) check(t *rapid.T) {
	list := reqPage(t, reqCall(t, md.admin, "read_requests", map[string]any{"action": "list", "media": "movie", "page": map[string]any{"limit": 100}}))
	got := map[int]bool{}
	for _, it := range list.Items {
		got[it.Target.ID] = true
		st := md.movies[it.Target.ID]
		if st == nil {
			t.Fatalf("listed request %d is not in the model", it.Target.ID)
		}
		if reqBool(it.Approved) != st.approved || reqBool(it.Denied) != st.denied || reqBool(it.Available) != st.available {
			t.Fatalf("request %d flags approved=%v denied=%v available=%v, model %+v", it.Target.ID, reqBool(it.Approved), reqBool(it.Denied), reqBool(it.Available), *st)
		}
	}
	if len(got) != len(md.movies) || list.Page.Total == nil || *list.Page.Total != len(md.movies) || *list.Page.HasMore {
		t.Fatalf("list has %d items (page %+v), model %d", len(got), list.Page, len(md.movies))
	}
	total := reqMetrics(t, reqCall(t, md.admin, "read_request_stats", map[string]any{"action": "total", "media": "movie"}))
	if total["movie_requests_total"] != float64(len(md.movies)) {
		t.Fatalf("total = %v, model %d", total, len(md.movies))
	}
	counts := reqMetrics(t, reqCall(t, md.admin, "read_request_stats", map[string]any{"action": "counts"}))
	for k, v := range md.tally() {
		if counts[k] != v+md.otherCounts[k] {
			t.Fatalf("counts = %v, model movies %v + other %v", counts, md.tally(), md.otherCounts)
		}
	}
	q := reqMetrics(t, reqCall(t, md.user, "read_request_stats", map[string]any{"action": "quota", "media": "movie"}))
	if q["has_limit"] != true || q["remaining"] != float64(md.remaining) {
		t.Fatalf("quota = %v, model remaining %d", q, md.remaining)
	}
}

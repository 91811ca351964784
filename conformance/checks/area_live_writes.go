package checks

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file holds the live checks that write to learn which TV request
// (parent or child) each request controller acts on, and whom a request made
// on behalf of another user names. Each check makes a TV request of its own
// through the server under test (of a show the Ombi has and nobody
// requested, one whole season, which the server expands to its episodes),
// acts on it through the server naming the id the catalogue asks for, then
// reads the Ombi's TV requests directly and requires that exactly the
// intended request (the parent or the child) changed, and nothing else. It
// removes its request when it ends. In a live run they need
// --allow-mutations (the proxy's ledger notes the request, its parent and
// the undo); in an embedded run the mock stands in.

func (s *Suite) liveWriteAreas() {
	ginkgo.Describe("wire", ginkgo.Label("wire", LabelNeedsJournal), func() {
		ginkgo.BeforeEach(s.clean)
		s.ClauseItFor("VERIFY-ROUTING-SEASON-NUMBERS-001", "live.own-tv.create.season-expansion", s.liveTVCreate)
		for _, op := range liveTVOps {
			s.ClauseItFor("ROUTING-RULE5-TV-PARENT-CHILD-001", "live.own-tv."+op.name, func(ctx ginkgo.SpecContext) {
				s.liveTVOp(ctx, op)
			})
		}
		s.ClauseItFor("VERIFY-ROUTING-CREATE-WIRE-001", "live.on-behalf.requester-is-the-user", s.liveOnBehalf)
		s.ClauseItFor("VERIFY-ROUTING-LEDGER-001", "live.own-album.moderate.deny-then-approve", s.liveAlbumModerate)
		s.ClauseItFor("RESULTS-PARTIAL-001", "live.collection.request-then-retry", s.liveCollection)
	})
}

// liveOwnTV is a TV request a check made through the server: the show,
// its parent and child request, the season it asked for and that
// season's episodes as the Ombi's details list them.
type liveOwnTV struct {
	tmdb, parent, child int
	season              int
	episodes            []int
}

// liveTVEntity is one TV request of the Ombi, read directly: a parent
// (without its children) or a child, as the Ombi answered it but for the
// requesting user's record (whose lastLoggedIn moves with every call).
type liveTVEntity struct {
	raw map[string]json.RawMessage
}

// liveTVState reads the Ombi's TV requests directly: each parent as
// "parent N" and each child as "child N".
func (s *Suite) liveTVState() map[string]liveTVEntity {
	ginkgo.GinkgoHelper()
	var parents []map[string]json.RawMessage
	s.directList("/api/v1/Request/tv", "TV requests", &parents)
	out := map[string]liveTVEntity{}
	for _, p := range parents {
		var kids []map[string]json.RawMessage
		_ = json.Unmarshal(p["childRequests"], &kids)
		delete(p, "childRequests")
		for _, c := range kids {
			delete(c, "requestedUser")
			out["child "+string(c["id"])] = liveTVEntity{raw: c}
		}
		out["parent "+string(p["id"])] = liveTVEntity{raw: p}
	}
	return out
}

// member decodes one member of an entity (its zero value when absent).
func (e liveTVEntity) member(name string, v any) { _ = json.Unmarshal(e.raw[name], v) }

// liveChanged names the requests present before whose record changed or
// that are gone after. Against the mock nothing but the call judged writes
// between the two reads (a split run gives each process its own mock), so
// every request counts. A live Ombi's own jobs and users may change their
// requests meanwhile, and the proxy keeps every write on an entity the run
// did not create from the Ombi (a check fails a write it kept as naming
// the wrong request), so in a live run only the run's own requests count.
func (s *Suite) liveChanged(before, after map[string]liveTVEntity) []string {
	counts := s.liveCounts()
	var out []string
	for k, b := range before {
		if !counts(k) {
			continue
		}
		a, ok := after[k]
		if !ok {
			out = append(out, k+" (removed)")
			continue
		}
		bb, _ := json.Marshal(b.raw)
		ab, _ := json.Marshal(a.raw)
		if string(bb) != string(ab) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// liveCounts returns whether a request ("movie N", "child N", "parent N",
// "album N") is one a write check judges: every request against the mock,
// the run's own in a live run (liveChanged says why).
func (s *Suite) liveCounts() func(key string) bool {
	if !s.live() {
		return func(string) bool { return true }
	}
	own := map[string][]int{}
	if l := s.h.Upstream.Ledger(); l != nil {
		own = l.Created()
	}
	kinds := map[string]string{"movie": "movie request", "child": "tv request", "parent": "tv parent request", "album": "album request"}
	return func(key string) bool {
		kind, id, _ := strings.Cut(key, " ")
		n, _ := strconv.Atoi(id)
		return slices.Contains(own[kinds[kind]], n)
	}
}

// livePopularEntry is a title of the Ombi's popular list.
type livePopularEntry struct {
	ID        int    `json:"id"`
	Title     string `json:"title"`
	Requested bool   `json:"requested"`
	Available bool   `json:"available"`
}

// livePopular reads the first page of the Ombi's popular movies or shows
// (media "movie" or "tv") directly; none when it answers nothing readable.
func (s *Suite) livePopular(media string) []livePopularEntry {
	var out []livePopularEntry
	_ = json.Unmarshal(s.mockDirect(http.MethodGet, "/api/v2/Search/"+media+"/popular/0/40", s.directHeader()).Body.Bytes(), &out)
	return out
}

// liveWriteConfig starts the server the write checks act through as the
// principal of the direct reads (a subscription is the caller's own): in a
// live run the one the run was given, else the mock's API key.
func (s *Suite) liveWriteConfig() harness.Config {
	if s.live() {
		return s.allConfig()
	}
	return apiKeyConfig()
}

// liveWritesOrSkip skips a live run that may not write.
func (s *Suite) liveWritesOrSkip() {
	if s.live() && !s.liveWrites() {
		s.skipLive("makes a request of its own and writes on it; a read-only run (without --allow-mutations) writes nothing")
	}
}

// liveNewTV makes a TV request of its own through the server: one whole
// season of a show of the Ombi's popular list that nobody requested (the
// server expands the season to its episodes), and removes it when the
// check ends. It returns the request and the server's outcome.
func (s *Suite) liveNewTV(ctx ginkgo.SpecContext, srv *harness.Server) (liveOwnTV, *harness.Outcome, map[string]liveTVEntity) {
	ginkgo.GinkgoHelper()
	s.requireTool("write_request_create")
	s.liveWritesOrSkip()
	popular := s.livePopular("tv")
	before := s.liveTVState()
	held := map[int]bool{}
	for _, e := range before {
		var tmdb int
		e.member("externalProviderId", &tmdb)
		held[tmdb] = true
	}
	var t liveOwnTV
	for _, sh := range popular {
		if sh.ID <= 0 || sh.Requested || sh.Available || held[sh.ID] {
			continue
		}
		var details struct {
			SeasonRequests []liveSeason `json:"seasonRequests"`
		}
		rec := s.mockDirect(http.MethodGet, "/api/v2/Search/tv/moviedb/"+strconv.Itoa(sh.ID), s.directHeader())
		if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &details) != nil {
			continue
		}
		for _, se := range details.SeasonRequests {
			if se.SeasonNumber > 0 && len(se.Episodes) > 0 {
				t = liveOwnTV{tmdb: sh.ID, season: se.SeasonNumber}
				for _, e := range se.Episodes {
					t.episodes = append(t.episodes, e.EpisodeNumber)
				}
				slices.Sort(t.episodes)
				t.episodes = slices.Compact(t.episodes)
				break
			}
		}
		if t.tmdb > 0 {
			break
		}
	}
	s.liveNeedsData(t.tmdb > 0, "show of its popular list that nobody requested with a season of episodes")
	if t.tmdb == 0 {
		s.fail(nil, "the mock's popular TV list has no show nobody requested with a season of episodes")
	}
	o := s.callUnchecked(ctx, srv, "write_request_create", map[string]any{"action": "tv", "provider": "tmdb", "id": t.tmdb,
		"selection": map[string]any{"mode": "season", "season_numbers": []int{t.season}}})
	var m struct {
		RequestID int `json:"request_id"`
	}
	if o.OK() {
		_ = json.Unmarshal(o.Envelope.Data, &m)
	}
	after := s.liveTVState()
	for k, e := range after {
		if _, old := before[k]; old || !strings.HasPrefix(k, "child ") {
			continue
		}
		var id, parent int
		e.member("id", &id)
		e.member("parentRequestId", &parent)
		if p, ok := after["parent "+strconv.Itoa(parent)]; ok {
			var tmdb int
			p.member("externalProviderId", &tmdb)
			if tmdb == t.tmdb {
				t.child, t.parent = id, parent
			}
		}
	}
	if t.child > 0 {
		child := t.child
		ginkgo.DeferCleanup(func() {
			// the request goes with the check (its parent with its last child)
			if _, there := s.liveTVState()["child "+strconv.Itoa(child)]; there {
				s.mockDirect(http.MethodDelete, "/api/v1/Request/tv/child/"+strconv.Itoa(child), s.directHeader())
			}
		})
	}
	s.expect(o.OK() && t.child > 0, o, "the server made no TV request of show tmdb %d season %d: %q, and the Ombi holds no new child request of it", t.tmdb, t.season, o.ErrorCode())
	s.expect(m.RequestID == t.child, o, "the result names request %d; the Ombi's new child request is %d", m.RequestID, t.child)
	return t, o, before
}

// liveTVCreate makes a TV request of one whole season through the server
// and judges it on the Ombi: a new parent of the show with one new child
// holding exactly that season's episodes as the Ombi's details list them,
// and no other TV request changed.
func (s *Suite) liveTVCreate(ctx ginkgo.SpecContext) {
	srv := s.shared(ctx, s.liveWriteConfig())
	t, o, before := s.liveNewTV(ctx, srv)
	after := s.liveTVState()
	var e errs
	if _, old := before["parent "+strconv.Itoa(t.parent)]; old {
		e.addf("the request joined parent %d, which was there before (the show was requested by nobody)", t.parent)
	}
	var seasons []liveSeason
	after["child "+strconv.Itoa(t.child)].member("seasonRequests", &seasons)
	got := map[int][]int{}
	for _, se := range seasons {
		for _, ep := range se.Episodes {
			got[se.SeasonNumber] = append(got[se.SeasonNumber], ep.EpisodeNumber)
		}
	}
	for n := range got {
		slices.Sort(got[n])
	}
	if len(got) != 1 || !slices.Equal(got[t.season], t.episodes) {
		e.addf("child request %d holds %v; season %d expanded is episodes %v of the Ombi's details", t.child, got, t.season, t.episodes)
	}
	if ch := s.liveChanged(before, after); len(ch) > 0 {
		e.addf("other TV requests changed: %s", strings.Join(ch, ", "))
	}
	s.expect(len(e) == 0, o, "the TV request of show tmdb %d season %d:\n%s", t.tmdb, t.season, strings.Join(e, "\n"))
}

// liveTVOp is a write on the run's TV request through the server: the
// steps it makes, each with the request that must change (the parent or
// the child) and what its record must then say.
type liveTVOp struct {
	name  string
	tool  string
	steps []liveTVStep
}

// liveTVStep is one call of a liveTVOp.
type liveTVStep struct {
	args     func(t liveOwnTV) map[string]any
	parent   bool                        // the parent must change, else the child
	want     func(e liveTVEntity) string // what is wrong with the changed record; "" when right
	optional bool                        // the record may be unchanged (it already said so)
	route    string                      // the upstream route whose path must name the intended id, when the record cannot show it
}

// liveTVOps are the writes on a TV request, each naming the id its
// catalogue entry asks for: moderation, subscriptions and reprocessing a
// child request, the advanced options of a parent.
var liveTVOps = []liveTVOp{
	{name: "moderate.deny-then-approve.child", tool: "write_request_moderate", steps: []liveTVStep{
		{args: func(t liveOwnTV) map[string]any {
			return map[string]any{"action": "deny", "media": "tv", "request_id": t.child, "reason": "ombi-conformance"}
		}, want: flagWant("denied", true)},
		{args: func(t liveOwnTV) map[string]any {
			return map[string]any{"action": "approve", "media": "tv", "request_id": t.child}
		}, want: flagWant("approved", true)},
	}},
	{name: "subscribe-then-unsubscribe.child", tool: "write_request_subscribe", steps: []liveTVStep{
		{args: func(t liveOwnTV) map[string]any {
			return map[string]any{"action": "subscribe", "media": "tv", "request_id": t.child}
		}, want: flagWant("subscribed", true), optional: true},
		{args: func(t liveOwnTV) map[string]any {
			return map[string]any{"action": "unsubscribe", "media": "tv", "request_id": t.child}
		}, want: flagWant("subscribed", false), optional: true},
	}},
	{name: "options.tv_advanced.parent", tool: "write_request_options", steps: []liveTVStep{
		{args: func(t liveOwnTV) map[string]any {
			return map[string]any{"action": "tv_advanced", "parent_request_id": t.parent, "quality_profile_id": liveQuality}
		}, parent: true, want: intWant("qualityOverride", liveQuality)},
	}},
	{name: "options.tv_root.parent", tool: "write_request_options", steps: []liveTVStep{
		{args: func(t liveOwnTV) map[string]any {
			return map[string]any{"action": "tv_root", "parent_request_id": t.parent, "root_folder_id": liveRoot}
		}, parent: true, want: intWant("rootFolder", liveRoot)},
	}},
	{name: "options.tv_quality.parent", tool: "write_request_options", steps: []liveTVStep{
		{args: func(t liveOwnTV) map[string]any {
			return map[string]any{"action": "tv_quality", "parent_request_id": t.parent, "quality_profile_id": liveQuality}
		}, parent: true, want: intWant("qualityOverride", liveQuality)},
	}},
	{name: "reprocess.child", tool: "write_request_reprocess", steps: []liveTVStep{
		{args: func(t liveOwnTV) map[string]any {
			return map[string]any{"request_type": "tv", "request_id": t.child}
		}, optional: true, route: "/api/v2/Requests/reprocess/"},
	}},
}

// liveQuality and liveRoot are the quality profile and root folder ids the
// options checks set.
const (
	liveQuality = 7
	liveRoot    = 5
)

// intWant wants an integer member of the changed record to hold v.
func intWant(name string, v int) func(liveTVEntity) string {
	return func(e liveTVEntity) string {
		var got int
		e.member(name, &got)
		if got != v {
			return fmt.Sprintf("%s is %d, want %d", name, got, v)
		}
		return ""
	}
}

// flagWant wants a boolean member of the changed record to hold v.
func flagWant(name string, v bool) func(liveTVEntity) string {
	return func(e liveTVEntity) string {
		var got *bool
		e.member(name, &got)
		if got == nil || *got != v {
			return fmt.Sprintf("%s is %s, want %v", name, boolText(got), v)
		}
		return ""
	}
}

// liveTVOp makes a TV request of its own, then each step of op through the
// server, and requires after each that the Ombi changed exactly the
// intended request, as the step wants.
func (s *Suite) liveTVOp(ctx ginkgo.SpecContext, op liveTVOp) {
	s.requireTool(op.tool)
	srv := s.shared(ctx, s.liveWriteConfig())
	t, _, _ := s.liveNewTV(ctx, srv)
	for _, st := range op.steps {
		args := st.args(t)
		intended := "child " + strconv.Itoa(t.child)
		if st.parent {
			intended = "parent " + strconv.Itoa(t.parent)
		}
		o, e := s.liveStep(ctx, srv, op.tool, args, s.liveTVState, intended, st.optional, st.want)
		if st.route != "" {
			id := strconv.Itoa(t.child)
			if st.parent {
				id = strconv.Itoa(t.parent)
			}
			calls := slices.DeleteFunc(upstreamCalls(o), func(c mockombi.Call) bool {
				return !strings.HasPrefix(strings.ToLower(pathOnly(c.Path)), strings.ToLower(st.route))
			})
			if len(calls) != 1 || !slices.Contains(strings.Split(pathOnly(calls[0].Path), "/"), id) {
				e.addf("the server's call of %s{type}/{id}/{is4K} does not name %s: %v", st.route, intended, callPaths(calls))
			}
		}
		s.expect(len(e) == 0, o, "%s %v on the run's TV request (parent %d, child %d):\n%s", op.tool, args, t.parent, t.child, strings.Join(e, "\n"))
	}
}

// liveStep calls tool with args through the server and reads the Ombi's
// requests (state) before and after: only the intended one may have
// changed, it must have unless optional, and want (when given) judges its
// record after the call.
func (s *Suite) liveStep(ctx ginkgo.SpecContext, srv *harness.Server, tool string, args map[string]any,
	state func() map[string]liveTVEntity, intended string, optional bool, want func(liveTVEntity) string) (*harness.Outcome, errs) {
	ginkgo.GinkgoHelper()
	before := state()
	o := s.callUnchecked(ctx, srv, tool, args)
	s.gatedElsewhere(o, intended)
	after := state()
	var e errs
	if !o.OK() {
		e.addf("the call answered %q", o.ErrorCode())
	}
	changed := s.liveChanged(before, after)
	for _, k := range changed {
		if k != intended {
			e.addf("%s changed; only %s (the request named) may", k, intended)
		}
	}
	if want != nil {
		if why := want(after[intended]); why != "" {
			e.addf("%s: %s", intended, why)
		}
	}
	if !optional && !slices.Contains(changed, intended) {
		e.addf("%s did not change", intended)
	}
	return o, e
}

// gatedElsewhere fails a check whose write the live run's proxy kept from
// the Ombi because it named a request other than the intended one (the
// run made that one, so the gate lets a write naming it through): the
// server chose the wrong namespace. A kept write that names the intended
// id (in its path or as a member of its body) is the gate's own limit, and
// the check is skipped as SkipGated does.
func (s *Suite) gatedElsewhere(o *harness.Outcome, intended string) {
	ginkgo.GinkgoHelper()
	_, id, _ := strings.Cut(intended, " ")
	for _, c := range upstreamCalls(o) {
		if c.Fault != mockombi.GateFault {
			continue
		}
		var body map[string]any
		_ = json.Unmarshal(c.Body, &body)
		named := slices.Contains(strings.Split(pathOnly(c.Path), "/"), id)
		for _, v := range body {
			if f, ok := v.(float64); ok && strconv.FormatFloat(f, 'f', -1, 64) == id {
				named = true
			}
		}
		if !named {
			s.fail(o, "the server's %s %s names no %s (the request the call was given); the live run's proxy kept it from the Ombi, since it names a request the run did not create", c.Method, pathOnly(c.Path), intended)
		}
	}
	s.SkipGated(o)
}

// callPaths lists the method and path of calls.
func callPaths(calls []mockombi.Call) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.Method+" "+pathOnly(c.Path))
	}
	return out
}

// liveOnBehalf makes a movie request through the server in the name of
// another user the Ombi lists (on_behalf_user_id, the user's id), then
// reads it directly: the Ombi's request names that user as its requester.
// It removes the request through the server.
func (s *Suite) liveOnBehalf(ctx ginkgo.SpecContext) {
	s.requireTool("write_request_create")
	s.requireTool("write_request_delete")
	if s.h.Validator.ValidateInput("write_request_create", json.RawMessage(`{"action":"movie","tmdb_id":1,"on_behalf_user_id":"x"}`)) != nil {
		skipAs(framework.StateNotApplicable, "the catalogue's write_request_create takes no on_behalf_user_id")
	}
	s.liveWritesOrSkip()
	srv := s.shared(ctx, s.liveWriteConfig())
	var users []struct {
		ID           string `json:"id"`
		UserName     string `json:"userName"`
		IsSystemUser bool   `json:"isSystemUser"`
	}
	rec := s.mockDirect(http.MethodGet, "/api/v1/Identity/Users", s.directHeader())
	_ = json.Unmarshal(rec.Body.Bytes(), &users)
	var self struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(s.mockDirect(http.MethodGet, identityPath, s.directHeader()).Body.Bytes(), &self)
	popular := s.livePopular("movie")
	var movies []struct {
		TheMovieDbID int `json:"theMovieDbId"`
	}
	_ = json.Unmarshal(s.mockDirect(http.MethodGet, "/api/v1/Request/movie", s.directHeader()).Body.Bytes(), &movies)
	held := map[int]bool{}
	for _, m := range movies {
		held[m.TheMovieDbID] = true
	}
	creds := s.h.Upstream.Credentials()
	uid, tmdb := "", 0
	for _, u := range users {
		if u.ID != "" && u.ID != self.ID && !u.IsSystemUser && !strings.EqualFold(u.UserName, creds.UserName) && !strings.EqualFold(u.UserName, creds.Username) && !strings.EqualFold(u.UserName, "admin") {
			uid = u.ID
			break
		}
	}
	for _, m := range popular {
		if m.ID > 0 && !m.Requested && !m.Available && !held[m.ID] {
			tmdb = m.ID
			break
		}
	}
	s.liveNeedsData(uid != "", "user other than the run's own")
	s.liveNeedsData(tmdb > 0, "movie of its popular list that nobody requested")
	if uid == "" || tmdb == 0 {
		s.fail(nil, "the mock has no user other than the run's (%q) or no movie nobody requested (%d)", uid, tmdb)
	}
	o := s.callUnchecked(ctx, srv, "write_request_create", map[string]any{"action": "movie", "tmdb_id": tmdb, "on_behalf_user_id": uid})
	s.SkipGated(o)
	var m struct {
		RequestID int `json:"request_id"`
	}
	if o.OK() {
		_ = json.Unmarshal(o.Envelope.Data, &m)
	}
	if m.RequestID > 0 {
		ginkgo.DeferCleanup(func(ctx ginkgo.SpecContext) {
			s.callUnchecked(ctx, srv, "write_request_delete", map[string]any{"kind": "movie", "request_id": m.RequestID})
		})
	}
	s.expect(o.OK() && m.RequestID > 0, o, "the server made no movie request of tmdb %d on behalf of user %s: %q", tmdb, uid, o.ErrorCode())
	var req struct {
		RequestedUserID string `json:"requestedUserId"`
	}
	got := s.mockDirect(http.MethodGet, "/api/v1/Request/movie/info/"+strconv.Itoa(m.RequestID), s.directHeader())
	_ = json.Unmarshal(got.Body.Bytes(), &req)
	s.expect(req.RequestedUserID == uid, o, "movie request %d made on behalf of user %s names requester %q (GET /api/v1/Request/movie/info/%d answered %d): requestOnBehalf takes the user's id",
		m.RequestID, uid, req.RequestedUserID, m.RequestID, got.Code)
}

// liveAlbumState reads the Ombi's album requests directly, each as "album N"
// (without the requesting user's record).
func (s *Suite) liveAlbumState() map[string]liveTVEntity {
	ginkgo.GinkgoHelper()
	return s.liveRequestState("/api/v1/request/music", "album")
}

// liveRequestState reads a flat list of the Ombi's requests directly (movie
// or album requests), each as "<kind> N", without the requesting user's
// record (whose lastLoggedIn moves with every call).
func (s *Suite) liveRequestState(path, kind string) map[string]liveTVEntity {
	ginkgo.GinkgoHelper()
	var list []map[string]json.RawMessage
	s.directList(path, kind+" requests", &list)
	out := map[string]liveTVEntity{}
	for _, r := range list {
		delete(r, "requestedUser")
		out[kind+" "+string(r["id"])] = liveTVEntity{raw: r}
	}
	return out
}

// liveAlbumModerate makes an album request of its own through the server
// (an album of an artist the Ombi's album requests name that nobody
// requested), denies and then approves it through the server, and requires
// after each call that exactly that album request of the Ombi changed as
// the call says; it removes the request when it ends.
func (s *Suite) liveAlbumModerate(ctx ginkgo.SpecContext) {
	s.requireTool("write_request_create")
	s.requireTool("write_request_moderate")
	s.liveWritesOrSkip()
	srv := s.shared(ctx, s.liveWriteConfig())
	before := s.liveAlbumState()
	held, artists := map[string]bool{}, []string{}
	for _, a := range before {
		var album, artist string
		a.member("foreignAlbumId", &album)
		a.member("foreignArtistId", &artist)
		held[album] = true
		if artist != "" && !slices.Contains(artists, artist) {
			artists = append(artists, artist)
		}
	}
	slices.Sort(artists)
	mbid := ""
	for _, artist := range artists {
		var albums []struct {
			ForeignAlbumID string `json:"foreignAlbumId"`
			Requested      bool   `json:"requested"`
			Available      bool   `json:"available"`
		}
		_ = json.Unmarshal(s.mockDirect(http.MethodGet, "/api/v1/Search/music/artist/album/"+artist, s.directHeader()).Body.Bytes(), &albums)
		for _, al := range albums {
			if al.ForeignAlbumID != "" && !al.Requested && !al.Available && !held[al.ForeignAlbumID] {
				mbid = al.ForeignAlbumID
				break
			}
		}
		if mbid != "" {
			break
		}
	}
	s.liveNeedsData(mbid != "", "album nobody requested by an artist its album requests name")
	if mbid == "" {
		s.fail(nil, "the mock has no album nobody requested by an artist its album requests name")
	}
	o := s.callUnchecked(ctx, srv, "write_request_create", map[string]any{"action": "album", "musicbrainz_id": mbid})
	s.SkipGated(o)
	s.skipLiveRefusal(o, errs{"the album request"})
	var m struct {
		RequestID int `json:"request_id"`
	}
	if o.OK() {
		_ = json.Unmarshal(o.Envelope.Data, &m)
	}
	if m.RequestID > 0 {
		ginkgo.DeferCleanup(func() {
			if _, there := s.liveAlbumState()["album "+strconv.Itoa(m.RequestID)]; there {
				s.mockDirect(http.MethodDelete, "/api/v1/request/music/"+strconv.Itoa(m.RequestID), s.directHeader())
			}
		})
	}
	s.expect(o.OK() && m.RequestID > 0, o, "the server made no album request of %s: %q", mbid, o.ErrorCode())
	intended := "album " + strconv.Itoa(m.RequestID)
	for _, st := range []struct {
		args map[string]any
		want func(liveTVEntity) string
	}{
		{map[string]any{"action": "deny", "media": "album", "request_id": m.RequestID, "reason": "ombi-conformance"}, flagWant("denied", true)},
		{map[string]any{"action": "approve", "media": "album", "request_id": m.RequestID}, flagWant("approved", true)},
	} {
		o, e := s.liveStep(ctx, srv, "write_request_moderate", st.args, s.liveAlbumState, intended, false, st.want)
		s.expect(len(e) == 0, o, "write_request_moderate %v on the run's album request:\n%s", st.args, strings.Join(e, "\n"))
	}
}

package mockombi

import (
	"fmt"
	"slices"
	"sync"
)

// Quirk names: known upstream behaviours the mock can reproduce or leave
// out. A quirk that is on by default is real Ombi v4.59.3 behaviour;
// switching it off gives a kinder (or older) mock.
const (
	// QuirkV2ListNullReference: v2 request lists answer 500 NullReferenceException on non-empty pages.
	QuirkV2ListNullReference = "v2_list_null_reference"
	// QuirkTVSearchLINQ: GET Request/tv/search/{term} fails with EF Core's
	// LINQ translation 500, as v4.59.3 always does (TvRequestEngine.SearchTvRequest
	// filters the IQueryable with StringHelper.Contains). Real, on by default.
	QuirkTVSearchLINQ = "tv_search_linq"
	// QuirkTVV1Engine: POST Request/tv (the v1 TVDB route) runs v1's
	// engine, TvRequestEngine.RequestTvShow(TvRequestViewModel): on-behalf
	// only for a PowerUser or Admin account (a bare API key is refused), a
	// new show stored without root folder, quality or language profile, an
	// existing show's root and quality overwritten. Real, on by default;
	// off runs the v1 route through the v2 rules.
	QuirkTVV1Engine = "tv_v1_engine"
	// QuirkRatingsRottenTomatoes: the ratings routes answer 500 (Rotten Tomatoes API gone).
	QuirkRatingsRottenTomatoes = "ratings_rotten_tomatoes"
	// QuirkVoteRead500: vote reads answer 500.
	QuirkVoteRead500 = "vote_read_500"
	// QuirkStatsNullReference: Stats without from/to answers 500 null reference.
	QuirkStatsNullReference = "stats_null_reference"
	// QuirkNewsHTML: System/news answers an HTML page.
	QuirkNewsHTML = "news_html"
	// QuirkPlexServersWrapper: GET Plex/servers is wrapped as {success,
	// servers}, as PlexController.GetServers always answers (real, on by
	// default); off gives the bare array older mocks served.
	QuirkPlexServersWrapper = "plex_servers_wrapper"
	// QuirkLanguageMojibake: some language names come back as mojibake.
	QuirkLanguageMojibake = "language_mojibake"
	// QuirkLogsStringArray: System/logs is a string array (4.53+); off gives the legacy object form.
	QuirkLogsStringArray = "logs_string_array"
	// QuirkV1TVTVDBInMovieDBID: v1 TV results carry the TVDB id in theMovieDbId (real behaviour).
	QuirkV1TVTVDBInMovieDBID = "v1_tv_tvdb_in_moviedbid"
)

// quirkDefaults lists every quirk with its default state.
var quirkDefaults = map[string]bool{
	QuirkV2ListNullReference:   false,
	QuirkTVSearchLINQ:          true,
	QuirkTVV1Engine:            true,
	QuirkRatingsRottenTomatoes: false,
	QuirkVoteRead500:           false,
	QuirkStatsNullReference:    false,
	QuirkNewsHTML:              false,
	QuirkPlexServersWrapper:    true,
	QuirkLanguageMojibake:      false,
	QuirkLogsStringArray:       true,
	QuirkV1TVTVDBInMovieDBID:   true,
}

// quirkExplanations says in one sentence, for each quirk, what real Ombi
// does and why.
var quirkExplanations = map[string]string{
	QuirkV2ListNullReference:   "v2 request lists answered 500 NullReferenceException on non-empty pages on 4.53.10, a failure of that release and its data that v4.59.3's source does not show.",
	QuirkTVSearchLINQ:          "v4.59.3 always answers GET Request/tv/search/{term} with EF Core's 500, because TvRequestEngine filters the query with StringHelper.Contains, which EF Core cannot translate to SQL.",
	QuirkTVV1Engine:            "POST Request/tv runs v1's engine, which lets only a PowerUser or Admin request on behalf of others and stores a new show without root folder, quality or language profile.",
	QuirkRatingsRottenTomatoes: "Both ratings routes answer 500 because the Rotten Tomatoes API Ombi calls has gone away.",
	QuirkVoteRead500:           "Vote reads answer 500 on some older releases and databases, a failure of the install rather than of v4.59.3's code.",
	QuirkStatsNullReference:    "Stats without from and to answers 500 null reference on some older releases and databases, so a client must send both dates.",
	QuirkNewsHTML:              "System/news answers a rendered HTML page instead of JSON on some installs, so a client must check the content type.",
	QuirkPlexServersWrapper:    "Plex/servers answers {success, servers} because PlexController.GetServers always wraps the list.",
	QuirkLanguageMojibake:      "Some native language names come back as ?????? or U+FFFD because the upstream data they are read from is corrupted.",
	QuirkLogsStringArray:       "System/logs answers a string array since 4.53, where older releases answered an object.",
	QuirkV1TVTVDBInMovieDBID:   "v1 TV results carry the TVDB id in id and theMovieDbId because Ombi's TvProfile maps Id from the TvMaze show's thetvdb external id.",
}

// QuirkState is one quirk as the control API lists it: whether it is on,
// whether it is on in a new mock, and what real Ombi does and why.
type QuirkState struct {
	Name        string `json:"name"`
	Enabled     bool   `json:"enabled"`
	Default     bool   `json:"default"`
	Explanation string `json:"explanation"`
}

// QuirkStates lists every quirk, sorted by name, with its state and its
// explanation.
func (s *Server) QuirkStates() []QuirkState {
	names := quirkNames()
	out := make([]QuirkState, 0, len(names))
	for _, n := range names {
		out = append(out, QuirkState{Name: n, Enabled: s.quirk(n), Default: quirkDefaults[n], Explanation: quirkExplanations[n]})
	}
	return out
}

// quirkNames returns the quirk names, sorted.
func quirkNames() []string {
	names := make([]string, 0, len(quirkDefaults))
	for n := range quirkDefaults {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// quirkSet is the live quirk switchboard.
type quirkSet struct {
	mu  sync.RWMutex
	on  map[string]bool
	rev uint64 // counts the switches
}

// newQuirkSet starts from the defaults.
func newQuirkSet() *quirkSet {
	q := &quirkSet{}
	q.reset()
	return q
}

// reset restores the defaults.
func (q *quirkSet) reset() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.rev++
	q.on = make(map[string]bool, len(quirkDefaults))
	for k, v := range quirkDefaults {
		q.on[k] = v
	}
}

// set switches one quirk.
func (q *quirkSet) set(name string, on bool) error {
	if _, ok := quirkDefaults[name]; !ok {
		return fmt.Errorf("set quirk: unknown quirk %q", name)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.rev++
	q.on[name] = on
	return nil
}

// revision counts the switches so far.
func (q *quirkSet) revision() uint64 {
	q.mu.RLock()
	defer q.mu.RUnlock()
	return q.rev
}

// enabled reports whether a quirk is on.
func (q *quirkSet) enabled(name string) bool {
	q.mu.RLock()
	defer q.mu.RUnlock()
	return q.on[name]
}

// quirk reports whether the named quirk is on.
func (s *Server) quirk(name string) bool { return s.quirks.enabled(name) }

package mockombi

import (
	"cmp"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Ombi RequestType values.
const (
	requestTypeTV    = 0
	requestTypeMovie = 1
	requestTypeAlbum = 2
)

// Ombi ErrorCode strings (RequestEngineResult.errorCode).
const (
	errAlreadyRequested         = "AlreadyRequested"
	errNoPermissionsOnBehalf    = "NoPermissionsOnBehalf"
	errNoPermissions            = "NoPermissions"
	errRequestDoesNotExist      = "RequestDoesNotExist"
	errChildRequestDoesNotExist = "ChildRequestDoesNotExist"
	errNoPermissionsMovie       = "NoPermissionsRequestMovie"
	errMovieQuotaExceeded       = "MovieRequestQuotaExceeded"
)

// reqBase is Ombi's BaseRequest.
type reqBase struct {
	ID                int            `json:"id"`
	Title             string         `json:"title"`
	Approved          bool           `json:"approved"`
	MarkedAsApproved  time.Time      `json:"markedAsApproved"`
	RequestedDate     time.Time      `json:"requestedDate"`
	Available         bool           `json:"available"`
	MarkedAsAvailable *time.Time     `json:"markedAsAvailable"`
	RequestedUserID   string         `json:"requestedUserId"`
	Denied            *bool          `json:"denied"`
	MarkedAsDenied    time.Time      `json:"markedAsDenied"`
	DeniedReason      string         `json:"deniedReason"`
	RequestedByAlias  string         `json:"requestedByAlias"`
	Source            int            `json:"source"`
	Extra             map[string]any `json:"extra"`
}

// isDenied is Denied == true.
func (b *reqBase) isDenied() bool { return b.Denied != nil && *b.Denied }

// status is Ombi's requestStatus string of a request.
func (b *reqBase) status() string {
	switch {
	case b.Available:
		return "Common.Available"
	case b.isDenied():
		return "Common.Denied"
	case b.Approved:
		return "Common.ProcessingRequest"
	default:
		return "Common.PendingApproval"
	}
}

// movieRequest is Ombi's MovieRequests entity.
type movieRequest struct {
	reqBase
	TheMovieDbID           int        `json:"theMovieDbId"`
	ImdbID                 string     `json:"imdbId"`
	Overview               string     `json:"overview"`
	PosterPath             string     `json:"posterPath"`
	Background             string     `json:"background"`
	ReleaseDate            time.Time  `json:"releaseDate"`
	DigitalReleaseDate     *time.Time `json:"digitalReleaseDate"`
	Status                 string     `json:"status"`
	Is4kRequest            bool       `json:"is4kRequest"`
	Has4KRequest           bool       `json:"has4KRequest"`
	Approved4K             bool       `json:"approved4K"`
	MarkedAsApproved4K     time.Time  `json:"markedAsApproved4K"`
	RequestedDate4k        time.Time  `json:"requestedDate4k"`
	Available4K            bool       `json:"available4K"`
	MarkedAsAvailable4K    *time.Time `json:"markedAsAvailable4K"`
	Denied4K               *bool      `json:"denied4K"`
	MarkedAsDenied4K       time.Time  `json:"markedAsDenied4K"`
	DeniedReason4K         string     `json:"deniedReason4K"`
	RootPathOverride       int        `json:"rootPathOverride"`
	QualityOverride        int        `json:"qualityOverride"`
	LangCode               string     `json:"langCode"`
	IssueID                *int       `json:"issueId"`
	WatchedByRequestedUser bool       `json:"watchedByRequestedUser"`
	PlayedByUsersCount     int        `json:"playedByUsersCount"`
}

// episodeRequest is Ombi's EpisodeRequests entity.
type episodeRequest struct {
	ID            int            `json:"id"`
	EpisodeNumber int            `json:"episodeNumber"`
	Title         string         `json:"title"`
	AirDate       time.Time      `json:"airDate"`
	URL           string         `json:"url"`
	Available     bool           `json:"available"`
	Approved      bool           `json:"approved"`
	Requested     bool           `json:"requested"`
	Denied        *bool          `json:"denied"`
	DeniedReason  string         `json:"deniedReason"`
	SeasonID      int            `json:"seasonId"`
	Extra         map[string]any `json:"extra"`
}

// episodeStatus is EpisodeRequests.requestStatus.
func episodeStatus(e *episodeRequest) string {
	switch {
	case e.Available:
		return "Common.Available"
	case e.Denied != nil && *e.Denied:
		return "Common.Denied"
	case e.Approved:
		return "Common.ProcessingRequest"
	case e.Requested:
		return "Common.PendingApproval"
	}
	return ""
}

// seasonRequest is Ombi's SeasonRequests entity.
type seasonRequest struct {
	ID              int               `json:"id"`
	SeasonNumber    int               `json:"seasonNumber"`
	Overview        string            `json:"overview"`
	Episodes        []*episodeRequest `json:"episodes"`
	ChildRequestID  int               `json:"childRequestId"`
	SeasonAvailable bool              `json:"seasonAvailable"`
	Extra           map[string]any    `json:"extra"`
}

// childRequest is Ombi's ChildRequests entity: one user's season request.
type childRequest struct {
	reqBase
	ParentRequestID             int              `json:"parentRequestId"`
	IssueID                     *int             `json:"issueId"`
	SeriesType                  int              `json:"seriesType"`
	ReleaseYear                 time.Time        `json:"releaseYear"`
	RequestedUserPlayedProgress int              `json:"requestedUserPlayedProgress"`
	SeasonRequests              []*seasonRequest `json:"seasonRequests"`
}

// episodeCount is how many episodes a child requests.
func (c *childRequest) episodeCount() int {
	n := 0
	for _, s := range c.SeasonRequests {
		n += len(s.Episodes)
	}
	return n
}

// tvParent is Ombi's TvRequests entity.
type tvParent struct {
	ID                 int             `json:"id"`
	TvDbID             int             `json:"tvDbId"`
	ExternalProviderID int             `json:"externalProviderId"`
	ImdbID             string          `json:"imdbId"`
	QualityOverride    *int            `json:"qualityOverride"`
	RootFolder         *int            `json:"rootFolder"`
	LanguageProfile    *int            `json:"languageProfile"`
	Overview           string          `json:"overview"`
	Title              string          `json:"title"`
	PosterPath         string          `json:"posterPath"`
	Background         string          `json:"background"`
	ReleaseDate        time.Time       `json:"releaseDate"`
	Status             string          `json:"status"`
	TotalSeasons       int             `json:"totalSeasons"`
	ChildRequests      []*childRequest `json:"childRequests"` // seed only; the store keeps children in requestState.children
	Extra              map[string]any  `json:"extra"`
}

// albumRequest is Ombi's AlbumRequest entity.
type albumRequest struct {
	reqBase
	ForeignAlbumID  string    `json:"foreignAlbumId"`
	ForeignArtistID string    `json:"foreignArtistId"`
	ArtistName      string    `json:"artistName"`
	Cover           string    `json:"cover"`
	Disk            string    `json:"disk"`
	Rating          float64   `json:"rating"`
	ReleaseDate     time.Time `json:"releaseDate"`
}

// retryItem is a RequestQueue row (the retry queue).
type retryItem struct {
	ID          int            `json:"id"`
	Title       string         `json:"title"`
	ReleaseYear time.Time      `json:"releaseYear"`
	RequestID   int            `json:"requestId"`
	Type        int            `json:"type"`
	Dts         time.Time      `json:"dts"`
	Error       string         `json:"error"`
	RetryCount  int            `json:"retryCount"`
	Completed   *time.Time     `json:"completed"`
	Extra       map[string]any `json:"extra"`
}

// subscription is a RequestSubscription row.
type subscription struct {
	UserID      string `json:"userId"`
	RequestType int    `json:"requestType"`
	RequestID   int    `json:"requestId"`
}

// requestState is every request, the retry queue and the subscriptions.
type requestState struct {
	movies   []*movieRequest
	tv       []*tvParent
	children []*childRequest
	albums   []*albumRequest
	retry    []*retryItem
	subs     []subscription
	// linqTrace is the stack trace (with a planted build path) of the
	// tv_search_linq failure.
	linqTrace string
}

// requestsSeed is requests.json.
type requestsSeed struct {
	Movies        []*movieRequest `json:"movies"`
	TV            []*tvParent     `json:"tv"`
	Albums        []*albumRequest `json:"albums"`
	Retry         []*retryItem    `json:"retry"`
	Subscriptions []subscription  `json:"subscriptions"`
}

// newRequestState loads requests.json (plus the generated requests of the
// large data set) and registers seeded ids.
func newRequestState(sd *seedSet, users *userState, catalog *searchState) (requestState, error) {
	var seed requestsSeed
	if err := sd.decode("requests.json", &seed); err != nil {
		return requestState{}, err
	}
	rs := requestState{movies: seed.Movies, tv: seed.TV, albums: seed.Albums, retry: seed.Retry, subs: seed.Subscriptions}
	if sd.large {
		rs.generateLarge(users, catalog, sd.now())
	}
	for _, pr := range rs.tv {
		for _, c := range pr.ChildRequests {
			c.ParentRequestID = pr.ID
			rs.children = append(rs.children, c)
		}
		pr.ChildRequests = nil
	}
	for _, m := range rs.movies {
		sd.seenID("movieRequest", m.ID)
	}
	for _, pr := range rs.tv {
		sd.seenID("tvParent", pr.ID)
	}
	for _, c := range rs.children {
		sd.seenID("tvChild", c.ID)
		for _, s := range c.SeasonRequests {
			sd.seenID("season", s.ID)
			for _, e := range s.Episodes {
				sd.seenID("episode", e.ID)
			}
		}
	}
	for _, a := range rs.albums {
		sd.seenID("albumRequest", a.ID)
	}
	for _, q := range rs.retry {
		sd.seenID("retry", q.ID)
	}
	build := sd.plant("build_path", "requests: stack frames of the tv_search_linq 500 body")
	rs.linqTrace = "   at Microsoft.EntityFrameworkCore.Query.QueryableMethodTranslatingExpressionVisitor.Translate(Expression expression)\n" +
		"   at Ombi.Core.Engine.TvRequestEngine.SearchTvRequest(String search) in /home/" + build + "/Ombi/src/Ombi.Core/Engine/TvRequestEngine.cs:line 506\n" +
		"   at Ombi.Controllers.V1.RequestController.SearchTv(String searchTerm) in /home/" + build + "/Ombi/src/Ombi/Controllers/V1/RequestController.cs:line 303"
	return rs, nil
}

// movieByID finds a movie request.
func (rs *requestState) movieByID(id int) *movieRequest {
	for _, m := range rs.movies {
		if m.ID == id {
			return m
		}
	}
	return nil
}

// movieByTMDB finds the movie request of a TMDB id.
func (rs *requestState) movieByTMDB(tmdb int) *movieRequest {
	for _, m := range rs.movies {
		if m.TheMovieDbID == tmdb {
			return m
		}
	}
	return nil
}

// parentByID finds a TV parent request.
func (rs *requestState) parentByID(id int) *tvParent {
	for _, p := range rs.tv {
		if p.ID == id {
			return p
		}
	}
	return nil
}

// parentByTMDB finds the TV parent of a TMDB id.
func (rs *requestState) parentByTMDB(tmdb int) *tvParent {
	for _, p := range rs.tv {
		if p.ExternalProviderID == tmdb {
			return p
		}
	}
	return nil
}

// childByID finds a TV child request.
func (rs *requestState) childByID(id int) *childRequest {
	for _, c := range rs.children {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// childrenOf lists a parent's children in id order.
func (rs *requestState) childrenOf(parentID int) []*childRequest {
	var out []*childRequest
	for _, c := range rs.children {
		if c.ParentRequestID == parentID {
			out = append(out, c)
		}
	}
	return out
}

// albumByID finds an album request.
func (rs *requestState) albumByID(id int) *albumRequest {
	for _, a := range rs.albums {
		if a.ID == id {
			return a
		}
	}
	return nil
}

// albumByForeignID finds the album request of a MusicBrainz id.
func (rs *requestState) albumByForeignID(id string) *albumRequest {
	for _, a := range rs.albums {
		if strings.EqualFold(a.ForeignAlbumID, id) {
			return a
		}
	}
	return nil
}

// subscribed reports whether the caller follows a request.
func (rs *requestState) subscribed(p *principal, typ, id int) bool {
	if p == nil {
		return false
	}
	return slices.Contains(rs.subs, subscription{UserID: p.id, RequestType: typ, RequestID: id})
}

// ---- projections -------------------------------------------------------

// baseView projects BaseRequest.
func (st *store) baseView(b *reqBase, typ int, p *principal) map[string]any {
	var user any
	if acc := st.users.byID(b.RequestedUserID); acc != nil {
		user = acc.ombiUser()
	}
	return map[string]any{
		"id": b.ID, "title": b.Title, "approved": b.Approved, "markedAsApproved": b.MarkedAsApproved,
		"requestedDate": b.RequestedDate, "available": b.Available, "markedAsAvailable": b.MarkedAsAvailable,
		"requestedUserId": b.RequestedUserID, "denied": b.Denied, "markedAsDenied": b.MarkedAsDenied,
		"deniedReason": nullIfEmpty(b.DeniedReason), "requestType": typ, "requestedByAlias": nullIfEmpty(b.RequestedByAlias),
		"requestedUser": user, "source": b.Source, "canApprove": !b.Approved && !b.Available,
		"requestStatus": b.status(), "showSubscribe": p != nil && p.id != b.RequestedUserID,
	}
}

// movieRequestView projects MovieRequests.
func (st *store) movieRequestView(m *movieRequest, p *principal) map[string]any {
	v := st.baseView(&m.reqBase, requestTypeMovie, p)
	now := st.now()
	comb := 0
	if m.Has4KRequest {
		comb = 1
		if m.Approved || m.Available || !m.RequestedDate.IsZero() && !m.Is4kRequest {
			comb = 2
		}
	}
	maps.Copy(v, map[string]any{
		"theMovieDbId": m.TheMovieDbID, "imdbId": nullIfEmpty(m.ImdbID), "overview": m.Overview, "posterPath": m.PosterPath,
		"background": m.Background, "releaseDate": m.ReleaseDate, "digitalReleaseDate": m.DigitalReleaseDate,
		"status": m.Status, "released": !m.ReleaseDate.After(now),
		"digitalRelease": m.DigitalReleaseDate != nil && !m.DigitalReleaseDate.After(now),
		"issueId":        m.IssueID, "issues": []any{}, "subscribed": st.requests.subscribed(p, requestTypeMovie, m.ID),
		"is4kRequest": m.Is4kRequest, "rootPathOverride": m.RootPathOverride, "qualityOverride": m.QualityOverride,
		"has4KRequest": m.Has4KRequest, "approved4K": m.Approved4K, "markedAsApproved4K": m.MarkedAsApproved4K,
		"requestedDate4k": m.RequestedDate4k, "available4K": m.Available4K, "markedAsAvailable4K": m.MarkedAsAvailable4K,
		"denied4K": m.Denied4K, "markedAsDenied4K": m.MarkedAsDenied4K, "deniedReason4K": nullIfEmpty(m.DeniedReason4K),
		"requestCombination": comb, "langCode": nullIfEmpty(m.LangCode),
		"watchedByRequestedUser": m.WatchedByRequestedUser, "playedByUsersCount": m.PlayedByUsersCount,
	})
	return mergeExtra(v, m.Extra)
}

// seasonRequestViews projects a child's SeasonRequests.
func seasonRequestViews(c *childRequest) []map[string]any {
	out := []map[string]any{}
	for _, s := range c.SeasonRequests {
		eps := []map[string]any{}
		for _, e := range s.Episodes {
			eps = append(eps, mergeExtra(map[string]any{
				"id": e.ID, "episodeNumber": e.EpisodeNumber, "title": e.Title, "airDate": e.AirDate, "url": e.URL,
				"available": e.Available, "approved": e.Approved, "requested": e.Requested, "denied": e.Denied,
				"deniedReason": nullIfEmpty(e.DeniedReason), "seasonId": e.SeasonID,
				"airDateDisplay": airDateDisplay(e.AirDate.Format(time.RFC3339)), "requestStatus": episodeStatus(e),
			}, e.Extra))
		}
		out = append(out, mergeExtra(map[string]any{"id": s.ID, "seasonNumber": s.SeasonNumber, "overview": s.Overview,
			"episodes": eps, "childRequestId": c.ID, "seasonAvailable": s.SeasonAvailable}, s.Extra))
	}
	return out
}

// childView projects ChildRequests; withParent adds parentRequest (whose
// childRequests hold the siblings, the loop back to this child dropped as
// Newtonsoft's ReferenceLoopHandling.Ignore does).
func (st *store) childView(c *childRequest, p *principal, withParent, withSeasons bool) map[string]any {
	v := st.baseView(&c.reqBase, requestTypeTV, p)
	seasons := []map[string]any{}
	if withSeasons {
		seasons = seasonRequestViews(c)
	}
	maps.Copy(v, map[string]any{
		"parentRequestId": c.ParentRequestID, "issueId": c.IssueID, "seriesType": c.SeriesType,
		"subscribed":  st.requests.subscribed(p, requestTypeTV, c.ID) || st.requests.subscribed(p, requestTypeTV, c.ParentRequestID),
		"releaseYear": c.ReleaseYear, "issues": []any{}, "seasonRequests": seasons,
		"requestedUserPlayedProgress": c.RequestedUserPlayedProgress,
	})
	if withParent {
		if pr := st.requests.parentByID(c.ParentRequestID); pr != nil {
			pv := st.parentFields(pr)
			sib := []map[string]any{}
			for _, o := range st.requests.childrenOf(pr.ID) {
				if o.ID != c.ID {
					sib = append(sib, st.childView(o, p, false, withSeasons))
				}
			}
			pv["childRequests"] = sib
			v["parentRequest"] = pv
		}
	}
	return mergeExtra(v, c.Extra)
}

// parentFields projects TvRequests without children.
func (st *store) parentFields(pr *tvParent) map[string]any {
	return mergeExtra(map[string]any{
		"id": pr.ID, "tvDbId": pr.TvDbID, "externalProviderId": pr.ExternalProviderID, "imdbId": nullIfEmpty(pr.ImdbID),
		"qualityOverride": pr.QualityOverride, "rootFolder": pr.RootFolder, "languageProfile": pr.LanguageProfile,
		"overview": pr.Overview, "title": pr.Title, "posterPath": pr.PosterPath, "background": pr.Background,
		"releaseDate": pr.ReleaseDate, "status": pr.Status, "totalSeasons": pr.TotalSeasons,
	}, pr.Extra)
}

// parentView projects TvRequests with its children (seasons unless lite).
func (st *store) parentView(pr *tvParent, p *principal, lite bool) map[string]any {
	v := st.parentFields(pr)
	kids := []map[string]any{}
	for _, c := range st.requests.childrenOf(pr.ID) {
		kids = append(kids, st.childView(c, p, false, !lite))
	}
	v["childRequests"] = kids
	return v
}

// albumRequestView projects AlbumRequest.
func (st *store) albumRequestView(a *albumRequest, p *principal) map[string]any {
	v := st.baseView(&a.reqBase, requestTypeAlbum, p)
	maps.Copy(v, map[string]any{
		"foreignAlbumId": a.ForeignAlbumID, "foreignArtistId": a.ForeignArtistID, "disk": a.Disk, "cover": a.Cover,
		"rating": a.Rating, "releaseDate": a.ReleaseDate, "artistName": a.ArtistName,
		"subscribed": st.requests.subscribed(p, requestTypeAlbum, a.ID),
	})
	return mergeExtra(v, a.Extra)
}

// ---- engine results -----------------------------------------------------

// engineOK is a successful RequestEngineResult.
func engineOK(message string, requestID int) map[string]any {
	return map[string]any{"result": true, "message": nullIfEmpty(message), "isError": false,
		"errorMessage": nil, "errorCode": nil, "requestId": requestID}
}

// engineFail is a failed RequestEngineResult (HTTP 200 upstream).
func engineFail(code, message string) map[string]any {
	return map[string]any{"result": false, "message": nil, "isError": true,
		"errorMessage": message, "errorCode": nullIfEmpty(code), "requestId": 0}
}

// ---- list handlers --------------------------------------------------------

// mediaOf finds which media segment (movie, tv, album, music) a path names
// after its controller segment.
func mediaOf(r *http.Request, after string) string {
	parts := splitPath(strings.ToLower(r.URL.Path))
	for i, p := range parts {
		if p == after && i+1 < len(parts) {
			return parts[i+1]
		}
	}
	return ""
}

// statusFilter returns the predicate of a v2 list status segment.
func statusFilter(media, status string) (func(b *reqBase, fourK fourKFlags) bool, bool) {
	switch status {
	case "":
		return func(*reqBase, fourKFlags) bool { return true }, true
	case "pending":
		return func(b *reqBase, k fourKFlags) bool {
			return !b.RequestedDate.IsZero() && !b.Approved && !b.Available && !b.isDenied() ||
				k.has && !k.approved && !k.available && !k.denied
		}, true
	case "processing":
		return func(b *reqBase, k fourKFlags) bool {
			return !b.RequestedDate.IsZero() && b.Approved && !b.Available && !b.isDenied() ||
				k.has && k.approved && !k.available && !k.denied
		}, true
	case "available", "availble":
		if status == "availble" && media != "movie" {
			return nil, false
		}
		return func(b *reqBase, k fourKFlags) bool { return b.Available || k.available }, true
	case "denied":
		return func(b *reqBase, k fourKFlags) bool {
			return b.isDenied() && !b.Available || k.has && k.denied && !k.available
		}, true
	case "unavailable":
		if media == "album" {
			return nil, false
		}
		return func(b *reqBase, k fourKFlags) bool { return !b.Available && b.Approved }, true
	}
	return nil, false
}

// fourKFlags are a movie request's 4K flags (zero for other media).
type fourKFlags struct{ has, approved, available, denied bool }

// fourK extracts a movie request's 4K flags.
func fourK(m *movieRequest) fourKFlags {
	return fourKFlags{has: m.Has4KRequest, approved: m.Approved4K, available: m.Available4K, denied: m.Denied4K != nil && *m.Denied4K}
}

// requestsListV2 is GET /api/v2/Requests/{movie|tv|album}[/{status}]/{count}/{position}/{sort}/{sortOrder}.
func (s *Server) requestsListV2(w http.ResponseWriter, r *http.Request) {
	media := mediaOf(r, "requests")
	keep, ok := statusFilter(media, strings.ToLower(r.PathValue("status")))
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	count, ok := intParam(w, r, "count")
	if !ok {
		return
	}
	position, ok := intParam(w, r, "position")
	if !ok {
		return
	}
	sortProp, asc := r.PathValue("sort"), strings.EqualFold(r.PathValue("sortOrder"), "asc")
	if strings.Contains(sortProp, ".") {
		sortProp = "requestedDate"
		if media == "tv" {
			sortProp = "title"
		}
	}
	p := principalOf(r)
	var items []map[string]any
	s.store.Read(func(st *store) {
		switch media {
		case "movie":
			for _, m := range st.requests.movies {
				if keep(&m.reqBase, fourK(m)) && st.visibleTo(p, m.RequestedUserID) {
					items = append(items, st.movieRequestView(m, p))
				}
			}
		case "tv":
			for _, c := range st.requests.children {
				if keep(&c.reqBase, fourKFlags{}) && st.visibleTo(p, c.RequestedUserID) {
					items = append(items, st.childView(c, p, true, true))
				}
			}
		case "album":
			for _, a := range st.requests.albums {
				if keep(&a.reqBase, fourKFlags{}) && st.visibleTo(p, a.RequestedUserID) {
					items = append(items, st.albumRequestView(a, p))
				}
			}
		}
	})
	if err := sortByProperty(items, sortProp, asc); err != "" {
		writeOmbiError(w, http.StatusInternalServerError, err)
		return
	}
	page := window(items, position, count)
	if len(page) > 0 && s.quirk(QuirkV2ListNullReference) {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	if page == nil {
		page = []map[string]any{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"collection": page, "total": len(items)})
}

// sortByProperty orders projected items by a case-insensitive C# property
// name, as Ombi's reflection-based OrderBy does; it returns the exception
// message Ombi would answer with when it cannot.
func sortByProperty(items []map[string]any, prop string, asc bool) string {
	if len(items) == 0 {
		return ""
	}
	key := ""
	for k := range items[0] {
		if strings.EqualFold(k, prop) && (key == "" || k < key) {
			key = k
		}
	}
	if key == "" {
		return msgNullReference
	}
	for _, it := range items {
		switch it[key].(type) {
		case map[string]any, []any, []map[string]any:
			return "Failed to compare two elements in the array."
		}
	}
	slices.SortStableFunc(items, func(a, b map[string]any) int {
		c := compareAny(a[key], b[key])
		if !asc {
			c = -c
		}
		return c
	})
	return ""
}

// compareAny orders JSON-ish scalars: nil first, then by type.
func compareAny(a, b any) int {
	a, b = deref(a), deref(b)
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	switch x := a.(type) {
	case bool:
		y, _ := b.(bool)
		return cmp.Compare(boolInt(x), boolInt(y))
	case int:
		y, _ := b.(int)
		return cmp.Compare(x, y)
	case float64:
		y, _ := b.(float64)
		return cmp.Compare(x, y)
	case string:
		y, _ := b.(string)
		if c := cmp.Compare(strings.ToLower(x), strings.ToLower(y)); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	case time.Time:
		y, _ := b.(time.Time)
		return x.Compare(y)
	}
	return 0
}

// deref unwraps the pointer types projections use.
func deref(v any) any {
	switch x := v.(type) {
	case *time.Time:
		if x == nil {
			return nil
		}
		return *x
	case *bool:
		if x == nil {
			return nil
		}
		return *x
	case *int:
		if x == nil {
			return nil
		}
		return *x
	}
	return v
}

// boolInt is false=0, true=1.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// v1Filter applies the v1 FilterType ints (status and availability).
func v1Filter(b *reqBase, status, availability int) bool {
	switch status {
	case 3: // Approved
		if !b.Approved {
			return false
		}
	case 4: // Processing
		if !b.Approved || b.Available {
			return false
		}
	case 5: // PendingApproval
		if b.Approved || b.Available || b.isDenied() {
			return false
		}
	}
	switch availability {
	case 1:
		return b.Available
	case 2:
		return !b.Available
	}
	return true
}

// v1Order sorts by the v1 OrderType int.
func v1Order(items []map[string]any, order int) {
	switch order {
	case 1:
		_ = sortByProperty(items, "requestedDate", true)
	case 2:
		_ = sortByProperty(items, "requestedDate", false)
	case 3:
		_ = sortByProperty(items, "title", true)
	case 4:
		_ = sortByProperty(items, "title", false)
	case 5:
		_ = sortByProperty(items, "requestStatus", true)
	case 6:
		_ = sortByProperty(items, "requestStatus", false)
	}
}

// pagedV1Args reads {count}/{position}/{orderType} (int-constrained).
func pagedV1Args(w http.ResponseWriter, r *http.Request) (count, position, order int, ok bool) {
	if count, ok = intParam(w, r, "count"); !ok {
		return
	}
	if position, ok = intParam(w, r, "position"); !ok {
		return
	}
	order, ok = intParam(w, r, "orderType")
	return
}

// pagedV1FilterArgs reads pagedV1Args plus the {statusType} and
// {availabilityType} segments, which the movie and album routes honour.
func pagedV1FilterArgs(w http.ResponseWriter, r *http.Request) (count, position, order, status, avail int, ok bool) {
	if count, position, order, ok = pagedV1Args(w, r); !ok {
		return
	}
	if status, ok = intParam(w, r, "statusType"); !ok {
		return
	}
	avail, ok = intParam(w, r, "availabilityType")
	return
}

// requestMoviePagedV1 is GET /api/v1/Request/movie/{count}/{position}/{orderType}/{statusType}/{availabilityType}.
func (s *Server) requestMoviePagedV1(w http.ResponseWriter, r *http.Request) {
	count, position, order, status, avail, ok := pagedV1FilterArgs(w, r)
	if !ok {
		return
	}
	p := principalOf(r)
	items := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, m := range st.requests.movies {
			if v1Filter(&m.reqBase, status, avail) && st.visibleTo(p, m.RequestedUserID) {
				items = append(items, st.movieRequestView(m, p))
			}
		}
	})
	v1Order(items, order)
	writePage(w, items, position, count)
}

// writePage answers RequestsViewModel {collection, total}.
func writePage(w http.ResponseWriter, items []map[string]any, position, count int) {
	page := window(items, position, count)
	if page == nil {
		page = []map[string]any{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"collection": page, "total": len(items)})
}

// requestTVPagedV1 is GET /api/v1/Request/tv[lite]/{count}/{position}/{orderType}/{statusFilterType}/{availabilityFilterType}.
// Upstream binds status and availability from the query string (parameter
// name mismatch), so the path values are ignored.
func (s *Server) requestTVPagedV1(w http.ResponseWriter, r *http.Request) {
	count, position, order, ok := pagedV1Args(w, r)
	if !ok {
		return
	}
	if _, ok := intParam(w, r, "statusFilterType"); !ok {
		return
	}
	if _, ok := intParam(w, r, "availabilityFilterType"); !ok {
		return
	}
	status, _ := strconv.Atoi(queryFold(r, "statusType"))
	avail, _ := strconv.Atoi(queryFold(r, "availabilityType"))
	lite := mediaOf(r, "request") == "tvlite"
	p := principalOf(r)
	items := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, pr := range st.requests.tv {
			kids := st.requests.childrenOf(pr.ID)
			if !st.parentVisibleTo(p, pr) {
				continue
			}
			if !slices.ContainsFunc(kids, func(c *childRequest) bool { return v1Filter(&c.reqBase, status, avail) }) && (status != 0 || avail != 0) {
				continue
			}
			v := st.parentView(pr, p, lite)
			if len(kids) > 0 {
				v["requestedDate"] = kids[0].RequestedDate
				v["requestStatus"] = kids[0].status()
			}
			items = append(items, v)
		}
	})
	v1Order(items, order)
	for _, it := range items {
		delete(it, "requestedDate")
		delete(it, "requestStatus")
	}
	writePage(w, items, position, count)
}

// requestAlbumPagedV1 is GET /api/v1/request/music/{count}/{position}/{orderType}/{statusType}/{availabilityType}.
func (s *Server) requestAlbumPagedV1(w http.ResponseWriter, r *http.Request) {
	count, position, order, status, avail, ok := pagedV1FilterArgs(w, r)
	if !ok {
		return
	}
	p := principalOf(r)
	items := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, a := range st.requests.albums {
			if v1Filter(&a.reqBase, status, avail) && st.visibleTo(p, a.RequestedUserID) {
				items = append(items, st.albumRequestView(a, p))
			}
		}
	})
	v1Order(items, order)
	writePage(w, items, position, count)
}

// requestMovieAll is GET /api/v1/Request/movie.
func (s *Server) requestMovieAll(w http.ResponseWriter, r *http.Request) {
	s.writeMovieRequests(w, r, func(*movieRequest) bool { return true })
}

// requestMovieSearch is GET /api/v1/Request/movie/search/{searchTerm}.
func (s *Server) requestMovieSearch(w http.ResponseWriter, r *http.Request) {
	term := r.PathValue("searchTerm")
	s.writeMovieRequests(w, r, func(m *movieRequest) bool { return containsFold(m.Title, term) })
}

// writeMovieRequests answers MovieRequests[] filtered by keep.
func (s *Server) writeMovieRequests(w http.ResponseWriter, r *http.Request, keep func(*movieRequest) bool) {
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, m := range st.requests.movies {
			if keep(m) && st.visibleTo(principalOf(r), m.RequestedUserID) {
				out = append(out, st.movieRequestView(m, principalOf(r)))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// requestMovieGet is GET /api/v1/Request/movie/info/{requestId}.
func (s *Server) requestMovieGet(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "requestId")
	if !ok {
		return
	}
	var out map[string]any
	s.store.Read(func(st *store) {
		if m := st.requests.movieByID(id); m != nil {
			out = st.movieRequestView(m, principalOf(r))
		}
	})
	writeRecord(w, out)
}

// requestMovieTotal is GET /api/v1/Request/movie/total.
func (s *Server) requestMovieTotal(w http.ResponseWriter, r *http.Request) {
	n := 0
	s.store.Read(func(st *store) { n = len(st.requests.movies) })
	writeJSON(w, http.StatusOK, n)
}

// requestTVTotal is GET /api/v1/Request/tv/total.
func (s *Server) requestTVTotal(w http.ResponseWriter, r *http.Request) {
	n := 0
	s.store.Read(func(st *store) { n = len(st.requests.tv) })
	writeJSON(w, http.StatusOK, n)
}

// requestAlbumTotal is GET /api/v1/request/music/total.
func (s *Server) requestAlbumTotal(w http.ResponseWriter, r *http.Request) {
	n := 0
	s.store.Read(func(st *store) { n = len(st.requests.albums) })
	writeJSON(w, http.StatusOK, n)
}

// requestTVAll is GET /api/v1/Request/tv and tvlite.
func (s *Server) requestTVAll(w http.ResponseWriter, r *http.Request) {
	lite := mediaOf(r, "request") == "tvlite"
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, pr := range st.requests.tv {
			if st.parentVisibleTo(principalOf(r), pr) {
				out = append(out, st.parentView(pr, principalOf(r), lite))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// requestTVGet is GET /api/v1/Request/tv/{requestId} (parent id).
func (s *Server) requestTVGet(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "requestId")
	if !ok {
		return
	}
	var out map[string]any
	s.store.Read(func(st *store) {
		if pr := st.requests.parentByID(id); pr != nil {
			out = st.parentView(pr, principalOf(r), false)
		}
	})
	writeRecord(w, out)
}

// requestTVSearch is GET /api/v1/Request/tv/search/{searchTerm}; the
// tv_search_linq quirk reproduces the EF Core translation failure.
func (s *Server) requestTVSearch(w http.ResponseWriter, r *http.Request) {
	term := r.PathValue("searchTerm")
	if s.quirk(QuirkTVSearchLINQ) {
		var trace string
		s.store.Read(func(st *store) { trace = st.requests.linqTrace })
		writeOmbiError(w, http.StatusInternalServerError, "System.InvalidOperationException: The LINQ expression 'DbSet<TvRequests>()\n"+
			"    .Where(t => t.Title.Contains(__search_0, StringComparison.OrdinalIgnoreCase))' could not be translated. "+
			"Either rewrite the query in a form that can be translated, or switch to client evaluation explicitly by inserting a call to "+
			"'AsEnumerable', 'AsAsyncEnumerable', 'ToList', or 'ToListAsync'. See https://go.microsoft.com/fwlink/?linkid=2101038 for more information.\n"+trace)
		return
	}
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, pr := range st.requests.tv {
			if containsFold(pr.Title, term) && st.parentVisibleTo(principalOf(r), pr) {
				out = append(out, st.parentView(pr, principalOf(r), false))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// requestTVChildren is GET /api/v1/Request/tv/{requestId}/child.
func (s *Server) requestTVChildren(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "requestId")
	if !ok {
		return
	}
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, c := range st.requests.childrenOf(id) {
			out = append(out, st.childView(c, principalOf(r), false, true))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// requestAlbumAll is GET /api/v1/request/music.
func (s *Server) requestAlbumAll(w http.ResponseWriter, r *http.Request) {
	s.writeAlbumRequests(w, r, "")
}

// requestAlbumSearch is GET /api/v1/request/music/search/{searchTerm}.
func (s *Server) requestAlbumSearch(w http.ResponseWriter, r *http.Request) {
	s.writeAlbumRequests(w, r, r.PathValue("searchTerm"))
}

// writeAlbumRequests answers AlbumRequest[] whose title or artist matches term.
func (s *Server) writeAlbumRequests(w http.ResponseWriter, r *http.Request, term string) {
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, a := range st.requests.albums {
			if (containsFold(a.Title, term) || containsFold(a.ArtistName, term)) && st.visibleTo(principalOf(r), a.RequestedUserID) {
				out = append(out, st.albumRequestView(a, principalOf(r)))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// requestsRecentlyRequested is GET /api/v2/Requests/recentlyRequested: up to
// seven movies, TV children and albums, newest first.
func (s *Server) requestsRecentlyRequested(w http.ResponseWriter, r *http.Request) {
	type row struct {
		date time.Time
		v    map[string]any
	}
	var rows []row
	s.store.Read(func(st *store) {
		user := func(id string) (any, any) {
			if acc := st.users.byID(id); acc != nil {
				return id, acc.displayName()
			}
			return id, nil
		}
		newest := func(n int, dates []time.Time) []int {
			idx := make([]int, len(dates))
			for i := range idx {
				idx[i] = i
			}
			slices.SortStableFunc(idx, func(a, b int) int { return dates[b].Compare(dates[a]) })
			return idx[:min(n, len(idx))]
		}
		var dates []time.Time
		for _, m := range st.requests.movies {
			dates = append(dates, m.RequestedDate)
		}
		for _, i := range newest(7, dates) {
			m := st.requests.movies[i]
			uid, name := user(m.RequestedUserID)
			rows = append(rows, row{m.RequestedDate, map[string]any{"requestId": m.ID, "type": requestTypeMovie, "userId": uid, "username": name,
				"available": m.Available, "tvPartiallyAvailable": false, "requestDate": m.RequestedDate, "title": m.Title, "overview": m.Overview,
				"releaseDate": m.ReleaseDate, "approved": m.Approved, "denied": m.isDenied(), "mediaId": strconv.Itoa(m.TheMovieDbID),
				"posterPath": m.PosterPath, "background": m.Background}})
		}
		dates = dates[:0]
		for _, c := range st.requests.children {
			dates = append(dates, c.RequestedDate)
		}
		for _, i := range newest(7, dates) {
			c := st.requests.children[i]
			uid, name := user(c.RequestedUserID)
			v := map[string]any{"requestId": c.ID, "type": requestTypeTV, "userId": uid, "username": name,
				"available": c.Available, "tvPartiallyAvailable": partlyAvailable(c), "requestDate": c.RequestedDate, "title": c.Title,
				"overview": nil, "releaseDate": c.ReleaseYear, "approved": c.Approved, "denied": c.isDenied(), "mediaId": nil,
				"posterPath": nil, "background": nil}
			if pr := st.requests.parentByID(c.ParentRequestID); pr != nil {
				v["overview"], v["mediaId"], v["posterPath"], v["background"] = pr.Overview, strconv.Itoa(pr.ExternalProviderID), pr.PosterPath, pr.Background
			}
			rows = append(rows, row{c.RequestedDate, v})
		}
		dates = dates[:0]
		for _, a := range st.requests.albums {
			dates = append(dates, a.RequestedDate)
		}
		for _, i := range newest(7, dates) {
			a := st.requests.albums[i]
			uid, name := user(a.RequestedUserID)
			rows = append(rows, row{a.RequestedDate, map[string]any{"requestId": a.ID, "type": requestTypeAlbum, "userId": uid, "username": name,
				"available": a.Available, "tvPartiallyAvailable": false, "requestDate": a.RequestedDate, "title": a.Title, "overview": a.ArtistName,
				"releaseDate": a.ReleaseDate, "approved": a.Approved, "denied": a.isDenied(), "mediaId": a.ForeignAlbumID,
				"posterPath": nil, "background": nil}})
		}
	})
	slices.SortStableFunc(rows, func(a, b row) int { return b.date.Compare(a.date) })
	out := make([]map[string]any, 0, len(rows))
	p := principalOf(r)
	s.store.Read(func(st *store) {
		for _, row := range rows {
			// upstream takes seven of each, then skips other users' rows when hiding
			if owner, _ := row.v["userId"].(string); st.visibleTo(p, owner) {
				out = append(out, row.v)
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// partlyAvailable reports some but not all episodes of a child available.
func partlyAvailable(c *childRequest) bool {
	some, all := false, true
	for _, s := range c.SeasonRequests {
		for _, e := range s.Episodes {
			some = some || e.Available
			all = all && e.Available
		}
	}
	return some && !all
}

// requestCount is GET /api/v1/Request/count (anonymous).
func (s *Server) requestCount(w http.ResponseWriter, r *http.Request) {
	var pending, approved, available, denied int
	tally := func(b *reqBase) { // the buckets overlap, as upstream counts them
		if !b.Approved && !b.Available && !b.isDenied() {
			pending++
		}
		if b.Approved && !b.Available {
			approved++
		}
		if b.Available {
			available++
		}
		if b.isDenied() {
			denied++
		}
	}
	s.store.Read(func(st *store) {
		for _, m := range st.requests.movies {
			tally(&m.reqBase)
		}
		for _, c := range st.requests.children {
			tally(&c.reqBase)
		}
	})
	writeJSON(w, http.StatusOK, map[string]int{"pending": pending, "approved": approved, "available": available, "denied": denied})
}

// requestUserHasRequest is GET /api/v1/Request/userhasrequest?userId=.
func (s *Server) requestUserHasRequest(w http.ResponseWriter, r *http.Request) {
	id := queryFold(r, "userId")
	has := false
	s.store.Read(func(st *store) {
		for _, m := range st.requests.movies {
			has = has || m.RequestedUserID == id
		}
		for _, c := range st.requests.children {
			has = has || c.RequestedUserID == id
		}
		for _, a := range st.requests.albums {
			has = has || a.RequestedUserID == id
		}
	})
	writeJSON(w, http.StatusOK, has)
}

// ---- quotas ---------------------------------------------------------------

// quota computes RequestQuotaCountModel for the caller and a request type.
func (st *store) quota(p *principal, typ int) map[string]any {
	now := st.now().UTC()
	none := map[string]any{"hasLimit": false, "limit": 0, "remaining": 0, "nextRequest": now}
	if p == nil || p.inRole(ombiRoleAdmin) {
		return none
	}
	acc := st.users.byID(p.id)
	if acc == nil {
		return none
	}
	limit, key := 0, ""
	switch typ {
	case requestTypeMovie:
		limit, key = acc.MovieRequestLimit, "movieRequestLimitType"
	case requestTypeTV:
		limit, key = acc.EpisodeRequestLimit, "episodeRequestLimitType"
	default:
		limit, key = acc.MusicRequestLimit, "musicRequestLimitType"
	}
	if limit <= 0 {
		return none
	}
	period := 7 * 24 * time.Hour
	if t, ok := acc.Raw[key].(float64); ok {
		switch int(t) {
		case 0:
			period = 24 * time.Hour
		case 2:
			period = 30 * 24 * time.Hour
		}
	}
	since := now.Add(-period)
	used, oldest := 0, time.Time{}
	count := func(b *reqBase, n int) {
		if b.RequestedUserID != acc.ID || b.RequestedDate.Before(since) {
			return
		}
		used += n
		if oldest.IsZero() || b.RequestedDate.Before(oldest) {
			oldest = b.RequestedDate
		}
	}
	switch typ {
	case requestTypeMovie:
		for _, m := range st.requests.movies {
			count(&m.reqBase, 1)
		}
	case requestTypeTV:
		for _, c := range st.requests.children {
			count(&c.reqBase, c.episodeCount())
		}
	default:
		for _, a := range st.requests.albums {
			count(&a.reqBase, 1)
		}
	}
	next := now
	if !oldest.IsZero() {
		next = oldest.Add(period).UTC()
	}
	return map[string]any{"hasLimit": true, "limit": limit, "remaining": max(0, limit-used), "nextRequest": next}
}

// writeQuota answers the caller's quota for typ.
func (s *Server) writeQuota(w http.ResponseWriter, r *http.Request, typ int) {
	var out map[string]any
	s.store.Read(func(st *store) { out = st.quota(principalOf(r), typ) })
	writeJSON(w, http.StatusOK, out)
}

// requestMovieRemaining is GET /api/v1/Request/movie/remaining.
func (s *Server) requestMovieRemaining(w http.ResponseWriter, r *http.Request) {
	s.writeQuota(w, r, requestTypeMovie)
}

// requestTVRemaining is GET /api/v1/Request/tv/remaining.
func (s *Server) requestTVRemaining(w http.ResponseWriter, r *http.Request) {
	s.writeQuota(w, r, requestTypeTV)
}

// requestAlbumRemaining is GET /api/v1/request/music/remaining.
func (s *Server) requestAlbumRemaining(w http.ResponseWriter, r *http.Request) {
	s.writeQuota(w, r, requestTypeAlbum)
}

// ---- creation -------------------------------------------------------------

// requester resolves who a new request belongs to: the on-behalf user id
// when allowed, else the caller (the system user Api for a bare API key). It
// returns the failed engine result Ombi gives when on-behalf or overrides are
// not allowed; only the TV engine sets an errorCode on those.
func (st *store) requester(p *principal, onBehalf string, overrides bool, typ int) (string, map[string]any) {
	deny := func(code, msg string) map[string]any {
		res := engineFail("", msg)
		res["message"] = msg
		if typ == requestTypeTV {
			res["errorCode"] = code
		}
		return res
	}
	if onBehalf != "" && !p.isPrivileged() {
		return "", deny(errNoPermissionsOnBehalf, "You do not have the correct permissions to request on behalf of users!")
	}
	if overrides && !p.isPrivileged() {
		return "", deny(errNoPermissions, "You do not have the correct permissions!")
	}
	if onBehalf != "" {
		return onBehalf, nil
	}
	if acc := st.users.byID(p.id); acc != nil {
		return acc.ID, nil
	}
	return st.users.byName(systemUserName).ID, nil
}

// canRequest reports the role check of a request type.
func canRequest(p *principal, typ int) bool {
	if p.inRole(ombiRoleAdmin) {
		return true
	}
	switch typ {
	case requestTypeMovie:
		return p.inRole(ombiRoleRequestMovie) || p.inRole(ombiRoleAutoApproveMovie)
	case requestTypeTV:
		return p.inRole(ombiRoleRequestTV) || p.inRole(ombiRoleAutoApproveTV)
	}
	return p.inRole(ombiRoleRequestMusic) || p.inRole(ombiRoleAutoApproveMusic)
}

// autoApproves reports whether requests of typ by p are approved at once.
func autoApproves(p *principal, typ int) bool {
	if p.inRole(ombiRoleAdmin) {
		return true
	}
	switch typ {
	case requestTypeMovie:
		return p.inRole(ombiRoleAutoApproveMovie)
	case requestTypeTV:
		return p.inRole(ombiRoleAutoApproveTV)
	}
	return p.inRole(ombiRoleAutoApproveMusic)
}

// alias is the ApiAlias header value, honoured with an API key only.
func alias(p *principal) string {
	if p != nil && p.apiKey {
		return p.alias
	}
	return ""
}

// quotaLeft reports whether the requesting user can place n more of typ.
func (st *store) quotaLeft(userID string, typ, n int) bool {
	acc := st.users.byID(userID)
	if acc == nil {
		return true
	}
	q := st.quota(&principal{id: acc.ID, roles: acc.Roles}, typ)
	if q["hasLimit"] != true {
		return true
	}
	return q["remaining"].(int) >= n
}

// movieCreate is MovieRequestViewModel.
type movieCreate struct {
	TheMovieDbID        int    `json:"theMovieDbId"`
	LanguageCode        string `json:"languageCode"`
	Is4kRequest         bool   `json:"is4kRequest"`
	RequestOnBehalf     string `json:"requestOnBehalf"`
	RootFolderOverride  *int   `json:"rootFolderOverride"`
	QualityPathOverride *int   `json:"qualityPathOverride"`
}

// requestMovieCreate is POST /api/v1/Request/movie.
func (s *Server) requestMovieCreate(w http.ResponseWriter, r *http.Request) {
	var in movieCreate
	if !decodeBody(w, r, &in) {
		return
	}
	var out map[string]any
	s.store.Write(func(st *store) { out = st.createMovie(principalOf(r), in) })
	writeJSON(w, http.StatusOK, out)
}

// createMovie runs Ombi's movie request rules and stores the request.
func (st *store) createMovie(p *principal, in movieCreate) map[string]any {
	mv := st.search.movie(in.TheMovieDbID)
	if mv == nil {
		return map[string]any{"result": false, "message": "There was an issue adding this movie!", "isError": true,
			"errorMessage": "Please try again later", "errorCode": nil, "requestId": 0}
	}
	userID, fail := st.requester(p, in.RequestOnBehalf, in.RootFolderOverride != nil || in.QualityPathOverride != nil, requestTypeMovie)
	if fail != nil {
		return fail
	}
	if !canRequest(p, requestTypeMovie) {
		return engineFail(errNoPermissionsMovie, "You do not have permissions to Request a Movie")
	}
	full := fmt.Sprintf("%s (%d)", mv.Title, mv.year())
	now := st.now().UTC()
	// with the Movie4KRequests feature off, a 4K request is an ordinary one
	fourKOn := st.featureEnabled("Movie4KRequests")
	is4K := in.Is4kRequest && fourKOn
	existing := st.requests.movieByTMDB(mv.TheMovieDbID)
	if existing != nil {
		dup := !existing.RequestedDate.IsZero() || !fourKOn && existing.Has4KRequest
		if is4K {
			dup = existing.Has4KRequest
		}
		if dup {
			return engineFail(errAlreadyRequested, fmt.Sprintf("%q has already been requested", mv.Title))
		}
	}
	if !st.quotaLeft(userID, requestTypeMovie, 1) {
		return engineFail(errMovieQuotaExceeded, "You have exceeded your Movie request quota!")
	}
	approve := autoApproves(p, requestTypeMovie)
	m := existing
	if m == nil {
		lang := in.LanguageCode
		if lang == "" {
			lang = "en"
		}
		m = &movieRequest{
			reqBase: reqBase{ID: st.nextID("movieRequest"), Title: mv.Title, RequestedUserID: userID,
				RequestedByAlias: alias(p), Extra: map[string]any{"requestedFrom": map[string]any{"client": "api", "version": "4.59.3"}}},
			TheMovieDbID: mv.TheMovieDbID, ImdbID: mv.ImdbID, Overview: mv.Overview, PosterPath: mv.PosterPath,
			Background: mv.BackdropPath, DigitalReleaseDate: mv.DigitalReleaseDate, Status: mv.Status, LangCode: lang,
		}
		if mv.ReleaseDate != nil {
			m.ReleaseDate = *mv.ReleaseDate
		}
		if in.RootFolderOverride != nil {
			m.RootPathOverride = *in.RootFolderOverride
		}
		if in.QualityPathOverride != nil {
			m.QualityOverride = *in.QualityPathOverride
		}
		st.requests.movies = append(st.requests.movies, m)
	}
	if is4K {
		m.Is4kRequest, m.Has4KRequest, m.RequestedDate4k = true, true, now
		if approve {
			m.Approved4K, m.MarkedAsApproved4K = true, now
		}
	} else {
		m.RequestedDate = now
		if approve {
			m.Approved, m.MarkedAsApproved = true, now
		}
	}
	return engineOK(full+" has been successfully added!", m.ID)
}

// featureEnabled reads a v2 feature flag (Movie4KRequests, PlayedSync).
func (st *store) featureEnabled(name string) bool {
	for _, f := range st.settings.featureList() {
		if m, ok := f.(map[string]any); ok && m["name"] == name {
			on, _ := m["enabled"].(bool)
			return on
		}
	}
	return false
}

// tvCreate is TvRequestViewModelV2 / TvRequestViewModel.
type tvCreate struct {
	TheMovieDbID        int    `json:"theMovieDbId"`
	TvDbID              int    `json:"tvDbId"`
	LanguageCode        string `json:"languageCode"`
	RequestAll          bool   `json:"requestAll"`
	LatestSeason        bool   `json:"latestSeason"`
	FirstSeason         bool   `json:"firstSeason"`
	LanguageProfile     *int   `json:"languageProfile"`
	RequestOnBehalf     string `json:"requestOnBehalf"`
	RootFolderOverride  *int   `json:"rootFolderOverride"`
	QualityPathOverride *int   `json:"qualityPathOverride"`
	Seasons             []struct {
		SeasonNumber int `json:"seasonNumber"`
		Episodes     []struct {
			EpisodeNumber int `json:"episodeNumber"`
		} `json:"episodes"`
	} `json:"seasons"`
}

// requestTVCreateV2 is POST /api/v2/Requests/tv (TMDB id).
func (s *Server) requestTVCreateV2(w http.ResponseWriter, r *http.Request) {
	var in tvCreate
	if !decodeBody(w, r, &in) {
		return
	}
	var out map[string]any
	s.store.Write(func(st *store) { out = st.createTV(principalOf(r), in, st.search.showByTMDB(in.TheMovieDbID)) })
	writeJSON(w, http.StatusOK, out)
}

// requestTVCreateV1 is POST /api/v1/Request/tv (TVDB id, obsolete upstream).
func (s *Server) requestTVCreateV1(w http.ResponseWriter, r *http.Request) {
	var in tvCreate
	if !decodeBody(w, r, &in) {
		return
	}
	var out map[string]any
	s.store.Write(func(st *store) { out = st.createTV(principalOf(r), in, st.search.showByTVDB(in.TvDbID)) })
	writeJSON(w, http.StatusOK, out)
}

// createTV runs Ombi's TV request rules: it picks the episodes, drops those
// already requested, and stores a child (plus the parent on first request).
// Rule failures carry no errorCode on the TV path, as upstream drops it.
func (st *store) createTV(p *principal, in tvCreate, sh *catalogShow) map[string]any {
	userID, fail := st.requester(p, in.RequestOnBehalf, in.RootFolderOverride != nil || in.QualityPathOverride != nil || in.LanguageProfile != nil, requestTypeTV)
	if fail != nil {
		return fail
	}
	if sh == nil {
		panic(msgNullReference) // the show builder dereferences TMDB's empty answer
	}
	want := map[int][]int{}
	var regular []catalogSeason
	for _, s := range sh.Seasons {
		if s.SeasonNumber > 0 {
			regular = append(regular, s)
		}
	}
	addSeason := func(s catalogSeason) {
		for _, e := range s.Episodes {
			want[s.SeasonNumber] = append(want[s.SeasonNumber], e.EpisodeNumber)
		}
	}
	switch {
	case in.RequestAll:
		for _, s := range regular {
			addSeason(s)
		}
	case in.FirstSeason && len(regular) > 0:
		addSeason(regular[0])
	case in.LatestSeason && len(regular) > 0:
		addSeason(regular[len(regular)-1])
	default:
		for _, s := range in.Seasons {
			for _, e := range s.Episodes {
				if sh.episode(s.SeasonNumber, e.EpisodeNumber) != nil && !slices.Contains(want[s.SeasonNumber], e.EpisodeNumber) {
					want[s.SeasonNumber] = append(want[s.SeasonNumber], e.EpisodeNumber)
				}
			}
		}
	}
	if !canRequest(p, requestTypeTV) {
		return engineFail("", "You do not have permissions to Request a TV Show")
	}
	parent := st.requests.parentByTMDB(sh.TheMovieDbID)
	drop := func(children []*childRequest) int {
		left := 0
		for sn, eps := range want {
			want[sn] = slices.DeleteFunc(eps, func(e int) bool {
				for _, c := range children {
					for _, s := range c.SeasonRequests {
						if s.SeasonNumber == sn && slices.ContainsFunc(s.Episodes, func(x *episodeRequest) bool { return x.EpisodeNumber == e }) {
							return true
						}
					}
				}
				return false
			})
			left += len(want[sn])
		}
		return left
	}
	var kids []*childRequest
	if parent != nil {
		kids = st.requests.childrenOf(parent.ID)
	}
	total := 0
	for _, eps := range want {
		total += len(eps)
	}
	if len(kids) > 0 {
		// ExistingTVRequestRule compares with the first child only
		if drop(kids[:1]) == 0 {
			return engineFail("", "We already have episodes requested from series "+sh.Title)
		}
		// then the engine removes what any child already has
		if total = drop(kids); total == 0 {
			return engineFail(errAlreadyRequested, "This has already been requested")
		}
	}
	if !st.quotaLeft(userID, requestTypeTV, total) {
		return engineFail("", "You have exceeded your Episode request quota!")
	}
	now := st.now().UTC()
	approve := autoApproves(p, requestTypeTV)
	if parent == nil {
		parent = &tvParent{ID: st.nextID("tvParent"), TvDbID: sh.TvDbID, ExternalProviderID: sh.TheMovieDbID, ImdbID: sh.ImdbID,
			Overview: sh.Overview, Title: sh.Title, PosterPath: sh.PosterPath, Background: sh.BackdropPath, Status: sh.Status,
			TotalSeasons: len(regular), LanguageProfile: in.LanguageProfile, RootFolder: in.RootFolderOverride,
			QualityOverride: in.QualityPathOverride, Extra: map[string]any{"addedToSonarr": nil}}
		if t, err := time.Parse("2006-01-02", sh.FirstAired); err == nil {
			parent.ReleaseDate = t
		}
		st.requests.tv = append(st.requests.tv, parent)
	}
	c := &childRequest{reqBase: reqBase{ID: st.nextID("tvChild"), Title: sh.Title, RequestedDate: now, RequestedUserID: userID,
		RequestedByAlias: alias(p), Approved: approve}, ParentRequestID: parent.ID, ReleaseYear: parent.ReleaseDate}
	if approve {
		c.MarkedAsApproved = now
	}
	for _, sn := range slices.Sorted(maps.Keys(want)) {
		eps := want[sn]
		if len(eps) == 0 {
			continue
		}
		slices.Sort(eps)
		sr := &seasonRequest{ID: st.nextID("season"), SeasonNumber: sn, ChildRequestID: c.ID}
		for _, cs := range sh.Seasons {
			if cs.SeasonNumber == sn {
				sr.Overview = cs.Overview
			}
		}
		for _, en := range eps {
			ce := sh.episode(sn, en)
			air, _ := time.Parse(time.RFC3339, ce.AirDate)
			sr.Episodes = append(sr.Episodes, &episodeRequest{ID: st.nextID("episode"), EpisodeNumber: en, Title: ce.Title,
				AirDate: air, URL: ce.URL, Requested: true, Approved: approve, SeasonID: sr.ID})
		}
		c.SeasonRequests = append(c.SeasonRequests, sr)
	}
	st.requests.children = append(st.requests.children, c)
	return engineOK("", c.ID)
}

// requestAlbumCreate is POST /api/v1/request/music. Upstream has no
// duplicate rule for albums, so the same album can be requested twice.
func (s *Server) requestAlbumCreate(w http.ResponseWriter, r *http.Request) {
	var in struct {
		ForeignAlbumID string `json:"foreignAlbumId"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	p := principalOf(r)
	var out map[string]any
	s.store.Write(func(st *store) {
		artist, al := st.search.album(in.ForeignAlbumID)
		if al == nil {
			out = map[string]any{"result": false, "message": "There was an issue adding this album!", "isError": true,
				"errorMessage": "Please try again later", "errorCode": nil, "requestId": 0}
			return
		}
		userID, _ := st.requester(p, "", false, requestTypeAlbum)
		switch {
		case !canRequest(p, requestTypeAlbum):
			out = engineFail("", "You do not have permissions to Request an Album")
			return
		case !st.quotaLeft(userID, requestTypeAlbum, 1):
			out = engineFail("", "You have exceeded your Album request quota!")
			return
		}
		now := st.now().UTC()
		a := &albumRequest{reqBase: reqBase{ID: st.nextID("albumRequest"), Title: al.Title, RequestedDate: now,
			RequestedUserID: userID, RequestedByAlias: alias(p)}, ForeignAlbumID: al.ForeignAlbumID,
			ForeignArtistID: artist.ForeignArtistID, ArtistName: artist.ArtistName, Cover: al.Cover, Disk: al.Disk,
			Rating: al.Rating, ReleaseDate: al.ReleaseDate}
		if autoApproves(p, requestTypeAlbum) {
			a.Approved, a.MarkedAsApproved = true, now
		}
		st.requests.albums = append(st.requests.albums, a)
		out = engineOK(al.Title+" has been successfully added!", a.ID)
	})
	writeJSON(w, http.StatusOK, out)
}

// requestsCollection is POST /api/v2/Requests/movie/collection/{collectionId}:
// every part of the collection goes through the movie request rules; the
// individual failures are ignored, as upstream does.
func (s *Server) requestsCollection(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "collectionId")
	if !ok {
		return
	}
	p := principalOf(r)
	var out map[string]any
	s.store.Write(func(st *store) {
		c := st.search.collection(id)
		if c == nil {
			return
		}
		first := -1
		for _, m := range st.search.movies {
			if m.CollectionID != nil && *m.CollectionID == id {
				res := st.createMovie(p, movieCreate{TheMovieDbID: m.TheMovieDbID})
				if first < 0 {
					first = res["requestId"].(int)
				}
			}
		}
		out = engineOK("The collection "+c.Name+" has been successfully added!", max(first, 0))
	})
	if out == nil {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// ---- moderation -----------------------------------------------------------

// moderation is one state change on a request.
type moderation int

// The moderation actions.
const (
	modApprove moderation = iota
	modDeny
	modAvailable
	modUnavailable
)

// moderate applies an action to a base request (4K flags handled by
// callers) as Ombi's engines do: approve clears denied, deny leaves
// approved and markedAsDenied alone, unavailable keeps markedAsAvailable.
func moderate(b *reqBase, act moderation, reason string, now time.Time) {
	switch act {
	case modApprove:
		f := false
		b.Approved, b.MarkedAsApproved, b.Denied = true, now, &f
	case modDeny:
		t := true
		b.Denied, b.DeniedReason = &t, reason
	case modAvailable:
		b.Available, b.MarkedAsAvailable = true, &now
	case modUnavailable:
		b.Available = false
	}
}

// moderationMessage is the success message of an action; upstream's deny
// really says "deleted", and the TV deny says nothing.
func moderationMessage(act moderation, tv bool) string {
	switch act {
	case modDeny:
		if tv {
			return ""
		}
		return "Request successfully deleted"
	case modAvailable:
		return "Request is now available"
	case modUnavailable:
		return "Request is now unavailable"
	}
	return ""
}

// moderateMovie handles the movie approve/deny/available/unavailable routes.
func (s *Server) moderateMovie(w http.ResponseWriter, r *http.Request, act moderation) {
	var in struct {
		ID     int    `json:"id"`
		Is4K   bool   `json:"is4K"`
		Reason string `json:"reason"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	var out map[string]any
	s.store.Write(func(st *store) {
		m := st.requests.movieByID(in.ID)
		if m == nil {
			out = engineFail("", "Request does not exist")
			return
		}
		now := st.now().UTC()
		if in.Is4K {
			switch act {
			case modApprove:
				f := false
				m.Approved4K, m.MarkedAsApproved4K, m.Denied4K = true, now, &f
			case modDeny:
				t := true
				m.Denied4K, m.DeniedReason4K = &t, in.Reason
			case modAvailable:
				m.Available4K, m.MarkedAsAvailable4K = true, &now
			case modUnavailable:
				m.Available4K = false
			}
		} else {
			moderate(&m.reqBase, act, in.Reason, now)
		}
		out = engineOK(moderationMessage(act, false), 0)
	})
	writeJSON(w, http.StatusOK, out)
}

// requestMovieApprove is POST /api/v1/Request/movie/approve.
func (s *Server) requestMovieApprove(w http.ResponseWriter, r *http.Request) {
	s.moderateMovie(w, r, modApprove)
}

// requestMovieDeny is PUT /api/v1/Request/movie/deny.
func (s *Server) requestMovieDeny(w http.ResponseWriter, r *http.Request) {
	s.moderateMovie(w, r, modDeny)
}

// requestMovieAvailable is POST /api/v1/Request/movie/available.
func (s *Server) requestMovieAvailable(w http.ResponseWriter, r *http.Request) {
	s.moderateMovie(w, r, modAvailable)
}

// requestMovieUnavailable is POST /api/v1/Request/movie/unavailable.
func (s *Server) requestMovieUnavailable(w http.ResponseWriter, r *http.Request) {
	s.moderateMovie(w, r, modUnavailable)
}

// moderateTV handles the TV routes; the id is a child request id.
func (s *Server) moderateTV(w http.ResponseWriter, r *http.Request, act moderation) {
	var in struct {
		ID     int    `json:"id"`
		Reason string `json:"reason"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	var out map[string]any
	s.store.Write(func(st *store) {
		c := st.requests.childByID(in.ID)
		if c == nil {
			out = engineFail(errChildRequestDoesNotExist, "Child Request does not exist")
			return
		}
		now := st.now().UTC()
		moderate(&c.reqBase, act, in.Reason, now)
		for _, s := range c.SeasonRequests {
			for _, e := range s.Episodes {
				switch act {
				case modApprove:
					e.Approved, e.Requested = true, true
				case modAvailable:
					e.Available = true
				case modUnavailable:
					e.Available = false
				}
			}
		}
		out = engineOK(moderationMessage(act, true), 0)
	})
	writeJSON(w, http.StatusOK, out)
}

// requestTVApprove is POST /api/v1/Request/tv/approve.
func (s *Server) requestTVApprove(w http.ResponseWriter, r *http.Request) {
	s.moderateTV(w, r, modApprove)
}

// requestTVDeny is PUT /api/v1/Request/tv/deny.
func (s *Server) requestTVDeny(w http.ResponseWriter, r *http.Request) { s.moderateTV(w, r, modDeny) }

// requestTVAvailable is POST /api/v1/Request/tv/available.
func (s *Server) requestTVAvailable(w http.ResponseWriter, r *http.Request) {
	s.moderateTV(w, r, modAvailable)
}

// requestTVUnavailable is POST /api/v1/Request/tv/unavailable.
func (s *Server) requestTVUnavailable(w http.ResponseWriter, r *http.Request) {
	s.moderateTV(w, r, modUnavailable)
}

// moderateAlbum handles the album routes.
func (s *Server) moderateAlbum(w http.ResponseWriter, r *http.Request, act moderation) {
	var in struct {
		ID     int    `json:"id"`
		Reason string `json:"reason"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	var out map[string]any
	s.store.Write(func(st *store) {
		a := st.requests.albumByID(in.ID)
		if a == nil {
			out = engineFail("", "Request does not exist")
			return
		}
		moderate(&a.reqBase, act, in.Reason, st.now().UTC())
		out = engineOK(moderationMessage(act, false), 0)
	})
	writeJSON(w, http.StatusOK, out)
}

// requestAlbumApprove is POST /api/v1/request/music/approve.
func (s *Server) requestAlbumApprove(w http.ResponseWriter, r *http.Request) {
	s.moderateAlbum(w, r, modApprove)
}

// requestAlbumDeny is PUT /api/v1/request/music/deny.
func (s *Server) requestAlbumDeny(w http.ResponseWriter, r *http.Request) {
	s.moderateAlbum(w, r, modDeny)
}

// requestAlbumAvailable is POST /api/v1/request/music/available.
func (s *Server) requestAlbumAvailable(w http.ResponseWriter, r *http.Request) {
	s.moderateAlbum(w, r, modAvailable)
}

// requestAlbumUnavailable is POST /api/v1/request/music/unavailable.
func (s *Server) requestAlbumUnavailable(w http.ResponseWriter, r *http.Request) {
	s.moderateAlbum(w, r, modUnavailable)
}

// ---- deletion -------------------------------------------------------------

// canManage is Ombi's CheckCanManageRequest: Admin and PowerUser manage any
// request, ManageOwnRequests only the caller's own. A missing request passes
// for privileged callers, whose next step then dereferences it (500).
func canManage(p *principal, owner string, exists bool) bool {
	if p.isPrivileged() {
		return true
	}
	return exists && p.inRole(ombiRoleManageOwnRequests) && p.id == owner
}

// noPermissions is the engine result of a failed CheckCanManageRequest.
func noPermissions() map[string]any { return engineFail(errNoPermissions, "") }

// removeRequest runs the shared delete flow; find reports the owner and
// whether the request exists, remove deletes it.
func (s *Server) removeRequest(w http.ResponseWriter, r *http.Request, find func(st *store, id int) (string, bool), remove func(st *store, id int)) {
	id, ok := intParam(w, r, "requestId")
	if !ok {
		return
	}
	p := principalOf(r)
	var out map[string]any
	s.store.Write(func(st *store) {
		owner, exists := find(st, id)
		switch {
		case !canManage(p, owner, exists):
			out = noPermissions()
		case exists:
			remove(st, id)
			out = engineOK("", 0)
		}
	})
	if out == nil {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// requestMovieDelete is DELETE /api/v1/Request/movie/{requestId}.
func (s *Server) requestMovieDelete(w http.ResponseWriter, r *http.Request) {
	s.removeRequest(w, r, func(st *store, id int) (string, bool) {
		if m := st.requests.movieByID(id); m != nil {
			return m.RequestedUserID, true
		}
		return "", false
	}, func(st *store, id int) {
		st.requests.movies = slices.DeleteFunc(st.requests.movies, func(m *movieRequest) bool { return m.ID == id })
	})
}

// requestAlbumDelete is DELETE /api/v1/request/music/{requestId}.
func (s *Server) requestAlbumDelete(w http.ResponseWriter, r *http.Request) {
	s.removeRequest(w, r, func(st *store, id int) (string, bool) {
		if a := st.requests.albumByID(id); a != nil {
			return a.RequestedUserID, true
		}
		return "", false
	}, func(st *store, id int) {
		st.requests.albums = slices.DeleteFunc(st.requests.albums, func(a *albumRequest) bool { return a.ID == id })
	})
}

// requestTVChildDelete is DELETE /api/v1/Request/tv/child/{requestId}; the
// parent goes too when its last child is removed.
func (s *Server) requestTVChildDelete(w http.ResponseWriter, r *http.Request) {
	s.removeRequest(w, r, func(st *store, id int) (string, bool) {
		if c := st.requests.childByID(id); c != nil {
			return c.RequestedUserID, true
		}
		return "", false
	}, func(st *store, id int) {
		parent := st.requests.childByID(id).ParentRequestID
		st.requests.children = slices.DeleteFunc(st.requests.children, func(c *childRequest) bool { return c.ID == id })
		if len(st.requests.childrenOf(parent)) == 0 {
			st.requests.tv = slices.DeleteFunc(st.requests.tv, func(p *tvParent) bool { return p.ID == parent })
		}
	})
}

// requestMovieDeleteAll is DELETE /api/v1/Request/movie/all.
func (s *Server) requestMovieDeleteAll(w http.ResponseWriter, r *http.Request) {
	s.store.Write(func(st *store) { st.requests.movies = nil })
	okEmpty(w)
}

// requestTVDelete is DELETE /api/v1/Request/tv/{requestId}: removes the
// parent and its children; empty 200. A missing parent is dereferenced
// upstream (500).
func (s *Server) requestTVDelete(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "requestId")
	if !ok {
		return
	}
	found := false
	s.store.Write(func(st *store) {
		if st.requests.parentByID(id) == nil {
			return
		}
		found = true
		st.requests.tv = slices.DeleteFunc(st.requests.tv, func(p *tvParent) bool { return p.ID == id })
		st.requests.children = slices.DeleteFunc(st.requests.children, func(c *childRequest) bool { return c.ParentRequestID == id })
	})
	if !found {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	okEmpty(w)
}

// ---- updates, options, subscriptions ------------------------------------

// requestMovieUpdate is PUT /api/v1/Request/movie (full entity).
func (s *Server) requestMovieUpdate(w http.ResponseWriter, r *http.Request) {
	var in movieRequest
	if !decodeBody(w, r, &in) {
		return
	}
	var out map[string]any
	s.store.Write(func(st *store) {
		m := st.requests.movieByID(in.ID)
		if m == nil {
			return
		}
		m.Approved, m.Available, m.Denied, m.DeniedReason = in.Approved, in.Available, in.Denied, in.DeniedReason
		m.ImdbID, m.IssueID, m.Overview, m.PosterPath = in.ImdbID, in.IssueID, in.Overview, in.PosterPath
		m.QualityOverride, m.RootPathOverride = in.QualityOverride, in.RootPathOverride
		out = st.movieRequestView(m, principalOf(r))
	})
	if out == nil {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// requestTVUpdate is PUT /api/v1/Request/tv (parent entity).
func (s *Server) requestTVUpdate(w http.ResponseWriter, r *http.Request) {
	var in tvParent
	if !decodeBody(w, r, &in) {
		return
	}
	var out map[string]any
	s.store.Write(func(st *store) {
		pr := st.requests.parentByID(in.ID)
		if pr == nil {
			return
		}
		pr.QualityOverride, pr.RootFolder, pr.LanguageProfile = in.QualityOverride, in.RootFolder, in.LanguageProfile
		pr.Overview, pr.PosterPath, pr.ImdbID = in.Overview, in.PosterPath, in.ImdbID
		out = st.parentView(pr, principalOf(r), false)
	})
	if out == nil {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// requestTVChildUpdate is PUT /api/v1/Request/tv/child.
func (s *Server) requestTVChildUpdate(w http.ResponseWriter, r *http.Request) {
	var in childRequest
	if !decodeBody(w, r, &in) {
		return
	}
	var out map[string]any
	s.store.Write(func(st *store) {
		c := st.requests.childByID(in.ID)
		if c == nil {
			return
		}
		c.Approved, c.Available, c.Denied, c.DeniedReason = in.Approved, in.Available, in.Denied, in.DeniedReason
		out = st.childView(c, principalOf(r), false, true)
	})
	if out == nil {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// requestTVRoot is PUT /api/v1/Request/tv/root/{requestId}/{rootFolderId}.
func (s *Server) requestTVRoot(w http.ResponseWriter, r *http.Request) {
	s.setParentInt(w, r, "rootFolderId", func(pr *tvParent, v int) { pr.RootFolder = &v })
}

// requestTVQuality is PUT /api/v1/Request/tv/quality/{requestId}/{qualityId}.
func (s *Server) requestTVQuality(w http.ResponseWriter, r *http.Request) {
	s.setParentInt(w, r, "qualityId", func(pr *tvParent, v int) { pr.QualityOverride = &v })
}

// setParentInt sets one int field of a TV parent and answers true; a missing
// parent dereferences null upstream (500).
func (s *Server) setParentInt(w http.ResponseWriter, r *http.Request, param string, set func(*tvParent, int)) {
	id, ok := intParam(w, r, "requestId")
	if !ok {
		return
	}
	v, ok := intParam(w, r, param)
	if !ok {
		return
	}
	found := false
	s.store.Write(func(st *store) {
		if pr := st.requests.parentByID(id); pr != nil {
			set(pr, v)
			found = true
		}
	})
	if !found {
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
		return
	}
	writeJSON(w, http.StatusOK, true)
}

// requestsAdvancedOptions is POST /api/v2/Requests/{movie|tv}/advancedoptions;
// the given values replace the stored ones (omitted ones become 0).
func (s *Server) requestsAdvancedOptions(w http.ResponseWriter, r *http.Request) {
	var in struct {
		RequestID        int `json:"requestId"`
		RootPathOverride int `json:"rootPathOverride"`
		QualityOverride  int `json:"qualityOverride"`
		LanguageProfile  int `json:"languageProfile"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	tv := mediaOf(r, "requests") == "tv"
	var out map[string]any
	s.store.Write(func(st *store) {
		if tv {
			pr := st.requests.parentByID(in.RequestID)
			if pr == nil {
				out = engineFail(errRequestDoesNotExist, "Request does not exist")
				return
			}
			root, quality, lang := in.RootPathOverride, in.QualityOverride, in.LanguageProfile
			pr.RootFolder, pr.QualityOverride = &root, &quality
			if lang > 0 {
				pr.LanguageProfile = &lang
			}
			out = engineOK("", 0)
			return
		}
		m := st.requests.movieByID(in.RequestID)
		if m == nil {
			out = engineFail("", "Request does not exist")
			return
		}
		m.RootPathOverride, m.QualityOverride = in.RootPathOverride, in.QualityOverride
		out = engineOK("", 0)
	})
	writeJSON(w, http.StatusOK, out)
}

// requestsReprocess is POST /api/v2/Requests/reprocess/{type}/{requestId}/{is4K}.
func (s *Server) requestsReprocess(w http.ResponseWriter, r *http.Request) {
	typ := -1
	switch strings.ToLower(r.PathValue("type")) {
	case "tvshow", "0":
		typ = requestTypeTV
	case "movie", "1":
		typ = requestTypeMovie
	case "album", "2":
		typ = requestTypeAlbum
	}
	id, idErr := strconv.Atoi(r.PathValue("requestId"))
	_, boolErr := strconv.ParseBool(strings.ToLower(r.PathValue("is4K"))) // upstream resends either version without checking it exists
	if typ < 0 || idErr != nil || boolErr != nil {
		writeProblemErrors(w, http.StatusBadRequest, map[string][]string{"type": {"The value '" + r.PathValue("type") + "' is not valid."}})
		return
	}
	if typ == requestTypeAlbum {
		writeProblem(w, http.StatusBadRequest)
		return
	}
	var out map[string]any
	s.store.Read(func(st *store) {
		if typ == requestTypeTV {
			if st.requests.childByID(id) == nil {
				out = engineFail(errRequestDoesNotExist, "Request does not exist")
				return
			}
			out = engineOK("", 0)
			return
		}
		if st.requests.movieByID(id) == nil {
			out = engineFail("", "Request does not exist")
			return
		}
		out = engineOK("", 0)
	})
	writeJSON(w, http.StatusOK, out)
}

// requestSubscribe is POST /api/v1/Request/{movie|tv}/{subscribe|unsubscribe}/{requestId}.
func (s *Server) requestSubscribe(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "requestId")
	if !ok {
		return
	}
	typ := requestTypeMovie
	if mediaOf(r, "request") == "tv" {
		typ = requestTypeTV
	}
	on := !strings.Contains(strings.ToLower(r.URL.Path), "/unsubscribe/")
	p := principalOf(r)
	s.store.Write(func(st *store) {
		sub := subscription{UserID: p.id, RequestType: typ, RequestID: id}
		st.requests.subs = slices.DeleteFunc(st.requests.subs, func(x subscription) bool { return x == sub })
		if on {
			st.requests.subs = append(st.requests.subs, sub)
		}
	})
	writeJSON(w, http.StatusOK, true)
}

// ---- retry queue ----------------------------------------------------------

// retryList is GET /api/v1/RequestRetry: rows not completed.
func (s *Server) retryList(w http.ResponseWriter, r *http.Request) {
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, q := range st.requests.retry {
			if q.Completed != nil {
				continue
			}
			out = append(out, mergeExtra(map[string]any{"failedId": q.ID, "title": q.Title, "releaseYear": q.ReleaseYear,
				"requestId": q.RequestID, "type": q.Type, "dts": q.Dts, "error": q.Error, "retryCount": q.RetryCount}, q.Extra))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// retryDelete is DELETE /api/v1/RequestRetry/{queueId}; a missing row makes
// the repository delete null upstream (500).
func (s *Server) retryDelete(w http.ResponseWriter, r *http.Request) {
	id, ok := intParam(w, r, "queueId")
	if !ok {
		return
	}
	found := false
	s.store.Write(func(st *store) {
		n := len(st.requests.retry)
		st.requests.retry = slices.DeleteFunc(st.requests.retry, func(q *retryItem) bool { return q.ID == id })
		found = len(st.requests.retry) < n
	})
	if !found {
		writeOmbiError(w, http.StatusInternalServerError, "Value cannot be null. (Parameter 'entity')")
		return
	}
	writeJSON(w, http.StatusOK, true)
}

// visibleTo applies OmbiSettings.hideRequestsUsers: when it is on, callers
// other than Admin, PowerUser and the system user see only their own requests.
func (st *store) visibleTo(p *principal, owner string) bool {
	if p == nil || p.isPrivileged() || !st.settings.flag("ombi", "hideRequestsUsers") {
		return true
	}
	if acc := st.users.byID(p.id); acc != nil && acc.UserType == 0 {
		return true
	}
	return owner == p.id
}

// parentVisibleTo shows a TV parent when any of its children is visible.
func (st *store) parentVisibleTo(p *principal, pr *tvParent) bool {
	kids := st.requests.childrenOf(pr.ID)
	if len(kids) == 0 {
		return st.visibleTo(p, "")
	}
	return slices.ContainsFunc(kids, func(c *childRequest) bool { return st.visibleTo(p, c.RequestedUserID) })
}

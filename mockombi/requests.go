package mockombi

import (
	"slices"
	"strings"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// Ombi RequestType values.
const (
	requestTypeTV    = 0
	requestTypeMovie = 1
	requestTypeAlbum = 2
)

// mediaKind is the media a request route serves, valued as Ombi's RequestType.
type mediaKind int

// The media kinds of requests.
const (
	tvKind    mediaKind = requestTypeTV
	movieKind mediaKind = requestTypeMovie
	albumKind mediaKind = requestTypeAlbum
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
	ID                int         `json:"id"`
	Title             string      `json:"title"`
	Approved          bool        `json:"approved"`
	MarkedAsApproved  time.Time   `json:"markedAsApproved"`
	RequestedDate     time.Time   `json:"requestedDate"`
	Available         bool        `json:"available"`
	MarkedAsAvailable *time.Time  `json:"markedAsAvailable"`
	RequestedUserID   string      `json:"requestedUserId"`
	Denied            *bool       `json:"denied"`
	MarkedAsDenied    time.Time   `json:"markedAsDenied"`
	DeniedReason      string      `json:"deniedReason"`
	RequestedByAlias  string      `json:"requestedByAlias"`
	Source            int         `json:"source"`
	Extra             state.Extra `json:"extra"`
}

// isDenied is Denied == true.
func (b *reqBase) isDenied() bool { return b.Denied != nil && *b.Denied }

// base is the BaseRequest itself; movie, TV child and album requests inherit it.
func (b *reqBase) base() *reqBase { return b }

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
	ID            int         `json:"id"`
	EpisodeNumber int         `json:"episodeNumber"`
	Title         string      `json:"title"`
	AirDate       time.Time   `json:"airDate"`
	URL           string      `json:"url"`
	Available     bool        `json:"available"`
	Approved      bool        `json:"approved"`
	Requested     bool        `json:"requested"`
	Denied        *bool       `json:"denied"`
	DeniedReason  string      `json:"deniedReason"`
	SeasonID      int         `json:"seasonId"`
	Extra         state.Extra `json:"extra"`
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
	Extra           state.Extra       `json:"extra"`
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
	Extra              state.Extra     `json:"extra"`
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
	ID          int         `json:"id"`
	Title       string      `json:"title"`
	ReleaseYear time.Time   `json:"releaseYear"`
	RequestID   int         `json:"requestId"`
	Type        int         `json:"type"`
	Dts         time.Time   `json:"dts"`
	Error       string      `json:"error"`
	RetryCount  int         `json:"retryCount"`
	Completed   *time.Time  `json:"completed"`
	Extra       state.Extra `json:"extra"`
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
	return findBy(rs.movies, func(m *movieRequest) bool { return m.ID == id })
}

// movieByTMDB finds the movie request of a TMDB id.
func (rs *requestState) movieByTMDB(tmdb int) *movieRequest {
	return findBy(rs.movies, func(m *movieRequest) bool { return m.TheMovieDbID == tmdb })
}

// parentByID finds a TV parent request.
func (rs *requestState) parentByID(id int) *tvParent {
	return findBy(rs.tv, func(p *tvParent) bool { return p.ID == id })
}

// parentByTMDB finds the TV parent of a TMDB id.
func (rs *requestState) parentByTMDB(tmdb int) *tvParent {
	return findBy(rs.tv, func(p *tvParent) bool { return p.ExternalProviderID == tmdb })
}

// childByID finds a TV child request.
func (rs *requestState) childByID(id int) *childRequest {
	return findBy(rs.children, func(c *childRequest) bool { return c.ID == id })
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
	return findBy(rs.albums, func(a *albumRequest) bool { return a.ID == id })
}

// albumByForeignID finds the album request of a MusicBrainz id.
func (rs *requestState) albumByForeignID(id string) *albumRequest {
	return findBy(rs.albums, func(a *albumRequest) bool { return strings.EqualFold(a.ForeignAlbumID, id) })
}

// request is what a movie request, a TV child request and an album request
// share: their BaseRequest and the moderation actions on it.
type request interface {
	base() *reqBase
	moderate(act moderation, reason string, now time.Time)
}

// requestOf finds the request of a kind by id: a movie request, a TV child
// request or an album request; false when there is none.
func (rs *requestState) requestOf(kind mediaKind, id int) (request, bool) {
	switch kind {
	case movieKind:
		if m := rs.movieByID(id); m != nil {
			return m, true
		}
	case tvKind:
		if c := rs.childByID(id); c != nil {
			return c, true
		}
	case albumKind:
		if a := rs.albumByID(id); a != nil {
			return a, true
		}
	}
	return nil, false
}

// subscribed reports whether the caller follows a request.
func (st *store) subscribed(p *principal, typ, id int) bool {
	if p == nil {
		return false
	}
	return slices.Contains(st.requests.subs, subscription{UserID: p.id, RequestType: typ, RequestID: id})
}

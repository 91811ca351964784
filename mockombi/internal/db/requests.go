package db

import (
	"strings"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// Ombi RequestType values.
const (
	RequestTypeTV    = 0
	RequestTypeMovie = 1
	RequestTypeAlbum = 2
)

// MediaKind is the media a request route serves, valued as Ombi's RequestType.
type MediaKind int

// The media kinds of requests.
const (
	TvKind    MediaKind = RequestTypeTV
	MovieKind MediaKind = RequestTypeMovie
	AlbumKind MediaKind = RequestTypeAlbum
)

// ReqBase is Ombi's BaseRequest.
type ReqBase struct {
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

// IsDenied is Denied == true.
func (b *ReqBase) IsDenied() bool { return b.Denied != nil && *b.Denied }

// Base is the BaseRequest itself; movie, TV child and album requests inherit it.
func (b *ReqBase) Base() *ReqBase { return b }

// Status is Ombi's requestStatus string of a request.
func (b *ReqBase) Status() string {
	switch {
	case b.Available:
		return "Common.Available"
	case b.IsDenied():
		return "Common.Denied"
	case b.Approved:
		return "Common.ProcessingRequest"
	default:
		return "Common.PendingApproval"
	}
}

// MovieRequest is Ombi's MovieRequests entity.
type MovieRequest struct {
	ReqBase
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

// EpisodeRequest is Ombi's EpisodeRequests entity.
type EpisodeRequest struct {
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

// SeasonRequest is Ombi's SeasonRequests entity.
type SeasonRequest struct {
	ID              int               `json:"id"`
	SeasonNumber    int               `json:"seasonNumber"`
	Overview        string            `json:"overview"`
	Episodes        []*EpisodeRequest `json:"episodes"`
	ChildRequestID  int               `json:"childRequestId"`
	SeasonAvailable bool              `json:"seasonAvailable"`
	Extra           state.Extra       `json:"extra"`
}

// ChildRequest is Ombi's ChildRequests entity: one user's season request.
type ChildRequest struct {
	ReqBase
	ParentRequestID             int              `json:"parentRequestId"`
	IssueID                     *int             `json:"issueId"`
	SeriesType                  int              `json:"seriesType"`
	ReleaseYear                 time.Time        `json:"releaseYear"`
	RequestedUserPlayedProgress int              `json:"requestedUserPlayedProgress"`
	SeasonRequests              []*SeasonRequest `json:"seasonRequests"`
}

// EpisodeCount is how many episodes a child requests.
func (c *ChildRequest) EpisodeCount() int {
	n := 0
	for _, s := range c.SeasonRequests {
		n += len(s.Episodes)
	}
	return n
}

// TvParent is Ombi's TvRequests entity.
type TvParent struct {
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
	ChildRequests      []*ChildRequest `json:"childRequests"` // seed only; the store keeps children in RequestState.children
	Extra              state.Extra     `json:"extra"`
}

// AlbumRequest is Ombi's AlbumRequest entity.
type AlbumRequest struct {
	ReqBase
	ForeignAlbumID  string    `json:"foreignAlbumId"`
	ForeignArtistID string    `json:"foreignArtistId"`
	ArtistName      string    `json:"artistName"`
	Cover           string    `json:"cover"`
	Disk            string    `json:"disk"`
	Rating          float64   `json:"rating"`
	ReleaseDate     time.Time `json:"releaseDate"`
}

// RetryItem is a RequestQueue row (the retry queue).
type RetryItem struct {
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

// Subscription is a RequestSubscription row.
type Subscription struct {
	UserID      string `json:"userId"`
	RequestType int    `json:"requestType"`
	RequestID   int    `json:"requestId"`
}

// RequestState is every request, the retry queue and the subscriptions.
type RequestState struct {
	Movies   []*MovieRequest
	Tv       []*TvParent
	Children []*ChildRequest
	Albums   []*AlbumRequest
	Retry    []*RetryItem
	Subs     []Subscription
	// LinqTrace is the stack trace (with a planted build path) of the
	// tv_search_linq failure.
	LinqTrace string
}

// requestsSeed is requests.json.
type requestsSeed struct {
	Movies        []*MovieRequest `json:"movies"`
	TV            []*TvParent     `json:"tv"`
	Albums        []*AlbumRequest `json:"albums"`
	Retry         []*RetryItem    `json:"retry"`
	Subscriptions []Subscription  `json:"subscriptions"`
}

// newRequestState loads requests.json (plus the generated requests of the
// large data set) and registers seeded ids.
func newRequestState(sd *seedSet, users *UserState, catalog *SearchState) (RequestState, error) {
	var seed requestsSeed
	if err := sd.decode("requests.json", &seed); err != nil {
		return RequestState{}, err
	}
	rs := RequestState{Movies: seed.Movies, Tv: seed.TV, Albums: seed.Albums, Retry: seed.Retry, Subs: seed.Subscriptions}
	if sd.large {
		rs.generateLarge(users, catalog, sd.now())
	}
	for _, pr := range rs.Tv {
		for _, c := range pr.ChildRequests {
			c.ParentRequestID = pr.ID
			rs.Children = append(rs.Children, c)
		}
		pr.ChildRequests = nil
	}
	for _, m := range rs.Movies {
		sd.seenID("movieRequest", m.ID)
	}
	for _, pr := range rs.Tv {
		sd.seenID("tvParent", pr.ID)
	}
	for _, c := range rs.Children {
		sd.seenID("tvChild", c.ID)
		for _, s := range c.SeasonRequests {
			sd.seenID("season", s.ID)
			for _, e := range s.Episodes {
				sd.seenID("episode", e.ID)
			}
		}
	}
	for _, a := range rs.Albums {
		sd.seenID("albumRequest", a.ID)
	}
	for _, q := range rs.Retry {
		sd.seenID("retry", q.ID)
	}
	build := sd.plant("build_path", "requests: stack frames of the tv_search_linq 500 body")
	rs.LinqTrace = "   at Microsoft.EntityFrameworkCore.Query.QueryableMethodTranslatingExpressionVisitor.Translate(Expression expression)\n" +
		"   at Ombi.Core.Engine.TvRequestEngine.SearchTvRequest(String search) in /home/" + build + "/Ombi/src/Ombi.Core/Engine/TvRequestEngine.cs:line 506\n" +
		"   at Ombi.Controllers.V1.RequestController.SearchTv(String searchTerm) in /home/" + build + "/Ombi/src/Ombi/Controllers/V1/RequestController.cs:line 303"
	return rs, nil
}

// MovieByID finds a movie request.
func (rs *RequestState) MovieByID(id int) *MovieRequest {
	return findBy(rs.Movies, func(m *MovieRequest) bool { return m.ID == id })
}

// MovieByTMDB finds the movie request of a TMDB id.
func (rs *RequestState) MovieByTMDB(tmdb int) *MovieRequest {
	return findBy(rs.Movies, func(m *MovieRequest) bool { return m.TheMovieDbID == tmdb })
}

// ParentByID finds a TV parent request.
func (rs *RequestState) ParentByID(id int) *TvParent {
	return findBy(rs.Tv, func(p *TvParent) bool { return p.ID == id })
}

// ParentByTMDB finds the TV parent of a TMDB id.
func (rs *RequestState) ParentByTMDB(tmdb int) *TvParent {
	return findBy(rs.Tv, func(p *TvParent) bool { return p.ExternalProviderID == tmdb })
}

// ChildByID finds a TV child request.
func (rs *RequestState) ChildByID(id int) *ChildRequest {
	return findBy(rs.Children, func(c *ChildRequest) bool { return c.ID == id })
}

// ChildrenOf lists a parent's children in id order.
func (rs *RequestState) ChildrenOf(parentID int) []*ChildRequest {
	var out []*ChildRequest
	for _, c := range rs.Children {
		if c.ParentRequestID == parentID {
			out = append(out, c)
		}
	}
	return out
}

// AlbumByID finds an album request.
func (rs *RequestState) AlbumByID(id int) *AlbumRequest {
	return findBy(rs.Albums, func(a *AlbumRequest) bool { return a.ID == id })
}

// AlbumByForeignID finds the album request of a MusicBrainz id.
func (rs *RequestState) AlbumByForeignID(id string) *AlbumRequest {
	return findBy(rs.Albums, func(a *AlbumRequest) bool { return strings.EqualFold(a.ForeignAlbumID, id) })
}

// request is what a movie request, a TV child request and an album request
// share: their BaseRequest and the moderation actions on it.
type request interface {
	Base() *ReqBase
	Moderate(act Moderation, reason string, now time.Time)
}

// RequestOf finds the request of a kind by id: a movie request, a TV child
// request or an album request; false when there is none.
func (rs *RequestState) RequestOf(kind MediaKind, id int) (request, bool) {
	switch kind {
	case MovieKind:
		if m := rs.MovieByID(id); m != nil {
			return m, true
		}
	case TvKind:
		if c := rs.ChildByID(id); c != nil {
			return c, true
		}
	case AlbumKind:
		if a := rs.AlbumByID(id); a != nil {
			return a, true
		}
	}
	return nil, false
}

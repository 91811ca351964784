package state

import "time"

// BaseRequest is Ombi's BaseRequest as the request views serialise it,
// with the members its computed properties add (canApprove,
// requestStatus, showSubscribe). The request views embed it; their
// members are written sorted with its own.
type BaseRequest struct {
	Approved          bool       `json:"approved"`
	Available         bool       `json:"available"`
	CanApprove        bool       `json:"canApprove"`
	Denied            *bool      `json:"denied"`
	DeniedReason      *string    `json:"deniedReason"`
	ID                int        `json:"id"`
	MarkedAsApproved  time.Time  `json:"markedAsApproved"`
	MarkedAsAvailable *time.Time `json:"markedAsAvailable"`
	MarkedAsDenied    time.Time  `json:"markedAsDenied"`
	RequestStatus     string     `json:"requestStatus"`
	RequestType       int        `json:"requestType"`
	RequestedByAlias  *string    `json:"requestedByAlias"`
	RequestedDate     time.Time  `json:"requestedDate"`
	RequestedUser     *OmbiUser  `json:"requestedUser"`
	RequestedUserID   string     `json:"requestedUserId"`
	ShowSubscribe     bool       `json:"showSubscribe"`
	Source            int        `json:"source"`
	Title             string     `json:"title"`
}

// MovieRequests is Ombi's MovieRequests entity as the request routes
// answer it; Issues is never loaded (null).
type MovieRequests struct {
	BaseRequest
	Approved4K             bool       `json:"approved4K"`
	Available4K            bool       `json:"available4K"`
	Background             string     `json:"background"`
	Denied4K               *bool      `json:"denied4K"`
	DeniedReason4K         *string    `json:"deniedReason4K"`
	DigitalRelease         bool       `json:"digitalRelease"`
	DigitalReleaseDate     *time.Time `json:"digitalReleaseDate"`
	Has4KRequest           bool       `json:"has4KRequest"`
	ImdbID                 *string    `json:"imdbId"`
	Is4kRequest            bool       `json:"is4kRequest"`
	IssueID                *int       `json:"issueId"`
	Issues                 []struct{} `json:"issues"` // always null
	LangCode               *string    `json:"langCode"`
	MarkedAsApproved4K     time.Time  `json:"markedAsApproved4K"`
	MarkedAsAvailable4K    *time.Time `json:"markedAsAvailable4K"`
	MarkedAsDenied4K       time.Time  `json:"markedAsDenied4K"`
	Overview               string     `json:"overview"`
	PlayedByUsersCount     int        `json:"playedByUsersCount"`
	PosterPath             string     `json:"posterPath"`
	QualityOverride        int        `json:"qualityOverride"`
	ReleaseDate            time.Time  `json:"releaseDate"`
	Released               bool       `json:"released"`
	RequestCombination     int        `json:"requestCombination"`
	RequestedDate4k        time.Time  `json:"requestedDate4k"`
	RootPathOverride       int        `json:"rootPathOverride"`
	Status                 string     `json:"status"`
	Subscribed             bool       `json:"subscribed"`
	TheMovieDbID           int        `json:"theMovieDbId"`
	WatchedByRequestedUser bool       `json:"watchedByRequestedUser"`
	Extra                  Extra      `json:"-"`
}

// MarshalJSON writes the request with its undocumented members.
func (m *MovieRequests) MarshalJSON() ([]byte, error) {
	type plain MovieRequests
	return marshalWith((*plain)(m), m.Extra)
}

// ChildRequests is Ombi's ChildRequests entity, one user's request of
// some seasons of a show. ParentRequest is written only where the route
// loads it (the v2 list and a parent's children); SeasonRequests is empty
// where the route does not load the seasons.
type ChildRequests struct {
	BaseRequest
	IssueID                     *int              `json:"issueId"`
	Issues                      []struct{}        `json:"issues"` // always null
	ParentRequest               *TvRequests       `json:"parentRequest,omitempty"`
	ParentRequestID             int               `json:"parentRequestId"`
	ReleaseYear                 time.Time         `json:"releaseYear"`
	RequestedUserPlayedProgress int               `json:"requestedUserPlayedProgress"`
	SeasonRequests              []*SeasonRequests `json:"seasonRequests"`
	SeriesType                  int               `json:"seriesType"`
	Subscribed                  bool              `json:"subscribed"`
	Extra                       Extra             `json:"-"`
}

// MarshalJSON writes the child with its undocumented members.
func (c *ChildRequests) MarshalJSON() ([]byte, error) {
	type plain ChildRequests
	return marshalWith((*plain)(c), c.Extra)
}

// TvRequests is Ombi's TvRequests entity, a show's request with its
// children.
type TvRequests struct {
	Background         string           `json:"background"`
	ChildRequests      []*ChildRequests `json:"childRequests"`
	ExternalProviderID int              `json:"externalProviderId"`
	ID                 int              `json:"id"`
	ImdbID             *string          `json:"imdbId"`
	LanguageProfile    *int             `json:"languageProfile"`
	Overview           string           `json:"overview"`
	PosterPath         string           `json:"posterPath"`
	QualityOverride    *int             `json:"qualityOverride"`
	ReleaseDate        time.Time        `json:"releaseDate"`
	RootFolder         *int             `json:"rootFolder"`
	Status             string           `json:"status"`
	Title              string           `json:"title"`
	TotalSeasons       int              `json:"totalSeasons"`
	TvDbID             int              `json:"tvDbId"`
	Extra              Extra            `json:"-"`
}

// MarshalJSON writes the show's request with its undocumented members.
func (t *TvRequests) MarshalJSON() ([]byte, error) {
	type plain TvRequests
	return marshalWith((*plain)(t), t.Extra)
}

// SeasonRequests is Ombi's SeasonRequests entity.
type SeasonRequests struct {
	ChildRequestID  int                `json:"childRequestId"`
	Episodes        []*EpisodeRequests `json:"episodes"`
	ID              int                `json:"id"`
	Overview        string             `json:"overview"`
	SeasonAvailable bool               `json:"seasonAvailable"`
	SeasonNumber    int                `json:"seasonNumber"`
	Extra           Extra              `json:"-"`
}

// MarshalJSON writes the season with its undocumented members.
func (s *SeasonRequests) MarshalJSON() ([]byte, error) {
	type plain SeasonRequests
	return marshalWith((*plain)(s), s.Extra)
}

// EpisodeRequests is Ombi's EpisodeRequests entity with its computed
// airDateDisplay and requestStatus.
type EpisodeRequests struct {
	AirDate        time.Time `json:"airDate"`
	AirDateDisplay string    `json:"airDateDisplay"`
	Approved       bool      `json:"approved"`
	Available      bool      `json:"available"`
	Denied         *bool     `json:"denied"`
	DeniedReason   *string   `json:"deniedReason"`
	EpisodeNumber  int       `json:"episodeNumber"`
	ID             int       `json:"id"`
	RequestStatus  string    `json:"requestStatus"`
	Requested      bool      `json:"requested"`
	SeasonID       int       `json:"seasonId"`
	Title          string    `json:"title"`
	URL            string    `json:"url"`
	Extra          Extra     `json:"-"`
}

// MarshalJSON writes the episode with its undocumented members.
func (e *EpisodeRequests) MarshalJSON() ([]byte, error) {
	type plain EpisodeRequests
	return marshalWith((*plain)(e), e.Extra)
}

// AlbumRequest is Ombi's AlbumRequest entity.
type AlbumRequest struct {
	BaseRequest
	ArtistName      string    `json:"artistName"`
	Cover           string    `json:"cover"`
	Disk            string    `json:"disk"`
	ForeignAlbumID  string    `json:"foreignAlbumId"`
	ForeignArtistID string    `json:"foreignArtistId"`
	Rating          float64   `json:"rating"`
	ReleaseDate     time.Time `json:"releaseDate"`
	Subscribed      bool      `json:"subscribed"`
	Extra           Extra     `json:"-"`
}

// MarshalJSON writes the request with its undocumented members.
func (a *AlbumRequest) MarshalJSON() ([]byte, error) {
	type plain AlbumRequest
	return marshalWith((*plain)(a), a.Extra)
}

// RequestsViewModel is Ombi's RequestsViewModel<T>, one page of requests
// and how many there are in all.
type RequestsViewModel[T any] struct {
	Collection []T `json:"collection"`
	Total      int `json:"total"`
}

// RequestEngineResult is Ombi's RequestEngineResult, the answer of a
// request's creation, moderation or removal.
type RequestEngineResult struct {
	ErrorCode    *string `json:"errorCode"`
	ErrorMessage *string `json:"errorMessage"`
	IsError      bool    `json:"isError"`
	Message      *string `json:"message"`
	RequestID    int     `json:"requestId"`
	Result       bool    `json:"result"`
}

// RecentlyRequestedModel is Ombi's RecentlyRequestedModel, one row of the
// recently requested list. The members a TV row takes from its parent
// request, and a movie's or album's absent ones, are null.
type RecentlyRequestedModel struct {
	Approved             bool      `json:"approved"`
	Available            bool      `json:"available"`
	Background           *string   `json:"background"`
	Denied               bool      `json:"denied"`
	MediaID              *string   `json:"mediaId"`
	Overview             *string   `json:"overview"`
	PosterPath           *string   `json:"posterPath"`
	ReleaseDate          time.Time `json:"releaseDate"`
	RequestDate          time.Time `json:"requestDate"`
	RequestID            int       `json:"requestId"`
	Title                string    `json:"title"`
	TvPartiallyAvailable bool      `json:"tvPartiallyAvailable"`
	Type                 int       `json:"type"`
	UserID               string    `json:"userId"`
	Username             *string   `json:"username"`
}

// FailedRequestViewModel is Ombi's FailedRequestViewModel, one row of the retry
// queue.
type FailedRequestViewModel struct {
	Dts         time.Time `json:"dts"`
	Error       string    `json:"error"`
	FailedID    int       `json:"failedId"`
	ReleaseYear time.Time `json:"releaseYear"`
	RequestID   int       `json:"requestId"`
	RetryCount  int       `json:"retryCount"`
	Title       string    `json:"title"`
	Type        int       `json:"type"`
	Extra       Extra     `json:"-"`
}

// MarshalJSON writes the row with its undocumented members.
func (q *FailedRequestViewModel) MarshalJSON() ([]byte, error) {
	type plain FailedRequestViewModel
	return marshalWith((*plain)(q), q.Extra)
}

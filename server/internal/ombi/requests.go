package ombi

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
)

// RequestsList reads one upstream window of a v2 request list. media is
// movie, tv or album; status "" or "all" is the base route; the sort
// segment is always the C# property RequestedDate; count comes before
// position.
//
// upstream: GET /api/v2/Requests/movie/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/movie/pending/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/movie/processing/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/movie/available/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/movie/denied/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/movie/unavailable/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/tv/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/tv/pending/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/tv/processing/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/tv/available/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/tv/denied/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/tv/unavailable/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/album/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/album/pending/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/album/processing/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/album/available/{count}/{position}/RequestedDate/{sortOrder}
// upstream: GET /api/v2/Requests/album/denied/{count}/{position}/RequestedDate/{sortOrder}
func (c *Client) RequestsList(ctx context.Context, media, status string, count, position int, order string) (RequestsPage, error) {
	rel := "api/v2/Requests/" + seg(media) + "/"
	if status != "" && status != "all" {
		rel += seg(status) + "/"
	}
	rel += SegInt(count) + "/" + SegInt(position) + "/RequestedDate/" + seg(order)
	return send[RequestsPage](ctx, c, http.MethodGet, rel, nil)
}

// MovieRequest reads one movie request.
//
// upstream: GET /api/v1/Request/movie/info/{requestId}
func (c *Client) MovieRequest(ctx context.Context, id int) (Request, error) {
	return send[Request](ctx, c, http.MethodGet, "api/v1/Request/movie/info/"+SegInt(id), nil)
}

// TVParentRequest reads one TV parent request.
//
// upstream: GET /api/v1/Request/tv/{requestId}
func (c *Client) TVParentRequest(ctx context.Context, id int) (TVParent, error) {
	return send[TVParent](ctx, c, http.MethodGet, "api/v1/Request/tv/"+SegInt(id), nil)
}

// TVChildRequests lists the child requests of a TV parent.
//
// upstream: GET /api/v1/Request/tv/{requestId}/child
func (c *Client) TVChildRequests(ctx context.Context, parentID int) ([]Request, error) {
	return send[[]Request](ctx, c, http.MethodGet, "api/v1/Request/tv/"+SegInt(parentID)+"/child", nil)
}

// TVParentScan lists every TV parent request with its children (unpaged;
// bounded by the body cap and maxScan).
//
// upstream: GET /api/v1/Request/tv
func (c *Client) TVParentScan(ctx context.Context) ([]TVParent, error) {
	return send[[]TVParent](ctx, c, http.MethodGet, "api/v1/Request/tv", nil)
}

// SearchRequests searches requests of one media by text.
//
// upstream: GET /api/v1/Request/movie/search/{searchTerm}
// upstream: GET /api/v1/Request/tv/search/{searchTerm}
// upstream: GET /api/v1/request/music/search/{searchTerm}
func (c *Client) SearchRequests(ctx context.Context, media, term string) ([]Request, error) {
	var rel string
	switch media {
	case "movie":
		rel = "api/v1/Request/movie/search/"
	case "tv":
		rel = "api/v1/Request/tv/search/"
	default:
		rel = "api/v1/request/music/search/"
	}
	return send[[]Request](ctx, c, http.MethodGet, rel+seg(term), nil)
}

// RecentlyRequested reads the recently-requested feed.
//
// upstream: GET /api/v2/Requests/recentlyRequested
func (c *Client) RecentlyRequested(ctx context.Context) ([]Recent, error) {
	return send[[]Recent](ctx, c, http.MethodGet, "api/v2/Requests/recentlyRequested", nil)
}

// Wire shapes of Ombi's request models (MovieRequests, ChildRequests,
// AlbumRequest, TvRequests, RecentlyRequestedModel, RequestsViewModel). Only
// the projected fields are declared.
type (
	RequestsPage struct {
		Collection []Request `json:"collection"`
		Total      *int      `json:"total"`
	}
	// Request covers MovieRequests, ChildRequests and AlbumRequest.
	Request struct {
		ID              FlexID    `json:"id"`
		RequestID       FlexID    `json:"requestId"`
		Title           string    `json:"title"`
		TheMovieDbID    FlexID    `json:"theMovieDbId"`
		ImdbID          string    `json:"imdbId"`
		ForeignAlbumID  string    `json:"foreignAlbumId"`
		Approved        *bool     `json:"approved"`
		Available       *bool     `json:"available"`
		Denied          *bool     `json:"denied"`
		DeniedReason    string    `json:"deniedReason"`
		RequestedDate   string    `json:"requestedDate"`
		RequestedUserID string    `json:"requestedUserId"`
		RequestStatus   string    `json:"requestStatus"`
		Is4kRequest     *bool     `json:"is4kRequest"`
		Approved4K      *bool     `json:"approved4K"`
		Available4K     *bool     `json:"available4K"`
		Denied4K        *bool     `json:"denied4K"`
		Subscribed      *bool     `json:"subscribed"`
		CanApprove      *bool     `json:"canApprove"`
		ParentRequestID FlexID    `json:"parentRequestId"`
		ParentRequest   *TVParent `json:"parentRequest"`
		SeasonRequests  []Season  `json:"seasonRequests"`
		// rootPathOverride/qualityOverride are read by write_request_options
		// to carry omitted values over.
		RootPathOverride *int `json:"rootPathOverride"`
		QualityOverride  *int `json:"qualityOverride"`
	}
	// TVParent is TvRequests.
	TVParent struct {
		ID                 FlexID    `json:"id"`
		Title              string    `json:"title"`
		TvDbID             FlexID    `json:"tvDbId"`
		ExternalProviderID FlexID    `json:"externalProviderId"`
		ImdbID             string    `json:"imdbId"`
		QualityOverride    *int      `json:"qualityOverride"`
		RootFolder         *int      `json:"rootFolder"`
		LanguageProfile    *int      `json:"languageProfile"`
		ChildRequests      []Request `json:"childRequests"`
	}
	// Recent is RecentlyRequestedModel.
	Recent struct {
		RequestID   FlexID `json:"requestId"`
		Type        *int   `json:"type"`
		UserID      string `json:"userId"`
		Available   *bool  `json:"available"`
		Approved    *bool  `json:"approved"`
		Denied      *bool  `json:"denied"`
		RequestDate string `json:"requestDate"`
		Title       string `json:"title"`
		MediaID     string `json:"mediaId"`
	}
)

// CreateMovieRequest requests a movie.
//
// upstream: POST /api/v1/Request/movie
func (c *Client) CreateMovieRequest(ctx context.Context, body MovieRequestBody) (EngineResult, error) {
	return send[EngineResult](ctx, c, http.MethodPost, "api/v1/Request/movie", body)
}

// CreateTVRequestTMDB requests a TV show by TMDB id (v2).
//
// upstream: POST /api/v2/Requests/tv
func (c *Client) CreateTVRequestTMDB(ctx context.Context, body TVRequestBody) (EngineResult, error) {
	return send[EngineResult](ctx, c, http.MethodPost, "api/v2/Requests/tv", body)
}

// CreateTVRequestTVDB requests a TV show by TVDB id (v1, the only TVDB
// create route).
//
// upstream: POST /api/v1/Request/tv
func (c *Client) CreateTVRequestTVDB(ctx context.Context, body TVRequestBody) (EngineResult, error) {
	return send[EngineResult](ctx, c, http.MethodPost, "api/v1/Request/tv", body)
}

// CreateAlbumRequest requests an album. The alias travels as the ApiAlias
// header (honoured upstream only with an API key) and in the body.
//
// upstream: POST /api/v1/request/music
func (c *Client) CreateAlbumRequest(ctx context.Context, body AlbumRequestBody) (EngineResult, error) {
	var out EngineResult
	req, err := c.NewRequest(ctx, http.MethodPost, "api/v1/request/music", body)
	if err != nil {
		return out, err
	}
	if body.RequestedByAlias != "" {
		req.Header.Set("ApiAlias", body.RequestedByAlias)
	}
	return out, c.Do(req, &out)
}

// CreateCollectionRequest requests every movie of a TMDB collection; the
// route takes no body.
//
// upstream: POST /api/v2/Requests/movie/collection/{collectionId}
func (c *Client) CreateCollectionRequest(ctx context.Context, collectionID int) (EngineResult, error) {
	return send[EngineResult](ctx, c, http.MethodPost, "api/v2/Requests/movie/collection/"+SegInt(collectionID), nil)
}

// SubscribeRequest subscribes to or unsubscribes from a movie or TV
// request; the route takes no body and answers true.
//
// upstream: POST /api/v1/Request/movie/subscribe/{requestId}
// upstream: POST /api/v1/Request/tv/subscribe/{requestId}
// upstream: POST /api/v1/Request/movie/unsubscribe/{requestId}
// upstream: POST /api/v1/Request/tv/unsubscribe/{requestId}
func (c *Client) SubscribeRequest(ctx context.Context, media, action string, id int) (*bool, error) {
	return send[*bool](ctx, c, http.MethodPost, RequestsBase(media)+"/"+seg(action)+"/"+SegInt(id), nil)
}

// ModerateRequest approves, marks available/unavailable (POST) or denies
// (PUT, for every media) one request.
//
// upstream: POST /api/v1/Request/movie/approve
// upstream: POST /api/v1/Request/tv/approve
// upstream: POST /api/v1/request/music/approve
// upstream: POST /api/v1/Request/movie/available
// upstream: POST /api/v1/Request/tv/available
// upstream: POST /api/v1/request/music/available
// upstream: POST /api/v1/Request/movie/unavailable
// upstream: POST /api/v1/Request/tv/unavailable
// upstream: POST /api/v1/request/music/unavailable
// upstream: PUT /api/v1/Request/movie/deny
// upstream: PUT /api/v1/Request/tv/deny
// upstream: PUT /api/v1/request/music/deny
func (c *Client) ModerateRequest(ctx context.Context, media, action string, body any) (EngineResult, error) {
	method := http.MethodPost
	if action == "deny" {
		method = http.MethodPut
	}
	return send[EngineResult](ctx, c, method, RequestsBase(media)+"/"+seg(action), body)
}

// Request kinds DeleteRequest names.
const (
	KindMovie   = "movie"
	KindTVChild = "tv_child"
	KindAlbum   = "album"
)

// DeleteRequest deletes a movie, album or TV child request.
//
// upstream: DELETE /api/v1/Request/movie/{requestId}
// upstream: DELETE /api/v1/request/music/{requestId}
// upstream: DELETE /api/v1/Request/tv/child/{requestId}
func (c *Client) DeleteRequest(ctx context.Context, kind string, id int) (EngineResult, error) {
	rel := map[string]string{KindMovie: "api/v1/Request/movie/", KindAlbum: "api/v1/request/music/", KindTVChild: "api/v1/Request/tv/child/"}[kind]
	return send[EngineResult](ctx, c, http.MethodDelete, rel+SegInt(id), nil)
}

// DeleteTVParent deletes a TV parent request and with it every child; the
// route answers an empty 200.
//
// upstream: DELETE /api/v1/Request/tv/{requestId}
func (c *Client) DeleteTVParent(ctx context.Context, id int) error {
	req, err := c.NewRequest(ctx, http.MethodDelete, "api/v1/Request/tv/"+SegInt(id), nil)
	if err != nil {
		return err
	}
	return c.Do(req, nil)
}

// AdvancedOptions replaces a request's root, quality (and TV language)
// overrides.
//
// upstream: POST /api/v2/Requests/movie/advancedoptions
// upstream: POST /api/v2/Requests/tv/advancedoptions
func (c *Client) AdvancedOptions(ctx context.Context, media string, body AdvancedOptionsBody) (EngineResult, error) {
	return send[EngineResult](ctx, c, http.MethodPost, "api/v2/Requests/"+seg(media)+"/advancedoptions", body)
}

// TVRootOrQuality sets a TV parent's root folder or quality profile; both
// ids are in the path, there is no body, the answer is true.
//
// upstream: PUT /api/v1/Request/tv/root/{requestId}/{rootFolderId}
// upstream: PUT /api/v1/Request/tv/quality/{requestId}/{qualityId}
func (c *Client) TVRootOrQuality(ctx context.Context, which string, parentID, value int) (*bool, error) {
	return send[*bool](ctx, c, http.MethodPut, "api/v1/Request/tv/"+seg(which)+"/"+SegInt(parentID)+"/"+SegInt(value), nil)
}

// ReprocessRequest re-sends an existing request to its download client;
// type is the T1 int.
//
// upstream: POST /api/v2/Requests/reprocess/{type}/{requestId}/{is4K}
func (c *Client) ReprocessRequest(ctx context.Context, typ, id int, is4K bool) (EngineResult, error) {
	return send[EngineResult](ctx, c, http.MethodPost,
		"api/v2/Requests/reprocess/"+SegInt(typ)+"/"+SegInt(id)+"/"+strconv.FormatBool(is4K), nil)
}

type (
	// MovieRequestBody is MovieRequestViewModel. is4kRequest is always
	// sent (false by default); the rest only when given.
	MovieRequestBody struct {
		TheMovieDbID        int    `json:"theMovieDbId"`
		Is4kRequest         bool   `json:"is4kRequest"`
		LanguageCode        string `json:"languageCode,omitempty"`
		RequestOnBehalf     string `json:"requestOnBehalf,omitempty"`
		RootFolderOverride  *int   `json:"rootFolderOverride,omitempty"`
		QualityPathOverride *int   `json:"qualityPathOverride,omitempty"`
	}
	// TVRequestBody is TvRequestViewModelV2 (theMovieDbId, languageCode) or
	// the v1 TvRequestViewModel (tvDbId). It has no 4K field and no source.
	TVRequestBody struct {
		TheMovieDbID        int          `json:"theMovieDbId,omitempty"`
		TvDbID              int          `json:"tvDbId,omitempty"`
		LanguageCode        string       `json:"languageCode,omitempty"`
		RequestAll          bool         `json:"requestAll"`
		FirstSeason         bool         `json:"firstSeason"`
		LatestSeason        bool         `json:"latestSeason"`
		Seasons             []SeasonWire `json:"seasons"`
		LanguageProfile     *int         `json:"languageProfile,omitempty"`
		RootFolderOverride  *int         `json:"rootFolderOverride,omitempty"`
		QualityPathOverride *int         `json:"qualityPathOverride,omitempty"`
		RequestOnBehalf     string       `json:"requestOnBehalf,omitempty"`
	}
	SeasonWire struct {
		SeasonNumber int           `json:"seasonNumber"`
		Episodes     []EpisodeWire `json:"episodes"`
	}
	EpisodeWire struct {
		EpisodeNumber int `json:"episodeNumber"`
	}
	// AlbumRequestBody is MusicAlbumRequestViewModel.
	AlbumRequestBody struct {
		ForeignAlbumID   string `json:"foreignAlbumId"`
		RequestedByAlias string `json:"requestedByAlias,omitempty"`
	}
	// MovieModerationBody is MovieUpdateModel / DenyMovieModel.
	MovieModerationBody struct {
		ID     int    `json:"id"`
		Is4K   bool   `json:"is4K"`
		Reason string `json:"reason,omitempty"`
	}
	// ModerationBody is TvUpdateModel / AlbumUpdateModel / DenyTvModel /
	// DenyAlbumModel.
	ModerationBody struct {
		ID     int    `json:"id"`
		Reason string `json:"reason,omitempty"`
	}
	// AdvancedOptionsBody is MediaAdvancedOptions; upstream replaces every
	// field, so all are sent.
	AdvancedOptionsBody struct {
		RequestID        int  `json:"requestId"`
		RootPathOverride int  `json:"rootPathOverride"`
		QualityOverride  int  `json:"qualityOverride"`
		LanguageProfile  *int `json:"languageProfile,omitempty"`
	}
	// EngineResult is RequestEngineResult.
	EngineResult struct {
		Result       *bool           `json:"result"`
		Message      string          `json:"message"`
		IsError      *bool           `json:"isError"`
		ErrorMessage string          `json:"errorMessage"`
		ErrorCode    json.RawMessage `json:"errorCode"`
		RequestID    FlexID          `json:"requestId"`
	}
)

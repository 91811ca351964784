package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// This file serves the request writes: write_request_create,
// write_request_subscribe, write_request_moderate, write_request_delete,
// write_request_options and write_request_reprocess. Every write is sent
// once: the client never replays it (a lost answer is UNKNOWN_OUTCOME).

// ---- client methods ----

// createMovieRequest requests a movie.
//
// upstream: POST /api/v1/Request/movie
func (c *ombiClient) createMovieRequest(ctx context.Context, body movieRequestBody) (wireEngineResult, error) {
	return send[wireEngineResult](ctx, c, http.MethodPost, "api/v1/Request/movie", body)
}

// createTVRequestTMDB requests a TV show by TMDB id (v2).
//
// upstream: POST /api/v2/Requests/tv
func (c *ombiClient) createTVRequestTMDB(ctx context.Context, body tvRequestBody) (wireEngineResult, error) {
	return send[wireEngineResult](ctx, c, http.MethodPost, "api/v2/Requests/tv", body)
}

// createTVRequestTVDB requests a TV show by TVDB id (v1, the only TVDB
// create route).
//
// upstream: POST /api/v1/Request/tv
func (c *ombiClient) createTVRequestTVDB(ctx context.Context, body tvRequestBody) (wireEngineResult, error) {
	return send[wireEngineResult](ctx, c, http.MethodPost, "api/v1/Request/tv", body)
}

// createAlbumRequest requests an album. The alias travels as the ApiAlias
// header (honoured upstream only with an API key) and in the body.
//
// upstream: POST /api/v1/request/music
func (c *ombiClient) createAlbumRequest(ctx context.Context, body albumRequestBody) (wireEngineResult, error) {
	var out wireEngineResult
	req, err := c.newRequest(ctx, http.MethodPost, "api/v1/request/music", body)
	if err != nil {
		return out, err
	}
	if body.RequestedByAlias != "" {
		req.Header.Set("ApiAlias", body.RequestedByAlias)
	}
	return out, c.do(req, &out)
}

// createCollectionRequest requests every movie of a TMDB collection; the
// route takes no body.
//
// upstream: POST /api/v2/Requests/movie/collection/{collectionId}
func (c *ombiClient) createCollectionRequest(ctx context.Context, collectionID int) (wireEngineResult, error) {
	return send[wireEngineResult](ctx, c, http.MethodPost, "api/v2/Requests/movie/collection/"+segInt(collectionID), nil)
}

// subscribeRequest subscribes to or unsubscribes from a movie or TV
// request; the route takes no body and answers true.
//
// upstream: POST /api/v1/Request/movie/subscribe/{requestId}
// upstream: POST /api/v1/Request/tv/subscribe/{requestId}
// upstream: POST /api/v1/Request/movie/unsubscribe/{requestId}
// upstream: POST /api/v1/Request/tv/unsubscribe/{requestId}
func (c *ombiClient) subscribeRequest(ctx context.Context, media, action string, id int) (*bool, error) {
	return send[*bool](ctx, c, http.MethodPost, requestsBase(media)+"/"+seg(action)+"/"+segInt(id), nil)
}

// moderateRequest approves, marks available/unavailable (POST) or denies
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
func (c *ombiClient) moderateRequest(ctx context.Context, media, action string, body any) (wireEngineResult, error) {
	method := http.MethodPost
	if action == "deny" {
		method = http.MethodPut
	}
	return send[wireEngineResult](ctx, c, method, requestsBase(media)+"/"+seg(action), body)
}

// deleteRequest deletes a movie, album or TV child request.
//
// upstream: DELETE /api/v1/Request/movie/{requestId}
// upstream: DELETE /api/v1/request/music/{requestId}
// upstream: DELETE /api/v1/Request/tv/child/{requestId}
func (c *ombiClient) deleteRequest(ctx context.Context, kind string, id int) (wireEngineResult, error) {
	rel := map[string]string{kindMovie: "api/v1/Request/movie/", kindAlbum: "api/v1/request/music/", kindTVChild: "api/v1/Request/tv/child/"}[kind]
	return send[wireEngineResult](ctx, c, http.MethodDelete, rel+segInt(id), nil)
}

// deleteTVParent deletes a TV parent request and with it every child; the
// route answers an empty 200.
//
// upstream: DELETE /api/v1/Request/tv/{requestId}
func (c *ombiClient) deleteTVParent(ctx context.Context, id int) error {
	req, err := c.newRequest(ctx, http.MethodDelete, "api/v1/Request/tv/"+segInt(id), nil)
	if err != nil {
		return err
	}
	return c.do(req, nil)
}

// advancedOptions replaces a request's root, quality (and TV language)
// overrides.
//
// upstream: POST /api/v2/Requests/movie/advancedoptions
// upstream: POST /api/v2/Requests/tv/advancedoptions
func (c *ombiClient) advancedOptions(ctx context.Context, media string, body advancedOptionsBody) (wireEngineResult, error) {
	return send[wireEngineResult](ctx, c, http.MethodPost, "api/v2/Requests/"+seg(media)+"/advancedoptions", body)
}

// tvRootOrQuality sets a TV parent's root folder or quality profile; both
// ids are in the path, there is no body, the answer is true.
//
// upstream: PUT /api/v1/Request/tv/root/{requestId}/{rootFolderId}
// upstream: PUT /api/v1/Request/tv/quality/{requestId}/{qualityId}
func (c *ombiClient) tvRootOrQuality(ctx context.Context, which string, parentID, value int) (*bool, error) {
	return send[*bool](ctx, c, http.MethodPut, "api/v1/Request/tv/"+seg(which)+"/"+segInt(parentID)+"/"+segInt(value), nil)
}

// reprocessRequest re-sends an existing request to its download client;
// type is the T1 int.
//
// upstream: POST /api/v2/Requests/reprocess/{type}/{requestId}/{is4K}
func (c *ombiClient) reprocessRequest(ctx context.Context, typ, id int, is4K bool) (wireEngineResult, error) {
	return send[wireEngineResult](ctx, c, http.MethodPost,
		"api/v2/Requests/reprocess/"+segInt(typ)+"/"+segInt(id)+"/"+strconv.FormatBool(is4K), nil)
}

// ---- wire shapes ----

type (
	// movieRequestBody is MovieRequestViewModel. is4kRequest is always
	// sent (false by default); the rest only when given.
	movieRequestBody struct {
		TheMovieDbID        int    `json:"theMovieDbId"`
		Is4kRequest         bool   `json:"is4kRequest"`
		LanguageCode        string `json:"languageCode,omitempty"`
		RequestOnBehalf     string `json:"requestOnBehalf,omitempty"`
		RootFolderOverride  *int   `json:"rootFolderOverride,omitempty"`
		QualityPathOverride *int   `json:"qualityPathOverride,omitempty"`
	}
	// tvRequestBody is TvRequestViewModelV2 (theMovieDbId, languageCode) or
	// the v1 TvRequestViewModel (tvDbId). It has no 4K field and no source.
	tvRequestBody struct {
		TheMovieDbID        int          `json:"theMovieDbId,omitempty"`
		TvDbID              int          `json:"tvDbId,omitempty"`
		LanguageCode        string       `json:"languageCode,omitempty"`
		RequestAll          bool         `json:"requestAll"`
		FirstSeason         bool         `json:"firstSeason"`
		LatestSeason        bool         `json:"latestSeason"`
		Seasons             []seasonWire `json:"seasons"`
		LanguageProfile     *int         `json:"languageProfile,omitempty"`
		RootFolderOverride  *int         `json:"rootFolderOverride,omitempty"`
		QualityPathOverride *int         `json:"qualityPathOverride,omitempty"`
		RequestOnBehalf     string       `json:"requestOnBehalf,omitempty"`
	}
	seasonWire struct {
		SeasonNumber int           `json:"seasonNumber"`
		Episodes     []episodeWire `json:"episodes"`
	}
	episodeWire struct {
		EpisodeNumber int `json:"episodeNumber"`
	}
	// albumRequestBody is MusicAlbumRequestViewModel.
	albumRequestBody struct {
		ForeignAlbumID   string `json:"foreignAlbumId"`
		RequestedByAlias string `json:"requestedByAlias,omitempty"`
	}
	// movieModerationBody is MovieUpdateModel / DenyMovieModel.
	movieModerationBody struct {
		ID     int    `json:"id"`
		Is4K   bool   `json:"is4K"`
		Reason string `json:"reason,omitempty"`
	}
	// moderationBody is TvUpdateModel / AlbumUpdateModel / DenyTvModel /
	// DenyAlbumModel.
	moderationBody struct {
		ID     int    `json:"id"`
		Reason string `json:"reason,omitempty"`
	}
	// advancedOptionsBody is MediaAdvancedOptions; upstream replaces every
	// field, so all are sent.
	advancedOptionsBody struct {
		RequestID        int  `json:"requestId"`
		RootPathOverride int  `json:"rootPathOverride"`
		QualityOverride  int  `json:"qualityOverride"`
		LanguageProfile  *int `json:"languageProfile,omitempty"`
	}
	// wireEngineResult is RequestEngineResult.
	wireEngineResult struct {
		Result       *bool           `json:"result"`
		Message      string          `json:"message"`
		IsError      *bool           `json:"isError"`
		ErrorMessage string          `json:"errorMessage"`
		ErrorCode    json.RawMessage `json:"errorCode"`
		RequestID    flexID          `json:"requestId"`
	}
)

// ---- mutation ----

// engineMutation reads a RequestEngineResult: isError, a non-null
// errorCode or result:false is a business failure (HTTP 200 is not
// success); an answer carrying neither result nor isError is not the
// expected shape. A success never invents an id: request_id and target
// appear only when upstream returned a positive requestId and kind is set.
func engineMutation(w wireEngineResult, op, kind string, secrets []string) (mutation, error) {
	code := engineErrorCode(w.ErrorCode)
	failed := (w.IsError != nil && *w.IsError) || (w.Result != nil && !*w.Result) || code != ""
	if failed {
		msg := sanitizeMessage(w.ErrorMessage, secrets...)
		if msg == "" {
			msg = sanitizeMessage(w.Message, secrets...)
		}
		return mutation{}, &businessError{Code: sanitizeMessage(code, secrets...), Message: msg}
	}
	if w.Result == nil && w.IsError == nil {
		return mutation{}, &schemaError{Op: op, Reason: "the answer carries neither result nor isError"}
	}
	m := mutation{Kind: "mutation", Outcome: mutationCompleted, UpstreamResult: w.Result, UpstreamIsError: w.IsError,
		Message: sanitizeMessage(w.Message, secrets...)}
	if id := w.RequestID.positive(); id > 0 && kind != "" {
		m.RequestID = id
		m.Target = &target{Kind: kind, ID: id}
	}
	return m, nil
}

// engineErrorCode reads errorCode (a string enum upstream; null when none).
func engineErrorCode(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	return strings.TrimSpace(string(raw))
}

// trueAnswer checks a route that answers a bare true.
func trueAnswer(b *bool, op string) error {
	switch {
	case b == nil:
		return &schemaError{Op: op, Reason: "no boolean in the answer"}
	case !*b:
		return &businessError{Message: "upstream answered false"}
	}
	return nil
}

// ---- write_request_create ----

type (
	createInput struct {
		Action           string     `json:"action"`
		TMDBID           int        `json:"tmdb_id"`
		Provider         string     `json:"provider"`
		ID               int        `json:"id"`
		Selection        *selection `json:"selection"`
		Is4K             bool       `json:"is_4k"`
		Language         string     `json:"language"`
		LanguageProfile  *int       `json:"language_profile_id"`
		RootFolderID     *int       `json:"root_folder_id"`
		QualityProfileID *int       `json:"quality_profile_id"`
		OnBehalfUserID   string     `json:"on_behalf_user_id"`
		MusicBrainzID    string     `json:"musicbrainz_id"`
		RequestedByAlias string     `json:"requested_by_alias"`
		CollectionID     int        `json:"collection_id"`
	}
	selection struct {
		Mode          string            `json:"mode"`
		SeasonNumbers []int             `json:"season_numbers"`
		Seasons       []selectionSeason `json:"seasons"`
	}
	selectionSeason struct {
		SeasonNumber int   `json:"season_number"`
		Episodes     []int `json:"episodes"`
	}
)

// maxEpisodes caps the episodes one create call may select (routing rule 8).
const maxEpisodes = 2000

// writeRequestCreate serves write_request_create.
func writeRequestCreate(d *deps) tool {
	return tool{name: "write_request_create", handle: func(ctx context.Context, c *call) (any, error) {
		var in createInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		cl, secrets := d.client, d.client.secrets()
		switch in.Action {
		case "movie":
			w, err := cl.createMovieRequest(ctx, movieRequestBody{
				TheMovieDbID: in.TMDBID, Is4kRequest: in.Is4K, LanguageCode: in.Language, RequestOnBehalf: in.OnBehalfUserID,
				RootFolderOverride: in.RootFolderID, QualityPathOverride: in.QualityProfileID,
			})
			if err != nil {
				return nil, err
			}
			return engineMutation(w, "POST /api/v1/Request/movie", kindMovie, secrets)
		case "tv":
			return d.createTV(ctx, in)
		case "album":
			if in.RequestedByAlias != "" {
				if err := nonBlank("/requested_by_alias", in.RequestedByAlias); err != nil {
					return nil, err
				}
				if cl.mode != AuthAPIKey {
					return nil, &unsupportedError{Message: "requested_by_alias is honoured upstream only with an API key (ApiAlias header); this server logs in with a user, so the alias would be dropped"}
				}
			}
			w, err := cl.createAlbumRequest(ctx, albumRequestBody{ForeignAlbumID: in.MusicBrainzID, RequestedByAlias: in.RequestedByAlias})
			if err != nil {
				return nil, err
			}
			return engineMutation(w, "POST /api/v1/request/music", kindAlbum, secrets)
		case "collection":
			w, err := cl.createCollectionRequest(ctx, in.CollectionID)
			if err != nil {
				return nil, err
			}
			// One RequestEngineResult for the whole collection: the
			// members' individual outcomes are unknown, so no id and no
			// per-item result is reported.
			m, err := engineMutation(w, "POST /api/v2/Requests/movie/collection/{collectionId}", "", secrets)
			if err != nil {
				return nil, err
			}
			m.Outcome = mutationAccepted
			c.warn("upstream reports one result for the whole collection; read the movie requests to see which members were requested")
			return m, nil
		}
		return nil, &unsupportedError{Message: "write_request_create: unknown action"}
	}}
}

// createTV builds the TV body from the selection and posts it once to the
// provider's route.
func (d *deps) createTV(ctx context.Context, in createInput) (any, error) {
	if in.Selection == nil {
		return nil, &argumentError{Field: "/selection", Message: "a selection is required"}
	}
	if in.Provider == "tvdb" {
		if err := d.tvdbUnsupported(in); err != nil {
			return nil, err
		}
	}
	body := tvRequestBody{
		LanguageProfile: in.LanguageProfile, RootFolderOverride: in.RootFolderID,
		QualityPathOverride: in.QualityProfileID, RequestOnBehalf: in.OnBehalfUserID, Seasons: []seasonWire{},
	}
	switch in.Selection.Mode {
	case "all":
		body.RequestAll = true
	case "first_season":
		body.FirstSeason = true
	case "latest_season":
		body.LatestSeason = true
	case "episodes":
		seasons, err := explicitEpisodes(in.Selection.Seasons)
		if err != nil {
			return nil, err
		}
		body.Seasons = seasons
	case "season":
		if err := distinctSeasons(in.Selection.SeasonNumbers); err != nil {
			return nil, err
		}
		seasons, err := d.expandSeasons(ctx, in.Provider, in.ID, in.Selection.SeasonNumbers)
		if err != nil {
			return nil, err
		}
		body.Seasons = seasons
	default:
		return nil, &argumentError{Field: "/selection/mode", Message: "unknown selection mode"}
	}
	secrets := d.client.secrets()
	if in.Provider == "tvdb" {
		body.TvDbID = in.ID
		w, err := d.client.createTVRequestTVDB(ctx, body)
		if err != nil {
			return nil, err
		}
		return engineMutation(w, "POST /api/v1/Request/tv", kindTVChild, secrets)
	}
	body.TheMovieDbID, body.LanguageCode = in.ID, in.Language
	w, err := d.client.createTVRequestTMDB(ctx, body)
	if err != nil {
		return nil, err
	}
	return engineMutation(w, "POST /api/v2/Requests/tv", kindTVChild, secrets)
}

// tvdbUnsupported refuses, before anything is sent, what Ombi's v1 TV
// route (the only TVDB create route) cannot honour:
//
//   - an override (language profile, root folder, quality profile): for a
//     show with no request yet the v1 engine builds the parent request
//     without any of them, so they are silently lost; for a show already
//     requested it overwrites the whole show's root folder and quality
//     profile (every child's, not only the new one's) and drops the
//     language profile;
//   - a request on behalf made by the API key's own principal: v1 allows
//     on-behalf only to an account in role PowerUser or Admin, and Ombi's
//     seeded API user holds no role (unlike v2, v1 does not special-case
//     it), so upstream would refuse.
//
// With a UserName header the named account's roles decide, as after a
// login: the request is sent and an upstream refusal is an error.
func (d *deps) tvdbUnsupported(in createInput) error {
	for _, o := range []struct {
		field, what     string
		set, overwrites bool
	}{
		{"language_profile_id", "language profile", in.LanguageProfile != nil, false},
		{"quality_profile_id", "quality profile", in.QualityProfileID != nil, true},
		{"root_folder_id", "root folder", in.RootFolderID != nil, true},
	} {
		if !o.set {
			continue
		}
		existing := "drops it for a show already requested too"
		if o.overwrites {
			existing = "overwrites the whole show's " + o.what + " for a show already requested"
		}
		return &unsupportedError{Field: "/" + o.field, Message: o.field + " cannot be honoured with provider tvdb: " +
			"Ombi's v1 TVDB request route drops it for a show with no request yet and " + existing + "; request the show by TMDB id (provider tmdb) instead"}
	}
	if in.OnBehalfUserID != "" && d.client.mode == AuthAPIKey && d.client.userName == "" {
		return &unsupportedError{Field: "/on_behalf_user_id", Message: "on_behalf_user_id cannot be honoured with provider tvdb in api_key mode: " +
			"Ombi's v1 TVDB request route lets only a PowerUser or Admin account request on behalf of users, and the API key's user holds no role there, so upstream would refuse; " +
			"request the show by TMDB id (provider tmdb) instead, whose route accepts the API key"}
	}
	return nil
}

// explicitEpisodes checks the episodes selection (distinct seasons,
// distinct non-empty episode lists, at most maxEpisodes) and maps it to
// the wire form.
func explicitEpisodes(in []selectionSeason) ([]seasonWire, error) {
	if len(in) == 0 {
		return nil, &argumentError{Field: "/selection/seasons", Message: "select at least one season"}
	}
	seen := map[int]bool{}
	total := 0
	out := make([]seasonWire, 0, len(in))
	for i, s := range in {
		field := fmt.Sprintf("/selection/seasons/%d", i)
		if seen[s.SeasonNumber] {
			return nil, &argumentError{Field: field + "/season_number", Message: fmt.Sprintf("season %d is selected twice", s.SeasonNumber)}
		}
		seen[s.SeasonNumber] = true
		if len(s.Episodes) == 0 {
			return nil, &argumentError{Field: field + "/episodes", Message: "an explicit, non-empty episode list is required (an empty list never means the whole season)"}
		}
		eps := map[int]bool{}
		sw := seasonWire{SeasonNumber: s.SeasonNumber, Episodes: make([]episodeWire, 0, len(s.Episodes))}
		for _, e := range s.Episodes {
			if eps[e] {
				return nil, &argumentError{Field: field + "/episodes", Message: fmt.Sprintf("episode %d of season %d is selected twice", e, s.SeasonNumber)}
			}
			eps[e] = true
			sw.Episodes = append(sw.Episodes, episodeWire{EpisodeNumber: e})
		}
		total += len(s.Episodes)
		if total > maxEpisodes {
			return nil, &argumentError{Field: "/selection/seasons", Message: fmt.Sprintf("more than %d episodes selected in one call", maxEpisodes)}
		}
		out = append(out, sw)
	}
	return out, nil
}

func distinctSeasons(ns []int) error {
	if len(ns) == 0 {
		return &argumentError{Field: "/selection/season_numbers", Message: "select at least one season"}
	}
	seen := map[int]bool{}
	for _, n := range ns {
		if seen[n] {
			return &argumentError{Field: "/selection/season_numbers", Message: fmt.Sprintf("season %d is selected twice", n)}
		}
		seen[n] = true
	}
	return nil
}

// expandSeasons reads the show's details once, in the same provider
// namespace (TMDB: v2 moviedb; TVDB: v1 tv/info), and expands each listed
// season to its explicit episode list. An unknown season or a season
// without episodes is INVALID_ARGUMENT, so no create call follows; the
// total is capped at maxEpisodes. The read is private and safe to retry
// after a re-login.
func (d *deps) expandSeasons(ctx context.Context, provider string, id int, numbers []int) ([]seasonWire, error) {
	var (
		w   wireMedia
		err error
	)
	if provider == "tvdb" {
		w, err = d.client.tvByTVDB(readOnly(ctx), id)
	} else {
		w, err = d.client.tvByTMDB(readOnly(ctx), id)
	}
	if err != nil {
		return nil, err
	}
	if w.SeasonRequests == nil {
		// No season list at all (absent or null) is not a show's details
		// answer; an empty list is a show without seasons.
		return nil, &schemaError{Op: "GET " + map[bool]string{true: "/api/v1/Search/tv/info/{tvdbId}", false: "/api/v2/Search/tv/moviedb/{moviedbid}"}[provider == "tvdb"],
			Reason: "the details answer carries no season list"}
	}
	bySeason := map[int][]int{}
	for _, s := range w.SeasonRequests {
		seen := map[int]bool{}
		for _, e := range s.Episodes {
			if e.EpisodeNumber >= 1 && !seen[e.EpisodeNumber] {
				seen[e.EpisodeNumber] = true
				bySeason[s.SeasonNumber] = append(bySeason[s.SeasonNumber], e.EpisodeNumber)
			}
		}
		if _, ok := bySeason[s.SeasonNumber]; !ok {
			bySeason[s.SeasonNumber] = nil
		}
	}
	out := make([]seasonWire, 0, len(numbers))
	total := 0
	for i, n := range numbers {
		eps, ok := bySeason[n]
		field := fmt.Sprintf("/selection/season_numbers/%d", i)
		if !ok {
			return nil, &argumentError{Field: field, Message: fmt.Sprintf("season %d does not exist for this show", n)}
		}
		if len(eps) == 0 {
			return nil, &argumentError{Field: field, Message: fmt.Sprintf("season %d has no known episodes; select episodes explicitly", n)}
		}
		total += len(eps)
		if total > maxEpisodes {
			return nil, &argumentError{Field: "/selection/season_numbers", Message: fmt.Sprintf("the selected seasons expand to more than %d episodes", maxEpisodes)}
		}
		sw := seasonWire{SeasonNumber: n, Episodes: make([]episodeWire, 0, len(eps))}
		for _, e := range eps {
			sw.Episodes = append(sw.Episodes, episodeWire{EpisodeNumber: e})
		}
		out = append(out, sw)
	}
	return out, nil
}

// ---- write_request_subscribe ----

type subscribeInput struct {
	Action    string `json:"action"`
	Media     string `json:"media"`
	RequestID int    `json:"request_id"`
}

// writeRequestSubscribe serves write_request_subscribe. TV ids are child
// request ids (the unit the TV request views carry subscribed on).
func writeRequestSubscribe(d *deps) tool {
	return tool{name: "write_request_subscribe", handle: func(ctx context.Context, c *call) (any, error) {
		var in subscribeInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		ok, err := d.client.subscribeRequest(ctx, in.Media, in.Action, in.RequestID)
		if err != nil {
			return nil, err
		}
		if err := trueAnswer(ok, "POST "+in.Media+" "+in.Action); err != nil {
			return nil, err
		}
		kind := kindMovie
		if in.Media == "tv" {
			kind = kindTVChild
		}
		return mutation{Kind: "mutation", Outcome: mutationCompleted, Target: &target{Kind: kind, ID: in.RequestID},
			RequestID: in.RequestID, UpstreamResult: ok}, nil
	}}
}

// ---- write_request_moderate ----

type moderateInput struct {
	Action    string `json:"action"`
	Media     string `json:"media"`
	RequestID int    `json:"request_id"`
	Is4K      bool   `json:"is_4k"`
	Reason    string `json:"reason"`
}

// writeRequestModerate serves write_request_moderate: approve, available
// and unavailable are POSTs, deny is a PUT for every media; a movie body is
// {id, is4K} (is4K, not creation's is4kRequest), TV (child id) and album
// bodies are {id}; deny adds the reason.
func writeRequestModerate(d *deps) tool {
	return tool{name: "write_request_moderate", handle: func(ctx context.Context, c *call) (any, error) {
		var in moderateInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		if in.Action == "deny" {
			if err := nonBlank("/reason", in.Reason); err != nil {
				return nil, err
			}
		}
		var (
			body any
			kind string
		)
		switch in.Media {
		case "movie":
			body, kind = movieModerationBody{ID: in.RequestID, Is4K: in.Is4K, Reason: in.Reason}, kindMovie
		case "tv":
			body, kind = moderationBody{ID: in.RequestID, Reason: in.Reason}, kindTVChild
		default:
			body, kind = moderationBody{ID: in.RequestID, Reason: in.Reason}, kindAlbum
		}
		w, err := d.client.moderateRequest(ctx, in.Media, in.Action, body)
		if err != nil {
			return nil, err
		}
		m, err := engineMutation(w, in.Action+" "+in.Media, "", d.client.secrets())
		if err != nil {
			return nil, err
		}
		m.RequestID, m.Target = in.RequestID, &target{Kind: kind, ID: in.RequestID}
		return m, nil
	}}
}

// ---- write_request_delete ----

type deleteInput struct {
	Kind      string `json:"kind"`
	RequestID int    `json:"request_id"`
}

// writeRequestDelete serves write_request_delete: one explicit movie,
// album, TV parent (with all its children) or TV child request.
func writeRequestDelete(d *deps) tool {
	return tool{name: "write_request_delete", handle: func(ctx context.Context, c *call) (any, error) {
		var in deleteInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		t := &target{Kind: in.Kind, ID: in.RequestID}
		if in.Kind == kindTVParent {
			if err := d.client.deleteTVParent(ctx, in.RequestID); err != nil {
				return nil, err
			}
			return mutation{Kind: "mutation", Outcome: mutationCompleted, Target: t, RequestID: in.RequestID,
				Message: "the TV parent request and all of its child requests were deleted"}, nil
		}
		w, err := d.client.deleteRequest(ctx, in.Kind, in.RequestID)
		if err != nil {
			return nil, err
		}
		m, err := engineMutation(w, "DELETE "+in.Kind, "", d.client.secrets())
		if err != nil {
			return nil, err
		}
		m.RequestID, m.Target = in.RequestID, t
		return m, nil
	}}
}

// ---- write_request_options ----

type optionsInput struct {
	Action           string `json:"action"`
	RequestID        int    `json:"request_id"`
	ParentRequestID  int    `json:"parent_request_id"`
	RootFolderID     *int   `json:"root_folder_id"`
	QualityProfileID *int   `json:"quality_profile_id"`
	LanguageProfile  *int   `json:"language_profile_id"`
}

// writeRequestOptions serves write_request_options. Upstream replaces every
// advanced option (an omitted one becomes 0), so the advanced branches read
// the current request first and carry omitted values over; if that read
// fails the call is refused. TV root and quality are PUTs with both ids in
// the path and no body.
func writeRequestOptions(d *deps) tool {
	return tool{name: "write_request_options", handle: func(ctx context.Context, c *call) (any, error) {
		var in optionsInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		cl, secrets := d.client, d.client.secrets()
		switch in.Action {
		case "movie_advanced":
			cur, err := cl.movieRequest(readOnly(ctx), in.RequestID)
			if err != nil {
				return nil, err
			}
			body := advancedOptionsBody{RequestID: in.RequestID,
				RootPathOverride: carryOver(in.RootFolderID, cur.RootPathOverride), QualityOverride: carryOver(in.QualityProfileID, cur.QualityOverride)}
			w, err := cl.advancedOptions(ctx, "movie", body)
			if err != nil {
				return nil, err
			}
			m, err := engineMutation(w, "POST /api/v2/Requests/movie/advancedoptions", "", secrets)
			if err != nil {
				return nil, err
			}
			m.RequestID, m.Target = in.RequestID, &target{Kind: kindMovie, ID: in.RequestID}
			return m, nil
		case "tv_advanced":
			cur, err := cl.tvParentRequest(readOnly(ctx), in.ParentRequestID)
			if err != nil {
				return nil, err
			}
			lang := carryOver(in.LanguageProfile, cur.LanguageProfile)
			body := advancedOptionsBody{RequestID: in.ParentRequestID,
				RootPathOverride: carryOver(in.RootFolderID, cur.RootFolder), QualityOverride: carryOver(in.QualityProfileID, cur.QualityOverride),
				LanguageProfile: &lang}
			w, err := cl.advancedOptions(ctx, "tv", body)
			if err != nil {
				return nil, err
			}
			m, err := engineMutation(w, "POST /api/v2/Requests/tv/advancedoptions", "", secrets)
			if err != nil {
				return nil, err
			}
			m.RequestID, m.Target = in.ParentRequestID, &target{Kind: kindTVParent, ID: in.ParentRequestID}
			return m, nil
		case "tv_root", "tv_quality":
			which, value := "root", in.RootFolderID
			if in.Action == "tv_quality" {
				which, value = "quality", in.QualityProfileID
			}
			if value == nil {
				return nil, &argumentError{Field: "/" + map[string]string{"root": "root_folder_id", "quality": "quality_profile_id"}[which], Message: "required"}
			}
			ok, err := cl.tvRootOrQuality(ctx, which, in.ParentRequestID, *value)
			if err != nil {
				return nil, err
			}
			if err := trueAnswer(ok, "PUT /api/v1/Request/tv/"+which); err != nil {
				return nil, err
			}
			return mutation{Kind: "mutation", Outcome: mutationCompleted, Target: &target{Kind: kindTVParent, ID: in.ParentRequestID},
				RequestID: in.ParentRequestID, UpstreamResult: ok}, nil
		}
		return nil, &unsupportedError{Message: "write_request_options: unknown action"}
	}}
}

// carryOver returns the given value, else the current one, else 0 (no
// override).
func carryOver(given, current *int) int {
	switch {
	case given != nil:
		return *given
	case current != nil:
		return *current
	}
	return 0
}

// ---- write_request_reprocess ----

type reprocessInput struct {
	RequestType string `json:"request_type"`
	RequestID   int    `json:"request_id"`
	Is4K        bool   `json:"is_4k"`
}

// writeRequestReprocess serves write_request_reprocess. Album is refused
// before any traffic (the upstream reprocess switch answers 400, input
// outline C14); is_4k applies to movies only.
func writeRequestReprocess(d *deps) tool {
	return tool{name: "write_request_reprocess", handle: func(ctx context.Context, c *call) (any, error) {
		var in reprocessInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		if in.RequestType == "album" {
			return nil, &unsupportedError{Message: "album requests cannot be reprocessed: the upstream reprocess route rejects the album type"}
		}
		if in.Is4K && in.RequestType != "movie" {
			return nil, &argumentError{Field: "/is_4k", Message: "is_4k applies to movie requests only"}
		}
		typ, err := enumCode(enumRequestType, "/request_type", in.RequestType)
		if err != nil {
			return nil, err
		}
		w, err := d.client.reprocessRequest(ctx, typ, in.RequestID, in.Is4K)
		if err != nil {
			return nil, err
		}
		m, err := engineMutation(w, "POST /api/v2/Requests/reprocess/{type}/{requestId}/{is4K}", "", d.client.secrets())
		if err != nil {
			return nil, err
		}
		kind := kindMovie
		if in.RequestType == "tv" {
			kind = kindTVChild
		}
		m.RequestID, m.Target = in.RequestID, &target{Kind: kind, ID: in.RequestID}
		return m, nil
	}}
}

package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file serves the request writes: write_request_create,
// write_request_subscribe, write_request_moderate, write_request_delete,
// write_request_options and write_request_reprocess. Every write is sent
// once: the client never replays it (a lost answer is UNKNOWN_OUTCOME).

// ---- mutation ----

// engineMutation reads a RequestEngineResult: isError, a non-null
// errorCode or result:false is a business failure (HTTP 200 is not
// success); an answer carrying neither result nor isError is not the
// expected shape. A success never invents an id: request_id and target
// appear only when upstream returned a positive requestId and kind is set.
func engineMutation(w ombi.EngineResult, op, kind string, secrets []string) (mutation, error) {
	code := engineErrorCode(w.ErrorCode)
	failed := (w.IsError != nil && *w.IsError) || (w.Result != nil && !*w.Result) || code != ""
	if failed {
		msg := sanitizeMessage(w.ErrorMessage, secrets...)
		if msg == "" {
			msg = sanitizeMessage(w.Message, secrets...)
		}
		return mutation{}, &ombi.BusinessError{Code: sanitizeMessage(code, secrets...), Message: msg}
	}
	if w.Result == nil && w.IsError == nil {
		return mutation{}, &ombi.SchemaError{Op: op, Reason: "the answer carries neither result nor isError"}
	}
	m := mutation{Kind: "mutation", Outcome: mutationCompleted, UpstreamResult: w.Result, UpstreamIsError: w.IsError,
		Message: sanitizeMessage(w.Message, secrets...)}
	if id := w.RequestID.Positive(); id > 0 && kind != "" {
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
		return &ombi.SchemaError{Op: op, Reason: "no boolean in the answer"}
	case !*b:
		return &ombi.BusinessError{Message: "upstream answered false"}
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
		cl, secrets := d.client, d.client.Secrets()
		switch in.Action {
		case "movie":
			w, err := cl.CreateMovieRequest(ctx, ombi.MovieRequestBody{
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
				if cl.AuthMode() != AuthAPIKey {
					return nil, &unsupportedError{Message: "requested_by_alias is honoured upstream only with an API key (ApiAlias header); this server logs in with a user, so the alias would be dropped"}
				}
			}
			w, err := cl.CreateAlbumRequest(ctx, ombi.AlbumRequestBody{ForeignAlbumID: in.MusicBrainzID, RequestedByAlias: in.RequestedByAlias})
			if err != nil {
				return nil, err
			}
			return engineMutation(w, "POST /api/v1/request/music", kindAlbum, secrets)
		case "collection":
			w, err := cl.CreateCollectionRequest(ctx, in.CollectionID)
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
		return nil, &ombi.ArgumentError{Field: "/selection", Message: "a selection is required"}
	}
	if in.Provider == "tvdb" {
		if err := d.tvdbUnsupported(in); err != nil {
			return nil, err
		}
	}
	body := ombi.TVRequestBody{
		LanguageProfile: in.LanguageProfile, RootFolderOverride: in.RootFolderID,
		QualityPathOverride: in.QualityProfileID, RequestOnBehalf: in.OnBehalfUserID, Seasons: []ombi.SeasonWire{},
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
		return nil, &ombi.ArgumentError{Field: "/selection/mode", Message: "unknown selection mode"}
	}
	secrets := d.client.Secrets()
	if in.Provider == "tvdb" {
		body.TvDbID = in.ID
		w, err := d.client.CreateTVRequestTVDB(ctx, body)
		if err != nil {
			return nil, err
		}
		return engineMutation(w, "POST /api/v1/Request/tv", kindTVChild, secrets)
	}
	body.TheMovieDbID, body.LanguageCode = in.ID, in.Language
	w, err := d.client.CreateTVRequestTMDB(ctx, body)
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
	if in.OnBehalfUserID != "" && d.client.AuthMode() == AuthAPIKey && d.client.ActsAs() == "" {
		return &unsupportedError{Field: "/on_behalf_user_id", Message: "on_behalf_user_id cannot be honoured with provider tvdb in api_key mode: " +
			"Ombi's v1 TVDB request route lets only a PowerUser or Admin account request on behalf of users, and the API key's user holds no role there, so upstream would refuse; " +
			"request the show by TMDB id (provider tmdb) instead, whose route accepts the API key"}
	}
	return nil
}

// explicitEpisodes checks the episodes selection (distinct seasons,
// distinct non-empty episode lists, at most maxEpisodes) and maps it to
// the wire form.
func explicitEpisodes(in []selectionSeason) ([]ombi.SeasonWire, error) {
	if len(in) == 0 {
		return nil, &ombi.ArgumentError{Field: "/selection/seasons", Message: "select at least one season"}
	}
	seen := map[int]bool{}
	total := 0
	out := make([]ombi.SeasonWire, 0, len(in))
	for i, s := range in {
		field := fmt.Sprintf("/selection/seasons/%d", i)
		if seen[s.SeasonNumber] {
			return nil, &ombi.ArgumentError{Field: field + "/season_number", Message: fmt.Sprintf("season %d is selected twice", s.SeasonNumber)}
		}
		seen[s.SeasonNumber] = true
		if len(s.Episodes) == 0 {
			return nil, &ombi.ArgumentError{Field: field + "/episodes", Message: "an explicit, non-empty episode list is required (an empty list never means the whole season)"}
		}
		eps := map[int]bool{}
		sw := ombi.SeasonWire{SeasonNumber: s.SeasonNumber, Episodes: make([]ombi.EpisodeWire, 0, len(s.Episodes))}
		for _, e := range s.Episodes {
			if eps[e] {
				return nil, &ombi.ArgumentError{Field: field + "/episodes", Message: fmt.Sprintf("episode %d of season %d is selected twice", e, s.SeasonNumber)}
			}
			eps[e] = true
			sw.Episodes = append(sw.Episodes, ombi.EpisodeWire{EpisodeNumber: e})
		}
		total += len(s.Episodes)
		if total > maxEpisodes {
			return nil, &ombi.ArgumentError{Field: "/selection/seasons", Message: fmt.Sprintf("more than %d episodes selected in one call", maxEpisodes)}
		}
		out = append(out, sw)
	}
	return out, nil
}

func distinctSeasons(ns []int) error {
	if len(ns) == 0 {
		return &ombi.ArgumentError{Field: "/selection/season_numbers", Message: "select at least one season"}
	}
	seen := map[int]bool{}
	for _, n := range ns {
		if seen[n] {
			return &ombi.ArgumentError{Field: "/selection/season_numbers", Message: fmt.Sprintf("season %d is selected twice", n)}
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
func (d *deps) expandSeasons(ctx context.Context, provider string, id int, numbers []int) ([]ombi.SeasonWire, error) {
	var (
		w   ombi.Media
		err error
	)
	if provider == "tvdb" {
		w, err = d.client.TVByTVDB(ombi.ReadOnly(ctx), id)
	} else {
		w, err = d.client.TVByTMDB(ombi.ReadOnly(ctx), id)
	}
	if err != nil {
		return nil, err
	}
	if w.SeasonRequests == nil {
		// No season list at all (absent or null) is not a show's details
		// answer; an empty list is a show without seasons.
		return nil, &ombi.SchemaError{Op: "GET " + map[bool]string{true: "/api/v1/Search/tv/info/{tvdbId}", false: "/api/v2/Search/tv/moviedb/{moviedbid}"}[provider == "tvdb"],
			Reason: "the details answer carries no season list"}
	}
	bySeason := map[int][]int{}
	seen := map[[2]int]bool{} // a season upstream lists twice is one season
	for _, s := range w.SeasonRequests {
		for _, e := range s.Episodes {
			if e.EpisodeNumber >= 1 && !seen[[2]int{s.SeasonNumber, e.EpisodeNumber}] {
				seen[[2]int{s.SeasonNumber, e.EpisodeNumber}] = true
				bySeason[s.SeasonNumber] = append(bySeason[s.SeasonNumber], e.EpisodeNumber)
			}
		}
		if _, ok := bySeason[s.SeasonNumber]; !ok {
			bySeason[s.SeasonNumber] = nil
		}
	}
	out := make([]ombi.SeasonWire, 0, len(numbers))
	total := 0
	for i, n := range numbers {
		eps, ok := bySeason[n]
		field := fmt.Sprintf("/selection/season_numbers/%d", i)
		if !ok {
			return nil, &ombi.ArgumentError{Field: field, Message: fmt.Sprintf("season %d does not exist for this show", n)}
		}
		if len(eps) == 0 {
			return nil, &ombi.ArgumentError{Field: field, Message: fmt.Sprintf("season %d has no known episodes; select episodes explicitly", n)}
		}
		total += len(eps)
		if total > maxEpisodes {
			return nil, &ombi.ArgumentError{Field: "/selection/season_numbers", Message: fmt.Sprintf("the selected seasons expand to more than %d episodes", maxEpisodes)}
		}
		sw := ombi.SeasonWire{SeasonNumber: n, Episodes: make([]ombi.EpisodeWire, 0, len(eps))}
		for _, e := range eps {
			sw.Episodes = append(sw.Episodes, ombi.EpisodeWire{EpisodeNumber: e})
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
		ok, err := d.client.SubscribeRequest(ctx, in.Media, in.Action, in.RequestID)
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
			body, kind = ombi.MovieModerationBody{ID: in.RequestID, Is4K: in.Is4K, Reason: in.Reason}, kindMovie
		case "tv":
			body, kind = ombi.ModerationBody{ID: in.RequestID, Reason: in.Reason}, kindTVChild
		default:
			body, kind = ombi.ModerationBody{ID: in.RequestID, Reason: in.Reason}, kindAlbum
		}
		w, err := d.client.ModerateRequest(ctx, in.Media, in.Action, body)
		if err != nil {
			return nil, err
		}
		m, err := engineMutation(w, in.Action+" "+in.Media, "", d.client.Secrets())
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
			if err := d.client.DeleteTVParent(ctx, in.RequestID); err != nil {
				return nil, err
			}
			return mutation{Kind: "mutation", Outcome: mutationCompleted, Target: t, RequestID: in.RequestID,
				Message: "the TV parent request and all of its child requests were deleted"}, nil
		}
		w, err := d.client.DeleteRequest(ctx, in.Kind, in.RequestID)
		if err != nil {
			return nil, err
		}
		m, err := engineMutation(w, "DELETE "+in.Kind, "", d.client.Secrets())
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
		cl, secrets := d.client, d.client.Secrets()
		switch in.Action {
		case "movie_advanced":
			cur, err := cl.MovieRequest(ombi.ReadOnly(ctx), in.RequestID)
			if err != nil {
				return nil, err
			}
			body := ombi.AdvancedOptionsBody{RequestID: in.RequestID,
				RootPathOverride: carryOver(in.RootFolderID, cur.RootPathOverride), QualityOverride: carryOver(in.QualityProfileID, cur.QualityOverride)}
			w, err := cl.AdvancedOptions(ctx, "movie", body)
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
			cur, err := cl.TVParentRequest(ombi.ReadOnly(ctx), in.ParentRequestID)
			if err != nil {
				return nil, err
			}
			lang := carryOver(in.LanguageProfile, cur.LanguageProfile)
			body := ombi.AdvancedOptionsBody{RequestID: in.ParentRequestID,
				RootPathOverride: carryOver(in.RootFolderID, cur.RootFolder), QualityOverride: carryOver(in.QualityProfileID, cur.QualityOverride),
				LanguageProfile: &lang}
			w, err := cl.AdvancedOptions(ctx, "tv", body)
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
				return nil, &ombi.ArgumentError{Field: "/" + map[string]string{"root": "root_folder_id", "quality": "quality_profile_id"}[which], Message: "required"}
			}
			ok, err := cl.TVRootOrQuality(ctx, which, in.ParentRequestID, *value)
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
			return nil, &ombi.ArgumentError{Field: "/is_4k", Message: "is_4k applies to movie requests only"}
		}
		typ, err := enumCode(enumRequestType, "/request_type", in.RequestType)
		if err != nil {
			return nil, err
		}
		w, err := d.client.ReprocessRequest(ctx, typ, in.RequestID, in.Is4K)
		if err != nil {
			return nil, err
		}
		m, err := engineMutation(w, "POST /api/v2/Requests/reprocess/{type}/{requestId}/{is4K}", "", d.client.Secrets())
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

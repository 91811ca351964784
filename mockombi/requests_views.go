package mockombi

import (
	"maps"
	"time"
)

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
		"issueId":        m.IssueID, "issues": nil, "subscribed": st.requests.subscribed(p, requestTypeMovie, m.ID),
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

// childViewOpts choose what childView adds to a TV child; the zero value
// adds neither.
type childViewOpts struct {
	// Parent adds parentRequest, whose childRequests hold the siblings (the
	// loop back to this child dropped as Newtonsoft's
	// ReferenceLoopHandling.Ignore does), projected with the same Seasons.
	Parent bool
	// Seasons fills seasonRequests with the child's episodes; else [].
	Seasons bool
	// Loaded, with Parent, says which siblings the query loaded (EF fixes
	// up only tracked children into parentRequest.childRequests); nil: all.
	Loaded func(*childRequest) bool
}

// childView projects ChildRequests, with what o adds.
func (st *store) childView(c *childRequest, p *principal, o childViewOpts) map[string]any {
	v := st.baseView(&c.reqBase, requestTypeTV, p)
	seasons := []map[string]any{}
	if o.Seasons {
		seasons = seasonRequestViews(c)
	}
	maps.Copy(v, map[string]any{
		"parentRequestId": c.ParentRequestID, "issueId": c.IssueID, "seriesType": c.SeriesType,
		"subscribed":  st.requests.subscribed(p, requestTypeTV, c.ID) || st.requests.subscribed(p, requestTypeTV, c.ParentRequestID),
		"releaseYear": c.ReleaseYear, "issues": nil, "seasonRequests": seasons,
		"requestedUserPlayedProgress": c.RequestedUserPlayedProgress,
	})
	if o.Parent {
		if pr := st.requests.parentByID(c.ParentRequestID); pr != nil {
			pv := st.parentFields(pr)
			sib := []map[string]any{}
			for _, other := range st.requests.childrenOf(pr.ID) {
				if other.ID != c.ID && (o.Loaded == nil || o.Loaded(other)) {
					sib = append(sib, st.childView(other, p, childViewOpts{Seasons: o.Seasons}))
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
		kids = append(kids, st.childView(c, p, childViewOpts{Seasons: !lite}))
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

package mockombi

import (
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// baseView projects BaseRequest.
func (st *store) baseView(b *db.ReqBase, typ int, p *principal) state.BaseRequest {
	var user *state.OmbiUser
	if acc := st.Users.ByID(b.RequestedUserID); acc != nil {
		user = acc.OmbiUser()
	}
	return state.BaseRequest{
		ID: b.ID, Title: b.Title, Approved: b.Approved, MarkedAsApproved: b.MarkedAsApproved,
		RequestedDate: b.RequestedDate, Available: b.Available, MarkedAsAvailable: b.MarkedAsAvailable,
		RequestedUserID: b.RequestedUserID, Denied: b.Denied, MarkedAsDenied: b.MarkedAsDenied,
		DeniedReason: db.NilIfEmpty(b.DeniedReason), RequestType: typ, RequestedByAlias: db.NilIfEmpty(b.RequestedByAlias),
		RequestedUser: user, Source: b.Source, CanApprove: !b.Approved && !b.Available,
		RequestStatus: b.Status(), ShowSubscribe: p != nil && p.id != b.RequestedUserID,
	}
}

// movieRequestView projects MovieRequests.
func (st *store) movieRequestView(m *db.MovieRequest, p *principal) *state.MovieRequests {
	now := st.Now()
	comb := 0
	if m.Has4KRequest {
		comb = 1
		if m.Approved || m.Available || !m.RequestedDate.IsZero() && !m.Is4kRequest {
			comb = 2
		}
	}
	return &state.MovieRequests{
		BaseRequest:  st.baseView(&m.ReqBase, db.RequestTypeMovie, p),
		TheMovieDbID: m.TheMovieDbID, ImdbID: db.NilIfEmpty(m.ImdbID), Overview: m.Overview, PosterPath: m.PosterPath,
		Background: m.Background, ReleaseDate: m.ReleaseDate, DigitalReleaseDate: m.DigitalReleaseDate,
		Status: m.Status, Released: !m.ReleaseDate.After(now),
		DigitalRelease: m.DigitalReleaseDate != nil && !m.DigitalReleaseDate.After(now),
		IssueID:        m.IssueID, Subscribed: st.subscribed(p, db.RequestTypeMovie, m.ID),
		Is4kRequest: m.Is4kRequest, RootPathOverride: m.RootPathOverride, QualityOverride: m.QualityOverride,
		Has4KRequest: m.Has4KRequest, Approved4K: m.Approved4K, MarkedAsApproved4K: m.MarkedAsApproved4K,
		RequestedDate4k: m.RequestedDate4k, Available4K: m.Available4K, MarkedAsAvailable4K: m.MarkedAsAvailable4K,
		Denied4K: m.Denied4K, MarkedAsDenied4K: m.MarkedAsDenied4K, DeniedReason4K: db.NilIfEmpty(m.DeniedReason4K),
		RequestCombination: comb, LangCode: db.NilIfEmpty(m.LangCode),
		WatchedByRequestedUser: m.WatchedByRequestedUser, PlayedByUsersCount: m.PlayedByUsersCount,
		Extra: m.Extra,
	}
}

// seasonRequestViews projects a child's SeasonRequests.
func seasonRequestViews(c *db.ChildRequest) []*state.SeasonRequests {
	out := []*state.SeasonRequests{}
	for _, s := range c.SeasonRequests {
		eps := []*state.EpisodeRequests{}
		for _, e := range s.Episodes {
			eps = append(eps, &state.EpisodeRequests{
				ID: e.ID, EpisodeNumber: e.EpisodeNumber, Title: e.Title, AirDate: e.AirDate, URL: e.URL,
				Available: e.Available, Approved: e.Approved, Requested: e.Requested, Denied: e.Denied,
				DeniedReason: db.NilIfEmpty(e.DeniedReason), SeasonID: e.SeasonID,
				AirDateDisplay: airDateDisplay(e.AirDate.Format(time.RFC3339)), RequestStatus: episodeStatus(e),
				Extra: e.Extra,
			})
		}
		out = append(out, &state.SeasonRequests{ID: s.ID, SeasonNumber: s.SeasonNumber, Overview: s.Overview,
			Episodes: eps, ChildRequestID: c.ID, SeasonAvailable: s.SeasonAvailable, Extra: s.Extra})
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
	Loaded func(*db.ChildRequest) bool
}

// childView projects ChildRequests, with what o adds.
func (st *store) childView(c *db.ChildRequest, p *principal, o childViewOpts) *state.ChildRequests {
	v := &state.ChildRequests{
		BaseRequest:     st.baseView(&c.ReqBase, db.RequestTypeTV, p),
		ParentRequestID: c.ParentRequestID, IssueID: c.IssueID, SeriesType: c.SeriesType,
		Subscribed:  st.subscribed(p, db.RequestTypeTV, c.ID) || st.subscribed(p, db.RequestTypeTV, c.ParentRequestID),
		ReleaseYear: c.ReleaseYear, SeasonRequests: []*state.SeasonRequests{},
		RequestedUserPlayedProgress: c.RequestedUserPlayedProgress,
		Extra:                       c.Extra,
	}
	if o.Seasons {
		v.SeasonRequests = seasonRequestViews(c)
	}
	if o.Parent {
		if pr := st.Requests.ParentByID(c.ParentRequestID); pr != nil {
			v.ParentRequest = parentFields(pr)
			for _, other := range st.Requests.ChildrenOf(pr.ID) {
				if other.ID != c.ID && (o.Loaded == nil || o.Loaded(other)) {
					v.ParentRequest.ChildRequests = append(v.ParentRequest.ChildRequests, st.childView(other, p, childViewOpts{Seasons: o.Seasons}))
				}
			}
		}
	}
	return v
}

// parentFields projects TvRequests with no children yet ([]).
func parentFields(pr *db.TvParent) *state.TvRequests {
	return &state.TvRequests{
		ID: pr.ID, TvDbID: pr.TvDbID, ExternalProviderID: pr.ExternalProviderID, ImdbID: db.NilIfEmpty(pr.ImdbID),
		QualityOverride: pr.QualityOverride, RootFolder: pr.RootFolder, LanguageProfile: pr.LanguageProfile,
		Overview: pr.Overview, Title: pr.Title, PosterPath: pr.PosterPath, Background: pr.Background,
		ReleaseDate: pr.ReleaseDate, Status: pr.Status, TotalSeasons: pr.TotalSeasons,
		ChildRequests: []*state.ChildRequests{}, Extra: pr.Extra,
	}
}

// parentView projects TvRequests with its children (seasons unless lite).
func (st *store) parentView(pr *db.TvParent, p *principal, lite bool) *state.TvRequests {
	v := parentFields(pr)
	for _, c := range st.Requests.ChildrenOf(pr.ID) {
		v.ChildRequests = append(v.ChildRequests, st.childView(c, p, childViewOpts{Seasons: !lite}))
	}
	return v
}

// albumRequestView projects AlbumRequest.
func (st *store) albumRequestView(a *db.AlbumRequest, p *principal) *state.AlbumRequest {
	return &state.AlbumRequest{
		BaseRequest:    st.baseView(&a.ReqBase, db.RequestTypeAlbum, p),
		ForeignAlbumID: a.ForeignAlbumID, ForeignArtistID: a.ForeignArtistID, Disk: a.Disk, Cover: a.Cover,
		Rating: a.Rating, ReleaseDate: a.ReleaseDate, ArtistName: a.ArtistName,
		Subscribed: st.subscribed(p, db.RequestTypeAlbum, a.ID),
		Extra:      a.Extra,
	}
}

// engineOK is a successful RequestEngineResult.
func engineOK(message string, requestID int) *state.RequestEngineResult {
	return &state.RequestEngineResult{Result: true, Message: db.NilIfEmpty(message), RequestID: requestID}
}

// engineFail is a failed RequestEngineResult (HTTP 200 upstream).
func engineFail(code, message string) *state.RequestEngineResult {
	return &state.RequestEngineResult{IsError: true, ErrorMessage: &message, ErrorCode: db.NilIfEmpty(code)}
}

// tryAgain is the failed RequestEngineResult of a movie or album the
// catalogue does not know.
func tryAgain(message string) *state.RequestEngineResult {
	return &state.RequestEngineResult{Message: &message, IsError: true, ErrorMessage: ref("Please try again later")}
}

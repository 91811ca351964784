package mockombi

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// requester resolves who a new request belongs to: the on-behalf user id
// when allowed, else the caller (the system user Api for a bare API key). It
// returns the failed engine result Ombi gives when on-behalf or overrides are
// not allowed; only the TV engine sets an errorCode on those.
func (st *store) requester(p *principal, onBehalf string, overrides bool, typ int) (string, *state.RequestEngineResult) {
	deny := func(code, msg string) *state.RequestEngineResult {
		res := engineFail("", msg)
		res.Message = &msg
		if typ == db.RequestTypeTV {
			res.ErrorCode = &code
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
	if acc := st.Users.ByID(p.id); acc != nil {
		return acc.ID, nil
	}
	return st.Users.ByName(db.SystemUserName).ID, nil
}

// accountInRole reports whether the caller's stored account holds one of
// roles, as UserManager.IsInRoleAsync does. Unlike principal.inRole it
// grants the API principal nothing: the seeded system account (Api) holds
// no role, whatever the ApiKey middleware puts in the principal's claims.
func (st *store) accountInRole(p *principal, roles ...string) bool {
	if p == nil {
		return false
	}
	acc := st.Users.ByID(p.id)
	if acc == nil {
		return false
	}
	for _, r := range roles {
		if slices.Contains(acc.Roles, r) {
			return true
		}
	}
	return false
}

// canRequest reports the role check of a request type.
func canRequest(p *principal, typ int) bool {
	if p.inRole(db.OmbiRoleAdmin) {
		return true
	}
	switch typ {
	case db.RequestTypeMovie:
		return p.inRole(db.OmbiRoleRequestMovie) || p.inRole(db.OmbiRoleAutoApproveMovie)
	case db.RequestTypeTV:
		return p.inRole(db.OmbiRoleRequestTV) || p.inRole(db.OmbiRoleAutoApproveTV)
	}
	return p.inRole(db.OmbiRoleRequestMusic) || p.inRole(db.OmbiRoleAutoApproveMusic)
}

// autoApproves reports whether requests of typ by p are approved at once.
func autoApproves(p *principal, typ int) bool {
	if p.inRole(db.OmbiRoleAdmin) {
		return true
	}
	switch typ {
	case db.RequestTypeMovie:
		return p.inRole(db.OmbiRoleAutoApproveMovie)
	case db.RequestTypeTV:
		return p.inRole(db.OmbiRoleAutoApproveTV)
	}
	return p.inRole(db.OmbiRoleAutoApproveMusic)
}

// alias is the ApiAlias header value, honoured with an API key only.
func alias(p *principal) string {
	if p != nil && p.apiKey {
		return p.alias
	}
	return ""
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
	var out *state.RequestEngineResult
	s.store.Write(func(st *store) { out = st.createMovie(principalOf(r), in) })
	writeJSON(w, http.StatusOK, out)
}

// createMovie runs Ombi's movie request rules and stores the request.
func (st *store) createMovie(p *principal, in movieCreate) *state.RequestEngineResult {
	mv := st.Search.Movie(in.TheMovieDbID)
	if mv == nil {
		return tryAgain("There was an issue adding this movie!")
	}
	userID, fail := st.requester(p, in.RequestOnBehalf, in.RootFolderOverride != nil || in.QualityPathOverride != nil, db.RequestTypeMovie)
	if fail != nil {
		return fail
	}
	if !canRequest(p, db.RequestTypeMovie) {
		return engineFail(errNoPermissionsMovie, "You do not have permissions to Request a Movie")
	}
	full := fmt.Sprintf("%s (%d)", mv.Title, mv.Year())
	now := st.Now().UTC()
	// with the Movie4KRequests feature off, a 4K request is an ordinary one
	fourKOn := st.featureEnabled("Movie4KRequests")
	is4K := in.Is4kRequest && fourKOn
	existing := st.Requests.MovieByTMDB(mv.TheMovieDbID)
	if existing != nil {
		dup := !existing.RequestedDate.IsZero() || !fourKOn && existing.Has4KRequest
		if is4K {
			dup = existing.Has4KRequest
		}
		if dup {
			return engineFail(errAlreadyRequested, fmt.Sprintf("%q has already been requested", mv.Title))
		}
	}
	if !st.quotaLeft(userID, db.RequestTypeMovie, 1) {
		return engineFail(errMovieQuotaExceeded, "You have exceeded your Movie request quota!")
	}
	approve := autoApproves(p, db.RequestTypeMovie)
	m := existing
	if m == nil {
		lang := in.LanguageCode
		if lang == "" {
			lang = "en"
		}
		m = &db.MovieRequest{
			ReqBase: db.ReqBase{ID: st.NextID("movieRequest"), Title: mv.Title, RequestedUserID: userID,
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
		st.Requests.Movies = append(st.Requests.Movies, m)
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
	for _, f := range st.Settings.Features {
		if f != nil && f.Name != nil && *f.Name == name {
			return f.Enabled
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
	var out *state.RequestEngineResult
	s.store.Write(func(st *store) { out = st.createTV(principalOf(r), in, st.Search.ShowByTMDB(in.TheMovieDbID), false) })
	writeJSON(w, http.StatusOK, out)
}

// requestTVCreateV1 is POST /api/v1/Request/tv (TVDB id, obsolete upstream).
// Its engine (TvRequestEngine.RequestTvShow(TvRequestViewModel)) differs
// from v2's: on-behalf is allowed only to an account in role PowerUser or
// Admin, judged by the stored account (the API key's system account holds
// no role, so a bare API key is refused), the refusal carries no
// errorCode, and there is no permission check on the overrides; a new
// show's parent is built without root folder, quality or language profile
// (TvShowRequestBuilder.CreateNewRequest(TvRequestViewModel)), and for a
// show already requested a positive root folder or quality overwrites the
// parent's while the language profile is dropped (AddExistingRequest).
func (s *Server) requestTVCreateV1(w http.ResponseWriter, r *http.Request) {
	var in tvCreate
	if !decodeBody(w, r, &in) {
		return
	}
	var out *state.RequestEngineResult
	v1 := s.quirk(QuirkTVV1Engine)
	s.store.Write(func(st *store) { out = st.createTV(principalOf(r), in, st.Search.ShowByTVDB(in.TvDbID), v1) })
	writeJSON(w, http.StatusOK, out)
}

// createTV runs Ombi's TV request rules: it picks the episodes, drops those
// already requested, and stores a child (plus the parent on first request).
// Rule failures carry no errorCode on the TV path, as upstream drops it.
// v1 is the TVDB route, with the engine differences requestTVCreateV1 lists.
func (st *store) createTV(p *principal, in tvCreate, sh *db.CatalogShow, v1 bool) *state.RequestEngineResult {
	overrides := in.RootFolderOverride != nil || in.QualityPathOverride != nil || in.LanguageProfile != nil
	if v1 {
		if in.RequestOnBehalf != "" && !st.accountInRole(p, db.OmbiRolePowerUser, db.OmbiRoleAdmin) {
			const msg = "You do not have the correct permissions to request on behalf of users!"
			res := engineFail("", msg)
			res.Message = ref(msg)
			return res
		}
		overrides = false
	}
	userID, fail := st.requester(p, in.RequestOnBehalf, overrides, db.RequestTypeTV)
	if fail != nil {
		return fail
	}
	if sh == nil {
		panic(msgNullReference) // the show builder dereferences TMDB's empty answer
	}
	want := map[int][]int{}
	var regular []db.CatalogSeason
	for _, s := range sh.Seasons {
		if s.SeasonNumber > 0 {
			regular = append(regular, s)
		}
	}
	addSeason := func(s db.CatalogSeason) {
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
				if sh.Episode(s.SeasonNumber, e.EpisodeNumber) != nil && !slices.Contains(want[s.SeasonNumber], e.EpisodeNumber) {
					want[s.SeasonNumber] = append(want[s.SeasonNumber], e.EpisodeNumber)
				}
			}
		}
	}
	if !canRequest(p, db.RequestTypeTV) {
		return engineFail("", "You do not have permissions to Request a TV Show")
	}
	parent := st.Requests.ParentByTMDB(sh.TheMovieDbID)
	drop := func(children []*db.ChildRequest) int {
		left := 0
		for sn, eps := range want {
			want[sn] = slices.DeleteFunc(eps, func(e int) bool {
				for _, c := range children {
					for _, s := range c.SeasonRequests {
						if s.SeasonNumber == sn && slices.ContainsFunc(s.Episodes, func(x *db.EpisodeRequest) bool { return x.EpisodeNumber == e }) {
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
	var kids []*db.ChildRequest
	if parent != nil {
		kids = st.Requests.ChildrenOf(parent.ID)
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
	if !st.quotaLeft(userID, db.RequestTypeTV, total) {
		return engineFail("", "You have exceeded your Episode request quota!")
	}
	now := st.Now().UTC()
	approve := autoApproves(p, db.RequestTypeTV)
	switch {
	case parent == nil:
		parent = &db.TvParent{ID: st.NextID("tvParent"), TvDbID: sh.TvDbID, ExternalProviderID: sh.TheMovieDbID, ImdbID: sh.ImdbID,
			Overview: sh.Overview, Title: sh.Title, PosterPath: sh.PosterPath, Background: sh.BackdropPath, Status: sh.Status,
			TotalSeasons: len(regular), Extra: map[string]any{"addedToSonarr": nil}}
		if !v1 {
			parent.LanguageProfile, parent.RootFolder, parent.QualityOverride = in.LanguageProfile, in.RootFolderOverride, in.QualityPathOverride
		}
		if t, err := time.Parse("2006-01-02", sh.FirstAired); err == nil {
			parent.ReleaseDate = t
		}
		st.Requests.Tv = append(st.Requests.Tv, parent)
	case v1:
		// the whole show's options, every earlier child's included
		if in.QualityPathOverride != nil && *in.QualityPathOverride > 0 {
			q := *in.QualityPathOverride
			parent.QualityOverride = &q
		}
		if in.RootFolderOverride != nil && *in.RootFolderOverride > 0 {
			rf := *in.RootFolderOverride
			parent.RootFolder = &rf
		}
	}
	c := &db.ChildRequest{ReqBase: db.ReqBase{ID: st.NextID("tvChild"), Title: sh.Title, RequestedDate: now, RequestedUserID: userID,
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
		sr := &db.SeasonRequest{ID: st.NextID("season"), SeasonNumber: sn, ChildRequestID: c.ID}
		for _, cs := range sh.Seasons {
			if cs.SeasonNumber == sn {
				sr.Overview = cs.Overview
			}
		}
		for _, en := range eps {
			ce := sh.Episode(sn, en)
			air, _ := time.Parse(time.RFC3339, ce.AirDate)
			sr.Episodes = append(sr.Episodes, &db.EpisodeRequest{ID: st.NextID("episode"), EpisodeNumber: en, Title: ce.Title,
				AirDate: air, URL: ce.URL, Requested: true, Approved: approve, SeasonID: sr.ID})
		}
		c.SeasonRequests = append(c.SeasonRequests, sr)
	}
	st.Requests.Children = append(st.Requests.Children, c)
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
	var out *state.RequestEngineResult
	s.store.Write(func(st *store) {
		artist, al := st.Search.Album(in.ForeignAlbumID)
		if al == nil {
			out = tryAgain("There was an issue adding this album!")
			return
		}
		userID, _ := st.requester(p, "", false, db.RequestTypeAlbum)
		switch {
		case !canRequest(p, db.RequestTypeAlbum):
			out = engineFail("", "You do not have permissions to Request an Album")
			return
		case !st.quotaLeft(userID, db.RequestTypeAlbum, 1):
			out = engineFail("", "You have exceeded your Album request quota!")
			return
		}
		now := st.Now().UTC()
		a := &db.AlbumRequest{ReqBase: db.ReqBase{ID: st.NextID("albumRequest"), Title: al.Title, RequestedDate: now,
			RequestedUserID: userID, RequestedByAlias: alias(p)}, ForeignAlbumID: al.ForeignAlbumID,
			ForeignArtistID: artist.ForeignArtistID, ArtistName: artist.ArtistName, Cover: al.Cover, Disk: al.Disk,
			Rating: al.Rating, ReleaseDate: al.ReleaseDate}
		if autoApproves(p, db.RequestTypeAlbum) {
			a.Approved, a.MarkedAsApproved = true, now
		}
		st.Requests.Albums = append(st.Requests.Albums, a)
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
	var out *state.RequestEngineResult
	s.store.Write(func(st *store) {
		c := st.Search.Collection(id)
		if c == nil {
			return
		}
		first := -1
		for _, m := range st.Search.Movies {
			if m.CollectionID != nil && *m.CollectionID == id {
				res := st.createMovie(p, movieCreate{TheMovieDbID: m.TheMovieDbID})
				if first < 0 {
					first = res.RequestID
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

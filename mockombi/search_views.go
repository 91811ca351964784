package mockombi

import (
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// tmdbImage is a full TMDB image URL, or nil.
func tmdbImage(size, p string) *string {
	if p == "" {
		return nil
	}
	return ref("https://image.tmdb.org/t/p/" + size + p)
}

// movieBase is the SearchViewModel of a movie result: its TMDB id as a
// string, no other id.
func movieBase(m *db.CatalogMovie) state.SearchViewModel {
	return state.SearchViewModel{TheMovieDbID: ref(strconv.Itoa(m.TheMovieDbID)), Type: db.RequestTypeMovie}
}

// movieView is SearchMovieViewModel; lists leave imdbId out as TMDB list
// results do, details (full) fill it.
func (st *store) movieView(m *db.CatalogMovie, p *principal, full bool) *state.SearchMovieViewModel {
	v := &state.SearchMovieViewModel{
		SearchViewModel: movieBase(m), ID: m.TheMovieDbID, Adult: m.Adult, BackdropPath: db.NilIfEmpty(m.BackdropPath),
		DigitalReleaseDate: m.DigitalReleaseDate, GenreIDs: m.GenreIDs, OriginalLanguage: m.OriginalLanguage,
		OriginalTitle: m.OriginalTitle, Overview: m.Overview, Popularity: m.Popularity, PosterPath: db.NilIfEmpty(m.PosterPath),
		ReleaseDate: m.ReleaseDate, Title: m.Title, Video: m.Video, VoteAverage: m.VoteAverage, VoteCount: m.VoteCount,
		Extra: m.Extra,
	}
	if full {
		v.ImdbID, v.Trailer, v.Homepage = ref(m.ImdbID), ref(m.Trailer), ref(m.Homepage)
		v.ReleaseDates = releaseDates(m)
	}
	if k := st.overlayMovie(&v.SearchViewModel, m.TheMovieDbID, p); k != nil {
		v.Movie4K = *k
	}
	return v
}

// releaseDates is TMDB's release_dates block in Ombi's shape.
func releaseDates(m *db.CatalogMovie) *state.ReleaseDates {
	if m.ReleaseDate == nil {
		return nil
	}
	dates := []state.ReleaseDate{{ReleaseDate: m.ReleaseDate, Type: 3}}
	if m.DigitalReleaseDate != nil {
		dates = append(dates, state.ReleaseDate{ReleaseDate: m.DigitalReleaseDate, Type: 4})
	}
	return &state.ReleaseDates{Results: []state.ReleaseDateCountry{{IsoCode: "US", ReleaseDate: dates}}}
}

// movieFullView is MovieFullInfoViewModel (v2 movie details).
func (st *store) movieFullView(m *db.CatalogMovie, p *principal) *state.MovieFullInfoViewModel {
	ss := &st.Search
	v := &state.MovieFullInfoViewModel{SearchMovieViewModel: *st.movieView(m, p, true)}
	if m.CollectionID != nil {
		if c := ss.Collection(*m.CollectionID); c != nil {
			v.BelongsToCollection = &state.CollectionsViewModel{ID: c.ID, Name: c.Name, PosterPath: c.PosterPath, BackdropPath: c.BackdropPath}
		}
	}
	cast := []state.MovieCast{}
	for i, id := range m.Cast {
		if pe := ss.Person(id); pe != nil {
			cast = append(cast, state.MovieCast{CastID: i + 1, Character: "Role " + strconv.Itoa(i+1), CreditID: fmt.Sprintf("52fe4%07dc3a36847f8%d", m.TheMovieDbID%10000000, i),
				Gender: 2, ID: pe.ID, Name: pe.Name, Order: i, ProfilePath: pe.ProfilePath})
		}
	}
	crew := []state.MovieCrew{}
	for i, id := range m.Crew {
		if pe := ss.Person(id); pe != nil {
			crew = append(crew, state.MovieCrew{CreditID: fmt.Sprintf("5e8f1%07dd9a1b2c3%d", m.TheMovieDbID%10000000, i), Department: "Directing",
				Gender: 2, ID: pe.ID, Job: "Director", Name: pe.Name, ProfilePath: pe.ProfilePath})
		}
	}
	similar := []state.SimilarMovie{}
	for _, id := range m.Similar {
		if s := ss.Movie(id); s != nil {
			similar = append(similar, state.SimilarMovie{Adult: s.Adult, BackdropPath: s.BackdropPath, GenreIDs: s.GenreIDs, ID: s.TheMovieDbID,
				OriginalLanguage: s.OriginalLanguage, OriginalTitle: s.OriginalTitle, Overview: s.Overview, PosterPath: s.PosterPath,
				ReleaseDate: dateOnly(s.ReleaseDate), Title: s.Title, Video: s.Video, VoteAverage: s.VoteAverage, VoteCount: s.VoteCount, Popularity: s.Popularity})
		}
	}
	page := state.SimilarMovies{Page: 1, Results: similar, TotalPages: 1, TotalResults: len(similar)}
	v.Budget, v.Genres, v.ProductionCompanies = m.Budget, ss.GenreNames("movie", m.GenreIDs), m.ProductionCompanies
	v.Revenue, v.Runtime, v.Tagline, v.Status = m.Revenue, m.Runtime, m.Tagline, m.Status
	v.Videos = state.Videos{Results: []state.Video{{ID: "5d1a1a" + strconv.Itoa(m.TheMovieDbID), Iso639_1: "en", Iso3166_1: "US",
		Key: strings.TrimPrefix(m.Trailer, "https://www.youtube.com/watch?v="), Name: "Official Trailer", Site: "YouTube", Size: 1080, Type: "Trailer"}}}
	v.Credits = state.MovieCredits{Cast: cast, Crew: crew}
	v.Similar, v.Recommendations = page, page
	v.ExternalIDs = state.ExternalIDs{ImdbID: m.ImdbID}
	v.Keywords = state.Keywords{KeywordsValue: ss.Keywords(m.KeywordIDs)}
	return v
}

// tvViewOpts choose what tvView fills; the zero value is the v2 view with
// TMDB ids, no seasons and no request flags.
type tvViewOpts struct {
	// V1 gives the v1 ids: id is the TVDB id.
	V1 bool
	// TVDBQuirk, with V1, puts the TVDB id in theMovieDbId as well
	// (QuirkV1TVTVDBInMovieDBID).
	TVDBQuirk bool
	// Seasons fills seasonRequests with the show's episode tree.
	Seasons bool
	// Flags overlays the request flags on the show and, with Seasons, on
	// its episodes (v1 tv/info leaves them all false).
	Flags bool
	// Rating replaces the TMDB vote average as rating (v1 search carries
	// TVMaze's relevance score); "" keeps it.
	Rating string
}

// tvIDs is the id and the SearchViewModel ids of a TV result by origin:
// v1 routes use the TVDB id (and, with the quirk on, put it in
// theMovieDbId as well); v2 routes use the TMDB id.
func tvIDs(sh *db.CatalogShow, o tvViewOpts) (int, state.SearchViewModel) {
	v := state.SearchViewModel{ImdbID: ref(sh.ImdbID)}
	switch {
	case o.V1 && o.TVDBQuirk:
		v.TheMovieDbID = ref(strconv.Itoa(sh.TvDbID))
		return sh.TvDbID, v
	case o.V1:
		v.TheMovieDbID, v.TheTvDbID = ref(strconv.Itoa(sh.TheMovieDbID)), ref(strconv.Itoa(sh.TvDbID))
		return sh.TvDbID, v
	default:
		v.TheMovieDbID, v.TheTvDbID = ref(strconv.Itoa(sh.TheMovieDbID)), ref(strconv.Itoa(sh.TvDbID))
		return sh.TheMovieDbID, v
	}
}

// tvShow is the part of a show's views both share, filled as o says, with
// the request flags on base when o.Flags.
func (st *store) tvShow(sh *db.CatalogShow, base *state.SearchViewModel, p *principal, o tvViewOpts) state.TvShow {
	v := state.TvShow{
		Title: sh.Title, Aliases: sh.Aliases, Banner: sh.Banner, SeriesID: sh.TvMazeID,
		Status: sh.Status, FirstAired: sh.FirstAired, NetworkID: sh.NetworkID,
		Runtime: sh.Runtime, Overview: sh.Overview, LastUpdated: 1732000000 + sh.TvMazeID,
		AirsDayOfWeek: sh.AirsDayOfWeek, AirsTime: sh.AirsTime, Rating: sh.TmdbRating(),
		Trailer: sh.Trailer, Homepage: sh.Homepage, SeasonRequests: []*state.SearchSeason{},
	}
	if o.Rating != "" {
		v.Rating = o.Rating
	}
	if o.Seasons {
		v.SeasonRequests = st.seasonViews(sh, o.Flags)
	}
	if o.Flags {
		st.overlayTV(base, &v, sh, p)
	}
	return v
}

// tvView is SearchTvShowViewModel (v1 search/lists, v2 browse), filled as
// o says.
func (st *store) tvView(sh *db.CatalogShow, p *principal, o tvViewOpts) *state.SearchTvShowViewModel {
	id, base := tvIDs(sh, o)
	genres := []string{}
	for _, g := range st.Search.GenreNames("tv", sh.GenreIDs) {
		genres = append(genres, g.Name)
	}
	network := db.Text(db.Or(sh.Network).Name)
	v := &state.SearchTvShowViewModel{ID: id, Genre: genres, Network: network, Extra: sh.Extra,
		BackdropPath: db.NilIfEmpty(sh.BackdropPath), PosterPath: db.NilIfEmpty(sh.PosterPath)}
	v.TvShow = st.tvShow(sh, &base, p, o)
	v.SearchViewModel = base
	return v
}

// tvFullView is SearchFullInfoTvShowViewModel (v2 TV details, by TMDB id).
func (st *store) tvFullView(sh *db.CatalogShow, p *principal) *state.SearchFullInfoTvShowViewModel {
	o := tvViewOpts{Seasons: true, Flags: true}
	id, base := tvIDs(sh, o)
	cast := []state.TvCast{}
	for _, id := range sh.Cast {
		if pe := st.Search.Person(id); pe != nil {
			cast = append(cast, state.TvCast{ID: pe.ID, Person: pe.Name, Character: "Lead", Image: tmdbImage("w300", pe.ProfilePath)})
		}
	}
	v := &state.SearchFullInfoTvShowViewModel{
		ID: id, Genres: st.Search.GenreNames("tv", sh.GenreIDs), Network: sh.Network,
		Images: state.TvImages{Medium: tmdbImage("w500", sh.PosterPath), Original: tmdbImage("original", sh.PosterPath)},
		Cast:   cast, Crew: []state.TvPerson{}, Certification: sh.Certification, Tagline: sh.Tagline,
		Keywords:    state.Keywords{KeywordsValue: st.Search.Keywords(sh.KeywordIDs)},
		ExternalIDs: state.ExternalIDs{ImdbID: sh.ImdbID},
		// the list view's genre (by name) is not a member here
		Extra: withoutKey(sh.Extra, "genre"),
	}
	v.TvShow = st.tvShow(sh, &base, p, o)
	v.SearchViewModel = base
	return v
}

// withoutKey is m less key (m itself when it has no such key).
func withoutKey(m map[string]any, key string) map[string]any {
	if _, ok := m[key]; !ok {
		return m
	}
	out := maps.Clone(m)
	delete(out, key)
	return out
}

// seasonViews is the show's episode tree as SeasonRequests with per-episode
// request flags when flags is set (v1 tv/info leaves them all false). The
// search engines build these with new SeasonRequests/EpisodeRequests
// (TvSearchEngine.cs, V2/TvSearchEngineV2.cs), so the childRequest and
// season back-references are null, not omitted.
func (st *store) seasonViews(sh *db.CatalogShow, flags bool) []*state.SearchSeason {
	requested := map[[2]int]*db.EpisodeRequest{}
	if flags {
		if parent := st.Requests.ParentByTMDB(sh.TheMovieDbID); parent != nil {
			for _, c := range st.Requests.ChildrenOf(parent.ID) {
				for _, s := range c.SeasonRequests {
					for _, e := range s.Episodes {
						requested[[2]int{s.SeasonNumber, e.EpisodeNumber}] = e
					}
				}
			}
		}
	}
	out := []*state.SearchSeason{}
	for _, s := range sh.Seasons {
		eps := []*state.SearchEpisode{}
		allAvailable := len(s.Episodes) > 0
		for _, e := range s.Episodes {
			ev := &state.SearchEpisode{EpisodeNumber: e.EpisodeNumber, Title: e.Title, AirDate: e.AirDate, URL: e.URL,
				AirDateDisplay: airDateDisplay(e.AirDate)}
			if r, ok := requested[[2]int{s.SeasonNumber, e.EpisodeNumber}]; ok {
				ev.Available, ev.Approved, ev.Requested, ev.Denied = r.Available, r.Approved, r.Requested, r.Denied
				ev.RequestStatus = episodeStatus(r)
			}
			if !ev.Available {
				allAvailable = false
			}
			eps = append(eps, ev)
		}
		out = append(out, &state.SearchSeason{SeasonNumber: s.SeasonNumber, Overview: s.Overview, Episodes: eps,
			SeasonAvailable: allAvailable})
	}
	return out
}

// overlayMovie sets request flags from the movie request of a TMDB id and
// returns the 4K part ExistingRule copies from it; nil when there is no
// request.
func (st *store) overlayMovie(v *state.SearchViewModel, tmdb int, p *principal) *state.Movie4K {
	r := st.Requests.MovieByTMDB(tmdb)
	if r == nil {
		return nil
	}
	// ExistingRule: requested only when there is a non-4K request date
	// (a 4K-only request has RequestedDate MinValue), denied is Denied ?? false;
	// the request's root and quality overrides are not copied
	v.Requested, v.RequestID, v.Approved, v.Available = !r.RequestedDate.IsZero(), r.ID, r.Approved, r.Available
	v.Denied, v.DeniedReason = ref(r.Denied != nil && *r.Denied), db.NilIfEmpty(r.DeniedReason)
	v.Subscribed = st.subscribed(p, 1, r.ID)
	v.ShowSubscribe = p != nil && r.RequestedUserID != p.id
	if r.Available {
		v.PlexURL = ref(fmt.Sprintf("https://app.plex.tv/web/app#!/server/%s/details?key=%%2Flibrary%%2Fmetadata%%2F%d", plexMachineID, 10000+tmdb%9000))
		v.Quality = ref("1080p")
	}
	return &state.Movie4K{
		Has4KRequest: r.Has4KRequest, Approved4K: r.Approved4K, Available4K: r.Available4K, Denied4K: r.Denied4K,
		DeniedReason4K: db.NilIfEmpty(r.DeniedReason4K), RequestedDate4k: r.RequestedDate4k, MarkedAsApproved4K: r.MarkedAsApproved4K,
		MarkedAsAvailable4K: r.MarkedAsAvailable4K, MarkedAsDenied4K: r.MarkedAsDenied4K,
	}
}

// plexMachineID is the machine identifier of the mock's Plex server.
const plexMachineID = "9a1b2c3d4e5f60718293a4b5c6d7e8f901234567"

// overlayTV sets request flags on a show from its parent request.
func (st *store) overlayTV(v *state.SearchViewModel, t *state.TvShow, sh *db.CatalogShow, p *principal) {
	parent := st.Requests.ParentByTMDB(sh.TheMovieDbID)
	if parent == nil {
		return
	}
	children := st.Requests.ChildrenOf(parent.ID)
	approved, available, any := len(children) > 0, len(children) > 0, false
	for _, c := range children {
		approved = approved && c.Approved
		available = available && c.Available
		any = any || c.Available
	}
	v.Requested, v.RequestID, v.Approved = true, parent.ID, approved
	v.Available, t.FullyAvailable, t.PartlyAvailable = available, available, any && !available
	v.Subscribed = st.subscribed(p, 0, parent.ID)
}

// emptyMovieView is what Ombi answers for an unknown TMDB id: the view model
// mapped from TMDB's not-found body.
func emptyMovieView() *state.EmptyMovieView {
	return &state.EmptyMovieView{SearchViewModel: state.SearchViewModel{TheMovieDbID: ref("0"), Type: db.RequestTypeMovie}}
}

// artistView is SearchArtistViewModel (note the upstream typo forignArtistId).
func artistView(a *db.CatalogArtist) *state.SearchArtistViewModel {
	return &state.SearchArtistViewModel{ArtistName: a.ArtistName, ForignArtistID: a.ForeignArtistID, Overview: a.Overview,
		Disambiguation: a.Disambiguation, Banner: a.Banner, Poster: a.Poster, Logo: a.Logo,
		ArtistType: a.Type, CleanName: strings.ToLower(strings.ReplaceAll(a.ArtistName, " ", "")), Links: a.Links, Extra: a.Extra}
}

// albumView is SearchAlbumViewModel with request flags.
func (st *store) albumView(a *db.CatalogArtist, al *db.CatalogAlbum) *state.SearchAlbumViewModel {
	v := &state.SearchAlbumViewModel{SearchViewModel: state.SearchViewModel{Type: db.RequestTypeAlbum},
		Title: al.Title, ForeignAlbumID: al.ForeignAlbumID, AlbumType: al.AlbumType,
		Rating: al.Rating, ReleaseDate: al.ReleaseDate, ArtistName: a.ArtistName, ForeignArtistID: a.ForeignArtistID,
		Cover: al.Cover, Disk: al.Disk, Genres: al.Genres, Extra: al.Extra}
	if rq := st.Requests.AlbumByForeignID(al.ForeignAlbumID); rq != nil {
		v.Requested, v.RequestID, v.Approved, v.Available = true, rq.ID, rq.Approved, rq.Available
		v.Denied, v.DeniedReason, v.FullyAvailable = rq.Denied, db.NilIfEmpty(rq.DeniedReason), rq.Available
		if rq.Available {
			v.PercentOfTracks = 100
		}
	}
	return v
}

// releaseGroupView is the v2 ReleaseGroup (Core/Models/Search/V2/Music/ReleaseGroup.cs):
// a SearchViewModel whose type is RequestType.Album (2), with the
// MusicBrainz primary type as releaseType and the request flags ExistingRule
// sets for a release group (requested, requestId, approved, available; not
// denied).
func (st *store) releaseGroupView(al *db.CatalogAlbum) *state.ReleaseGroup {
	v := &state.ReleaseGroup{SearchViewModel: state.SearchViewModel{Type: db.RequestTypeAlbum},
		ID: al.ForeignAlbumID, Title: al.Title, ReleaseDate: al.ReleaseDate.Format("2006-01-02"),
		ReleaseType: db.NilIfEmpty(al.AlbumType)}
	if rq := st.Requests.AlbumByForeignID(al.ForeignAlbumID); rq != nil {
		v.Requested, v.RequestID, v.Approved, v.Available = true, rq.ID, rq.Approved, rq.Available
		if rq.Available {
			v.PercentOfTracks, v.FullyAvailable = 100, true
		}
	}
	return v
}

// artistLinkFields are the ArtistLinks properties by the relation names
// that fill them.
func artistLinkFields(l *state.ArtistLinks) map[string]**string {
	return map[string]**string{"image": &l.Image, "imdb": &l.Imdb, "lastFm": &l.LastFm, "discogs": &l.Discogs,
		"allMusic": &l.AllMusic, "homePage": &l.HomePage, "youTube": &l.YouTube, "facebook": &l.Facebook,
		"twitter": &l.Twitter, "bbcMusic": &l.BbcMusic, "mySpace": &l.MySpace, "onlineCommunity": &l.OnlineCommunity,
		"spotify": &l.Spotify, "instagram": &l.Instagram, "vk": &l.Vk, "deezer": &l.Deezer, "google": &l.Google,
		"apple": &l.Apple}
}

// artistLinks is ArtistLinks from the artist's relation URLs, matched by
// name ("lastfm", "discogs", ...) as GetLinksForArtist sorts them.
func artistLinks(a *db.CatalogArtist) state.ArtistLinks {
	var links state.ArtistLinks
	fields := artistLinkFields(&links)
	for _, l := range a.Links {
		if l == nil {
			continue
		}
		name, url := db.Text(l.Name), db.Text(l.URL)
		for n, field := range fields {
			if strings.EqualFold(name, n) && url != "" {
				*field = ref(strings.Replace(url, "http://", "https://", 1))
			}
		}
	}
	return links
}

// bandMembers is BandMember[] (name, attributes, isCurrentMember, start,
// end); data that says isActive instead of isCurrentMember is read as it.
func bandMembers(a *db.CatalogArtist) []state.BandMember {
	out := []state.BandMember{}
	for _, m := range a.Members {
		if m == nil {
			out = append(out, state.BandMember{Attributes: []string{}, IsCurrentMember: true})
			continue
		}
		var current bool
		switch {
		case m.IsCurrentMember != nil:
			current = *m.IsCurrentMember
		case m.IsActive != nil:
			current = *m.IsActive
		default:
			current = m.End == nil
		}
		attrs := m.Attributes
		if attrs == nil {
			attrs = []string{}
		}
		out = append(out, state.BandMember{Name: state.Member(m, "name"), Attributes: attrs, IsCurrentMember: current,
			Start: state.Member(m, "start"), End: state.Member(m, "end")})
	}
	return out
}

// artistInformation is the v2 ArtistInformation model
// (Core/Models/Search/V2/Music/ArtistInformation.cs) as
// MusicSearchEngineV2.GetArtistInformation fills it: endYear "" when the
// artist has not ended (so isEnded is true: EndYear != null), region from
// the area, banner, logo, poster, fanArt and overview from Lidarr.
func (st *store) artistInformation(a *db.CatalogArtist) *state.ArtistInformation {
	groups := []*state.ReleaseGroup{}
	for i := range a.Albums {
		groups = append(groups, st.releaseGroupView(&a.Albums[i]))
	}
	var region any
	if area, ok := a.Extra["area"].(map[string]any); ok {
		region = area["name"]
	}
	return &state.ArtistInformation{ID: a.ForeignArtistID, Name: a.ArtistName, StartYear: a.StartYear, EndYear: "", IsEnded: true,
		Type: a.Type, Country: a.Country, Region: region, Disambiguation: a.Disambiguation, Banner: a.Banner, Logo: a.Logo,
		Poster: a.Poster, FanArt: a.Banner, Overview: a.Overview, ReleaseGroups: groups, Members: bandMembers(a),
		Links: artistLinks(a)}
}

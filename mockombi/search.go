package mockombi

import (
	"cmp"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// catalogMovie is one TMDB movie the mock knows.
type catalogMovie struct {
	TheMovieDbID        int              `json:"theMovieDbId"`
	ImdbID              string           `json:"imdbId"`
	Title               string           `json:"title"`
	OriginalTitle       string           `json:"originalTitle"`
	Overview            string           `json:"overview"`
	ReleaseDate         *time.Time       `json:"releaseDate"`
	DigitalReleaseDate  *time.Time       `json:"digitalReleaseDate"`
	PosterPath          string           `json:"posterPath"`
	BackdropPath        string           `json:"backdropPath"`
	GenreIDs            []int            `json:"genreIds"`
	OriginalLanguage    string           `json:"originalLanguage"`
	Popularity          float64          `json:"popularity"`
	VoteAverage         float64          `json:"voteAverage"`
	VoteCount           int              `json:"voteCount"`
	Adult               bool             `json:"adult"`
	Video               bool             `json:"video"`
	Runtime             int              `json:"runtime"`
	Budget              int              `json:"budget"`
	Revenue             float64          `json:"revenue"`
	Tagline             string           `json:"tagline"`
	Status              string           `json:"status"`
	Homepage            string           `json:"homepage"`
	Trailer             string           `json:"trailer"`
	CollectionID        *int             `json:"collectionId"`
	Lists               []string         `json:"lists"`
	KeywordIDs          []int            `json:"keywordIds"`
	Similar             []int            `json:"similar"`
	Cast                []int            `json:"cast"`
	Crew                []int            `json:"crew"`
	Streaming           []map[string]any `json:"streaming"`
	Ratings             map[string]any   `json:"ratings"`
	ProductionCompanies []map[string]any `json:"productionCompanies"`
	Extra               map[string]any   `json:"extra"`
}

// year is the release year, 0 when unknown.
func (m *catalogMovie) year() int {
	if m.ReleaseDate == nil {
		return 0
	}
	return m.ReleaseDate.Year()
}

// catalogEpisode is one episode of a catalogue show.
type catalogEpisode struct {
	EpisodeNumber int    `json:"episodeNumber"`
	Title         string `json:"title"`
	AirDate       string `json:"airDate"`
	URL           string `json:"url"`
}

// catalogSeason is one season of a catalogue show.
type catalogSeason struct {
	SeasonNumber int              `json:"seasonNumber"`
	Overview     string           `json:"overview"`
	Episodes     []catalogEpisode `json:"episodes"`
}

// catalogShow is one TV show with its TMDB, TVDB, TVMaze and IMDb ids.
type catalogShow struct {
	TheMovieDbID  int              `json:"theMovieDbId"`
	TvDbID        int              `json:"tvDbId"`
	TvMazeID      int              `json:"tvMazeId"`
	ImdbID        string           `json:"imdbId"`
	Title         string           `json:"title"`
	Aliases       []string         `json:"aliases"`
	Overview      string           `json:"overview"`
	FirstAired    string           `json:"firstAired"`
	Network       map[string]any   `json:"network"`
	NetworkID     string           `json:"networkId"`
	Status        string           `json:"status"`
	Runtime       string           `json:"runtime"`
	GenreIDs      []int            `json:"genreIds"`
	Lists         []string         `json:"lists"`
	AirsDayOfWeek string           `json:"airsDayOfWeek"`
	AirsTime      string           `json:"airsTime"`
	SiteRating    int              `json:"siteRating"`
	Certification string           `json:"certification"`
	Tagline       string           `json:"tagline"`
	Homepage      string           `json:"homepage"`
	Trailer       string           `json:"trailer"`
	PosterPath    string           `json:"posterPath"`
	BackdropPath  string           `json:"backdropPath"`
	Banner        string           `json:"banner"`
	KeywordIDs    []int            `json:"keywordIds"`
	Cast          []int            `json:"cast"`
	Streaming     []map[string]any `json:"streaming"`
	Ratings       map[string]any   `json:"ratings"`
	Seasons       []catalogSeason  `json:"seasons"`
	Extra         map[string]any   `json:"extra"`
}

// year is the first-aired year, 0 when unknown.
func (sh *catalogShow) year() int {
	y, _ := strconv.Atoi(strings.SplitN(sh.FirstAired, "-", 2)[0])
	return y
}

// episode finds an episode of the show.
func (sh *catalogShow) episode(season, number int) *catalogEpisode {
	for i := range sh.Seasons {
		if sh.Seasons[i].SeasonNumber != season {
			continue
		}
		for j := range sh.Seasons[i].Episodes {
			if sh.Seasons[i].Episodes[j].EpisodeNumber == number {
				return &sh.Seasons[i].Episodes[j]
			}
		}
	}
	return nil
}

// catalogAlbum is one MusicBrainz release group.
type catalogAlbum struct {
	ForeignAlbumID string           `json:"foreignAlbumId"`
	Title          string           `json:"title"`
	ReleaseDate    time.Time        `json:"releaseDate"`
	AlbumType      string           `json:"albumType"`
	TrackCount     int              `json:"trackCount"`
	Rating         float64          `json:"rating"`
	Cover          string           `json:"cover"`
	Disk           string           `json:"disk"`
	Genres         []map[string]any `json:"genres"`
	Extra          map[string]any   `json:"extra"`
}

// catalogArtist is one MusicBrainz artist with its albums.
type catalogArtist struct {
	ForeignArtistID string           `json:"foreignArtistId"`
	ArtistName      string           `json:"artistName"`
	Type            string           `json:"type"`
	Country         string           `json:"country"`
	StartYear       string           `json:"startYear"`
	Disambiguation  string           `json:"disambiguation"`
	Overview        string           `json:"overview"`
	Banner          string           `json:"banner"`
	Poster          string           `json:"poster"`
	Logo            string           `json:"logo"`
	Links           []map[string]any `json:"links"`
	Members         []map[string]any `json:"members"`
	Albums          []catalogAlbum   `json:"albums"`
	Extra           map[string]any   `json:"extra"`
}

// catalogPerson is one TMDB person.
type catalogPerson struct {
	ID                 int            `json:"id"`
	Name               string         `json:"name"`
	KnownForDepartment string         `json:"knownForDepartment"`
	ProfilePath        string         `json:"profilePath"`
	Popularity         float64        `json:"popularity"`
	Extra              map[string]any `json:"extra"`
}

// catalogCollection is one TMDB movie collection.
type catalogCollection struct {
	ID           int            `json:"id"`
	Name         string         `json:"name"`
	Overview     string         `json:"overview"`
	PosterPath   string         `json:"posterPath"`
	BackdropPath string         `json:"backdropPath"`
	Extra        map[string]any `json:"extra"`
}

// idName is a TMDB {id, name} pair (genres, keywords).
type idName struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// referenceSeed is reference.json.
type referenceSeed struct {
	Genres             map[string][]idName         `json:"genres"`
	Languages          []map[string]string         `json:"languages"`
	Keywords           []idName                    `json:"keywords"`
	WatchProviders     map[string][]map[string]any `json:"watchProviders"`
	StreamingCountries []string                    `json:"streamingCountries"`
}

// searchState is the read-only media catalogue behind the search routes.
type searchState struct {
	movies      []*catalogMovie
	shows       []*catalogShow
	artists     []*catalogArtist
	people      []*catalogPerson
	collections []*catalogCollection
	ref         referenceSeed
}

// newSearchState loads movies.json, tv.json, music.json and reference.json,
// plus the generated catalogue of the large data set.
func newSearchState(sd *seedSet) (searchState, error) {
	var ss searchState
	var mv struct {
		Collections []*catalogCollection `json:"collections"`
		People      []*catalogPerson     `json:"people"`
		Movies      []*catalogMovie      `json:"movies"`
	}
	for _, step := range []struct {
		file string
		v    any
	}{{"movies.json", &mv}, {"tv.json", &ss.shows}, {"music.json", &ss.artists}, {"reference.json", &ss.ref}} {
		if err := sd.decode(step.file, step.v); err != nil {
			return searchState{}, err
		}
	}
	ss.movies, ss.people, ss.collections = mv.Movies, mv.People, mv.Collections
	if sd.large {
		ss.generateLarge()
	}
	return ss, nil
}

// movie finds a movie by TMDB id.
func (ss *searchState) movie(id int) *catalogMovie {
	for _, m := range ss.movies {
		if m.TheMovieDbID == id {
			return m
		}
	}
	return nil
}

// movieByIMDb finds a movie by IMDb id, ignoring case.
func (ss *searchState) movieByIMDb(id string) *catalogMovie {
	for _, m := range ss.movies {
		if strings.EqualFold(m.ImdbID, id) {
			return m
		}
	}
	return nil
}

// showByTMDB finds a show by TMDB id.
func (ss *searchState) showByTMDB(id int) *catalogShow {
	for _, sh := range ss.shows {
		if sh.TheMovieDbID == id {
			return sh
		}
	}
	return nil
}

// showByTVDB finds a show by TVDB id.
func (ss *searchState) showByTVDB(id int) *catalogShow {
	for _, sh := range ss.shows {
		if sh.TvDbID == id {
			return sh
		}
	}
	return nil
}

// album finds an album and its artist by MusicBrainz release-group id.
func (ss *searchState) album(id string) (*catalogArtist, *catalogAlbum) {
	for _, a := range ss.artists {
		for i := range a.Albums {
			if strings.EqualFold(a.Albums[i].ForeignAlbumID, id) {
				return a, &a.Albums[i]
			}
		}
	}
	return nil, nil
}

// artist finds an artist by MusicBrainz id.
func (ss *searchState) artist(id string) *catalogArtist {
	for _, a := range ss.artists {
		if strings.EqualFold(a.ForeignArtistID, id) {
			return a
		}
	}
	return nil
}

// person finds a person by TMDB id.
func (ss *searchState) person(id int) *catalogPerson {
	for _, p := range ss.people {
		if p.ID == id {
			return p
		}
	}
	return nil
}

// collection finds a collection by id.
func (ss *searchState) collection(id int) *catalogCollection {
	for _, c := range ss.collections {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// genreNames maps genre ids to {id, name} objects for a media type.
func (ss *searchState) genreNames(media string, ids []int) []map[string]any {
	out := []map[string]any{}
	for _, id := range ids {
		for _, g := range ss.ref.Genres[media] {
			if g.ID == id {
				out = append(out, map[string]any{"id": g.ID, "name": g.Name})
			}
		}
	}
	return out
}

// containsFold is a case-insensitive substring test.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// mergeExtra adds the record's undocumented fields without overriding known ones.
func mergeExtra(m map[string]any, extra map[string]any) map[string]any {
	for k, v := range extra {
		if _, ok := m[k]; !ok {
			m[k] = v
		}
	}
	return m
}

// tmdbImage is a full TMDB image URL, or nil.
func tmdbImage(size, p string) any {
	if p == "" {
		return nil
	}
	return "https://image.tmdb.org/t/p/" + size + p
}

// searchViewBase is the SearchViewModel part every search result carries.
func searchViewBase(id int, typ int) map[string]any {
	return map[string]any{
		"id": id, "approved": false, "denied": nil, "deniedReason": nil, "requested": false,
		"requestId": 0, "available": false, "plexUrl": nil, "embyUrl": nil, "jellyfinUrl": nil,
		"quality": nil, "type": typ, "imdbId": nil, "theTvDbId": nil, "theMovieDbId": nil,
		"subscribed": false, "showSubscribe": false,
	}
}

// movieView is SearchMovieViewModel; lists leave imdbId out as TMDB list
// results do, details (full) fill it.
func (st *store) movieView(m *catalogMovie, p *principal, full bool) map[string]any {
	v := searchViewBase(m.TheMovieDbID, 1)
	maps.Copy(v, map[string]any{
		"theMovieDbId": strconv.Itoa(m.TheMovieDbID), "adult": m.Adult, "backdropPath": nullIfEmpty(m.BackdropPath),
		"genreIds": m.GenreIDs, "originalLanguage": m.OriginalLanguage, "originalTitle": m.OriginalTitle,
		"overview": m.Overview, "popularity": m.Popularity, "posterPath": nullIfEmpty(m.PosterPath),
		"releaseDate": m.ReleaseDate, "title": m.Title, "video": m.Video, "voteAverage": m.VoteAverage,
		"voteCount": m.VoteCount, "alreadyInCp": false, "trailer": nil, "homepage": nil,
		"rootPathOverride": 0, "qualityOverride": 0, "releaseDates": nil,
		"digitalReleaseDate": m.DigitalReleaseDate,
	})
	if full {
		v["imdbId"] = m.ImdbID
		v["trailer"] = m.Trailer
		v["homepage"] = m.Homepage
		v["releaseDates"] = releaseDates(m)
	}
	st.overlayMovie(v, m.TheMovieDbID, p)
	return mergeExtra(v, m.Extra)
}

// releaseDates is TMDB's release_dates block in Ombi's shape.
func releaseDates(m *catalogMovie) any {
	if m.ReleaseDate == nil {
		return nil
	}
	dates := []map[string]any{{"releaseDate": m.ReleaseDate, "type": 3}}
	if m.DigitalReleaseDate != nil {
		dates = append(dates, map[string]any{"releaseDate": m.DigitalReleaseDate, "type": 4})
	}
	return map[string]any{"results": []map[string]any{{"isoCode": "US", "releaseDate": dates}}}
}

// movieFullView is MovieFullInfoViewModel (v2 movie details).
func (st *store) movieFullView(m *catalogMovie, p *principal) map[string]any {
	v := st.movieView(m, p, true)
	ss := &st.search
	var coll any
	if m.CollectionID != nil {
		if c := ss.collection(*m.CollectionID); c != nil {
			coll = map[string]any{"id": c.ID, "name": c.Name, "posterPath": c.PosterPath, "backdropPath": c.BackdropPath}
		}
	}
	cast := []map[string]any{}
	for i, id := range m.Cast {
		if pe := ss.person(id); pe != nil {
			cast = append(cast, map[string]any{"cast_id": i + 1, "character": "Role " + strconv.Itoa(i+1), "credit_id": fmt.Sprintf("52fe4%07dc3a36847f8%d", m.TheMovieDbID%10000000, i),
				"gender": 2, "id": pe.ID, "name": pe.Name, "order": i, "profile_path": pe.ProfilePath})
		}
	}
	crew := []map[string]any{}
	for i, id := range m.Crew {
		if pe := ss.person(id); pe != nil {
			crew = append(crew, map[string]any{"credit_id": fmt.Sprintf("5e8f1%07dd9a1b2c3%d", m.TheMovieDbID%10000000, i), "department": "Directing",
				"gender": 2, "id": pe.ID, "job": "Director", "name": pe.Name, "profile_path": pe.ProfilePath})
		}
	}
	similar := []map[string]any{}
	for _, id := range m.Similar {
		if s := ss.movie(id); s != nil {
			similar = append(similar, map[string]any{"adult": s.Adult, "backdrop_path": s.BackdropPath, "genre_ids": s.GenreIDs, "id": s.TheMovieDbID,
				"original_language": s.OriginalLanguage, "original_title": s.OriginalTitle, "overview": s.Overview, "poster_path": s.PosterPath,
				"release_date": dateOnly(s.ReleaseDate), "title": s.Title, "video": s.Video, "vote_average": s.VoteAverage, "vote_count": s.VoteCount, "popularity": s.Popularity})
		}
	}
	keywords := []map[string]any{}
	for _, id := range m.KeywordIDs {
		for _, k := range ss.ref.Keywords {
			if k.ID == id {
				keywords = append(keywords, map[string]any{"id": k.ID, "name": k.Name})
			}
		}
	}
	maps.Copy(v, map[string]any{
		"belongsToCollection": coll, "budget": m.Budget, "genres": ss.genreNames("movie", m.GenreIDs),
		"productionCompanies": m.ProductionCompanies, "revenue": m.Revenue, "runtime": m.Runtime,
		"tagline": m.Tagline, "status": m.Status,
		"videos": map[string]any{"results": []map[string]any{{"id": "5d1a1a" + strconv.Itoa(m.TheMovieDbID), "iso_639_1": "en", "iso_3166_1": "US",
			"key": strings.TrimPrefix(m.Trailer, "https://www.youtube.com/watch?v="), "name": "Official Trailer", "site": "YouTube", "size": 1080, "type": "Trailer"}}},
		"credits":         map[string]any{"cast": cast, "crew": crew},
		"similar":         map[string]any{"page": 1, "results": similar, "total_pages": 1, "total_results": len(similar)},
		"recommendations": map[string]any{"page": 1, "results": similar, "total_pages": 1, "total_results": len(similar)},
		"externalIds":     map[string]any{"imdbId": m.ImdbID, "facebookId": nil, "instagramId": nil, "twitterId": nil},
		"keywords":        map[string]any{"keywordsValue": keywords},
	})
	return v
}

// dateOnly formats a date as TMDB's "YYYY-MM-DD", or "".
func dateOnly(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.Format("2006-01-02")
}

// tvIDs fills id/theMovieDbId/theTvDbId for a TV result by origin: v1 routes
// use the TVDB id (and, with the quirk on, put it in theMovieDbId as well);
// v2 routes use the TMDB id.
func tvIDs(v map[string]any, sh *catalogShow, v1, tvdbQuirk bool) {
	switch {
	case v1 && tvdbQuirk:
		v["id"], v["theMovieDbId"], v["theTvDbId"] = sh.TvDbID, strconv.Itoa(sh.TvDbID), nil
	case v1:
		v["id"], v["theMovieDbId"], v["theTvDbId"] = sh.TvDbID, strconv.Itoa(sh.TheMovieDbID), strconv.Itoa(sh.TvDbID)
	default:
		v["id"], v["theMovieDbId"], v["theTvDbId"] = sh.TheMovieDbID, strconv.Itoa(sh.TheMovieDbID), strconv.Itoa(sh.TvDbID)
	}
}

// tvView is SearchTvShowViewModel (v1 search/lists, v2 browse). Seasons are
// filled only when withSeasons is set.
func (st *store) tvView(sh *catalogShow, p *principal, v1, tvdbQuirk, withSeasons, flags bool) map[string]any {
	v := searchViewBase(0, 0)
	tvIDs(v, sh, v1, tvdbQuirk)
	genres := []string{}
	for _, g := range st.search.genreNames("tv", sh.GenreIDs) {
		genres = append(genres, g["name"].(string))
	}
	network, _ := sh.Network["name"].(string)
	maps.Copy(v, map[string]any{
		"title": sh.Title, "aliases": sh.Aliases, "banner": sh.Banner, "seriesId": sh.TvMazeID,
		"status": sh.Status, "firstAired": sh.FirstAired, "network": network, "networkId": sh.NetworkID,
		"runtime": sh.Runtime, "genre": genres, "overview": sh.Overview, "lastUpdated": 1732000000 + sh.TvMazeID,
		"airsDayOfWeek": sh.AirsDayOfWeek, "airsTime": sh.AirsTime, "rating": fmt.Sprintf("%.1f", float64(sh.SiteRating)*1.7),
		"siteRating": sh.SiteRating, "trailer": sh.Trailer, "homepage": sh.Homepage, "seasonRequests": []any{},
		"requestAll": false, "firstSeason": false, "latestSeason": false, "fullyAvailable": false, "partlyAvailable": false,
		"backdropPath": nullIfEmpty(sh.BackdropPath), "posterPath": nullIfEmpty(sh.PosterPath), "imdbId": sh.ImdbID,
	})
	if withSeasons {
		v["seasonRequests"] = st.seasonViews(sh, flags)
	}
	if flags {
		st.overlayTV(v, sh, p)
	}
	return mergeExtra(v, sh.Extra)
}

// tvFullView is SearchFullInfoTvShowViewModel (v2 TV details, by TMDB id).
func (st *store) tvFullView(sh *catalogShow, p *principal) map[string]any {
	v := st.tvView(sh, p, false, false, true, true)
	delete(v, "genre")
	cast := []map[string]any{}
	for _, id := range sh.Cast {
		if pe := st.search.person(id); pe != nil {
			cast = append(cast, map[string]any{"id": pe.ID, "person": pe.Name, "character": "Lead", "image": tmdbImage("w300", pe.ProfilePath), "self": false, "voice": false})
		}
	}
	keywords := []map[string]any{}
	for _, id := range sh.KeywordIDs {
		for _, k := range st.search.ref.Keywords {
			if k.ID == id {
				keywords = append(keywords, map[string]any{"id": k.ID, "name": k.Name})
			}
		}
	}
	maps.Copy(v, map[string]any{
		"genres": st.search.genreNames("tv", sh.GenreIDs), "network": sh.Network,
		"images":        map[string]any{"medium": tmdbImage("w500", sh.PosterPath), "original": tmdbImage("original", sh.PosterPath)},
		"cast":          cast,
		"crew":          []map[string]any{},
		"certification": sh.Certification, "tagline": sh.Tagline,
		"keywords":    map[string]any{"keywordsValue": keywords},
		"externalIds": map[string]any{"imdbId": sh.ImdbID, "facebookId": nil, "instagramId": nil, "twitterId": nil},
	})
	return v
}

// seasonViews is the show's episode tree as SeasonRequests with per-episode
// request flags when flags is set (v1 tv/info leaves them all false).
func (st *store) seasonViews(sh *catalogShow, flags bool) []map[string]any {
	state := map[[2]int]*episodeRequest{}
	if flags {
		if parent := st.requests.parentByTMDB(sh.TheMovieDbID); parent != nil {
			for _, c := range st.requests.childrenOf(parent.ID) {
				for _, s := range c.SeasonRequests {
					for _, e := range s.Episodes {
						state[[2]int{s.SeasonNumber, e.EpisodeNumber}] = e
					}
				}
			}
		}
	}
	out := []map[string]any{}
	for _, s := range sh.Seasons {
		eps := []map[string]any{}
		allAvailable := len(s.Episodes) > 0
		for _, e := range s.Episodes {
			ev := map[string]any{"episodeNumber": e.EpisodeNumber, "title": e.Title, "airDate": e.AirDate, "url": e.URL,
				"available": false, "approved": false, "requested": false, "denied": nil, "deniedReason": nil,
				"requestStatus": "", "airDateDisplay": airDateDisplay(e.AirDate), "id": 0, "seasonId": 0}
			if r, ok := state[[2]int{s.SeasonNumber, e.EpisodeNumber}]; ok {
				ev["available"], ev["approved"], ev["requested"], ev["denied"] = r.Available, r.Approved, r.Requested, r.Denied
				ev["requestStatus"] = episodeStatus(r)
			}
			if ev["available"] != true {
				allAvailable = false
			}
			eps = append(eps, ev)
		}
		out = append(out, map[string]any{"seasonNumber": s.SeasonNumber, "overview": s.Overview, "episodes": eps,
			"seasonAvailable": allAvailable, "id": 0, "childRequestId": 0})
	}
	return out
}

// airDateDisplay is Ombi's invariant MM/dd/yyyy HH:mm:ss, or "Unknown".
func airDateDisplay(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil || t.IsZero() {
		return "Unknown"
	}
	return t.Format("01/02/2006 15:04:05")
}

// overlayMovie sets request flags from the movie request of a TMDB id.
func (st *store) overlayMovie(v map[string]any, tmdb int, p *principal) {
	r := st.requests.movieByTMDB(tmdb)
	if r == nil {
		return
	}
	v["requested"], v["requestId"], v["approved"], v["available"] = true, r.ID, r.Approved, r.Available
	v["denied"], v["deniedReason"] = r.Denied, nullIfEmpty(r.DeniedReason)
	v["has4KRequest"], v["approved4K"], v["available4K"], v["denied4K"] = r.Has4KRequest, r.Approved4K, r.Available4K, r.Denied4K
	v["deniedReason4K"], v["requestedDate4k"], v["markedAsApproved4K"] = nullIfEmpty(r.DeniedReason4K), r.RequestedDate4k, r.MarkedAsApproved4K
	v["markedAsAvailable4K"], v["markedAsDenied4K"] = r.MarkedAsAvailable4K, r.MarkedAsDenied4K
	v["rootPathOverride"], v["qualityOverride"] = r.RootPathOverride, r.QualityOverride
	v["subscribed"] = st.requests.subscribed(p, 1, r.ID)
	v["showSubscribe"] = p != nil && r.RequestedUserID != p.id
	if r.Available {
		v["plexUrl"] = fmt.Sprintf("https://app.plex.tv/web/app#!/server/%s/details?key=%%2Flibrary%%2Fmetadata%%2F%d", plexMachineID, 10000+tmdb%9000)
		v["quality"] = "1080p"
	}
}

// plexMachineID is the machine identifier of the mock's Plex server.
const plexMachineID = "9a1b2c3d4e5f60718293a4b5c6d7e8f901234567"

// overlayTV sets request flags on a show from its parent request.
func (st *store) overlayTV(v map[string]any, sh *catalogShow, p *principal) {
	parent := st.requests.parentByTMDB(sh.TheMovieDbID)
	if parent == nil {
		return
	}
	children := st.requests.childrenOf(parent.ID)
	approved, available, any := len(children) > 0, len(children) > 0, false
	for _, c := range children {
		approved = approved && c.Approved
		available = available && c.Available
		any = any || c.Available
	}
	v["requested"], v["requestId"], v["approved"] = true, parent.ID, approved
	v["available"], v["fullyAvailable"], v["partlyAvailable"] = available, available, any && !available
	v["subscribed"] = st.requests.subscribed(p, 0, parent.ID)
}

// searchMovie is GET /api/v1/Search/movie/{searchTerm}.
func (s *Server) searchMovie(w http.ResponseWriter, r *http.Request) {
	s.writeMovieResults(w, r, movieQuery{term: r.PathValue("searchTerm")})
}

// movieQuery filters the movie catalogue.
type movieQuery struct {
	term string
	year int
}

// writeMovieResults answers SearchMovieViewModel[] for a title query.
func (s *Server) writeMovieResults(w http.ResponseWriter, r *http.Request, q movieQuery) {
	p := principalOf(r)
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, m := range st.search.movies {
			if !containsFold(m.Title, q.term) && !containsFold(m.OriginalTitle, q.term) {
				continue
			}
			if q.year != 0 && m.year() != q.year {
				continue
			}
			out = append(out, st.movieView(m, p, false))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchMovieRefine is POST /api/v1/Search/movie.
func (s *Server) searchMovieRefine(w http.ResponseWriter, r *http.Request) {
	var in struct {
		SearchTerm   string `json:"searchTerm"`
		Year         *int   `json:"year"`
		LanguageCode string `json:"languageCode"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	q := movieQuery{term: in.SearchTerm}
	if in.Year != nil {
		q.year = *in.Year
	}
	s.writeMovieResults(w, r, q)
}

// searchMovieActor is POST /api/v1/Search/movie/actor: movies of people
// whose name matches.
func (s *Server) searchMovieActor(w http.ResponseWriter, r *http.Request) {
	var in struct {
		SearchTerm   string `json:"searchTerm"`
		LanguageCode string `json:"languageCode"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	p := principalOf(r)
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		ids := map[int]bool{}
		for _, pe := range st.search.people {
			if in.SearchTerm != "" && containsFold(pe.Name, in.SearchTerm) {
				ids[pe.ID] = true
			}
		}
		for _, m := range st.search.movies {
			if slices.ContainsFunc(m.Cast, func(id int) bool { return ids[id] }) || slices.ContainsFunc(m.Crew, func(id int) bool { return ids[id] }) {
				out = append(out, st.movieView(m, p, false))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchMovieInfo is GET /api/v1/Search/movie/info/{theMovieDbId}.
func (s *Server) searchMovieInfo(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "theMovieDbId")
	if !ok {
		return
	}
	s.writeMovieInfo(w, r, id)
}

// searchMovieInfoRefine is POST /api/v1/Search/movie/info.
func (s *Server) searchMovieInfoRefine(w http.ResponseWriter, r *http.Request) {
	var in struct {
		TheMovieDbID int    `json:"theMovieDbId"`
		LanguageCode string `json:"languageCode"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	s.writeMovieInfo(w, r, in.TheMovieDbID)
}

// writeMovieInfo answers one SearchMovieViewModel. An id TMDB does not know
// gives the empty view Ombi builds from TMDB's error body (id 0).
func (s *Server) writeMovieInfo(w http.ResponseWriter, r *http.Request, id int) {
	var out map[string]any
	s.store.Read(func(st *store) {
		if m := st.search.movie(id); m != nil {
			out = st.movieView(m, principalOf(r), true)
		}
	})
	if out == nil {
		out = emptyMovieView()
	}
	writeJSON(w, http.StatusOK, out)
}

// emptyMovieView is what Ombi answers for an unknown TMDB id: the view model
// mapped from TMDB's not-found body.
func emptyMovieView() map[string]any {
	v := searchViewBase(0, 1)
	maps.Copy(v, map[string]any{"theMovieDbId": "0", "title": nil, "overview": nil, "posterPath": nil, "backdropPath": nil,
		"releaseDate": nil, "genreIds": nil, "adult": false, "video": false, "voteAverage": 0, "voteCount": 0, "popularity": 0})
	return v
}

// searchMovieSimilarPost is POST /api/v{1,2}/Search/movie/similar.
func (s *Server) searchMovieSimilarPost(w http.ResponseWriter, r *http.Request) {
	var in struct {
		TheMovieDbID int    `json:"theMovieDbId"`
		LanguageCode string `json:"languageCode"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	s.writeSimilar(w, r, in.TheMovieDbID)
}

// searchMovieSimilar is GET /api/v1/Search/movie/{theMovieDbId}/similar.
func (s *Server) searchMovieSimilar(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "theMovieDbId")
	if !ok {
		return
	}
	s.writeSimilar(w, r, id)
}

// writeSimilar answers the similar movies of a TMDB id ([] when unknown).
func (s *Server) writeSimilar(w http.ResponseWriter, r *http.Request, id int) {
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		if m := st.search.movie(id); m != nil {
			for _, sid := range m.Similar {
				if sm := st.search.movie(sid); sm != nil {
					out = append(out, st.movieView(sm, principalOf(r), false))
				}
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// listName extracts the list segment (popular, nowplaying, ...) of a browse path.
func listName(r *http.Request, media string) string {
	parts := splitPath(strings.ToLower(r.URL.Path))
	for i, p := range parts {
		if p == media && i+1 < len(parts) {
			return parts[i+1]
		}
	}
	return ""
}

// movieList returns the catalogue movies of a named list, most popular first.
func (st *store) movieList(name string) []*catalogMovie {
	var out []*catalogMovie
	switch name {
	case "requested":
		for _, rq := range st.requests.movies {
			if m := st.search.movie(rq.TheMovieDbID); m != nil {
				out = append(out, m)
			}
		}
		return out
	case "mostwatched":
		name = "popular"
	}
	for _, m := range st.search.movies {
		if slices.Contains(m.Lists, name) {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b *catalogMovie) int { return cmp.Compare(b.Popularity, a.Popularity) })
	return out
}

// showList returns the catalogue shows of a named list.
func (st *store) showList(name string) []*catalogShow {
	var out []*catalogShow
	if name == "requested" {
		for _, pr := range st.requests.tv {
			if sh := st.search.showByTMDB(pr.ExternalProviderID); sh != nil {
				out = append(out, sh)
			}
		}
		return out
	}
	if name == "mostwatched" {
		name = "popular" // [Obsolete] upstream: same as popular
	}
	for _, sh := range st.search.shows {
		if slices.Contains(sh.Lists, name) {
			out = append(out, sh)
		}
	}
	return out
}

// searchMovieListV1 is GET /api/v{1,2}/Search/movie/{popular|nowplaying|toprated|upcoming}.
func (s *Server) searchMovieListV1(w http.ResponseWriter, r *http.Request) {
	name := listName(r, "movie")
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, m := range st.movieList(name) {
			out = append(out, st.movieView(m, principalOf(r), false))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchMovieBrowse is GET /api/v2/Search/movie/{list}/{currentPosition}/{amountToLoad}.
func (s *Server) searchMovieBrowse(w http.ResponseWriter, r *http.Request) {
	pos, take, ok := positionArgs(w, r)
	if !ok {
		return
	}
	name := listName(r, "movie")
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, m := range window(st.movieList(name), pos, take) {
			out = append(out, st.movieView(m, principalOf(r), false))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// positionArgs reads {currentPosition}/{amountToLoad}.
func positionArgs(w http.ResponseWriter, r *http.Request) (int, int, bool) {
	pos, ok := intArg(w, r, "currentPosition")
	if !ok {
		return 0, 0, false
	}
	take, ok := intArg(w, r, "amountToLoad")
	return pos, take, ok
}

// window slices items[pos:pos+take], clamped.
func window[T any](items []T, pos, take int) []T {
	if pos < 0 || take <= 0 || pos >= len(items) {
		return nil
	}
	return items[pos:min(len(items), pos+take)]
}

// searchAdvancedMovie is POST /api/v2/Search/advancedSearch/movie/{currentPosition}/{amountToLoad}.
func (s *Server) searchAdvancedMovie(w http.ResponseWriter, r *http.Request) {
	pos, take, ok := positionArgs(w, r)
	if !ok {
		return
	}
	var in struct {
		Type           string `json:"type"`
		ReleaseYear    *int   `json:"releaseYear"`
		Decade         *int   `json:"decade"`
		GenreIDs       []int  `json:"genreIds"`
		KeywordIDs     []int  `json:"keywordIds"`
		WatchProviders []int  `json:"watchProviders"`
		Companies      []int  `json:"companies"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		var hits []*catalogMovie
		for _, m := range st.search.movies {
			y := m.year()
			if in.ReleaseYear != nil && y != *in.ReleaseYear {
				continue
			}
			if in.Decade != nil && (y < *in.Decade || y > *in.Decade+9) {
				continue
			}
			if len(in.GenreIDs) > 0 && !anyIn(in.GenreIDs, m.GenreIDs) {
				continue
			}
			if len(in.KeywordIDs) > 0 && !anyIn(in.KeywordIDs, m.KeywordIDs) {
				continue
			}
			if len(in.WatchProviders) > 0 && !st.streamsOn(m.Streaming, in.WatchProviders) {
				continue
			}
			hits = append(hits, m)
		}
		slices.SortStableFunc(hits, func(a, b *catalogMovie) int { return cmp.Compare(b.Popularity, a.Popularity) })
		for _, m := range window(hits, pos, take) {
			out = append(out, st.movieView(m, principalOf(r), false))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// anyIn reports whether any want id is in have.
func anyIn(want, have []int) bool {
	return slices.ContainsFunc(want, func(id int) bool { return slices.Contains(have, id) })
}

// streamsOn reports whether a title streams on any of the provider ids.
func (st *store) streamsOn(streaming []map[string]any, providers []int) bool {
	for _, sv := range streaming {
		for _, wp := range st.search.ref.WatchProviders["movie"] {
			id, _ := wp["provider_id"].(float64)
			if wp["provider_name"] == sv["streamingProvider"] && slices.Contains(providers, int(id)) {
				return true
			}
		}
	}
	return false
}

// searchTV is GET /api/v1/Search/tv/{searchTerm} (TVMaze search).
func (s *Server) searchTV(w http.ResponseWriter, r *http.Request) {
	term := r.PathValue("searchTerm")
	quirk := s.quirk(QuirkV1TVTVDBInMovieDBID)
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, sh := range st.search.shows {
			if sh.TvDbID == 0 || (!containsFold(sh.Title, term) && !slices.ContainsFunc(sh.Aliases, func(a string) bool { return containsFold(a, term) })) {
				continue
			}
			out = append(out, st.tvView(sh, principalOf(r), true, quirk, false, true))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchTVInfo is GET /api/v1/Search/tv/info/{tvdbId}: the episode tree, with
// request flags left false as upstream does.
func (s *Server) searchTVInfo(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "tvdbId")
	if !ok {
		return
	}
	quirk := s.quirk(QuirkV1TVTVDBInMovieDBID)
	var out map[string]any
	s.store.Read(func(st *store) {
		if sh := st.search.showByTVDB(id); sh != nil {
			out = st.tvView(sh, principalOf(r), true, quirk, true, false)
			out["rating"] = "Ombi.Api.TvMaze.Models.Rating"
		}
	})
	writeRecord(w, out)
}

// searchTVListV1 is GET /api/v1/Search/tv/{popular|anticipated|trending|mostwatched} (Trakt).
func (s *Server) searchTVListV1(w http.ResponseWriter, r *http.Request) {
	name := listName(r, "tv")
	quirk := s.quirk(QuirkV1TVTVDBInMovieDBID)
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, sh := range st.showList(name) {
			out = append(out, st.tvView(sh, principalOf(r), true, quirk, false, true))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchTVBrowse is GET /api/v2/Search/tv/{list}/{currentPosition}/{amountToLoad}.
func (s *Server) searchTVBrowse(w http.ResponseWriter, r *http.Request) {
	pos, take, ok := positionArgs(w, r)
	if !ok {
		return
	}
	name := listName(r, "tv")
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, sh := range window(st.showList(name), pos, take) {
			out = append(out, st.tvView(sh, principalOf(r), false, false, false, true))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchTVRequested is GET /api/v2/Search/tv/requested/{currentPosition}/{amountToLoad}.
func (s *Server) searchTVRequested(w http.ResponseWriter, r *http.Request) {
	pos, take, ok := positionArgs(w, r)
	if !ok {
		return
	}
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, sh := range window(st.showList("requested"), pos, take) {
			out = append(out, st.tvFullView(sh, principalOf(r)))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchMovieDetails is GET /api/v2/Search/movie/{movieDbId}.
func (s *Server) searchMovieDetails(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "movieDbId")
	if !ok {
		return
	}
	s.writeMovieFull(w, r, func(st *store) (*catalogMovie, bool) { return st.search.movie(id), true })
}

// searchMovieByIMDb is GET /api/v2/Search/movie/imdb/{imdbid}.
func (s *Server) searchMovieByIMDb(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("imdbid")
	s.writeMovieFull(w, r, func(st *store) (*catalogMovie, bool) { return st.search.movieByIMDb(id), true })
}

// searchMovieByRequest is GET /api/v2/Search/movie/request/{requestId}; an
// unknown request id dereferences null upstream (500).
func (s *Server) searchMovieByRequest(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "requestId")
	if !ok {
		return
	}
	s.writeMovieFull(w, r, func(st *store) (*catalogMovie, bool) {
		rq := st.requests.movieByID(id)
		if rq == nil {
			return nil, false
		}
		return st.search.movie(rq.TheMovieDbID), true
	})
}

// writeMovieFull answers MovieFullInfoViewModel for the movie find returns.
// find reports false when upstream would throw (500); an unknown TMDB id gives
// the empty view Ombi builds from TMDB's not-found body.
func (s *Server) writeMovieFull(w http.ResponseWriter, r *http.Request, find func(st *store) (*catalogMovie, bool)) {
	var out map[string]any
	found := true
	s.store.Read(func(st *store) {
		var m *catalogMovie
		m, found = find(st)
		if m != nil {
			out = st.movieFullView(m, principalOf(r))
		}
	})
	switch {
	case !found:
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
	case out == nil:
		writeJSON(w, http.StatusOK, emptyMovieView())
	default:
		writeJSON(w, http.StatusOK, out)
	}
}

// searchCollection is GET /api/v2/Search/movie/collection/{collectionId}.
func (s *Server) searchCollection(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "collectionId")
	if !ok {
		return
	}
	var out map[string]any
	s.store.Read(func(st *store) {
		c := st.search.collection(id)
		if c == nil {
			return
		}
		parts := []map[string]any{}
		for _, m := range st.search.movies {
			if m.CollectionID == nil || *m.CollectionID != id {
				continue
			}
			v := searchViewBase(m.TheMovieDbID, 1)
			maps.Copy(v, map[string]any{"theMovieDbId": strconv.Itoa(m.TheMovieDbID), "overview": m.Overview,
				"posterPath": m.PosterPath, "title": m.Title, "releaseDate": m.ReleaseDate, "imdbId": m.ImdbID})
			st.overlayMovie(v, m.TheMovieDbID, principalOf(r))
			parts = append(parts, v)
		}
		slices.SortStableFunc(parts, func(a, b map[string]any) int {
			return compareAny(a["releaseDate"], b["releaseDate"])
		})
		out = mergeExtra(map[string]any{"name": c.Name, "overview": c.Overview, "collection": parts}, c.Extra)
	})
	if out == nil {
		out = map[string]any{"name": nil, "overview": nil, "collection": []any{}}
	}
	writeJSON(w, http.StatusOK, out)
}

// searchTVDetails is GET /api/v2/Search/tv/{tvdbId} and tv/moviedb/{moviedbid}:
// both take a TMDB id.
func (s *Server) searchTVDetails(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("moviedbid")
	if raw == "" {
		raw = r.PathValue("tvdbId")
	}
	id, err := strconv.Atoi(raw)
	if err != nil {
		writeProblemErrors(w, http.StatusBadRequest, map[string][]string{"id": {"The value '" + raw + "' is not valid."}})
		return
	}
	var out map[string]any
	s.store.Read(func(st *store) {
		if sh := st.search.showByTMDB(id); sh != nil {
			out = st.tvFullView(sh, principalOf(r))
		}
	})
	writeRecord(w, out)
}

// searchTVByRequest is GET /api/v2/Search/tv/request/{requestId} (TV parent id).
func (s *Server) searchTVByRequest(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "requestId")
	if !ok {
		return
	}
	var out map[string]any
	found := false
	s.store.Read(func(st *store) {
		pr := st.requests.parentByID(id)
		if pr == nil {
			return
		}
		found = true
		if sh := st.search.showByTMDB(pr.ExternalProviderID); sh != nil {
			out = st.tvFullView(sh, principalOf(r))
		}
	})
	switch {
	case !found:
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
	case out == nil:
		noContent(w)
	default:
		writeJSON(w, http.StatusOK, out)
	}
}

// searchActorCredits is GET /api/v2/Search/actor/{actorId}/{movie|tv}: TMDB
// combined credits in snake_case.
func (s *Server) searchActorCredits(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "actorId")
	if !ok {
		return
	}
	tv := strings.HasSuffix(strings.ToLower(strings.TrimSuffix(r.URL.Path, "/")), "/tv")
	cast, crew := []map[string]any{}, []map[string]any{}
	s.store.Read(func(st *store) {
		if tv {
			for _, sh := range st.search.shows {
				if slices.Contains(sh.Cast, id) {
					cast = append(cast, map[string]any{"id": sh.TheMovieDbID, "name": sh.Title, "original_name": sh.Title,
						"first_air_date": sh.FirstAired, "character": "Lead", "credit_id": fmt.Sprintf("525%07d%d", sh.TheMovieDbID, id%1000),
						"episode_count": 10, "poster_path": sh.PosterPath, "backdrop_path": sh.BackdropPath, "genre_ids": sh.GenreIDs,
						"origin_country": []string{"US"}, "original_language": "en", "overview": sh.Overview, "popularity": 50.0, "vote_average": 8.1, "vote_count": 1200})
				}
			}
			return
		}
		for _, m := range st.search.movies {
			credit := map[string]any{"adult": m.Adult, "backdrop_path": m.BackdropPath, "genre_ids": m.GenreIDs, "id": m.TheMovieDbID,
				"original_language": m.OriginalLanguage, "original_title": m.OriginalTitle, "overview": m.Overview, "popularity": m.Popularity,
				"poster_path": m.PosterPath, "release_date": dateOnly(m.ReleaseDate), "title": m.Title, "video": m.Video,
				"vote_average": m.VoteAverage, "vote_count": m.VoteCount}
			if i := slices.Index(m.Cast, id); i >= 0 {
				c := maps.Clone(credit)
				c["character"], c["credit_id"], c["order"] = "Role "+strconv.Itoa(i+1), fmt.Sprintf("52fe4%07dc3a36847f8%d", m.TheMovieDbID%10000000, i), i
				cast = append(cast, c)
			}
			if i := slices.Index(m.Crew, id); i >= 0 {
				c := maps.Clone(credit)
				c["department"], c["job"], c["credit_id"] = "Directing", "Director", fmt.Sprintf("5e8f1%07dd9a1b2c3%d", m.TheMovieDbID%10000000, i)
				crew = append(crew, c)
			}
		}
	})
	writeJSON(w, http.StatusOK, map[string]any{"cast": cast, "crew": crew, "id": id})
}

// artistView is SearchArtistViewModel (note the upstream typo forignArtistId).
func artistView(a *catalogArtist) map[string]any {
	return mergeExtra(map[string]any{"artistName": a.ArtistName, "forignArtistId": a.ForeignArtistID, "overview": a.Overview,
		"disambiguation": a.Disambiguation, "banner": a.Banner, "poster": a.Poster, "logo": a.Logo, "monitored": false,
		"artistType": a.Type, "cleanName": strings.ToLower(strings.ReplaceAll(a.ArtistName, " ", "")), "links": a.Links}, a.Extra)
}

// albumView is SearchAlbumViewModel with request flags.
func (st *store) albumView(a *catalogArtist, al *catalogAlbum) map[string]any {
	v := searchViewBase(0, 2)
	maps.Copy(v, map[string]any{"title": al.Title, "foreignAlbumId": al.ForeignAlbumID, "monitored": false, "albumType": al.AlbumType,
		"rating": al.Rating, "releaseDate": al.ReleaseDate, "artistName": a.ArtistName, "foreignArtistId": a.ForeignArtistID,
		"cover": al.Cover, "disk": al.Disk, "percentOfTracks": 0, "genres": al.Genres, "partiallyAvailable": false, "fullyAvailable": false})
	if rq := st.requests.albumByForeignID(al.ForeignAlbumID); rq != nil {
		v["requested"], v["requestId"], v["approved"], v["available"] = true, rq.ID, rq.Approved, rq.Available
		v["denied"], v["deniedReason"], v["fullyAvailable"] = rq.Denied, nullIfEmpty(rq.DeniedReason), rq.Available
		if rq.Available {
			v["percentOfTracks"] = 100
		}
	}
	return mergeExtra(v, al.Extra)
}

// searchArtist is GET /api/v1/Search/music/artist/{searchTerm}.
func (s *Server) searchArtist(w http.ResponseWriter, r *http.Request) {
	term := r.PathValue("searchTerm")
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, a := range st.search.artists {
			if containsFold(a.ArtistName, term) {
				out = append(out, artistView(a))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchAlbum is GET /api/v1/Search/music/album/{searchTerm}.
func (s *Server) searchAlbum(w http.ResponseWriter, r *http.Request) {
	term := r.PathValue("searchTerm")
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, a := range st.search.artists {
			for i := range a.Albums {
				if containsFold(a.Albums[i].Title, term) {
					out = append(out, st.albumView(a, &a.Albums[i]))
				}
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchAlbumInfo is GET /api/v1/Search/music/album/info/{foreignAlbumId}.
func (s *Server) searchAlbumInfo(w http.ResponseWriter, r *http.Request) {
	var out map[string]any
	s.store.Read(func(st *store) {
		if a, al := st.search.album(r.PathValue("foreignAlbumId")); al != nil {
			out = st.albumView(a, al)
		}
	})
	writeRecord(w, out)
}

// searchArtistAlbums is GET /api/v1/Search/music/artist/album/{foreignArtistId}.
func (s *Server) searchArtistAlbums(w http.ResponseWriter, r *http.Request) {
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		if a := st.search.artist(r.PathValue("foreignArtistId")); a != nil {
			for i := range a.Albums {
				out = append(out, st.albumView(a, &a.Albums[i]))
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// artistInformation is the v2 ArtistInformation model.
func (st *store) artistInformation(a *catalogArtist) map[string]any {
	groups := []map[string]any{}
	for _, al := range a.Albums {
		groups = append(groups, map[string]any{"id": al.ForeignAlbumID, "title": al.Title, "releaseDate": al.ReleaseDate.Format("2006-01-02"), "type": al.AlbumType})
	}
	return mergeExtra(map[string]any{"id": a.ForeignArtistID, "name": a.ArtistName, "startYear": a.StartYear, "endYear": nil,
		"type": a.Type, "country": a.Country, "region": nil, "disambiguation": a.Disambiguation, "banner": a.Banner, "logo": a.Logo,
		"poster": a.Poster, "fanArt": a.Banner, "overview": a.Overview, "releaseGroups": groups, "members": a.Members,
		"links": map[string]any{"musicBrainz": "https://musicbrainz.org/artist/" + a.ForeignArtistID}, "image": a.Poster}, a.Extra)
}

// searchArtistInfo is GET /api/v2/Search/artist/{artistId}.
func (s *Server) searchArtistInfo(w http.ResponseWriter, r *http.Request) {
	var out map[string]any
	s.store.Read(func(st *store) {
		if a := st.search.artist(r.PathValue("artistId")); a != nil {
			out = st.artistInformation(a)
		}
	})
	writeRecord(w, out)
}

// searchArtistByRequest is GET /api/v2/Search/artist/request/{requestId}: the
// artist of an album request.
func (s *Server) searchArtistByRequest(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "requestId")
	if !ok {
		return
	}
	var out map[string]any
	found := false
	s.store.Read(func(st *store) {
		rq := st.requests.albumByID(id)
		if rq == nil {
			return
		}
		found = true
		if a := st.search.artist(rq.ForeignArtistID); a != nil {
			out = st.artistInformation(a)
		}
	})
	switch {
	case !found:
		writeOmbiError(w, http.StatusInternalServerError, msgNullReference)
	case out == nil:
		noContent(w)
	default:
		writeJSON(w, http.StatusOK, out)
	}
}

// searchReleaseGroup is GET /api/v2/Search/artist/album/{albumId}.
func (s *Server) searchReleaseGroup(w http.ResponseWriter, r *http.Request) {
	var out map[string]any
	s.store.Read(func(st *store) {
		if a, al := st.search.album(r.PathValue("albumId")); al != nil {
			out = mergeExtra(map[string]any{"id": al.ForeignAlbumID, "title": al.Title, "releaseDate": al.ReleaseDate.Format("2006-01-02"),
				"type": al.AlbumType, "artistId": a.ForeignArtistID, "artistName": a.ArtistName, "trackCount": al.TrackCount}, al.Extra)
		}
	})
	writeRecord(w, out)
}

// searchAlbumArt is GET /api/v2/Search/releasegroupart/{musicBrainzId}.
func (s *Server) searchAlbumArt(w http.ResponseWriter, r *http.Request) {
	image := ""
	s.store.Read(func(st *store) {
		if _, al := st.search.album(r.PathValue("musicBrainzId")); al != nil {
			image = al.Cover
		}
	})
	writeJSON(w, http.StatusOK, map[string]any{"image": image})
}

// rottenTomatoesFailure is the 500 Ombi gives now that the Rotten Tomatoes API is gone.
const rottenTomatoesFailure = "Response status code does not indicate success: 404 (Not Found)."

// searchRatingsMovie is GET /api/v2/Search/ratings/movie/{name}/{year}.
func (s *Server) searchRatingsMovie(w http.ResponseWriter, r *http.Request) {
	s.writeRatings(w, r, func(st *store, name string, year int) map[string]any {
		var out map[string]any
		for _, m := range st.search.movies {
			if strings.EqualFold(m.Title, name) && m.year() == year {
				out = m.Ratings
			}
		}
		return out
	})
}

// searchRatingsTV is GET /api/v2/Search/ratings/tv/{name}/{year}.
func (s *Server) searchRatingsTV(w http.ResponseWriter, r *http.Request) {
	s.writeRatings(w, r, func(st *store, name string, year int) map[string]any {
		var out map[string]any
		for _, sh := range st.search.shows {
			if strings.EqualFold(sh.Title, name) && sh.year() == year {
				out = sh.Ratings
			}
		}
		return out
	})
}

// writeRatings answers a ratings route: the Rotten Tomatoes quirk's 500, or
// the ratings of the title and year that lookup finds (204 when none).
func (s *Server) writeRatings(w http.ResponseWriter, r *http.Request, lookup func(st *store, name string, year int) map[string]any) {
	if s.quirk(QuirkRatingsRottenTomatoes) {
		writeOmbiError(w, http.StatusInternalServerError, rottenTomatoesFailure)
		return
	}
	year, ok := intArg(w, r, "year")
	if !ok {
		return
	}
	var out map[string]any
	s.store.Read(func(st *store) { out = lookup(st, r.PathValue("name"), year) })
	writeRecord(w, out)
}

// searchStream is GET /api/v2/Search/stream/{movie|tv}/{movieDbId}.
func (s *Server) searchStream(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "movieDbId")
	if !ok {
		return
	}
	tv := strings.Contains(strings.ToLower(r.URL.Path), "/stream/tv/")
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		if tv {
			if sh := st.search.showByTMDB(id); sh != nil {
				out = append(out, sh.Streaming...)
			}
		} else if m := st.search.movie(id); m != nil {
			out = append(out, m.Streaming...)
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// searchGenres is GET /api/v2/Search/Genres/{media} (and the TheMovieDb twin).
func (s *Server) searchGenres(w http.ResponseWriter, r *http.Request) {
	media := strings.ToLower(r.PathValue("media"))
	out := []idName{}
	s.store.Read(func(st *store) { out = append(out, st.search.ref.Genres[media]...) })
	writeJSON(w, http.StatusOK, out)
}

// searchLanguages is GET /api/v2/Search/Languages; with the mojibake quirk
// some native names arrive as question marks or U+FFFD.
func (s *Server) searchLanguages(w http.ResponseWriter, r *http.Request) {
	mojibake := s.quirk(QuirkLanguageMojibake)
	out := []map[string]string{}
	s.store.Read(func(st *store) {
		for i, l := range st.search.ref.Languages {
			l = maps.Clone(l)
			if mojibake && !isASCII(l["name"]) {
				if i%2 == 0 {
					l["name"] = strings.Repeat("?", len([]rune(l["name"])))
				} else {
					l["name"] = strings.Repeat("\uFFFD", len([]rune(l["name"])))
				}
			}
			out = append(out, l)
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// isASCII reports whether s is plain ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// tmdbKeywords is GET /api/v1/TheMovieDb/Keywords?searchTerm=.
func (s *Server) tmdbKeywords(w http.ResponseWriter, r *http.Request) {
	term := queryFold(r, "searchTerm")
	out := []idName{}
	s.store.Read(func(st *store) {
		for _, k := range st.search.ref.Keywords {
			if containsFold(k.Name, term) {
				out = append(out, k)
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// tmdbKeyword is GET /api/v1/TheMovieDb/Keywords/{keywordId}; unknown → 404.
func (s *Server) tmdbKeyword(w http.ResponseWriter, r *http.Request) {
	id, ok := intArg(w, r, "keywordId")
	if !ok {
		return
	}
	var out *idName
	s.store.Read(func(st *store) {
		for _, k := range st.search.ref.Keywords {
			if k.ID == id {
				out = &k
			}
		}
	})
	if out == nil {
		writeProblem(w, http.StatusNotFound)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// tmdbWatchProviders is GET /api/v1/TheMovieDb/WatchProviders/{movie|tv}?searchTerm=.
func (s *Server) tmdbWatchProviders(w http.ResponseWriter, r *http.Request) {
	media := "movie"
	if strings.HasSuffix(strings.ToLower(strings.TrimSuffix(r.URL.Path, "/")), "/tv") {
		media = "tv"
	}
	term := queryFold(r, "searchTerm")
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, p := range st.search.ref.WatchProviders[media] {
			name, _ := p["provider_name"].(string)
			if containsFold(name, term) {
				out = append(out, p)
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// identityStreamingCountries is GET /api/v1/Identity/streamingcountry.
func (s *Server) identityStreamingCountries(w http.ResponseWriter, r *http.Request) {
	out := []string{}
	s.store.Read(func(st *store) { out = append(out, st.search.ref.StreamingCountries...) })
	writeJSON(w, http.StatusOK, out)
}

// searchMulti is POST /api/v2/Search/multi/{searchTerm}: artists (no poster
// or overview) first, then movies "Title (YYYY)", TV titles and people.
func (s *Server) searchMulti(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Movies  bool `json:"movies"`
		TvShows bool `json:"tvShows"`
		Music   bool `json:"music"`
		People  bool `json:"people"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	term := r.PathValue("searchTerm")
	type hit struct {
		pop float64
		v   map[string]any
	}
	var hits []hit
	music := []map[string]any{}
	s.store.Read(func(st *store) {
		if in.Movies {
			for _, m := range st.search.movies {
				if containsFold(m.Title, term) {
					hits = append(hits, hit{m.Popularity, map[string]any{"id": strconv.Itoa(m.TheMovieDbID), "mediaType": "movie",
						"title": fmt.Sprintf("%s (%d)", m.Title, m.year()), "poster": nullIfEmpty(m.PosterPath), "overview": m.Overview}})
				}
			}
		}
		if in.TvShows {
			for _, sh := range st.search.shows {
				if containsFold(sh.Title, term) {
					// TMDB multi results carry no release_date for TV, so no year is appended
					hits = append(hits, hit{float64(sh.SiteRating) * 10, map[string]any{"id": strconv.Itoa(sh.TheMovieDbID), "mediaType": "tv",
						"title": sh.Title, "poster": nullIfEmpty(sh.PosterPath), "overview": sh.Overview}})
				}
			}
		}
		if in.People {
			for _, pe := range st.search.people {
				if containsFold(pe.Name, term) {
					hits = append(hits, hit{pe.Popularity, map[string]any{"id": strconv.Itoa(pe.ID), "mediaType": "person",
						"title": pe.Name, "poster": nil, "overview": nil}})
				}
			}
		}
		if in.Music {
			for _, a := range st.search.artists {
				if containsFold(a.ArtistName, term) {
					music = append(music, map[string]any{"id": a.ForeignArtistID, "mediaType": "Artist",
						"title": a.ArtistName, "poster": nil, "overview": nil})
				}
			}
		}
	})
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(b.pop, a.pop) })
	out := music // MusicBrainz artists come first, then TMDB's results in its order
	for _, h := range hits {
		out = append(out, h.v)
	}
	writeJSON(w, http.StatusOK, out)
}

// queryFold reads a query value by case-insensitive key, as ASP.NET binds.
func queryFold(r *http.Request, key string) string {
	for k, v := range r.URL.Query() {
		if strings.EqualFold(k, key) && len(v) > 0 {
			return v[0]
		}
	}
	return ""
}

// intArg reads an int path value bound without a route constraint; a non-int
// gets the [ApiController] 400 ProblemDetails.
func intArg(w http.ResponseWriter, r *http.Request, name string) (int, bool) {
	raw := r.PathValue(name)
	n, err := strconv.Atoi(raw)
	if err != nil {
		writeProblemErrors(w, http.StatusBadRequest, map[string][]string{name: {"The value '" + raw + "' is not valid."}})
		return 0, false
	}
	return n, true
}

package db

import (
	"strconv"
	"strings"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// CatalogMovie is one TMDB movie the mock knows.
type CatalogMovie struct {
	TheMovieDbID        int                                   `json:"theMovieDbId"`
	ImdbID              string                                `json:"imdbId"`
	Title               string                                `json:"title"`
	OriginalTitle       string                                `json:"originalTitle"`
	Overview            string                                `json:"overview"`
	ReleaseDate         *time.Time                            `json:"releaseDate"`
	DigitalReleaseDate  *time.Time                            `json:"digitalReleaseDate"`
	PosterPath          string                                `json:"posterPath"`
	BackdropPath        string                                `json:"backdropPath"`
	GenreIDs            []int                                 `json:"genreIds"`
	OriginalLanguage    string                                `json:"originalLanguage"`
	Popularity          float64                               `json:"popularity"`
	VoteAverage         float64                               `json:"voteAverage"`
	VoteCount           int                                   `json:"voteCount"`
	Adult               bool                                  `json:"adult"`
	Video               bool                                  `json:"video"`
	Runtime             int                                   `json:"runtime"`
	Budget              int                                   `json:"budget"`
	Revenue             float64                               `json:"revenue"`
	Tagline             string                                `json:"tagline"`
	Status              string                                `json:"status"`
	Homepage            string                                `json:"homepage"`
	Trailer             string                                `json:"trailer"`
	CollectionID        *int                                  `json:"collectionId"`
	Lists               []string                              `json:"lists"`
	KeywordIDs          []int                                 `json:"keywordIds"`
	Similar             []int                                 `json:"similar"`
	Cast                []int                                 `json:"cast"`
	Crew                []int                                 `json:"crew"`
	Streaming           []*state.StreamingData                `json:"streaming"`
	Ratings             *state.MovieRatings                   `json:"ratings"`
	ProductionCompanies []*state.ProductionCompaniesViewModel `json:"productionCompanies"`
	Extra               map[string]any                        `json:"extra"`
}

// Year is the release year, 0 when unknown.
func (m *CatalogMovie) Year() int {
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

// CatalogSeason is one season of a catalogue show.
type CatalogSeason struct {
	SeasonNumber int              `json:"seasonNumber"`
	Overview     string           `json:"overview"`
	Episodes     []catalogEpisode `json:"episodes"`
}

// CatalogShow is one TV show with its TMDB, TVDB, TVMaze and IMDb ids.
type CatalogShow struct {
	TheMovieDbID  int                     `json:"theMovieDbId"`
	TvDbID        int                     `json:"tvDbId"`
	TvMazeID      int                     `json:"tvMazeId"`
	ImdbID        string                  `json:"imdbId"`
	Title         string                  `json:"title"`
	Aliases       []string                `json:"aliases"`
	Overview      string                  `json:"overview"`
	FirstAired    string                  `json:"firstAired"`
	Network       *state.NetworkViewModel `json:"network"`
	NetworkID     string                  `json:"networkId"`
	Status        string                  `json:"status"`
	Runtime       string                  `json:"runtime"`
	GenreIDs      []int                   `json:"genreIds"`
	Lists         []string                `json:"lists"`
	AirsDayOfWeek string                  `json:"airsDayOfWeek"`
	AirsTime      string                  `json:"airsTime"`
	SiteRating    int                     `json:"siteRating"`
	VoteAverage   float64                 `json:"voteAverage"`
	Certification string                  `json:"certification"`
	Tagline       string                  `json:"tagline"`
	Homepage      string                  `json:"homepage"`
	Trailer       string                  `json:"trailer"`
	PosterPath    string                  `json:"posterPath"`
	BackdropPath  string                  `json:"backdropPath"`
	Banner        string                  `json:"banner"`
	KeywordIDs    []int                   `json:"keywordIds"`
	Cast          []int                   `json:"cast"`
	Streaming     []*state.StreamingData  `json:"streaming"`
	Ratings       *state.TvRatings        `json:"ratings"`
	Seasons       []CatalogSeason         `json:"seasons"`
	Extra         map[string]any          `json:"extra"`
}

// AverageVote is TMDB's vote_average for the show; data without one falls
// back to siteRating.
func (sh *CatalogShow) AverageVote() float64 {
	if sh.VoteAverage > 0 {
		return sh.VoteAverage
	}
	return float64(sh.SiteRating)
}

// TmdbRating is Ombi's TV rating: TMDB's vote_average (a float) as .NET's
// float.ToString() writes it, e.g. "8.9" (Mapping/Profiles/TvProfile.cs,
// TvProfileV2.cs).
func (sh *CatalogShow) TmdbRating() string {
	return strconv.FormatFloat(float64(float32(sh.AverageVote())), 'f', -1, 32)
}

// Year is the first-aired year, 0 when unknown.
func (sh *CatalogShow) Year() int {
	y, _ := strconv.Atoi(strings.SplitN(sh.FirstAired, "-", 2)[0])
	return y
}

// Episode finds an episode of the show.
func (sh *CatalogShow) Episode(season, number int) *catalogEpisode {
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

// CatalogAlbum is one MusicBrainz release group.
type CatalogAlbum struct {
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

// CatalogArtist is one MusicBrainz artist with its albums.
type CatalogArtist struct {
	ForeignArtistID string                `json:"foreignArtistId"`
	ArtistName      string                `json:"artistName"`
	Type            string                `json:"type"`
	Country         string                `json:"country"`
	StartYear       string                `json:"startYear"`
	Disambiguation  string                `json:"disambiguation"`
	Overview        string                `json:"overview"`
	Banner          string                `json:"banner"`
	Poster          string                `json:"poster"`
	Logo            string                `json:"logo"`
	Links           []*state.Link         `json:"links"`
	Members         []*state.ArtistMember `json:"members"`
	Albums          []CatalogAlbum        `json:"albums"`
	Extra           map[string]any        `json:"extra"`
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

// referenceSeed is reference.json.
type referenceSeed struct {
	Genres             map[string][]state.IDName   `json:"genres"`
	Languages          []map[string]string         `json:"languages"`
	Keywords           []state.IDName              `json:"keywords"`
	WatchProviders     map[string][]map[string]any `json:"watchProviders"`
	StreamingCountries []string                    `json:"streamingCountries"`
}

// SearchState is the read-only media catalogue behind the search routes.
type SearchState struct {
	Movies      []*CatalogMovie
	Shows       []*CatalogShow
	Artists     []*CatalogArtist
	People      []*catalogPerson
	collections []*catalogCollection
	Ref         referenceSeed
}

// newSearchState loads movies.json, tv.json, music.json and reference.json,
// plus the generated catalogue of the large data set.
func newSearchState(sd *seedSet) (SearchState, error) {
	var ss SearchState
	var mv struct {
		Collections []*catalogCollection `json:"collections"`
		People      []*catalogPerson     `json:"people"`
		Movies      []*CatalogMovie      `json:"movies"`
	}
	for _, step := range []struct {
		file string
		v    any
	}{{"movies.json", &mv}, {"tv.json", &ss.Shows}, {"music.json", &ss.Artists}, {"reference.json", &ss.Ref}} {
		if err := sd.decode(step.file, step.v); err != nil {
			return SearchState{}, err
		}
	}
	ss.Movies, ss.People, ss.collections = mv.Movies, mv.People, mv.Collections
	if sd.large {
		ss.generateLarge()
	}
	return ss, nil
}

// Movie finds a movie by TMDB id.
func (ss *SearchState) Movie(id int) *CatalogMovie {
	return findBy(ss.Movies, func(m *CatalogMovie) bool { return m.TheMovieDbID == id })
}

// MovieByIMDb finds a movie by IMDb id, ignoring case.
func (ss *SearchState) MovieByIMDb(id string) *CatalogMovie {
	return findBy(ss.Movies, func(m *CatalogMovie) bool { return strings.EqualFold(m.ImdbID, id) })
}

// ShowByTMDB finds a show by TMDB id.
func (ss *SearchState) ShowByTMDB(id int) *CatalogShow {
	return findBy(ss.Shows, func(sh *CatalogShow) bool { return sh.TheMovieDbID == id })
}

// ShowByTVDB finds a show by TVDB id.
func (ss *SearchState) ShowByTVDB(id int) *CatalogShow {
	return findBy(ss.Shows, func(sh *CatalogShow) bool { return sh.TvDbID == id })
}

// Album finds an album and its artist by MusicBrainz release-group id.
func (ss *SearchState) Album(id string) (*CatalogArtist, *CatalogAlbum) {
	for _, a := range ss.Artists {
		for i := range a.Albums {
			if strings.EqualFold(a.Albums[i].ForeignAlbumID, id) {
				return a, &a.Albums[i]
			}
		}
	}
	return nil, nil
}

// Artist finds an artist by MusicBrainz id.
func (ss *SearchState) Artist(id string) *CatalogArtist {
	return findBy(ss.Artists, func(a *CatalogArtist) bool { return strings.EqualFold(a.ForeignArtistID, id) })
}

// Person finds a person by TMDB id.
func (ss *SearchState) Person(id int) *catalogPerson {
	return findBy(ss.People, func(p *catalogPerson) bool { return p.ID == id })
}

// Collection finds a collection by id.
func (ss *SearchState) Collection(id int) *catalogCollection {
	return findBy(ss.collections, func(c *catalogCollection) bool { return c.ID == id })
}

// GenreNames maps genre ids to {id, name} pairs for a media type.
func (ss *SearchState) GenreNames(media string, ids []int) []state.IDName {
	out := []state.IDName{}
	for _, id := range ids {
		for _, g := range ss.Ref.Genres[media] {
			if g.ID == id {
				out = append(out, g)
			}
		}
	}
	return out
}

// Keywords maps keyword ids to {id, name} pairs.
func (ss *SearchState) Keywords(ids []int) []state.IDName {
	out := []state.IDName{}
	for _, id := range ids {
		for _, k := range ss.Ref.Keywords {
			if k.ID == id {
				out = append(out, k)
			}
		}
	}
	return out
}

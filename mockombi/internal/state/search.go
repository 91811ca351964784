package state

import "time"

// MultiSearchResult is Ombi's MultiSearchResult, one hit of the v2 multi
// search: a movie, show or person from TMDB or an artist from
// MusicBrainz.
type MultiSearchResult struct {
	ID        string  `json:"id"`
	MediaType string  `json:"mediaType"`
	Overview  *string `json:"overview"`
	Poster    *string `json:"poster"`
	Title     string  `json:"title"`
}

// SearchViewModel is Ombi's SearchViewModel, the part every search result
// carries, less its id (a view declares its own: an int, or the
// MusicBrainz id of a ReleaseGroup). Ombi serialises the ids of other
// databases as strings.
type SearchViewModel struct {
	Approved      bool    `json:"approved"`
	Available     bool    `json:"available"`
	Denied        *bool   `json:"denied"`
	DeniedReason  *string `json:"deniedReason"`
	EmbyURL       *string `json:"embyUrl"`
	ImdbID        *string `json:"imdbId"`
	JellyfinURL   *string `json:"jellyfinUrl"`
	PlexURL       *string `json:"plexUrl"`
	Quality       *string `json:"quality"`
	RequestID     int     `json:"requestId"`
	Requested     bool    `json:"requested"`
	ShowSubscribe bool    `json:"showSubscribe"`
	Subscribed    bool    `json:"subscribed"`
	TheMovieDbID  *string `json:"theMovieDbId"`
	TheTvDbID     *string `json:"theTvDbId"`
	Type          int     `json:"type"`
}

// Movie4K is SearchMovieViewModel's 4K part, at its defaults until
// ExistingRule copies a request's.
type Movie4K struct {
	Approved4K          bool       `json:"approved4K"`
	Available4K         bool       `json:"available4K"`
	Denied4K            *bool      `json:"denied4K"`
	DeniedReason4K      *string    `json:"deniedReason4K"`
	Has4KRequest        bool       `json:"has4KRequest"`
	MarkedAsApproved4K  time.Time  `json:"markedAsApproved4K"`
	MarkedAsAvailable4K *time.Time `json:"markedAsAvailable4K"`
	MarkedAsDenied4K    time.Time  `json:"markedAsDenied4K"`
	RequestedDate4k     time.Time  `json:"requestedDate4k"`
}

// SearchMovieViewModel is Ombi's SearchMovieViewModel (v1 search and
// lists, v2 discover lists).
type SearchMovieViewModel struct {
	SearchViewModel
	Movie4K
	ID                 int           `json:"id"`
	Adult              bool          `json:"adult"`
	AlreadyInCp        bool          `json:"alreadyInCp"`
	BackdropPath       *string       `json:"backdropPath"`
	DigitalReleaseDate *time.Time    `json:"digitalReleaseDate"`
	GenreIDs           []int         `json:"genreIds"`
	Homepage           *string       `json:"homepage"`
	OriginalLanguage   string        `json:"originalLanguage"`
	OriginalTitle      string        `json:"originalTitle"`
	Overview           string        `json:"overview"`
	Popularity         float64       `json:"popularity"`
	PosterPath         *string       `json:"posterPath"`
	QualityOverride    int           `json:"qualityOverride"`
	ReleaseDate        *time.Time    `json:"releaseDate"`
	ReleaseDates       *ReleaseDates `json:"releaseDates"`
	RootPathOverride   int           `json:"rootPathOverride"`
	Title              string        `json:"title"`
	Trailer            *string       `json:"trailer"`
	Video              bool          `json:"video"`
	VoteAverage        float64       `json:"voteAverage"`
	VoteCount          int           `json:"voteCount"`
	Extra              Extra         `json:"-"`
}

// MarshalJSON writes the view with the catalogue's undocumented members.
func (v *SearchMovieViewModel) MarshalJSON() ([]byte, error) {
	type plain SearchMovieViewModel
	return marshalWith((*plain)(v), v.Extra)
}

// ReleaseDates is TMDB's release_dates block in Ombi's shape.
type ReleaseDates struct {
	Results []ReleaseDateCountry `json:"results"`
}

// ReleaseDateCountry is one country's release dates.
type ReleaseDateCountry struct {
	IsoCode     string        `json:"isoCode"`
	ReleaseDate []ReleaseDate `json:"releaseDate"`
}

// ReleaseDate is one release: its date and TMDB's release type (3
// theatrical, 4 digital).
type ReleaseDate struct {
	ReleaseDate *time.Time `json:"releaseDate"`
	Type        int        `json:"type"`
}

// EmptyMovieView is the SearchMovieViewModel Ombi maps from TMDB's
// not-found body: id 0, no title, zero ratings.
type EmptyMovieView struct {
	SearchViewModel
	ID           int        `json:"id"`
	Adult        bool       `json:"adult"`
	BackdropPath *string    `json:"backdropPath"`
	GenreIDs     []int      `json:"genreIds"`
	Overview     *string    `json:"overview"`
	Popularity   float64    `json:"popularity"`
	PosterPath   *string    `json:"posterPath"`
	ReleaseDate  *time.Time `json:"releaseDate"`
	Title        *string    `json:"title"`
	Video        bool       `json:"video"`
	VoteAverage  float64    `json:"voteAverage"`
	VoteCount    int        `json:"voteCount"`
}

// MarshalJSON writes the view's members in wire order.
func (v *EmptyMovieView) MarshalJSON() ([]byte, error) {
	type plain EmptyMovieView
	return marshalWith((*plain)(v), nil)
}

// MovieCollection is Ombi's MovieCollection, one movie of a collection
// (v2 movie/collection): the SearchViewModel with the movie's ids, text
// and date, and the 4K part only when ExistingRule found a request.
type MovieCollection struct {
	SearchViewModel
	*Movie4K
	ID          int        `json:"id"`
	Overview    string     `json:"overview"`
	PosterPath  string     `json:"posterPath"`
	ReleaseDate *time.Time `json:"releaseDate"`
	Title       string     `json:"title"`
}

// MarshalJSON writes the part's members in wire order.
func (v *MovieCollection) MarshalJSON() ([]byte, error) {
	type plain MovieCollection
	return marshalWith((*plain)(v), nil)
}

// MovieCollectionsViewModel is Ombi's MovieCollectionsViewModel; an unknown
// collection has no name or overview.
type MovieCollectionsViewModel struct {
	Collection []*MovieCollection `json:"collection"`
	Name       *string            `json:"name"`
	Overview   *string            `json:"overview"`
	Extra      Extra              `json:"-"`
}

// MarshalJSON writes the view with the catalogue's undocumented members.
func (v *MovieCollectionsViewModel) MarshalJSON() ([]byte, error) {
	type plain MovieCollectionsViewModel
	return marshalWith((*plain)(v), v.Extra)
}

// IDName is TMDB's {id, name} pair: a genre or a keyword.
type IDName struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// ExternalIDs is TMDB's external ids of a movie or show; the mock knows
// only the IMDb id.
type ExternalIDs struct {
	FacebookID  *string `json:"facebookId"`
	ImdbID      string  `json:"imdbId"`
	InstagramID *string `json:"instagramId"`
	TwitterID   *string `json:"twitterId"`
}

// Keywords is TMDB's keywords block.
type Keywords struct {
	KeywordsValue []IDName `json:"keywordsValue"`
}

// MovieFullInfoViewModel is Ombi's MovieFullInfoViewModel (v2 movie
// details): the SearchMovieViewModel of the movie with TMDB's details.
type MovieFullInfoViewModel struct {
	SearchMovieViewModel
	BelongsToCollection *CollectionsViewModel           `json:"belongsToCollection"`
	Budget              int                             `json:"budget"`
	Credits             MovieCredits                    `json:"credits"`
	ExternalIDs         ExternalIDs                     `json:"externalIds"`
	Genres              []IDName                        `json:"genres"`
	Keywords            Keywords                        `json:"keywords"`
	ProductionCompanies []*ProductionCompaniesViewModel `json:"productionCompanies"`
	Recommendations     SimilarMovies                   `json:"recommendations"`
	Revenue             float64                         `json:"revenue"`
	Runtime             int                             `json:"runtime"`
	Similar             SimilarMovies                   `json:"similar"`
	Status              string                          `json:"status"`
	Tagline             string                          `json:"tagline"`
	Videos              Videos                          `json:"videos"`
}

// MarshalJSON writes the view with the catalogue's undocumented members.
func (v *MovieFullInfoViewModel) MarshalJSON() ([]byte, error) {
	type plain MovieFullInfoViewModel
	return marshalWith((*plain)(v), v.Extra)
}

// CollectionsViewModel is Ombi's CollectionsViewModel: the collection a
// movie belongs to.
type CollectionsViewModel struct {
	BackdropPath string `json:"backdropPath"`
	ID           int    `json:"id"`
	Name         string `json:"name"`
	PosterPath   string `json:"posterPath"`
}

// MovieCredits is TMDB's credits of a movie.
type MovieCredits struct {
	Cast []MovieCast `json:"cast"`
	Crew []MovieCrew `json:"crew"`
}

// MovieCast is one cast member of a movie, as TMDB writes it.
type MovieCast struct {
	CastID      int    `json:"cast_id"`
	Character   string `json:"character"`
	CreditID    string `json:"credit_id"`
	Gender      int    `json:"gender"`
	ID          int    `json:"id"`
	Name        string `json:"name"`
	Order       int    `json:"order"`
	ProfilePath string `json:"profile_path"`
}

// MovieCrew is one crew member of a movie, as TMDB writes it.
type MovieCrew struct {
	CreditID    string `json:"credit_id"`
	Department  string `json:"department"`
	Gender      int    `json:"gender"`
	ID          int    `json:"id"`
	Job         string `json:"job"`
	Name        string `json:"name"`
	ProfilePath string `json:"profile_path"`
}

// SimilarMovies is a page of TMDB's similar or recommended movies.
type SimilarMovies struct {
	Page         int            `json:"page"`
	Results      []SimilarMovie `json:"results"`
	TotalPages   int            `json:"total_pages"`
	TotalResults int            `json:"total_results"`
}

// SimilarMovie is one movie of a SimilarMovies page, as TMDB writes it.
type SimilarMovie struct {
	Adult            bool    `json:"adult"`
	BackdropPath     string  `json:"backdrop_path"`
	GenreIDs         []int   `json:"genre_ids"`
	ID               int     `json:"id"`
	OriginalLanguage string  `json:"original_language"`
	OriginalTitle    string  `json:"original_title"`
	Overview         string  `json:"overview"`
	Popularity       float64 `json:"popularity"`
	PosterPath       string  `json:"poster_path"`
	ReleaseDate      string  `json:"release_date"`
	Title            string  `json:"title"`
	Video            bool    `json:"video"`
	VoteAverage      float64 `json:"vote_average"`
	VoteCount        int     `json:"vote_count"`
}

// Videos is TMDB's videos block.
type Videos struct {
	Results []Video `json:"results"`
}

// Video is one video of a movie, as TMDB writes it.
type Video struct {
	ID        string `json:"id"`
	Iso3166_1 string `json:"iso_3166_1"`
	Iso639_1  string `json:"iso_639_1"`
	Key       string `json:"key"`
	Name      string `json:"name"`
	Site      string `json:"site"`
	Size      int    `json:"size"`
	Type      string `json:"type"`
}

// TvShow is what Ombi's SearchTvShowViewModel and
// SearchFullInfoTvShowViewModel share: the show's text, dates, airing,
// rating and its request flags with the episode tree.
type TvShow struct {
	AirsDayOfWeek   string          `json:"airsDayOfWeek"`
	AirsTime        string          `json:"airsTime"`
	Aliases         []string        `json:"aliases"`
	Banner          string          `json:"banner"`
	FirstAired      string          `json:"firstAired"`
	FirstSeason     bool            `json:"firstSeason"`
	FullyAvailable  bool            `json:"fullyAvailable"`
	Homepage        string          `json:"homepage"`
	LastUpdated     int             `json:"lastUpdated"`
	LatestSeason    bool            `json:"latestSeason"`
	NetworkID       string          `json:"networkId"`
	Overview        string          `json:"overview"`
	PartlyAvailable bool            `json:"partlyAvailable"`
	Rating          string          `json:"rating"`
	RequestAll      bool            `json:"requestAll"`
	Runtime         string          `json:"runtime"`
	SeasonRequests  []*SearchSeason `json:"seasonRequests"`
	SeriesID        int             `json:"seriesId"`
	SiteRating      int             `json:"siteRating"`
	Status          string          `json:"status"`
	Title           string          `json:"title"`
	Trailer         string          `json:"trailer"`
}

// SearchTvShowViewModel is Ombi's SearchTvShowViewModel (v1 search, info
// and lists, v2 browse lists): the network by name, the genres by name,
// and the TMDB poster and backdrop paths, which the v2 details model
// (SearchFullInfoTvShowViewModel) has not.
type SearchTvShowViewModel struct {
	SearchViewModel
	TvShow
	ID           int      `json:"id"`
	BackdropPath *string  `json:"backdropPath"`
	Genre        []string `json:"genre"`
	Network      string   `json:"network"`
	PosterPath   *string  `json:"posterPath"`
	Extra        Extra    `json:"-"`
}

// MarshalJSON writes the view with the catalogue's undocumented members.
func (v *SearchTvShowViewModel) MarshalJSON() ([]byte, error) {
	type plain SearchTvShowViewModel
	return marshalWith((*plain)(v), v.Extra)
}

// SearchFullInfoTvShowViewModel is Ombi's SearchFullInfoTvShowViewModel
// (v2 TV details): the network as TMDB's object, the genres as {id, name},
// images, cast and TMDB's details.
type SearchFullInfoTvShowViewModel struct {
	SearchViewModel
	TvShow
	ID            int               `json:"id"`
	Cast          []TvCast          `json:"cast"`
	Certification string            `json:"certification"`
	Crew          []TvPerson        `json:"crew"`
	ExternalIDs   ExternalIDs       `json:"externalIds"`
	Genres        []IDName          `json:"genres"`
	Images        TvImages          `json:"images"`
	Keywords      Keywords          `json:"keywords"`
	Network       *NetworkViewModel `json:"network"`
	Tagline       string            `json:"tagline"`
	Extra         Extra             `json:"-"`
}

// MarshalJSON writes the view with the catalogue's undocumented members.
func (v *SearchFullInfoTvShowViewModel) MarshalJSON() ([]byte, error) {
	type plain SearchFullInfoTvShowViewModel
	return marshalWith((*plain)(v), v.Extra)
}

// TvCast is one cast member of a show (CastViewModel).
type TvCast struct {
	Character string  `json:"character"`
	ID        int     `json:"id"`
	Image     *string `json:"image"`
	Person    string  `json:"person"`
	Self      bool    `json:"self"`
	Voice     bool    `json:"voice"`
}

// TvPerson is one crew member of a show (PersonViewModel); the mock
// lists none.
type TvPerson struct {
	ID    int     `json:"id"`
	Image *string `json:"image"`
	Name  string  `json:"name"`
	URL   string  `json:"url"`
}

// TvImages is a show's poster in two sizes.
type TvImages struct {
	Medium   *string `json:"medium"`
	Original *string `json:"original"`
}

// SearchSeason is a SeasonRequests as the search engines build it for a
// show's episode tree: a new object, so its ids are 0 and its childRequest
// back-reference is null.
type SearchSeason struct {
	ChildRequest    *ChildRequests   `json:"childRequest"`
	ChildRequestID  int              `json:"childRequestId"`
	Episodes        []*SearchEpisode `json:"episodes"`
	ID              int              `json:"id"`
	Overview        string           `json:"overview"`
	SeasonAvailable bool             `json:"seasonAvailable"`
	SeasonNumber    int              `json:"seasonNumber"`
}

// SearchEpisode is an EpisodeRequests as the search engines build it: a
// new object (ids 0, season null) with the catalogue's air date as it is
// and the flags of the episode's request, if any.
type SearchEpisode struct {
	AirDate        string          `json:"airDate"`
	AirDateDisplay string          `json:"airDateDisplay"`
	Approved       bool            `json:"approved"`
	Available      bool            `json:"available"`
	Denied         *bool           `json:"denied"`
	DeniedReason   *string         `json:"deniedReason"`
	EpisodeNumber  int             `json:"episodeNumber"`
	ID             int             `json:"id"`
	RequestStatus  string          `json:"requestStatus"`
	Requested      bool            `json:"requested"`
	Season         *SeasonRequests `json:"season"`
	SeasonID       int             `json:"seasonId"`
	Title          string          `json:"title"`
	URL            string          `json:"url"`
}

// SearchArtistViewModel is Ombi's SearchArtistViewModel (v1 music search),
// with Ombi's spelling forignArtistId.
type SearchArtistViewModel struct {
	ArtistName     string  `json:"artistName"`
	ArtistType     string  `json:"artistType"`
	Banner         string  `json:"banner"`
	CleanName      string  `json:"cleanName"`
	Disambiguation string  `json:"disambiguation"`
	ForignArtistID string  `json:"forignArtistId"`
	Links          []*Link `json:"links"`
	Logo           string  `json:"logo"`
	Monitored      bool    `json:"monitored"`
	Overview       string  `json:"overview"`
	Poster         string  `json:"poster"`
	Extra          Extra   `json:"-"`
}

// MarshalJSON writes the view with the catalogue's undocumented members.
func (v *SearchArtistViewModel) MarshalJSON() ([]byte, error) {
	type plain SearchArtistViewModel
	return marshalWith((*plain)(v), v.Extra)
}

// SearchAlbumViewModel is Ombi's SearchAlbumViewModel (v1 music search)
// with the request flags.
type SearchAlbumViewModel struct {
	SearchViewModel
	ID                 int              `json:"id"`
	AlbumType          string           `json:"albumType"`
	ArtistName         string           `json:"artistName"`
	Cover              string           `json:"cover"`
	Disk               string           `json:"disk"`
	ForeignAlbumID     string           `json:"foreignAlbumId"`
	ForeignArtistID    string           `json:"foreignArtistId"`
	FullyAvailable     bool             `json:"fullyAvailable"`
	Genres             []map[string]any `json:"genres"`
	Monitored          bool             `json:"monitored"`
	PartiallyAvailable bool             `json:"partiallyAvailable"`
	PercentOfTracks    int              `json:"percentOfTracks"`
	Rating             float64          `json:"rating"`
	ReleaseDate        time.Time        `json:"releaseDate"`
	Title              string           `json:"title"`
	Extra              Extra            `json:"-"`
}

// MarshalJSON writes the view with the catalogue's undocumented members.
func (v *SearchAlbumViewModel) MarshalJSON() ([]byte, error) {
	type plain SearchAlbumViewModel
	return marshalWith((*plain)(v), v.Extra)
}

// ReleaseGroup is Ombi's v2 ReleaseGroup: a SearchViewModel whose id is
// the MusicBrainz id, with the release date as a date.
type ReleaseGroup struct {
	SearchViewModel
	ID                 string  `json:"id"`
	FullyAvailable     bool    `json:"fullyAvailable"`
	Monitored          bool    `json:"monitored"`
	PartiallyAvailable bool    `json:"partiallyAvailable"`
	PercentOfTracks    int     `json:"percentOfTracks"`
	ReleaseDate        string  `json:"releaseDate"`
	ReleaseType        *string `json:"releaseType"`
	Title              string  `json:"title"`
}

// MarshalJSON writes the group's members in wire order.
func (v *ReleaseGroup) MarshalJSON() ([]byte, error) {
	type plain ReleaseGroup
	return marshalWith((*plain)(v), nil)
}

// ArtistInformation is Ombi's v2 ArtistInformation. Region is the name
// of the artist's area as the catalogue has it.
type ArtistInformation struct {
	Banner         string          `json:"banner"`
	Country        string          `json:"country"`
	Disambiguation string          `json:"disambiguation"`
	EndYear        string          `json:"endYear"`
	FanArt         string          `json:"fanArt"`
	ID             string          `json:"id"`
	IsEnded        bool            `json:"isEnded"`
	Links          ArtistLinks     `json:"links"`
	Logo           string          `json:"logo"`
	Members        []BandMember    `json:"members"`
	Name           string          `json:"name"`
	Overview       string          `json:"overview"`
	Poster         string          `json:"poster"`
	Region         any             `json:"region"`
	ReleaseGroups  []*ReleaseGroup `json:"releaseGroups"`
	StartYear      string          `json:"startYear"`
	Type           string          `json:"type"`
}

// BandMember is Ombi's BandMember; name, attributes and dates are the
// catalogue's values as they are.
type BandMember struct {
	Attributes      any  `json:"attributes"`
	End             any  `json:"end"`
	IsCurrentMember bool `json:"isCurrentMember"`
	Name            any  `json:"name"`
	Start           any  `json:"start"`
}

// ArtistLinks is Ombi's ArtistLinks: every link null unless a MusicBrainz
// relation fills it.
type ArtistLinks struct {
	AllMusic        *string `json:"allMusic"`
	Apple           *string `json:"apple"`
	BbcMusic        *string `json:"bbcMusic"`
	Deezer          *string `json:"deezer"`
	Discogs         *string `json:"discogs"`
	Facebook        *string `json:"facebook"`
	Google          *string `json:"google"`
	HomePage        *string `json:"homePage"`
	Image           *string `json:"image"`
	Imdb            *string `json:"imdb"`
	Instagram       *string `json:"instagram"`
	LastFm          *string `json:"lastFm"`
	MySpace         *string `json:"mySpace"`
	OnlineCommunity *string `json:"onlineCommunity"`
	Spotify         *string `json:"spotify"`
	Twitter         *string `json:"twitter"`
	Vk              *string `json:"vk"`
	YouTube         *string `json:"youTube"`
}

// AlbumArt is the cover of a release group (v2 releasegroupart); "" when
// the mock has none.
type AlbumArt struct {
	Image string `json:"image"`
}

// The catalogue's TMDB and Rotten Tomatoes blocks a view passes on as they
// are: Ombi's models of them, each a Document written back as the data gave
// it (a member the data leaves out stays out).

// StreamingData is Ombi's StreamingData, one streaming provider of a title
// (v2 stream routes).
type StreamingData struct {
	Document          `json:"-"`
	Logo              *string `json:"logo"`
	Order             int     `json:"order"`
	StreamingProvider *string `json:"streamingProvider"`
}

// MarshalJSON writes the block as the data gave it.
func (x *StreamingData) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a block of the data.
func (x *StreamingData) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// MovieRatings is the Rotten Tomatoes API's MovieRatings, a movie's scores
// (v2 ratings/movie).
type MovieRatings struct {
	Document       `json:"-"`
	AudienceRating *string `json:"audience_rating"`
	AudienceScore  int     `json:"audience_score"`
	CriticsRating  *string `json:"critics_rating"`
	CriticsScore   int     `json:"critics_score"`
}

// MarshalJSON writes the block as the data gave it.
func (x *MovieRatings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a block of the data.
func (x *MovieRatings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// TvRatings is the Rotten Tomatoes API's TvRatings, a show's score (v2
// ratings/tv).
type TvRatings struct {
	Document `json:"-"`
	Class    *string `json:"class"`
	Score    int     `json:"score"`
}

// MarshalJSON writes the block as the data gave it.
func (x *TvRatings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a block of the data.
func (x *TvRatings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// ProductionCompaniesViewModel is Ombi's ProductionCompaniesViewModel, one
// production company of a movie (TMDB's snake_case members).
type ProductionCompaniesViewModel struct {
	Document      `json:"-"`
	ID            int     `json:"id"`
	LogoPath      *string `json:"logo_path"`
	Name          *string `json:"name"`
	OriginCountry *string `json:"origin_country"`
}

// MarshalJSON writes the block as the data gave it.
func (x *ProductionCompaniesViewModel) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}

// UnmarshalJSON reads a block of the data.
func (x *ProductionCompaniesViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// NetworkViewModel is Ombi's NetworkViewModel, a show's network (the
// country is TMDB's origin_country).
type NetworkViewModel struct {
	Document `json:"-"`
	Country  *string `json:"country"`
	ID       int     `json:"id"`
	Name     *string `json:"name"`
}

// MarshalJSON writes the block as the data gave it.
func (x *NetworkViewModel) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a block of the data.
func (x *NetworkViewModel) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// Link is the Lidarr API's Link, one of an artist's links (v1 artist
// search; ArtistInformation's links are built from them).
type Link struct {
	Document `json:"-"`
	Name     *string `json:"name"`
	URL      *string `json:"url"`
}

// MarshalJSON writes the block as the data gave it.
func (x *Link) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a block of the data.
func (x *Link) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// ArtistMember is one member of an artist as the data gives it (the
// catalogue's own shape, read into BandMember): whether the member is
// current is isCurrentMember, else isActive, else whether no end is given.
type ArtistMember struct {
	Document        `json:"-"`
	Attributes      []string `json:"attributes"`
	End             *string  `json:"end"`
	IsActive        *bool    `json:"isActive"`
	IsCurrentMember *bool    `json:"isCurrentMember"`
	Name            *string  `json:"name"`
	Start           *string  `json:"start"`
}

// MarshalJSON writes the member as the data gave it.
func (x *ArtistMember) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a member of the data.
func (x *ArtistMember) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

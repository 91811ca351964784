package ombi

import (
	"context"
	"net/http"
)

// SearchMovie searches movies by text (TMDB).
//
// upstream: GET /api/v1/Search/movie/{searchTerm}
func (c *Client) SearchMovie(ctx context.Context, term string) ([]Media, error) {
	return send[[]Media](ctx, c, http.MethodGet, "api/v1/Search/movie/"+seg(term), nil)
}

// SearchTV searches TV shows by text (TVMaze-backed: TVDB ids).
//
// upstream: GET /api/v1/Search/tv/{searchTerm}
func (c *Client) SearchTV(ctx context.Context, term string) ([]Media, error) {
	return send[[]Media](ctx, c, http.MethodGet, "api/v1/Search/tv/"+seg(term), nil)
}

// SearchArtist searches artists by text (Lidarr).
//
// upstream: GET /api/v1/Search/music/artist/{searchTerm}
func (c *Client) SearchArtist(ctx context.Context, term string) ([]Artist, error) {
	return send[[]Artist](ctx, c, http.MethodGet, "api/v1/Search/music/artist/"+seg(term), nil)
}

// SearchAlbum searches albums by text (Lidarr).
//
// upstream: GET /api/v1/Search/music/album/{searchTerm}
func (c *Client) SearchAlbum(ctx context.Context, term string) ([]Album, error) {
	return send[[]Album](ctx, c, http.MethodGet, "api/v1/Search/music/album/"+seg(term), nil)
}

// SearchMulti searches several categories; every flag is sent explicitly.
//
// upstream: POST /api/v2/Search/multi/{searchTerm}
func (c *Client) SearchMulti(ctx context.Context, term string, f MultiFilter) ([]Multi, error) {
	return send[[]Multi](ctx, c, http.MethodPost, "api/v2/Search/multi/"+seg(term), f)
}

// SearchMovieRefine searches movies by text, year and language.
//
// upstream: POST /api/v1/Search/movie
func (c *Client) SearchMovieRefine(ctx context.Context, body MovieRefineBody) ([]Media, error) {
	return send[[]Media](ctx, c, http.MethodPost, "api/v1/Search/movie", body)
}

// SearchActor lists movies by actor name.
//
// upstream: POST /api/v1/Search/movie/actor
func (c *Client) SearchActor(ctx context.Context, body ActorBody) ([]Media, error) {
	return send[[]Media](ctx, c, http.MethodPost, "api/v1/Search/movie/actor", body)
}

// BrowseMovies reads one curated movie list window; list is the wire
// segment (popular, nowplaying, toprated, upcoming, seasonal, requested).
//
// upstream: GET /api/v2/Search/movie/popular/{currentPosition}/{amountToLoad}
// upstream: GET /api/v2/Search/movie/nowplaying/{currentPosition}/{amountToLoad}
// upstream: GET /api/v2/Search/movie/toprated/{currentPosition}/{amountToLoad}
// upstream: GET /api/v2/Search/movie/upcoming/{currentPosition}/{amountToLoad}
// upstream: GET /api/v2/Search/movie/seasonal/{currentPosition}/{amountToLoad}
// upstream: GET /api/v2/Search/movie/requested/{currentPosition}/{amountToLoad}
func (c *Client) BrowseMovies(ctx context.Context, list string, position, amount int) ([]Media, error) {
	return send[[]Media](ctx, c, http.MethodGet, "api/v2/Search/movie/"+list+"/"+SegInt(position)+"/"+SegInt(amount), nil)
}

// BrowseTV reads one curated TV list window; list is the wire segment
// (popular, anticipated, mostwatched, trending, requested).
//
// upstream: GET /api/v2/Search/tv/popular/{currentPosition}/{amountToLoad}
// upstream: GET /api/v2/Search/tv/anticipated/{currentPosition}/{amountToLoad}
// upstream: GET /api/v2/Search/tv/mostwatched/{currentPosition}/{amountToLoad}
// upstream: GET /api/v2/Search/tv/trending/{currentPosition}/{amountToLoad}
// upstream: GET /api/v2/Search/tv/requested/{currentPosition}/{amountToLoad}
func (c *Client) BrowseTV(ctx context.Context, list string, position, amount int) ([]Media, error) {
	return send[[]Media](ctx, c, http.MethodGet, "api/v2/Search/tv/"+list+"/"+SegInt(position)+"/"+SegInt(amount), nil)
}

// SimilarMovies lists movies similar to a TMDB movie.
//
// upstream: POST /api/v2/Search/movie/similar
func (c *Client) SimilarMovies(ctx context.Context, body MovieInfoBody) ([]Media, error) {
	return send[[]Media](ctx, c, http.MethodPost, "api/v2/Search/movie/similar", body)
}

// MovieCollection reads a TMDB collection and its members.
//
// upstream: GET /api/v2/Search/movie/collection/{collectionId}
func (c *Client) MovieCollection(ctx context.Context, id int) (CollectionInfo, error) {
	return send[CollectionInfo](ctx, c, http.MethodGet, "api/v2/Search/movie/collection/"+SegInt(id), nil)
}

// ActorCredits reads a TMDB person's movie or TV credits.
//
// upstream: GET /api/v2/Search/actor/{actorId}/movie
// upstream: GET /api/v2/Search/actor/{actorId}/tv
func (c *Client) ActorCredits(ctx context.Context, personID int, media string) (ActorCredits, error) {
	return send[ActorCredits](ctx, c, http.MethodGet, "api/v2/Search/actor/"+SegInt(personID)+"/"+media, nil)
}

// ArtistAlbums lists an artist's albums.
//
// upstream: GET /api/v1/Search/music/artist/album/{foreignArtistId}
func (c *Client) ArtistAlbums(ctx context.Context, artistID string) ([]Album, error) {
	return send[[]Album](ctx, c, http.MethodGet, "api/v1/Search/music/artist/album/"+seg(artistID), nil)
}

// AdvancedMovies runs a filtered movie discovery window.
//
// upstream: POST /api/v2/Search/advancedSearch/movie/{currentPosition}/{amountToLoad}
func (c *Client) AdvancedMovies(ctx context.Context, position, amount int, body DiscoverBody) ([]Media, error) {
	return send[[]Media](ctx, c, http.MethodPost, "api/v2/Search/advancedSearch/movie/"+SegInt(position)+"/"+SegInt(amount), body)
}

// MovieDetails reads a movie by TMDB id.
//
// upstream: GET /api/v2/Search/movie/{movieDbId}
func (c *Client) MovieDetails(ctx context.Context, tmdbID int) (Media, error) {
	return send[Media](ctx, c, http.MethodGet, "api/v2/Search/movie/"+SegInt(tmdbID), nil)
}

// MovieByIMDB reads a movie by IMDb id.
//
// upstream: GET /api/v2/Search/movie/imdb/{imdbid}
func (c *Client) MovieByIMDB(ctx context.Context, imdbID string) (Media, error) {
	return send[Media](ctx, c, http.MethodGet, "api/v2/Search/movie/imdb/"+seg(imdbID), nil)
}

// TVByTMDB reads a TV show by TMDB id.
//
// upstream: GET /api/v2/Search/tv/moviedb/{moviedbid}
func (c *Client) TVByTMDB(ctx context.Context, tmdbID int) (Media, error) {
	return send[Media](ctx, c, http.MethodGet, "api/v2/Search/tv/moviedb/"+SegInt(tmdbID), nil)
}

// TVByTVDB reads a TV show by TVDB id through the TVMaze-backed v1 route
// (the v2 Search/tv/{id} route is a TMDB alias and never serves TVDB).
//
// upstream: GET /api/v1/Search/tv/info/{tvdbId}
func (c *Client) TVByTVDB(ctx context.Context, tvdbID int) (Media, error) {
	return send[Media](ctx, c, http.MethodGet, "api/v1/Search/tv/info/"+SegInt(tvdbID), nil)
}

// TVRequests lists every TV parent request (unpaged; bounded by the body
// cap and maxScan).
//
// upstream: GET /api/v1/Request/tv
func (c *Client) TVRequests(ctx context.Context) ([]TVRequest, error) {
	return send[[]TVRequest](ctx, c, http.MethodGet, "api/v1/Request/tv", nil)
}

// ArtistDetails reads an artist by MusicBrainz id.
//
// upstream: GET /api/v2/Search/artist/{artistId}
func (c *Client) ArtistDetails(ctx context.Context, id string) (ArtistInfo, error) {
	return send[ArtistInfo](ctx, c, http.MethodGet, "api/v2/Search/artist/"+seg(id), nil)
}

// AlbumDetails reads an album (release group) by MusicBrainz id.
//
// upstream: GET /api/v2/Search/artist/album/{albumId}
func (c *Client) AlbumDetails(ctx context.Context, id string) (ReleaseGroup, error) {
	return send[ReleaseGroup](ctx, c, http.MethodGet, "api/v2/Search/artist/album/"+seg(id), nil)
}

// MovieByRequest reads the movie behind a movie request.
//
// upstream: GET /api/v2/Search/movie/request/{requestId}
func (c *Client) MovieByRequest(ctx context.Context, requestID int) (Media, error) {
	return send[Media](ctx, c, http.MethodGet, "api/v2/Search/movie/request/"+SegInt(requestID), nil)
}

// TVByRequest reads the show behind a TV parent request.
//
// upstream: GET /api/v2/Search/tv/request/{requestId}
func (c *Client) TVByRequest(ctx context.Context, requestID int) (Media, error) {
	return send[Media](ctx, c, http.MethodGet, "api/v2/Search/tv/request/"+SegInt(requestID), nil)
}

// ArtistByRequest reads the artist behind an album request.
//
// upstream: GET /api/v2/Search/artist/request/{requestId}
func (c *Client) ArtistByRequest(ctx context.Context, requestID int) (ArtistInfo, error) {
	return send[ArtistInfo](ctx, c, http.MethodGet, "api/v2/Search/artist/request/"+SegInt(requestID), nil)
}

// MovieLocalized reads a movie in a given language.
//
// upstream: POST /api/v1/Search/movie/info
func (c *Client) MovieLocalized(ctx context.Context, body MovieInfoBody) (Media, error) {
	return send[Media](ctx, c, http.MethodPost, "api/v1/Search/movie/info", body)
}

// MovieRatings reads a movie's ratings by title and year.
//
// upstream: GET /api/v2/Search/ratings/movie/{name}/{year}
func (c *Client) MovieRatings(ctx context.Context, title string, year int) (MovieRatings, error) {
	return send[MovieRatings](ctx, c, http.MethodGet, "api/v2/Search/ratings/movie/"+seg(title)+"/"+SegInt(year), nil)
}

// TVRatings reads a show's ratings by title and year.
//
// upstream: GET /api/v2/Search/ratings/tv/{name}/{year}
func (c *Client) TVRatings(ctx context.Context, title string, year int) (TVRatings, error) {
	return send[TVRatings](ctx, c, http.MethodGet, "api/v2/Search/ratings/tv/"+seg(title)+"/"+SegInt(year), nil)
}

// Streaming lists where a title streams (TMDB id, also for TV); media is
// "movie" or "tv".
//
// upstream: GET /api/v2/Search/stream/movie/{movieDbId}
// upstream: GET /api/v2/Search/stream/tv/{movieDbId}
func (c *Client) Streaming(ctx context.Context, media string, tmdbID int) ([]Streaming, error) {
	return send[[]Streaming](ctx, c, http.MethodGet, "api/v2/Search/stream/"+media+"/"+SegInt(tmdbID), nil)
}

type (
	MultiFilter struct {
		Movies  bool `json:"movies"`
		TVShows bool `json:"tvShows"`
		Music   bool `json:"music"`
		People  bool `json:"people"`
	}
	MovieRefineBody struct {
		SearchTerm   string `json:"searchTerm"`
		Year         *int   `json:"year,omitempty"`
		LanguageCode string `json:"languageCode,omitempty"`
	}
	ActorBody struct {
		SearchTerm   string `json:"searchTerm"`
		LanguageCode string `json:"languageCode,omitempty"`
	}
	MovieInfoBody struct {
		TheMovieDbID int    `json:"theMovieDbId"`
		LanguageCode string `json:"languageCode,omitempty"`
	}
	DiscoverBody struct {
		Type           string `json:"type"`
		ReleaseYear    *int   `json:"releaseYear,omitempty"`
		Decade         *int   `json:"decade,omitempty"`
		GenreIDs       []int  `json:"genreIds,omitempty"`
		KeywordIDs     []int  `json:"keywordIds,omitempty"`
		WatchProviders []int  `json:"watchProviders,omitempty"`
	}
	Multi struct {
		ID        FlexID `json:"id"`
		MediaType string `json:"mediaType"`
		Title     string `json:"title"`
		Overview  string `json:"overview"`
	}
	Artist struct {
		ArtistName      string `json:"artistName"`
		ForignArtistID  string `json:"forignArtistId"` // sic: Ombi's spelling
		ForeignArtistID string `json:"foreignArtistId"`
		Overview        string `json:"overview"`
	}
	Album struct {
		Title          string `json:"title"`
		ForeignAlbumID string `json:"foreignAlbumId"`
		ReleaseDate    string `json:"releaseDate"`
		Available      *bool  `json:"available"`
		Requested      *bool  `json:"requested"`
		RequestID      FlexID `json:"requestId"`
	}
	ArtistInfo struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		Overview string `json:"overview"`
	}
	ReleaseGroup struct {
		ID          string `json:"id"`
		Title       string `json:"title"`
		ReleaseDate string `json:"releaseDate"`
	}
	CollectionInfo struct {
		Name       string   `json:"name"`
		Overview   string   `json:"overview"`
		Collection *[]Media `json:"collection"` // nil: the answer names no members
	}
	ActorCredits struct {
		Cast *[]CreditEntry `json:"cast"` // nil with Crew nil: the answer lists no credits
		Crew *[]CreditEntry `json:"crew"`
	}
	CreditEntry struct {
		ID           FlexID `json:"id"`
		Title        string `json:"title"`
		Name         string `json:"name"`
		ReleaseDate  string `json:"release_date"`
		FirstAirDate string `json:"first_air_date"`
		Character    string `json:"character"`
		Job          string `json:"job"`
		Department   string `json:"department"`
	}
	TVRequest struct {
		ID            FlexID    `json:"id"`
		TvDbID        FlexID    `json:"tvDbId"`
		ImdbID        string    `json:"imdbId"`
		ChildRequests []TVChild `json:"childRequests"`
	}
	TVChild struct {
		SeasonRequests []Season `json:"seasonRequests"`
	}
	MovieRatings struct {
		CriticsRating  string `json:"critics_rating"`
		CriticsScore   *int   `json:"critics_score"`
		AudienceRating string `json:"audience_rating"`
		AudienceScore  *int   `json:"audience_score"`
	}
	TVRatings struct {
		Class string `json:"class"`
		Score *int   `json:"score"`
	}
	Streaming struct {
		StreamingProvider string `json:"streamingProvider"`
	}
)

package ombi

import (
	"context"
	"encoding/json"
	"net/http"
)

// RecentMovies lists movies added in the last days.
//
// upstream: GET /api/v1/RecentlyAdded/movies
func (c *Client) RecentMovies(ctx context.Context) ([]RecentlyAdded, error) {
	return send[[]RecentlyAdded](ctx, c, http.MethodGet, "api/v1/RecentlyAdded/movies", nil)
}

// RecentTV lists recently added episodes, grouped by show or not.
//
// upstream: GET /api/v1/RecentlyAdded/tv
// upstream: GET /api/v1/RecentlyAdded/tv/grouped
func (c *Client) RecentTV(ctx context.Context, grouped bool) ([]RecentlyAdded, error) {
	rel := "api/v1/RecentlyAdded/tv"
	if grouped {
		rel += "/grouped"
	}
	return send[[]RecentlyAdded](ctx, c, http.MethodGet, rel, nil)
}

// Calendar lists requested releases around today (no date range exists).
//
// upstream: GET /api/v2/Calendar
func (c *Client) Calendar(ctx context.Context) ([]Calendar, error) {
	return send[[]Calendar](ctx, c, http.MethodGet, "api/v2/Calendar", nil)
}

// MovieImage reads a movie image URL; kind is poster, background or banner.
//
// upstream: GET /api/v1/Images/poster/movie/{movieDbId}
// upstream: GET /api/v1/Images/background/movie/{movieDbId}
// upstream: GET /api/v1/Images/banner/movie/{movieDbId}
func (c *Client) MovieImage(ctx context.Context, kind string, tmdbID int) (json.RawMessage, error) {
	return send[json.RawMessage](ctx, c, http.MethodGet, "api/v1/Images/"+kind+"/movie/"+SegInt(tmdbID), nil)
}

// TVImageTVDB reads a TV image URL by TVDB id; kind is poster or background.
//
// upstream: GET /api/v1/Images/poster/tv/{tvdbid}
// upstream: GET /api/v1/Images/background/tv/{tvdbid}
func (c *Client) TVImageTVDB(ctx context.Context, kind string, tvdbID int) (json.RawMessage, error) {
	return send[json.RawMessage](ctx, c, http.MethodGet, "api/v1/Images/"+kind+"/tv/"+SegInt(tvdbID), nil)
}

// TVImageTMDB reads a TV image URL by TMDB id; kind is poster or background.
//
// upstream: GET /api/v1/Images/poster/tv/tmdb/{tmdbId}
// upstream: GET /api/v1/Images/background/tv/tmdb/{id}
func (c *Client) TVImageTMDB(ctx context.Context, kind string, tmdbID int) (json.RawMessage, error) {
	return send[json.RawMessage](ctx, c, http.MethodGet, "api/v1/Images/"+kind+"/tv/tmdb/"+SegInt(tmdbID), nil)
}

// AlbumArt reads a release group's cover art.
//
// upstream: GET /api/v2/Search/releasegroupart/{musicBrainzId}
func (c *Client) AlbumArt(ctx context.Context, mbid string) (json.RawMessage, error) {
	return send[json.RawMessage](ctx, c, http.MethodGet, "api/v2/Search/releasegroupart/"+seg(mbid), nil)
}

// RandomArtwork reads a random popular poster or background.
//
// upstream: GET /api/v1/Images/poster
// upstream: GET /api/v1/Images/background
func (c *Client) RandomArtwork(ctx context.Context, kind string) (json.RawMessage, error) {
	return send[json.RawMessage](ctx, c, http.MethodGet, "api/v1/Images/"+kind, nil)
}

type (
	// RecentlyAdded is RecentlyAddedMovieModel / RecentlyAddedTvModel.
	RecentlyAdded struct {
		Title         string `json:"title"`
		Overview      string `json:"overview"`
		ImdbID        string `json:"imdbId"`
		TvDbID        FlexID `json:"tvDbId"`
		TheMovieDbID  FlexID `json:"theMovieDbId"`
		ReleaseYear   string `json:"releaseYear"`
		SeasonNumber  *int   `json:"seasonNumber"`
		EpisodeNumber *int   `json:"episodeNumber"`
	}
	// Calendar is CalendarViewModel.
	Calendar struct {
		Title           string `json:"title"`
		Start           string `json:"start"`
		BackgroundColor string `json:"backgroundColor"`
		BorderColor     string `json:"borderColor"`
		ExtraParams     []struct {
			ProviderID FlexID `json:"providerId"`
		} `json:"extraParams"`
	}
)

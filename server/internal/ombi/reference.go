package ombi

import (
	"context"
	"net/http"
	"net/url"
)

// Genres lists TMDB genres; media is "movie" or "tv".
//
// upstream: GET /api/v2/Search/Genres/{media}
func (c *Client) Genres(ctx context.Context, media string) ([]Ref, error) {
	return send[[]Ref](ctx, c, http.MethodGet, "api/v2/Search/Genres/"+seg(media), nil)
}

// Languages lists TMDB languages.
//
// upstream: GET /api/v2/Search/Languages
func (c *Client) Languages(ctx context.Context) ([]Ref, error) {
	return send[[]Ref](ctx, c, http.MethodGet, "api/v2/Search/Languages", nil)
}

// Keywords searches TMDB keywords.
//
// upstream: GET /api/v1/TheMovieDb/Keywords
func (c *Client) Keywords(ctx context.Context, term string) ([]Ref, error) {
	q := url.Values{"searchTerm": {term}}
	return send[[]Ref](ctx, c, http.MethodGet, "api/v1/TheMovieDb/Keywords?"+q.Encode(), nil)
}

// Keyword reads one TMDB keyword.
//
// upstream: GET /api/v1/TheMovieDb/Keywords/{keywordId}
func (c *Client) Keyword(ctx context.Context, id int) (Ref, error) {
	return send[Ref](ctx, c, http.MethodGet, "api/v1/TheMovieDb/Keywords/"+SegInt(id), nil)
}

// WatchProviders lists the TMDB watch-provider catalogue (not a title's
// availability); searchTerm is sent only when given.
//
// upstream: GET /api/v1/TheMovieDb/WatchProviders/movie
// upstream: GET /api/v1/TheMovieDb/WatchProviders/tv
func (c *Client) WatchProviders(ctx context.Context, media, term string) ([]Ref, error) {
	rel := "api/v1/TheMovieDb/WatchProviders/" + seg(media)
	if term != "" {
		rel += "?" + url.Values{"searchTerm": {term}}.Encode()
	}
	return send[[]Ref](ctx, c, http.MethodGet, rel, nil)
}

// StreamingCountries lists the streaming country codes.
//
// upstream: GET /api/v1/Identity/streamingcountry
func (c *Client) StreamingCountries(ctx context.Context) ([]string, error) {
	return send[[]string](ctx, c, http.MethodGet, "api/v1/Identity/streamingcountry", nil)
}

// IssueCategories lists the issue categories.
//
// upstream: GET /api/v1/Issues/categories
func (c *Client) IssueCategories(ctx context.Context) ([]Ref, error) {
	return send[[]Ref](ctx, c, http.MethodGet, "api/v1/Issues/categories", nil)
}

// Ref covers the reference shapes: TMDB {id,name}, languages
// {iso_639_1,english_name,name}, watch providers {provider_id,provider_name}
// and issue categories {id,value}.
type Ref struct {
	ID           FlexID `json:"id"`
	ProviderID   FlexID `json:"provider_id"`
	ISO6391      string `json:"iso_639_1"`
	Name         string `json:"name"`
	EnglishName  string `json:"english_name"`
	ProviderName string `json:"provider_name"`
	Value        string `json:"value"`
}

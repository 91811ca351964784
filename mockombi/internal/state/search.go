package state

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

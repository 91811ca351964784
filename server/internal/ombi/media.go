package ombi

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// FlexID is an upstream id that arrives as a JSON number or string (Ombi's
// theMovieDbId is a string on search models and an int on requests). It
// keeps the text as sent, trimmed ("" when absent, null or zero), so it is
// not yet an id: positive() accepts only a positive int32, and the result
// hygiene (fit) omits any identifier or *_id value that is not a valid id
// (-7, -0, 1e400, 2.5e3, 30 digits).
type FlexID string

// UnmarshalJSON accepts a number or a string.
func (f *FlexID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	s, ok := plainID(b)
	if !ok {
		var err error
		if s, err = flexText(b); err != nil {
			return err
		}
	}
	if s == "0" {
		s = ""
	}
	*f = FlexID(s)
	return nil
}

// plainID reads the usual shapes of an id without a second JSON decode: a
// number of decimal digits with no leading zero, or a string of decimal
// digits only. It answers false for anything else, which flexText reads.
func plainID(b []byte) (string, bool) {
	digits, quoted := b, len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"'
	if quoted {
		digits = b[1 : len(b)-1]
	}
	if len(digits) == 0 || (!quoted && len(digits) > 1 && digits[0] == '0') {
		return "", false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	return string(digits), true
}

// flexText is the text of a JSON id value: "" for null, a string unquoted
// and trimmed, a number as written.
func flexText(b []byte) (string, error) {
	switch {
	case bytes.Equal(b, []byte("null")):
		return "", nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return "", err
		}
		return strings.TrimSpace(s), nil
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return "", err
		}
		return n.String(), nil
	}
}

// Positive returns the id as a positive int32, or 0.
func (f FlexID) Positive() int {
	n, err := strconv.ParseInt(string(f), 10, 32)
	if err != nil || n < 1 {
		return 0
	}
	return int(n)
}

// Wire shapes (notes on Ombi's models: SearchViewModel and its movie/TV
// descendants, MovieFullInfoViewModel, SearchFullInfoTvShowViewModel,
// MovieCollection). One struct covers them all: a field a model lacks stays
// at its zero value and is never emitted as false or zero.
type (
	Media struct {
		ID           FlexID    `json:"id"`
		TheMovieDbID FlexID    `json:"theMovieDbId"`
		ImdbID       string    `json:"imdbId"`
		TheTvDbID    FlexID    `json:"theTvDbId"`
		SeriesID     FlexID    `json:"seriesId"`
		Title        string    `json:"title"`
		Overview     string    `json:"overview"`
		ReleaseDate  string    `json:"releaseDate"`
		FirstAired   string    `json:"firstAired"`
		Available    *bool     `json:"available"`
		Requested    *bool     `json:"requested"`
		RequestID    FlexID    `json:"requestId"`
		Genres       []Named   `json:"genres"`
		Genre        []string  `json:"genre"`
		Credits      *Credits  `json:"credits"`
		Cast         []TVCast  `json:"cast"`
		ExternalIDs  *External `json:"externalIds"`
		// belongsToCollection is deliberately not read: its id is the
		// collection's TMDB id, never the movie's.
		SeasonRequests []Season `json:"seasonRequests"`
		VoteAverage    *float64 `json:"voteAverage"`
		VoteCount      *int     `json:"voteCount"`
		SiteRating     *float64 `json:"siteRating"`
	}
	Named struct {
		ID   FlexID `json:"id"`
		Name string `json:"name"`
	}
	Credits struct {
		Cast []CastMember `json:"cast"`
		Crew []CrewMember `json:"crew"`
	}
	CastMember struct {
		ID        FlexID `json:"id"`
		Name      string `json:"name"`
		Character string `json:"character"`
	}
	CrewMember struct {
		ID         FlexID `json:"id"`
		Name       string `json:"name"`
		Job        string `json:"job"`
		Department string `json:"department"`
	}
	TVCast struct {
		Person    string `json:"person"`
		Character string `json:"character"`
	}
	External struct {
		ImdbID string `json:"imdbId"`
	}
	Season struct {
		SeasonNumber int       `json:"seasonNumber"`
		Episodes     []Episode `json:"episodes"`
	}
	Episode struct {
		EpisodeNumber int    `json:"episodeNumber"`
		Title         string `json:"title"`
		Available     *bool  `json:"available"`
		Requested     *bool  `json:"requested"`
	}
)

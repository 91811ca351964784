package state

import "time"

// Library holds recently added media, calendar entries and the background
// rotation, from the built-in seed.
type Library struct {
	RecentMovies []LibraryItem
	RecentTV     []LibraryItem
	Calendar     []LibraryItem
	Backgrounds  []Background
}

// LibraryItem is one recently added movie or episode, or one calendar
// entry: its seed record (Raw) and when it happens, OffsetDays from the
// day the state was loaded.
type LibraryItem struct {
	Raw        map[string]any
	OffsetDays int
	When       time.Time
}

// Background is one image of the login page's rotation.
type Background struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// RecentlyAdded is Ombi's RecentlyAddedMovieModel or RecentlyAddedTvModel:
// the item's seed record as it is (less its offset) with the time it was
// added.
type RecentlyAdded struct {
	AddedAt time.Time `json:"addedAt"`
	Extra   Extra     `json:"-"`
}

// MarshalJSON writes the item with its seed record.
func (r *RecentlyAdded) MarshalJSON() ([]byte, error) {
	type plain RecentlyAdded
	return marshalWith((*plain)(r), r.Extra)
}

// CalendarViewModel is Ombi's CalendarViewModel; Title is the seed's value
// as it is.
type CalendarViewModel struct {
	BackgroundColor string                `json:"backgroundColor"`
	BorderColor     string                `json:"borderColor"`
	ExtraParams     []CalendarExtraParams `json:"extraParams"`
	Start           time.Time             `json:"start"`
	Title           any                   `json:"title"`
	Type            int                   `json:"type"`
	Extra           Extra                 `json:"-"`
}

// MarshalJSON writes the entry with its seed record's undocumented members.
func (c *CalendarViewModel) MarshalJSON() ([]byte, error) {
	type plain CalendarViewModel
	return marshalWith((*plain)(c), c.Extra)
}

// CalendarExtraParams is Ombi's ExtraParams of a calendar entry.
type CalendarExtraParams struct {
	Overview      any       `json:"overview"`
	ProviderID    int       `json:"providerId"`
	ReleaseDate   time.Time `json:"releaseDate"`
	RequestStatus string    `json:"requestStatus"`
	Type          int       `json:"type"`
}

// BackgroundView is the answer of GET Images/background (URL only) and
// Images/background/info (with the name).
type BackgroundView struct {
	Name *string `json:"name,omitempty"`
	URL  string  `json:"url"`
}

// LandingPageViewModel is Ombi's LandingPageViewModel's media-server
// availability.
type LandingPageViewModel struct {
	CompletelyDown     bool `json:"completelyDown"`
	FullyAvailable     bool `json:"fullyAvailable"`
	PartiallyDown      bool `json:"partiallyDown"`
	ServersAvailable   int  `json:"serversAvailable"`
	ServersUnavailable int  `json:"serversUnavailable"`
	TotalServers       int  `json:"totalServers"`
}

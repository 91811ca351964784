package state

// The members typed as any below hold what a data document's settings or
// integration records give, as they are (a string, a number or null).

// CouchPotatoApiKey is Ombi's CouchPotatoApiKey, the answer of POST
// CouchPotato/apikey.
type CouchPotatoApiKey struct {
	APIKey  any  `json:"api_key"`
	Success bool `json:"success"`
}

// PlexServersAddUserModel is one saved Plex server of GET Plex/servers.
type PlexServersAddUserModel struct {
	MachineID  any `json:"machineId"`
	ServerID   any `json:"serverId"`
	ServerName any `json:"serverName"`
}

// PlexServersAddUser is GET Plex/servers' wrapper of the saved servers.
type PlexServersAddUser struct {
	Servers []*PlexServersAddUserModel `json:"servers"`
	Success bool                       `json:"success"`
}

// PlexLibrariesLiteResponse is Ombi's PlexLibrariesLiteResponse: a Plex
// server's library sections (SectionLite), or the failure.
type PlexLibrariesLiteResponse struct {
	Data       []any   `json:"data"`
	Message    *string `json:"message"`
	Successful bool    `json:"successful"`
}

// PlexAuthentication is plex.tv's sign-in answer as Ombi reads it; the
// mock's plex.tv signs no one in (user null).
type PlexAuthentication struct {
	User *struct{} `json:"user"` // always null
}

// PlexServersResponse is the answer of POST Plex/servers: the servers of
// a Plex account, or why there are none.
type PlexServersResponse struct {
	Message *string `json:"message"`
	Servers []any   `json:"servers"`
	Success bool    `json:"success"`
}

// PlexLibrariesResponse is Ombi's PlexLibrariesResponse: a Plex server's
// library sections as its PlexContainer, or the failure (data null).
type PlexLibrariesResponse struct {
	Data       *PlexContainer `json:"data"`
	Message    *string        `json:"message"`
	Successful bool           `json:"successful"`
}

// PlexContainer is Plex's answer wrapper.
type PlexContainer struct {
	MediaContainer *Mediacontainer `json:"mediaContainer"`
}

// Mediacontainer is Plex's MediaContainer of library sections (Directory).
type Mediacontainer struct {
	Art                 *string `json:"art"`
	Directory           []any   `json:"directory"`
	LibrarySectionID    int     `json:"librarySectionID"`
	LibrarySectionTitle *string `json:"librarySectionTitle"`
	LibrarySectionUUID  *string `json:"librarySectionUUID"`
	Metadata            []any   `json:"metadata"`
	Nocache             bool    `json:"nocache"`
	Size                int     `json:"size"`
	Thumb               *string `json:"thumb"`
	Title1              string  `json:"title1"`
	Title2              *string `json:"title2"`
	TotalSize           int     `json:"totalSize"`
	ViewGroup           *string `json:"viewGroup"`
	ViewMode            int     `json:"viewMode"`
}

// Success is the {success} answer of the Plex routes that only succeed.
type Success struct {
	Success bool `json:"success"`
}

// PlexOAuthURL is the answer of POST Plex/oauth: the app.plex.tv sign-in
// page of a pin.
type PlexOAuthURL struct {
	URL string `json:"url"`
}

// PlexOAuthFailure is the answer of GET PlexOAuth/{pinId} for a pin
// plex.tv has not authorised.
type PlexOAuthFailure struct {
	Error   string `json:"error"`
	Success bool   `json:"success"`
}

// PlexUserWatchlistModel is Ombi's PlexUserWatchlistModel, a Plex user
// and the state of its watchlist import.
type PlexUserWatchlistModel struct {
	SyncStatus int    `json:"syncStatus"`
	UserID     string `json:"userId"`
	UserName   string `json:"userName"`
}

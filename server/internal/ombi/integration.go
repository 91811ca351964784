package ombi

import (
	"context"
	"encoding/json"
	"net/http"
)

// ArrOptions reads an ARR option list from the saved settings; rel is the
// literal path below the API root.
//
// upstream: GET /api/v1/Sonarr/Profiles
// upstream: GET /api/v1/Sonarr/RootFolders
// upstream: GET /api/v1/Sonarr/v3/LanguageProfiles
// upstream: GET /api/v1/Sonarr/tags
// upstream: GET /api/v1/Radarr/Profiles
// upstream: GET /api/v1/Radarr/Profiles/4k
// upstream: GET /api/v1/Radarr/RootFolders
// upstream: GET /api/v1/Radarr/RootFolders/4k
// upstream: GET /api/v1/Radarr/tags
// upstream: GET /api/v1/Lidarr/Profiles
// upstream: GET /api/v1/Lidarr/RootFolders
func (c *Client) ArrOptions(ctx context.Context, rel string) (json.RawMessage, error) {
	return send[json.RawMessage](ctx, c, http.MethodGet, rel, nil)
}

// IntegrationPost posts a privately loaded saved-settings body to an
// option or info route.
//
// upstream: POST /api/v1/Lidarr/Metadata
// upstream: POST /api/v1/CouchPotato/profile
// upstream: POST /api/v1/Emby/info
// upstream: POST /api/v1/Jellyfin/info
// upstream: POST /api/v1/Emby/Library
// upstream: POST /api/v1/Jellyfin/Library
func (c *Client) IntegrationPost(ctx context.Context, rel string, body json.RawMessage) (json.RawMessage, error) {
	return send[json.RawMessage](ctx, c, http.MethodPost, rel, body)
}

// PlexServers lists the Plex servers of the saved account.
//
// upstream: GET /api/v1/Plex/servers
func (c *Client) PlexServers(ctx context.Context) (json.RawMessage, error) {
	return send[json.RawMessage](ctx, c, http.MethodGet, "api/v1/Plex/servers", nil)
}

// PlexLibraries lists the libraries of a saved Plex server.
//
// upstream: GET /api/v1/Plex/Libraries/{machineId}
func (c *Client) PlexLibraries(ctx context.Context, machineID string) (json.RawMessage, error) {
	return send[json.RawMessage](ctx, c, http.MethodGet, "api/v1/Plex/Libraries/"+seg(machineID), nil)
}

package ombi

import (
	"context"
	"net/http"
)

// RunJob starts a job (one of the literal routes below; the caller checks
// the name); the answer is a bool.
//
// upstream: POST /api/v1/Job/update
// upstream: POST /api/v1/Job/plexuserimporter
// upstream: POST /api/v1/Job/plexwatchlist
// upstream: POST /api/v1/Job/embyuserimporter
// upstream: POST /api/v1/Job/jellyfinuserimporter
// upstream: POST /api/v1/Job/plexcontentcacher
// upstream: POST /api/v1/Job/clearmediaserverdata
// upstream: POST /api/v1/Job/plexrecentlyadded
// upstream: POST /api/v1/Job/embycontentcacher
// upstream: POST /api/v1/Job/embyrecentlyadded
// upstream: POST /api/v1/Job/jellyfincontentcacher
// upstream: POST /api/v1/Job/arrAvailability
// upstream: POST /api/v1/Job/autodeleterequests
// upstream: POST /api/v1/Job/newsletter
func (c *Client) RunJob(ctx context.Context, job string) (bool, error) {
	return send[bool](ctx, c, http.MethodPost, "api/v1/Job/"+seg(job), nil)
}

// RevalidateWatchlist re-checks the Plex watchlist users' tokens; the
// answer may be empty (202) or a bool.
//
// upstream: POST /api/v1/Plex/WatchlistUsers/revalidate
func (c *Client) RevalidateWatchlist(ctx context.Context) (string, error) {
	req, err := c.NewRequest(ctx, http.MethodPost, "api/v1/Plex/WatchlistUsers/revalidate", nil)
	if err != nil {
		return "", err
	}
	return c.doText(req)
}

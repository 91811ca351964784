package server

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file serves read_requests: the v2 request lists, v1 request
// details, children and search (with the bounded parent-scan fallback), the
// recently-requested feed with TV child -> parent resolution, and the retry
// queue (retry.go): the request_page family and the handler. The client
// methods and wire shapes are in internal/ombi/requests.go.

// ---- request_page ----

// Target kinds (04-results $defs/target) and the request page unit.
const (
	kindMovie    = ombi.KindMovie
	kindTVParent = "tv_parent"
	kindTVChild  = ombi.KindTVChild
	kindAlbum    = ombi.KindAlbum

	unitRequests = "requests"
)

type (
	requestPage struct {
		Kind  string          `json:"kind"` // "request_page"
		Items []requestRecord `json:"items"`
		Page  paging          `json:"page"`
	}
	// requestRecord is 04-results $defs/request. Standard and 4K state are
	// separate fields; no combined lifecycle status is ever derived.
	requestRecord struct {
		Target          target       `json:"target"`
		ParentRequestID int          `json:"parent_request_id,omitempty"`
		Title           string       `json:"title,omitempty"`
		Identifiers     []identifier `json:"identifiers,omitempty"`
		Approved        *bool        `json:"approved,omitempty"`
		Available       *bool        `json:"available,omitempty"`
		Denied          *bool        `json:"denied,omitempty"`
		StatusText      string       `json:"status_text,omitempty"`
		RequestedDate   string       `json:"requested_date,omitempty"`
		RequestedUserID string       `json:"requested_user_id,omitempty"`
		DeniedReason    string       `json:"denied_reason,omitempty"`
		Is4K            *bool        `json:"is_4k,omitempty"`
		Approved4K      *bool        `json:"approved_4k,omitempty"`
		Available4K     *bool        `json:"available_4k,omitempty"`
		Denied4K        *bool        `json:"denied_4k,omitempty"`
		Subscribed      *bool        `json:"subscribed,omitempty"`
		CanApprove      *bool        `json:"can_approve,omitempty"`
		Seasons         []season     `json:"seasons,omitempty"`
	}
)

func newRequestPage(items []requestRecord, pg paging) requestPage {
	if items == nil {
		items = []requestRecord{}
	}
	return requestPage{Kind: "request_page", Items: items, Page: pg}
}

// Ombi request-id namespaces of the identifier list.
const (
	nsOmbiMovie    = "ombi_movie"
	nsOmbiTVParent = "ombi_tv_parent"
	nsOmbiTVChild  = "ombi_tv_child"
	nsOmbiAlbum    = "ombi_album"
)

// requestIDOf prefers requestId over id.
func requestIDOf(w *ombi.Request) int {
	if id := w.RequestID.Positive(); id > 0 {
		return id
	}
	return w.ID.Positive()
}

// projectRequest maps a movie, album or TV child request; ok is false when
// the record carries no positive request id (it is then left out).
func projectRequest(w *ombi.Request, kind string) (requestRecord, bool) {
	id := requestIDOf(w)
	if id == 0 {
		return requestRecord{}, false
	}
	r := requestRecord{
		Target: target{Kind: kind, ID: id}, Title: strings.TrimSpace(w.Title),
		Approved: w.Approved, Available: w.Available, Denied: w.Denied,
		StatusText: w.RequestStatus, RequestedDate: w.RequestedDate, RequestedUserID: w.RequestedUserID,
		DeniedReason: w.DeniedReason, Subscribed: w.Subscribed, CanApprove: w.CanApprove,
	}
	var ids idSet
	switch kind {
	case kindMovie:
		ids.add(nsTMDB, string(w.TheMovieDbID))
		ids.add(nsIMDB, w.ImdbID)
		ids.add(nsOmbiMovie, ombi.SegInt(id))
		r.Is4K, r.Approved4K, r.Available4K, r.Denied4K = w.Is4kRequest, w.Approved4K, w.Available4K, w.Denied4K
	case kindAlbum:
		ids.add(nsMusicBrainz, w.ForeignAlbumID)
		ids.add(nsOmbiAlbum, ombi.SegInt(id))
	case kindTVChild:
		parent := w.ParentRequestID.Positive()
		if w.ParentRequest != nil {
			if parent == 0 {
				parent = w.ParentRequest.ID.Positive()
			}
			if r.Title == "" {
				r.Title = strings.TrimSpace(w.ParentRequest.Title)
			}
			parentIDs(&ids, w.ParentRequest)
		}
		r.ParentRequestID = parent
		ids.add(nsOmbiTVChild, ombi.SegInt(id))
		if parent > 0 {
			ids.add(nsOmbiTVParent, ombi.SegInt(parent))
		}
		r.Seasons = projectSeasons(w.SeasonRequests)
	}
	r.Identifiers = ids.list()
	return r, true
}

// parentIDs adds a TV parent's provider ids: tvDbId is TVDB,
// externalProviderId TMDB.
func parentIDs(ids *idSet, p *ombi.TVParent) {
	ids.add(nsTVDB, string(p.TvDbID))
	ids.add(nsTMDB, string(p.ExternalProviderID))
	ids.add(nsIMDB, p.ImdbID)
}

// projectParent maps a v1 TV parent request: it stays a parent.
func projectParent(p *ombi.TVParent) (requestRecord, bool) {
	id := p.ID.Positive()
	if id == 0 {
		return requestRecord{}, false
	}
	var ids idSet
	parentIDs(&ids, p)
	ids.add(nsOmbiTVParent, ombi.SegInt(id))
	return requestRecord{Target: target{Kind: kindTVParent, ID: id}, Title: strings.TrimSpace(p.Title), Identifiers: ids.list()}, true
}

// projectAll maps a list, dropping records without an id (with a warning).
func projectAll(c *call, ws []ombi.Request, kind string) []requestRecord {
	out := make([]requestRecord, 0, len(ws))
	skipped := 0
	for i := range ws {
		if r, ok := projectRequest(&ws[i], kind); ok {
			out = append(out, r)
		} else {
			skipped++
		}
	}
	if skipped > 0 {
		c.warn("%d upstream %s records carried no request id and were left out", skipped, kind)
	}
	return out
}

// ---- read_requests ----

type requestsInput struct {
	Action          string   `json:"action"`
	Media           string   `json:"media"`
	Status          string   `json:"status"`
	SortDirection   string   `json:"sort_direction"`
	RequestID       int      `json:"request_id"`
	ParentRequestID int      `json:"parent_request_id"`
	Query           string   `json:"query"`
	Page            *pageArg `json:"page"`
}

// mediaDefaultWarning is DECISIONS D3's warning for a list without media.
const mediaDefaultWarning = "media not given: listed movie requests; pass media=tv or media=album for the others"

// readRequests serves read_requests.
// Implements S-ROUTING-0140 to S-ROUTING-0153 and S-ROUTING-0077 to S-ROUTING-0082 (read_requests routing, TV parent/child).
func readRequests(d *deps) tool {
	return tool{name: "read_requests", handle: func(ctx context.Context, c *call) (any, error) {
		var in requestsInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		switch in.Action {
		case "list":
			return d.listRequests(ctx, c, in)
		case "get":
			return d.getRequest(ctx, in)
		case "children":
			ws, err := d.client.TVChildRequests(ctx, in.ParentRequestID)
			if err != nil {
				return nil, err
			}
			window, pg := localPage(projectAll(c, ws, kindTVChild), in.Page, true, unitRequests)
			return newRequestPage(window, pg), nil
		case "search":
			if err := nonBlank("/query", in.Query); err != nil {
				return nil, err
			}
			return d.searchRequestsPage(ctx, c, in)
		case "recent":
			return d.recentRequests(ctx, c, in)
		case "retry_queue":
			return d.retryQueuePage(ctx, c, in.Page)
		}
		return nil, &unsupportedError{Message: "read_requests: unknown action"}
	}}
}

// listRequests reads one upstream window of a v2 list: offset is the
// position, limit the count. The total comes from upstream.
func (d *deps) listRequests(ctx context.Context, c *call, in requestsInput) (any, error) {
	media := in.Media
	if media == "" {
		media = "movie"
		c.warn(mediaDefaultWarning)
	}
	order := in.SortDirection
	if order == "" {
		order = "desc"
	}
	offset, limit := in.Page.window()
	page, err := d.client.RequestsList(ctx, media, in.Status, limit, offset, order)
	if err != nil {
		return nil, err
	}
	kind := map[string]string{"movie": kindMovie, "tv": kindTVChild, "album": kindAlbum}[media]
	items := page.Collection
	if len(items) > limit {
		items = items[:limit]
	}
	recs := projectAll(c, items, kind)
	pg := upstreamPage(offset, limit, len(items), unitRequests)
	if page.Total != nil && *page.Total >= 0 {
		total := *page.Total
		pg.Total = ptr(total)
		more := offset+len(items) < total
		pg.HasMore = ptr(more)
		pg.NextOffset = nil
		if more && len(items) > 0 {
			pg.NextOffset = ptr(offset + len(items))
		}
	}
	pg.Returned = len(recs)
	if pg.NextOffset != nil {
		c.warn("upstream paging has no snapshot: requests created or removed meanwhile may shift the next window")
	}
	return newRequestPage(recs, pg), nil
}

// getRequest reads one movie request or TV parent.
func (d *deps) getRequest(ctx context.Context, in requestsInput) (any, error) {
	var (
		r  requestRecord
		ok bool
	)
	switch in.Media {
	case "movie":
		w, err := d.client.MovieRequest(ctx, in.RequestID)
		if err != nil {
			return nil, err
		}
		r, ok = projectRequest(&w, kindMovie)
	case "tv":
		p, err := d.client.TVParentRequest(ctx, in.RequestID)
		if err != nil {
			return nil, err
		}
		r, ok = projectParent(&p)
	default:
		return nil, &unsupportedError{Message: "read_requests get: only movie and tv parents have a single-request read"}
	}
	if !ok {
		// Ombi answers an unknown request id with 204; a 200 object without
		// a positive id is not a request record
		return nil, &ombi.SchemaError{Op: "read_requests get", Reason: "the answer has no positive request id"}
	}
	return newRequestPage([]requestRecord{r}, singlePage(1, unitRequests)), nil
}

// searchRequestsPage searches requests; a TV search that fails upstream
// (5xx: the LINQ translation fault) falls back to a bounded v1 parent scan
// filtered locally on the title.
func (d *deps) searchRequestsPage(ctx context.Context, c *call, in requestsInput) (any, error) {
	ws, err := d.client.SearchRequests(ctx, in.Media, in.Query)
	if err == nil {
		var recs []requestRecord
		switch in.Media {
		case "tv":
			// v1 TV search answers TvRequests parents.
			for i := range ws {
				p := ombi.TVParent{ID: ws[i].ID, Title: ws[i].Title, ImdbID: ws[i].ImdbID}
				if r, ok := projectParent(&p); ok {
					recs = append(recs, r)
				}
			}
		case "album":
			recs = projectAll(c, ws, kindAlbum)
		default:
			recs = projectAll(c, ws, kindMovie)
		}
		window, pg := localPage(recs, in.Page, true, unitRequests)
		return newRequestPage(window, pg), nil
	}
	var api *ombi.APIError
	if in.Media != "tv" || !errors.As(err, &api) || api.Status < 500 {
		return nil, err
	}
	parents, err := d.client.TVParentScan(ctx)
	if err != nil {
		return nil, err
	}
	complete := len(parents) <= maxScan
	parents = parents[:min(len(parents), maxScan)]
	term := strings.ToLower(strings.TrimSpace(in.Query))
	var recs []requestRecord
	for i := range parents {
		if !strings.Contains(strings.ToLower(parents[i].Title), term) {
			continue
		}
		if r, ok := projectParent(&parents[i]); ok {
			recs = append(recs, r)
		}
	}
	c.warn("upstream TV request search failed; results come from a bounded scan of TV parent requests matched locally on the title")
	if !complete {
		c.truncate("only the first %d TV parent requests were scanned", maxScan)
	}
	window, pg := localPage(recs, in.Page, complete, unitRequests)
	return newRequestPage(window, pg), nil
}

// recentRequests reads the recently-requested feed. Movie and album rows
// target their request id; a TV row's requestId is a child id, resolved to
// its parent through one bounded v1 parent scan (child id first, then the
// TVDB/TMDB provider id). An unresolvable TV row is left out with a warning
// naming the child and truncated set (DECISIONS D2): never target id 0,
// never a provider-shaped target.
// Implements S-RESULTS-0045, S-RESULTS-0046, S-RESULTS-0050 and DECISION-D2-RECENT-TV-001.
func (d *deps) recentRequests(ctx context.Context, c *call, in requestsInput) (any, error) {
	rows, err := d.client.RecentlyRequested(ctx)
	if err != nil {
		return nil, err
	}
	var parents []ombi.TVParent
	scanned, scanOK := false, false
	var scanErr error
	lost := 0 // TV rows left out because the parent scan failed
	var recs []requestRecord
	for _, w := range rows {
		if w.Type == nil {
			c.warn("a recently-requested row without a request type was left out")
			continue
		}
		typ := *w.Type
		label, ok := enumLabel(c, enumRequestType, "type", typ)
		if !ok {
			continue
		}
		id := w.RequestID.Positive()
		switch label {
		case "movie", "album":
			if id == 0 {
				c.warn("a recently-requested %s row carried no request id and was left out", label)
				continue
			}
			r := recentRecord(&w, label, id)
			var ids idSet
			if label == "movie" {
				ids.add(nsTMDB, w.MediaID)
				ids.add(nsOmbiMovie, ombi.SegInt(id))
			} else {
				ids.add(nsMusicBrainz, w.MediaID)
				ids.add(nsOmbiAlbum, ombi.SegInt(id))
			}
			r.Identifiers = ids.list()
			recs = append(recs, r)
		case "tv":
			if !scanned {
				scanned = true
				ps, err := d.client.TVParentScan(ctx)
				if err == nil {
					scanOK = true
					parents = ps[:min(len(ps), maxScan)]
				} else {
					scanErr = err
				}
			}
			parent := resolveParent(parents, id, w.MediaID)
			if parent == nil {
				why := "no TV parent request matched it"
				if !scanOK {
					why = "the TV parent scan failed"
					lost++
				}
				c.truncate("recently-requested TV child request %s was left out: %s", string(w.RequestID), why)
				continue
			}
			r := recentRecord(&w, kindTVParent, parent.ID.Positive())
			var ids idSet
			parentIDs(&ids, parent)
			ids.add(nsOmbiTVParent, string(parent.ID))
			ids.add(nsOmbiTVChild, string(w.RequestID))
			r.Identifiers = ids.list()
			recs = append(recs, r)
		}
	}
	// RecentlyRequested is Ombi's bounded feed (a few rows per media), never
	// the complete collection: total and has_more stay unknown (04-results)
	window, pg := localPage(recs, in.Page, false, unitRequests)
	if lost > 0 {
		// a compound read that lost a part: PARTIAL_FAILURE with what is
		// known (04-results), never a complete-looking success
		return nil, &partialError{data: newRequestPage(window, pg), cause: scanErr,
			what: fmt.Sprintf("%d recently-requested TV requests are missing: the TV parent scan (GET /api/v1/Request/tv) failed", lost)}
	}
	return newRequestPage(window, pg), nil
}

func recentRecord(w *ombi.Recent, kind string, id int) requestRecord {
	return requestRecord{
		Target: target{Kind: kind, ID: id}, Title: strings.TrimSpace(w.Title),
		Approved: w.Approved, Available: w.Available, Denied: w.Denied,
		RequestedDate: w.RequestDate, RequestedUserID: w.UserID,
	}
}

// resolveParent finds the parent of a TV child: by child id first, then by
// the provider id (tvDbId or externalProviderId).
func resolveParent(parents []ombi.TVParent, childID int, mediaID string) *ombi.TVParent {
	if childID > 0 {
		for i := range parents {
			for j := range parents[i].ChildRequests {
				if parents[i].ChildRequests[j].ID.Positive() == childID && parents[i].ID.Positive() > 0 {
					return &parents[i]
				}
			}
		}
	}
	mediaID = strings.TrimSpace(mediaID)
	if mediaID == "" || mediaID == "0" {
		return nil
	}
	var found *ombi.TVParent
	for i := range parents {
		p := &parents[i]
		if p.ID.Positive() == 0 || (string(p.TvDbID) != mediaID && string(p.ExternalProviderID) != mediaID) {
			continue
		}
		if found != nil && found.ID != p.ID {
			return nil // ambiguous: never guess
		}
		found = p
	}
	return found
}

package server

// pageArg is the optional "page" argument: offset defaults to 0, limit to 25
// (the schema bounds limit to 1..100).
type pageArg struct {
	Offset *int `json:"offset"`
	Limit  *int `json:"limit"`
}

// Paging defaults of the routing rules.
const (
	defaultLimit = 25
	maxLimit     = 100
)

func (p *pageArg) window() (offset, limit int) {
	offset, limit = 0, defaultLimit
	if p != nil && p.Offset != nil {
		offset = max(*p.Offset, 0)
	}
	if p != nil && p.Limit != nil {
		limit = min(max(*p.Limit, 1), maxLimit)
	}
	return offset, limit
}

// Page modes and units (04-results $defs/paging).
const (
	modeUpstream = "upstream"
	modeLocal    = "local"
	modeNone     = "none"

	unitMedia      = "media"
	unitReferences = "references"
)

// paging is the page object of every *_page family. Total, HasMore and
// NextOffset are null when unknown: never a guess.
type paging struct {
	Offset     int    `json:"offset"`
	Limit      int    `json:"limit"`
	Returned   int    `json:"returned"`
	Total      *int   `json:"total"`
	HasMore    *bool  `json:"has_more"`
	NextOffset *int   `json:"next_offset"`
	Mode       string `json:"mode"`
	Unit       string `json:"unit"`
}

func ptr[T any](v T) *T { return &v }

// localPage slices the window out of a bounded fetch. complete says whether
// the fetch is the whole authorized collection: only then are total and
// has_more known. Otherwise a continuation is claimed only when the fetched
// set holds records beyond the window.
// Implements S-ROUTING-0088, S-ROUTING-0089 and S-RESULTS-0113, S-RESULTS-0114.
func localPage[T any](all []T, p *pageArg, complete bool, unit string) ([]T, paging) {
	offset, limit := p.window()
	start := min(offset, len(all))
	end := min(start+limit, len(all))
	window := all[start:end]
	pg := paging{Offset: offset, Limit: limit, Returned: len(window), Mode: modeLocal, Unit: unit}
	more := end < len(all)
	switch {
	case complete:
		pg.Total = ptr(len(all))
		pg.HasMore = ptr(more)
		if more {
			pg.NextOffset = ptr(end)
		}
	case more:
		pg.HasMore = ptr(true)
		pg.NextOffset = ptr(end)
	}
	return window, pg
}

// upstreamPage describes a window the upstream paged itself: the total is
// never known, and a continuation offset is offered only when the upstream
// filled the window.
func upstreamPage(offset, limit, returned int, unit string) paging {
	pg := paging{Offset: offset, Limit: limit, Returned: returned, Mode: modeUpstream, Unit: unit}
	if returned >= limit {
		pg.NextOffset = ptr(offset + returned)
	}
	return pg
}

// singlePage is the page of a details read: no paging, one or zero records.
func singlePage(returned int, unit string) paging {
	return paging{Offset: 0, Limit: max(returned, 1), Returned: returned, Total: ptr(returned), HasMore: ptr(false), Mode: modeNone, Unit: unit}
}

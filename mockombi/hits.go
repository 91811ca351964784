package mockombi

import (
	"strings"
	"sync/atomic"
)

// RouteHits is one route of the mock's route table and how many calls
// matched it since the journal was last cleared (a stubbed call counts
// for the route it stood in for).
type RouteHits struct {
	Method string `json:"method"`
	// Path is the route's pattern, e.g. /api/v1/Request/movie/{requestId}.
	Path string `json:"path"`
	Hits int64  `json:"hits"`
}

// routeHits counts the calls matched by each route of the table; the
// index is built once and only the counters change.
type routeHits struct {
	index  map[string]int // "METHOD /pattern" → position in the table
	routes []RouteHits    // method and path of each route; Hits unused
	counts []atomic.Int64
}

// newRouteHits counts for the routes of rt.
func newRouteHits(rt *router) *routeHits {
	h := &routeHits{index: make(map[string]int, len(rt.routes)), counts: make([]atomic.Int64, len(rt.routes))}
	for i, cr := range rt.routes {
		h.index[cr.pattern] = i
		_, p, _ := strings.Cut(cr.pattern, " ")
		h.routes = append(h.routes, RouteHits{Method: cr.method, Path: p})
	}
	return h
}

// add counts one call matched by the route with that pattern ("METHOD
// /path", as Call.Route holds it); other patterns are not counted.
func (h *routeHits) add(pattern string) {
	if i, ok := h.index[pattern]; ok {
		h.counts[i].Add(1)
	}
}

// clear sets every count back to 0.
func (h *routeHits) clear() {
	for i := range h.counts {
		h.counts[i].Store(0)
	}
}

// list is every route in table order with its count.
func (h *routeHits) list() []RouteHits {
	out := make([]RouteHits, len(h.routes))
	for i, r := range h.routes {
		r.Hits = h.counts[i].Load()
		out[i] = r
	}
	return out
}

// RouteHits lists every route of the mock's route table, in table order,
// with the calls it matched since the journal was last cleared (Reset and
// ClearJournal set the counts back to 0).
func (s *Server) RouteHits() []RouteHits { return s.hits.list() }

// Unmatched returns the journaled calls that no route, stub, recording or
// file answered, oldest first; like Journal it waits for the requests in
// flight first. The copies share headers and bodies with the journal:
// read only.
func (s *Server) Unmatched() []Call {
	s.journal.settle()
	all := s.journal.since(0, 0)
	out := all[:0]
	for _, c := range all {
		if c.Unmatched {
			out = append(out, c)
		}
	}
	return out
}

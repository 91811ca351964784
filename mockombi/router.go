package mockombi

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// authLevel is what a route demands of the caller's principal.
type authLevel int

// route is one line of the route table.
type route struct {
	pattern string
	auth    authLevel
	handler http.HandlerFunc
}

// segment is one parsed path segment of a route pattern.
type segment struct {
	literal string // lower-cased; "" when param is set
	param   string
}

// compiledRoute is a route with its pattern split for matching.
type compiledRoute struct {
	route
	method string
	segs   []segment
}

// router matches request paths case-insensitively: literal segments compare
// lower-cased, {param} segments capture the unescaped segment, a literal beats
// a parameter at the first position where candidates differ, and one trailing
// slash is tolerated.
type router struct {
	routes []compiledRoute
	// bySize indexes the routes by segment count: no other route can match
	// a path of that many segments.
	bySize []routeBucket
}

// routeBucket is the routes of one segment count, by the literal at
// position keyAt: a path can only match the routes with its own segment
// there, or a parameter. Each list holds route indices in table order, so
// the routes a path matches are met in the order of the table.
type routeBucket struct {
	keyAt int
	byKey map[string][]int // the routes with that literal, and every param route
	other []int            // the routes with a parameter at keyAt
}

// bucketKeyAt is the segment a bucket of n-segment routes is keyed on: the
// controller of /api/vN/Controller/... paths, or the last segment of
// shorter ones (a bucket of "/" routes keeps them all in other).
func bucketKeyAt(n int) int { return min(2, n-1) }

// candidates lists the routes that may match the lower-cased segments.
func (rt *router) candidates(lower []string) []int {
	if len(lower) >= len(rt.bySize) {
		return nil
	}
	b := &rt.bySize[len(lower)]
	if len(lower) == 0 {
		return b.other
	}
	if list, ok := b.byKey[lower[b.keyAt]]; ok {
		return list
	}
	return b.other
}

// index builds bySize from routes.
func (rt *router) index() {
	for i, cr := range rt.routes {
		n := len(cr.segs)
		for len(rt.bySize) <= n {
			rt.bySize = append(rt.bySize, routeBucket{keyAt: bucketKeyAt(len(rt.bySize)), byKey: map[string][]int{}})
		}
		b := &rt.bySize[n]
		if n == 0 { // "/": no segment to key on
			b.other = append(b.other, i)
			continue
		}
		if sg := cr.segs[b.keyAt]; sg.param == "" {
			if _, ok := b.byKey[sg.literal]; !ok {
				b.byKey[sg.literal] = slices.Clone(b.other) // the param routes so far
			}
			b.byKey[sg.literal] = append(b.byKey[sg.literal], i)
			continue
		}
		b.other = append(b.other, i)
		for k := range b.byKey {
			b.byKey[k] = append(b.byKey[k], i)
		}
	}
}

// newRouter compiles the table; a malformed pattern is a programming error.
func newRouter(table []route) (*router, error) {
	rt := &router{}
	seen := map[string]bool{}
	for _, r := range table {
		method, p, ok := strings.Cut(r.pattern, " ")
		if !ok || !strings.HasPrefix(p, "/") {
			return nil, fmt.Errorf("compile route %q: want \"METHOD /path\"", r.pattern)
		}
		cr := compiledRoute{route: r, method: method}
		var key strings.Builder
		key.WriteString(method)
		for _, part := range splitPath(p) {
			if strings.HasPrefix(part, "{") && strings.HasSuffix(part, "}") {
				cr.segs = append(cr.segs, segment{param: part[1 : len(part)-1]})
				key.WriteString("/{}")
				continue
			}
			cr.segs = append(cr.segs, segment{literal: strings.ToLower(part)})
			key.WriteString("/" + strings.ToLower(part))
		}
		if seen[key.String()] {
			return nil, fmt.Errorf("compile route %q: duplicate of an earlier route", r.pattern)
		}
		seen[key.String()] = true
		rt.routes = append(rt.routes, cr)
	}
	rt.index()
	return rt, nil
}

// splitPath splits an escaped path into its segments, dropping the leading
// slash and one trailing slash.
func splitPath(p string) []string {
	p = strings.TrimPrefix(p, "/")
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// match finds the best route for method and escaped path. It returns the route,
// the unescaped parameter values, and whether any route matched the path under
// another method.
func (rt *router) match(method, escapedPath string) (*compiledRoute, map[string]string, bool) {
	parts := splitPath(escapedPath)
	lower := make([]string, len(parts))
	for i, p := range parts {
		lower[i] = strings.ToLower(p)
	}
	var best *compiledRoute
	otherMethod := false
	for _, i := range rt.candidates(lower) {
		cr := &rt.routes[i]
		if !cr.matches(lower) {
			continue
		}
		if cr.method != method && (method != http.MethodHead || cr.method != http.MethodGet) {
			otherMethod = true
			continue
		}
		if best == nil || cr.beats(best) {
			best = cr
		}
	}
	if best == nil {
		return nil, nil, otherMethod
	}
	params := map[string]string{}
	for i, sg := range best.segs {
		if sg.param == "" {
			continue
		}
		v, err := url.PathUnescape(parts[i])
		if err != nil {
			v = parts[i]
		}
		params[sg.param] = v
	}
	return best, params, false
}

// matches reports whether the lower-cased segments fit the route's shape.
func (cr *compiledRoute) matches(lower []string) bool {
	if len(lower) != len(cr.segs) {
		return false
	}
	for i, sg := range cr.segs {
		if sg.param != "" {
			if lower[i] == "" {
				return false
			}
			continue
		}
		if sg.literal != lower[i] {
			return false
		}
	}
	return true
}

// beats reports whether cr is more specific than other: at the first segment
// where one has a literal and the other a parameter, the literal wins.
func (cr *compiledRoute) beats(other *compiledRoute) bool {
	for i := range cr.segs {
		a, b := cr.segs[i].param == "", other.segs[i].param == ""
		if a != b {
			return a
		}
	}
	return false
}

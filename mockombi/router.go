package mockombi

import (
	"fmt"
	"net/http"
	"net/url"
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
	for i := range rt.routes {
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

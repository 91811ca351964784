package mockombi

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestRouter_indexAgreesWithTableScan checks the segment-count and
// controller index: for paths made from every route of the table (params
// filled with literals of other routes, empty, odd case, one segment more
// or less), the candidates match looks at hold, in table order, exactly
// the routes of the whole table that fit the path, so match picks the same
// route (and the same other-method answer) as a scan of the table would.
// A bucket that loses a param route, or lists routes out of order, fails.
func TestRouter_indexAgreesWithTableScan(t *testing.T) {
	s := mustNew(t, Options{})
	rt := s.router
	// a table with "/" and params at the keyed position, which the
	// built-in table does not have
	h := func(http.ResponseWriter, *http.Request) {}
	extra, err := newRouter([]route{
		{"GET /", anon, h},
		{"GET /api/v1/{any}/x", anon, h},
		{"GET /api/v1/Thing/x", anon, h},
		{"POST /api/v1/{any}/x", anon, h},
		{"GET /api/v1/Other/{id}", anon, h},
		{"GET /{a}", anon, h},
		{"GET /api/{v}/Thing/x", anon, h},
	})
	if err != nil {
		t.Fatal(err)
	}
	fills := []string{"x", "", "Thing", "other", "movie", "1", "%20"}
	for _, r := range []*router{rt, extra} {
		var paths []string
		for _, cr := range r.routes {
			for _, fill := range fills {
				var segs []string
				for _, sg := range cr.segs {
					if sg.param != "" {
						segs = append(segs, fill)
					} else {
						segs = append(segs, sg.literal)
					}
				}
				p := "/" + strings.Join(segs, "/")
				paths = append(paths, p, strings.ToUpper(p), p+"/", p+"/"+fill, "/"+strings.Join(segs[:max(len(segs)-1, 0)], "/"))
			}
		}
		paths = append(paths, "/", "", "//", "/api", "/api/v1", "/nowhere/at/all")
		for _, p := range paths {
			lower := splitPath(strings.ToLower(p))
			var want, got []int
			for i := range r.routes {
				if r.routes[i].matches(lower) {
					want = append(want, i)
				}
			}
			last := -1
			for _, i := range r.candidates(lower) {
				if i <= last {
					t.Fatalf("path %q: candidates out of table order: %v", p, r.candidates(lower))
				}
				last = i
				if r.routes[i].matches(lower) {
					got = append(got, i)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("path %q: candidates fitting it %v, want the routes %v", p, got, want)
			}
		}
	}
}

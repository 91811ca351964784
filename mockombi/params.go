package mockombi

import (
	"net/http"
	"strconv"
	"strings"
)

// segmentAfter is the lower-cased path segment that follows the first
// segment named after: the media of a Request route (after "request" or
// "requests"), the list of a browse route (after "movie" or "tv").
func segmentAfter(r *http.Request, after string) string {
	parts := splitPath(strings.ToLower(r.URL.Path))
	for i, p := range parts {
		if p == after && i+1 < len(parts) {
			return parts[i+1]
		}
	}
	return ""
}

// positionArgs reads {currentPosition}/{amountToLoad}.
func positionArgs(w http.ResponseWriter, r *http.Request) (int, int, bool) {
	pos, ok := intArg(w, r, "currentPosition")
	if !ok {
		return 0, 0, false
	}
	take, ok := intArg(w, r, "amountToLoad")
	return pos, take, ok
}

// window slices items[pos:pos+take], clamped.
func window[T any](items []T, pos, take int) []T {
	if pos < 0 || take <= 0 || pos >= len(items) {
		return nil
	}
	return items[pos:min(len(items), pos+take)]
}

// queryFold reads a query value by case-insensitive key, as ASP.NET binds.
func queryFold(r *http.Request, key string) string {
	for k, v := range r.URL.Query() {
		if strings.EqualFold(k, key) && len(v) > 0 {
			return v[0]
		}
	}
	return ""
}

// intArg reads an int path value bound without a route constraint; a non-int
// gets the [ApiController] 400 ProblemDetails.
func intArg(w http.ResponseWriter, r *http.Request, name string) (int, bool) {
	raw := r.PathValue(name)
	n, err := strconv.Atoi(raw)
	if err != nil {
		writeProblemErrors(w, http.StatusBadRequest, map[string][]string{name: {"The value '" + raw + "' is not valid."}})
		return 0, false
	}
	return n, true
}

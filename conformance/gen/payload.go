package gen

import (
	"fmt"
	"html"
	"strings"

	"pgregory.net/rapid"
)

// secretKeys are property names under which real Ombi answers carry
// secrets; a planted secret uses one of them or an undocumented name.
var secretKeys = []string{
	"apiKey", "ApiKey", "password", "token", "accessToken", "userAccessToken", "plexToken",
	"connectionString", "email", "emailAddress", "mediaServerToken", "webhook", "secret",
	"x_undocumented_field", "internalNotes", "_debug",
}

// userKeys are nested user objects of Ombi records.
var userKeys = []string{"requestedUser", "userReported", "user", "mostRequestedUserMovie", "mostRequestedUserTv", "approvedBy", "owner"}

// Planted is an upstream document with secrets placed in it.
type Planted struct {
	Doc    any      // the document, to be served as JSON
	Places []string // JSON pointers where a secret was placed
}

// Plant returns a generator that copies doc and places secrets where real
// Ombi answers carry them: undocumented properties and secret-named fields
// at any depth, and nested user objects with an email and access token. It
// never overwrites a property doc already has, so documented fields keep
// their values.
func Plant(doc any, secrets []string) *rapid.Generator[Planted] {
	return rapid.Custom(func(t *rapid.T) Planted {
		p := Planted{}
		objects := objectPointers(doc, "")
		if len(objects) == 0 {
			// a scalar or empty document: wrap nothing, plant beside it
			p.Doc = map[string]any{"value": doc, "apiKey": rapid.SampledFrom(secrets).Draw(t, "secret")}
			p.Places = []string{"/apiKey"}
			return p
		}
		p.Doc = clone(doc)
		n := rapid.IntRange(1, min(6, 2*len(objects))).Draw(t, "plants")
		for i := range n {
			ptr := rapid.SampledFrom(objectPointers(p.Doc, "")).Draw(t, fmt.Sprintf("object %d", i))
			obj := lookup(p.Doc, ptr).(map[string]any)
			secret := rapid.SampledFrom(secrets).Draw(t, fmt.Sprintf("secret %d", i))
			if rapid.Bool().Draw(t, fmt.Sprintf("as user %d", i)) {
				k := rapid.SampledFrom(userKeys).Draw(t, fmt.Sprintf("user key %d", i))
				if _, taken := obj[k]; taken {
					continue
				}
				obj[k] = map[string]any{"id": "8c3f0e4a-51d2-4c7e-9b1a-0f6d2c9e8a71", "userName": "someone", "email": secret + "@mail.example",
					"userAccessToken": secret, "alias": "", "userType": 1}
				p.Places = append(p.Places, ptr+"/"+k)
				continue
			}
			k := rapid.SampledFrom(secretKeys).Draw(t, fmt.Sprintf("key %d", i))
			if _, taken := obj[k]; taken {
				continue
			}
			obj[k] = secret
			p.Places = append(p.Places, ptr+"/"+k)
		}
		return p
	})
}

// ErrorBody is a generated upstream failure body.
type ErrorBody struct {
	Status      int
	ContentType string
	Body        string
	Shape       string // json-error, problem-details, stack-trace, html, plain-text
}

// ErrorBodies returns a generator of non-2xx answers whose bodies carry a
// secret the way Ombi and its reverse proxies leak them.
func ErrorBodies(secrets []string) *rapid.Generator[ErrorBody] {
	return rapid.Custom(func(t *rapid.T) ErrorBody {
		secret := rapid.SampledFrom(secrets).Draw(t, "secret")
		status := rapid.SampledFrom([]int{400, 401, 403, 404, 409, 429, 500, 502, 503}).Draw(t, "status")
		shape := rapid.SampledFrom([]string{"json-error", "problem-details", "stack-trace", "html", "plain-text"}).Draw(t, "shape")
		e := ErrorBody{Status: status, Shape: shape, ContentType: "application/json; charset=utf-8"}
		switch shape {
		case "json-error":
			e.Body = string(mustJSON(map[string]any{"error": "Server=db;Database=Ombi;User Id=ombi;Password=" + secret + ";"}))
		case "problem-details":
			e.ContentType = "application/problem+json"
			e.Body = string(mustJSON(map[string]any{"type": "https://tools.ietf.org/html/rfc7231#section-6.6.1", "title": "An error occurred",
				"status": status, "traceId": secret, "exception": "System.Exception: " + secret,
				"errors": map[string]any{"ApiKey": []any{secret}}}))
		case "stack-trace":
			e.Body = string(mustJSON(map[string]any{"message": "Object reference not set to an instance of an object.",
				"stackTrace": "   at Ombi.Controllers.V1.SearchController.Search(String searchTerm) in /src/" + secret + "/SearchController.cs:line 42"}))
		case "html":
			e.ContentType = "text/html"
			e.Body = fmt.Sprintf("<html><head><title>%d</title></head><body><h1>Error</h1><pre>%s</pre></body></html>", status, html.EscapeString("token="+secret))
		case "plain-text":
			e.ContentType = "text/plain"
			e.Body = "Unauthorized: bearer " + secret + " rejected"
		}
		return e
	})
}

// Inflated is an upstream document grown past the response budget.
type Inflated struct {
	Doc     any      // the document, to be served as JSON
	Records int      // length every array was grown (or shrunk) to
	Markers []string // ids of long strings: each starts "BUDGET-<id>-" and ends "-END-<id>"
	Longest int      // bytes of the longest planted string
}

// MarkerHead and MarkerTail frame a planted long string, so a check can tell
// a cut string (head present, tail absent) from a whole one.
func MarkerHead(id string) string { return "BUDGET-" + id + "-" }

// MarkerTail is the end of the long string MarkerHead starts.
func MarkerTail(id string) string { return "-END-" + id }

// Growth says how Grow resizes a document: every outermost array to
// Records elements, every nested one to Nested, and the string leaves at
// Leaves (indexes into the document's string leaves after growth, at most
// 64; an index past the end is ignored) replaced by framed long strings of
// the lengths at the same position of Lengths.
type Growth struct {
	Records, Nested int
	Leaves          []int
	Lengths         []int
}

// Inflate returns a generator that resizes every array of doc to one drawn
// length (empty to tens of thousands, by repeating its elements with fresh
// ids), and replaces some string leaves with long framed strings (up to
// megabytes). maxBytes bounds the encoded size by lowering the length.
func Inflate(doc any, maxBytes int) *rapid.Generator[Inflated] {
	return rapid.Custom(func(t *rapid.T) Inflated {
		g := Growth{
			Records: rapid.SampledFrom([]int{0, 1, 2, 25, 99, 100, 101, 150, 500, 1000, 5000, 20000, 100000}).Draw(t, "records"),
			Nested:  rapid.SampledFrom([]int{0, 1, 100, 101, 300}).Draw(t, "nested records"),
		}
		// the leaves are counted on the grown document, so no long string
		// is dropped with an emptied array
		leaves := len(stringPointers(grown(doc, maxBytes, g), ""))
		if leaves > 0 {
			k := rapid.IntRange(0, min(3, leaves)).Draw(t, "long strings")
			free := make([]int, leaves)
			for i := range free {
				free[i] = i
			}
			for i := range k {
				j := rapid.IntRange(0, len(free)-1).Draw(t, fmt.Sprintf("leaf %d", i))
				g.Leaves = append(g.Leaves, free[j])
				free = append(free[:j:j], free[j+1:]...)
				g.Lengths = append(g.Lengths, rapid.SampledFrom([]int{300, 5000, 70 << 10, 1 << 20}).Draw(t, fmt.Sprintf("length %d", i)))
			}
		}
		return Grow(doc, maxBytes, g)
	})
}

// OverBudget are the growths that cross each budget edge on their own: more
// records than a page may hold, with long strings in a few fields; more
// nested records than an array may hold; and every string field longer
// than the whole byte budget. A budget property tries them on every run
// before its random cases, so a rule broken at an edge fails whatever the
// seed.
func OverBudget() []Growth {
	long := func(n, size int) ([]int, []int) {
		leaves, lengths := make([]int, n), make([]int, n)
		for i := range n {
			leaves[i], lengths[i] = i, size
		}
		return leaves, lengths
	}
	recL, recN := long(8, 70<<10)
	allL, allN := long(64, 70<<10)
	return []Growth{
		{Records: 101, Nested: 1, Leaves: recL, Lengths: recN},
		{Records: 1, Nested: 101},
		{Records: 2, Nested: 2, Leaves: allL, Lengths: allN},
	}
}

// Grow resizes doc as g says (see Growth); maxBytes bounds the encoded size
// of each grown array by lowering its length.
func Grow(doc any, maxBytes int, g Growth) Inflated {
	gr := grower{max: maxBytes}
	d := gr.grow(clone(doc), g.Records, g.Nested, true)
	out := Inflated{Records: gr.used}
	leaves := stringPointers(d, "")
	for i, j := range g.Leaves {
		if j < 0 || j >= len(leaves) || i >= len(g.Lengths) {
			continue
		}
		ptr, size := leaves[j], g.Lengths[i]
		id := fmt.Sprintf("s%d", i)
		long := MarkerHead(id) + strings.Repeat("lorem ipsum ", size/12) + MarkerTail(id)
		if ptr == "" {
			d = long // the whole document is one string
		} else {
			set(d, ptr, long)
		}
		out.Markers = append(out.Markers, id)
		out.Longest = max(out.Longest, size)
	}
	out.Doc = d
	return out
}

// grown is doc resized by g without long strings.
func grown(doc any, maxBytes int, g Growth) any {
	gr := grower{max: maxBytes}
	return gr.grow(clone(doc), g.Records, g.Nested, true)
}

// numberedKeys are the properties a grown copy of a record renumbers: its
// id, and the numbers unique among its siblings in Ombi's models.
var numberedKeys = []string{"id", "seasonNumber", "episodeNumber"}

// grower resizes arrays within a byte budget.
type grower struct {
	max   int // bytes one grown array, and all outermost arrays together, may take
	spent int // bytes the outermost arrays grown so far take
	used  int // the largest length given to an outermost array
}

// grow sets every outermost array in v to n elements and every nested one
// to m, repeating the existing elements with renumbered "id" fields; n is
// lowered until the array fits in g.max bytes.
func (g *grower) grow(v any, n, m int, outer bool) any {
	out, _ := g.sized(v, n, m, outer)
	return out
}

// sized is grow that also returns the encoded size of what it returns
// (len of its JSON), computed bottom-up so no subtree is encoded twice.
func (g *grower) sized(v any, n, m int, outer bool) (any, int) {
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			return x, 2
		}
		base := make([]any, len(x))
		sizes := make([]int, len(x))
		size := 0
		for i, e := range x {
			base[i], sizes[i] = g.sized(e, m, m, false)
			size += sizes[i]
		}
		per := max(size/len(x), 8)
		limit := g.max
		if outer {
			// the whole document stays within max: an answer with many
			// collections (credits, videos, ...) shares one budget
			limit = max(g.max-g.spent, 0)
		}
		for n > 0 && n*per > limit {
			n /= 2
		}
		if outer {
			g.used = max(g.used, n)
			g.spent += n * per
		}
		out := make([]any, n)
		total := 2 + max(n-1, 0) // brackets and commas
		for i := range n {
			j := i % len(base)
			e, es := base[j], sizes[j]
			if i >= len(base) {
				e = clone(e)
			}
			if obj, ok := e.(map[string]any); ok {
				// the copies are new records: fresh ids, and the numbers
				// Ombi keeps unique within their parent (seasons of a show,
				// episodes of a season) continue instead of repeating
				for _, k := range numberedKeys {
					if old, has := obj[k].(float64); has {
						es += len(mustJSON(float64(i+1))) - len(mustJSON(old))
						obj[k] = float64(i + 1)
					}
				}
			}
			if i < len(base) {
				sizes[j] = es // base[j] itself was renumbered: its copies start from here
			}
			out[i], total = e, total+es
		}
		return out, total
	case map[string]any:
		before := -1
		if c, ok := x["collection"].([]any); ok {
			before = len(c)
		}
		sizes := make(map[string]int, len(x))
		for _, k := range sortedKeys(x) {
			x[k], sizes[k] = g.sized(x[k], n, m, outer)
		}
		if c, ok := x["collection"].([]any); ok && before >= 0 {
			if total, has := x["total"].(float64); has {
				x["total"] = pagedTotal(total, before, len(c))
				sizes["total"] = len(mustJSON(x["total"]))
			}
		}
		size := 2 + max(len(x)-1, 0) // braces and commas
		for k, s := range sizes {
			size += len(mustJSON(k)) + 1 + s // "key":value
		}
		return x, size
	}
	return v, len(mustJSON(v))
}

// pagedTotal is the total a real Ombi page ({collection, total}) gives when
// its collection holds after records instead of before: the records outside
// the page (those before its position and after its end) are unchanged, so
// the total stays consistent with the position the server asked for.
func pagedTotal(total float64, before, after int) float64 {
	outside := max(total-float64(before), 0)
	return outside + float64(after)
}

func clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = clone(e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = clone(e)
		}
		return s
	}
	return v
}

func escape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

func unescape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~1", "/"), "~0", "~")
}

// objectPointers lists the JSON pointers of every object in v, at most 64.
func objectPointers(v any, ptr string) []string {
	var out []string
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		if len(out) >= 64 {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			out = append(out, ptr)
			for _, k := range sortedKeys(x) {
				walk(x[k], ptr+"/"+escape(k))
			}
		case []any:
			for i, e := range x {
				if i >= 4 {
					break
				}
				walk(e, fmt.Sprintf("%s/%d", ptr, i))
			}
		}
	}
	walk(v, ptr)
	return out
}

// stringPointers lists the JSON pointers of string leaves in v, at most 64.
func stringPointers(v any, ptr string) []string {
	var out []string
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		if len(out) >= 64 {
			return
		}
		switch x := v.(type) {
		case string:
			out = append(out, ptr)
		case map[string]any:
			for _, k := range sortedKeys(x) {
				walk(x[k], ptr+"/"+escape(k))
			}
		case []any:
			for i, e := range x {
				if i >= 2 {
					break
				}
				walk(e, fmt.Sprintf("%s/%d", ptr, i))
			}
		}
	}
	walk(v, ptr)
	return out
}

func lookup(v any, ptr string) any {
	if ptr == "" {
		return v
	}
	for _, seg := range strings.Split(ptr[1:], "/") {
		switch x := v.(type) {
		case map[string]any:
			v = x[unescape(seg)]
		case []any:
			var i int
			_, _ = fmt.Sscan(seg, &i)
			v = x[i]
		}
	}
	return v
}

func set(root any, ptr, val string) {
	i := strings.LastIndex(ptr, "/")
	parent, last := lookup(root, ptr[:i]), ptr[i+1:]
	switch x := parent.(type) {
	case map[string]any:
		x[unescape(last)] = val
	case []any:
		var j int
		_, _ = fmt.Sscan(last, &j)
		x[j] = val
	}
}

// JSON encodes a generated document.
func JSON(v any) string { return string(mustJSON(v)) }

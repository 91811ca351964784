package checks

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file guards the hygiene of emitted ids, whatever upstream sends
// (04-results: an identifier names its namespace, a numeric namespace holds
// a positive integer, imdb holds tt plus digits; an id that is not one is
// omitted, never emitted): search results whose ids are 0, negative,
// decimal, an exponent, too long or a number in a string still yield only
// valid identifiers and *_id values.

// hostileIDs are id values an upstream answer may carry that no numeric
// namespace admits, as JSON text.
var hostileIDs = []string{`-7`, `"-7"`, `0`, `"2.5e3"`, `1e400`, `"123456789012345678901"`, `"-0"`, `3.5`}

// idNamespacePatterns are what an emitted identifier's value must match, by
// namespace; a namespace not listed is not numeric (musicbrainz, the
// provider's own) and is not judged here.
var idNamespacePatterns = map[string]*regexp.Regexp{
	"tmdb":           positiveIDPattern,
	"tvdb":           positiveIDPattern,
	"tvmaze":         positiveIDPattern,
	"imdb":           regexp.MustCompile(`^tt[0-9]+$`),
	"ombi_movie":     positiveIDPattern,
	"ombi_tv_parent": positiveIDPattern,
	"ombi_tv_child":  positiveIDPattern,
	"ombi_album":     positiveIDPattern,
}

// searchTerms are the terms tried, in order, for a search that answers
// two records or more.
var searchTerms = []string{"the", "a", "e", "o", "s"}

// positiveIDPattern is a positive integer without sign or leading zero.
var positiveIDPattern = regexp.MustCompile(`^[1-9][0-9]*$`)

func (s *Suite) idHygieneChecks() {
	ginkgo.Describe("wire hygiene of emitted ids", ginkgo.Label("wire"), func() {
		ginkgo.BeforeEach(s.clean)

		for _, media := range []string{"movie", "tv"} {
			s.ClauseItFor("RESULTS-PROJECTION-001", "read_search.text."+media+".hostile-ids", func(ctx ginkgo.SpecContext) {
				srv := s.shared(ctx, s.allConfig())
				// a term whose search answers two records or more: the
				// embedded mock's "the"; an instance's own titles decide
				var path, term string
				var records []map[string]json.RawMessage
				for _, term = range searchTerms {
					path, records = "/api/v1/Search/"+media+"/"+term, nil
					if s.mockRaw(http.MethodGet, path, &records); len(records) > 1 {
						break
					}
				}
				s.liveNeedsData(len(records) > 1, media+" search answering two records or more for any of "+strings.Join(searchTerms, ", "))
				s.expect(len(records) > 1, nil, "the mock answers GET %s with %d records; the check needs two", path, len(records))
				// the first record keeps its ids, so the page is not empty;
				// every other one carries a hostile id in each id member
				for i := 1; i < len(records); i++ {
					bad := json.RawMessage(hostileIDs[(i-1)%len(hostileIDs)])
					for _, k := range []string{"id", "theMovieDbId", "theTvDbId", "seriesId", "requestId"} {
						if _, ok := records[i][k]; ok {
							records[i][k] = bad
						}
					}
					records[i]["imdbId"] = json.RawMessage(`"tt-1"`)
				}
				body, _ := json.Marshal(records)
				s.injectFault(mockombi.Fault{Method: http.MethodGet, Path: path, Status: http.StatusOK, Body: string(body)})
				o := s.call(ctx, srv, "read_search", map[string]any{"action": "text", "media": media, "query": term, "page": map[string]any{"offset": 0, "limit": 50}})
				s.wantOK(o)
				data, err := decodeNumbered(o.Envelope.Data)
				s.expect(err == nil, o, "decode data: %v", err)
				var e errs
				ids := 0
				walkIDs(data, "", func(where, ns, value string) {
					ids++
					if re, ok := idNamespacePatterns[ns]; ok && !re.MatchString(value) {
						e.addf("%s: identifier %s %q is not a valid %s id", where, ns, value, ns)
					}
				}, func(where string, n json.Number) {
					ids++
					if !positiveIDPattern.MatchString(n.String()) {
						e.addf("%s: %s is no positive integer", where, n)
					}
				})
				s.expect(ids > 0, o, "the answer emitted no identifier at all; nothing was judged")
				s.expectNone(e, fmt.Sprintf("ids the server emits from upstream's %s search answer (ids %s injected)", media, strings.Join(hostileIDs, " ")))
			}, ginkgo.Label(LabelReadOnly))
		}
	})
}

// walkIDs calls ident for every identifier object ({namespace, value}) and
// num for every numeric *_id member in v (decoded with UseNumber), naming
// where it is as a JSON pointer.
func walkIDs(v any, where string, ident func(where, ns, value string), num func(where string, n json.Number)) {
	switch t := v.(type) {
	case map[string]any:
		ns, nsOK := t["namespace"].(string)
		val, valOK := t["value"].(string)
		if nsOK && valOK {
			ident(where, ns, val)
		}
		for k, c := range t {
			w := where + "/" + k
			if strings.HasSuffix(k, "_id") {
				if n, ok := c.(json.Number); ok {
					num(w, n)
				}
			}
			walkIDs(c, w, ident, num)
		}
	case []any:
		for i, c := range t {
			walkIDs(c, fmt.Sprintf("%s/%d", where, i), ident, num)
		}
	}
}

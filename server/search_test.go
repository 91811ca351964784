package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/h2non/gock"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// wire is one expected upstream call: method, exact escaped path, raw query
// and JSON body ("" = no body), and the canned reply.
type wire struct {
	method, path, query, body string
	status                    int
	reply                     string
}

// branchCase drives one tool branch through the real handler chain (strict
// validation, handler, mapper, envelope, budget) against gock, asserting
// the exact upstream calls and that no other call is made.
type branchCase struct {
	name  string
	tool  string
	args  string
	wires []wire
	check func(t *testing.T, env map[string]any)
}

var testValidator = func() func(t *testing.T) *spec.Validator {
	var v *spec.Validator
	return func(t *testing.T) *spec.Validator {
		t.Helper()
		if v == nil {
			var err error
			if v, err = spec.NewValidator(); err != nil {
				t.Fatal(err)
			}
		}
		return v
	}
}()

func (bc branchCase) run(t *testing.T) {
	t.Helper()
	c := newTestClient(t, Options{AuthMode: AuthAPIKey, APIKey: "k"})
	for _, w := range bc.wires {
		w := w
		status := w.status
		if status == 0 {
			status = http.StatusOK
		}
		expect(w.method, w.path).AddMatcher(func(req *http.Request, _ *gock.Request) (bool, error) {
			if req.URL.RawQuery != w.query {
				return false, nil
			}
			var got []byte
			if req.Body != nil {
				got, _ = io.ReadAll(req.Body)
				req.Body = io.NopCloser(bytes.NewReader(got))
			}
			if w.body == "" {
				return len(got) == 0, nil
			}
			return jsonSame(got, []byte(w.body)), nil
		}).Reply(status).SetHeader("Content-Type", "application/json").BodyString(w.reply)
	}
	d := &deps{client: c, validator: testValidator(t), log: Options{}.logger()}
	st, _ := spec.Lookup(bc.tool)
	var h handlerFunc
	for _, tl := range tools(d) {
		if tl.name == bc.tool {
			h = tl.handle
		}
	}
	res, err := d.serve(st, h)(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: bc.tool, Arguments: json.RawMessage(bc.args)}})
	if err != nil {
		t.Fatalf("serve: %v", err)
	}
	raw := res.StructuredContent.(json.RawMessage)
	if err := d.validator.ValidateOutput(bc.tool, raw); err != nil {
		t.Fatalf("envelope violates outputSchema: %v\n%s", err, raw)
	}
	var env map[string]any
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	if bc.check != nil {
		bc.check(t, env)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// sameAs compares got (any JSON-marshalable value) with want JSON, ignoring
// key order.
func sameAs(t *testing.T, got any, want string) {
	t.Helper()
	b, _ := json.Marshal(got)
	if !jsonSame(b, []byte(want)) {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}

func jsonSame(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return jsonEqual(x, y)
}

// okItems asserts ok:true and returns data.items.
func okItems(t *testing.T, env map[string]any) []any {
	t.Helper()
	if env["ok"] != true {
		t.Fatalf("envelope not ok: %v", env)
	}
	return env["data"].(map[string]any)["items"].([]any)
}

func page(env map[string]any) map[string]any {
	return env["data"].(map[string]any)["page"].(map[string]any)
}

func wantIDs(t *testing.T, item any, want string) {
	t.Helper()
	sameAs(t, item.(map[string]any)["identifiers"], want)
}

func TestReadSearch_branches(t *testing.T) {
	movies := `[{"id":603,"theMovieDbId":"603","title":"The Matrix","releaseDate":"1999-03-30T00:00:00Z","plexUrl":"http://x/?X-Plex-Token=CANARY"},{"id":604,"theMovieDbId":"604","title":"The Matrix Reloaded"},{"id":605,"theMovieDbId":"605","title":"Revolutions"}]`
	tests := []branchCase{
		{name: "text movie, local window, no page forwarded", tool: "read_search",
			args:  `{"action":"text","media":"movie","query":"the matrix","page":{"offset":1,"limit":1}}`,
			wires: []wire{{method: "GET", path: "/api/v1/Search/movie/the%20matrix", reply: movies}},
			check: func(t *testing.T, env map[string]any) {
				items := okItems(t, env)
				if len(items) != 1 || items[0].(map[string]any)["title"] != "The Matrix Reloaded" {
					t.Fatalf("items = %v", items)
				}
				pg := page(env)
				if pg["mode"] != "local" || pg["total"] != nil || pg["has_more"] != true || pg["next_offset"] != 2.0 {
					t.Fatalf("page = %v", pg)
				}
				if b, _ := json.Marshal(env); strings.Contains(string(b), "CANARY") {
					t.Fatal("undocumented field leaked")
				}
			}},
		{name: "text tv is TVMaze-backed", tool: "read_search",
			args:  `{"action":"text","media":"tv","query":"breaking bad"}`,
			wires: []wire{{method: "GET", path: "/api/v1/Search/tv/breaking%20bad", reply: `[{"id":81189,"theMovieDbId":"81189","seriesId":169,"title":"Breaking Bad"}]`}},
			check: func(t *testing.T, env map[string]any) {
				wantIDs(t, okItems(t, env)[0], `[{"namespace":"tvdb","value":"81189"},{"namespace":"tvmaze","value":"169"}]`)
			}},
		{name: "text artist", tool: "read_search",
			args:  `{"action":"text","media":"artist","query":"linkin"}`,
			wires: []wire{{method: "GET", path: "/api/v1/Search/music/artist/linkin", reply: `[{"artistName":"Linkin Park","forignArtistId":"f59c5520"}]`}},
			check: func(t *testing.T, env map[string]any) {
				wantIDs(t, okItems(t, env)[0], `[{"namespace":"musicbrainz","value":"f59c5520"}]`)
			}},
		{name: "text album", tool: "read_search",
			args:  `{"action":"text","media":"album","query":"meteora"}`,
			wires: []wire{{method: "GET", path: "/api/v1/Search/music/album/meteora", reply: `[{"title":"Meteora","foreignAlbumId":"abc"}]`}},
			check: func(t *testing.T, env map[string]any) {
				wantIDs(t, okItems(t, env)[0], `[{"namespace":"musicbrainz","value":"abc"}]`)
			}},
		{name: "multi sends all four flags", tool: "read_search",
			args:  `{"action":"multi","query":"Example title","include":["movies","tv_shows"]}`,
			wires: []wire{{method: "POST", path: "/api/v2/Search/multi/Example%20title", body: `{"movies":true,"tvShows":true,"music":false,"people":false}`, reply: `[{"id":"1396","mediaType":"tv","title":"Breaking Bad (2008)"}]`}},
			check: func(t *testing.T, env map[string]any) {
				wantIDs(t, okItems(t, env)[0], `[{"namespace":"tmdb","value":"1396"}]`)
			}},
		{name: "movie_refine body", tool: "read_search",
			args:  `{"action":"movie_refine","query":"alien","year":1979,"language":"en"}`,
			wires: []wire{{method: "POST", path: "/api/v1/Search/movie", body: `{"searchTerm":"alien","year":1979,"languageCode":"en"}`, reply: `[]`}},
			check: func(t *testing.T, env map[string]any) {
				if len(okItems(t, env)) != 0 {
					t.Fatal("want empty")
				}
			}},
		{name: "movie_refine omits absent fields", tool: "read_search",
			args:  `{"action":"movie_refine","query":"alien"}`,
			wires: []wire{{method: "POST", path: "/api/v1/Search/movie", body: `{"searchTerm":"alien"}`, reply: `[]`}}},
		{name: "actor body", tool: "read_search",
			args:  `{"action":"actor","query":"keanu","language":"pt-BR"}`,
			wires: []wire{{method: "POST", path: "/api/v1/Search/movie/actor", body: `{"searchTerm":"keanu","languageCode":"pt-BR"}`, reply: movies}},
			check: func(t *testing.T, env map[string]any) {
				if len(okItems(t, env)) != 3 {
					t.Fatal("want 3")
				}
			}},
		{name: "dot-dot query is an argument error, nothing sent", tool: "read_search",
			args: `{"action":"text","media":"movie","query":".."}`,
			check: func(t *testing.T, env map[string]any) {
				e := env["error"].(map[string]any)
				if e["code"] != codeInvalidArgument || e["field"] != "/query" {
					t.Fatalf("env = %v", env)
				}
			}},
		{name: "upstream 500 is retryable UPSTREAM_REJECTED without the body", tool: "read_search",
			args:  `{"action":"text","media":"movie","query":"x"}`,
			wires: []wire{{method: "GET", path: "/api/v1/Search/movie/x", status: 500, reply: `{"error":"Server=db;Password=CANARY"}`}},
			check: func(t *testing.T, env map[string]any) {
				e := env["error"].(map[string]any)
				if env["ok"] != false || e["code"] != codeUpstreamRejected || e["retryable"] != true || e["http_status"] != 500.0 {
					t.Fatalf("env = %v", env)
				}
				if b, _ := json.Marshal(env); strings.Contains(string(b), "CANARY") {
					t.Fatal("error body leaked")
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

func TestReadDiscover_branches(t *testing.T) {
	tests := []branchCase{
		{name: "browse movie maps list and pages upstream", tool: "read_discover",
			args:  `{"action":"browse","media":"movie","list":"now_playing","page":{"offset":40,"limit":2}}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/movie/nowplaying/40/2", reply: `[{"id":550,"title":"A"},{"id":551,"title":"B"},{"id":552,"title":"C"}]`}},
			check: func(t *testing.T, env map[string]any) {
				items := okItems(t, env)
				wantIDs(t, items[0], `[{"namespace":"tmdb","value":"550"}]`)
				pg := page(env)
				if len(items) != 2 || pg["mode"] != "upstream" || pg["next_offset"] != 42.0 || pg["total"] != nil {
					t.Fatalf("items=%d page=%v", len(items), pg)
				}
			}},
		{name: "browse tv most_watched drops seasons, TMDB keyed", tool: "read_discover",
			args:  `{"action":"browse","media":"tv","list":"most_watched"}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/tv/mostwatched/0/25", reply: `[{"id":1396,"theMovieDbId":"1396","seriesId":1396,"seasonRequests":[{"seasonNumber":1,"episodes":[{"episodeNumber":1}]}]}]`}},
			check: func(t *testing.T, env map[string]any) {
				item := okItems(t, env)[0]
				wantIDs(t, item, `[{"namespace":"tmdb","value":"1396"}]`)
				if _, ok := item.(map[string]any)["seasons"]; ok {
					t.Fatal("browse kept seasons")
				}
				if pg := page(env); pg["next_offset"] != nil || pg["has_more"] != nil {
					t.Fatalf("short upstream window claims continuation: %v", pg)
				}
			}},
		{name: "browse requested is marked truncated", tool: "read_discover",
			args:  `{"action":"browse","media":"tv","list":"requested","page":{"limit":1}}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/tv/requested/0/1", reply: `[{"id":1}]`}},
			check: func(t *testing.T, env map[string]any) {
				if env["truncated"] != true || page(env)["next_offset"] != nil {
					t.Fatalf("env = %v", env)
				}
			}},
		{name: "similar body", tool: "read_discover",
			args:  `{"action":"similar","tmdb_id":603,"language":"de"}`,
			wires: []wire{{method: "POST", path: "/api/v2/Search/movie/similar", body: `{"theMovieDbId":603,"languageCode":"de"}`, reply: `[{"id":604}]`}}},
		{name: "collection members complete", tool: "read_discover",
			args:  `{"action":"collection","collection_id":2344}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/movie/collection/2344", reply: `{"name":"The Matrix Collection","collection":[{"id":603,"title":"The Matrix"},{"id":604,"title":"Reloaded"}]}`}},
			check: func(t *testing.T, env map[string]any) {
				items := okItems(t, env)
				wantIDs(t, items[1], `[{"namespace":"tmdb","value":"604"}]`)
				if page(env)["total"] != 2.0 {
					t.Fatalf("page = %v", page(env))
				}
			}},
		{name: "credits movie carry the caller's person name", tool: "read_discover",
			args:  `{"action":"credits","person_id":6384,"person_name":"Keanu Reeves","media":"movie"}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/actor/6384/movie", reply: `{"id":6384,"cast":[{"id":603,"title":"The Matrix","character":"Neo","release_date":"1999-03-30"}],"crew":[{"id":603,"title":"The Matrix","job":"Stunts","department":"Crew"}]}`}},
			check: func(t *testing.T, env map[string]any) {
				items := okItems(t, env)
				cr := items[0].(map[string]any)["credits"].([]any)
				if len(items) != 1 || len(cr) != 2 || cr[0].(map[string]any)["name"] != "Keanu Reeves" || cr[0].(map[string]any)["person_id"] != 6384.0 {
					t.Fatalf("items = %v", items)
				}
			}},
		{name: "credits tv enrich missing titles only", tool: "read_discover",
			args: `{"action":"credits","person_id":17419,"person_name":"Bryan Cranston","media":"tv"}`,
			wires: []wire{
				{method: "GET", path: "/api/v2/Search/actor/17419/tv", reply: `{"cast":[{"id":1396,"character":"Walter White"},{"id":2316,"name":"The Office","character":"x"}]}`},
				{method: "GET", path: "/api/v2/Search/tv/moviedb/1396", reply: `{"id":1396,"title":"Breaking Bad","firstAired":"2008-01-20"}`},
			},
			check: func(t *testing.T, env map[string]any) {
				items := okItems(t, env)
				if items[0].(map[string]any)["title"] != "Breaking Bad" || items[1].(map[string]any)["title"] != "The Office" {
					t.Fatalf("items = %v", items)
				}
			}},
		{name: "artist albums", tool: "read_discover",
			args:  `{"action":"artist_albums","artist_id":"f59c5520-5f46"}`,
			wires: []wire{{method: "GET", path: "/api/v1/Search/music/artist/album/f59c5520-5f46", reply: `[{"title":"Meteora","foreignAlbumId":"abc"}]`}}},
		{name: "advanced movie exact DiscoverModel names", tool: "read_discover",
			args:  `{"action":"advanced_movie","release_year":1999,"decade":1990,"genre_ids":[28],"keyword_ids":[4565],"watch_provider_ids":[8],"page":{"offset":25,"limit":25}}`,
			wires: []wire{{method: "POST", path: "/api/v2/Search/advancedSearch/movie/25/25", body: `{"type":"movie","releaseYear":1999,"decade":1990,"genreIds":[28],"keywordIds":[4565],"watchProviders":[8]}`, reply: `[]`}}},
		{name: "advanced movie no filters", tool: "read_discover",
			args:  `{"action":"advanced_movie"}`,
			wires: []wire{{method: "POST", path: "/api/v2/Search/advancedSearch/movie/0/25", body: `{"type":"movie"}`, reply: `[]`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

package server

import (
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

type reqItemOut struct {
	Target          target       `json:"target"`
	ParentRequestID int          `json:"parent_request_id"`
	Title           string       `json:"title"`
	Identifiers     []identifier `json:"identifiers"`
	Approved        *bool        `json:"approved"`
	Available       *bool        `json:"available"`
	Denied          *bool        `json:"denied"`
	Is4K            *bool        `json:"is_4k"`
	Approved4K      *bool        `json:"approved_4k"`
	Available4K     *bool        `json:"available_4k"`
	StatusText      string       `json:"status_text"`
	Subscribed      *bool        `json:"subscribed"`
}

type reqPageOut struct {
	Kind  string       `json:"kind"`
	Items []reqItemOut `json:"items"`
	Page  paging       `json:"page"`
}

func reqDecodePage(t *testing.T, r result) reqPageOut {
	t.Helper()
	if !r.OK {
		t.Fatalf("envelope = %s, want ok", r.raw)
	}
	var p reqPageOut
	if err := json.Unmarshal(r.Data, &p); err != nil || p.Kind != "request_page" {
		t.Fatalf("data = %s, want a request_page", r.Data)
	}
	return p
}

func TestReadRequests_listRoutesAndPaging(t *testing.T) {
	movie := map[string]any{"id": 3, "title": "Heat", "theMovieDbId": 949, "imdbId": "tt0113277", "approved": true, "available": false,
		"is4kRequest": true, "approved4K": false, "available4K": true, "requestStatus": "Common.ProcessingRequest", "undocumented": map[string]any{"x": 1}}
	child := map[string]any{"id": 40, "parentRequestId": 4, "title": "", "approved": false,
		"parentRequest":  map[string]any{"id": 4, "title": "Show", "tvDbId": 77, "externalProviderId": 123},
		"seasonRequests": []any{map[string]any{"seasonNumber": 1, "episodes": []any{map[string]any{"episodeNumber": 1}}}}}
	tests := []struct {
		name, args, path string
		body             map[string]any
		wantWarn         string
		check            func(t *testing.T, p reqPageOut)
	}{
		{"no media lists movies with the D3 warning, base route, desc", `{"action":"list"}`,
			"/api/v2/Requests/movie/25/0/RequestedDate/desc", map[string]any{"collection": []any{movie}, "total": 1}, mediaDefaultWarning,
			func(t *testing.T, p reqPageOut) {
				it := p.Items[0]
				if it.Target != (target{Kind: "movie", ID: 3}) || *it.Is4K != true || *it.Approved4K || !*it.Available4K || !*it.Approved || *it.Available {
					t.Fatalf("movie item = %+v", it)
				}
				if p.Page.Total == nil || *p.Page.Total != 1 || *p.Page.HasMore || p.Page.NextOffset != nil || p.Page.Mode != "upstream" {
					t.Fatalf("page = %+v", p.Page)
				}
			}},
		{"tv status segment, count then position, asc; items are children", `{"action":"list","media":"tv","status":"pending","sort_direction":"asc","sort":{"field":"request_date"},"page":{"offset":10,"limit":5}}`,
			"/api/v2/Requests/tv/pending/5/10/RequestedDate/asc", map[string]any{"collection": []any{child}, "total": 30}, "",
			func(t *testing.T, p reqPageOut) {
				it := p.Items[0]
				if it.Target != (target{Kind: "tv_child", ID: 40}) || it.ParentRequestID != 4 || it.Title != "Show" {
					t.Fatalf("child item = %+v", it)
				}
				if !slices.Contains(it.Identifiers, identifier{Namespace: "tvdb", Value: "77"}) || !slices.Contains(it.Identifiers, identifier{Namespace: "tmdb", Value: "123"}) {
					t.Fatalf("identifiers = %+v", it.Identifiers)
				}
				if *p.Page.Total != 30 || !*p.Page.HasMore || *p.Page.NextOffset != 11 {
					t.Fatalf("page = %+v", p.Page)
				}
			}},
		{"album all is the base route", `{"action":"list","media":"album","status":"all"}`,
			"/api/v2/Requests/album/25/0/RequestedDate/desc", map[string]any{"collection": []any{}, "total": 0}, "",
			func(t *testing.T, p reqPageOut) {
				if len(p.Items) != 0 || *p.Page.Total != 0 || *p.Page.HasMore {
					t.Fatalf("page = %+v", p)
				}
			}},
		{"no total from upstream leaves it unknown", `{"action":"list","media":"movie","page":{"limit":1}}`,
			"/api/v2/Requests/movie/1/0/RequestedDate/desc", map[string]any{"collection": []any{movie}}, "",
			func(t *testing.T, p reqPageOut) {
				if p.Page.Total != nil || p.Page.HasMore != nil || p.Page.NextOffset == nil || *p.Page.NextOffset != 1 {
					t.Fatalf("page = %+v", p.Page)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := reqDeps(t)
			expect("GET", tt.path).Reply(200).JSON(tt.body)
			r := reqDirect(t, d, "read_requests", tt.args)
			p := reqDecodePage(t, r)
			if tt.wantWarn != "" && !slices.Contains(r.Warnings, tt.wantWarn) {
				t.Fatalf("warnings = %q, want %q", r.Warnings, tt.wantWarn)
			}
			if strings.Contains(string(r.raw), "undocumented") {
				t.Fatalf("undocumented field passed through: %s", r.raw)
			}
			tt.check(t, p)
		})
	}
}

func TestReadRequests_listRejectsAlbumUnavailableBeforeTraffic(t *testing.T) {
	d := reqDeps(t)
	r := reqDirect(t, d, "read_requests", `{"action":"list","media":"album","status":"unavailable"}`)
	if r.OK || r.Error.Code != codeInvalidArgument {
		t.Fatalf("envelope = %s", r.raw)
	}
}

func TestReadRequests_v2ListFaultStaysUpstreamRejected(t *testing.T) {
	d := reqDeps(t)
	expect("GET", "/api/v2/Requests/tv/25/0/RequestedDate/desc").Reply(500).JSON(map[string]any{"error": "Object reference not set to an instance of an object."})
	r := reqDirect(t, d, "read_requests", `{"action":"list","media":"tv"}`)
	if r.OK || r.Error.Code != codeUpstreamRejected || !r.Error.Retryable {
		t.Fatalf("envelope = %s", r.raw)
	}
}

func TestReadRequests_getChildrenSearch(t *testing.T) {
	tests := []struct {
		name, args string
		declare    func()
		want       []target
		wantWarn   string
	}{
		{"get movie", `{"action":"get","media":"movie","request_id":3}`, func() {
			expect("GET", "/api/v1/Request/movie/info/3").Reply(200).JSON(map[string]any{"id": 3, "theMovieDbId": 949})
		}, []target{{Kind: "movie", ID: 3}}, ""},
		{"get tv is the parent", `{"action":"get","media":"tv","request_id":4}`, func() {
			expect("GET", "/api/v1/Request/tv/4").Reply(200).JSON(map[string]any{"id": 4, "tvDbId": 77, "childRequests": []any{map[string]any{"id": 40}}})
		}, []target{{Kind: "tv_parent", ID: 4}}, ""},
		{"children are children", `{"action":"children","parent_request_id":4}`, func() {
			expect("GET", "/api/v1/Request/tv/4/child").Reply(200).JSON([]any{map[string]any{"id": 40, "parentRequestId": 4}, map[string]any{"id": 41, "parentRequestId": 4}})
		}, []target{{Kind: "tv_child", ID: 40}, {Kind: "tv_child", ID: 41}}, ""},
		{"search movie escapes the term", `{"action":"search","media":"movie","query":"a/b c"}`, func() {
			expect("GET", "/api/v1/Request/movie/search/a%2Fb%20c").Reply(200).JSON([]any{map[string]any{"id": 3}})
		}, []target{{Kind: "movie", ID: 3}}, ""},
		{"search album uses request/music", `{"action":"search","media":"album","query":"x"}`, func() {
			expect("GET", "/api/v1/request/music/search/x").Reply(200).JSON([]any{map[string]any{"id": 9, "foreignAlbumId": "mb"}})
		}, []target{{Kind: "album", ID: 9}}, ""},
		{"search tv falls back to a bounded parent scan on a 500", `{"action":"search","media":"tv","query":"show"}`, func() {
			expect("GET", "/api/v1/Request/tv/search/show").Reply(500).JSON(map[string]any{"error": "could not be translated"})
			expect("GET", "/api/v1/Request/tv").Reply(200).JSON([]any{map[string]any{"id": 4, "title": "My Show"}, map[string]any{"id": 5, "title": "Other"}})
		}, []target{{Kind: "tv_parent", ID: 4}}, "upstream TV request search failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := reqDeps(t)
			tt.declare()
			r := reqDirect(t, d, "read_requests", tt.args)
			p := reqDecodePage(t, r)
			var got []target
			for _, it := range p.Items {
				got = append(got, it.Target)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("targets = %+v, want %+v", got, tt.want)
			}
			if tt.wantWarn != "" && !strings.Contains(strings.Join(r.Warnings, "\n"), tt.wantWarn) {
				t.Fatalf("warnings = %q", r.Warnings)
			}
		})
	}
}

func TestReadRequests_searchTVNoFallbackOn403(t *testing.T) {
	d := reqDeps(t)
	expect("GET", "/api/v1/Request/tv/search/show").Reply(403)
	r := reqDirect(t, d, "read_requests", `{"action":"search","media":"tv","query":"show"}`)
	if r.OK || r.Error.Code != codeForbidden {
		t.Fatalf("envelope = %s", r.raw)
	}
}

func TestReadRequests_recentResolvesTVParents(t *testing.T) {
	d := reqDeps(t)
	expect("GET", "/api/v2/Requests/recentlyRequested").Reply(200).JSON([]any{
		map[string]any{"requestId": 3, "type": 1, "title": "Heat", "mediaId": "949"},
		map[string]any{"requestId": 40, "type": 0, "title": "Show", "mediaId": "123"},   // child id match
		map[string]any{"requestId": 555, "type": 0, "title": "Other", "mediaId": "321"}, // provider fallback
		map[string]any{"requestId": 777, "type": 0, "title": "Lost", "mediaId": "999"},  // unresolvable
		map[string]any{"requestId": 9, "type": 2, "title": "Album", "mediaId": "mb-1"},
	})
	expect("GET", "/api/v1/Request/tv").Reply(200).JSON([]any{
		map[string]any{"id": 4, "externalProviderId": 123, "childRequests": []any{map[string]any{"id": 40}}},
		map[string]any{"id": 6, "externalProviderId": 321, "childRequests": []any{map[string]any{"id": 60}}},
	})
	r := reqDirect(t, d, "read_requests", `{"action":"recent"}`)
	p := reqDecodePage(t, r)
	var got []target
	for _, it := range p.Items {
		got = append(got, it.Target)
	}
	want := []target{{Kind: "movie", ID: 3}, {Kind: "tv_parent", ID: 4}, {Kind: "tv_parent", ID: 6}, {Kind: "album", ID: 9}}
	if !slices.Equal(got, want) {
		t.Fatalf("targets = %+v, want %+v", got, want)
	}
	if !r.Truncated || !strings.Contains(strings.Join(r.Warnings, "\n"), "777") {
		t.Fatalf("unresolvable row must be left out with a warning naming it and truncated: %s", r.raw)
	}
	if p.Page.Total != nil || p.Page.Mode != "local" {
		t.Fatalf("page = %+v", p.Page)
	}
	if !slices.Contains(p.Items[1].Identifiers, identifier{Namespace: "ombi_tv_child", Value: "40"}) {
		t.Fatalf("child id not kept as an identifier: %+v", p.Items[1].Identifiers)
	}
}

func TestReadRequests_retryQueue(t *testing.T) {
	d := reqDeps(t)
	expect("GET", "/api/v1/RequestRetry").Reply(200).JSON([]any{
		map[string]any{"failedId": 2, "requestId": 30, "type": 1, "title": "Heat", "error": "Radarr was unreachable", "retryCount": 3},
		map[string]any{"failedId": 3, "requestId": 31, "type": 0, "title": "Show", "error": "Password=hunter2 at Ombi.Core"},
	})
	r := reqDirect(t, d, "read_requests", `{"action":"retry_queue"}`)
	if !r.OK || strings.Contains(string(r.raw), "hunter2") {
		t.Fatalf("envelope = %s", r.raw)
	}
	var p struct {
		Kind  string        `json:"kind"`
		Items []retryRecord `json:"items"`
		Page  paging        `json:"page"`
	}
	if err := json.Unmarshal(r.Data, &p); err != nil || p.Kind != "retry_page" || len(p.Items) != 2 {
		t.Fatalf("data = %s", r.Data)
	}
	if p.Items[0].QueueID != 2 || p.Items[0].RequestID != 30 || p.Items[0].RequestType != "movie" || p.Items[0].Reason != "Radarr was unreachable" {
		t.Fatalf("item = %+v", p.Items[0])
	}
	if p.Items[1].RequestType != "tv" || p.Items[1].Reason != "" || p.Page.Unit != "queue_entries" || *p.Page.Total != 2 {
		t.Fatalf("items = %+v page %+v", p.Items, p.Page)
	}
}

func TestReadRequestStats(t *testing.T) {
	type m = map[string]any
	tests := []struct {
		name, args string
		declare    func()
		want       []metric
	}{
		{"counts", `{"action":"counts"}`, func() {
			expect("GET", "/api/v1/Request/count").Reply(200).JSON(m{"pending": 1, "approved": 2, "available": 3, "denied": 0})
		}, []metric{{"pending", 1.0, "instance", "requests"}, {"approved", 2.0, "instance", "requests"}, {"available", 3.0, "instance", "requests"}, {"denied", 0.0, "instance", "requests"}}},
		{"counts never invents a missing value", `{"action":"counts"}`, func() {
			expect("GET", "/api/v1/Request/count").Reply(200).JSON(m{"pending": 1})
		}, []metric{{"pending", 1.0, "instance", "requests"}}},
		{"total album", `{"action":"total","media":"album"}`, func() {
			expect("GET", "/api/v1/request/music/total").Reply(200).JSON(4)
		}, []metric{{"album_requests_total", 4.0, "instance", "requests"}}},
		{"quota without limit is never remaining 0", `{"action":"quota","media":"movie"}`, func() {
			expect("GET", "/api/v1/Request/movie/remaining").Reply(200).JSON(m{"hasLimit": false, "limit": 0, "remaining": 0, "nextRequest": "2026-01-01T00:00:00Z"})
		}, []metric{{"has_limit", false, "principal", ""}}},
		{"quota with a limit", `{"action":"quota","media":"tv"}`, func() {
			expect("GET", "/api/v1/Request/tv/remaining").Reply(200).JSON(m{"hasLimit": true, "limit": 5, "remaining": 2, "nextRequest": "2026-01-01T00:00:00Z"})
		}, []metric{{"has_limit", true, "principal", ""}, {"limit", 5.0, "principal", "requests"}, {"remaining", 2.0, "principal", "requests"}, {"next_request", "2026-01-01T00:00:00Z", "principal", ""}}},
		{"has_requests sends userId", `{"action":"has_requests","user_id":"a&b=c"}`, func() {
			expect("GET", "/api/v1/Request/userhasrequest").MatchParam("userId", "^a&b=c$").Reply(200).JSON(true)
		}, []metric{{"has_requests", true, "selected_user", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := reqDeps(t)
			tt.declare()
			r := reqDirect(t, d, "read_request_stats", tt.args)
			var got metrics
			if !r.OK || json.Unmarshal(r.Data, &got) != nil || got.Kind != "metrics" {
				t.Fatalf("envelope = %s", r.raw)
			}
			if !slices.EqualFunc(got.Values, tt.want, func(a, b metric) bool { return a == b }) {
				t.Fatalf("values = %+v, want %+v", got.Values, tt.want)
			}
		})
	}
}

// TestReadRequests_getAnsweredWithoutAnID checks that a 200 object without
// a positive request id is a schema mismatch, not an invented NOT_FOUND:
// Ombi answers an unknown id with 204.
func TestReadRequests_getAnsweredWithoutAnID(t *testing.T) {
	d := reqDeps(t)
	expect("GET", "/api/v1/Request/movie/info/3").Reply(200).JSON(map[string]any{"isError": true, "errorMessage": "boom", "result": false})
	r := reqDirect(t, d, "read_requests", `{"action":"get","media":"movie","request_id":3}`)
	if r.OK || r.Error.Code != codeUpstreamSchemaMismatch {
		t.Fatalf("envelope = %s", r.raw)
	}
}

// TestReadRequests_recentLostPartIsPartialFailure checks that a recent
// read whose TV parent scan fails is a PARTIAL_FAILURE carrying what is
// known (04-results: partial compound reads return ok=false, PARTIAL_FAILURE
// and the available data), retryable as the failed read is, never a
// complete-looking success.
func TestReadRequests_recentLostPartIsPartialFailure(t *testing.T) {
	d := reqDeps(t)
	expect("GET", "/api/v2/Requests/recentlyRequested").Reply(200).JSON([]any{
		map[string]any{"requestId": 3, "type": 1, "title": "Heat", "mediaId": "949"},
		map[string]any{"requestId": 40, "type": 0, "title": "Show", "mediaId": "123"},
	})
	expect("GET", "/api/v1/Request/tv").Reply(500).JSON(map[string]any{"error": "boom"})
	r := reqDirect(t, d, "read_requests", `{"action":"recent"}`)
	if r.OK || r.Error == nil || r.Error.Code != codePartialFailure || !r.Error.Retryable {
		t.Fatalf("want a retryable PARTIAL_FAILURE, got %s", r.raw)
	}
	var p struct {
		Items []struct {
			Target target `json:"target"`
		} `json:"items"`
	}
	if err := json.Unmarshal(r.Data, &p); err != nil || len(p.Items) != 1 || p.Items[0].Target != (target{Kind: "movie", ID: 3}) {
		t.Fatalf("the known part (the movie request) must come with the failure: %s (%v)", r.Data, err)
	}
}

// TestReadRequests_recentBoundedFeedTotalUnknown checks that the recent
// page never claims a total: RecentlyRequested is Ombi's bounded feed (up
// to seven rows per media), not the complete collection of requests, so
// total and has_more stay unknown even when every row resolved (04-results:
// for bounded scans use null total and null has_more).
func TestReadRequests_recentBoundedFeedTotalUnknown(t *testing.T) {
	d := reqDeps(t)
	expect("GET", "/api/v2/Requests/recentlyRequested").Reply(200).JSON([]any{
		map[string]any{"requestId": 3, "type": 1, "title": "Heat", "mediaId": "949"},
		map[string]any{"requestId": 9, "type": 2, "title": "Album", "mediaId": "mb-1"},
	})
	r := reqDirect(t, d, "read_requests", `{"action":"recent"}`)
	p := reqDecodePage(t, r)
	if len(p.Items) != 2 {
		t.Fatalf("items = %+v, want both rows", p.Items)
	}
	if p.Page.Total != nil || p.Page.HasMore != nil || p.Page.NextOffset != nil || p.Page.Mode != "local" {
		t.Fatalf("page = total %v, has_more %v, next_offset %v, mode %s; want a local page with total, has_more and next_offset unknown",
			p.Page.Total, p.Page.HasMore, p.Page.NextOffset, p.Page.Mode)
	}
}

// TestReadRequestStats_hasRequestsAnotherUser checks that upstream's open
// userhasrequest route is not an authorization: a caller without PowerUser
// or Admin is read first and refused for another user's id, before the
// route is called, and may still ask about itself.
func TestReadRequestStats_hasRequestsAnotherUser(t *testing.T) {
	v, err := spec.NewValidator()
	if err != nil {
		t.Fatalf("NewValidator: %v", err)
	}
	plainCaller := map[string]any{"id": "u-plain", "userName": "plain", "claims": []map[string]any{{"value": "RequestMovie", "enabled": true}}}
	t.Run("another user is refused", func(t *testing.T) {
		d := &deps{client: newTestClient(t, Options{}), validator: v, log: slog.New(slog.DiscardHandler)}
		expectLogin("tok")
		expect("GET", "/api/v1/Identity").Reply(200).JSON(plainCaller)
		r := reqDirect(t, d, "read_request_stats", `{"action":"has_requests","user_id":"u-other"}`)
		if r.OK || r.Error.Code != codeForbidden {
			t.Fatalf("envelope = %s", r.raw)
		}
	})
	t.Run("the caller itself is answered", func(t *testing.T) {
		d := &deps{client: newTestClient(t, Options{}), validator: v, log: slog.New(slog.DiscardHandler)}
		expectLogin("tok")
		expect("GET", "/api/v1/Identity").Reply(200).JSON(plainCaller)
		expect("GET", "/api/v1/Request/userhasrequest").MatchParam("userId", "^u-plain$").Reply(200).JSON(false)
		r := reqDirect(t, d, "read_request_stats", `{"action":"has_requests","user_id":"u-plain"}`)
		if !r.OK {
			t.Fatalf("envelope = %s", r.raw)
		}
	})
	t.Run("a power user may view another user", func(t *testing.T) {
		d := &deps{client: newTestClient(t, Options{}), validator: v, log: slog.New(slog.DiscardHandler)}
		expectLogin("tok")
		expect("GET", "/api/v1/Identity").Reply(200).JSON(map[string]any{"id": "u-power", "claims": []map[string]any{{"value": "PowerUser", "enabled": true}}})
		expect("GET", "/api/v1/Request/userhasrequest").MatchParam("userId", "^u-other$").Reply(200).JSON(true)
		r := reqDirect(t, d, "read_request_stats", `{"action":"has_requests","user_id":"u-other"}`)
		if !r.OK {
			t.Fatalf("envelope = %s", r.raw)
		}
	})
}

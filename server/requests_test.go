package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/h2non/gock"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

// reqDeps builds handler dependencies around a gock-intercepted
// client in api_key mode (no login traffic to declare).
func reqDeps(t *testing.T) *deps {
	t.Helper()
	v, err := spec.NewValidator()
	if err != nil {
		t.Fatalf("NewValidator: %v", err)
	}
	c := newTestClient(t, Options{AuthMode: AuthAPIKey, APIKey: "test-api-key"})
	return &deps{client: c, validator: v, log: slog.New(slog.DiscardHandler)}
}

// reqDirect runs one tools/call through the registry's serve path (strict
// validation, handler, error mapping, envelope, budget) and checks the
// envelope against the tool's outputSchema.
func reqDirect(t *testing.T, d *deps, tool string, args string) result {
	t.Helper()
	st, ok := spec.Lookup(tool)
	if !ok {
		t.Fatalf("no tool %s", tool)
	}
	var h handlerFunc
	for _, tl := range tools(d) {
		if tl.name == tool {
			h = tl.handle
		}
	}
	res, err := d.serve(st, h)(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: tool, Arguments: json.RawMessage(args)}})
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	raw, ok := res.StructuredContent.(json.RawMessage)
	if !ok {
		t.Fatalf("structuredContent is %T", res.StructuredContent)
	}
	if err := d.validator.ValidateOutput(tool, []byte(raw)); err != nil {
		t.Fatalf("%s %s: envelope violates outputSchema: %v\n%s", tool, args, err, raw)
	}
	var r result
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("decode envelope: %v", err)
	}
	r.raw = raw
	if res.IsError == r.OK {
		t.Fatalf("isError=%v but ok=%v", res.IsError, r.OK)
	}
	return r
}

// reqJSONBody makes a gock request match only an exactly equal JSON body
// (same keys, same values; key order free).
func reqJSONBody(r *gock.Request, want string) *gock.Request {
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		panic("bad want body: " + want)
	}
	return r.AddMatcher(func(req *http.Request, _ *gock.Request) (bool, error) {
		if req.Body == nil {
			return false, nil
		}
		b, err := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(b))
		if err != nil {
			return false, err
		}
		var g any
		if json.Unmarshal(b, &g) != nil {
			return false, nil
		}
		return reflect.DeepEqual(g, w), nil
	})
}

// reqNoBody makes a gock request match only a request with no body.
func reqNoBody(r *gock.Request) *gock.Request {
	return r.AddMatcher(func(req *http.Request, _ *gock.Request) (bool, error) {
		if req.Body == nil || req.Body == http.NoBody {
			return true, nil
		}
		b, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(b))
		return len(b) == 0, nil
	})
}

func reqEngineOK(id int) map[string]any {
	return map[string]any{"result": true, "message": "Added", "isError": false, "errorMessage": nil, "errorCode": nil, "requestId": id}
}

type reqMutationOut struct {
	Kind      string  `json:"kind"`
	Outcome   string  `json:"outcome"`
	Target    *target `json:"target"`
	RequestID int     `json:"request_id"`
	QueueID   int     `json:"queue_id"`
	Message   string  `json:"message"`
	Affected  *int    `json:"affected_count"`
	Items     []any   `json:"item_results"`
}

func reqMutation(t reqFatal, r result) reqMutationOut {
	t.Helper()
	if !r.OK {
		t.Fatalf("envelope = %s, want ok", r.raw)
	}
	var m reqMutationOut
	if err := json.Unmarshal(r.Data, &m); err != nil || m.Kind != "mutation" {
		t.Fatalf("data = %s, want a mutation", r.Data)
	}
	return m
}

func TestWrites_exactWireShape(t *testing.T) {
	tests := []struct {
		name       string
		tool, args string
		declare    func()
		wantTarget *target
		wantOut    string
	}{
		{"create movie defaults send is4kRequest false", "write_request_create", `{"action":"movie","tmdb_id":603}`, func() {
			reqJSONBody(expect("POST", "/api/v1/Request/movie"), `{"theMovieDbId":603,"is4kRequest":false}`).Reply(200).JSON(reqEngineOK(12))
		}, &target{Kind: "movie", ID: 12}, "completed"},
		{"create movie with every option", "write_request_create", `{"action":"movie","tmdb_id":603,"is_4k":true,"language":"pt-BR","on_behalf_user_id":"u-1","root_folder_id":2,"quality_profile_id":3}`, func() {
			reqJSONBody(expect("POST", "/api/v1/Request/movie"),
				`{"theMovieDbId":603,"is4kRequest":true,"languageCode":"pt-BR","requestOnBehalf":"u-1","rootFolderOverride":2,"qualityPathOverride":3}`).Reply(200).JSON(reqEngineOK(13))
		}, &target{Kind: "movie", ID: 13}, "completed"},
		{"create tv tmdb all", "write_request_create", `{"action":"tv","provider":"tmdb","id":123,"selection":{"mode":"all"},"language":"en"}`, func() {
			reqJSONBody(expect("POST", "/api/v2/Requests/tv"),
				`{"theMovieDbId":123,"languageCode":"en","requestAll":true,"firstSeason":false,"latestSeason":false,"seasons":[]}`).Reply(200).JSON(reqEngineOK(40))
		}, &target{Kind: "tv_child", ID: 40}, "completed"},
		{"create tv tmdb first season", "write_request_create", `{"action":"tv","provider":"tmdb","id":123,"selection":{"mode":"first_season"}}`, func() {
			reqJSONBody(expect("POST", "/api/v2/Requests/tv"),
				`{"theMovieDbId":123,"requestAll":false,"firstSeason":true,"latestSeason":false,"seasons":[]}`).Reply(200).JSON(reqEngineOK(41))
		}, &target{Kind: "tv_child", ID: 41}, "completed"},
		{"create tv tvdb latest season", "write_request_create", `{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"latest_season"}}`, func() {
			reqJSONBody(expect("POST", "/api/v1/Request/tv"),
				`{"tvDbId":77,"requestAll":false,"firstSeason":false,"latestSeason":true,"seasons":[]}`).Reply(200).JSON(reqEngineOK(42))
		}, &target{Kind: "tv_child", ID: 42}, "completed"},
		{"create tv tvdb episodes", "write_request_create", `{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"episodes","seasons":[{"season_number":1,"episodes":[1,2]},{"season_number":3,"episodes":[5]}]}}`, func() {
			reqJSONBody(expect("POST", "/api/v1/Request/tv"),
				`{"tvDbId":77,"requestAll":false,"firstSeason":false,"latestSeason":false,"seasons":[{"seasonNumber":1,"episodes":[{"episodeNumber":1},{"episodeNumber":2}]},{"seasonNumber":3,"episodes":[{"episodeNumber":5}]}]}`).Reply(200).JSON(reqEngineOK(43))
		}, &target{Kind: "tv_child", ID: 43}, "completed"},
		{"create tv tmdb season expands through v2 details", "write_request_create", `{"action":"tv","provider":"tmdb","id":123,"selection":{"mode":"season","season_numbers":[2,1]}}`, func() {
			expect("GET", "/api/v2/Search/tv/moviedb/123").Reply(200).JSON(map[string]any{"id": 123, "seasonRequests": []any{
				map[string]any{"seasonNumber": 1, "episodes": []any{map[string]any{"episodeNumber": 1}, map[string]any{"episodeNumber": 2}, map[string]any{"episodeNumber": 3}}},
				map[string]any{"seasonNumber": 2, "episodes": []any{map[string]any{"episodeNumber": 1}, map[string]any{"episodeNumber": 2}}},
			}})
			reqJSONBody(expect("POST", "/api/v2/Requests/tv"),
				`{"theMovieDbId":123,"requestAll":false,"firstSeason":false,"latestSeason":false,"seasons":[{"seasonNumber":2,"episodes":[{"episodeNumber":1},{"episodeNumber":2}]},{"seasonNumber":1,"episodes":[{"episodeNumber":1},{"episodeNumber":2},{"episodeNumber":3}]}]}`).Reply(200).JSON(reqEngineOK(44))
		}, &target{Kind: "tv_child", ID: 44}, "completed"},
		{"create tv tvdb season expands through v1 info", "write_request_create", `{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"season","season_numbers":[1]}}`, func() {
			expect("GET", "/api/v1/Search/tv/info/77").Reply(200).JSON(map[string]any{"id": 77, "seasonRequests": []any{
				map[string]any{"seasonNumber": 1, "episodes": []any{map[string]any{"episodeNumber": 1}, map[string]any{"episodeNumber": 2}}},
			}})
			reqJSONBody(expect("POST", "/api/v1/Request/tv"),
				`{"tvDbId":77,"requestAll":false,"firstSeason":false,"latestSeason":false,"seasons":[{"seasonNumber":1,"episodes":[{"episodeNumber":1},{"episodeNumber":2}]}]}`).Reply(200).JSON(reqEngineOK(45))
		}, &target{Kind: "tv_child", ID: 45}, "completed"},
		{"create album", "write_request_create", `{"action":"album","musicbrainz_id":"example-release-group-id"}`, func() {
			reqJSONBody(expect("POST", "/api/v1/request/music"), `{"foreignAlbumId":"example-release-group-id"}`).Reply(200).JSON(reqEngineOK(7))
		}, &target{Kind: "album", ID: 7}, "completed"},
		{"create album with alias in api_key mode sends ApiAlias", "write_request_create", `{"action":"album","musicbrainz_id":"mb-1","requested_by_alias":"Kitchen"}`, func() {
			reqJSONBody(expect("POST", "/api/v1/request/music"), `{"foreignAlbumId":"mb-1","requestedByAlias":"Kitchen"}`).
				MatchHeader("ApiAlias", "^Kitchen$").Reply(200).JSON(reqEngineOK(8))
		}, &target{Kind: "album", ID: 8}, "completed"},
		{"create collection sends no body and reports accepted without ids", "write_request_create", `{"action":"collection","collection_id":10}`, func() {
			reqNoBody(expect("POST", "/api/v2/Requests/movie/collection/10")).Reply(200).JSON(reqEngineOK(0))
		}, nil, "accepted"},
		{"approve movie", "write_request_moderate", `{"action":"approve","media":"movie","request_id":5}`, func() {
			reqJSONBody(expect("POST", "/api/v1/Request/movie/approve"), `{"id":5,"is4K":false}`).Reply(200).JSON(reqEngineOK(0))
		}, &target{Kind: "movie", ID: 5}, "completed"},
		{"deny movie 4k is a PUT with is4K and reason", "write_request_moderate", `{"action":"deny","media":"movie","request_id":789,"is_4k":true,"reason":"Not currently accepting 4K requests."}`, func() {
			reqJSONBody(expect("PUT", "/api/v1/Request/movie/deny"), `{"id":789,"is4K":true,"reason":"Not currently accepting 4K requests."}`).Reply(200).JSON(reqEngineOK(0))
		}, &target{Kind: "movie", ID: 789}, "completed"},
		{"approve tv child", "write_request_moderate", `{"action":"approve","media":"tv","request_id":456}`, func() {
			reqJSONBody(expect("POST", "/api/v1/Request/tv/approve"), `{"id":456}`).Reply(200).JSON(reqEngineOK(0))
		}, &target{Kind: "tv_child", ID: 456}, "completed"},
		{"deny tv is a PUT", "write_request_moderate", `{"action":"deny","media":"tv","request_id":456,"reason":"No"}`, func() {
			reqJSONBody(expect("PUT", "/api/v1/Request/tv/deny"), `{"id":456,"reason":"No"}`).Reply(200).JSON(reqEngineOK(0))
		}, &target{Kind: "tv_child", ID: 456}, "completed"},
		{"deny album is a PUT", "write_request_moderate", `{"action":"deny","media":"album","request_id":9,"reason":"No"}`, func() {
			reqJSONBody(expect("PUT", "/api/v1/request/music/deny"), `{"id":9,"reason":"No"}`).Reply(200).JSON(reqEngineOK(0))
		}, &target{Kind: "album", ID: 9}, "completed"},
		{"album unavailable", "write_request_moderate", `{"action":"unavailable","media":"album","request_id":9}`, func() {
			reqJSONBody(expect("POST", "/api/v1/request/music/unavailable"), `{"id":9}`).Reply(200).JSON(reqEngineOK(0))
		}, &target{Kind: "album", ID: 9}, "completed"},
		{"tv available", "write_request_moderate", `{"action":"available","media":"tv","request_id":4}`, func() {
			reqJSONBody(expect("POST", "/api/v1/Request/tv/available"), `{"id":4}`).Reply(200).JSON(reqEngineOK(0))
		}, &target{Kind: "tv_child", ID: 4}, "completed"},
		{"delete movie", "write_request_delete", `{"kind":"movie","request_id":5}`, func() {
			reqNoBody(expect("DELETE", "/api/v1/Request/movie/5")).Reply(200).JSON(reqEngineOK(0))
		}, &target{Kind: "movie", ID: 5}, "completed"},
		{"delete album", "write_request_delete", `{"kind":"album","request_id":6}`, func() {
			expect("DELETE", "/api/v1/request/music/6").Reply(200).JSON(reqEngineOK(0))
		}, &target{Kind: "album", ID: 6}, "completed"},
		{"delete tv parent answers an empty 200", "write_request_delete", `{"kind":"tv_parent","request_id":7}`, func() {
			expect("DELETE", "/api/v1/Request/tv/7").Reply(200)
		}, &target{Kind: "tv_parent", ID: 7}, "completed"},
		{"delete tv child", "write_request_delete", `{"kind":"tv_child","request_id":8}`, func() {
			expect("DELETE", "/api/v1/Request/tv/child/8").Reply(200).JSON(reqEngineOK(0))
		}, &target{Kind: "tv_child", ID: 8}, "completed"},
		{"subscribe movie", "write_request_subscribe", `{"action":"subscribe","media":"movie","request_id":5}`, func() {
			reqNoBody(expect("POST", "/api/v1/Request/movie/subscribe/5")).Reply(200).JSON(true)
		}, &target{Kind: "movie", ID: 5}, "completed"},
		{"unsubscribe tv", "write_request_subscribe", `{"action":"unsubscribe","media":"tv","request_id":6}`, func() {
			reqNoBody(expect("POST", "/api/v1/Request/tv/unsubscribe/6")).Reply(200).JSON(true)
		}, &target{Kind: "tv_child", ID: 6}, "completed"},
		{"movie advanced carries the omitted root over", "write_request_options", `{"action":"movie_advanced","request_id":5,"quality_profile_id":9}`, func() {
			expect("GET", "/api/v1/Request/movie/info/5").Reply(200).JSON(map[string]any{"id": 5, "rootPathOverride": 3, "qualityOverride": 4})
			reqJSONBody(expect("POST", "/api/v2/Requests/movie/advancedoptions"), `{"requestId":5,"rootPathOverride":3,"qualityOverride":9}`).Reply(200).JSON(reqEngineOK(0))
		}, &target{Kind: "movie", ID: 5}, "completed"},
		{"tv advanced carries root and quality over", "write_request_options", `{"action":"tv_advanced","parent_request_id":7,"language_profile_id":2}`, func() {
			expect("GET", "/api/v1/Request/tv/7").Reply(200).JSON(map[string]any{"id": 7, "rootFolder": 11, "qualityOverride": 12, "languageProfile": 1})
			reqJSONBody(expect("POST", "/api/v2/Requests/tv/advancedoptions"), `{"requestId":7,"rootPathOverride":11,"qualityOverride":12,"languageProfile":2}`).Reply(200).JSON(reqEngineOK(0))
		}, &target{Kind: "tv_parent", ID: 7}, "completed"},
		{"tv root is a bodiless PUT", "write_request_options", `{"action":"tv_root","parent_request_id":7,"root_folder_id":2}`, func() {
			reqNoBody(expect("PUT", "/api/v1/Request/tv/root/7/2")).Reply(200).JSON(true)
		}, &target{Kind: "tv_parent", ID: 7}, "completed"},
		{"tv quality is a bodiless PUT", "write_request_options", `{"action":"tv_quality","parent_request_id":7,"quality_profile_id":4}`, func() {
			reqNoBody(expect("PUT", "/api/v1/Request/tv/quality/7/4")).Reply(200).JSON(true)
		}, &target{Kind: "tv_parent", ID: 7}, "completed"},
		{"reprocess movie 4k", "write_request_reprocess", `{"request_type":"movie","request_id":5,"is_4k":true}`, func() {
			reqNoBody(expect("POST", "/api/v2/Requests/reprocess/1/5/true")).Reply(200).JSON(reqEngineOK(0))
		}, &target{Kind: "movie", ID: 5}, "completed"},
		{"reprocess tv uses type 0", "write_request_reprocess", `{"request_type":"tv","request_id":6}`, func() {
			expect("POST", "/api/v2/Requests/reprocess/0/6/false").Reply(200).JSON(reqEngineOK(0))
		}, &target{Kind: "tv_child", ID: 6}, "completed"},
		{"retry remove", "write_retry_remove", `{"queue_id":3}`, func() {
			reqNoBody(expect("DELETE", "/api/v1/RequestRetry/3")).Reply(200).JSON(true)
		}, nil, "completed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := reqDeps(t)
			tt.declare()
			m := reqMutation(t, reqDirect(t, d, tt.tool, tt.args))
			if m.Outcome != tt.wantOut {
				t.Errorf("outcome = %s, want %s", m.Outcome, tt.wantOut)
			}
			if !reflect.DeepEqual(m.Target, tt.wantTarget) {
				t.Errorf("target = %+v, want %+v", m.Target, tt.wantTarget)
			}
			if len(m.Items) != 0 || m.Affected != nil {
				t.Errorf("invented per-item results or counts: %+v", m)
			}
		})
	}
}

func TestWrites_runtimeRulesRejectBeforeTheWrite(t *testing.T) {
	many := make([]string, 0, 21)
	for s := 0; s < 21; s++ {
		eps := make([]string, 100)
		for e := range eps {
			eps[e] = reqItoa(e + 1)
		}
		many = append(many, `{"season_number":`+reqItoa(s)+`,"episodes":[`+strings.Join(eps, ",")+`]}`)
	}
	tests := []struct {
		name, tool, args string
		declare          func() // the only upstream calls allowed (private reads)
		wantCode         string
		wantField        string
	}{
		{"duplicate seasons in episodes mode", "write_request_create",
			`{"action":"tv","provider":"tmdb","id":1,"selection":{"mode":"episodes","seasons":[{"season_number":1,"episodes":[1]},{"season_number":1,"episodes":[2]}]}}`,
			nil, codeInvalidArgument, "/selection/seasons/1/season_number"},
		{"duplicate episodes", "write_request_create",
			`{"action":"tv","provider":"tmdb","id":1,"selection":{"mode":"episodes","seasons":[{"season_number":1,"episodes":[1,1]}]}}`,
			nil, codeInvalidArgument, ""},
		{"empty episode list", "write_request_create",
			`{"action":"tv","provider":"tvdb","id":1,"selection":{"mode":"episodes","seasons":[{"season_number":1,"episodes":[]}]}}`,
			nil, codeInvalidArgument, ""},
		{"duplicate season numbers in season mode", "write_request_create",
			`{"action":"tv","provider":"tmdb","id":1,"selection":{"mode":"season","season_numbers":[1,1]}}`,
			nil, codeInvalidArgument, ""},
		{"more than 2000 episodes", "write_request_create",
			`{"action":"tv","provider":"tmdb","id":1,"selection":{"mode":"episodes","seasons":[` + strings.Join(many, ",") + `]}}`,
			nil, codeInvalidArgument, "/selection/seasons"},
		{"unknown season after the one details read", "write_request_create",
			`{"action":"tv","provider":"tmdb","id":123,"selection":{"mode":"season","season_numbers":[1,9]}}`,
			func() {
				expect("GET", "/api/v2/Search/tv/moviedb/123").Reply(200).JSON(map[string]any{"seasonRequests": []any{
					map[string]any{"seasonNumber": 1, "episodes": []any{map[string]any{"episodeNumber": 1}}}}})
			}, codeInvalidArgument, "/selection/season_numbers/1"},
		{"season without episodes in the details", "write_request_create",
			`{"action":"tv","provider":"tvdb","id":77,"selection":{"mode":"season","season_numbers":[2]}}`,
			func() {
				expect("GET", "/api/v1/Search/tv/info/77").Reply(200).JSON(map[string]any{"seasonRequests": []any{
					map[string]any{"seasonNumber": 2, "episodes": []any{}}}})
			}, codeInvalidArgument, "/selection/season_numbers/0"},
		{"details answer without a season list is a schema mismatch", "write_request_create",
			`{"action":"tv","provider":"tmdb","id":5,"selection":{"mode":"season","season_numbers":[1]}}`,
			func() {
				expect("GET", "/api/v2/Search/tv/moviedb/5").Reply(200).JSON(map[string]any{"result": false, "isError": true, "errorMessage": "x"})
			}, codeUpstreamSchemaMismatch, ""},
		{"tv create carries no 4K field", "write_request_create",
			`{"action":"tv","provider":"tmdb","id":1,"is_4k":true,"selection":{"mode":"all"}}`, nil, codeInvalidArgument, ""},
		{"collection accepts no 4K", "write_request_create", `{"action":"collection","collection_id":1,"is_4k":true}`, nil, codeInvalidArgument, ""},
		{"album has no on-behalf", "write_request_create", `{"action":"album","musicbrainz_id":"x","on_behalf_user_id":"u"}`, nil, codeInvalidArgument, ""},
		{"deny needs a reason", "write_request_moderate", `{"action":"deny","media":"tv","request_id":1,"reason":"   "}`, nil, codeInvalidArgument, "/reason"},
		{"album reprocess is unsupported", "write_request_reprocess", `{"request_type":"album","request_id":1}`, nil, codeUnsupportedCapability, ""},
		{"tv reprocess has no 4K", "write_request_reprocess", `{"request_type":"tv","request_id":1,"is_4k":true}`, nil, codeInvalidArgument, ""},
		{"retry remove takes no request id", "write_retry_remove", `{"request_id":3}`, nil, codeInvalidArgument, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := reqDeps(t)
			if tt.declare != nil {
				tt.declare()
			}
			r := reqDirect(t, d, tt.tool, tt.args)
			if r.OK || r.Error.Code != tt.wantCode || (tt.wantField != "" && r.Error.Field != tt.wantField) {
				t.Fatalf("envelope = %s, want %s at %q", r.raw, tt.wantCode, tt.wantField)
			}
			// newTestClient fails the test on any undeclared upstream call.
		})
	}
}

func TestWrites_aliasInJWTModeIsUnsupported(t *testing.T) {
	v, _ := spec.NewValidator()
	d := &deps{client: newTestClient(t, Options{}), validator: v, log: slog.New(slog.DiscardHandler)}
	r := reqDirect(t, d, "write_request_create", `{"action":"album","musicbrainz_id":"mb","requested_by_alias":"Kitchen"}`)
	if r.OK || r.Error.Code != codeUnsupportedCapability {
		t.Fatalf("envelope = %s", r.raw)
	}
}

func TestWrites_outcomes(t *testing.T) {
	tests := []struct {
		name      string
		declare   func()
		wantCode  string
		retryable bool
		wantMsg   string
	}{
		{"HTTP 200 result false is a business failure", func() {
			expect("POST", "/api/v1/Request/movie").Reply(200).JSON(map[string]any{"result": false, "isError": true,
				"errorMessage": "You have exceeded your Movie request quota!", "errorCode": "MovieRequestQuotaExceeded", "requestId": 0})
		}, codeUpstreamRejected, false, "exceeded your Movie request quota"},
		{"HTTP 200 with a secret-bearing message is sanitised", func() {
			expect("POST", "/api/v1/Request/movie").Reply(200).JSON(map[string]any{"result": false, "isError": true,
				"errorMessage": "Server=db;Password=hunter2 at Ombi.Core", "requestId": 0})
		}, codeUpstreamRejected, false, ""},
		{"answer without result or isError is a schema mismatch", func() {
			expect("POST", "/api/v1/Request/movie").Reply(200).JSON(map[string]any{"requestId": 4})
		}, codeUpstreamSchemaMismatch, false, ""},
		{"connection reset after sending is UNKNOWN_OUTCOME and never replayed", func() {
			expect("POST", "/api/v1/Request/movie").ReplyError(errors.New("connection reset by peer"))
		}, codeUnknownOutcome, false, ""},
		{"401 on a write is final", func() {
			expect("POST", "/api/v1/Request/movie").Reply(401)
		}, codeAuthenticationFailed, false, ""},
		{"500 on a write is not retryable", func() {
			expect("POST", "/api/v1/Request/movie").Reply(500).JSON(map[string]any{"error": "boom"})
		}, codeUpstreamRejected, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := reqDeps(t)
			tt.declare()
			r := reqDirect(t, d, "write_request_create", `{"action":"movie","tmdb_id":603}`)
			if r.OK || r.Error.Code != tt.wantCode || r.Error.Retryable != tt.retryable {
				t.Fatalf("envelope = %s, want %s retryable=%v", r.raw, tt.wantCode, tt.retryable)
			}
			if !strings.Contains(r.Error.Message, tt.wantMsg) {
				t.Fatalf("message %q lacks %q", r.Error.Message, tt.wantMsg)
			}
			for _, leak := range []string{"hunter2", "Server=", "Ombi.Core"} {
				if strings.Contains(string(r.raw), leak) {
					t.Fatalf("envelope leaks %q: %s", leak, r.raw)
				}
			}
			if r.Data != nil && string(r.Data) != "null" {
				t.Fatalf("a failed write carries data: %s", r.raw)
			}
		})
	}
}

func reqItoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

package server

import "testing"

func TestReadReference_branches(t *testing.T) {
	refs := func(want string) func(t *testing.T, env map[string]any) {
		return func(t *testing.T, env map[string]any) {
			t.Helper()
			sameAs(t, okItems(t, env), want)
		}
	}
	tests := []branchCase{
		{name: "genres", tool: "read_reference", args: `{"action":"genres","media":"tv"}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/Genres/tv", reply: `[{"id":18,"name":"Drama"}]`}},
			check: refs(`[{"id":"18","name":"Drama","value":18,"category":"genre"}]`)},
		{name: "languages skip mojibake", tool: "read_reference", args: `{"action":"languages"}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/Languages", reply: `[{"iso_639_1":"en","english_name":"English","name":"English"},{"iso_639_1":"ja","english_name":"??????","name":"日本語"},{"iso_639_1":"xx","english_name":"??","name":"\ufffd\ufffd"}]`}},
			check: func(t *testing.T, env map[string]any) {
				refs(`[{"id":"en","name":"English","value":"en","category":"language"},{"id":"ja","name":"日本語","value":"ja","category":"language"},{"id":"xx","name":"??","value":"xx","category":"language"}]`)(t, env)
				if w := env["warnings"].([]any); len(w) != 1 {
					t.Fatalf("warnings = %v", w)
				}
				if pg := page(env); pg["total"] != 3.0 || pg["has_more"] != false {
					t.Fatalf("page = %v", pg)
				}
			}},
		{name: "keywords query", tool: "read_reference", args: `{"action":"keywords","query":"time travel"}`,
			wires: []wire{{method: "GET", path: "/api/v1/TheMovieDb/Keywords", query: "searchTerm=time+travel", reply: `[{"id":4379,"name":"time travel"}]`}},
			check: func(t *testing.T, env map[string]any) {
				refs(`[{"id":"4379","name":"time travel","value":4379,"category":"keyword"}]`)(t, env)
				if page(env)["total"] != nil {
					t.Fatal("keyword search total must be unknown")
				}
			}},
		{name: "keyword", tool: "read_reference", args: `{"action":"keyword","keyword_id":4379}`,
			wires: []wire{{method: "GET", path: "/api/v1/TheMovieDb/Keywords/4379", reply: `{"id":4379,"name":"time travel"}`}},
			check: refs(`[{"id":"4379","name":"time travel","value":4379,"category":"keyword"}]`)},
		{name: "watch providers without query", tool: "read_reference", args: `{"action":"watch_providers","media":"movie"}`,
			wires: []wire{{method: "GET", path: "/api/v1/TheMovieDb/WatchProviders/movie", reply: `[{"provider_id":8,"provider_name":"Netflix","logo_path":"/x.jpg"}]`}},
			check: refs(`[{"id":"8","name":"Netflix","value":8,"category":"watch_provider"}]`)},
		{name: "watch providers with query", tool: "read_reference", args: `{"action":"watch_providers","media":"tv","query":"net"}`,
			wires: []wire{{method: "GET", path: "/api/v1/TheMovieDb/WatchProviders/tv", query: "searchTerm=net", reply: `[]`}}},
		{name: "countries", tool: "read_reference", args: `{"action":"countries","page":{"limit":1}}`,
			wires: []wire{{method: "GET", path: "/api/v1/Identity/streamingcountry", reply: `["AR","AT"]`}},
			check: func(t *testing.T, env map[string]any) {
				refs(`[{"id":"AR","name":"AR","value":"AR","category":"country"}]`)(t, env)
				if pg := page(env); pg["total"] != 2.0 || pg["next_offset"] != 1.0 {
					t.Fatalf("page = %v", pg)
				}
			}},
		{name: "issue categories", tool: "read_reference", args: `{"action":"issue_categories"}`,
			wires: []wire{{method: "GET", path: "/api/v1/Issues/categories", reply: `[{"id":1,"value":"Wrong Audio"}]`}},
			check: refs(`[{"id":"1","name":"Wrong Audio","value":1,"category":"issue_category"}]`)},
		{name: "keyword answered by a business failure", tool: "read_reference", args: `{"action":"keyword","keyword_id":310}`,
			wires: []wire{{method: "GET", path: "/api/v1/TheMovieDb/Keywords/310", reply: `{"isError":true,"errorMessage":"boom","result":false}`}},
			check: func(t *testing.T, env map[string]any) {
				if env["error"].(map[string]any)["code"] != codeUpstreamSchemaMismatch {
					t.Fatalf("a 200 object without id or name must not become NOT_FOUND: env = %v", env)
				}
			}},
		{name: "ids that are not positive integers are dropped", tool: "read_reference", args: `{"action":"genres","media":"movie"}`,
			wires: []wire{{method: "GET", path: "/api/v2/Search/Genres/movie", reply: `[{"id":-7,"name":"Minus"},{"id":2.5e3,"name":"Float"},{"id":123456789012345678901234567890,"name":"Huge"},{"id":28,"name":"Action"}]`}},
			check: func(t *testing.T, env map[string]any) {
				for _, it := range okItems(t, env) {
					r := it.(map[string]any)
					if id, ok := r["id"]; ok && r["name"] != "Action" {
						t.Fatalf("%v kept id %v", r["name"], id)
					}
				}
				if w := env["warnings"].([]any); len(w) == 0 {
					t.Fatal("a dropped id needs a warning")
				}
			}},
		{name: "malformed answer", tool: "read_reference", args: `{"action":"issue_categories"}`,
			wires: []wire{{method: "GET", path: "/api/v1/Issues/categories", reply: `{"not":"a list"}`}},
			check: func(t *testing.T, env map[string]any) {
				if env["error"].(map[string]any)["code"] != codeUpstreamSchemaMismatch {
					t.Fatalf("env = %v", env)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

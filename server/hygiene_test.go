package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// This file holds the output-hygiene contract tests: what a hostile
// upstream sends never reaches a result as an invalid identifier, a control
// or bidi character; a "." or ".." path value is blamed on its field.

// hostileHarness runs the whole server (api_key mode) against a loopback
// upstream answering every route with the JSON that the routes set last
// (serve) holds for the longest matching path prefix ("[]" when none).
func hostileHarness(t *testing.T) (h *harness, serve func(routes map[string]string)) {
	t.Helper()
	var (
		mu     sync.Mutex
		routes map[string]string
	)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		mu.Lock()
		best, body := -1, "[]"
		for prefix, b := range routes {
			if strings.HasPrefix(r.URL.Path, prefix) && len(prefix) > best {
				best, body = len(prefix), b
			}
		}
		mu.Unlock()
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(up.Close)
	h = newHarness(t, nil, allBundles(Options{URL: up.URL, AuthMode: AuthAPIKey, APIKey: "k", Timeout: 5 * time.Second}))
	return h, func(r map[string]string) {
		mu.Lock()
		defer mu.Unlock()
		routes = r
	}
}

func itemsOf(t *testing.T, r result) []map[string]any {
	t.Helper()
	if !r.OK {
		t.Fatalf("call failed: %s", r.raw)
	}
	var data struct {
		Items []map[string]any `json:"items"`
	}
	if err := json.Unmarshal(r.Data, &data); err != nil {
		t.Fatalf("decode data: %v", err)
	}
	return data.Items
}

func hasWarning(r result, fragment string) bool {
	for _, w := range r.Warnings {
		if strings.Contains(w, fragment) {
			return true
		}
	}
	return false
}

// TestHygiene_identifiersOnlyValid: an upstream id becomes an identifier
// only when it is a positive integer (int32, canonical decimal) or, for
// IMDB, tt plus digits. Anything else is omitted with a warning.
func TestHygiene_identifiersOnlyValid(t *testing.T) {
	tests := []struct {
		name string
		tmdb string // raw JSON of theMovieDbId
		imdb string
		want []identifier
	}{
		{"negative number", `-7`, ``, nil},
		{"negative string", `"-7"`, ``, nil},
		{"negative zero", `-0`, ``, nil},
		{"huge exponent", `1e400`, ``, nil},
		{"fraction with exponent", `2.5e3`, ``, nil},
		{"fraction", `12.5`, ``, nil},
		{"30-digit number", `123456789012345678901234567890`, ``, nil},
		{"30-digit string", `"123456789012345678901234567890"`, ``, nil},
		{"over int32", `2147483648`, ``, nil},
		{"leading zeros", `"00603"`, ``, nil},
		{"plus sign", `"+603"`, ``, nil},
		{"not a number", `"603abc"`, ``, nil},
		{"infinity", `"Infinity"`, ``, nil},
		{"imdb too short", `603`, `tt12`, []identifier{{nsTMDB, "603"}}},
		{"imdb with a suffix", `603`, `tt0133093x`, []identifier{{nsTMDB, "603"}}},
		{"valid number", `603`, `tt0133093`, []identifier{{nsTMDB, "603"}, {nsIMDB, "tt0133093"}}},
		{"valid string", `" 603 "`, ``, []identifier{{nsTMDB, "603"}}},
		{"int32 max", `2147483647`, ``, []identifier{{nsTMDB, "2147483647"}}},
	}
	h, serve := hostileHarness(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := `{"theMovieDbId":` + tt.tmdb + `,"title":"Heat"`
			if tt.imdb != "" {
				rec += `,"imdbId":"` + tt.imdb + `"`
			}
			rec += `}`
			serve(map[string]string{"/api/v1/Search/movie/": "[" + rec + "]"})
			r := h.call(t, "read_search", map[string]any{"action": "text", "media": "movie", "query": "heat"})
			items := itemsOf(t, r)
			if len(items) != 1 {
				t.Fatalf("items = %d, want 1: %s", len(items), r.raw)
			}
			b, _ := json.Marshal(items[0]["identifiers"])
			var got []identifier
			_ = json.Unmarshal(b, &got)
			if len(got) != len(tt.want) {
				t.Fatalf("identifiers = %s, want %v", b, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("identifiers = %s, want %v", b, tt.want)
				}
			}
			if tt.imdb != "" {
				return // the imdb pattern is checked where the id is projected
			}
			dropped := len(tt.want) == 0
			if dropped && !hasWarning(r, "not valid ids") {
				t.Errorf("an identifier was omitted without a warning: %v", r.Warnings)
			}
			if !dropped && hasWarning(r, "not valid ids") {
				t.Errorf("a warning about identifiers with none omitted: %v", r.Warnings)
			}
		})
	}
}

// TestHygiene_idFieldsOnlyValid: *_id fields that carry upstream ids are
// omitted (with a warning) when the id looks numeric but is not a positive
// integer; provider strings (imdb, GUID user ids) pass.
func TestHygiene_idFieldsOnlyValid(t *testing.T) {
	const guid = "b1c2d3e4-0000-4000-8000-000000000002"
	tests := []struct {
		name       string
		providerID string // JSON string value
		reporter   string
		wantProv   string // "" = omitted
		wantRep    string
	}{
		{"negative provider id", "-7", guid, "", guid},
		{"negative zero", "-0", guid, "", guid},
		{"exponent", "1e400", guid, "", guid},
		{"fraction with exponent", "2.5e3", guid, "", guid},
		{"30 digits", "123456789012345678901234567890", guid, "", guid},
		{"numeric reporter", "603", "-12", "603", ""},
		{"valid tmdb id", "603", guid, "603", guid},
		{"valid imdb id", "tt0133093", guid, "tt0133093", guid},
	}
	h, serve := hostileHarness(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			issue := `[{"id":5,"title":"Broken","providerId":"` + tt.providerID + `","userReportedId":"` + tt.reporter + `","requestId":-7,"issueCategoryId":-3}]`
			serve(map[string]string{"/api/v1/Issues/": issue})
			r := h.call(t, "read_issues", map[string]any{"action": "list", "status": "pending"})
			items := itemsOf(t, r)
			if len(items) != 1 {
				t.Fatalf("items = %d: %s", len(items), r.raw)
			}
			it := items[0]
			if got, _ := it["provider_id"].(string); got != tt.wantProv {
				t.Errorf("provider_id = %q, want %q", got, tt.wantProv)
			}
			if got, _ := it["reported_by_user_id"].(string); got != tt.wantRep {
				t.Errorf("reported_by_user_id = %q, want %q", got, tt.wantRep)
			}
			for _, k := range []string{"request_id", "category_id"} {
				if v, ok := it[k]; ok {
					t.Errorf("%s = %v emitted from a negative upstream id", k, v)
				}
			}
			if omitted := tt.wantProv == "" || tt.wantRep == ""; omitted && !hasWarning(r, "not valid ids") {
				t.Errorf("an id was omitted without a warning: %v", r.Warnings)
			}
		})
	}
}

// forbiddenRune reports the runes no result string may carry: C0 controls
// but tab and newline, DEL, C1 controls, and the bidi controls.
func forbiddenRune(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

// walkStrings calls f on every string (keys included) of a decoded JSON
// value.
func walkStrings(v any, f func(string)) {
	switch t := v.(type) {
	case string:
		f(t)
	case map[string]any:
		for k, e := range t {
			f(k)
			walkStrings(e, f)
		}
	case []any:
		for _, e := range t {
			walkStrings(e, f)
		}
	}
}

// TestHygiene_controlAndBidiRemoved: control characters, ANSI escape
// sequences and bidi controls from upstream strings are removed from every
// string of every result, whatever the tool.
func TestHygiene_controlAndBidiRemoved(t *testing.T) {
	const dirty = "A\x1b[31mRED\x1b[0m\x1b]8;;http://x\x07link\x1b]8;;\x07\u202eevil\u202c\u2066iso\u2069\u200e\u200f\u061c\x00nul\x7fdel\u0085nel\u009b1mcsi\x08bs\rcr\vvt\x1bc"
	const clean = "AREDlinkevilisonuldelnelcsibscrvt"
	tests := []struct {
		name   string
		routes map[string]string
		tool   string
		args   map[string]any
		check  func(t *testing.T, data map[string]any)
	}{
		{
			name:   "media title and overview",
			routes: map[string]string{"/api/v1/Search/movie/": `[{"theMovieDbId":603,"title":` + jsonString(dirty) + `,"overview":` + jsonString("line1\r\nline2\tend"+dirty) + `}]`},
			tool:   "read_search", args: map[string]any{"action": "text", "media": "movie", "query": "heat"},
			check: func(t *testing.T, data map[string]any) {
				it := data["items"].([]any)[0].(map[string]any)
				if it["title"] != clean {
					t.Errorf("title = %q, want %q", it["title"], clean)
				}
				if it["overview"] != "line1\nline2\tend"+clean {
					t.Errorf("overview = %q", it["overview"])
				}
			},
		},
		{
			name:   "issue texts and ids",
			routes: map[string]string{"/api/v1/Issues/": `[{"id":5,"title":` + jsonString(dirty) + `,"subject":` + jsonString(dirty) + `,"description":` + jsonString(dirty) + `,"providerId":` + jsonString("603\u202e") + `,"userReportedId":` + jsonString("u\x1b[2Jser") + `}]`},
			tool:   "read_issues", args: map[string]any{"action": "list", "status": "pending"},
			check: func(t *testing.T, data map[string]any) {
				it := data["items"].([]any)[0].(map[string]any)
				if it["title"] != clean || it["description"] != clean {
					t.Errorf("issue = %v", it)
				}
				if it["reported_by_user_id"] != "user" {
					t.Errorf("reported_by_user_id = %q", it["reported_by_user_id"])
				}
			},
		},
		{
			name:   "reference names",
			routes: map[string]string{"/api/v2/Search/Languages": `[{"iso_639_1":"en","english_name":` + jsonString(dirty) + `}]`},
			tool:   "read_reference", args: map[string]any{"action": "languages"},
			check: func(t *testing.T, data map[string]any) {
				it := data["items"].([]any)[0].(map[string]any)
				if it["name"] != clean {
					t.Errorf("name = %q, want %q", it["name"], clean)
				}
			},
		},
	}
	h, serve := hostileHarness(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			serve(tt.routes)
			r := h.call(t, tt.tool, tt.args)
			if !r.OK {
				t.Fatalf("call failed: %s", r.raw)
			}
			var env any
			if err := json.Unmarshal(r.raw, &env); err != nil {
				t.Fatal(err)
			}
			walkStrings(env, func(s string) {
				for _, c := range s {
					if forbiddenRune(c) {
						t.Errorf("result string %q carries %U", s, c)
						return
					}
				}
			})
			var data map[string]any
			_ = json.Unmarshal(r.Data, &data)
			tt.check(t, data)
		})
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestHygiene_pathValueNamesField: a "." or ".." value that would become a
// path segment is refused with INVALID_ARGUMENT naming its argument field,
// on every tool: the listed rows, then a sweep that puts "." and ".." in
// every string of every valid schema example.
func TestHygiene_pathValueNamesField(t *testing.T) {
	m := startMock(t, mockombi.Options{})
	h := newHarness(t, m, allBundles(jwtOptions(t, m)))
	tests := []struct {
		tool  string
		args  map[string]any
		field string
	}{
		{"read_issues", map[string]any{"action": "provider_summary", "provider_id": ".."}, "/provider_id"},
		{"read_library", map[string]any{"action": "album_art", "musicbrainz_id": "."}, "/musicbrainz_id"},
		{"read_requests", map[string]any{"action": "search", "media": "movie", "query": ".."}, "/query"},
		{"read_users", map[string]any{"action": "get", "user_id": ".."}, "/user_id"},
		{"read_users", map[string]any{"action": "preferences", "user_id": "."}, "/user_id"},
		{"write_user_manage", map[string]any{"action": "delete", "user_id": ".."}, "/user_id"},
		{"write_user_preferences", map[string]any{"action": "newsletter_opt_out", "user_id": ".."}, "/user_id"},
		{"read_discover", map[string]any{"action": "artist_albums", "artist_id": ".."}, "/artist_id"},
	}
	for _, tt := range tests {
		t.Run(tt.tool+tt.field, func(t *testing.T) {
			r := h.call(t, tt.tool, tt.args)
			if r.OK || r.Error.Code != codeInvalidArgument || r.Error.Field != tt.field {
				t.Fatalf("%s %v -> %s, want INVALID_ARGUMENT on %s", tt.tool, tt.args, r.raw, tt.field)
			}
		})
	}
	t.Run("sweep", func(t *testing.T) {
		ents, err := os.ReadDir(filepath.Join("..", "fixtures", "schema"))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			tool, ok := strings.CutSuffix(e.Name(), ".json")
			if !ok {
				continue
			}
			for _, ex := range validExamples(t, tool).Valid {
				for _, ptr := range stringPointers(ex.Args) {
					for _, dot := range []string{".", ".."} {
						args := withString(t, ex.Args, ptr, dot)
						r := h.call(t, tool, args)
						if !r.OK && r.Error.Code == codeInvalidArgument && r.Error.Field == "" {
							t.Errorf("%s %s: INVALID_ARGUMENT names no field: %s", tool, args, r.Error.Message)
						}
					}
				}
			}
		}
	})
}

// stringPointers lists the JSON pointers of every string leaf, sorted.
func stringPointers(raw json.RawMessage) []string {
	var v any
	_ = json.Unmarshal(raw, &v)
	var out []string
	var walk func(v any, p string)
	walk = func(v any, p string) {
		switch t := v.(type) {
		case string:
			out = append(out, p)
		case map[string]any:
			for k, e := range t {
				walk(e, p+"/"+k)
			}
		case []any:
			for i, e := range t {
				walk(e, p+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(v, "")
	sort.Strings(out)
	return out
}

// withString returns raw with the string at ptr replaced by s.
func withString(t *testing.T, raw json.RawMessage, ptr, s string) json.RawMessage {
	t.Helper()
	var v any
	_ = json.Unmarshal(raw, &v)
	parts := strings.Split(ptr, "/")[1:]
	cur := v
	for i, p := range parts {
		last := i == len(parts)-1
		switch t := cur.(type) {
		case map[string]any:
			if last {
				t[p] = s
			}
			cur = t[p]
		case []any:
			n, _ := strconv.Atoi(p)
			if last {
				t[n] = s
			}
			cur = t[n]
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHygiene_cleanText: the one cleaner every result string passes.
func TestHygiene_cleanText(t *testing.T) {
	tests := []struct {
		name, in, want string
		keepLines      bool
	}{
		{"plain text untouched", "Amélie – 東京 (2001)", "Amélie – 東京 (2001)", true},
		{"SGR colour", "\x1b[1;31mred\x1b[0m", "red", true},
		{"cursor and erase", "a\x1b[2J\x1b[Hb\x1b[?25l", "ab", true},
		{"OSC hyperlink with BEL", "\x1b]8;;http://evil\x07click\x1b]8;;\x07", "click", true},
		{"OSC title with ST", "\x1b]0;pwned\x1b\\ok", "ok", true},
		{"two-byte escape", "a\x1bcb\x1b(Bc", "abc", true},
		{"C1 CSI", "a\u009b31mb", "ab", true},
		{"C1 OSC", "a\u009d0;t\u009cb", "ab", true},
		{"lone ESC at the end", "ab\x1b", "ab", true},
		{"NUL DEL and C0", "a\x00b\x7fc\x01d\x08e\rf\vg\fh", "abcdefgh", true},
		{"C1 NEL", "a\u0085b", "ab", true},
		{"bidi overrides and isolates", "\u202aa\u202bb\u202cc\u202dd\u202ee\u2066f\u2067g\u2068h\u2069", "abcdefgh", true},
		{"marks", "a\u200eb\u200fc\u061cd", "abcd", true},
		{"tab and newline kept", "a\tb\nc", "a\tb\nc", true},
		{"tab and newline dropped", "a\tb\nc", "abc", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cleanText(tt.in, tt.keepLines); got != tt.want {
				t.Fatalf("cleanText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestHygiene_validIdentifier: the identifier rules per namespace.
func TestHygiene_validIdentifier(t *testing.T) {
	tests := []struct {
		ns, value string
		want      bool
	}{
		{nsTMDB, "603", true}, {nsTMDB, "2147483647", true}, {nsTMDB, "2147483648", false},
		{nsTMDB, "-7", false}, {nsTMDB, "-0", false}, {nsTMDB, "0", false}, {nsTMDB, "1e400", false},
		{nsTMDB, "2.5e3", false}, {nsTMDB, "123456789012345678901234567890", false}, {nsTMDB, "0603", false},
		{nsTMDB, "+603", false}, {nsTMDB, "tt0133093", false}, {nsTVDB, "81189", true}, {nsOmbiMovie, "12", true},
		{nsIMDB, "tt0133093", true}, {nsIMDB, "tt12", false}, {nsIMDB, "603", false},
		{nsMusicBrainz, "a7f3c5e2-0b1d-4c7e-9f3a-2d6b8e1c4f90", true}, {nsMusicBrainz, "-7", false},
		{nsMusicBrainz, "two words", false}, {nsUnknown, "42", true}, {nsUnknown, "1e400", false},
	}
	for _, tt := range tests {
		if got := validIdentifier(tt.ns, tt.value); got != tt.want {
			t.Errorf("validIdentifier(%s, %q) = %v, want %v", tt.ns, tt.value, got, tt.want)
		}
	}
}

func canaryValues(m *mockombi.Server) []string {
	var out []string
	for _, c := range m.Canaries() {
		out = append(out, c.Value)
	}
	return out
}

func TestAdminReads_neverLeakCanaries(t *testing.T) {
	e := newAdminEnv(t, mockombi.RoleAdmin)
	canaries := canaryValues(e.m)
	if len(canaries) == 0 {
		t.Fatal("the mock planted no canaries")
	}
	for _, tool := range []string{"read_settings", "read_users", "read_integration", "read_server", "read_library", "read_issues"} {
		for _, ex := range validExamples(t, tool).Valid {
			r := e.h.call(t, tool, ex.Args)
			for _, c := range canaries {
				if strings.Contains(string(r.raw), c) {
					t.Errorf("%s %s carries canary %s", tool, ex.Args, c)
				}
			}
		}
	}
}

package spec

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

func newValidator(t testing.TB) *Validator {
	t.Helper()
	v, err := NewValidator()
	if err != nil {
		t.Fatalf("compile schemas: %v", err)
	}
	return v
}

// TestValidator_compileAll compiles every tool's strict input, published
// and output schema: schemas compile lazily, so a broken one must still
// fail here, not first in a user's call.
func TestValidator_compileAll(t *testing.T) {
	if err := newValidator(t).CompileAll(); err != nil {
		t.Fatal(err)
	}
}

func TestCatalogue_bundles(t *testing.T) {
	got := map[string]int{}
	seen := map[string]bool{}
	for _, tool := range Tools() {
		got[tool.Bundle]++
		if seen[tool.Name] {
			t.Errorf("tool %s listed twice", tool.Name)
		}
		seen[tool.Name] = true
		if strings.HasPrefix(tool.Name, "ombi_") {
			t.Errorf("tool %s starts with ombi_", tool.Name)
		}
	}
	want := map[string]int{BundleCore: 18, BundleModeration: 5, BundleAdministration: 8}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("bundles = %v, want %v", got, want)
	}
	if n := len(Tools()); n != 31 {
		t.Errorf("%d tools, want 31", n)
	}
}

func TestCatalogue_annotations(t *testing.T) {
	for _, tool := range Tools() {
		a := tool.Annotations
		if !a.OpenWorldHint {
			t.Errorf("%s: openWorldHint is false", tool.Name)
		}
		write := strings.HasPrefix(tool.Name, "write_")
		if write && (a.IdempotentHint || a.ReadOnlyHint) {
			t.Errorf("%s: a write must be idempotentHint false and readOnlyHint false, got %+v", tool.Name, a)
		}
		if !write && (!a.ReadOnlyHint || a.DestructiveHint) {
			t.Errorf("%s: a read must be readOnlyHint true and destructiveHint false, got %+v", tool.Name, a)
		}
	}
}

func TestSchemas_compile(t *testing.T) {
	newValidator(t)
	for _, tool := range Tools() {
		raw, err := InputSchema(tool.Name)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Schema string            `json:"$schema"`
			Type   string            `json:"type"`
			OneOf  []json.RawMessage `json:"oneOf"`
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("%s: decode input schema: %v", tool.Name, err)
		}
		if s.Schema != "https://json-schema.org/draft/2020-12/schema" || s.Type != "object" || len(s.OneOf) == 0 {
			t.Errorf("%s: root is not a 2020-12 type object oneOf schema", tool.Name)
		}
	}
}

// TestInputSchemas_branches checks the strict contract's shape: closed,
// titled branches with const discriminators and no *_code inputs.
func TestInputSchemas_branches(t *testing.T) {
	total := 0
	for tool, bs := range toolBranches(t) {
		total += len(bs)
		titles := map[string]bool{}
		hasAction := false
		for _, b := range bs {
			if _, ok := b.Consts[MainDiscriminator]; ok {
				hasAction = true
			}
		}
		raw, _ := InputSchema(tool)
		var root struct {
			OneOf []map[string]any `json:"oneOf"`
		}
		if err := json.Unmarshal(raw, &root); err != nil {
			t.Fatal(err)
		}
		for i, b := range bs {
			if b.Title == "" || titles[b.Title] {
				t.Errorf("%s: branch %d has an empty or duplicate title %q", tool, i, b.Title)
			}
			titles[b.Title] = true
			if root.OneOf[i]["additionalProperties"] != false || root.OneOf[i]["type"] != "object" {
				t.Errorf("%s/%s: branch is not a closed object", tool, b.Title)
			}
			if _, ok := b.Consts[MainDiscriminator]; hasAction && !ok {
				t.Errorf("%s/%s: branch has no action const", tool, b.Title)
			}
			for _, r := range b.Required {
				if _, ok := b.Schemas[r]; !ok {
					t.Errorf("%s/%s: required %q is not a property", tool, b.Title, r)
				}
			}
			for _, p := range b.Properties {
				if strings.HasSuffix(p, "_code") {
					t.Errorf("%s/%s: input property %q is a *_code field", tool, b.Title, p)
				}
				if _, isConst := b.Consts[p]; isConst && contains(b.Required, p) && strings.Contains(string(b.Schemas[p]), `"default"`) {
					t.Errorf("%s/%s: required discriminator %q has a default", tool, b.Title, p)
				}
			}
		}
	}
	t.Logf("%d strict branches across %d tools", total, len(Tools()))
}

func TestInputSchemas_counts(t *testing.T) {
	tests := []struct {
		name, tool, branch, prop string
		want                     int
	}{
		{"moderation branches", "write_request_moderate", "", "", 12},
		{"readable settings sections", "read_settings", "read", "section", 41},
		{"writable settings sections", "write_settings_patch", "patch", "section", 32},
		{"jobs", "write_job_run", "run", "job", 14},
		{"tester services", "write_integration_test", "test", "service", 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bs, err := Branches(tt.tool)
			if err != nil {
				t.Fatal(err)
			}
			if tt.branch == "" {
				if len(bs) != tt.want {
					t.Errorf("%d branches, want %d", len(bs), tt.want)
				}
				return
			}
			for _, b := range bs {
				if b.Title == tt.branch {
					var s struct {
						Enum []string `json:"enum"`
					}
					if err := json.Unmarshal(b.Schemas[tt.prop], &s); err != nil {
						t.Fatal(err)
					}
					if len(s.Enum) != tt.want {
						t.Errorf("%d values, want %d", len(s.Enum), tt.want)
					}
					return
				}
			}
			t.Fatalf("no branch %q", tt.branch)
		})
	}
}

// TestInputSchemas_enumLabels ties the input enums to the published T1/T2 maps.
func TestInputSchemas_enumLabels(t *testing.T) {
	tests := []struct{ tool, branch, prop, enum string }{
		{"write_issue_create", "create", "request_type", EnumRequestType},
		{"read_issues", "list", "status", EnumIssueStatus},
		{"read_issues", "summary", "status", EnumIssueStatus},
		{"write_issue_manage", "set_status", "status", EnumIssueStatus},
	}
	e := Enums()
	for _, tt := range tests {
		bs, _ := Branches(tt.tool)
		for _, b := range bs {
			if b.Title != tt.branch {
				continue
			}
			var s struct {
				Enum []string `json:"enum"`
			}
			_ = json.Unmarshal(b.Schemas[tt.prop], &s)
			got := append([]string(nil), s.Enum...)
			want := e.Labels(tt.enum)
			sort.Strings(got)
			sort.Strings(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s/%s %s = %v, want the %s labels %v", tt.tool, tt.branch, tt.prop, got, tt.enum, want)
			}
		}
	}
}

func TestOutputSchema_mediaPageClosure(t *testing.T) {
	raw, err := OutputSchema("read_search")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	var got []string
	for n := range s.Defs {
		got = append(got, n)
	}
	sort.Strings(got)
	want := []string{"credit", "episode", "error", "identifier", "media", "media_page", "paging", "provider", "reference", "season", "target"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("media_page closure = %v, want %v", got, want)
	}
}

// TestOutputSchema_noUnreachedDefs follows $ref from the root of each composed
// output schema and requires every carried def to be reached.
func TestOutputSchema_noUnreachedDefs(t *testing.T) {
	for _, tool := range Tools() {
		raw, err := OutputSchema(tool.Name)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		defs, _ := doc["$defs"].(map[string]any)
		body := map[string]any{}
		for k, v := range doc {
			if k != "$defs" {
				body[k] = v
			}
		}
		reached := map[string]bool{}
		queue := refsIn(body)
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			if reached[n] {
				continue
			}
			reached[n] = true
			d, ok := defs[n]
			if !ok {
				t.Errorf("%s: $ref to missing def %q", tool.Name, n)
				continue
			}
			queue = append(queue, refsIn(d)...)
		}
		for n := range defs {
			if !reached[n] {
				t.Errorf("%s: output schema carries def %q it does not reach", tool.Name, n)
			}
		}
	}
}

// discriminated reports whether every branch of the tool requires a const
// discriminator.
func discriminated(t *testing.T, tool string) bool {
	t.Helper()
	bs, err := Branches(tool)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		found := false
		for p := range b.Consts {
			if contains(b.Required, p) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func TestEmptyObjectRejected(t *testing.T) {
	v := newValidator(t)
	must := map[string]bool{"write_request_create": true, "write_issue_create": true, "write_request_moderate": true, "write_request_delete": true}
	checked := 0
	for _, tool := range Tools() {
		if !must[tool.Name] && !discriminated(t, tool.Name) {
			continue
		}
		checked++
		for _, c := range []struct {
			kind string
			fn   func(string, any) error
		}{{"strict", v.ValidateInput}, {"published", v.ValidatePublished}} {
			err := c.fn(tool.Name, []byte(`{}`))
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Errorf("%s: %s schema accepted {} (err %v)", tool.Name, c.kind, err)
			}
		}
	}
	if checked < 25 {
		t.Errorf("only %d tools checked", checked)
	}
}

func TestPublished_portable(t *testing.T) {
	for _, tool := range Tools() {
		p, err := PublishedInputSchema(tool.Name)
		if err != nil {
			t.Fatal(err)
		}
		if v := CheckPortable(p); len(v) > 0 {
			t.Errorf("%s: published schema is not portable: %v", tool.Name, v)
		}
		strict, _ := InputSchema(tool.Name)
		if v := CheckPortable(strict); len(v) == 0 {
			t.Errorf("%s: CheckPortable accepts the strict oneOf schema", tool.Name)
		}
	}
}

// TestPublished_notStale fails when spec/published differs from the
// projection of spec/input; regenerate with "go generate ./spec".
func TestPublished_notStale(t *testing.T) {
	for _, tool := range Tools() {
		strict, err := InputSchema(tool.Name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Project(strict)
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		got, err := PublishedInputSchema(tool.Name)
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("%s: decode published: %v", tool.Name, err)
		}
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: spec/published is stale; run go generate ./spec", tool.Name)
		}
	}
}

// TestPublished_requiredIsCommon checks the projection's required set and
// discriminator enum against the strict branches.
func TestPublished_requiredIsCommon(t *testing.T) {
	for _, tool := range Tools() {
		bs, _ := Branches(tool.Name)
		raw, _ := PublishedInputSchema(tool.Name)
		var p struct {
			Required   []string `json:"required"`
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		for _, r := range bs[0].Required {
			all := true
			for _, b := range bs {
				all = all && contains(b.Required, r)
			}
			if all != contains(p.Required, r) {
				t.Errorf("%s: required %q in projection = %v, in every branch = %v", tool.Name, r, contains(p.Required, r), all)
			}
		}
		var actions []string
		for _, b := range bs {
			if a, ok := b.Consts[MainDiscriminator]; ok && !contains(actions, a) {
				actions = append(actions, a)
			}
		}
		if len(actions) > 0 && !reflect.DeepEqual(p.Properties[MainDiscriminator].Enum, actions) {
			t.Errorf("%s: published action enum = %v, want %v", tool.Name, p.Properties[MainDiscriminator].Enum, actions)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// reviewExamples are the 06-verification examples the outline requires to be
// accepted verbatim, with the branch each must land in.
var reviewExamples = []struct {
	tool, branch, args string
}{
	{"read_search", "multi", `{"action":"multi","query":"Example title","include":["movies","tv_shows"]}`},
	{"read_media", "details", `{"action":"details","target":{"media":"tv","provider":"tmdb","id":123}}`},
	{"write_request_create", "tv/tmdb", `{"action":"tv","provider":"tmdb","id":123,"selection":{"mode":"episodes","seasons":[{"season_number":1,"episodes":[1,2]}]}}`},
	{"write_request_create", "tv/tmdb", `{"action":"tv","provider":"tmdb","id":123,"selection":{"mode":"season","season_numbers":[1,2]}}`},
	{"read_requests", "list/movie", `{"action":"list"}`},
	{"write_request_moderate", "approve/tv", `{"action":"approve","media":"tv","request_id":456}`},
	{"write_request_moderate", "deny/movie", `{"action":"deny","media":"movie","request_id":789,"is_4k":true,"reason":"Not available in 4K"}`},
	{"write_request_create", "album", `{"action":"album","musicbrainz_id":"example-release-group-id"}`},
	{"write_issue_comment", "comment", `{"issue_id":123,"comment":"Audio is out of sync"}`},
	{"write_settings_patch", "patch", `{"action":"patch","section":"ombi","revision":"rev-1","changes":{"hideRequestsUsers":true}}`},
	{"write_integration_test", "test", `{"service":"discord","profile_id":"default"}`},
}

func TestReviewExamples(t *testing.T) {
	v := newValidator(t)
	for _, ex := range reviewExamples {
		t.Run(ex.tool+"/"+ex.branch, func(t *testing.T) {
			if err := v.ValidateInput(ex.tool, []byte(ex.args)); err != nil {
				t.Errorf("strict rejects the review example: %v", err)
			}
			if err := v.ValidatePublished(ex.tool, []byte(ex.args)); err != nil {
				t.Errorf("published rejects the review example: %v", err)
			}
			if got := branchOf(t, ex.tool, ex.args); got != ex.branch {
				t.Errorf("example lands in branch %q, want %q", got, ex.branch)
			}
		})
	}
}

// branchOf returns the title of the single strict branch that accepts args.
func branchOf(t *testing.T, tool, args string) string {
	t.Helper()
	raw, _ := InputSchema(tool)
	var root struct {
		Schema string            `json:"$schema"`
		OneOf  []json.RawMessage `json:"oneOf"`
	}
	if err := json.Unmarshal(raw, &root); err != nil {
		t.Fatal(err)
	}
	var hits []string
	for i, b := range root.OneOf {
		s, err := Compile(fmt.Sprintf("mem://branch/%s/%d.json", tool, i), b, true)
		if err != nil {
			t.Fatal(err)
		}
		inst, _ := instance([]byte(args))
		if s.Validate(inst) == nil {
			br, _ := parseBranch(b)
			hits = append(hits, br.Title)
		}
	}
	if len(hits) != 1 {
		t.Fatalf("%s %s matches branches %v, want exactly one", tool, args, hits)
	}
	return hits[0]
}

// minimalExample builds the smallest instance a branch accepts: its required
// fields only, each with the least value its schema allows.
func minimalExample(t *testing.T, b Branch) map[string]any {
	t.Helper()
	out := map[string]any{}
	for _, r := range b.Required {
		var s map[string]any
		if err := json.Unmarshal(b.Schemas[r], &s); err != nil {
			t.Fatal(err)
		}
		out[r] = minimalValue(t, s)
	}
	return out
}

var stringSamples = map[string]string{
	`^\S+$`:                            "x",
	`\S`:                               "x",
	`^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$`: "en",
	`^tt[0-9]{5,12}$`:                  "tt0111161",
	`^[A-Z]{2}$`:                       "US",
	`^[A-Za-z0-9_-]{1,64}$`:            "log20260502",
}

func minimalValue(t *testing.T, s map[string]any) any {
	t.Helper()
	if c, ok := s["const"]; ok {
		return c
	}
	if e, ok := s["enum"].([]any); ok {
		return e[0]
	}
	if one, ok := s["oneOf"].([]any); ok {
		first := one[0].(map[string]any)
		req, _ := first["required"].([]any)
		props, _ := first["properties"].(map[string]any)
		out := map[string]any{}
		for _, r := range req {
			out[r.(string)] = minimalValue(t, props[r.(string)].(map[string]any))
		}
		return out
	}
	switch s["type"] {
	case "integer":
		if m, ok := s["minimum"].(float64); ok {
			return m
		}
		return 1
	case "boolean":
		return true
	case "string":
		if s["format"] == "date-time" {
			return "2026-01-01T00:00:00Z"
		}
		p, _ := s["pattern"].(string)
		v, ok := stringSamples[p]
		if !ok {
			t.Fatalf("no sample string for pattern %q", p)
		}
		return v
	case "array":
		n := 1
		if m, ok := s["minItems"].(float64); ok && m > 1 {
			n = int(m)
		}
		items, _ := s["items"].(map[string]any)
		var out []any
		for i := 0; i < n; i++ {
			out = append(out, minimalValue(t, items))
		}
		return out
	case "object":
		props, _ := s["properties"].(map[string]any)
		req, _ := s["required"].([]any)
		out := map[string]any{}
		for _, r := range req {
			out[r.(string)] = minimalValue(t, props[r.(string)].(map[string]any))
		}
		if len(out) == 0 {
			if min, ok := s["minProperties"].(float64); ok && min > 0 {
				out["hideRequestsUsers"] = true
			}
		}
		return out
	}
	t.Fatalf("no minimal value for schema %v", s)
	return nil
}

// TestBranches_minimalExamples builds one minimal example per strict branch
// (adding one anyOf alternative when a branch needs it) and checks that the
// strict schema routes it to that branch, that the projection accepts it, and
// that an extra property and a *_code twin are rejected by both.
func TestBranches_minimalExamples(t *testing.T) {
	v := newValidator(t)
	n := 0
	for tool, bs := range toolBranches(t) {
		for _, b := range bs {
			ex := minimalExample(t, b)
			if len(b.AnyOf) > 0 {
				extra := b.AnyOf[0][0]
				var s map[string]any
				_ = json.Unmarshal(b.Schemas[extra], &s)
				ex[extra] = minimalValue(t, s)
			}
			args, _ := json.Marshal(ex)
			n++
			t.Run(tool+"/"+b.Title, func(t *testing.T) {
				if err := v.ValidateInput(tool, args); err != nil {
					t.Fatalf("strict rejects %s: %v", args, err)
				}
				if got := branchOf(t, tool, string(args)); got != b.Title {
					t.Errorf("%s lands in %q, want %q", args, got, b.Title)
				}
				if err := v.ValidatePublished(tool, args); err != nil {
					t.Errorf("published rejects strict-valid %s: %v", args, err)
				}
				for _, bad := range []string{"unexpected_field", "status_code"} {
					m := map[string]any{}
					for k, x := range ex {
						m[k] = x
					}
					m[bad] = 1
					for kind, fn := range map[string]func(string, any) error{"strict": v.ValidateInput, "published": v.ValidatePublished} {
						err := fn(tool, m)
						var ve *ValidationError
						if !errors.As(err, &ve) {
							t.Errorf("%s schema accepts extra %q", kind, bad)
						} else if ve.Pointer != "/"+bad {
							t.Errorf("%s schema points at %q for extra %q", kind, ve.Pointer, bad)
						}
					}
				}
			})
		}
	}
	if n < 121 {
		t.Errorf("%d branches exercised, want at least 121", n)
	}
}

func TestInput_negatives(t *testing.T) {
	v := newValidator(t)
	tests := []struct {
		name, tool, args, pointer string
	}{
		{"whitespace query", "read_search", `{"action":"text","media":"movie","query":"   "}`, "/query"},
		{"album has no unavailable list", "read_requests", `{"action":"list","media":"album","status":"unavailable"}`, ""},
		{"int32 overflow", "read_media", `{"action":"streaming","media":"movie","tmdb_id":2147483648}`, ""},
		{"zero id", "write_retry_remove", `{"queue_id":0}`, "/queue_id"},
		{"empty episode list", "write_request_create", `{"action":"tv","provider":"tmdb","id":1,"selection":{"mode":"episodes","seasons":[{"season_number":1,"episodes":[]}]}}`, ""},
		{"tvdb has no language", "write_request_create", `{"action":"tv","provider":"tvdb","id":1,"selection":{"mode":"all"},"language":"en"}`, ""},
		{"album has no overrides", "write_request_create", `{"action":"album","musicbrainz_id":"x","root_folder_id":1}`, ""},
		{"reprocess 4k only for movie", "write_request_reprocess", `{"request_type":"tv","request_id":1,"is_4k":true}`, ""},
		{"deny needs reason", "write_request_moderate", `{"action":"deny","media":"tv","request_id":1}`, ""},
		{"advanced needs one override", "write_request_options", `{"action":"movie_advanced","request_id":1}`, ""},
		{"issue needs association", "write_issue_create", `{"title":"t","subject":"s","description":"d","category_id":1,"request_type":"movie"}`, ""},
		{"request_type code", "write_issue_create", `{"title":"t","subject":"s","description":"d","category_id":1,"request_type":1,"request_id":1}`, ""},
		{"company ids rejected", "read_discover", `{"action":"advanced_movie","company_ids":[1]}`, ""},
		{"decade multiple of ten", "read_discover", `{"action":"advanced_movie","decade":1995}`, ""},
		{"bad date-time", "read_server", `{"action":"stats","from":"yesterday","to":"2026-01-01T00:00:00Z"}`, ""},
		{"page limit cap", "read_search", `{"action":"text","media":"tv","query":"x","page":{"limit":101}}`, ""},
		{"radarr tags have no 4k", "read_integration", `{"action":"arr_options","service":"radarr","kind":"tags","is_4k":true}`, ""},
		{"unknown job", "write_job_run", `{"action":"run","job":"ArrAvailability"}`, ""},
		{"null change value", "write_settings_patch", `{"action":"patch","section":"ombi","revision":"r","changes":{"x":null}}`, ""},
		{"mobile tester excluded", "write_integration_test", `{"service":"mobile","profile_id":"p"}`, ""},
		{"imdb pattern", "read_media", `{"action":"details","target":{"media":"movie","provider":"imdb","id":"../etc"}}`, ""},
		{"empty recipients", "write_notification_send", `{"subject":"s","body":"b","user_ids":[]}`, ""},
		{"unknown season mode", "write_request_create", `{"action":"tv","provider":"tmdb","id":1,"selection":{"mode":"specials"}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := v.ValidateInput(tt.tool, []byte(tt.args))
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("strict accepts %s (err %v)", tt.args, err)
			}
			if tt.pointer != "" && ve.Pointer != tt.pointer {
				t.Errorf("pointer = %q, want %q (%s)", ve.Pointer, tt.pointer, ve.Message)
			}
		})
	}
}

var placeholder = regexp.MustCompile(`\{([^}]+)\}`)

func TestRoutes_ledger(t *testing.T) {
	routes := Routes()
	if len(routes) == 0 {
		t.Fatal("empty ledger")
	}
	perTool := map[string]int{}
	primary := map[string]bool{}
	for _, r := range routes {
		id := r.Method + " " + r.Path
		if _, ok := Lookup(r.Tool); !ok {
			t.Errorf("%s: tool %q is not in the catalogue", id, r.Tool)
			continue
		}
		perTool[r.Tool]++
		bs, _ := Branches(r.Tool)
		found := false
		for _, b := range bs {
			found = found || b.Title == r.Branch
		}
		if !found {
			t.Errorf("%s: %s has no branch %q", id, r.Tool, r.Branch)
		}
		if r.Purpose == PurposePrimary {
			primary[r.Tool+"/"+r.Branch] = true
		}
		if !contains([]string{"GET", "POST", "PUT", "DELETE"}, r.Method) {
			t.Errorf("%s: bad method", id)
		}
		if !contains([]string{PurposePrimary, PurposePrivateRead, PurposeFallback, PurposeGatedAlias}, r.Purpose) {
			t.Errorf("%s: bad purpose %q", id, r.Purpose)
		}
		if !contains([]string{"anon", "user", "power_user", "admin"}, r.Auth) {
			t.Errorf("%s: bad auth %q", id, r.Auth)
		}
		if !strings.HasPrefix(r.Path, "/api/v1/") && !strings.HasPrefix(r.Path, "/api/v2/") {
			t.Errorf("%s: path is not under /api/v1 or /api/v2", id)
		}
		var params []string
		for _, m := range placeholder.FindAllStringSubmatch(r.Path, -1) {
			params = append(params, m[1])
		}
		if !reflect.DeepEqual(params, r.PathParams) && !(len(params) == 0 && len(r.PathParams) == 0) {
			t.Errorf("%s: path_params %v, placeholders %v", id, r.PathParams, params)
		}
		if strings.Contains(r.Path, "availble") != (r.Purpose == PurposeGatedAlias) {
			t.Errorf("%s: movie/availble must appear only as gated_alias", id)
		}
		// a body the caller reads from Ombi and sends back whole is typed:
		// the model Ombi binds and its members, never an empty list
		if strings.HasPrefix(r.Note, "body: the saved") && (r.BodyModel == "" || len(r.Body) == 0) {
			t.Errorf("%s: a saved document's body names its model (body_model %q) and the model's members (%d)", id, r.BodyModel, len(r.Body))
		}
		if r.BodyModel != "" && len(r.Body) == 0 {
			t.Errorf("%s: body_model %s without its members", id, r.BodyModel)
		}
		if r.Method == "POST" && strings.HasPrefix(r.Path, "/api/v1/RequestRetry") {
			t.Errorf("%s: RequestRetry has no POST", id)
		}
		if strings.HasSuffix(r.Path, "/movie/all") || strings.Contains(r.Path, "/all/") {
			t.Errorf("%s: no all segment or delete-all route may be called", id)
		}
		if strings.Contains(strings.ToLower(r.Path), "/request/music") && !strings.HasPrefix(r.Path, "/api/v1/request/music") {
			t.Errorf("%s: music requests are spelled /api/v1/request/music", id)
		}
		if strings.HasPrefix(r.Path, "/api/v2/Requests/") && strings.Contains(r.Path, "{count}") &&
			!strings.HasSuffix(r.Path, "/{count}/{position}/RequestedDate/{sortOrder}") {
			t.Errorf("%s: v2 request lists end in {count}/{position}/RequestedDate/{sortOrder}", id)
		}
	}
	for _, tool := range Tools() {
		if perTool[tool.Name] == 0 {
			t.Errorf("%s has no route", tool.Name)
		}
		bs, _ := Branches(tool.Name)
		for _, b := range bs {
			if !primary[tool.Name+"/"+b.Title] {
				t.Errorf("%s/%s has no primary route", tool.Name, b.Title)
			}
		}
		if got := RoutesFor(tool.Name); len(got) != perTool[tool.Name] {
			t.Errorf("RoutesFor(%s) = %d routes, want %d", tool.Name, len(got), perTool[tool.Name])
		}
	}
}

func TestRoutes_required(t *testing.T) {
	want := []struct{ tool, method, path, purpose string }{
		{"read_requests", "GET", "/api/v2/Requests/movie/{count}/{position}/RequestedDate/{sortOrder}", PurposePrimary},
		{"read_requests", "GET", "/api/v2/Requests/tv/unavailable/{count}/{position}/RequestedDate/{sortOrder}", PurposePrimary},
		{"read_requests", "GET", "/api/v2/Requests/album/denied/{count}/{position}/RequestedDate/{sortOrder}", PurposePrimary},
		{"read_requests", "GET", "/api/v2/Requests/movie/availble/{count}/{position}/RequestedDate/{sortOrder}", PurposeGatedAlias},
		{"read_requests", "GET", "/api/v1/request/music/search/{searchTerm}", PurposePrimary},
		{"read_requests", "GET", "/api/v1/Request/tv", PurposeFallback},
		{"read_media", "GET", "/api/v1/Request/tv", PurposePrivateRead},
		{"write_request_create", "GET", "/api/v2/Search/tv/moviedb/{moviedbid}", PurposePrivateRead},
		{"write_request_create", "GET", "/api/v1/Search/tv/info/{tvdbId}", PurposePrivateRead},
		{"write_settings_patch", "GET", "/api/v1/Settings/ombi", PurposePrivateRead},
		{"write_notification_send", "GET", "/api/v1/Identity/Users", PurposePrivateRead},
		{"write_job_run", "POST", "/api/v1/Job/arrAvailability", PurposePrimary},
		{"write_retry_remove", "DELETE", "/api/v1/RequestRetry/{queueId}", PurposePrimary},
	}
	for _, w := range want {
		found := false
		for _, r := range RoutesFor(w.tool) {
			if r.Method == w.method && r.Path == w.path && r.Purpose == w.purpose {
				found = true
			}
		}
		if !found {
			t.Errorf("ledger lacks %s %s %s (%s)", w.tool, w.method, w.path, w.purpose)
		}
	}
}

func TestEnums(t *testing.T) {
	e := Enums()
	tests := []struct {
		enum  string
		label string
		code  int
	}{
		{EnumRequestType, "movie", 1}, {EnumRequestType, "tv", 0}, {EnumRequestType, "album", 2},
		{"T2", "closed", 3}, {EnumIssueStatus, "in_progress", 1},
		{EnumNotificationAgent, "email", 0}, {EnumNotificationAgent, "ntfy", 11}, {EnumNotificationAgent, "whatsapp", 10},
		{EnumNotificationType, "new_request", 0}, {EnumNotificationType, "issue_deleted", 16}, {EnumNotificationType, "plex_watchlist_token_expired", 13},
	}
	for _, tt := range tests {
		if c, ok := e.Code(tt.enum, tt.label); !ok || c != tt.code {
			t.Errorf("Code(%s, %s) = %d, %v; want %d", tt.enum, tt.label, c, ok, tt.code)
		}
		if l, ok := e.Label(tt.enum, tt.code); !ok || l != tt.label {
			t.Errorf("Label(%s, %d) = %q, %v; want %q", tt.enum, tt.code, l, ok, tt.label)
		}
	}
	if _, ok := e.Label(EnumIssueStatus, 4); ok {
		t.Error("Label maps an unmapped code")
	}
	if _, ok := e.Code("vote_type", "up"); ok {
		t.Error("Code maps a numeric-only enum")
	}
	for _, c := range []struct {
		enum string
		n    int
	}{{"T1", 3}, {"T2", 4}, {"T3", 12}, {"T4", 17}} {
		en, ok := e.Lookup(c.enum)
		if !ok || len(en.Values) != c.n {
			t.Errorf("%s has %d values, want %d", c.enum, len(en.Values), c.n)
			continue
		}
		codes := map[int]bool{}
		labels := map[string]bool{}
		for _, v := range en.Values {
			if v.Code < 0 || v.Code >= c.n || codes[v.Code] || labels[v.Label] {
				t.Errorf("%s: code %d / label %q is out of range or repeated", c.enum, v.Code, v.Label)
			}
			codes[v.Code], labels[v.Label] = true, true
		}
	}
	if len(e.NumericOnly) == 0 {
		t.Error("no numeric-only gaps listed")
	}
}

var envelopeCodes = []string{"INVALID_ARGUMENT", "AUTHENTICATION_FAILED", "FORBIDDEN", "NOT_FOUND", "UNSUPPORTED_CAPABILITY",
	"UPSTREAM_REJECTED", "RATE_LIMITED", "TIMEOUT", "UNKNOWN_OUTCOME", "CONFLICT", "PARTIAL_FAILURE", "UPSTREAM_SCHEMA_MISMATCH", "INTERNAL_ERROR"}

func TestRuntimeRules(t *testing.T) {
	rules := RuntimeRules()
	ids := map[string]bool{}
	for _, r := range rules {
		if ids[r.ID] || !strings.HasPrefix(r.ID, "RT-") {
			t.Errorf("rule id %q is repeated or malformed", r.ID)
		}
		ids[r.ID] = true
		if r.Rule == "" || r.Source == "" || !contains(envelopeCodes, r.Error) {
			t.Errorf("%s: empty rule/source or unknown error %q", r.ID, r.Error)
		}
		for _, tool := range r.Tools {
			if _, ok := Lookup(tool); !ok {
				t.Errorf("%s: unknown tool %q", r.ID, tool)
			}
		}
		for _, br := range r.Branches {
			found := false
			for _, tool := range r.Tools {
				bs, _ := Branches(tool)
				for _, b := range bs {
					found = found || b.Title == br
				}
			}
			if !found {
				t.Errorf("%s: branch %q is in none of %v", r.ID, br, r.Tools)
			}
		}
	}
	for _, id := range []string{"RT-EPISODE-CAP", "RT-SEASON-DUPLICATE", "RT-EPISODE-DUPLICATE", "RT-STATS-ORDER", "RT-STATS-DATETIME",
		"RT-DECADE-YEAR", "RT-TEXT-NONBLANK", "RT-ALIAS-JWT", "RT-REPROCESS-ALBUM", "RT-REPROCESS-4K-MOVIE", "RT-SEASON-UNKNOWN"} {
		if !ids[id] {
			t.Errorf("rule %s missing", id)
		}
	}
}

// TestRuntimeRules_notInSchema proves the runtime-only rules are not faked in
// JSON Schema: inputs that break them still pass the strict schema.
func TestRuntimeRules_notInSchema(t *testing.T) {
	v := newValidator(t)
	tests := []struct{ rule, tool, args string }{
		{"RT-SEASON-DUPLICATE", "write_request_create", `{"action":"tv","provider":"tmdb","id":1,"selection":{"mode":"episodes","seasons":[{"season_number":1,"episodes":[1]},{"season_number":1,"episodes":[2]}]}}`},
		{"RT-STATS-ORDER", "read_server", `{"action":"stats","from":"2026-02-01T00:00:00Z","to":"2026-01-01T00:00:00Z"}`},
		{"RT-DECADE-YEAR", "read_discover", `{"action":"advanced_movie","decade":1990,"release_year":2005}`},
		{"RT-REPROCESS-ALBUM", "write_request_reprocess", `{"request_type":"album","request_id":1}`},
	}
	for _, tt := range tests {
		if err := v.ValidateInput(tt.tool, []byte(tt.args)); err != nil {
			t.Errorf("%s: schema rejects an input only the runtime rule should reject: %v", tt.rule, err)
		}
	}
}

func TestCheckPortable(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"portable", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"integer"}]}},"required":["a"],"additionalProperties":false}`, nil},
		{"root oneOf", `{"type":"object","properties":{},"additionalProperties":false,"oneOf":[{}]}`, []string{"root carries oneOf"}},
		{"nested ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"additionalProperties":false,"$defs":{"x":{}}}`, []string{"root carries $defs", "/properties/a carries $ref"}},
		{"open root", `{"type":"object","properties":{}}`, []string{"root additionalProperties is not false"}},
		{"undeclared required", `{"type":"object","properties":{},"required":["x"],"additionalProperties":false}`, []string{`required "x" is not a declared property`}},
		{"not an object", `{"type":"string","properties":{},"additionalProperties":false,"if":{}}`, []string{`root type is string, want "object"`, "root carries if"}},
		{"dependent rules", `{"type":"object","properties":{"a":{},"b":{}},"additionalProperties":false,"dependentRequired":{"a":["b"]},"dependentSchemas":{"a":{"properties":{"b":{"enum":["x"]}}}}}`, nil},
		{"conditional under dependentSchemas", `{"type":"object","properties":{"a":{}},"additionalProperties":false,"dependentSchemas":{"a":{"if":{},"then":{},"oneOf":[{}]}}}`, []string{"/dependentSchemas/a carries oneOf", "/dependentSchemas/a carries if", "/dependentSchemas/a carries then"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CheckPortable(json.RawMessage(tt.in))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("CheckPortable = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestProject(t *testing.T) {
	strict := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"id":{"type":"integer","minimum":1}},"oneOf":[
	  {"title":"a","type":"object","properties":{"action":{"const":"a"},"media":{"const":"movie"},"id":{"$ref":"#/$defs/id","description":"x"}},"required":["action","media","id"],"additionalProperties":false},
	  {"title":"b","type":"object","properties":{"action":{"const":"b"},"media":{"type":"string","enum":["tv","movie"]},"id":{"type":"string"}},"required":["action","id"],"additionalProperties":false}]}`
	// no $schema (MCP's default dialect) and no title: the model reads every byte
	want := `{"type":"object","additionalProperties":false,"required":["action","id"],
	  "properties":{"action":{"type":"string","enum":["a","b"]},"media":{"type":"string","enum":["movie","tv"]},
	  "id":{"anyOf":[{"type":"integer","minimum":1,"description":"x"},{"type":"string"}]}}}`
	got, err := Project(json.RawMessage(strict))
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	_ = json.Unmarshal(got, &g)
	_ = json.Unmarshal([]byte(want), &w)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("Project = %s\nwant %s", got, want)
	}
	refBranch := `{"$defs":{"b":{"title":"b","type":"object","properties":{"x":{"type":"integer"}},"required":["x"],"additionalProperties":false}},"type":"object","oneOf":[{"$ref":"#/$defs/b"}]}`
	got, err = Project(json.RawMessage(refBranch))
	if err != nil {
		t.Fatal(err)
	}
	if v := CheckPortable(got); len(v) > 0 || !strings.Contains(string(got), `"x":{"type":"integer"}`) {
		t.Errorf("Project of a $ref branch = %s (violations %v)", got, v)
	}
	if _, err := Project(json.RawMessage(`{"type":"object","anyOf":[{}]}`)); err == nil {
		t.Error("Project accepts a root anyOf")
	}
	if _, err := Project(json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`)); err == nil {
		t.Error("Project accepts a dangling $ref")
	}
}

// TestOutputSchemas_size reports what tools/list carries for all 31 composed
// output schemas next to the unpruned composition.
func TestOutputSchemas_size(t *testing.T) {
	pruned, unpruned := outputSizes(t)
	if pruned >= unpruned {
		t.Errorf("pruned output schemas (%d bytes) are not smaller than unpruned (%d bytes)", pruned, unpruned)
	}
	t.Logf("31 composed output schemas: %d bytes pruned, %d bytes unpruned (%.0f%%)", pruned, unpruned, 100*float64(pruned)/float64(unpruned))
}

func outputSizes(t testing.TB) (pruned, unpruned int) {
	t.Helper()
	for _, tool := range Tools() {
		p, err := OutputSchema(tool.Name)
		if err != nil {
			t.Fatal(err)
		}
		u, err := UnprunedOutputSchema(tool.Name)
		if err != nil {
			t.Fatal(err)
		}
		pruned += len(p)
		unpruned += len(u)
	}
	return pruned, unpruned
}

func TestInputEnum(t *testing.T) {
	tests := []struct {
		tool, property string
		want           int // enum length; 0 = an error
	}{
		{"write_job_run", "job", 14},
		{"write_job_run", "no_such_property", 0},
		{"write_job_run", "action", 2},
		{"no_such_tool", "job", 0},
	}
	for _, tt := range tests {
		t.Run(tt.tool+"."+tt.property, func(t *testing.T) {
			got, err := InputEnum(tt.tool, tt.property)
			if tt.want == 0 {
				if err == nil {
					t.Fatalf("InputEnum = %q, want an error", got)
				}
				return
			}
			if err != nil || len(got) != tt.want {
				t.Fatalf("InputEnum = %q, %v; want %d values", got, err, tt.want)
			}
		})
	}
}

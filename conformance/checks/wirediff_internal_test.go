package checks

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// TestLineDiff: the shortest edit, removals before additions, kept lines
// farther than the context from a change cut to one "…".
func TestLineDiff(t *testing.T) {
	tests := []struct {
		name    string
		a, b    []string
		context int
		want    []string
	}{
		{"a line changed", []string{"x", "y", "z"}, []string{"x", "Y", "z"}, 1, []string{"  x", "- y", "+ Y", "  z"}},
		{"a line added", []string{"x", "z"}, []string{"x", "y", "z"}, 1, []string{"  x", "+ y", "  z"}},
		{"a line removed", []string{"x", "y", "z"}, []string{"x", "z"}, 1, []string{"  x", "- y", "  z"}},
		{"nothing sent", []string{"x"}, nil, 1, []string{"- x"}},
		{"far context cut", []string{"1", "2", "3", "4", "5", "6"}, []string{"1", "2", "3", "4", "5", "7"}, 1, []string{"  …", "  5", "- 6", "+ 7"}},
		{"two changes apart", []string{"a", "1", "2", "3", "4", "b"}, []string{"A", "1", "2", "3", "4", "B"}, 1,
			[]string{"- a", "+ A", "  1", "  …", "  4", "- b", "+ B"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lineDiff(tt.a, tt.b, tt.context); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("lineDiff = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestBodyDiff: bodies compare as indented JSON with sorted members, so
// only the members that differ are marked; a "${any}" the body wants
// shows the value sent, which it matches.
func TestBodyDiff(t *testing.T) {
	tests := []struct {
		name, want, got string
		diff            string
	}{
		{"a member differs", `{"b":2,"a":1}`, `{"a":1,"b":3}`,
			"diff (- want, + got):\n    {\n      \"a\": 1,\n  -   \"b\": 2\n  +   \"b\": 3\n    }"},
		{"a wildcard matches", `{"id":"${any}","n":1}`, `{"n":2,"id":42}`,
			"diff (- want, + got):\n    {\n      \"id\": 42,\n  -   \"n\": 1\n  +   \"n\": 2\n    }"},
		{"no body sent", `{"a":1}`, ``,
			"diff (- want, + got):\n  - {\n  -   \"a\": 1\n  - }\n  + (no body)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := bodyDiff([]byte(tt.want), []byte(tt.got), ""); got != tt.diff {
				t.Errorf("bodyDiff =\n%s\nwant\n%s", got, tt.diff)
			}
		})
	}
}

// TestExactCalls_diff: a wire-exact step that gets fewer calls than it
// wants shows the calls wanted and sent, bodies indented, and their diff;
// a body that differs shows its diff.
func TestExactCalls_diff(t *testing.T) {
	want := []exactCall{
		{Method: "GET", Path: "/api/v1/Request/movie", Query: map[string][]string{"count": {"10"}}},
		{Method: "POST", Path: "/api/v1/Request/movie", Body: json.RawMessage(`{"theMovieDbId":603,"is4kRequest":false}`)},
	}
	got := []mockombi.Call{{Method: "GET", Path: "/api/v1/Request/movie", Query: "count=10"}}
	var e errs
	exactCalls(&e, want, got)
	wantMsg := strings.Join([]string{
		"want exactly 2 upstream calls, got 1:",
		"      want:",
		"        GET /api/v1/Request/movie?count=10",
		"        POST /api/v1/Request/movie",
		"          {",
		`            "is4kRequest": false,`,
		`            "theMovieDbId": 603`,
		"          }",
		"      got:",
		"        GET /api/v1/Request/movie?count=10",
		"      diff (- want, + got):",
		"          GET /api/v1/Request/movie?count=10",
		"        - POST /api/v1/Request/movie",
		"        -   {",
		`        -     "is4kRequest": false,`,
		`        -     "theMovieDbId": 603`,
		"        -   }",
	}, "\n")
	if len(e) != 1 || e[0] != wantMsg {
		t.Errorf("got %q\nwant %q", []string(e), wantMsg)
	}

	e = nil
	sent := []mockombi.Call{got[0], {Method: "POST", Path: "/api/v1/Request/movie", Body: json.RawMessage(`{"theMovieDbId":603,"is4kRequest":true}`)}}
	exactCalls(&e, want, sent)
	if len(e) != 1 || !strings.HasSuffix(e[0], "diff (- want, + got):\n          {\n        -   \"is4kRequest\": false,\n        +   \"is4kRequest\": true,\n            \"theMovieDbId\": 603\n          }") {
		t.Errorf("a body that differs: got %q", []string(e))
	}
}

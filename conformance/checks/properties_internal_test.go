package checks

import (
	"encoding/base64"
	"encoding/json"
	"path"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ombi-mcp/ombi-mcp/conformance/gen"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/mockombi"
)

// outcome builds an Outcome around an envelope JSON text.
func outcome(t *testing.T, env string) *harness.Outcome {
	t.Helper()
	o := &harness.Outcome{Result: &mcp.CallToolResult{}, Structured: json.RawMessage(env), Text: env}
	var e harness.Envelope
	if err := json.Unmarshal([]byte(env), &e); err != nil {
		t.Fatal(err)
	}
	o.Envelope = &e
	o.Result.IsError = !e.OK
	return o
}

func TestBudgetBreach(t *testing.T) {
	long := `"` + strings.Repeat("x", 70<<10) + `"`
	items := func(n int) string {
		s := make([]string, n)
		for i := range s {
			s[i] = `{"title":"t"}`
		}
		return "[" + strings.Join(s, ",") + "]"
	}
	cut := gen.MarkerHead("s0") + "lorem"
	tests := []struct {
		name  string
		env   string
		infl  gen.Inflated
		wants string // "" = no breach, else a fragment of the breach
	}{
		{"small ok", `{"ok":true,"data":{"items":[]},"warnings":[],"truncated":false}`, gen.Inflated{}, ""},
		{"over 64 KiB", `{"ok":true,"data":{"x":` + long + `},"warnings":[],"truncated":false}`, gen.Inflated{}, "over the 65536-byte budget"},
		{"101 records", `{"ok":true,"data":{"items":` + items(101) + `},"warnings":[],"truncated":false}`, gen.Inflated{}, "over its cap of 100"},
		{"500 log lines", `{"ok":true,"data":{"lines":["a","b"]},"warnings":[],"truncated":false}`, gen.Inflated{}, ""},
		{"truncated without warning", `{"ok":true,"data":{},"warnings":[],"truncated":true}`, gen.Inflated{}, "no warning"},
		{"cut string unflagged", `{"ok":true,"data":{"o":"` + cut + `"},"warnings":[],"truncated":false}`, gen.Inflated{Markers: []string{"s0"}}, "was cut"},
		{"cut string flagged", `{"ok":true,"data":{"o":"` + cut + `"},"warnings":["cut"],"truncated":true}`, gen.Inflated{Markers: []string{"s0"}}, ""},
		{"returned over limit", `{"ok":true,"data":{"items":` + items(30) + `,"page":{"offset":0,"limit":25,"returned":30,"total":null,"has_more":null,"next_offset":null}},"warnings":[],"truncated":false}`, gen.Inflated{}, "exceeds page.limit"},
		{"false continuation", `{"ok":true,"data":{"items":[],"page":{"offset":0,"limit":25,"returned":0,"total":null,"has_more":false,"next_offset":25}},"warnings":[],"truncated":false}`, gen.Inflated{}, "next_offset"},
		{"total below returned", `{"ok":true,"data":{"items":` + items(3) + `,"page":{"offset":0,"limit":25,"returned":3,"total":2,"has_more":false,"next_offset":null}},"warnings":[],"truncated":false}`, gen.Inflated{}, "page.total"},
		{"offset past the end", `{"ok":true,"data":{"items":[],"page":{"offset":50,"limit":25,"returned":0,"total":0,"has_more":false,"next_offset":null}},"warnings":[],"truncated":false}`, gen.Inflated{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := budgetBreach(outcome(t, tt.env), tt.infl)
			if (tt.wants == "") != (got == "") || !strings.Contains(got, tt.wants) {
				t.Errorf("budgetBreach = %q, want %q", got, tt.wants)
			}
		})
	}
}

func TestFaultBreach(t *testing.T) {
	retry := mockombi.Fault{Status: 429, Headers: map[string]string{"Retry-After": "7"}}
	tests := []struct {
		name     string
		env      string
		kind     string
		fault    mockombi.Fault
		mutating bool
		write    bool
		wants    string
	}{
		{"read 500", `{"ok":false,"error":{"code":"UPSTREAM_REJECTED","message":"m","retryable":true},"warnings":[],"truncated":false}`, "5xx", mockombi.Fault{Status: 500}, false, false, ""},
		{"read 500 not retryable", `{"ok":false,"error":{"code":"UPSTREAM_REJECTED","message":"m","retryable":false},"warnings":[],"truncated":false}`, "5xx", mockombi.Fault{Status: 500}, false, false, "retryable"},
		{"write timeout", `{"ok":false,"error":{"code":"UNKNOWN_OUTCOME","message":"m","retryable":false},"warnings":[],"truncated":false}`, "timeout", mockombi.Fault{}, true, true, ""},
		{"write timeout as TIMEOUT", `{"ok":false,"error":{"code":"TIMEOUT","message":"m","retryable":true},"warnings":[],"truncated":false}`, "timeout", mockombi.Fault{}, true, true, "want UNKNOWN_OUTCOME"},
		{"429 seconds", `{"ok":false,"error":{"code":"RATE_LIMITED","message":"m","retryable":true,"retry_after_seconds":7},"warnings":[],"truncated":false}`, "429", retry, false, false, ""},
		{"429 without seconds", `{"ok":false,"error":{"code":"RATE_LIMITED","message":"m","retryable":true},"warnings":[],"truncated":false}`, "429", retry, false, false, "retry_after_seconds"},
		{"html forwarded", `{"ok":false,"error":{"code":"NOT_FOUND","message":"<html>nginx</html>","retryable":false},"warnings":[],"truncated":false}`, "404", mockombi.Fault{Status: 404, Kind: "html"}, false, false, "forwards"},
		{"401 as success", `{"ok":true,"data":{},"warnings":[],"truncated":false}`, "401", mockombi.Fault{Status: 401}, false, false, "success"},
		{"empty read ok", `{"ok":true,"data":{},"warnings":[],"truncated":false}`, "empty", mockombi.Fault{Kind: "empty"}, false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := faultBreach(outcome(t, tt.env), tt.kind, tt.fault, expectFor(tt.kind, tt.mutating, tt.write), tt.mutating)
			if (tt.wants == "") != (got == "") || !strings.Contains(got, tt.wants) {
				t.Errorf("faultBreach = %q, want %q", got, tt.wants)
			}
		})
	}
}

func TestFindSecret(t *testing.T) {
	const v = "CANARY-x-0123456789ab"
	secrets := []secret{{"canary x", v}}
	tests := []struct {
		name string
		text string
		want bool
	}{
		{"raw", "a " + v + " b", true},
		{"base64", base64.StdEncoding.EncodeToString([]byte(v)), true},
		{"inside JSON", `{"message":"` + v + `@mail.example"}`, true},
		{"absent", "CANARY-x-", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, excerpt, got := findSecret(secrets, [][2]string{{"text", tt.text}})
			if got != tt.want {
				t.Fatalf("findSecret = %v, want %v", got, tt.want)
			}
			if got && !strings.Contains(excerpt, "»") {
				t.Errorf("excerpt %q does not highlight the secret", excerpt)
			}
		})
	}
}

func TestFallbackServed(t *testing.T) {
	call := func(m, p string) []mockombi.Call { return []mockombi.Call{{Method: m, Path: p}} }
	if !fallbackServed("read_media", call("GET", "/api/v1/Search/tv/Breaking%20Bad")) {
		t.Error("the v1 TV search is read_media's documented fallback")
	}
	if fallbackServed("read_media", call("GET", "/api/v2/Search/ratings/tv/Breaking%20Bad/2008")) {
		t.Error("the primary ratings route is not a fallback")
	}
	if fallbackServed("read_search", call("GET", "/api/v1/Search/tv/Alien")) {
		t.Error("read_search has no fallback route")
	}
}

func TestGlobEscape(t *testing.T) {
	for _, p := range []string{"/api/v1/Search/movie/a*b", "/api/v1/Search/movie/what%3F", "/x/[1]"} {
		g := globEscape(p)
		if ok, err := path.Match(g, p); err != nil || !ok {
			t.Errorf("glob %q does not match its own path %q (%v)", g, p, err)
		}
		if ok, _ := path.Match(g, p+"x"); ok {
			t.Errorf("glob %q matches another path", g)
		}
	}
}

func TestRapidSeed(t *testing.T) {
	a, b := rapidSeed(1, "X.read_search"), rapidSeed(1, "X.read_media")
	if a == b || a != rapidSeed(1, "X.read_search") || a == rapidSeed(2, "X.read_search") {
		t.Errorf("seeds must be stable per run seed and check id and differ otherwise: %d %d", a, b)
	}
}

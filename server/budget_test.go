package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

func mediaItems(n int, overview string, credits int) []mediaRecord {
	items := make([]mediaRecord, n)
	for i := range items {
		items[i] = mediaRecord{Media: "movie", Identifiers: ids(nsTMDB, "1"), Title: "t", Overview: overview}
		for j := 0; j < credits; j++ {
			items[i].Credits = append(items[i].Credits, credit{Name: strings.Repeat("n", 40), Role: strings.Repeat("r", 40)})
		}
	}
	return items
}

// TestFit_budget: every result fits 64 KiB and its schema; anything cut is
// flagged; paging stays truthful.
func TestFit_budget(t *testing.T) {
	v, err := spec.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		data          any
		tool          string
		wantTruncated bool
		check         func(t *testing.T, data map[string]any)
	}{
		{
			name: "small result untouched", tool: "read_search",
			data: newMediaPage(mediaItems(3, "short", 1), localPage3()),
			check: func(t *testing.T, d map[string]any) {
				if n := len(d["items"].([]any)); n != 3 {
					t.Fatalf("items = %d", n)
				}
			},
		},
		{
			name: "long strings shortened", tool: "read_search", wantTruncated: true,
			data: newMediaPage(mediaItems(20, strings.Repeat("x", 200000), 0), localPage3()),
			check: func(t *testing.T, d map[string]any) {
				if n := len(d["items"].([]any)); n != 20 {
					t.Fatalf("items = %d, want all 20 kept with shorter text", n)
				}
			},
		},
		{
			name: "records dropped with truthful page", tool: "read_search", wantTruncated: true,
			data: newMediaPage(mediaItems(100, strings.Repeat("o", 900), 40), paging{Offset: 200, Limit: 100, Returned: 100, Mode: modeUpstream, Unit: unitMedia}),
			check: func(t *testing.T, d map[string]any) {
				items := d["items"].([]any)
				page := d["page"].(map[string]any)
				ret, _ := number(page["returned"])
				next, _ := number(page["next_offset"])
				if len(items) >= 100 || ret != len(items) || page["has_more"] != true || next != 200+len(items) || page["total"] != nil {
					t.Fatalf("items=%d page=%v", len(items), page)
				}
			},
		},
		{
			name: "log lines capped", tool: "read_logs", wantTruncated: true,
			data: map[string]any{"kind": "logs", "lines": make([]string, 2000), "offset": 0, "next_offset": nil, "truncated": false},
			check: func(t *testing.T, d map[string]any) {
				if n := len(d["lines"].([]any)); n > maxLogLines {
					t.Fatalf("lines = %d", n)
				}
				if d["truncated"] != true {
					t.Fatal("logs.truncated not set")
				}
			},
		},
		{
			name: "nested episodes capped and season flagged", tool: "read_media", wantTruncated: true,
			data: newMediaPage([]mediaRecord{{Media: "tv", Identifiers: ids(nsTVDB, "1"), Seasons: []season{{SeasonNumber: 1, Episodes: make([]episode, 300)}}}}, singlePage(1, unitMedia)),
			check: func(t *testing.T, d map[string]any) {
				s := d["items"].([]any)[0].(map[string]any)["seasons"].([]any)[0].(map[string]any)
				if len(s["episodes"].([]any)) != maxNested || s["truncated"] != true {
					t.Fatalf("season = %d episodes, truncated=%v", len(s["episodes"].([]any)), s["truncated"])
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := success(tt.tool, tt.data, nil)
			out := fit(env)
			if len(out) > maxResultBytes {
				t.Fatalf("result is %d bytes", len(out))
			}
			if err := v.ValidateOutput(tt.tool, out); err != nil {
				t.Fatalf("result violates outputSchema: %v", err)
			}
			var got envelope
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if got.Truncated != tt.wantTruncated || (tt.wantTruncated && len(got.Warnings) == 0) || (!tt.wantTruncated && len(got.Warnings) != 0) {
				t.Fatalf("truncated=%v warnings=%v", got.Truncated, got.Warnings)
			}
			if !got.OK {
				t.Fatalf("result became an error: %s", out)
			}
			tt.check(t, got.Data.(map[string]any))
		})
	}
}

func localPage3() paging {
	_, pg := localPage(make([]int, 3), nil, true, unitMedia)
	return pg
}

func TestFit_warningsBounded(t *testing.T) {
	var ws []string
	for i := 0; i < 500; i++ {
		ws = append(ws, strings.Repeat("w", 5000))
	}
	out := fit(failure("read_search", &envelopeError{Code: codeNotFound, Message: "m"}, ws))
	var got envelope
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Warnings) != maxWarnings || len(out) > maxResultBytes {
		t.Fatalf("warnings=%d bytes=%d", len(got.Warnings), len(out))
	}
}

func TestLocalPage(t *testing.T) {
	all := []int{0, 1, 2, 3, 4}
	tests := []struct {
		name                string
		offset, limit       int
		complete            bool
		wantReturned        int
		wantTotal, wantNext *int
		wantMore            *bool
	}{
		{"complete first window", 0, 2, true, 2, ptr(5), ptr(2), ptr(true)},
		{"complete last window", 4, 2, true, 1, ptr(5), nil, ptr(false)},
		{"complete beyond end", 9, 2, true, 0, ptr(5), nil, ptr(false)},
		{"bounded fetch with more fetched", 0, 2, false, 2, nil, ptr(2), ptr(true)},
		{"bounded fetch exhausted: unknown", 3, 5, false, 2, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, pg := localPage(all, &pageArg{Offset: &tt.offset, Limit: &tt.limit}, tt.complete, unitMedia)
			if len(w) != tt.wantReturned || pg.Returned != tt.wantReturned || pg.Mode != modeLocal ||
				!eqPtr(pg.Total, tt.wantTotal) || !eqPtr(pg.NextOffset, tt.wantNext) || !eqPtr(pg.HasMore, tt.wantMore) {
				t.Fatalf("window=%v page=%+v", w, pg)
			}
		})
	}
}

func eqPtr[T comparable](a, b *T) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

func TestUpstreamPage(t *testing.T) {
	if pg := upstreamPage(50, 25, 25, unitMedia); pg.NextOffset == nil || *pg.NextOffset != 75 || pg.Total != nil || pg.HasMore != nil {
		t.Fatalf("full window page = %+v", pg)
	}
	if pg := upstreamPage(50, 25, 10, unitMedia); pg.NextOffset != nil || pg.HasMore != nil {
		t.Fatalf("short window page = %+v: no continuation may be claimed", pg)
	}
}

// TestDropRecords_sizeArithmetic: an envelope with the first n records
// serialises to the envelope with none plus each record once and n-1
// commas, the sum dropRecords searches with.
func TestDropRecords_sizeArithmetic(t *testing.T) {
	g, err := generic(newMediaPage(mediaItems(12, "overview <with> & \u2028 text", 3), localPage3()))
	if err != nil {
		t.Fatal(err)
	}
	obj := g.(map[string]any)
	env := success("read_search", obj, nil)
	items := obj["items"].([]any)
	obj["items"] = items[:0]
	base := len(mustMarshal(env))
	sum := 0
	for n := 1; n <= len(items); n++ {
		sum += len(mustMarshal(items[n-1]))
		obj["items"] = items[:n]
		if got, want := base+sum+n-1, len(mustMarshal(env)); got != want {
			t.Fatalf("n=%d: arithmetic says %d bytes, json.Marshal %d", n, got, want)
		}
	}
}

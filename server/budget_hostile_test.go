package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// TestFit_hostileData: whatever the data holds, fit's result is one JSON
// envelope within the byte budget (S-RESULTS-0108) with every list and the
// warnings within their caps, truncated set where a record list was cut
// (S-RESULTS-0109), no control, escape or bidi character in any string
// or member name, and only valid identifiers and *_id values (S-RESULTS-0111).
func TestFit_hostileData(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		data := drawHostileData(t)
		warnings := rapid.SliceOfN(hostileText(), 0, 3).Draw(t, "warnings")
		switch rapid.IntRange(0, 9).Draw(t, "warnings past the caps") {
		case 0:
			warnings = make([]string, maxWarnings+1)
		case 1:
			warnings = append(warnings, strings.Repeat("w", maxWarningLen+1))
		}
		overCap := false
		if g, err := generic(data); err == nil {
			if obj, ok := g.(map[string]any); ok {
				items, _ := obj["items"].([]any)
				overCap = len(items) > maxRecords
			}
		}
		out := fit(success("read_search", data, warnings))
		if len(out) > maxResultBytes {
			t.Fatalf("%d bytes, over the %d byte budget", len(out), maxResultBytes)
		}
		var env struct {
			OK        bool     `json:"ok"`
			Data      any      `json:"data"`
			Warnings  []string `json:"warnings"`
			Truncated bool     `json:"truncated"`
		}
		dec := json.NewDecoder(bytes.NewReader(out))
		dec.UseNumber()
		if err := dec.Decode(&env); err != nil || !env.OK {
			t.Fatalf("not a successful envelope (%v): %s", err, out)
		}
		if overCap && !env.Truncated {
			t.Fatalf("more than %d records, and truncated is not set: %s", maxRecords, out)
		}
		if len(env.Warnings) > maxWarnings {
			t.Fatalf("%d warnings, over the cap of %d", len(env.Warnings), maxWarnings)
		}
		for _, w := range env.Warnings {
			if utf8.RuneCountInString(w) > maxWarningLen {
				t.Fatalf("a warning of %d characters, over %d", utf8.RuneCountInString(w), maxWarningLen)
			}
		}
		walkStrings(append([]any{env.Data}, anys(env.Warnings)...), func(s string) {
			if i := strings.IndexFunc(s, forbiddenRune); i >= 0 {
				t.Fatalf("string %q keeps a forbidden character at %d", s, i)
			}
		})
		_, object := env.Data.(map[string]any) // the caps apply to a result object, as every family is
		checkIDsAndCaps(t, env.Data, object)
	})
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// checkIDsAndCaps fails t where v, a decoded result's data, holds an
// invalid identifier or an invalid *_id value, or, when capped, a list
// over the caps (the record and the nested cap are both 100).
func checkIDsAndCaps(t *rapid.T, v any, capped bool) {
	switch x := v.(type) {
	case []any:
		if capped && len(x) > min(maxRecords, maxNested) {
			t.Fatalf("a list of %d entries, over the caps", len(x))
		}
		for _, e := range x {
			checkIDsAndCaps(t, e, capped)
		}
	case map[string]any:
		for k, e := range x {
			switch {
			case k == "identifiers":
				list, _ := e.([]any)
				for _, id := range list {
					m, _ := id.(map[string]any)
					ns, _ := m["namespace"].(string)
					val, _ := m["value"].(string)
					if !validIdentifier(ns, val) {
						t.Fatalf("invalid identifier %v kept", id)
					}
				}
			case strings.HasSuffix(k, "_id") && !validIDField(e):
				t.Fatalf("invalid %s %v kept", k, e)
			}
			checkIDsAndCaps(t, e, capped)
		}
	}
}

// hostileRecord is a result record with every member hygiene and the caps
// treat specially: *_id fields of both kinds, identifiers, a nested
// truncated flag, free maps and long lists.
type hostileRecord struct {
	Title       string          `json:"title"`
	RequestID   *int            `json:"request_id,omitempty"`
	UserID      string          `json:"user_id,omitempty"`
	Identifiers []identifier    `json:"identifiers"`
	Extra       map[string]any  `json:"extra,omitempty"`
	Children    []hostileRecord `json:"children,omitempty"`
	Score       float64         `json:"score"`
	Tags        []string        `json:"tags,omitempty"`
	Truncated   bool            `json:"truncated"`
	Counts      map[int]uint8   `json:"counts,omitempty"`
}

// hostileText draws strings of ESC and C1 sequences, bidi controls, line
// separators, HTML characters, quotes and invalid UTF-8 among letters.
func hostileText() *rapid.Generator[string] {
	parts := []string{"a", "Zé", " ", "<", ">", "&", "\"", "\\", "\x1b[31m", "\x1b]0;t\x07", "\u009b2J", "\u202e", "\u2066",
		"\u2028", "\t", "\n", "\x00", "\x7f", "\xff", "\xc3", "tt0133093", "12", "0", "-1", "1.5", "\u061c"}
	return rapid.Custom(func(t *rapid.T) string {
		return strings.Join(rapid.SliceOfN(rapid.SampledFrom(parts), 0, 6).Draw(t, "parts"), "")
	})
}

func drawHostileRecord(t *rapid.T, depth int) hostileRecord {
	r := hostileRecord{Title: hostileText().Draw(t, "title"), Score: rapid.SampledFrom([]float64{0, 1e-7, 1e21, 7.5, -2}).Draw(t, "score"),
		Truncated: rapid.Bool().Draw(t, "truncated")}
	// one value in ten is one hygiene omits, so that whole records pass too
	valid := func(label string) bool { return rapid.IntRange(0, 9).Draw(t, label) > 0 }
	if rapid.Bool().Draw(t, "has request_id") {
		ids := []int{1, 42, 2147483647}
		if !valid("valid request_id") {
			ids = []int{-1, 0, 2147483648}
		}
		id := rapid.SampledFrom(ids).Draw(t, "request_id")
		r.RequestID = &id
	}
	users := []string{"", "7", "guid-like-abc", "tt1"}
	if !valid("valid user_id") {
		users = []string{"0", "-3", "1.5", " 12"}
	}
	r.UserID = rapid.SampledFrom(users).Draw(t, "user_id")
	for range rapid.IntRange(0, 3).Draw(t, "identifiers") {
		id := rapid.SampledFrom([]identifier{{nsTMDB, "603"}, {nsIMDB, "tt0133093"}, {nsTVDB, "1"}, {nsMusicBrainz, "mbid-1"}, {nsUnknown, "7"}}).Draw(t, "identifier")
		if !valid("valid identifier") {
			id = rapid.SampledFrom([]identifier{{nsTMDB, "0"}, {nsIMDB, "tt"}, {nsTVDB, "-4"}, {nsMusicBrainz, "1e3"}, {nsTMDB, "abc\x1b[0m"}}).Draw(t, "invalid identifier")
		}
		r.Identifiers = append(r.Identifiers, id)
	}
	if rapid.Bool().Draw(t, "has extra") {
		r.Extra = map[string]any{}
		for range rapid.IntRange(0, 3).Draw(t, "extra") {
			key := rapid.SampledFrom([]string{"k", "note", "x_id", "identifiers", "bad\x1bkey", "\u202ename", "a&b"}).Draw(t, "key")
			r.Extra[key] = rapid.OneOf(
				rapid.Map(hostileText(), func(s string) any { return s }),
				rapid.Map(rapid.IntRange(-2, 3), func(i int) any { return i }),
				rapid.Just[any](nil),
				rapid.Map(rapid.SliceOfN(hostileText(), 0, 2), func(s []string) any { return s }),
			).Draw(t, "extra value")
		}
	}
	if depth < 2 {
		for range rapid.IntRange(0, 2).Draw(t, "children") {
			r.Children = append(r.Children, drawHostileRecord(t, depth+1))
		}
	}
	switch rapid.IntRange(0, 9).Draw(t, "tags") {
	case 0: // a list at the cap or just past it
		r.Tags = make([]string, rapid.IntRange(maxNested-1, maxNested+1).Draw(t, "long tags"))
	case 1, 2:
		r.Tags = rapid.SliceOfN(hostileText(), 0, 3).Draw(t, "tag list")
	}
	if rapid.IntRange(0, 4).Draw(t, "has counts") == 0 {
		r.Counts = map[int]uint8{rapid.IntRange(-3, 20).Draw(t, "count key"): 1, 10: 2}
	}
	return r
}

// drawHostileData draws a page of records (sometimes past the record cap
// or the byte budget), one record, or a list.
func drawHostileData(t *rapid.T) any {
	records := func(n int) []hostileRecord {
		rs := make([]hostileRecord, n)
		for i := range rs {
			rs[i] = drawHostileRecord(t, 0)
		}
		return rs
	}
	switch rapid.IntRange(0, 5).Draw(t, "shape") {
	case 0:
		return drawHostileRecord(t, 0)
	case 1:
		return records(rapid.IntRange(0, 3).Draw(t, "list"))
	case 2: // past the record cap
		rs := make([]hostileRecord, maxRecords+1)
		rs[0] = hostileRecord{Title: hostileText().Draw(t, "title")}
		return map[string]any{"items": rs}
	case 3: // past the byte budget
		return map[string]any{"items": records(1), "note": strings.Repeat("x", maxResultBytes)}
	}
	total := rapid.IntRange(0, 9).Draw(t, "total")
	return struct {
		Items []hostileRecord `json:"items"`
		Page  paging          `json:"page"`
	}{records(rapid.IntRange(0, 3).Draw(t, "items")), paging{Limit: 3, Total: &total, Mode: "offset", Unit: "records"}}
}

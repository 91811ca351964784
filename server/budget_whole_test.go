package server

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/ombi-mcp/ombi-mcp/internal/jsonvalue"
)

// bothWays fits one data value the short way and the long way, each on an
// envelope of its own, and reports the short way's bytes (ok false when it
// gave up) and the long way's.
func bothWays(data any, warnings []string, plans *jsonvalue.Plans) (whole []byte, ok bool, long []byte) {
	mk := func() *envelope {
		env := success("read_search", data, slices.Clone(warnings))
		env.CorrelationID = "0123456789abcdef"
		cleanNotes(env)
		return env
	}
	whole, ok = fitWhole(mk(), plans)
	return whole, ok, fitLong(mk())
}

// TestFit_wholeAgreesWithLongWay guards fitWhole (S-RESULTS-0108,
// S-RESULTS-0109, S-RESULTS-0111): where the short way does not give up,
// its bytes are the long way's, for the data every tool's handler returns
// from the mock and for hostile data drawn at random; and it does not give
// up on ordinary results.
func TestFit_wholeAgreesWithLongWay(t *testing.T) {
	t.Run("handler results", func(t *testing.T) {
		short := map[string]bool{}
		plans := &jsonvalue.Plans{} // one memory for every case, as a server keeps
		eachHandlerResult(t, func(data string, tt exactWireCase, got any) {
			whole, ok, long := bothWays(got, []string{"a warning"}, plans)
			if !ok {
				return
			}
			short[tt.Tool] = true
			if !bytes.Equal(whole, long) {
				t.Fatalf("%s/%s (%T): the short way wrote\n%s\nthe long way\n%s", data, tt.Name, got, whole, long)
			}
		})
		if len(short) < 20 || !short["read_search"] || !short["read_requests"] {
			t.Fatalf("the short way served only %d tools: %v", len(short), short)
		}
	})
	t.Run("hostile data", func(t *testing.T) {
		var taken, gaveUp int
		plans := &jsonvalue.Plans{}
		rapid.Check(t, func(t *rapid.T) {
			data := drawHostileData(t)
			warnings := rapid.SliceOfN(hostileText(), 0, 3).Draw(t, "warnings")
			switch rapid.IntRange(0, 9).Draw(t, "warnings past the caps") {
			case 0:
				warnings = make([]string, maxWarnings+1)
			case 1:
				warnings = append(warnings, strings.Repeat("w", maxWarningLen+1))
			}
			whole, ok, long := bothWays(data, warnings, plans)
			if !ok {
				gaveUp++
				return
			}
			taken++
			if !bytes.Equal(whole, long) {
				t.Fatalf("the short way wrote\n%s\nthe long way\n%s", whole, long)
			}
		})
		if taken == 0 || gaveUp == 0 {
			t.Fatalf("the short way was taken %d times and gave up %d times: the draw misses a side", taken, gaveUp)
		}
	})
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

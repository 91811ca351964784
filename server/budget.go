package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Response budget of the results document: every serialised result fits in
// maxResultBytes, no top-level record array exceeds maxRecords, no nested
// array exceeds maxNested, log pages carry at most maxLogLines lines.
const (
	maxResultBytes = 64 << 10
	maxRecords     = 100
	maxNested      = 100
	maxLogLines    = 500
	maxWarnings    = 50
	maxWarningLen  = 300
)

// recordKeys name the top-level array of each family, in the order budget
// cutting looks for them.
var recordKeys = []string{"items", "values", "lines", "files"}

// fit bounds env in place and returns its serialisation, at most
// maxResultBytes long. Every result passes here, so here is the output
// hygiene too: the data is made a generic value (generic), control,
// escape and bidi characters leave every string (data, warnings, error),
// and identifiers and *_id fields that are not valid ids are omitted with
// a warning. Then it caps arrays, shortens long strings, then drops
// trailing records (keeping page metadata truthful), setting truncated and
// a warning for every cut. A result that still cannot fit becomes an
// INTERNAL_ERROR envelope, which always fits.
// Implements S-RESULTS-0108, S-RESULTS-0109, S-RESULTS-0111 and S-ROUTING-0090.
func fit(env *envelope) []byte {
	cleanNotes(env)
	b := &budget{env: env}
	if env.Data != nil {
		g, err := generic(env.Data)
		if err != nil {
			return mustMarshal(failure(env.Operation, &envelopeError{Code: codeInternalError, Message: "internal error: result could not be encoded"}, nil))
		}
		var h hygiene
		g = h.clean(g)
		if h.ids > 0 {
			env.Warnings = append(env.Warnings, fmt.Sprintf("omitted %d upstream identifier or *_id values that are not valid ids (an id is a positive integer or a provider id such as tt0133093)", h.ids))
		}
		env.Data = g
	}
	env.Warnings = capWarnings(env.Warnings)
	if obj, ok := env.Data.(map[string]any); ok {
		b.capArrays(obj, 0, "")
	}
	// Serialised once, then again only after a step that changed something.
	out := mustMarshal(env)
	if obj, ok := env.Data.(map[string]any); ok {
		for _, step := range []func(map[string]any) bool{
			func(o map[string]any) bool { return b.shortenStrings(o, 4000) },
			func(o map[string]any) bool { return b.shortenStrings(o, 1000) },
			b.dropRecords,
			func(o map[string]any) bool { return b.shortenStrings(o, 100) },
			func(o map[string]any) bool { return b.capNested(o, 10) },
		} {
			if len(out) <= maxResultBytes {
				break
			}
			if step(obj) {
				out = mustMarshal(env)
			}
		}
	}
	if len(out) > maxResultBytes {
		return mustMarshal(failure(env.Operation, &envelopeError{Code: codeInternalError, Message: "internal error: the result does not fit the response budget"}, nil))
	}
	return out
}

// cleanNotes cleans the warnings and the error's texts.
func cleanNotes(env *envelope) {
	for i, w := range env.Warnings {
		env.Warnings[i] = cleanText(w, false)
	}
	if e := env.Error; e != nil {
		e.Message, e.Field = cleanText(e.Message, false), cleanText(e.Field, false)
	}
}

// generic is v as encoding/json writes it and reads it back: maps,
// slices, json.Number, strings, booleans and nil, the one representation
// fit cleans and cuts.
func generic(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var g any
	if err := dec.Decode(&g); err != nil {
		return nil, err
	}
	return g, nil
}

// hygiene cleans a generic result value: it counts the ids it omitted.
type hygiene struct{ ids int }

// clean returns v with every string and key cleaned (cleanText), every
// identifiers entry that is not a valid identifier and every *_id field
// that is not a valid id removed.
func (h *hygiene) clean(v any) any {
	switch t := v.(type) {
	case string:
		return cleanText(t, true)
	case []any:
		for i, e := range t {
			t[i] = h.clean(e)
		}
		return t
	case map[string]any:
		// Clean names in place (the range only updates or deletes the
		// member it is at); names that need cleaning are renamed after.
		var dirty []string
		for k, e := range t {
			if cleanText(k, false) != k {
				dirty = append(dirty, k)
				continue
			}
			h.member(t, k, e)
		}
		for _, k := range dirty {
			e := t[k]
			delete(t, k)
			ck := cleanText(k, false)
			if _, taken := t[ck]; taken || ck == "" {
				continue
			}
			h.member(t, ck, e)
		}
		return t
	}
	return v
}

// member stores the cleaned e as t[k], or drops it when k is an *_id
// field and e is not a valid id.
func (h *hygiene) member(t map[string]any, k string, e any) {
	e = h.clean(e)
	switch {
	case k == "identifiers":
		e = h.identifiers(e)
	case strings.HasSuffix(k, "_id") && !validIDField(e):
		delete(t, k)
		h.ids++
		return
	}
	t[k] = e
}

// identifiers keeps the entries of an identifiers array that are valid.
func (h *hygiene) identifiers(v any) any {
	arr, ok := v.([]any)
	if !ok {
		return v
	}
	kept := arr[:0]
	for _, e := range arr {
		m, _ := e.(map[string]any)
		ns, _ := m["namespace"].(string)
		val, _ := m["value"].(string)
		if m == nil || !validIdentifier(ns, val) {
			h.ids++
			continue
		}
		kept = append(kept, e)
	}
	return kept
}

// budget is one fit's cutting of env.
type budget struct {
	env *envelope
}

func (b *budget) cut(format string, a ...any) {
	b.env.Truncated = true
	w := fmt.Sprintf(format, a...)
	for _, have := range b.env.Warnings {
		if have == w {
			return
		}
	}
	if len(b.env.Warnings) < maxWarnings {
		b.env.Warnings = append(b.env.Warnings, w)
	}
}

// capArrays enforces the record, nested and log-line caps everywhere. When
// an array inside an object with a boolean "truncated" is cut, that flag is
// set too (seasons, logs).
func (b *budget) capArrays(obj map[string]any, depth int, path string) {
	for k, v := range obj {
		switch t := v.(type) {
		case []any:
			limit := maxNested
			if depth == 0 {
				limit = maxRecords
				if k == "lines" {
					limit = maxLogLines
				}
			}
			if len(t) > limit {
				obj[k] = t[:limit]
				t = t[:limit]
				b.cut("cut %s%s to %d entries", path, k, limit)
				if _, ok := obj["truncated"].(bool); ok {
					obj["truncated"] = true
				}
				if depth == 0 {
					fixPage(obj, limit)
				}
			}
			var inner string // the path of the entries, built once
			for _, e := range t {
				if m, ok := e.(map[string]any); ok {
					if inner == "" {
						inner = path + k + "[]."
					}
					b.capArrays(m, depth+1, inner)
				}
			}
		case map[string]any:
			b.capArrays(t, depth+1, path+k+".")
		}
	}
}

// shortenStrings cuts every string longer than limit runes.
func (b *budget) shortenStrings(obj map[string]any, limit int) bool {
	n := shorten(obj, limit)
	if n > 0 {
		b.cut("shortened %d long text fields to %d characters", n, limit)
	}
	return n > 0
}

func shorten(v any, limit int) int {
	n := 0
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if s, ok := e.(string); ok && utf8.RuneCountInString(s) > limit {
				t[k] = string([]rune(s)[:limit-1]) + "…"
				n++
				continue
			}
			n += shorten(e, limit)
		}
	case []any:
		for i, e := range t {
			if s, ok := e.(string); ok && utf8.RuneCountInString(s) > limit {
				t[i] = string([]rune(s)[:limit-1]) + "…"
				n++
				continue
			}
			n += shorten(e, limit)
		}
	}
	return n
}

// dropRecords removes trailing records of the family's top-level array until
// the result fits, keeping at least one.
func (b *budget) dropRecords(obj map[string]any) bool {
	for _, k := range recordKeys {
		arr, ok := obj[k].([]any)
		if !ok || len(arr) <= 1 {
			continue
		}
		// The envelope with the first n records serialises to the
		// envelope with none plus each record once and n-1 commas:
		// measured once, not once per probe.
		obj[k] = arr[:0]
		base := len(mustMarshal(b.env))
		sum := make([]int, len(arr)+1) // sum[n]: bytes of the first n records
		for i, r := range arr {
			sum[i+1] = sum[i] + len(mustMarshal(r))
		}
		lo, hi := 1, len(arr) // largest n in [lo,hi] that fits
		for lo < hi {
			mid := (lo + hi + 1) / 2
			obj[k] = arr[:mid]
			if base+sum[mid]+mid-1 <= maxResultBytes {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		obj[k] = arr[:lo]
		if lo < len(arr) {
			b.cut("returned %d of %d %s to stay within the %d KiB response budget", lo, len(arr), k, maxResultBytes>>10)
			if _, ok := obj["truncated"].(bool); ok {
				obj["truncated"] = true
			}
			fixPage(obj, lo)
			if off, ok := number(obj["offset"]); ok && k == "lines" {
				obj["next_offset"] = off + lo
			}
		}
		return true
	}
	return false
}

// capNested cuts every nested array below the top level to limit entries.
func (b *budget) capNested(obj map[string]any, limit int) bool {
	n := 0
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		switch t := v.(type) {
		case map[string]any:
			for k, e := range t {
				if arr, ok := e.([]any); ok && depth > 0 && len(arr) > limit {
					t[k] = arr[:limit]
					n++
					if _, ok := t["truncated"].(bool); ok {
						t["truncated"] = true
					}
				}
				walk(t[k], depth+1)
			}
		case []any:
			for _, e := range t {
				walk(e, depth)
			}
		}
	}
	walk(obj, 0)
	if n > 0 {
		b.cut("cut %d nested lists to %d entries", n, limit)
	}
	return n > 0
}

// fixPage keeps paging metadata truthful after records were cut: the page
// returned n records and more exist right after them.
func fixPage(obj map[string]any, n int) {
	page, ok := obj["page"].(map[string]any)
	if !ok {
		return
	}
	page["returned"] = n
	page["has_more"] = true
	if off, ok := number(page["offset"]); ok {
		page["next_offset"] = off + n
	}
}

func number(v any) (int, bool) {
	switch t := v.(type) {
	case json.Number:
		i, err := t.Int64()
		return int(i), err == nil
	case int:
		return t, true
	case float64:
		return int(t), true
	}
	return 0, false
}

func capWarnings(ws []string) []string {
	if len(ws) > maxWarnings {
		ws = append(ws[:maxWarnings-1:maxWarnings-1], fmt.Sprintf("%d further warnings omitted", len(ws)-maxWarnings+1))
	}
	for i, w := range ws {
		if utf8.RuneCountInString(w) > maxWarningLen {
			ws[i] = string([]rune(w)[:maxWarningLen-1]) + "…"
		}
	}
	return nonNil(ws)
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Only plain JSON values reach here; failing is a programming error.
		panic(fmt.Sprintf("encode envelope: %v", err))
	}
	return b
}

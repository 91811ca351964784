package checks

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/fixtures"
)

// This file holds what the media, search and reference checks share: the
// wire case table format and the distinctive values of the undocumented
// upstream fields the mock's seed carries on every record.

// mdWire is one branch call and the upstream call it must make.
type mdWire struct {
	name   string
	tool   string
	args   map[string]any
	method string
	path   string     // literal escaped path
	query  url.Values // nil = no query string
	body   string     // expected JSON body; "" = none
	extra  []string   // private reads the ledger allows after the primary call (path prefixes)
}

// mdItem is one record of a media_page.
type mdItem struct {
	Media       string         `json:"media"`
	Title       string         `json:"title"`
	Identifiers []mdIdentifier `json:"identifiers"`
	Raw         map[string]any `json:"-"`
}

// mdIdentifier is one namespaced identifier of a media record.
type mdIdentifier struct {
	Namespace string `json:"namespace"`
	Value     string `json:"value"`
}

// mdItems decodes data.items of a successful result, each with its raw map.
func (s *Suite) mdItems(o *harness.Outcome) []mdItem {
	ginkgo.GinkgoHelper()
	s.expect(o.OK(), o, "the read must succeed against the mock")
	var d struct {
		Items []json.RawMessage `json:"items"`
	}
	s.expect(json.Unmarshal(o.Envelope.Data, &d) == nil, o, "data.items must decode")
	var out []mdItem
	for _, raw := range d.Items {
		var it mdItem
		_ = json.Unmarshal(raw, &it)
		_ = json.Unmarshal(raw, &it.Raw)
		out = append(out, it)
	}
	return out
}

// ids returns the values of one namespace.
func (it mdItem) ids(ns string) []string {
	var out []string
	for _, id := range it.Identifiers {
		if id.Namespace == ns {
			out = append(out, id.Value)
		}
	}
	return out
}

// mdText renders a decoded JSON value as an identifier string.
func mdText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return fmt.Sprint(int64(x))
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// mdUndocumented returns the distinctive leaf values of every "extra"
// object of the embedded seed (the fields Ombi sends but the contract does
// not document): strings of 8 or more characters and numbers of 7 or more
// digits that occur nowhere else in the seed, so finding one in a result
// can only mean the field was passed through.
func mdUndocumented() ([]string, error) {
	files, err := fs.Glob(fixtures.Ombi(), "ombi/*.json")
	if err != nil {
		return nil, fmt.Errorf("list the seed files: %w", err)
	}
	extra, known := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		b, err := fs.ReadFile(fixtures.Ombi(), f)
		if err != nil {
			return nil, fmt.Errorf("read seed %s: %w", f, err)
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("decode seed %s: %w", f, err)
		}
		mdLeaves(doc, false, extra, known)
	}
	var out []string
	for v := range extra {
		if !known[v] && !mdPlainWord(v) && !mdInside(v, known) {
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out, nil
}

// mdPlainWord reports a single lowercase word, which a result may carry
// for reasons of its own.
func mdPlainWord(v string) bool {
	return strings.IndexFunc(v, func(r rune) bool { return r < 'a' || r > 'z' }) < 0
}

// mdInside reports whether v is part of a documented seed value (a date
// prefix of a documented timestamp, say).
func mdInside(v string, known map[string]bool) bool {
	for k := range known {
		if strings.Contains(k, v) {
			return true
		}
	}
	return false
}

func mdLeaves(v any, inExtra bool, extra, known map[string]bool) {
	add := func(s string) {
		if inExtra {
			extra[s] = true
		} else {
			known[s] = true
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			mdLeaves(c, inExtra || k == "extra", extra, known)
		}
	case []any:
		for _, c := range x {
			mdLeaves(c, inExtra, extra, known)
		}
	case string:
		if len(x) >= 8 {
			add(x)
		}
		if !inExtra {
			for _, w := range strings.Fields(x) {
				known[w] = true
			}
		}
	case float64:
		if s := fmt.Sprint(int64(x)); x == float64(int64(x)) && len(s) >= 7 {
			add(s)
		}
	}
}

// mdQueryEqual compares a raw query string with the expected values.
func mdQueryEqual(raw string, want url.Values) bool {
	if want == nil {
		return raw == ""
	}
	got, err := url.ParseQuery(raw)
	if err != nil || len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if strings.Join(got[k], "\x00") != strings.Join(v, "\x00") {
			return false
		}
	}
	return true
}

package checks

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/onsi/ginkgo/v2"
)

// This file guards the settings family's secrecy as a property over every
// leaf of every section (04-results: settings carry only allowlisted
// non-secret fields, no credentials or destination URLs; 07: a patch
// preserves secrets and never stores a redacted or destination value).
// The suite decides what a destination is from Ombi's models, on its own:
// a server's deny rules are what is judged.

// destinationKeys are the Ombi settings model properties (lower case)
// whose string values are destinations or personal addresses: where a
// notification, a request or an account goes (a chat, a host, a channel,
// a sender, a phone number, a base URL).
var destinationKeys = map[string]bool{
	"chatid": true, "host": true, "senderaddress": true, "username": true, "topic": true, "channel": true,
	"channeltag": true, "from": true, "baseurl": true, "webhookurl": true, "serverhostname": true, "ip": true,
	"applicationurl": true, "customdonationurl": true, "iconurl": true, "externalemails": true, "url": true,
}

// settingsLeaf is one scalar of a section's upstream document.
type settingsLeaf struct {
	Pointer string // escaped JSON Pointer
	Key     string // the property holding it
	Value   any
	InArray bool // below an array: a patch cannot name it
}

// settingsLeaves flattens an upstream settings document, in pointer order.
func settingsLeaves(doc any) []settingsLeaf {
	var out []settingsLeaf
	var walk func(v any, pointer, key string, inArray bool)
	walk = func(v any, pointer, key string, inArray bool) {
		switch t := v.(type) {
		case map[string]any:
			for k, e := range t {
				walk(e, pointer+"/"+strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"), k, inArray)
			}
		case []any:
			for i, e := range t {
				walk(e, pointer+"/"+strconv.Itoa(i), key, true)
			}
		default:
			out = append(out, settingsLeaf{Pointer: pointer, Key: key, Value: v, InArray: inArray})
		}
	}
	walk(doc, "", "", false)
	sort.Slice(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return out
}

// forbidden reports a leaf no settings answer may show and no patch may
// change: a string under a destination property, or a planted secret.
func (l settingsLeaf) forbidden(canaries []string) bool {
	str, ok := l.Value.(string)
	if !ok {
		return false
	}
	if destinationKeys[strings.ToLower(l.Key)] {
		return true
	}
	for _, c := range canaries {
		if strings.Contains(str, c) {
			return true
		}
	}
	return false
}

// patchFor builds the changes object that sets the leaf at pointer (no
// array on its path) to v.
func patchFor(pointer string, v any) map[string]any {
	toks := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	var out any = v
	for i := len(toks) - 1; i >= 0; i-- {
		k := strings.ReplaceAll(strings.ReplaceAll(toks[i], "~1", "/"), "~0", "~")
		out = map[string]any{k: out}
	}
	return out.(map[string]any)
}

// sectionLeaves reads a writable section straight from the mock.
func (s *Suite) sectionLeaves(label string) []settingsLeaf {
	ginkgo.GinkgoHelper()
	var doc any
	code := s.mockRaw("GET", "/api/v1/Settings/"+writableSections[label], &doc)
	s.expect(code == 200, nil, "the mock answers GET /api/v1/Settings/%s with %d", writableSections[label], code)
	return settingsLeaves(doc)
}

// canaryValues are the values of the mock's planted secrets.
func (s *Suite) canaryValues() []string {
	ginkgo.GinkgoHelper()
	cs, err := s.canaries()
	if err != nil {
		s.fail(nil, "fetch canaries: %v", err)
	}
	var out []string
	for _, c := range cs {
		out = append(out, c.Value)
	}
	s.expect(len(out) > 0, nil, "the mock planted no canaries; nothing to check")
	return out
}

func sortedSections() []string {
	labels := make([]string, 0, len(writableSections))
	for l := range writableSections {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	return labels
}

func (s *Suite) settingsLeafChecks() {
	ginkgo.Describe("leak settings leaves", ginkgo.Label("leak", "administration", "settings"), func() {
		ginkgo.BeforeEach(s.clean)

		// Every value read_settings shows, in every writable section, is a
		// leaf of the upstream document that is neither a destination nor
		// a planted secret; no destination value appears anywhere in any
		// section's answer, the read-only views included.
		s.ClauseItFor("VERIFY-AUTHZ-SETTINGS-001", "read_settings.no-destination-leaf", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			canaries := s.canaryValues()
			var e errs
			var destinations []string
			for _, label := range sortedSections() {
				leaves := map[string]settingsLeaf{}
				for _, l := range s.sectionLeaves(label) {
					leaves[l.Pointer] = l
					if l.forbidden(canaries) {
						if str := l.Value.(string); len(str) >= 8 {
							destinations = append(destinations, str)
						}
					}
				}
				o := s.call(ctx, srv, "read_settings", map[string]any{"section": label})
				var v settingsView
				s.okData(o, &v)
				for _, val := range v.Values {
					l, ok := leaves[val.Name]
					switch {
					case !ok:
						e.addf("%s: %s is no leaf of the upstream document", label, val.Name)
					case l.forbidden(canaries):
						e.addf("%s: %s shows a destination or secret (%q)", label, val.Name, ClipString(fmt.Sprint(val.Value), 40))
					}
				}
			}
			for _, label := range append(sortedSections(), readOnlyViews...) {
				o := s.call(ctx, srv, "read_settings", map[string]any{"section": label})
				var v settingsView
				s.okData(o, &v)
				for _, val := range v.Values {
					str, _ := val.Value.(string)
					for _, d := range destinations {
						if str != "" && (str == d || strings.Contains(str, d) && len(d) >= 12) {
							e.addf("%s: %s carries the destination or secret %q", label, val.Name, ClipString(d, 40))
						}
					}
				}
			}
			s.expectNone(e, "settings destinations and secrets")
		}, ginkgo.Label(LabelReadOnly))

		// Every patch of a destination or secret leaf (outside arrays),
		// with a plain value of the same type, is refused before any POST,
		// and its error quotes no saved destination or secret.
		s.ClauseItFor("VERIFY-AUTHZ-SETTINGS-001", "write_settings_patch.no-destination-or-secret", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, apiKeyConfig())
			canaries := s.canaryValues()
			var e errs
			var saved []string
			var texts []string
			tried := 0
			for _, label := range sortedSections() {
				for _, l := range s.sectionLeaves(label) {
					if !l.forbidden(canaries) {
						continue
					}
					if str := l.Value.(string); len(str) >= 8 {
						saved = append(saved, str)
					}
					if l.InArray {
						continue
					}
					read := s.call(ctx, srv, "read_settings", map[string]any{"section": label})
					var v settingsView
					s.okData(read, &v)
					changes := patchFor(l.Pointer, "plain"+strconv.Itoa(tried))
					o := s.call(ctx, srv, "write_settings_patch", map[string]any{"action": "patch", "section": label, "revision": v.Revision, "changes": changes})
					tried++
					if o.ErrorCode() != "INVALID_ARGUMENT" {
						e.addf("%s %s: want INVALID_ARGUMENT, got %q", label, l.Pointer, o.ErrorCode())
					}
					for _, c := range upstreamCalls(o) {
						if c.Method != "GET" {
							e.addf("%s %s: a refused patch reached upstream: %s", label, l.Pointer, callLine(c))
						}
					}
					texts = append(texts, label+" "+l.Pointer+": "+string(o.Structured)+"\n"+o.Text)
				}
			}
			s.expect(tried > 0, nil, "the mock's settings hold no destination or secret outside arrays; nothing to patch")
			for _, t := range texts {
				for _, d := range saved {
					if strings.Contains(t, jsonFragment(d)) {
						where, _, _ := strings.Cut(t, ":")
						e.addf("%s: the error quotes the saved destination or secret %q", where, ClipString(d, 40))
					}
				}
			}
			s.expectNone(e, "settings patches of destinations and secrets")
		})
	})
}

// jsonFragment is a string as it appears inside a JSON string literal.
func jsonFragment(v string) string {
	b, _ := json.Marshal(v)
	return strings.Trim(string(b), `"`)
}

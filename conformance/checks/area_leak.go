package checks

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/spec"
)

// This file declares the leak area: planted secrets (canaries) never reach
// a result, an error, a warning or stderr, in any encoding.

// canaryForms returns the raw, JSON-escaped, URL-encoded and base64 forms
// of a planted secret.
func canaryForms(v string) []string {
	j, _ := json.Marshal(v)
	forms := []string{v, strings.Trim(string(j), `"`), url.QueryEscape(v), url.PathEscape(v), base64.StdEncoding.EncodeToString([]byte(v))}
	var out []string
	seen := map[string]bool{}
	for _, f := range forms {
		if len(f) >= 6 && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

func (s *Suite) leakArea() {
	ginkgo.Describe("leak", ginkgo.Label("leak", LabelReadOnly), func() {
		ginkgo.BeforeEach(s.clean)
		for _, t := range spec.Tools() {
			if !t.Annotations.ReadOnlyHint {
				continue
			}
			name := t.Name
			s.ClauseItFor("VERIFY-OUTPUT-NESTED-SECRETS-001", name, func(ctx ginkgo.SpecContext) {
				if s.live() {
					s.liveLeak(ctx, name)
					return
				}
				canaries, err := s.canaries()
				if err != nil {
					s.fail(nil, "fetch canaries: %v", err)
				}
				s.expect(len(canaries) > 0, nil, "the mock planted no canaries; nothing to check")
				srv := s.shared(ctx, s.allConfig())
				var e errs
				check := func(where, text string) {
					for _, c := range canaries {
						for _, f := range canaryForms(c.Value) {
							if strings.Contains(text, f) {
								e.addf("%s carries canary %s (planted at %s) as %q", where, c.Name, c.Where, f)
							}
						}
					}
				}
				for _, ex := range s.table(name).Valid {
					o := s.call(ctx, srv, name, ex.Args)
					check(fmt.Sprintf("%s %s: result", name, clip(ex.Args, 200)), string(o.Structured)+"\n"+o.Text)
				}
				check("server stderr", srv.StderrAll())
				s.expectNone(e, "planted secrets leaked")
			})
		}
	})
}

func (s *Suite) adminLeaks() {
	ginkgo.Describe("leak administration", ginkgo.Label("leak", LabelReadOnly, "administration"), func() {
		ginkgo.BeforeEach(s.clean)

		s.ClauseItFor("VERIFY-OUTPUT-NESTED-SECRETS-001", "read_settings.every-section", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			if s.live() {
				var args []any
				for label := range writableSections {
					args = append(args, map[string]any{"section": label})
				}
				for _, label := range readOnlyViews {
					args = append(args, map[string]any{"section": label})
				}
				s.liveLeakOutcomes(ctx, srv, "read_settings", args)
				return
			}
			var texts []string
			for label := range writableSections {
				o := s.call(ctx, srv, "read_settings", map[string]any{"section": label})
				texts = append(texts, label+": "+string(o.Structured))
			}
			for _, label := range readOnlyViews {
				o := s.call(ctx, srv, "read_settings", map[string]any{"section": label})
				texts = append(texts, label+": "+string(o.Structured))
			}
			s.expectNoCanary(texts)
		})

		s.ClauseItFor("VERIFY-OUTPUT-NESTED-SECRETS-001", "read_users.every-list", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			if s.live() {
				var args []any
				for _, a := range []string{"self", "list", "dropdown", "claims", "online", "preferences"} {
					args = append(args, map[string]any{"action": a})
				}
				s.liveLeakOutcomes(ctx, srv, "read_users", args)
				return
			}
			var texts []string
			for _, a := range []string{"self", "list", "dropdown", "claims", "online", "preferences"} {
				o := s.call(ctx, srv, "read_users", map[string]any{"action": a})
				texts = append(texts, a+": "+string(o.Structured))
			}
			s.expectNoCanary(texts)
		})

		s.ClauseItFor("RESULTS-BUDGET-001", "read_logs.sanitised-bounded", func(ctx ginkgo.SpecContext) {
			srv := s.shared(ctx, s.adminConfig())
			list, files := s.logFiles(ctx, srv)
			var texts []string
			for _, f := range files {
				s.expect(f.FileID != f.Name && !strings.ContainsAny(f.FileID, "./\\"), list, "file ids must be opaque, not the basename: %q", f.FileID)
				for _, off := range []int{0, 500} {
					o := s.call(ctx, srv, "read_logs", map[string]any{"action": "read", "file_id": f.FileID, "lines": map[string]any{"offset": off, "limit": 500}})
					var logs struct {
						Lines []string `json:"lines"`
					}
					s.okData(o, &logs)
					s.expect(len(logs.Lines) <= 500, o, "a log page carries at most 500 lines, got %d", len(logs.Lines))
					for _, c := range upstreamCalls(o) {
						s.expect(!strings.Contains(strings.ToLower(c.Path), "download"), o, "logs/download is never called: %s", callLine(c))
					}
					texts = append(texts, f.Name+": "+string(o.Structured))
				}
			}
			s.expectNoCanary(texts)
		})
	})
}

// expectNoCanary fails when any text carries a planted secret in any form.
func (s *Suite) expectNoCanary(texts []string) {
	ginkgo.GinkgoHelper()
	canaries, err := s.canaries()
	if err != nil {
		s.fail(nil, "fetch canaries: %v", err)
	}
	s.expect(len(canaries) > 0, nil, "the mock planted no canaries; nothing to check")
	var e errs
	for _, t := range texts {
		for _, c := range canaries {
			for _, f := range canaryForms(c.Value) {
				if strings.Contains(t, f) {
					where, _, _ := strings.Cut(t, ":")
					e.addf("%s carries canary %s (planted at %s)", where, c.Name, c.Where)
				}
			}
		}
	}
	s.expectNone(e, "planted secrets leaked")
}

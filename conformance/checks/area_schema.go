package checks

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/ombi-mcp/ombi-mcp/conformance/framework"
	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// exampleRun is one schema example sent as real arguments.
type exampleRun struct {
	ex      framework.Example
	valid   bool
	empty   bool   // the {} probe of DECISIONS D1
	derived string // "" for a table example, else the derivation (extra, enum-code, page-limit)
	out     *harness.Outcome
}

// enumFields are the label-valued input fields of T1-T4 (02-tool-mapping
// rule 4); their *_code twins must be rejected.
var enumFields = []string{"status", "request_type", "agent", "notification_type"}

// derive builds invalid variants of a valid example: an unexpected
// property, a *_code twin of each enum label field it carries, and a page
// limit over 100.
func derive(ex framework.Example) []exampleRun {
	var args map[string]json.RawMessage
	if json.Unmarshal(ex.Args, &args) != nil || args == nil {
		return nil
	}
	variant := func(kind, name string, mutate func(m map[string]json.RawMessage)) exampleRun {
		m := map[string]json.RawMessage{}
		for k, v := range args {
			m[k] = v
		}
		mutate(m)
		b, _ := json.Marshal(m)
		return exampleRun{ex: framework.Example{Name: ex.Name + " + " + name, Args: b}, derived: kind}
	}
	out := []exampleRun{variant("extra", "unexpected_property", func(m map[string]json.RawMessage) {
		m["unexpected_property"] = json.RawMessage(`true`)
	})}
	for _, f := range enumFields {
		if _, ok := args[f]; ok {
			out = append(out, variant("enum-code", f+"_code", func(m map[string]json.RawMessage) {
				m[f+"_code"] = json.RawMessage(`1`)
			}))
		}
	}
	if _, ok := args["page"]; ok {
		out = append(out, variant("page-limit", "page.limit=101", func(m map[string]json.RawMessage) {
			m["page"] = json.RawMessage(`{"offset":0,"limit":101}`)
		}))
	}
	return out
}

// inputMentions reports whether the strict input schema of tool declares a
// property with one of the given names, at any depth.
func inputMentions(tool string, names ...string) bool {
	raw, err := spec.InputSchema(tool)
	if err != nil {
		return false
	}
	var root any
	if json.Unmarshal(raw, &root) != nil {
		return false
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch t := v.(type) {
		case map[string]any:
			if props, ok := t["properties"].(map[string]any); ok {
				for k := range props {
					if want[k] {
						return true
					}
				}
			}
			for _, c := range t {
				if walk(c) {
					return true
				}
			}
		case []any:
			for _, c := range t {
				if walk(c) {
					return true
				}
			}
		}
		return false
	}
	return walk(root)
}

// emptyRejecters are the tools 06-verification names: request creation,
// issue creation, moderation and delete.
var emptyRejecters = map[string]bool{"write_request_create": true, "write_issue_create": true, "write_request_moderate": true, "write_request_delete": true}

func (r exampleRun) label() string {
	kind := "invalid"
	if r.valid {
		kind = "valid"
	}
	return kind + " example " + r.ex.Name + " " + clip(r.ex.Args, 300)
}

// fieldMatches reports whether an envelope error field names the JSON
// pointer of an invalid example, in pointer, bare or dotted form.
func fieldMatches(field, pointer string) bool {
	if pointer == "" {
		return field != ""
	}
	bare := strings.TrimPrefix(pointer, "/")
	dotted := strings.ReplaceAll(bare, "/", ".")
	last := bare[strings.LastIndex(bare, "/")+1:]
	for _, f := range []string{pointer, bare, dotted, last} {
		if field == f {
			return true
		}
	}
	return false
}

func (s *Suite) schemaArea() {
	ginkgo.Describe("schema", ginkgo.Label("schema"), func() {
		for _, t := range spec.Tools() {
			s.schemaTool(t)
		}
	})
}

func (s *Suite) schemaTool(t spec.Tool) {
	name := t.Name
	labels := ginkgo.Label()
	if t.Annotations.ReadOnlyHint {
		labels = ginkgo.Label(LabelReadOnly)
	}
	ginkgo.Context(name, labels, ginkgo.Ordered, ginkgo.ContinueOnFailure, func() {
		var runs []exampleRun
		ginkgo.BeforeAll(func(ctx ginkgo.SpecContext) {
			s.clean()
			table := s.table(name)
			srv := s.shared(ctx, s.allConfig())
			runs = nil
			var derived []exampleRun
			for _, ex := range table.Valid {
				runs = append(runs, exampleRun{ex: ex, valid: true, out: s.callUnchecked(ctx, srv, name, s.ownArgs(name, ex.Args))})
				derived = append(derived, derive(ex)...)
			}
			for _, r := range derived {
				r.out = s.callUnchecked(ctx, srv, name, r.ex.Args)
				runs = append(runs, r)
			}
			for _, ex := range table.Invalid {
				runs = append(runs, exampleRun{ex: ex, out: s.callUnchecked(ctx, srv, name, ex.Args)})
			}
			runs = append(runs, exampleRun{ex: framework.Example{Name: "empty object", Args: json.RawMessage(`{}`)}, empty: true, valid: s.h.Validator.ValidateInput(name, json.RawMessage(`{}`)) == nil})
			last := &runs[len(runs)-1]
			last.out = s.callUnchecked(ctx, srv, name, last.ex.Args)
		})
		s.ClauseItFor("VERIFY-SCHEMA-VALIDATE-001", name+".valid", func() {
			var e errs
			for _, r := range runs {
				if !r.valid {
					continue
				}
				switch {
				case r.out.RPCError != nil:
					e.addf("%s: JSON-RPC error %d %s", r.label(), r.out.RPCError.Code, r.out.RPCError.Message)
				case r.out.ErrorCode() == "INVALID_ARGUMENT" && s.h.Upstream.IsLive() && r.out.Envelope.Error.Field != "":
					// a live run has no journal to show the upstream read a
					// state-dependent refusal makes, and the example may name
					// data this Ombi lacks (a log file, a user): not judged here
				case r.out.ErrorCode() == "INVALID_ARGUMENT" && !stateRefusal(r.out):
					e.addf("%s: rejected with INVALID_ARGUMENT without consulting upstream: %s", r.label(), r.out.Envelope.Error.Message)
				}
			}
			s.expectNone(e, "valid arguments of "+name+" were refused")
		})
		s.ClauseItFor("VERIFY-SCHEMA-VALIDATE-001", name+".invalid", func() {
			var e errs
			for _, r := range runs {
				if r.valid || r.empty || r.derived != "" {
					continue
				}
				switch {
				case r.out.RPCError != nil:
					e.addf("%s: JSON-RPC error %d %s (want an isError result with INVALID_ARGUMENT)", r.label(), r.out.RPCError.Code, r.out.RPCError.Message)
				case !r.out.Result.IsError || r.out.ErrorCode() != "INVALID_ARGUMENT":
					e.addf("%s: want isError with INVALID_ARGUMENT, got isError=%v code=%q", r.label(), r.out.Result.IsError, r.out.ErrorCode())
				}
			}
			s.expectNone(e, "invalid arguments of "+name+" were not rejected with INVALID_ARGUMENT")
		})
		derivedCheck := func(clause, kind, what string) {
			s.ClauseItFor(clause, name, func() {
				var e errs
				n := 0
				for _, r := range runs {
					if r.derived != kind {
						continue
					}
					n++
					if r.out.RPCError != nil || !r.out.Result.IsError || r.out.ErrorCode() != "INVALID_ARGUMENT" {
						e.addf("%s: want isError with INVALID_ARGUMENT, got %s", r.label(), r.out.ErrorCode())
					}
				}
				s.expect(n > 0, nil, "no valid example of %s carries %s, so nothing could be derived; add one to the schema table", name, what)
				s.expectNone(e, what+" was not rejected by "+name)
			})
		}
		derivedCheck("ROUTING-RULE1-UNKNOWN-PROPS-001", "extra", "an unexpected property")
		if inputMentions(name, enumFields...) {
			derivedCheck("ROUTING-RULE4-ENUM-001", "enum-code", "a *_code integer twin of an enum label field")
		}
		if inputMentions(name, "page") {
			derivedCheck("ROUTING-RULE1-PAGE-001", "page-limit", "a page limit over 100")
		}
		if emptyRejecters[name] {
			s.ClauseItFor("VERIFY-SCHEMA-EMPTY-001", name, func() {
				r := runs[len(runs)-1]
				s.expect(r.empty && r.out.RPCError == nil && r.out.Result.IsError && r.out.ErrorCode() == "INVALID_ARGUMENT", r.out,
					"{} must not satisfy %s", name)
			})
		}
		if s.h.Validator.ValidateInput(name, json.RawMessage(`{}`)) != nil {
			s.ClauseItFor("DECISION-D1-EMPTY-001", name, func() {
				r := runs[len(runs)-1]
				s.expect(r.out.RPCError == nil && r.out.Result.IsError && r.out.ErrorCode() == "INVALID_ARGUMENT", r.out,
					"{} must be rejected with INVALID_ARGUMENT by %s, whose strict schema requires a discriminator", name)
				s.expect(len(r.out.Journal) == 0, r.out, "{} must not reach upstream")
			})
		}
		s.ClauseItFor("VERIFY-SCHEMA-REJECT-BEFORE-UPSTREAM-001", name, ginkgo.Label(LabelNeedsMock), func() {
			var e errs
			for _, r := range runs {
				if !r.valid && len(r.out.Journal) > 0 {
					e.addf("%s: %d upstream calls, first %s %s", r.label(), len(r.out.Journal), r.out.Journal[0].Method, r.out.Journal[0].Path)
				}
			}
			s.expectNone(e, "invalid arguments of "+name+" reached upstream")
		})
		s.ClauseItFor("DECISION-D1-STRICT-001", name, func() {
			var e errs
			for _, r := range runs {
				if r.valid || r.out.ErrorCode() != "INVALID_ARGUMENT" || r.ex.Pointer == "" {
					continue
				}
				if f := r.out.Envelope.Error.Field; !fieldMatches(f, r.ex.Pointer) {
					e.addf("%s: error.field is %q, want the failing field %s", r.label(), f, r.ex.Pointer)
				}
			}
			s.expectNone(e, "INVALID_ARGUMENT errors of "+name+" do not name the failing field")
		})
		s.ClauseItFor("VERIFY-OUTPUT-STRUCTURED-001", name, func() {
			var e errs
			for _, r := range runs {
				for _, v := range r.out.Violations {
					switch v.Clause {
					case "RESULTS-ISERROR-001", "RESULTS-STRUCTURED-001", "MCP-TOOLS-OUTPUT-CONFORM-001", "RESULTS-OUTPUTSCHEMA-001":
						e.addf("%s: %s: %s", r.label(), v.Clause, v.Message)
					}
				}
			}
			s.expectNone(e, "results of "+name+" do not validate, differ from their text block or disagree on isError")
		})
		for _, clause := range []string{"RESULTS-ISERROR-001", "RESULTS-STRUCTURED-001", "MCP-TOOLS-OUTPUT-CONFORM-001", "RESULTS-OUTPUTSCHEMA-001", "RESULTS-ENVELOPE-001"} {
			s.ClauseItFor(clause, name+".results", func() {
				var e errs
				for _, r := range runs {
					for _, v := range r.out.Violations {
						if v.Clause == clause {
							e.addf("%s: %s", r.label(), v.Message)
						}
					}
				}
				s.expectNone(e, "results of "+name+" break "+clause)
			})
		}
	})
}

// stateRefusal reports whether an INVALID_ARGUMENT answer to schema-valid
// arguments is a state-dependent runtime rule: the server read upstream
// state first (e.g. the show's seasons, the saved log files, the user list,
// the feature names: input outline runtime rules), sent nothing but reads,
// and named the failing field. A refusal of schema-valid arguments with no
// upstream read is a schema disagreement and fails the check.
func stateRefusal(o *harness.Outcome) bool {
	// a fresh jwt server logs in on its first call: the login is not the
	// state the refusal consulted
	calls := withoutLogin(o.Journal)
	if len(calls) == 0 || o.Envelope == nil || o.Envelope.Error == nil || o.Envelope.Error.Field == "" {
		return false
	}
	for _, c := range calls {
		if c.Method != http.MethodGet {
			return false
		}
	}
	return true
}

package framework

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ombi-mcp/ombi-mcp/conformance/harness"
	"github.com/ombi-mcp/ombi-mcp/spec"
)

// What a server implements decides what the suite judges. A catalogue
// tool the server does not list, and did not declare with --tools or
// --bundles, is unimplemented: its checks end in StateUnimplemented, never
// passed and never a misleading failure. A declared tool the server does
// not list is judged, and fails. An auth mode the server refuses to start
// in fails one check (VERIFY-AUTH-STARTUP-001.mode.MODE); the checks that
// need that mode are unimplemented.

// ToolReasonPrefix starts the reason of a check unimplemented for its tool.
const ToolReasonPrefix = "the server does not list "

// AuthModes are the auth modes a server can be judged in, in the order the
// suite tries them.
var AuthModes = []string{"jwt", "api_key"}

// ToolStatus is what the run learned of one catalogue tool.
type ToolStatus struct {
	Name     string `json:"name"`
	Bundle   string `json:"bundle"`
	Listed   bool   `json:"listed"`   // in the server's tools/list with every bundle enabled
	Declared bool   `json:"declared"` // named by --tools or --bundles
}

// Judged reports whether the tool's checks run: listed or declared.
func (t ToolStatus) Judged() bool { return t.Listed || t.Declared }

// ModeStatus is the outcome of starting the server in one auth mode.
type ModeStatus struct {
	Mode    string `json:"mode"`
	Refused string `json:"refused,omitempty"` // why the server did not start; "" = it did
}

// scope is what the preflight learned: the auth mode checks run in by
// default, the modes tried and the catalogue tools listed or declared.
type scope struct {
	mode   string // the first mode the server started in
	modes  []ModeStatus
	tools  map[string]ToolStatus
	listed []*mcp.Tool // what the server lists in mode, in its order
}

// ownTools are the server's own tools as ToolStatus rows, in its order: the
// per-tool table of a run in profile any.
func (sc *scope) ownTools() []ToolStatus {
	var out []ToolStatus
	for _, t := range sc.listed {
		out = append(out, ToolStatus{Name: t.Name, Listed: true})
	}
	return out
}

// DeclaredTools resolves --tools and --bundles to tool names; an unknown
// name is a usage error.
func DeclaredTools(tools, bundles []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, name := range tools {
		if _, ok := spec.Lookup(name); !ok {
			return nil, fmt.Errorf("--tools: %q is not a catalogue tool (see ombi-conformance --list)", name)
		}
		out[name] = true
	}
	known := []string{spec.BundleCore, spec.BundleModeration, spec.BundleAdministration}
	for _, b := range bundles {
		if !slices.Contains(known, b) {
			return nil, fmt.Errorf("--bundles: %q is not a bundle (known: %s)", b, strings.Join(known, ","))
		}
		for _, t := range spec.Tools() {
			if t.Bundle == b {
				out[t.Name] = true
			}
		}
	}
	return out, nil
}

// Modes are the auth modes this run tries: a live run, and a run of a
// server already running at --url (which the suite cannot restart in
// another mode), use the one configured mode (--auth-mode, jwt by
// default); a mock run the declared ones (both by default).
func (o Options) Modes() []string {
	if o.OmbiURL != "" || o.Target.URL != "" {
		if o.AuthMode == "" {
			return []string{"jwt"}
		}
		return []string{o.AuthMode}
	}
	if len(o.AuthModes) == 0 {
		return AuthModes
	}
	return o.AuthModes
}

// preflight starts the server once in every auth mode of the run and lists
// its tools. A server that starts in none of them is a harness error,
// reported once instead of as hundreds of failures.
func (s *Suite) preflight(ctx context.Context) error {
	declared, err := DeclaredTools(s.opts.Tools, s.opts.Bundles)
	if err != nil {
		return err
	}
	sc := &scope{tools: map[string]ToolStatus{}}
	var listed []string
	var reasons []string
	for _, mode := range s.opts.Modes() {
		tools, err := s.listIn(ctx, mode)
		if err != nil {
			sc.modes = append(sc.modes, ModeStatus{Mode: mode, Refused: err.Error()})
			reasons = append(reasons, fmt.Sprintf("%s: %v", mode, err))
			continue
		}
		sc.modes = append(sc.modes, ModeStatus{Mode: mode})
		if sc.mode == "" {
			sc.mode, listed, sc.listed = mode, ToolNames(tools), tools
		}
	}
	for _, t := range spec.Tools() {
		sc.tools[t.Name] = ToolStatus{Name: t.Name, Bundle: t.Bundle, Listed: slices.Contains(listed, t.Name), Declared: declared[t.Name]}
	}
	s.scope = sc
	if sc.mode == "" {
		return fmt.Errorf("the server started in none of the auth modes tried:\n%s", strings.Join(reasons, "\n"))
	}
	return nil
}

func (s *Suite) listIn(ctx context.Context, mode string) ([]*mcp.Tool, error) {
	srv, err := s.h.Start(ctx, harness.Config{Bundles: harness.AllBundles, AuthMode: mode})
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	return srv.Tools(ctx)
}

// toolList is what the preflight learned of each catalogue tool, in
// catalogue order.
func (sc *scope) toolList() []ToolStatus {
	var out []ToolStatus
	for _, t := range spec.Tools() {
		out = append(out, sc.tools[t.Name])
	}
	return out
}

// describe prints what the preflight learned, before the checks run.
func (sc *scope) describe(w io.Writer) {
	var listed, declared, unimplemented []string
	for _, t := range spec.Tools() {
		st := sc.tools[t.Name]
		switch {
		case st.Listed:
			listed = append(listed, t.Name)
		case st.Declared:
			declared = append(declared, t.Name)
		default:
			unimplemented = append(unimplemented, t.Name)
		}
	}
	var modes []string
	for _, m := range sc.modes {
		if m.Refused != "" {
			modes = append(modes, m.Mode+" refused")
		} else {
			modes = append(modes, m.Mode+" ok")
		}
	}
	fmt.Fprintf(w, "ombi-conformance: auth modes %s; checks run in %s unless they need another\n", strings.Join(modes, ", "), sc.mode)
	fmt.Fprintf(w, "ombi-conformance: %d of %d catalogue tools listed", len(listed), len(spec.Tools()))
	if len(declared) > 0 {
		fmt.Fprintf(w, "; declared but not listed (judged, failing): %s", strings.Join(declared, ", "))
	}
	if len(unimplemented) > 0 {
		fmt.Fprintf(w, "; unimplemented (checks not judged): %s", strings.Join(unimplemented, ", "))
	}
	fmt.Fprintln(w)
}

// Judged reports whether checks of a catalogue tool run. Names outside the
// catalogue (and every tool before the preflight) are judged.
func (s *Suite) Judged(tool string) bool {
	if s.scope == nil {
		return true
	}
	t, ok := s.scope.tools[tool]
	return !ok || t.Judged()
}

// JudgedTools are the catalogue tools whose checks run, in catalogue order.
func (s *Suite) JudgedTools() []spec.Tool {
	var out []spec.Tool
	for _, t := range spec.Tools() {
		if s.Judged(t.Name) {
			out = append(out, t)
		}
	}
	return out
}

// RequireTool ends the current check as unimplemented when it needs a tool
// the server neither lists nor declares.
func (s *Suite) RequireTool(tool string) {
	if !s.Judged(tool) {
		SkipAs(StateUnimplemented, ToolReasonPrefix+tool+" (declare it with --tools or --bundles to have it judged)")
	}
}

// RequireMode ends the current check as unimplemented when it needs an
// auth mode the run does not judge: refused by the server (which fails
// VERIFY-AUTH-STARTUP-001.mode.MODE) or not declared with --auth-modes.
func (s *Suite) RequireMode(mode string) {
	if s.scope == nil || s.opts.OmbiURL != "" {
		return
	}
	if mode == "" {
		mode = "jwt"
	}
	refused, tried := s.scope.refusal(mode)
	switch {
	case !tried:
		SkipAs(StateUnimplemented, "needs auth mode "+mode+", not among --auth-modes")
	case refused != "":
		SkipAs(StateUnimplemented, "needs auth mode "+mode+", which the server refused to start in")
	}
}

// Refusal reports why the server refused to start in an auth mode ("" when
// it started), and whether the run tried that mode at all; before the
// preflight, "" and false.
func (s *Suite) Refusal(mode string) (refused string, tried bool) {
	if s.scope == nil {
		return "", false
	}
	return s.scope.refusal(mode)
}

// Listed are the tools the server lists with every bundle enabled, in its
// order, in the first auth mode it started in; nil before the preflight.
func (s *Suite) Listed() []*mcp.Tool {
	if s.scope == nil {
		return nil
	}
	return s.scope.listed
}

// ToolStatus is what the preflight learned of a catalogue tool; false
// before the preflight and for a name outside the catalogue.
func (s *Suite) ToolStatus(tool string) (ToolStatus, bool) {
	if s.scope == nil {
		return ToolStatus{}, false
	}
	st, ok := s.scope.tools[tool]
	return st, ok
}

// ToolNames are the names of tools, in their order.
func ToolNames(tools []*mcp.Tool) []string {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	return names
}

func (sc *scope) refusal(name string) (refused string, tried bool) {
	for _, m := range sc.modes {
		if m.Mode == name {
			return m.Refused, true
		}
	}
	return "", false
}

// JudgedNames keeps the names whose checks run.
func (s *Suite) JudgedNames(names []string) []string {
	var out []string
	for _, n := range names {
		if s.Judged(n) {
			out = append(out, n)
		}
	}
	return out
}

package server

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// declared holds the names a package declares: top-level functions, types,
// variables and constants, and the methods and struct fields of its types.
type declared struct {
	top     map[string]bool
	members map[string]bool
	strings map[string]bool // the values of its string constants
}

// declaredIn parses every Go file of dir (tests included) and collects
// what it declares.
func declaredIn(t *testing.T, dir string) declared {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("list the Go files of %s: %v", dir, err)
	}
	d := declared{top: map[string]bool{}, members: map[string]bool{}, strings: map[string]bool{}}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv != nil {
					d.members[decl.Name.Name] = true
				} else {
					d.top[decl.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, sp := range decl.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						d.top[sp.Name.Name] = true
						ast.Inspect(sp.Type, func(n ast.Node) bool {
							if f, ok := n.(*ast.Field); ok {
								for _, id := range f.Names {
									d.members[id.Name] = true
								}
							}
							return true
						})
					case *ast.ValueSpec:
						for _, id := range sp.Names {
							d.top[id.Name] = true
						}
						for _, v := range sp.Values {
							if lit, ok := v.(*ast.BasicLit); ok && decl.Tok == token.CONST && lit.Kind == token.STRING {
								d.strings[strings.Trim(lit.Value, "`\"")] = true
							}
						}
					}
				}
			}
		}
	}
	return d
}

var (
	// inlineCode is one backquoted span of Markdown.
	inlineCode = regexp.MustCompile("`([^`]+)`")
	// goName is a Go name as a guide writes it: an optional & or *, a
	// selector chain, optional type arguments, optional call or literal.
	goName = regexp.MustCompile(`^[&*]?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(\[[^\]]*\])?(\(.*\)|\{.*\})?$`)
	// codeName is a call or composite literal inside a Go code block.
	codeName = regexp.MustCompile(`([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?:\[\w+\])?[({]`)
	// guidePath is a file or folder of the repository, <x> standing for any name.
	guidePath = regexp.MustCompile(`^[\w./<>-]+(\.(go|json|md)|/)$`)
	// mixedCase is a single word that can only be a Go name (fooBar, FooBar, FlexID).
	mixedCase = regexp.MustCompile(`^(?:[a-z][a-z0-9]*[A-Z]|[A-Z][A-Za-z0-9]*[a-z])[A-Za-z0-9]*$`)
	// testName is a Go test function.
	testName = regexp.MustCompile(`^Test[A-Z]\w*$`)
	// errorCode is an envelope error code (NOT_FOUND).
	errorCode = regexp.MustCompile(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$`)
)

// goKeywords are the keywords and predeclared names a code block calls.
var goKeywords = map[string]bool{
	"func": true, "if": true, "for": true, "switch": true, "return": true, "struct": true,
	"interface": true, "map": true, "append": true, "len": true, "make": true, "new": true,
	"any": true, "error": true, "string": true, "int": true, "panic": true,
}

// foreignPackages are qualifiers of packages outside this module.
var foreignPackages = map[string]bool{
	"http": true, "url": true, "context": true, "json": true, "strings": true, "fmt": true,
	"errors": true, "mcp": true, "jsonrpc": true, "gock": true, "t": true, "time": true,
}

// TestContributingTools_namesExist keeps CONTRIBUTING-TOOLS.md true to the
// code: every Go name it writes in backquotes (or calls in a code block)
// is declared where it says, and every file path it names exists. An
// unqualified name is one of package server or of its upstream client
// (internal/ombi); ombi., spec. and mockombi. name those packages; a
// selector on a variable (c.warn) names a method or field of one of them;
// a test name (TestX_y) is a test of one of them or of the suite; an
// upper-case code (NOT_FOUND) is an error code of this package.
func TestContributingTools_namesExist(t *testing.T) {
	raw, err := os.ReadFile("CONTRIBUTING-TOOLS.md")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string]declared{
		"server":   declaredIn(t, "."),
		"ombi":     declaredIn(t, filepath.Join("internal", "ombi")),
		"spec":     declaredIn(t, filepath.Join("..", "spec")),
		"mockombi": declaredIn(t, filepath.Join("..", "mockombi")),
	}
	// for their test names
	suite := []declared{declaredIn(t, filepath.Join("..", "conformance")), declaredIn(t, filepath.Join("..", "conformance", "checks"))}
	memberOf := func(name string, in ...string) bool {
		for _, p := range in {
			if pkgs[p].members[name] {
				return true
			}
		}
		return false
	}
	checkName := func(line int, chain string) {
		t.Helper()
		parts := strings.Split(chain, ".")
		head, rest := parts[0], parts[1:]
		switch {
		case goKeywords[head] || foreignPackages[head]:
			return
		case len(parts) == 1:
			// a function, type, variable or constant, or a method of the
			// client named on its own (NewRequest, Do)
			if !pkgs["server"].top[head] && !pkgs["ombi"].top[head] && !memberOf(head, "server", "ombi") {
				t.Errorf("CONTRIBUTING-TOOLS.md:%d: %s is declared in neither package server nor internal/ombi", line, head)
			}
			return
		}
		in := []string{"server", "ombi"} // a selector on a variable (c.warn, d.client)
		if _, ok := pkgs[head]; ok {
			// a qualified name: ombi.ArgumentError, spec.Validator.ValidateOutput
			if !pkgs[head].top[rest[0]] {
				t.Errorf("CONTRIBUTING-TOOLS.md:%d: %s: package %s declares no %s", line, chain, head, rest[0])
				return
			}
			in, rest = []string{head}, rest[1:]
		} else if head[0] >= 'A' && head[0] <= 'Z' {
			// a type and its members: Client.NewRequest
			in = nil
			for p, d := range pkgs {
				if d.top[head] {
					in = append(in, p)
				}
			}
			if len(in) == 0 {
				t.Errorf("CONTRIBUTING-TOOLS.md:%d: %s: no package declares %s", line, chain, head)
				return
			}
		}
		for _, m := range rest {
			if !memberOf(m, in...) {
				t.Errorf("CONTRIBUTING-TOOLS.md:%d: %s: no method or field %s in %s", line, chain, m, strings.Join(in, ", "))
			}
		}
	}
	checkPath := func(line int, p string) {
		t.Helper()
		pattern := regexp.MustCompile(`<[^>]+>`).ReplaceAllString(strings.TrimSuffix(p, "/"), "*")
		for _, dir := range []string{".", ".."} {
			if m, _ := filepath.Glob(filepath.Join(dir, pattern)); len(m) > 0 {
				return
			}
		}
		t.Errorf("CONTRIBUTING-TOOLS.md:%d: %s exists neither in server/ nor in the repository root", line, p)
	}
	names, paths := 0, 0
	inGo := false
	for i, text := range strings.Split(string(raw), "\n") {
		line := i + 1
		if trimmed := strings.TrimSpace(text); strings.HasPrefix(trimmed, "```") {
			inGo = trimmed == "```go"
			continue
		}
		if inGo {
			code, _, _ := strings.Cut(text, "//")
			for _, m := range codeName.FindAllStringSubmatch(code, -1) {
				checkName(line, m[1])
				names++
			}
			continue
		}
		for _, m := range inlineCode.FindAllStringSubmatch(text, -1) {
			span := strings.TrimSpace(m[1])
			if guidePath.MatchString(span) && (strings.Contains(span, "/") || strings.Contains(span, ".")) {
				checkPath(line, span)
				paths++
				continue
			}
			if testName.MatchString(span) {
				found := suite[0].top[span] || suite[1].top[span]
				for _, d := range pkgs {
					found = found || d.top[span]
				}
				if !found {
					t.Errorf("CONTRIBUTING-TOOLS.md:%d: no test %s in server, internal/ombi, spec, mockombi or conformance", line, span)
				}
				names++
				continue
			}
			if errorCode.MatchString(span) {
				if !pkgs["server"].strings[span] {
					t.Errorf("CONTRIBUTING-TOOLS.md:%d: %s is no error code of package server", line, span)
				}
				names++
				continue
			}
			g := goName.FindStringSubmatch(span)
			if g == nil {
				continue
			}
			chain := g[1]
			qualified := strings.Contains(chain, ".")
			if g[2] == "" && g[3] == "" && !strings.HasPrefix(span, "&") && !qualified && !mixedCase.MatchString(chain) {
				continue // a lower-case word: a JSON member, a value, prose
			}
			checkName(line, chain)
			names++
			for _, m := range codeName.FindAllStringSubmatch(g[3], -1) { // the calls among its arguments
				checkName(line, m[1])
				names++
			}
		}
	}
	if names < 20 || paths < 8 {
		t.Errorf("CONTRIBUTING-TOOLS.md: %d Go names and %d paths checked; the guide names more, so the parsing is broken", names, paths)
	}
}

package mockombi

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

// TestDocs_goAPINamesExist: every Go name the Go API section and the
// control API's "Go twins" of docs/mockombi.md show (`Name`, `Name(...)`, mockombi.Name):
// functions, methods, types, constants and fields, is in the package's
// exported API, so the page cannot go on describing a constructor or a
// method that is gone.
func TestDocs_goAPINamesExist(t *testing.T) {
	doc, err := os.ReadFile("../docs/mockombi.md")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	// an alias of a type of the store's package (mockombi.User = db.User)
	// exports that type's fields
	dbFields := map[string][]*ast.Ident{}
	dbFiles, err := filepath.Glob("internal/db/*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range dbFiles {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sp, ok := n.(*ast.TypeSpec); ok {
				if st, ok := sp.Type.(*ast.StructType); ok {
					for _, fl := range st.Fields.List {
						dbFields[sp.Name.Name] = append(dbFields[sp.Name.Name], fl.Names...)
					}
				}
			}
			return true
		})
	}
	exported := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				exported[d.Name.Name] = d.Name.IsExported() // methods of any type, and functions
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						exported[sp.Name.Name] = sp.Name.IsExported()
						if sel, ok := sp.Type.(*ast.SelectorExpr); ok && sp.Assign.IsValid() && sp.Name.IsExported() {
							for _, n := range dbFields[sel.Sel.Name] {
								exported[n.Name] = n.IsExported()
							}
						}
						if st, ok := sp.Type.(*ast.StructType); ok && sp.Name.IsExported() {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									exported[n.Name] = n.IsExported()
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							exported[n.Name] = n.IsExported()
						}
					}
				}
			}
		}
	}
	_, goAPI, ok := strings.Cut(string(doc), "\n## Go API\n")
	if i := strings.Index(goAPI, "\n## "); i >= 0 {
		goAPI = goAPI[:i]
	}
	_, twins, ok2 := strings.Cut(string(doc), "\nThe Go twins: ")
	twins, _, _ = strings.Cut(twins, "\n\n")
	if !ok || !ok2 {
		t.Fatal(`docs/mockombi.md has no "## Go API" section or no "The Go twins:" paragraph`)
	}
	text := goAPI + "\n" + twins
	// `Name`, `Name(...)`, `*mockombi.Name`, and in the code mockombi.Name and srv.Name(
	names := regexp.MustCompile("`\\*?(?:mockombi\\.)?([A-Z][A-Za-z0-9]*)(?:`|\\()|\\b(?:mockombi|srv)\\.([A-Z][A-Za-z0-9]*)").FindAllStringSubmatch(text, -1)
	if len(names) < 10 {
		t.Fatalf("found only %d API names in the sections; the pattern no longer matches the page", len(names))
	}
	for _, m := range names {
		name := m[1] + m[2]
		if !exported[name] {
			t.Errorf("docs/mockombi.md names %s, which the package does not export", name)
		}
	}
}

package state

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestViews_declaredInWireOrder: a struct of this package that
// encoding/json writes as it is declared (no MarshalJSON of its own, so
// no marshalWith to sort it) declares its json members in sorted order,
// the order of the map it stands for; one that embeds a struct has a
// MarshalJSON.
func TestViews_declaredInWireOrder(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	marshalers := map[string]bool{}
	structs := map[string]*ast.StructType{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch d := n.(type) {
			case *ast.FuncDecl:
				if d.Name.Name == "MarshalJSON" && d.Recv != nil {
					if star, ok := d.Recv.List[0].Type.(*ast.StarExpr); ok {
						marshalers[star.X.(*ast.Ident).Name] = true
					}
				}
			case *ast.TypeSpec:
				if st, ok := d.Type.(*ast.StructType); ok {
					structs[d.Name.Name] = st
				}
			}
			return true
		})
	}
	if len(structs) < 20 {
		t.Fatalf("read %d structs; the walk missed the package", len(structs))
	}
	for name, st := range structs {
		if marshalers[name] {
			continue
		}
		var tags []string
		for _, f := range st.Fields.List {
			if f.Tag == nil {
				if len(f.Names) == 0 {
					t.Errorf("%s embeds a struct without a MarshalJSON to sort its members", name)
				}
				continue
			}
			raw, _ := strconv.Unquote(f.Tag.Value)
			tag, _, _ := strings.Cut(reflect.StructTag(raw).Get("json"), ",")
			if tag != "" && tag != "-" {
				tags = append(tags, tag)
			}
		}
		if !slices.IsSorted(tags) {
			t.Errorf("%s: json members declared out of sorted order: %v", name, tags)
		}
	}
}

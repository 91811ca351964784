package state

import (
	"embed"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sources are the package's files, read by the declaration tests.
//
//go:embed *.go
var sources embed.FS

// declarations reads the package's struct types and the names of the
// types with a MarshalJSON method.
func declarations(t *testing.T) (structs map[string]*ast.StructType, marshalers map[string]bool) {
	t.Helper()
	entries, err := sources.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	structs, marshalers = map[string]*ast.StructType{}, map[string]bool{}
	visit := func(n ast.Node) bool {
		switch d := n.(type) {
		case *ast.FuncDecl:
			if star, ok := d.Recv.List[0].Type.(*ast.StarExpr); ok && d.Name.Name == "MarshalJSON" {
				marshalers[star.X.(*ast.Ident).Name] = true
			}
			return false
		case *ast.TypeSpec:
			if st, ok := d.Type.(*ast.StructType); ok {
				structs[d.Name.Name] = st
			}
		}
		return true
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		src, err := sources.ReadFile(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), e.Name(), src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				continue
			}
			ast.Inspect(d, visit)
		}
	}
	return structs, marshalers
}

// TestViews_declaredInWireOrder: a struct of this package that
// encoding/json writes as it is declared (no MarshalJSON of its own, so
// no marshalWith to sort it) declares its json members in sorted order,
// the order of the map it stands for; one that embeds a struct has a
// MarshalJSON.
func TestViews_declaredInWireOrder(t *testing.T) {
	structs, marshalers := declarations(t)
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

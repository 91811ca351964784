package mutant

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Operator mutants are generated, not written: every place in the
// reference server's code (server/, tests left out) where one operator can
// be swapped for its neighbour is a site, and a seeded sample of sites is
// judged like the hand-written source mutants. Nobody chose them, so the
// share the suite kills is an unbiased measure of what it catches. A site
// whose mutant does not compile (a string +, say) is not viable and does
// not count.

// Operators names the operator classes and the swaps they make.
var Operators = map[string]map[token.Token]token.Token{
	"boundary":   {token.LSS: token.LEQ, token.LEQ: token.LSS, token.GTR: token.GEQ, token.GEQ: token.GTR},
	"negation":   {token.EQL: token.NEQ, token.NEQ: token.EQL},
	"logical":    {token.LAND: token.LOR, token.LOR: token.LAND},
	"arithmetic": {token.ADD: token.SUB, token.SUB: token.ADD, token.MUL: token.QUO, token.QUO: token.MUL},
	"increment":  {token.INC: token.DEC, token.DEC: token.INC},
}

// Site is one operator that can be swapped: the file (relative to the
// module root), the byte offset and text of the operator, its replacement,
// its class (a key of Operators, or "not" for a removed !) and its line.
type Site struct {
	File     string
	At       int
	Old, New string
	Operator string
	Line     int
	Package  string // the directory of File, e.g. server/internal/ombi
}

// OperatorSites lists every site under root's server/ directory, in file
// and offset order.
func OperatorSites(root string) ([]Site, error) {
	var files []string
	err := filepath.WalkDir(filepath.Join(root, "server"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list operator sites: %w", err)
	}
	sort.Strings(files)
	var out []Site
	fset := token.NewFileSet()
	for _, p := range files {
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("list operator sites: %w", err)
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		add := func(pos token.Pos, old, new, op string) {
			position := fset.Position(pos)
			out = append(out, Site{File: rel, At: position.Offset, Old: old, New: new, Operator: op, Line: position.Line, Package: filepath.ToSlash(filepath.Dir(rel))})
		}
		swap := func(pos token.Pos, tok token.Token) {
			for class, swaps := range Operators {
				if to, ok := swaps[tok]; ok {
					add(pos, tok.String(), to.String(), class)
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if n.Op == token.ADD && (isString(n.X) || isString(n.Y)) {
					return true // string concatenation: - would not compile
				}
				swap(n.OpPos, n.Op)
			case *ast.IncDecStmt:
				swap(n.TokPos, n.Tok)
			case *ast.UnaryExpr:
				if n.Op == token.NOT {
					add(n.OpPos, "!", "", "not")
				}
			}
			return true
		})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].At < out[j].At
	})
	return out, nil
}

func isString(e ast.Expr) bool {
	l, ok := e.(*ast.BasicLit)
	return ok && l.Kind == token.STRING
}

// SampleOperators draws n sites without replacement, the same ones for the
// same seed and sites, and returns them as source mutants named
// op-FILE-LINE-OPERATOR (with a counter when a line has several).
func SampleOperators(sites []Site, n int, seed uint64) []Source {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	idx := r.Perm(len(sites))
	if n < len(idx) {
		idx = idx[:n]
	}
	sort.Ints(idx)
	var out []Source
	names := map[string]int{}
	for _, i := range idx {
		s := sites[i]
		name := fmt.Sprintf("op-%s-%d-%s", strings.NewReplacer("/", "-", ".go", "").Replace(strings.TrimPrefix(s.File, "server/")), s.Line, s.Operator)
		names[name]++
		if k := names[name]; k > 1 {
			name = fmt.Sprintf("%s-%d", name, k)
		}
		out = append(out, Source{
			Name: name, Domain: s.Package, Clause: "",
			Description: fmt.Sprintf("%s:%d: %q becomes %q (%s)", s.File, s.Line, s.Old, s.New, s.Operator),
			File:        s.File, Old: s.Old, New: s.New, At: s.At,
		})
	}
	return out
}

// Package funclen measures the Go functions of a tree (go/ast): the
// command internal/tools/funclen lists the long ones and the root
// package's tree test holds their number down.
package funclen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// Func is one function or method and its length.
type Func struct {
	Name  string // "Run", "(*Solver).search"
	File  string // the file, slash-separated, relative to the walked dir
	Line  int    // the func keyword's line
	Lines int    // from the func keyword to the closing brace, both counted
}

// Walk measures every function declared in the .go files under dir
// (tests included; generated files, vendor/, testdata/ and dot
// directories left out), longest first.
func Walk(dir string) ([]Func, error) {
	var out []Func
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			n := d.Name()
			if path != dir && (strings.HasPrefix(n, ".") || n == "vendor" || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
			out = append(out, Func{Name: name(fd), File: filepath.ToSlash(rel), Line: start.Line, Lines: end.Line - start.Line + 1})
		}
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Lines != out[j].Lines {
			return out[i].Lines > out[j].Lines
		}
		return out[i].File+out[i].Name < out[j].File+out[j].Name
	})
	return out, err
}

// name is a function's name, a method's with its receiver's type:
// "(*Solver).search", "(Card).String".
func name(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	id, _ := t.(*ast.Ident)
	if id == nil {
		return fd.Name.Name
	}
	if star != "" {
		return "(*" + id.Name + ")." + fd.Name.Name
	}
	return "(" + id.Name + ")." + fd.Name.Name
}

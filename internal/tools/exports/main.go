// Command exports lists the exported package-level names of the module
// (functions, types, variables, constants) that no other package uses:
//
//	go run ./internal/tools/exports [dir]
//
// A name counts as used when a file of another package refers to it
// (pkg.Name), tests of other packages included: they are clients of the
// package like any other. The package's own tests do not count (a name
// exported only for them is a candidate all the same), but such names are
// marked "(own tests)": unexporting them means moving those tests inside
// the package or giving them an export_test.go. Methods and struct fields
// are not listed (an interface or encoding/json may use them unseen),
// nor are main packages, generated files, or names in internal/tools.
//
// The check is by syntax (no type checking): a package is known by its
// import path and the name it is imported under, and a name reached only
// through inference (a returned value's type never written out) is not a
// use, so a listed type may still be needed in an exported signature.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

type pkg struct {
	dir, path, name string
	names           map[string]string // exported name -> kind and position
}

// file is one parsed Go file of the tree.
type file struct {
	f    *ast.File
	path string // the package's import path
	test bool
}

func main() {
	flag.Parse()
	root := "."
	if flag.NArg() > 0 {
		root = flag.Arg(0)
	}
	module, err := modulePath(root)
	if err != nil {
		fatal(err)
	}
	pkgs := map[string]*pkg{} // by import path
	var files []file
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "vendor" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		ip := path.Join(module, filepath.ToSlash(rel))
		test := strings.HasSuffix(p, "_test.go")
		files = append(files, file{f, ip, test})
		if test || ast.IsGenerated(f) || f.Name.Name == "main" || strings.Contains(ip, "/internal/tools") {
			return nil
		}
		pk := pkgs[ip]
		if pk == nil {
			pk = &pkg{dir: filepath.Dir(p), path: ip, name: f.Name.Name, names: map[string]string{}}
			pkgs[ip] = pk
		}
		pk.collect(f, fset)
		return nil
	})
	if err != nil {
		fatal(err)
	}
	used, ownTest := uses(files, pkgs)
	var out []string
	total := 0
	for ip, pk := range pkgs {
		for n, where := range pk.names {
			total++
			key := ip + "." + n
			if used[key] {
				continue
			}
			mark := ""
			if ownTest[key] {
				mark = " (own tests)"
			}
			out = append(out, fmt.Sprintf("%s.%s\t%s%s", strings.TrimPrefix(ip, module+"/"), n, where, mark))
		}
	}
	sort.Strings(out)
	for _, l := range out {
		fmt.Println(l)
	}
	fmt.Fprintf(os.Stderr, "exports: %d of %d exported names unused outside their package\n", len(out), total)
}

// collect records the exported functions, types, constants and variables
// f declares.
func (pk *pkg) collect(f *ast.File, fset *token.FileSet) {
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.IsExported() {
				pk.names[d.Name.Name] = "func " + fset.Position(d.Pos()).String()
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch s := sp.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						pk.names[s.Name.Name] = "type " + fset.Position(s.Pos()).String()
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							pk.names[n.Name] = d.Tok.String() + " " + fset.Position(n.Pos()).String()
						}
					}
				}
			}
		}
	}
}

// uses returns the exported names (path.Name) used by another package, and
// those used by the package's own external tests.
func uses(files []file, pkgs map[string]*pkg) (used, ownTest map[string]bool) {
	used, ownTest = map[string]bool{}, map[string]bool{}
	for _, fl := range files {
		local := map[string]string{} // name in file -> import path
		for _, im := range fl.f.Imports {
			ip, _ := strconv.Unquote(im.Path.Value)
			pk := pkgs[ip]
			if pk == nil {
				continue
			}
			n := pk.name
			if im.Name != nil {
				n = im.Name.Name
			}
			local[n] = ip
		}
		ast.Inspect(fl.f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			ip, ok := local[x.Name]
			if !ok {
				return true
			}
			key := ip + "." + sel.Sel.Name
			if ip == fl.path && fl.test { // the package's external test
				ownTest[key] = true
			} else {
				used[key] = true
			}
			return true
		})
	}
	return used, ownTest
}

// modulePath reads the module's path from root/go.mod.
func modulePath(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
			return strings.TrimSpace(rest), nil
		}
	}
	return "", fmt.Errorf("no module line in %s/go.mod", root)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "exports:", err)
	os.Exit(1)
}

package modelfile

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDecodersCallableOutside: the exported functions of the model-file formats (qn, spmd,
// pipeline, fit, tpn) name no type of an internal package in their parameters or results,
// so a program outside this module can call them (issue 28: DecodeModel took
// *spec.Decoder and spec.Node, which no one outside the module can name). Methods are
// left out: their receivers are the packages' own types.
func TestDecodersCallableOutside(t *testing.T) {
	for _, pkg := range []string{"qn", "spmd", "pipeline", "fit", "tpn"} {
		files, err := filepath.Glob(filepath.Join("..", pkg, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			internal := map[string]bool{} // import names of internal packages
			for _, im := range f.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				if strings.Contains(p, "/internal/") {
					name := filepath.Base(p)
					if im.Name != nil {
						name = im.Name.Name
					}
					internal[name] = true
				}
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv != nil || !fd.Name.IsExported() {
					continue
				}
				ast.Inspect(fd.Type, func(n ast.Node) bool {
					if sel, ok := n.(*ast.SelectorExpr); ok {
						if id, ok := sel.X.(*ast.Ident); ok && internal[id.Name] {
							t.Errorf("%s: %s takes or returns %s.%s, an internal type", path, fd.Name.Name, id.Name, sel.Sel.Name)
						}
					}
					return true
				})
			}
		}
	}
}

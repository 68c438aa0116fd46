package funclen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestFunctionLength walks the module's non-test Go files (not generated ones, not
// testdata) and fails for a function longer than MaxLines that is not in longFunctions,
// or one of those that grew. longFunctions is the list of 2026-11-27 (issue 28: 51
// functions; each split removes its entry, and a function under the limit that still has
// an entry fails too, so the list only shrinks). Keyed by function name (method names
// without receiver), so a function moved to another package keeps its entry.
func TestFunctionLength(t *testing.T) {
	root := filepath.Join("..", "..")
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			if n <= MaxLines {
				continue
			}
			name := fd.Name.Name
			seen[name] = true
			allowed, ok := longFunctions[name]
			switch {
			case !ok:
				t.Errorf("%s: %s is %d lines, over %d: split it", fset.Position(fd.Pos()), name, n, MaxLines)
			case n > allowed:
				t.Errorf("%s: %s grew to %d lines (listed at %d, limit %d): split it", fset.Position(fd.Pos()), name, n, allowed, MaxLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var gone []string
	for name := range longFunctions {
		if !seen[name] {
			gone = append(gone, name)
		}
	}
	sort.Strings(gone)
	for _, name := range gone {
		t.Errorf("%s is no longer over %d lines (or is gone): remove its entry from longFunctions", name, MaxLines)
	}
}

// longFunctions are the functions over MaxLines lines when the check was added (51, at
// their length then), to be split; all were by session 8, so the list is empty and any
// non-test function over MaxLines lines fails.
var longFunctions = map[string]int{}

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSeams: the model, solver and simulator packages import no CLI, plotting or
// rendering package (issue 15): importing the solver must not pull in cobra or gonum/plot.
// sim is included: its t-quantile comes from fit, which itself is clean.
func TestSeams(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	pkgs := []string{"qn", "spmd", "tpn", "mpip", "pipeline", "fit", "sim", "validate"}
	forbidden := []string{"github.com/spf13/cobra", "gonum.org/v1/plot", "github.com/clusterperf/clusterperf/report"}
	for _, p := range pkgs {
		out, err := exec.Command("go", "list", "-deps", "../../"+p).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", p, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, f := range forbidden {
				if dep == f || strings.HasPrefix(dep, f+"/") {
					t.Errorf("%s depends on %s", p, dep)
				}
			}
		}
	}
}

// TestThinCommands: no function in cmd/clusterperf is longer than 60 lines (issue 15: a
// command is flag parsing, one library call and one render). Tests are exempt.
func TestThinCommands(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			fd, ok := n.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				return true
			}
			lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			if lines > 60 {
				t.Errorf("%s: func %s is %d lines (at most 60)", fset.Position(fd.Pos()), fd.Name.Name, lines)
			}
			return false
		})
	}
}

// TestArchitecturePaths: every repository path ARCHITECTURE.md names in backquotes (a
// path with a slash, or a file name with an extension, or a package listed in its table)
// exists, so the document cannot drift from the tree silently.
func TestArchitecturePaths(t *testing.T) {
	root := "../.."
	b, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	quoted := regexp.MustCompile("`([^`\\s]+)`")
	looksLikePath := regexp.MustCompile(`^[A-Za-z0-9_.\-]+(/[A-Za-z0-9_.\-<>*]*)*$`)
	n := 0
	for _, m := range quoted.FindAllStringSubmatch(string(b), -1) {
		p := strings.TrimSuffix(m[1], "/")
		if !looksLikePath.MatchString(p) || !(strings.Contains(p, "/") || regexp.MustCompile(`\.(go|md|json|yaml|csv|sh|m|txtar)$`).MatchString(p)) {
			continue
		}
		if strings.ContainsAny(p, "<>*") { // a pattern such as docs/schema/<command>.schema.json
			p = filepath.Dir(p)
		}
		if first, _, _ := strings.Cut(p, "/"); first == strings.ToUpper(first) && strings.Contains(p, "/") {
			continue // a placeholder directory such as DIR/shard-i-of-n.json
		}
		n++
		if _, err := os.Stat(filepath.Join(root, p)); err == nil {
			continue
		}
		// a bare file name is looked up anywhere in the tree, a relative path under any
		// package (the packages table names files of the package in that row)
		if !strings.Contains(p, "/") && findFile(root, p) {
			continue
		}
		if under, _ := filepath.Glob(filepath.Join(root, "*", p)); len(under) > 0 {
			continue
		}
		t.Errorf("ARCHITECTURE.md names %q, which does not exist", m[1])
	}
	if n < 10 {
		t.Errorf("only %d paths found in ARCHITECTURE.md: the pattern is broken", n)
	}
}

func findFile(root, name string) bool {
	found := false
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == name {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

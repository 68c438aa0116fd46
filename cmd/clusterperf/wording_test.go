package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneSpellingOfUtilization: the JSON keys say utilization (American); messages, help,
// notes and table titles said "utilisation", so a user met two spellings of one quantity.
// Every string literal in the tree's Go code (what a user can see: errors, notes, help,
// titles) and every Markdown page must use the keys' spelling.
func TestOneSpellingOfUtilization(t *testing.T) {
	root := filepath.Join("..", "..")
	british := "utili" + "s" // spelt in two parts so this file does not match itself
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		switch {
		case strings.HasSuffix(path, ".go"):
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && strings.Contains(strings.ToLower(lit.Value), british) {
					t.Errorf("%s: string %.80s… spells it %sation; the keys say utilization", path, lit.Value, british)
				}
				return true
			})
		case strings.HasSuffix(path, ".md"), strings.HasSuffix(path, ".tmpl"), strings.HasSuffix(path, ".txtar"):
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if strings.Contains(strings.ToLower(string(data)), british) {
				t.Errorf("%s spells it %sation; the keys say utilization", path, british)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Package testfile is the tests' one way to read a data file through a package's parser:
// open it, parse it, and fail the test on an error (mpip, netbench and scaling use it).
package testfile

import (
	"io"
	"os"
	"testing"
)

// Parse opens path and parses it with parse under the name name (the name the parser's
// errors and results carry), failing tb on an error.
func Parse[T any](tb testing.TB, path, name string, parse func(string, io.Reader) (T, error)) T {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	v, err := parse(name, f)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

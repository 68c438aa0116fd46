package testfile

import (
	"io"
	"strings"
	"testing"
)

// TestParse: the parser receives the file's bytes and the given name, and its value comes
// back.
func TestParse(t *testing.T) {
	got := Parse(t, "testfile.go", "x.go", func(name string, r io.Reader) (string, error) {
		b, err := io.ReadAll(r)
		return name + ":" + strings.SplitN(string(b), "\n", 2)[0], err
	})
	if want := "x.go:// Package testfile is the tests' one way to read a data file through a package's parser:"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

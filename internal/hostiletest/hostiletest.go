// Package hostiletest runs a package's hostile-input corpus: files whose first line is
// "# want: FRAGMENT", each of which the package must refuse with an input error
// (fault.ErrInput) whose message names the file and contains the fragment (issue 12).
package hostiletest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// Run reads every file matching glob (at least min of them) and checks that read refuses
// it as described above.
func Run(t *testing.T, glob string, min int, read func(path string, data []byte) error) {
	t.Helper()
	files, _ := filepath.Glob(glob)
	if len(files) < min {
		t.Fatalf("%d hostile files match %s, want ≥ %d", len(files), glob, min)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(data), "\n")
			want, ok := strings.CutPrefix(first, "# want: ")
			if !ok || want == "" {
				t.Fatalf("first line %q is not '# want: fragment'", first)
			}
			err = read(f, data)
			if err == nil {
				t.Fatal("accepted")
			}
			if !errors.Is(err, fault.ErrInput) {
				t.Errorf("not an input error: %v", err)
			}
			if !strings.Contains(err.Error(), f) || !strings.Contains(err.Error(), want) {
				t.Errorf("got %v\nwant the file name and %q", err, want)
			}
		})
	}
}

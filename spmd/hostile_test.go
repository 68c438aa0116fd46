package spmd

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// wantFragment reads the "# want: fragment" first line of a hostile input file.
func wantFragment(t *testing.T, data []byte) string {
	t.Helper()
	first, _, _ := strings.Cut(string(data), "\n")
	want, ok := strings.CutPrefix(first, "# want: ")
	if !ok || want == "" {
		t.Fatalf("first line %q is not '# want: fragment'", first)
	}
	return want
}

// Every file in testdata/hostile is refused (parse, or evaluation over p, d = 1 … 64, 1 … 4)
// with an input error naming the file and containing the expected fragment (issue 12).
func TestHostileInputs(t *testing.T) {
	files, _ := filepath.Glob("testdata/hostile/*.yaml")
	if len(files) < 15 {
		t.Fatalf("%d hostile files, want ≥ 15", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want := wantFragment(t, data)
			m, err := ParseModel(f, data)
			if err == nil {
				var e *Evaluator
				if e, err = NewEvaluator(m); err == nil {
					ps := []int{1, 2, 3, 4, 8, 16, 64}
					_, _, err = e.Surface(ps, []int{1, 2, 4}, nil)
				}
			}
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

package pipeline

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// Every file in testdata/hostile is refused with an input error naming the file and
// containing the fragment on its first line ("# want: fragment"), issue 12.
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
			first, _, _ := strings.Cut(string(data), "\n")
			want, ok := strings.CutPrefix(first, "# want: ")
			if !ok {
				t.Fatalf("first line %q", first)
			}
			_, _, err = ParseModel(f, data)
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

// Extreme but valid: every constant at an end of its range gives finite positive times
// for p = 1 … 1e9 (the bounds in the comment of MaxElements).
func TestExtremeRangesFinite(t *testing.T) {
	for _, sp := range []SortParams{
		{N: MaxElements, S: 2, CQ: MaxCoef, CM: MaxCoef, BIO: MinRate, LN: MaxSeconds, BN: MinRate, BGather: MinRate},
		{N: MaxElements, S: MaxElements, CQ: MinCoef, CM: MinCoef, BIO: MaxRate, LN: 0, BN: MaxRate, BGather: MaxRate},
		{N: 2, S: 1.5, CQ: MinCoef, CM: MaxCoef, BIO: MaxRate, LN: 0, BN: MinRate, BGather: MaxRate},
	} {
		m := sp.Model("")
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, p := range []int{1, 2, 1000, 1_000_000, MaxP} {
			pt := m.Predict(p)
			if !(pt.Time > 0) || math.IsInf(pt.Time, 0) {
				t.Errorf("%+v p = %d: time %v", sp, p, pt.Time)
			}
		}
	}
}

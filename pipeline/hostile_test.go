package pipeline

import (
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/internal/hostiletest"
)

// Every file in testdata/hostile is refused with an input error naming the file and
// containing the fragment on its first line ("# want: fragment"), issue 12.
func TestHostileInputs(t *testing.T) {
	hostiletest.Run(t, "testdata/hostile/*.yaml", 15, func(f string, data []byte) error {
		_, _, err := ParseModel(f, data)
		return err
	})
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

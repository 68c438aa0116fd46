package fit

import (
	"testing"

	"github.com/clusterperf/clusterperf/spmd"
)

// qcrdGrid is 42 (p, d) points of the Paragon runs of 000 §5.2: p = 1…64 by powers of two
// (7 values) × d = 1…32 (6 values).
var qcrdGrid = struct{ ps, ds []int }{[]int{1, 2, 4, 8, 16, 32, 64}, []int{1, 2, 4, 8, 16, 32}}

func BenchmarkFitQCRD(b *testing.B) {
	sp, truth := qcrdSpec()
	data := surface(b, sp, spmd.BusAIO, truth, qcrdGrid.ps, qcrdGrid.ds, 0.01, 42)
	if len(data.Obs) != 42 {
		b.Fatalf("%d observations", len(data.Obs))
	}
	for b.Loop() {
		if _, err := SPMD(sp, spmd.BusAIO, data); err != nil {
			b.Fatal(err)
		}
	}
}

package scaling

import (
	"math/rand/v2"
	"testing"

	"github.com/clusterperf/clusterperf/internal/testfile"
)

// loadSet reads the scaling data set at path (ReadCSV), failing tb on an error.
func loadSet(tb testing.TB, path string) *Data {
	return testfile.Parse(tb, path, path, ReadCSV)
}

// loadBench reads testdata/scaling/NAME.csv.
func loadBench(b *testing.B, name string) *Data {
	return loadSet(b, "../testdata/scaling/"+name+".csv")
}

// BenchmarkFitWavetrisk: Fit (548 strong-scaling candidates, LOO + forward chaining) on the
// 22-point wavetrisk_bbserv_2560 set.
func BenchmarkFitWavetrisk(b *testing.B) {
	d := loadBench(b, "wavetrisk_bbserv_2560")
	for b.Loop() {
		if _, err := Fit(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFitIsorank: Fit on a 5-point set.
func BenchmarkFitIsorank(b *testing.B) {
	d := loadBench(b, "isorank_m5k")
	for b.Loop() {
		if _, err := Fit(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFitUSLReplicates: Fit on 12 p × 3 replicates of USL data (36 points).
func BenchmarkFitUSLReplicates(b *testing.B) {
	d := uslData(rand.New(rand.NewPCG(1, 0)), 100, 0.05, 0.0005, 0.02, 3)
	for b.Loop() {
		if _, err := Fit(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFitNamedUSL: one bounded LM fit of USL (36 points) with its cross-validation.
func BenchmarkFitNamedUSL(b *testing.B) {
	d := uslData(rand.New(rand.NewPCG(1, 0)), 100, 0.05, 0.0005, 0.02, 3)
	for b.Loop() {
		if _, err := FitNamed(d, "usl"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCorpus: the backtest of the whole corpus (docs/extrapolation.md).
func BenchmarkCorpus(b *testing.B) {
	for b.Loop() {
		if _, err := RunCorpus("../testdata/scaling"); err != nil {
			b.Fatal(err)
		}
	}
}

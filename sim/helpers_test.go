package sim

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/spmd"
)

// checkAgrees fails t unless the simulated estimate e agrees with the analytic value: inside its
// 95 % interval, or within the relative tolerance rel (a 95 % interval misses one time in
// twenty, so a deterministic test allows a small absolute-relative margin as well).
func checkAgrees(t *testing.T, what string, e Estimate, want, rel float64) {
	t.Helper()
	if !e.Contains(want) && math.Abs(e.Mean-want) > rel*math.Abs(want) {
		t.Errorf("%s: simulated %.5g ± %.3g, analytic %.5g (outside the interval and %.2g %%)", what, e.Mean, e.Half, want, 100*rel)
		return
	}
	t.Logf("%s: simulated %.5g ± %.3g, analytic %.5g", what, e.Mean, e.Half, want)
}

// parseModel parses a qn model file given as text, failing t on an error.
func parseModel(t *testing.T, name string, src []byte) *qn.Model {
	t.Helper()
	m, _, err := qn.ParseModel(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// modelFile reads and parses the qn model file at path, failing tb on an error.
func modelFile(tb testing.TB, path string) *qn.ModelFile {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return parseModelFile(tb, filepath.Base(path), data)
}

// parseModelFile parses a qn model file given as text, failing tb on an error.
func parseModelFile(tb testing.TB, name string, src []byte) *qn.ModelFile {
	tb.Helper()
	f, err := qn.ParseModelFile(name, src)
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

// replicate simulates m under cfg with the options o, failing t on an error.
func replicate(t *testing.T, m *qn.Model, cfg Config, o Options) *Result {
	t.Helper()
	s, err := New(m, cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Replicate(o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// spmdCycleTimes runs SimulateSPMD of m on P = 4 processors and 2 disks for replications
// 0 … reps−1 of seed, one by one, and returns their cycle times (failing t on an error).
func spmdCycleTimes(t *testing.T, m *spmd.Model, cfg SPMDConfig, seed uint64, reps int) []float64 {
	t.Helper()
	xs := make([]float64, reps)
	for k := range xs {
		r, err := SimulateSPMD(m, 4, 2, cfg, seed, uint64(k))
		if err != nil {
			t.Fatal(err)
		}
		xs[k] = r.CycleTime
	}
	return xs
}

package examples

import (
	"bytes"
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/pipeline"
)

func loadSort(t *testing.T, name string) (*pipeline.Model, *pipeline.SortParams) {
	t.Helper()
	data, err := FS.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	m, sp, err := pipeline.ParseModel(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return m, sp
}

// TestSortReproduces003 checks the sort example against 003's printed numbers: b_dist ≈
// 0.775 M/s (eq. 10), b_proc ≈ 1.366 M/s (eq. 11),
// t_proc(s) (eq. 13, with an erratum: see below), the large-p plateaus 22.3, 44.5, 88.8 s of Figs. 1–3 (p = 6…11), and p_opt = 5.13 (eq. 20).
// The "calculated" times for p ≤ 4 in the figures do not follow from the printed equations
// (seeds README errata) and are not checked.
func TestSortReproduces003(t *testing.T) {
	m, _ := loadSort(t, "pipeline/sort.yaml")
	pt := m.Predict(8)
	if got := m.Stages[0].Bandwidths[1].Rate(m.N, 8, m.S); math.Abs(got-0.775e6) > 0.0005e6 {
		t.Errorf("b_dist = %.6g, 003 eq. (10): 0.775e6", got)
	}
	if got := m.Stages[0].Bandwidths[2].Rate(m.N, 8, m.S); math.Abs(got-1.366e6) > 0.0005e6 {
		t.Errorf("b_proc = %.6g, 003 eq. (11): 1.366e6", got)
	}
	// Erratum (found here): 003 eq. (13) prints t_proc(s) = c_q·s·ln s = 0.04749 s, but with
	// its c_q = 0.066e-6 and s = 2^16 that is 0.04797 s, which is also s/b_proc of eq. (11)
	// (65536/1.366e6). 0.04749 would need c_q = 0.0653e-6. We follow the constants.
	if got := pt.Fixed[0]; math.Abs(got-65536/1.3662e6) > 0.00002 || math.Abs(got-0.04749) < 0.0003 {
		t.Errorf("t_proc(s) = %.6g, want s/b_proc = 0.04797 (003 prints 0.04749, an erratum)", got)
	}
	if pt.Stages[0].Bottleneck != "storage" {
		t.Errorf("read bottleneck %q, 003 eq. (12): b_io", pt.Stages[0].Bottleneck)
	}
	for _, tc := range []struct {
		file    string
		plateau float64
	}{{"pipeline/sort-5m.yaml", 22.3}, {"pipeline/sort-10m.yaml", 44.5}, {"pipeline/sort.yaml", 88.8}} {
		m, _ := loadSort(t, tc.file)
		for p := 6; p <= 11; p++ {
			got := m.Predict(p).Time
			if math.Abs(got-tc.plateau) > 0.1 { // printed to 0.1 s
				t.Errorf("%s p=%d: %.4g s, 003 prints %.1f", tc.file, p, got, tc.plateau)
			}
		}
	}
	pts, _ := m.PredictRange(1, 11)
	o := m.Optimal(pts)
	if math.Abs(o.ClosedForm-5.13) > 0.005 {
		t.Errorf("closed-form p_opt = %.4g, 003 eq. (20): 5.13", o.ClosedForm)
	}
	// Whole-p optimum: time keeps falling slightly past p* (t_local = c_m·N/p), so the least
	// time is at the range's end; the knee (within 1 %) is p = 6, as 003 §5 argues.
	if o.Knee != 6 {
		t.Errorf("knee p = %d, want 6", o.Knee)
	}
	if o.P != 11 || o.SavedPrev <= 0 || o.SavedPrev > 0.01 {
		t.Errorf("optimum p = %d saved %.3g s against p−1", o.P, o.SavedPrev)
	}
	// 003 Fig. 3: p = 1 pages (700.6 s measured, 143 % above the calculated 288.9 s), p = 2
	// does not (161.4 s, 1.7 %): 2e7·8 B > 64 MB at p = 1; 1e7·4 B ≤ 64 MB at p = 2.
	if !m.Predict(1).MemoryExceeded || m.Predict(2).MemoryExceeded || m.Predict(3).MemoryExceeded {
		t.Error("memory flags for N = 2e7: want only p = 1 flagged")
	}
	// 003 eq. (21): 2N/b_io = 2·2e7/0.54e6 = 74.07 s (003 prints 73.98 s: seeds README errata)
	if math.Abs(o.StorageBound-74.074) > 0.001 {
		t.Errorf("storage bound %.5g s, want 2N/b_io = 74.074 s", o.StorageBound)
	}
}

// TestSortMeasured: the measured times of Figs. 1–3 lie within 7 % of the predictions
// wherever node memory suffices and p ≥ 5 (003: "relative error below 6 percent in most of
// the domain"; its own tables show up to 6.7 %). Like 003's tables, the relative error is
// taken against the calculated time: |t_meas − t_pred| / t_pred.
func TestSortMeasured(t *testing.T) {
	for _, tc := range []struct{ model, csv string }{
		{"pipeline/sort-5m.yaml", "pipeline/sort-5m.csv"},
		{"pipeline/sort-10m.yaml", "pipeline/sort-10m.csv"},
		{"pipeline/sort.yaml", "pipeline/sort.csv"},
	} {
		m, _ := loadSort(t, tc.model)
		data, _ := FS.ReadFile(tc.csv)
		meas, err := pipeline.ReadMeasurements(tc.csv, bytes.NewReader(data))
		if err != nil || len(meas) != 11 {
			t.Fatalf("%s: %v (%d rows)", tc.csv, err, len(meas))
		}
		for _, mt := range meas {
			pt := m.Predict(mt.P)
			if pt.MemoryExceeded || mt.P < 5 {
				continue
			}
			if e := math.Abs(pt.Time-mt.Time) / pt.Time; e > 0.07 {
				t.Errorf("%s p=%d: predicted %.4g, measured %.4g (%.1f %%)", tc.csv, mt.P, pt.Time, mt.Time, 100*e)
			}
		}
	}
}

// The memory flags follow 003's measurements: the runs whose measured time is far above the
// calculated one page (Fig. 2 p = 1: 183.8 s against 80.4 s predicted; Fig. 3 p = 1: 700.6 s),
// and no other run with p ≤ 3 is flagged (pipeline.Memory explains the two bytes-per-element).
func TestSortMemoryFlags(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []bool // p = 1, 2, 3
	}{
		{"pipeline/sort-5m.yaml", []bool{false, false, false}}, // 5e6·8 B = 40 MB ≤ 64 MB
		{"pipeline/sort-10m.yaml", []bool{true, false, false}}, // 1e7·8 B = 80 MB > 64 MB
		{"pipeline/sort.yaml", []bool{true, false, false}},     // 2e7·8 B; p = 2: 1e7·4 B = 40 MB
	} {
		m, _ := loadSort(t, tc.file)
		for i, w := range tc.want {
			if got := m.Predict(i + 1).MemoryExceeded; got != w {
				t.Errorf("%s p = %d: memory exceeded %v, want %v", tc.file, i+1, got, w)
			}
		}
	}
}

package spmd

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

const measuredModel = "architecture: bus-aio\nw: 0.2\nr: 1\nnormalized: {sigma_p: 0.8, sigma_r0: 0.001, sigma_r: 0.005, sigma_n: 0.001}\n"

// TestCompareMeasured: each measured (p, d) is compared with Evaluate at the same point:
// rel_error = (model − measured)/measured by its definition, the measured speedup is
// T_ref/measured (000 eq. 3's T_ref), d defaults to 1, times take unit suffixes, and a point
// outside the surface is still compared and flagged.
func TestCompareMeasured(t *testing.T) {
	m, err := ParseModel("m.yaml", []byte(measuredModel))
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEvaluator(m)
	if err != nil {
		t.Fatal(err)
	}
	meas, err := ReadMeasurements("m.csv", strings.NewReader("p,d,time\n1,1,1.05\n4,2,300ms\n16,,0.1\n"))
	if err == nil {
		t.Fatal("an empty d accepted")
	}
	meas, err = ReadMeasurements("m.csv", strings.NewReader("# run on the test cluster\np,time_s,host\n1,1.05,a\n4,300ms,b\n16,0.1,c\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(meas) != 3 || meas[1].Time != 0.3 || meas[2].D != 1 || meas[0].Line != 3 {
		t.Fatalf("measurements %+v", meas)
	}
	cmp, err := e.Compare("m.csv", meas, func(p, d int) bool { return p <= 8 })
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cmp {
		pt, err := e.Evaluate(meas[i].P, meas[i].D)
		if err != nil {
			t.Fatal(err)
		}
		want := (pt.Time - meas[i].Time) / meas[i].Time
		if c.ModelTime != pt.Time || math.Abs(c.RelError-want) > 1e-15 || math.Abs(c.MeasuredSpeedup-m.RefTime()/meas[i].Time) > 1e-15 {
			t.Errorf("row %d: %+v, want model %v rel_error %v", i, c, pt.Time, want)
		}
	}
	if cmp[2].OutsideSurface != true || cmp[0].OutsideSurface {
		t.Errorf("outside flags %v %v", cmp[0].OutsideSurface, cmp[2].OutsideSurface)
	}
}

// TestReadMeasurementsHostile: every bad row is refused naming the file, line and column.
func TestReadMeasurementsHostile(t *testing.T) {
	for _, tc := range []struct{ csv, want string }{
		{"p,time\n0,1\n", "m.csv:2"},
		{"p,time\n2,-1\n", `time = "-1"`},
		{"p,time\n2,0\n", `time = "0"`},
		{"p,time\n2,1e400\n", `time = "1e400"`},
		{"p,time\n2,5 parsecs\n", `time = "5 parsecs"`},
		{"p,time\n2,NaN\n", `time = "NaN"`},
		{"p,time\n2,1e9\n", `at most`},
		{"p,d,time\n2,0,1\n", `d = "0"`},
		{"p,d,time\n2.5,1,1\n", `p = "2.5"`},
		{"time\n1\n", "p"},
		{"p,time\n", "no data rows"},
	} {
		_, err := ReadMeasurements("m.csv", strings.NewReader(tc.csv))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, fault.ErrInput) {
			t.Errorf("%q: error %v, want an input error containing %q", tc.csv, err, tc.want)
		}
	}
	m, _ := ParseModel("m.yaml", []byte("architecture: clu-aio\nc: 1\nw: 0.2\nr: 1\nnormalized: {sigma_p: 0.8, sigma_r0: 0.001, sigma_r: 0.005, sigma_n: 0}\n"))
	e, _ := NewEvaluator(m)
	if _, err := e.Compare("m.csv", []Measurement{{P: 2, D: 4, Time: 1, Line: 2}}, func(int, int) bool { return true }); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "m.csv:2") {
		t.Errorf("clu-aio p < d: %v, want an input error at m.csv:2", err)
	}
}

// FuzzReadMeasurements: no input panics; every row read has p, d ≥ 1 and a finite time in
// (0, MaxMeasured].
func FuzzReadMeasurements(f *testing.F) {
	for _, s := range []string{"p,time\n1,1.05\n4,300ms\n", "p,d,time_s\n4,2,0.3\n", "p,time\n0,x\n", "\ufeffp,time\n1,2\n"} { // last: a UTF-8 BOM
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ms, err := ReadMeasurements("f.csv", strings.NewReader(s))
		if err != nil {
			return
		}
		for _, m := range ms {
			if m.P < 1 || m.D < 1 || !(m.Time > 0 && m.Time <= MaxMeasured) {
				t.Fatalf("%q → %+v", s, m)
			}
		}
	})
}

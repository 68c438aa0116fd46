package netbench

import (
	"errors"
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestFitExact: samples of an exact line t = 2 µs + n/(1 GB/s) are recovered to rounding and
// the intervals collapse onto the estimates (zero residual).
func TestFitExact(t *testing.T) {
	var s []Sample
	for n := 1.0; n <= 1<<20; n *= 4 {
		s = append(s, Sample{n, 2e-6 + n/1e9})
	}
	f, err := FitLinear(s)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f.LatencyS-2e-6) > 1e-15 || math.Abs(*f.BandwidthBytesPerS-1e9) > 1e-3 ||
		f.LatencyHighS-f.LatencyLowS > 1e-15 || *f.BandwidthHighBytesPerS-*f.BandwidthLowBytesPerS > 1e-2 {
		t.Errorf("%+v", f)
	}
	two, err := FitLinear(s[:2])
	if err != nil || two.DegreesOfFreedom != 0 || len(two.Notes) != 1 {
		t.Errorf("two sizes: %+v %v", two, err)
	}
	if _, err := FitLinear(s[:1]); !errors.Is(err, fault.ErrInput) {
		t.Errorf("one size: %v", err)
	}
}

// TestFitSamples: the fits of the sample outputs contain the parameters gen.py wrote them
// with (its docstring): the piecewise fit of the latency tables finds the protocol switch at
// 16 KiB, and each range's 95 % interval holds that range's t_s and B; the bandwidth tables
// give the streaming B (osu_bibw per direction: 1.9/2 of it).
func TestFitSamples(t *testing.T) {
	in := func(what string, v, lo, hi float64) {
		t.Helper()
		if !(lo <= v && v <= hi) || math.IsInf(hi, 0) {
			t.Errorf("%s: true %.4g outside the interval [%.4g, %.4g]", what, v, lo, hi)
		}
	}
	for _, file := range []string{"osu_latency.txt", "imb_pingpong.txt"} {
		s, _ := load(t, file).Samples()
		pw, err := FitPiecewise(s, 0)
		if err != nil {
			t.Fatal(err)
		}
		if pw.BreakBytes != 16384 || !pw.Chosen || !(pw.RelRMS < pw.SingleRelRMS) {
			t.Errorf("%s: break %g, rel rms %g vs single %g", file, pw.BreakBytes, pw.RelRMS, pw.SingleRelRMS)
		}
		in(file+" eager t_s", 1.60e-6, pw.Below.LatencyLowS, pw.Below.LatencyHighS)
		in(file+" eager 1/B", 1/9.0e9, pw.Below.SecondsPerByteLow, pw.Below.SecondsPerByteHigh)
		in(file+" rendezvous t_s", 4.00e-6, pw.Above.LatencyLowS, pw.Above.LatencyHighS)
		in(file+" rendezvous 1/B", 1/11.5e9, pw.Above.SecondsPerByteLow, pw.Above.SecondsPerByteHigh)
		// A given break reproduces the chosen one.
		pw2, err := FitPiecewise(s, 16384)
		if err != nil || pw2.Below.LatencyS != pw.Below.LatencyS || pw2.Chosen {
			t.Errorf("given break: %+v %v", pw2, err)
		}
	}
	for _, tc := range []struct {
		file string
		k    float64 // per-direction time = k × the streaming time of gen.py
	}{{"osu_bw.txt", 1}, {"osu_bibw.txt", 2 / 1.9}} {
		s, notes := load(t, tc.file).Samples()
		f, err := FitLinear(s)
		if err != nil || len(notes) != 1 {
			t.Fatal(err, notes)
		}
		in(tc.file+" 1/B", tc.k/11.8e9, f.SecondsPerByteLow, f.SecondsPerByteHigh)
		in(tc.file+" t_s", tc.k*0.25e-6, f.LatencyLowS, f.LatencyHighS)
	}
}

func BenchmarkFitPiecewise(b *testing.B) {
	var s []Sample
	for i := 0; i < 10000; i++ {
		n := float64(i * 64)
		s = append(s, Sample{n, 2e-6 + n/1e10 + float64(i%7)*1e-9})
	}
	for b.Loop() {
		if _, err := FitPiecewise(s, 0); err != nil {
			b.Fatal(err)
		}
	}
}

package mpip

import (
	"bytes"
	"math"
	"testing"
)

// TestPredictRecoversPowerLaws: runs generated from exact power laws are extrapolated
// exactly (zero residual: the interval collapses onto the point estimate).
func TestPredictRecoversPowerLaws(t *testing.T) {
	gen := func(P int) Inputs {
		p := float64(P)
		M := 1e4 * math.Pow(p, 1.2)
		dk := 2e-4 * math.Pow(p, -1)
		dc := 5e-3 * math.Pow(p, -1.1)
		mpiActive := dk * p * M
		return Inputs{P: P, M: M, L: 3e4 * math.Pow(p, -0.5), MPITime: mpiActive, MPIWait: 0, AppTime: mpiActive + dc*M, BW: 1e8, Lat: 1e-4}
	}
	runs := []Inputs{gen(4), gen(8), gen(16), gen(32)}
	preds, trends, err := Predict(runs, ConstNetwork(1e-4, 1e8), []int{64, 128}, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(trends[0].B-1.2) > 1e-9 || math.Abs(trends[2].B+1) > 1e-9 {
		t.Errorf("exponents %v %v", trends[0].B, trends[2].B)
	}
	for _, pr := range preds {
		want, _ := Solve(gen(pr.P))
		if math.Abs(pr.Result.AppTime.Model-want.AppTime.Model) > 1e-9*want.AppTime.Model {
			t.Errorf("P=%d: AT %g want %g", pr.P, pr.Result.AppTime.Model, want.AppTime.Model)
		}
		if math.Abs(pr.ATHigh-pr.ATLow) > 1e-9*want.AppTime.Model {
			t.Errorf("P=%d: zero-residual interval [%g, %g] not collapsed", pr.P, pr.ATLow, pr.ATHigh)
		}
	}
	if _, _, err := Predict(runs[:2], ConstNetwork(1e-4, 1e8), []int{64}, 10, 1); err == nil {
		t.Error("prediction from two runs accepted")
	}
}

// TestPredictCGC: 004's CG C runs at P = 4, 16, 64 predict P = 32 between its neighbours,
// with an interval that contains the point estimate; the same seed gives the same interval.
func TestPredictCGC(t *testing.T) {
	runs := []Inputs{
		{P: 4, AppTime: 9.23e3, MPITime: 121, MPIWait: 7.67, M: 31.924e3, L: 297.11e3, BW: 213.469e6, Lat: 1.325e-3},
		{P: 16, AppTime: 8.63e3, MPITime: 787, MPIWait: 164.455, M: 223.76e3, L: 127.17e3, BW: 204.124e6, Lat: 593.033e-6},
		{P: 64, AppTime: 7.91e3, MPITime: 1.92e3, MPIWait: 595.254, M: 1.279e6, L: 59.318e3, BW: 186.148e6, Lat: 301.164e-6},
	}
	net := Network{By: "p", Points: []NetPoint{{4, 1.325e-3, 213.469e6}, {16, 593.033e-6, 204.124e6}, {64, 301.164e-6, 186.148e6}}}
	a, _, err := Predict(runs, net, []int{32}, 500, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := Predict(runs, net, []int{32}, 500, 7)
	pr := a[0]
	at := pr.Result.AppTime.Model
	if !(at < 548.86 && at > 130.497) {
		t.Errorf("AT(32) = %g not between AT(16) and AT(64)", at)
	}
	if !(pr.ATLow <= at && at <= pr.ATHigh) || pr.ATLow != b[0].ATLow || pr.ATHigh != b[0].ATHigh {
		t.Errorf("interval [%g, %g] around %g; rerun [%g, %g]", pr.ATLow, pr.ATHigh, at, b[0].ATLow, b[0].ATHigh)
	}
}

func FuzzReadNetwork(f *testing.F) {
	f.Add([]byte("p,latency,bandwidth\n4,40us,900MB/s\n16,60us,1.1GB/s\n"))
	f.Add([]byte("size,latency,bandwidth\n64KB,5us,1e9\n\"x\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := ReadNetwork("n.csv", bytes.NewReader(b))
		if err != nil {
			return
		}
		lat, bw, _ := n.At(8, 1000)
		if math.IsNaN(lat) || !(bw > 0) {
			t.Fatalf("network gives lat %v bw %v", lat, bw)
		}
	})
}

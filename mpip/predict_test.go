package mpip

import (
	"bytes"
	"math"
	"testing"
)

// TestPredictRecoversPowerLaws: runs generated from exact power laws are extrapolated
// through package scaling, whose Extra-P normal forms hold c·P^e with these exponents
// (1.2 = 6/5 is not one, so M is checked against the generating law within scaling's own
// 95 % interval and the wall time within the Monte Carlo interval).
func TestPredictRecoversPowerLaws(t *testing.T) {
	gen := func(P int) Inputs {
		p := float64(P)
		M := 1e4 * math.Pow(p, 1.2)
		dk := 2e-4 * math.Pow(p, -1)
		dc := 5e-3 * math.Pow(p, -1.1)
		mpiActive := dk * p * M
		return Inputs{P: P, M: M, L: 3e4 * math.Pow(p, -0.5), MPITime: mpiActive, MPIWait: 0, AppTime: mpiActive + dc*M, BW: 1e8, Lat: 1e-4}
	}
	runs := []Inputs{gen(4), gen(8), gen(16), gen(32), gen(64)} // MinRunsForInterval = 5 runs
	preds, err := Predict(runs, ConstNetwork(1e-4, 1e8), []int{128, 256}, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range preds {
		want, _ := Solve(gen(pr.P))
		w := want.AppTime.Model
		if !pr.Interval || !(pr.ATLow <= w && w <= pr.ATHigh) || !(pr.ATLow <= pr.ATMedian && pr.ATMedian <= pr.ATHigh) {
			t.Errorf("P=%d: AT %g (interval %v [%g, %g]) does not hold the generating law's %g", pr.P, pr.ATMedian, pr.Interval, pr.ATLow, pr.ATHigh, w)
		}
		for k, q := range pr.Quantities.List() {
			if q.Interval95Low == nil || !(*q.Interval95Low <= q.Value && q.Value <= *q.Interval95High) {
				t.Errorf("P=%d input %d (%s): value %g outside its interval %v %v", pr.P, k, q.Quantity, q.Value, q.Interval95Low, q.Interval95High)
			}
		}
		// D_k = 2e-4/P is exactly the Extra-P form c·P^-1: scaling recovers it.
		if dk := 2e-4 / float64(pr.P); math.Abs(pr.Quantities.CPUDemand.Value-dk) > 1e-3*dk {
			t.Errorf("P=%d: D_k %g want %g (%s)", pr.P, pr.Quantities.CPUDemand.Value, dk, pr.Quantities.CPUDemand.Formula)
		}
	}
	// Four runs: no interval (mpip's rule, issue 16), the point estimate and a note instead.
	if p4, err := Predict(runs[:4], ConstNetwork(1e-4, 1e8), []int{128}, 200, 1); err != nil || p4[0].Interval || p4[0].ATLow != p4[0].ATHigh || p4[0].Quantities.Messages.Interval95Low != nil {
		t.Errorf("four runs: %v %+v", err, p4)
	}
	if _, err := Predict(runs[:2], ConstNetwork(1e-4, 1e8), []int{64}, 10, 1); err == nil {
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
	a, err := Predict(runs, net, []int{32}, 500, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Predict(runs, net, []int{32}, 500, 7)
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

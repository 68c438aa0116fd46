package qn

import (
	"context"
	"flag"
	"math/rand/v2"
	"testing"
	"time"
)

var integralSurvey = flag.Bool("integral-survey", false, "run TestIntegralSurvey (40 random networks, about a minute)")

// TestIntegralSurvey solves 40 seeded random networks (2–3 classes of 100–400 jobs, 2–5
// queues and a delay) by Integral and exact MVA and logs which converged, their cost and
// how their difference from MVA compares with the spread; the figures quoted in Integral's
// doc comment come from it:
//
//	go test ./qn -run TestIntegralSurvey -integral-survey -v
func TestIntegralSurvey(t *testing.T) {
	if !*integralSurvey {
		t.Skip("give -integral-survey")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	ok, bad := 0, 0
	worst := 0.0
	for i := 0; i < 40; i++ {
		C := 2 + rng.IntN(2)
		m := randomClosed(rng, C, 3+rng.IntN(4), 300)
		for c := range m.Classes {
			m.Classes[c].Population += 100
		}
		t0 := time.Now()
		ri, err := Integral(context.Background(), m, IntegralMaxPoints)
		di := time.Since(t0)
		if err != nil {
			bad++
			t.Logf("%d: N=%v K=%d: %v after %v", i, m.Classes, len(m.Stations), err, di)
			continue
		}
		ok++
		rm, _ := MVAMulti(m)
		d := integralDiff(ri, rm)
		worst = max(worst, d/ri.ErrorEstimate.Spread)
		if d > ri.ErrorEstimate.RelError+1e-14 {
			t.Errorf("%d: differs from MVA by %.2e, estimate %.2e", i, d, ri.ErrorEstimate.RelError)
		}
		t.Logf("%d: K=%d: %v %d pts spread %.1e diff %.2e", i, len(m.Stations), di, ri.Status.Iterations, ri.ErrorEstimate.Spread, d)
	}
	t.Logf("ok %d bad %d worst diff/spread %.2f", ok, bad, worst)
}

package queue

import (
	"errors"
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// FuzzParseArgs: any model name and flag values either parse and solve to finite numbers or
// are refused as input (or a finding: saturation); never a panic, a NaN or a negative time.
func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{"M/M/1", "m/m/4/20", "mmmk", "M/G/1", "erlangb", "hetero", "M/M/inf", "M/M/0", "M/M/m/k", "M/M/-3", "M/M/1/1/1"} {
		f.Add(s, "0.5,2,3", "50,90,99", 0.7, 1.0, 3, 5, 1.5)
	}
	f.Fuzz(func(t *testing.T, name, mus, pcts string, lambda, mu float64, m, k int, scv float64) {
		kind, sm, sk, err := ParseModelName(name)
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("%q: %v is not an input error", name, err)
			}
			return
		}
		rates, err1 := ParseFloats("mus", mus)
		ps, err2 := ParseFloats("percentiles", pcts)
		for _, e := range []error{err1, err2} {
			if e != nil && !errors.Is(e, fault.ErrInput) {
				t.Fatal(e)
			}
		}
		if err1 != nil || err2 != nil {
			return
		}
		if sm == 0 {
			sm = m % 1000
		}
		if sk == 0 {
			sk = k % 2000
		}
		for i := range ps {
			ps[i] /= 100
		}
		if len(rates) > 1000 {
			rates = rates[:1000]
		}
		if sk > 1000 || sm > 1000 {
			return // keep each input fast
		}
		r, err := Solve(Spec{Kind: kind, Lambda: lambda, Mu: mu, Servers: sm, Capacity: sk, SCV: scv, Mus: rates, Percentiles: ps})
		if err != nil {
			if !errors.Is(err, fault.ErrInput) && !errors.Is(err, fault.ErrSaturated) {
				t.Fatalf("%v is neither input nor saturation", err)
			}
			return
		}
		for _, v := range []float64{r.Jobs, r.ResponseTime, r.WaitingTime, r.Throughput, r.PEmpty, r.Utilization} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < -1e-12 {
				t.Fatalf("%s λ=%v μ=%v: bad value %v in %+v", r.Model, lambda, mu, v, r)
			}
		}
		for _, p := range r.Percentiles {
			if math.IsNaN(p.ResponseTime) || p.ResponseTime < 0 {
				t.Fatalf("%s: percentile %+v", r.Model, p)
			}
		}
	})
}

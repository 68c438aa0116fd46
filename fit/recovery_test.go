package fit

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/spmd"
)

// qcrdSpec is 000 Table 4's parametrisation: 7 free parameters in units of T1 (BUS-AIO,
// c = 1, g(p) = 1/p), with the table's values as truth.
func qcrdSpec() (Spec, map[string]float64) {
	truth := map[string]float64{"s_par": 0.71, "s_ser": 0.002, "s0_com": 0.049, "sr_com": 0.41, "s0_io": 0.0005, "sr_io": 0.001, "w": 0.19}
	sp := Spec{Arch: "bus-aio", C: 1, Reference: 1, Starts: 20, Seed: 1, Params: []Param{
		{Name: "s_par", Value: 0.5, Min: 0, Max: 2, Free: true},
		{Name: "s_ser", Value: 0.01, Min: 0, Max: 1, Free: true},
		{Name: "s0_com", Value: 0.01, Min: 0, Max: 1, Free: true},
		{Name: "sr_com", Value: 0.1, Min: 0, Max: 5, Free: true},
		{Name: "s0_io", Value: 0.01, Min: 0, Max: 1, Free: true},
		{Name: "sr_io", Value: 0.01, Min: 0, Max: 1, Free: true},
		{Name: "w", Value: 0.5, Min: 0, Max: 1, Free: true},
		{Name: "g_exponent", Value: -1},
	}}
	return sp, truth
}

// surface generates speedups from the spec with its free parameters at truth, with
// multiplicative Gaussian noise of relative size noise (seeded).
func surface(t testing.TB, sp Spec, arch spmd.Architecture, truth map[string]float64, ps, ds []int, noise float64, seed uint64) *Data {
	gen := sp
	gen.Params = append([]Param(nil), sp.Params...)
	for i := range gen.Params {
		if v, ok := truth[gen.Params[i].Name]; ok {
			gen.Params[i].Value, gen.Params[i].Free = v, false
		}
	}
	m := &spmd.Model{Arch: arch, Phases: []spmd.Phase{gen.phase(nil)}}
	e, err := spmd.NewEvaluator(m)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	d := &Data{Target: "speedup"}
	for _, p := range ps {
		for _, dd := range ds {
			pt, err := e.Evaluate(p, dd)
			if err != nil {
				continue
			}
			d.Obs = append(d.Obs, Observation{P: p, D: dd, Value: pt.Speedup * (1 + noise*rng.NormFloat64())})
		}
	}
	return d
}

// TestRecovery: surfaces generated from known parameters (g(p) = p^-0.5; 45 points, p ≤ 256, d ≤ 16) are fitted back
// for every architecture: exactly without noise; with 1 % and 5 % multiplicative noise the
// nominal 95 % confidence intervals must cover the truth in at least 80 % of the
// (parameter, seed) cases over four seeds (a single fixed seed could not honestly demand
// 100 %: a 95 % interval misses one time in twenty).
func TestRecovery(t *testing.T) {
	type arch struct {
		a      spmd.Architecture
		ps, ds []int
	}
	truth := map[string]float64{"s_par": 0.8, "s0_com": 0.005, "sr_com": 0.1, "sr_io": 0.2, "w": 0.3}
	pow2 := []int{1, 2, 4, 8, 16, 32, 64, 128, 256}
	archs := []arch{
		{spmd.BusAIO, pow2, []int{1, 2, 4, 8, 16}},
		{spmd.BusSIO, pow2, []int{1, 2, 4, 8, 16}},
		{spmd.CluSIO, pow2, []int{1, 2, 4, 8, 16}},
		{spmd.CluAIO, []int{4, 8, 12, 16, 20, 24}, []int{1, 2, 4}}, // exact multi-class MVA per point: keep the lattice small
	}
	spec := func(a spmd.Architecture) Spec {
		return Spec{Arch: a.String(), C: 1, Reference: 1, Starts: 8, Seed: 3, Params: []Param{
			{Name: "s_par", Value: 0.5, Min: 0.01, Max: 2, Free: true},
			{Name: "s0_com", Value: 0.01, Min: 0, Max: 1, Free: true},
			{Name: "sr_com", Value: 0.1, Min: 0, Max: 5, Free: true},
			{Name: "sr_io", Value: 0.1, Min: 0, Max: 2, Free: true},
			{Name: "w", Value: 0.5, Min: 0, Max: 1, Free: true},
			// g(p) = p^-0.5 (r = 2): with g = 1 the startup and the uncontended part of the
			// transfer are both constant in p and no data can tell them apart.
			{Name: "g_exponent", Value: -0.5},
		}}
	}
	for _, ac := range archs {
		start := time.Now()
		sp := spec(ac.a)
		r, err := SPMD(sp, ac.a, surface(t, sp, ac.a, truth, ac.ps, ac.ds, 0, 1))
		if err != nil {
			t.Fatal(err)
		}
		for _, pe := range r.Parameters {
			if want, ok := truth[pe.Name]; ok && math.Abs(pe.Value-want) > 1e-4*math.Max(want, 1e-2) {
				t.Errorf("%v noise 0: %s = %.6g, truth %.6g", ac.a, pe.Name, pe.Value, want)
			}
		}
		for _, noise := range []float64{0.01, 0.05} {
			covered, total := 0, 0
			for seed := uint64(1); seed <= 4; seed++ {
				r, err := SPMD(sp, ac.a, surface(t, sp, ac.a, truth, ac.ps, ac.ds, noise, 100+seed))
				if err != nil {
					t.Fatal(err)
				}
				for _, pe := range r.Parameters {
					want, ok := truth[pe.Name]
					if !ok {
						continue
					}
					total++
					if pe.CILow != nil && *pe.CILow <= want && want <= *pe.CIHigh {
						covered++
					} else if testing.Verbose() {
						lo, hi := math.NaN(), math.NaN()
						if pe.CILow != nil {
							lo, hi = *pe.CILow, *pe.CIHigh
						}
						t.Logf("  miss %v %g seed %d: %s = %.4g [%.4g, %.4g] truth %g", ac.a, noise, seed, pe.Name, pe.Value, lo, hi, want)
					}
				}
			}
			cov := float64(covered) / float64(total)
			t.Logf("%v noise %.0f%%: 95 %% CIs cover the truth in %d of %d cases (%.0f %%)", ac.a, 100*noise, covered, total, 100*cov)
			if cov < 0.8 {
				t.Errorf("%v noise %g: coverage %.2f below 0.8", ac.a, noise, cov)
			}
		}
		t.Logf("%v: %v", ac.a, time.Since(start))
	}
}

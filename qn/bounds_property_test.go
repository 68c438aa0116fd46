package qn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// randomBoundsModel builds a seeded random network for the bound property test: closed with
// 1–3 classes (populations up to 12; one class up to 300), queues, delay centres, groups of copies, think times
// (sometimes zero, so the multi-class lower balanced-job bound is exercised), a two-server
// station in some single-class networks; or open with 1–3 classes below saturation.
func randomBoundsModel(rng *rand.Rand, i int) *Model {
	open := i%3 == 2
	C := 1 + rng.IntN(3)
	if i%3 == 0 {
		C = 1 // a third single-class closed, where all four kinds of bound apply
	}
	K := 1 + rng.IntN(5)
	m := &Model{}
	for k := 0; k < K; k++ {
		s := Station{Name: fmt.Sprintf("k%d", k), Kind: Queue}
		switch r := rng.IntN(10); {
		case r == 0 && k > 0:
			s.Kind = Delay
		case r == 1:
			s.Count = 2 + rng.IntN(3)
		case r == 2 && C == 1 && !open:
			s.Kind, s.Servers = MultiServer, 2
		}
		m.Stations = append(m.Stations, s)
	}
	zeroThink := rng.IntN(3) == 0
	for c := 0; c < C; c++ {
		cl := Class{Name: fmt.Sprintf("c%d", c)}
		if open {
			cl.Open = true
		} else {
			cl.Population = 1 + rng.IntN(12)
			if C == 1 && rng.IntN(2) == 0 {
				cl.Population = 1 + rng.IntN(300) // deep into saturation too
			}
			if !zeroThink {
				cl.ThinkTime = 3 * rng.Float64()
			}
		}
		m.Classes = append(m.Classes, cl)
		row := make([]float64, K)
		for k := range row {
			row[k] = 0.01 + rng.Float64()
			if rng.IntN(6) == 0 {
				row[k] *= 10 // a pronounced bottleneck now and then
			}
		}
		m.Demand = append(m.Demand, row)
	}
	if open {
		// arrival rates that load the busiest station to a random level below 1
		u := make([]float64, K)
		for c := range m.Classes {
			m.Classes[c].ArrivalRate = rng.Float64()
			for k := range u {
				u[k] += m.Classes[c].ArrivalRate * m.Demand[c][k]
			}
		}
		umax := 0.0
		for k, s := range m.Stations {
			if s.Kind != Delay {
				umax = math.Max(umax, u[k])
			}
		}
		scale := (0.05 + 0.9*rng.Float64()) / umax
		for c := range m.Classes {
			m.Classes[c].ArrivalRate *= scale
		}
	}
	return m
}

// TestBoundsBracketExact: on 600 random networks (200 single-class closed, 200 closed with
// 1–3 classes, 200 open) every bound AllBounds returns brackets the exact answer (MVASingle
// or MVAMulti for closed networks, Open for open ones): X⁻ ≤ X ≤ X⁺ and R⁻ ≤ R ≤ R⁺ for
// every class, to a relative 1e-9 for rounding. Each kind of bound is checked on at least
// 150 networks.
func TestBoundsBracketExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 2026))
	const tol = 1e-9
	count := map[string]int{}
	networks := map[string]map[int]bool{}
	for i := 0; i < 600; i++ {
		m := randomBoundsModel(rng, i)
		var exact *Result
		var err error
		switch {
		case m.Classes[0].Open:
			exact, err = Open(m)
		case len(m.Classes) == 1:
			exact, err = MVASingle(context.Background(), m)
		default:
			exact, err = MVAMulti(m)
		}
		if err != nil {
			t.Fatalf("network %d: exact: %v", i, err)
		}
		set, err := AllBounds(m)
		if err != nil {
			t.Fatalf("network %d: %v", i, err)
		}
		if len(set.Bounds) == 0 {
			t.Fatalf("network %d: no bounds (%v)", i, set.Notes)
		}
		for _, b := range set.Bounds {
			c := -1
			for j, cl := range m.Classes {
				if cl.Name == b.Class {
					c = j
				}
			}
			x, r := exact.Throughput[c], exact.ResponseTime[c]
			ok := b.ThroughputLower <= x*(1+tol) && x <= b.ThroughputUpper*(1+tol) && b.ResponseTimeLower <= r*(1+tol)
			if b.ResponseTimeUpper != nil {
				ok = ok && r <= *b.ResponseTimeUpper*(1+tol)
			}
			for _, v := range []float64{b.ThroughputLower, b.ThroughputUpper, b.ResponseTimeLower} {
				ok = ok && !math.IsNaN(v) && v >= 0
			}
			if !ok {
				ru := math.Inf(1)
				if b.ResponseTimeUpper != nil {
					ru = *b.ResponseTimeUpper
				}
				t.Errorf("network %d (%d classes, open %v) %s bound, class %s: X %.6g ∉ [%.6g, %.6g] or R %.6g ∉ [%.6g, %.6g]",
					i, len(m.Classes), m.Classes[0].Open, b.Name, b.Class, x, b.ThroughputLower, b.ThroughputUpper, r, b.ResponseTimeLower, ru)
			}
			count[b.Name]++
			if networks[b.Name] == nil {
				networks[b.Name] = map[int]bool{}
			}
			networks[b.Name][i] = true
		}
	}
	for _, n := range []string{BoundAsymptotic, BoundBalancedJob, BoundProportional, BoundGeometric} {
		if len(networks[n]) < 150 {
			t.Errorf("%s bounds checked on only %d networks", n, len(networks[n]))
		}
	}
	t.Logf("bounds checked (class-bounds): %v", count)
}

// TestBoundsNotApplicable: load-dependent stations and mixed networks give notes, not errors;
// a saturated open network is a finding.
func TestBoundsNotApplicable(t *testing.T) {
	m := &Model{Classes: []Class{{Name: "a", Population: 3}}, Stations: []Station{{Name: "ld", Kind: LoadDependent, Rates: []float64{1, 2}}}, Demand: [][]float64{{1}}}
	set, err := AllBounds(m)
	if err != nil || len(set.Bounds) != 0 || len(set.Notes) == 0 {
		t.Errorf("load-dependent: %v %+v", err, set)
	}
	m = &Model{Classes: []Class{{Name: "a", Open: true, ArrivalRate: 2}}, Stations: []Station{{Name: "q"}}, Demand: [][]float64{{1}}}
	if _, err := AllBounds(m); err == nil || !isSaturated(err) {
		t.Errorf("saturated open network: %v", err)
	}
}

func BenchmarkAllBounds(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	m := randomBoundsModel(rng, 0)
	m.Classes = []Class{{Name: "a", Population: 500, ThinkTime: 1}}
	m.Demand = m.Demand[:1]
	for b.Loop() {
		if _, err := AllBounds(m); err != nil {
			b.Fatal(err)
		}
	}
}

func isSaturated(err error) bool { return errors.Is(err, fault.ErrSaturated) }

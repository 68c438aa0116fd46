package pmva

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/examples"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/spmd"
)

var thesisN = []int{4095, 177, 127} // 001 §6.1.4

func near(a, b, rel float64) bool { return math.Abs(a-b) <= rel*math.Abs(b) }

// TestFig61: 001 Fig. 6.1 and §6.1.2's walk-through, N = (5, 3), p = 2: processor 1 computes
// its 3 class-1 populations at each of the 4 class-2 populations (12 nodes) while processor 2
// follows one position behind, then processor 2 alone computes its last 3: 15 node times, and
// 4 + 2 − 2 = 4 messages (eqs. 6.3–6.4).
func TestFig61(t *testing.T) {
	N := []int{5, 3}
	if got := Tcl(1, 2, N); got != 15 {
		t.Errorf("T_cl = %v q, want 15 q", got)
	}
	if got := Tcm(1, 2, N); got != 4 {
		t.Errorf("T_cm = %v k, want 4 k", got)
	}
	// eq. (6.5) equals (6.3) + (6.4) when p divides N_1 + 1
	got, _ := Time(1, 1, 2, N)
	if got != 19 {
		t.Errorf("T(2) = %v, want 15 + 4", got)
	}
	// p = 1: eq. (6.1), 6·4 = 24 node times, no communication
	if got, _ := Time(1, 7, 1, N); got != 24 {
		t.Errorf("T(1) = %v, want 24", got)
	}
}

// TestThesisNumbers: the printed numbers of 001 §6.1.4–6.1.7. T(1) = q(1)·Π(N_c+1) with
// q(1) = 16.0 µs (seeds README erratum: eqs. 6.12–6.13 need 16.0, not the stated 16.6) is
// 1493 s, "about 30 minutes" on one processor (§6.1.4); eqs. (6.12)–(6.13) with M_s = 40 B,
// T_b = 115 MB/s, L = 46.9 µs, N_A = 4095 print σ_r = 5.3074e-6 and σ_r0 = 7.1564e-4.
func TestThesisNumbers(t *testing.T) {
	if tt := T1(16.0e-6, thesisN); !near(tt, 1493.17, 1e-5) {
		t.Errorf("T(1) = %v s", tt)
	}
	sr, sr0 := Normalised(40, 115e6, 46.9e-6, 16.0e-6, 4095)
	if !near(sr, 5.3074e-6, 1e-4) || !near(sr0, 7.1564e-4, 1e-4) {
		t.Errorf("σ_r = %v, σ_r0 = %v", sr, sr0)
	}
	// with the stated 16.6 µs they would be 3.5 % lower: the erratum
	sr, sr0 = Normalised(40, 115e6, 46.9e-6, 16.6e-6, 4095)
	if near(sr, 5.3074e-6, 0.01) || near(sr0, 7.1564e-4, 0.01) {
		t.Errorf("16.6 µs reproduces the printed values: σ_r = %v, σ_r0 = %v", sr, sr0)
	}
}

// TestEquations: the identities between eqs. (6.5), (6.8)–(6.11) on the thesis shape.
func TestEquations(t *testing.T) {
	q, k := 16.0e-6, 150e-6
	alpha, _ := Alpha(q, k)
	for _, p := range []int{2, 4, 16, 64, 256, 512} {
		s8, err := Speedup(q, q, k, p, thesisN)
		if err != nil {
			t.Fatal(err)
		}
		s9, _ := SpeedupAlpha(alpha, p, thesisN)
		// (6.9) is (6.8) divided by k when q(p) = q(1)
		if !near(s8, s9, 1e-12) {
			t.Errorf("p=%d: (6.8) %v ≠ (6.9) %v", p, s8, s9)
		}
		// (6.10) is the limit of (6.9) for Π_{i≥2}(N_i+1) → ∞: close when 22 784 ≫ p
		s10 := SpeedupLimit(alpha, p, thesisN[0])
		if !near(s9, s10, float64(p)/Positions(thesisN)*2) {
			t.Errorf("p=%d: (6.9) %v vs (6.10) %v", p, s9, s10)
		}
		if e := Efficiency(alpha, p, thesisN[0]); !near(e, s10/float64(p), 1e-12) || e >= 1 {
			t.Errorf("p=%d: (6.11) %v, s/p = %v", p, e, s10/float64(p))
		}
		// speedup below p (k > 0), efficiency falls with p (monotone)
		if s8 >= float64(p) {
			t.Errorf("p=%d: s = %v ≥ p", p, s8)
		}
	}
	// k = 0: no communication cost, the pipeline fill alone: s = Π/( (N1+1)(Π₂/p + (p−1)/p) )
	s, _ := Speedup(q, q, 0, 2, []int{5, 3})
	if want := 24.0 / (6 * (4.0/2 + 0.5)); !near(s, want, 1e-12) {
		t.Errorf("k=0: %v want %v", s, want)
	}
}

// TestMeasuredInverts: q(p) and k(p) of eqs. (6.6), (6.7) and (6.4) give back T(p) through
// eq. (6.5) when T_cl is written without the ceiling (p divides N_1 + 1).
func TestMeasuredInverts(t *testing.T) {
	N := []int{63, 20, 9}
	for _, p := range []int{1, 2, 4, 8} {
		q0, k0 := 2e-8, 3e-6
		T, _ := Time(q0, k0, p, N)
		K := Tcm(k0, p, N)
		if p == 1 {
			K = 0
		}
		q, k, err := Measured(T, K, p, N)
		if err != nil {
			t.Fatal(err)
		}
		// (6.7) reads T − K_p as the last worker's compute time q(N1+1)(Π₂ + p − 1)/p, so q
		// comes back up to the pipeline-fill share (p − 1)/Π₂
		if !near(q, q0, float64(p-1)/Positions(N)+1e-12) || (p > 1 && !near(k, k0, 1e-12)) {
			t.Errorf("p=%d: q %v k %v, want %v %v", p, q, k, q0, k0)
		}
	}
}

// TestBusAIO: the closed form BusAIOSpeedup is what package spmd's BUS-AIO model gives for
// examples/spmd/pmva.yaml (001 §6.1.7), and below eq. (6.10) by the factor h(2) on 1/p.
func TestBusAIO(t *testing.T) {
	data, err := examples.FS.ReadFile("spmd/pmva.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := spmd.ParseModel("pmva.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	e, err := spmd.NewEvaluator(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int{2, 16, 128, 512} {
		pt, err := e.Evaluate(p, 1)
		if err != nil {
			t.Fatal(err)
		}
		if s := BusAIOSpeedup(7.1564e-4, 5.3074e-6, p); !near(s, pt.Speedup, 1e-9) {
			t.Errorf("p=%d: closed form %v, spmd %v", p, s, pt.Speedup)
		}
		// eq. (6.10) with k/(q(1)(N1+1)) = σ_r0 + σ_r has 1/p where BUS-AIO has h(2)/p
		alpha := 1 / ((7.1564e-4 + 5.3074e-6) * 4096)
		if s10 := SpeedupLimit(alpha, p, 4095); s10 <= pt.Speedup {
			t.Errorf("p=%d: (6.10) %v not above BUS-AIO %v", p, s10, pt.Speedup)
		}
	}
}

// TestRefusals: negative, NaN, infinite inputs and p < 1 are input errors.
func TestRefusals(t *testing.T) {
	for i, f := range []func() error{
		func() error { _, err := Time(math.NaN(), 1, 2, thesisN); return err },
		func() error { _, err := Time(1, -1, 2, thesisN); return err },
		func() error { _, err := Time(1, 1, 0, thesisN); return err },
		func() error { _, err := Time(1, 1, 2, nil); return err },
		func() error { _, err := Alpha(1, 0); return err },
		func() error { _, err := Speedup(math.Inf(1), 1, 1, 2, thesisN); return err },
		func() error { _, err := Speedup(1, 0, 0, 2, thesisN); return err },
		func() error { _, _, err := Measured(-1, 0, 2, thesisN); return err },
	} {
		if err := f(); !errors.Is(err, fault.ErrInput) {
			t.Errorf("case %d: %v", i, fmt.Sprint(err))
		}
	}
}

// TestFig68: 001 Fig. 6.8 (N_A = 4095, N_B = 127, N_C = 63): the orders ABC and ACB (the
// largest class first) have the best times; eq. (6.5) is symmetric in classes 2…C, so they
// tie, and a smaller class 1 is slower (eq. 6.11: α(N_1+1) should be large against p).
func TestFig68(t *testing.T) {
	q, k := 16.0e-6, 100e-6
	for _, p := range []int{8, 64, 256} {
		at := func(N ...int) float64 { v, _ := Time(q, k, p, N); return v }
		abc, acb, bac, cab := at(4095, 127, 63), at(4095, 63, 127), at(127, 4095, 63), at(63, 4095, 127)
		if abc != acb || !(abc < bac && bac < cab) {
			t.Errorf("p=%d: ABC %v ACB %v BAC %v CAB %v", p, abc, acb, bac, cab)
		}
	}
}

package qn

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// TestExpectedMax: E[max] of independent exponentials — two with means 1 and 2:
// 1 + 2 − 1/(1 + 1/2) = 7/3; n identical with rate λ: H_n/λ (order statistics).
func TestExpectedMax(t *testing.T) {
	if got := expectedMax([]float64{1, 0.5}); math.Abs(got-7.0/3) > 1e-15 {
		t.Errorf("means 1, 2: %v, want 7/3", got)
	}
	for _, n := range []int{1, 2, 5, 10, 16} {
		rates := make([]float64, n)
		H := 0.0
		for i := range rates {
			rates[i] = 4
			H += 1 / float64(i+1)
		}
		if got := expectedMax(rates); math.Abs(got-H/4) > 1e-12*H {
			t.Errorf("n=%d: %v, want H_n/λ = %v", n, got, H/4)
		}
	}
	if got := expectedMax([]float64{math.Inf(1), 2}); got != 0.5 {
		t.Errorf("a zero-time branch: %v, want the other's mean 0.5", got)
	}
}

const fjModel = `classes: [{name: j, population: %d, think_time: 0.5}]
stations:
  - {name: cpu, service_time: 0.05}
  - {name: disk, service_time: 0.08}
  - {name: b1, service_time: 0.1}
  - {name: b2, service_time: 0.4}
  - {name: b3, service_time: 0.2}
fork_joins: [{name: split, branches: [b1, b2, b3]}]
routing:
  j: {from: {cpu: {split: 0.5, disk: 0.5}, disk: {cpu: 1}, split: {cpu: 1}}}
`

// TestForkJoinMVA: with one job there is no queueing and the recursion is exact: per CPU
// visit the cycle is Z + 0.05 + 0.5·0.08 + 0.5·E[max(0.1, 0.4, 0.2)], E[max] by inclusion–
// exclusion over rates 10, 2.5, 5: 1/10 + 1/2.5 + 1/5 − 1/12.5 − 1/15 − 1/7.5 + 1/17.5.
// At any population: Little's law at every station, U = X·D, and X rises with N to at most
// the bottleneck bound 1/D_max.
func TestForkJoinMVA(t *testing.T) {
	parse := func(n int) *Model {
		m, _, err := ParseModel("fj.yaml", []byte(fmt.Sprintf(fjModel, n)))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	emax := 0.1 + 0.4 + 0.2 - 1/12.5 - 1/15.0 - 1/7.5 + 1/17.5
	r, err := Solve(context.Background(), parse(1), "auto", AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := 1 / (0.5 + 0.05 + 0.5*0.08 + 0.5*emax)
	if r.Solver != "forkjoin-mva" || relErr(r.Throughput[0], want) > 1e-14 {
		t.Errorf("N=1: %s X = %.15g, want %.15g", r.Solver, r.Throughput[0], want)
	}
	prev := 0.0
	for _, n := range []int{2, 5, 20, 100} {
		m := parse(n)
		r, err := ForkJoinMVA(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		x := r.Throughput[0]
		if x < prev || x > 1/(0.5*0.4)+1e-12 {
			t.Errorf("N=%d: X = %v not rising within the bound 1/D_max = 5 (previous %v)", n, x, prev)
		}
		prev = x
		for k := range m.Stations {
			if math.Abs(r.QueueLength[k][0]-x*r.Residence[k][0]) > 1e-12 {
				t.Errorf("N=%d station %d: Q %v ≠ X·R %v", n, k, r.QueueLength[k][0], x*r.Residence[k][0])
			}
			if math.Abs(r.Utilization[k][0]-x*m.Demand[0][k]) > 1e-12 {
				t.Errorf("N=%d station %d: U %v ≠ X·D", n, k, r.Utilization[k][0])
			}
		}
		if math.Abs(x*(0.5+r.ResponseTime[0])-float64(n)) > 1e-9*float64(n) {
			t.Errorf("N=%d: X·(Z + R) = %v", n, x*(0.5+r.ResponseTime[0]))
		}
	}
	// the other solvers refuse the model; without visits this one refuses it
	m := parse(3)
	if _, err := Solve(context.Background(), m, "mva", AMVAOptions{}); err == nil {
		t.Error("exact MVA accepted a fork/join model")
	}
	m.Visits = nil
	if _, err := ForkJoinMVA(context.Background(), m); err == nil {
		t.Error("fork/join MVA without visits accepted")
	}
}

func BenchmarkForkJoinMVA(b *testing.B) {
	m, _, err := ParseModel("fj.yaml", []byte(fmt.Sprintf(fjModel, 1000)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ForkJoinMVA(context.Background(), m); err != nil {
			b.Fatal(err)
		}
	}
}

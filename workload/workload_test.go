package workload

import (
	"math"
	"strings"
	"testing"
)

// TestClassify: six jobs of 1 s and two of 20 s arriving at 0, 1, …, 7 s. By hand: mean
// 5.75 s, sample SD √(541.5/7) = 8.795 s, CV 1.530 > 1, so classes are sought; the split
// {1 × 6}, {20 × 2} has no within-class spread (Calinski–Harabasz +Inf), so k = 2: 8 arrivals
// over 7 s are 7 gaps, λ = 7/7 = 1 per s (hostile7 P2-8: not 8/7), shared 6/8 and 2/8: rates
// 0.75 and 0.25 per s, CV 0 each. With CV ≤ 1 (all 1 s and 2 s alternately: CV 0.36) one class.
func TestClassify(t *testing.T) {
	var jobs []Job
	for i, d := range []float64{1, 1, 20, 1, 1, 20, 1, 1} {
		jobs = append(jobs, Job{float64(i), d})
	}
	s, err := Classify(jobs, 0)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s.All.CV-math.Sqrt(541.5/7)/5.75) > 1e-12 || len(s.Classes) != 2 {
		t.Fatalf("CV %g, %d classes (%s)", s.All.CV, len(s.Classes), s.Criterion)
	}
	a, b := s.Classes[0], s.Classes[1]
	if a.Jobs != 6 || a.MeanDemand != 1 || a.CV != 0 || a.ArrivalRate != 0.75 || b.Jobs != 2 || b.MeanDemand != 20 || b.ArrivalRate != 0.25 {
		t.Errorf("classes %+v", s.Classes)
	}
	if u := a.Utilization() + b.Utilization(); math.Abs(u-s.All.Utilization()) > 1e-12 {
		t.Errorf("U split %g, whole %g: Σ λ_c·D_c must equal λ·D", u, s.All.Utilization())
	}
	var low []Job
	for i := 0; i < 8; i++ {
		low = append(low, Job{float64(i), float64(1 + i%2)})
	}
	if s, _ := Classify(low, 0); len(s.Classes) != 1 || !strings.HasPrefix(s.Criterion, "one class") {
		t.Errorf("CV %g: %d classes (%s)", s.All.CV, len(s.Classes), s.Criterion)
	}
}

// TestArrivalRateGaps (hostile7 P2-8): two arrivals 10 s apart are one gap, λ = 1/10 per s
// (hand count; the old n/span gave 2/10), so demand 1 s gives U = 0.1; three arrivals at 0,
// 10, 30 are 2 gaps over 30 s, λ = 1/15.
func TestArrivalRateGaps(t *testing.T) {
	for _, c := range []struct {
		times      []float64
		rate, util float64
	}{{[]float64{0, 10}, 0.1, 0.1}, {[]float64{0, 10, 30}, 1.0 / 15, 1.0 / 15}} {
		var jobs []Job
		for _, at := range c.times {
			jobs = append(jobs, Job{at, 1})
		}
		s, err := Classify(jobs, 0)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(s.All.ArrivalRate-c.rate) > 1e-15 || math.Abs(s.All.Utilization()-c.util) > 1e-15 {
			t.Errorf("%v: λ %g, U %g; want %g, %g", c.times, s.All.ArrivalRate, s.All.Utilization(), c.rate, c.util)
		}
	}
}

// TestReadJobs: refusals name file:line.
func TestReadJobs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"arrival_time,cpu_demand\n0,1\n1,2\n", ""},
		{"time,demand\n0,1\n", "j.csv:1: the header"},
		{"arrival_time,cpu_demand\n0,1\n1,-2\n", "j.csv:3: cpu_demand \"-2\""},
		{"arrival_time,cpu_demand\n0,1\nx,2\n", "j.csv:3: arrival_time \"x\""},
		{"arrival_time,cpu_demand\n0,1\n", "1 jobs"},
	} {
		_, err := ReadJobs("j.csv", strings.NewReader(tc.in))
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}

// BenchmarkClassify: 100 000 jobs of a two-mode demand, k chosen over 2 … MaxClasses.
func BenchmarkClassify(b *testing.B) {
	jobs := make([]Job, 100000)
	for i := range jobs {
		d := 0.1 + float64(i%97)/970
		if i%10 == 0 {
			d = 5 + float64(i%13)
		}
		jobs[i] = Job{float64(i), d}
	}
	for b.Loop() {
		if _, err := Classify(jobs, 0); err != nil {
			b.Fatal(err)
		}
	}
}

package scaling

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// maxDistinctData: MaxRows rows over n distinct p (1 … n), Amdahl-like times 100/p + 5 with
// 2 % seeded noise (synthetic: the shape of the hostile review's fit100k_distinct.csv,
// which had all 100 000 p distinct).
func maxDistinctData(n int) *Data {
	rng := rand.New(rand.NewPCG(6, 6))
	d := &Data{Name: "synthetic"}
	for i := 0; i < MaxRows; i++ {
		p := 1 + i%n
		d.Points = append(d.Points, Point{P: p, TimeS: (100/float64(p) + 5) * (1 + 0.02*rng.NormFloat64())})
	}
	return d
}

// More than MaxDistinctP distinct p are refused (ErrTooLarge), by ReadCSV naming the line of
// the first p over the limit and by Validate (data given in code: history, cube, extrap); at
// the limit a fit of MaxRows rows ends within 2 s (it took 56 s and more, unbounded, before
// the limit; 100 distinct p took 6.6 s).
func TestMaxDistinctP(t *testing.T) {
	var b strings.Builder
	b.WriteString("p,time\n")
	for p := 1; p <= MaxDistinctP+1; p++ {
		fmt.Fprintf(&b, "%d,%g\n", p, 100/float64(p)+5)
	}
	_, err := ReadCSV("many.csv", strings.NewReader(b.String()))
	want := fmt.Sprintf("many.csv:%d: p = %d is distinct p number %d", MaxDistinctP+2, MaxDistinctP+1, MaxDistinctP+1)
	if !errors.Is(err, fault.ErrTooLarge) || err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("ReadCSV of %d distinct p: %v, want ErrTooLarge with %q", MaxDistinctP+1, err, want)
	}
	if _, err := Fit(context.Background(), maxDistinctData(MaxDistinctP+1)); !errors.Is(err, fault.ErrTooLarge) {
		t.Fatalf("Fit of %d distinct p: %v, want ErrTooLarge", MaxDistinctP+1, err)
	}
	d := maxDistinctData(MaxDistinctP)
	start := cpuTime()
	r, err := Fit(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	if el := cpuTime() - start; el > 2*time.Second && !testing.Short() {
		t.Errorf("Fit of %d rows over %d distinct p took %v of CPU, want under 2 s", MaxRows, MaxDistinctP, el)
	}
	if r.DistinctP != MaxDistinctP {
		t.Errorf("distinct p %d, want %d", r.DistinctP, MaxDistinctP)
	}
}

// BenchmarkFitMaxDistinctP: Fit at the limits, MaxRows rows over MaxDistinctP distinct p.
func BenchmarkFitMaxDistinctP(b *testing.B) {
	d := maxDistinctData(MaxDistinctP)
	for b.Loop() {
		if _, err := Fit(context.Background(), d); err != nil {
			b.Fatal(err)
		}
	}
}

// Times spanning more than MaxTimeSpan are refused naming the line of the largest (hostile
// review: p,time 1,10 / 2,1e308 / 4,3 exited 1 with loo_rms_log_error +Inf); Validate
// refuses the same data given in code.
func TestMaxTimeSpan(t *testing.T) {
	_, err := ReadCSV("inf.csv", strings.NewReader("p,time\n1,10\n2,1e308\n4,3\n"))
	if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "inf.csv:3: time 1e+308") {
		t.Fatalf("ReadCSV: %v, want ErrInput naming inf.csv:3", err)
	}
	d := &Data{Name: "code", Points: []Point{{1, 10}, {2, 1e308}, {4, 3}}}
	if _, err := Fit(context.Background(), d); !errors.Is(err, fault.ErrInput) {
		t.Fatalf("Fit: %v, want ErrInput", err)
	}
}

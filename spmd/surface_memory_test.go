package spmd

import (
	"os"
	"runtime"
	"testing"
	"unsafe"
)

// TestSurfaceAllocatesOnce: Surface allocates its []Point once, at len(ps)·len(ds) (4
// million points: 480 MB), not by appending (copies of the growing slice: the CLI's
// 2000 × 2000 table reached 1.95 GB resident, 0.99 GB with one allocation). Bound: the
// bytes the same evaluations allocate alone, plus the points' own bytes and 10 %.
func TestSurfaceAllocatesOnce(t *testing.T) {
	data, err := os.ReadFile("../examples/spmd/hybrid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseModel("hybrid.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEvaluator(m)
	if err != nil {
		t.Fatal(err)
	}
	ps, ds := []int{1, 2}, make([]int, 20000)
	for i := range ds {
		ds[i] = i + 1
	}
	allocated := func(f func()) uint64 {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	evals := allocated(func() {
		for _, p := range ps {
			for _, d := range ds {
				if _, err := e.Evaluate(p, d); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
	var n int
	surf := allocated(func() {
		pts, _, err := e.Surface(ps, ds, nil)
		if err != nil {
			t.Fatal(err)
		}
		n = len(pts)
	})
	pointsBytes := uint64(n) * uint64(unsafe.Sizeof(Point{}))
	if surf > evals+pointsBytes+pointsBytes/10 {
		t.Errorf("Surface of %d points allocated %d bytes; the evaluations alone %d and the points %d: the slice is copied as it grows", n, surf, evals, pointsBytes)
	}
}

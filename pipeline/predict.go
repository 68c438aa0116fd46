package pipeline

import (
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/sizing"
)

// StageTime is one stage's time at some p and the resource that bounds it.
type StageTime struct {
	Stage      string
	Time       float64 // seconds, N / Rate
	Rate       float64 // elements/s, the least bandwidth
	Bottleneck string  // name of the least bandwidth
}

// Point is the prediction at cluster size P.
type Point struct {
	P              int
	Time           float64 // t_total, seconds (eq. 4)
	Stages         []StageTime
	Fixed          []float64 // seconds, one per Model.Fixed
	Bottleneck     string    // "stage: resource" of the longest stage
	MemoryExceeded bool      // N/p·BytesPerElement > NodeBytes: expect paging, prediction too low
}

// Predict evaluates eq. (4) at cluster size p ≥ 1.
func (m *Model) Predict(p int) Point {
	pf := float64(p)
	pt := Point{P: p}
	longest := -1.0
	for _, st := range m.Stages {
		best := StageTime{Stage: st.Name, Rate: math.Inf(1)}
		for _, b := range st.Bandwidths {
			if r := b.Rate(m.N, pf, m.S); r < best.Rate {
				best.Rate, best.Bottleneck = r, b.Name
			}
		}
		best.Time = m.N / best.Rate
		pt.Time += best.Time
		if best.Time > longest {
			longest = best.Time
			pt.Bottleneck = st.Name + ": " + best.Bottleneck
		}
		pt.Stages = append(pt.Stages, best)
	}
	for _, f := range m.Fixed {
		t := f.Time(m.N, pf, m.S)
		pt.Fixed = append(pt.Fixed, t)
		pt.Time += t
	}
	if b := m.Memory.BytesPerElement; m.Memory.NodeBytes > 0 && b > 0 {
		if p == 1 && m.Memory.BytesPerElementP1 > 0 {
			b = m.Memory.BytesPerElementP1
		}
		pt.MemoryExceeded = m.N/pf*b > m.Memory.NodeBytes
	}
	return pt
}

// T1 is the model's time at p = 1 (eq. 4), the T_1 of sizing's speedups S(p) = T_1/T(p);
// when one node's memory cannot hold the data the source says the time is too low (paging
// not modelled). Nil when eq. 4 gives no finite positive time at p = 1.
func (m *Model) T1() *sizing.Reference {
	pt := m.Predict(1)
	if !(pt.Time > 0) || math.IsInf(pt.Time, 0) {
		return nil
	}
	src := "the pipeline model (003 eq. 4) at p = 1"
	if pt.MemoryExceeded {
		src += " (memory exceeded there: paging is not modelled, so T_1 and every efficiency are low)"
	}
	return sizing.ModelT1(pt.Time, src)
}

// MaxPoints bounds the points of one PredictRange (a million points, about 200 MB).
const MaxPoints = 1_000_000

// PredictRange evaluates every p in [from, to].
func (m *Model) PredictRange(from, to int) ([]Point, error) {
	if from < 1 || to < from || to > MaxP {
		return nil, fmt.Errorf("%w: cluster sizes %d:%d: want 1 ≤ FROM ≤ TO ≤ %d", fault.ErrInput, from, to, MaxP)
	}
	if to-from >= MaxPoints {
		return nil, fmt.Errorf("%w: cluster sizes %d:%d are %d points; the limit is %d (pipeline.MaxPoints)", fault.ErrTooLarge, from, to, to-from+1, MaxPoints)
	}
	out := make([]Point, 0, to-from+1)
	for p := from; p <= to; p++ {
		out = append(out, m.Predict(p))
	}
	return out, nil
}

// Optimum is the answer to "how many nodes should I ask for?".
type Optimum struct {
	P          int     // whole p in the range with the least predicted time
	Time       float64 // its time
	SavedPrev  float64 // t(P−1) − t(P), seconds (NaN at the range's start)
	SavedNext  float64 // t(P+1) − t(P) (NaN at the range's end)
	Knee       int     // smallest p whose time is within KneeTolerance of the least
	KneeTime   float64
	ClosedForm float64 // eq. (19), NaN when its assumptions do not hold
	ClosedNote string  // why the closed form applies or not
	// StorageBound is 003 eq. (21): reading and writing the data through storage alone, with
	// no computation, Σ_stages N/b_storage (2N/b_io for the sort), s; NaN without storage.
	StorageBound float64
}

// KneeTolerance is the relative slack that defines Optimum.Knee: adding nodes beyond the
// knee gains less than 1 % (003 §5 chooses p = 5 or 6 for the same reason).
const KneeTolerance = 0.01

// Optimal finds the least predicted time over whole p in the range, the knee, and the
// closed form of eq. (19).
func (m *Model) Optimal(pts []Point) Optimum {
	o := Optimum{SavedPrev: math.NaN(), SavedNext: math.NaN()}
	bi := 0
	for i, pt := range pts {
		if pt.Time < pts[bi].Time*(1-1e-12) {
			bi = i
		}
	}
	o.P, o.Time = pts[bi].P, pts[bi].Time
	if bi > 0 {
		o.SavedPrev = pts[bi-1].Time - o.Time
	}
	if bi+1 < len(pts) {
		o.SavedNext = pts[bi+1].Time - o.Time
	}
	for _, pt := range pts {
		if pt.Time <= o.Time*(1+KneeTolerance) {
			o.Knee, o.KneeTime = pt.P, pt.Time
			break
		}
	}
	o.ClosedForm, o.ClosedNote = m.ClosedFormOptimum()
	o.StorageBound = m.StorageBound()
	return o
}

// ClosedFormOptimum evaluates eq. (19) when a stage is bounded by a merge-resolution
// bandwidth against constant ones: p* is the smaller root of b_resolution(p) = b, with b the
// least constant bandwidth of that stage. Beyond p* the stage no longer speeds up.
func (m *Model) ClosedFormOptimum() (float64, string) {
	for _, st := range m.Stages {
		var merge *Bandwidth
		b := math.Inf(1)
		bname := ""
		for i, bw := range st.Bandwidths {
			switch bw.Kind {
			case Merge:
				merge = &st.Bandwidths[i]
			case Constant:
				if bw.Value < b {
					b, bname = bw.Value, bw.Name
				}
			}
		}
		if merge == nil || math.IsInf(b, 1) {
			continue
		}
		bc := b * merge.C
		disc := 1 - 4*m.N*bc*bc/m.S
		if disc < 0 {
			return math.NaN(), fmt.Sprintf("eq. (19) has no real root in stage %q: merge resolution never reaches %s (%.4g elements/s)", st.Name, bname, b)
		}
		return (1 - math.Sqrt(disc)) / (2 * bc), fmt.Sprintf("eq. (19): merge resolution of stage %q reaches %s (%.4g elements/s)", st.Name, bname, b)
	}
	return math.NaN(), "eq. (19) needs a stage bounded by merge resolution against a constant bandwidth"
}

// StorageBound is 003 eq. (21), the time to read and write the data through storage alone:
// Σ over stages of N/b, b the stage's constant bandwidth named "storage" (2N/b_io for the
// sort). No p makes the job faster (the storage bandwidth does not grow with p). NaN when no
// stage has a constant bandwidth named storage.
func (m *Model) StorageBound() float64 {
	t, found := 0.0, false
	for _, st := range m.Stages {
		for _, b := range st.Bandwidths {
			if b.Kind == Constant && b.Name == "storage" {
				t += m.N / b.Value
				found = true
				break
			}
		}
	}
	if !found {
		return math.NaN()
	}
	return t
}

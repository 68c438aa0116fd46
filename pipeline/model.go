package pipeline

import (
	"errors"
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
)

// BandwidthKind says how a bandwidth depends on p and s.
type BandwidthKind string

const (
	Constant     BandwidthKind = "constant"     // Value elements/s
	Distribution BandwidthKind = "distribution" // s/(Latency + s/Bandwidth), eq. (1)
	Processing   BandwidthKind = "processing"   // s/(C·s·ln s) = 1/(C·ln s), eq. (7)
	Merge        BandwidthKind = "merge"        // s·p/(C·(N + s·p²)), eq. (9)/(15)
	PerNode      BandwidthKind = "per_node"     // Value·p: a resource every node adds
)

// Bandwidth is one resource a stage runs through.
type Bandwidth struct {
	Name      string
	Kind      BandwidthKind
	Value     float64 // Constant, PerNode: elements/s
	Latency   float64 // Distribution: seconds per block
	Bandwidth float64 // Distribution: elements/s
	C         float64 // Processing, Merge: seconds per element (per ln s, per merge step)
}

// Rate returns b(p, s) in elements per second for a job of N elements.
func (b Bandwidth) Rate(N, p, s float64) float64 {
	switch b.Kind {
	case Constant:
		return b.Value
	case PerNode:
		return b.Value * p
	case Distribution:
		return s / (b.Latency + s/b.Bandwidth)
	case Processing:
		return 1 / (b.C * math.Log(s))
	case Merge:
		return s * p / (b.C * (N + s*p*p))
	}
	return math.NaN()
}

// FixedKind says how a fixed term depends on p and s.
type FixedKind string

const (
	Seconds   FixedKind = "seconds"    // Value seconds
	BlockSort FixedKind = "block_sort" // C·s·ln s: processing the last block, eq. (6)/(13)
	LocalWork FixedKind = "local"      // C·N/p: local dependency resolution, eq. (8)/(14)
)

// Fixed is a term added to the stage times.
type Fixed struct {
	Name  string
	Kind  FixedKind
	Value float64
	C     float64
}

// Time returns the term in seconds.
func (f Fixed) Time(N, p, s float64) float64 {
	switch f.Kind {
	case Seconds:
		return f.Value
	case BlockSort:
		return f.C * s * math.Log(s)
	case LocalWork:
		return f.C * N / p
	}
	return math.NaN()
}

// Stage is a set of overlapped operations bounded by the slowest bandwidth (eq. 2, 3).
type Stage struct {
	Name       string
	Bandwidths []Bandwidth
}

// Memory describes node memory; a prediction whose per-node data exceeds it is flagged
// (003 §5: paging made small clusters far slower than predicted).
//
// The flag is N/p·b > NodeBytes with b = BytesPerElement for p ≥ 2 and BytesPerElementP1
// (when given) for p = 1: 003's measurements contradict one b for all p. Fig. 2 (N = 1e7) at
// p = 1 and Fig. 3 (N = 2e7) at p = 2 hold the same 1e7 elements per node, yet the first
// pages (183.8 s measured against 80.4 s predicted) and the second does not (161.4 s against
// 161.2 s). A lone node also does the sink's gathering and merging of all N elements (about
// two copies of the data), while with p ≥ 2 a worker holds one copy of its N/p elements and
// the sink merges streams. With 64 MB nodes and 4-byte integers, b = 4 (p ≥ 2) and b = 8
// (p = 1) flag exactly the runs that page in Figs. 1–3 (Fig. 1's p = 1 at 4e7 bytes does not).
type Memory struct {
	NodeBytes         float64 // memory available to the task on one node; 0 = not checked
	BytesPerElement   float64 // bytes one element occupies while being processed (with buffers)
	BytesPerElementP1 float64 // the same on a lone node (p = 1), which also gathers and merges; 0 = BytesPerElement
}

// Model is a job of N elements in blocks of S elements through overlapped stages.
type Model struct {
	Name   string
	N      float64
	S      float64
	Stages []Stage
	Fixed  []Fixed
	Memory Memory
}

// Ranges of the model's parameters. Within them every prediction at p ≤ MaxP is finite:
// a stage time N/b ≤ 1e15/1e-6 = 1e21 s, the merge bound N·c(N + s·p²)/(s·p) ≤ 1e15·1e6·
// (1e15 + 1e15·1e18) ≈ 1e54 s, the fixed terms c·s·ln s ≤ 1e6·1e15·35 s (issue 12: b_io:
// 1e-300 gave +Inf).
const (
	MaxElements = 1e15 // n and block
	MinRate     = 1e-6 // elements/s
	MaxRate     = 1e15
	MinCoef     = 1e-15 // s per element
	MaxCoef     = 1e6
	MaxSeconds  = 1e9 // latencies and fixed seconds
	MaxBytes    = 1e18
	MaxP        = 1_000_000_000
)

// Validate reports every problem at once: non-positive sizes or bandwidths, a block larger
// than the job, a processing bandwidth with s ≤ 1 (ln s ≤ 0).
func (m *Model) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if !(m.N >= 1 && m.N <= MaxElements) {
		bad("n = %v: the job size must be 1 … %g elements", m.N, MaxElements)
	}
	if !(m.S >= 1 && m.S <= MaxElements) {
		bad("block = %v: the block size must be 1 … %g elements", m.S, MaxElements)
	} else if m.S > m.N {
		bad("block = %v is larger than the job (n = %v): a block holds at most n elements", m.S, m.N)
	}
	if len(m.Stages) == 0 {
		bad("no stages: give at least one stage with bandwidths")
	}
	for _, st := range m.Stages {
		if len(st.Bandwidths) == 0 {
			bad("stage %q has no bandwidths", st.Name)
		}
		for _, b := range st.Bandwidths {
			where := fmt.Sprintf("stage %q, bandwidth %q", st.Name, b.Name)
			pos := func(field string, v float64) {
				lo, hi := MinRate, MaxRate
				if field == "c" {
					lo, hi = MinCoef, MaxCoef
				}
				if !(v >= lo && v <= hi) {
					bad("%s: %s = %v must be in %g … %g", where, field, v, lo, hi)
				}
			}
			switch b.Kind {
			case Constant, PerNode:
				pos("value", b.Value)
			case Distribution:
				if !(b.Latency >= 0 && b.Latency <= MaxSeconds) {
					bad("%s: latency = %v must be in 0 … %g s", where, b.Latency, MaxSeconds)
				}
				pos("bandwidth", b.Bandwidth)
			case Processing:
				pos("c", b.C)
				if m.S <= 1 {
					bad("%s: processing bandwidth 1/(c·ln s) needs a block of more than 1 element", where)
				}
			case Merge:
				pos("c", b.C)
			default:
				bad("%s: unknown kind %q (allowed: constant, distribution, processing, merge, per_node)", where, b.Kind)
			}
		}
	}
	for _, f := range m.Fixed {
		where := fmt.Sprintf("fixed term %q", f.Name)
		switch f.Kind {
		case Seconds:
			if !(f.Value >= 0 && f.Value <= MaxSeconds) {
				bad("%s: value = %v must be in 0 … %g s", where, f.Value, MaxSeconds)
			}
		case BlockSort, LocalWork:
			if !(f.C == 0 || f.C >= MinCoef && f.C <= MaxCoef) {
				bad("%s: c = %v must be 0 or in %g … %g", where, f.C, MinCoef, MaxCoef)
			}
		default:
			bad("%s: unknown kind %q (allowed: seconds, block_sort, local)", where, f.Kind)
		}
	}
	if !(m.Memory.NodeBytes >= 0 && m.Memory.NodeBytes <= MaxBytes) || !(m.Memory.BytesPerElement >= 0 && m.Memory.BytesPerElement <= MaxBytes) || !(m.Memory.BytesPerElementP1 >= 0 && m.Memory.BytesPerElementP1 <= MaxBytes) {
		bad("memory sizes must be in 0 … %g bytes", MaxBytes)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w: %w", fault.ErrInput, err)
	}
	return nil
}

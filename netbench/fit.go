package netbench

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/clusterperf/clusterperf/fault"
)

// Sample is one message time: t(n) seconds for n bytes.
type Sample struct {
	SizeBytes float64 `json:"size_bytes"`
	TimeS     float64 `json:"time_s"`
}

// Samples turns a table into message times: a latency table's one-way times as they are; a
// bandwidth table's rows as n/BW(n) (per direction: osu_bibw's bandwidth is halved). osu_bw
// keeps a window of messages in flight, so n/BW(n) is a streaming time whose intercept
// underestimates the startup latency: a note says so. Rows of size 0 in bandwidth tables are
// dropped (they carry no time).
func (t *Table) Samples() ([]Sample, []string) {
	var out []Sample
	var notes []string
	for _, p := range t.Points {
		switch t.Kind {
		case OSULatency, IMBPingPong:
			out = append(out, Sample{p.SizeBytes, p.LatencyS})
		default:
			bw := p.BandwidthBytesPerS
			if t.Kind == OSUBiBandwidth {
				bw /= 2
			}
			if p.SizeBytes > 0 {
				out = append(out, Sample{p.SizeBytes, p.SizeBytes / bw})
			}
		}
	}
	if t.Kind == OSUBandwidth || t.Kind == OSUBiBandwidth {
		notes = append(notes, fmt.Sprintf("%s: times are n/BW(n) of a windowed (pipelined) stream: the fitted t_s is a per-message overhead below the startup latency; take t_s from osu_latency", t.Kind))
	}
	return out, notes
}

// LinearFit is t(n) = t_s + n/B fitted to message times.
type LinearFit struct {
	Method   string  `json:"method"`
	Exact    bool    `json:"exact"`
	Points   int     `json:"points"`         // samples fitted
	MinSize  float64 `json:"min_size_bytes"` // smallest message size fitted, bytes
	MaxSize  float64 `json:"max_size_bytes"` // largest, bytes
	LatencyS float64 `json:"latency_s"`      // t_s
	// 95 % interval of t_s; equal to t_s when there are no degrees of freedom (then Notes say so).
	LatencyLowS  float64 `json:"latency_low_s"`
	LatencyHighS float64 `json:"latency_high_s"`
	// SecondsPerByte is 1/B with its 95 % interval (the fitted, linear parameter).
	SecondsPerByte     float64 `json:"seconds_per_byte"`
	SecondsPerByteLow  float64 `json:"seconds_per_byte_low"`
	SecondsPerByteHigh float64 `json:"seconds_per_byte_high"`
	// BandwidthBytesPerS is B = 1/SecondsPerByte; nil when the time does not grow with size.
	BandwidthBytesPerS *float64 `json:"bandwidth_bytes_per_s"`
	// Interval of B; the high end is nil (unbounded) when 1/B's interval reaches 0.
	BandwidthLowBytesPerS  *float64 `json:"bandwidth_low_bytes_per_s"`
	BandwidthHighBytesPerS *float64 `json:"bandwidth_high_bytes_per_s"`
	RelRMS                 float64  `json:"rel_rms"` // root mean square of (model − t)/t
	DegreesOfFreedom       int      `json:"degrees_of_freedom"`
	Notes                  []string `json:"notes,omitempty"`
}

// Method of FitLinear.
const linearMethod = "weighted least squares of t = t_s + n·(1/B), weights 1/t² (relative residuals); 95 % Student-t intervals with n − 2 degrees of freedom"

// At is the fitted time of an n-byte message, s.
func (f LinearFit) At(n float64) float64 { return f.LatencyS + n*f.SecondsPerByte }

type sums struct{ s, sx, sxx, sy, sxy, syy float64 }

func (a *sums) add(x, y float64) {
	w := 1 / (y * y)
	a.s += w
	a.sx += w * x
	a.sxx += w * x * x
	a.sy += w * y
	a.sxy += w * x * y
	a.syy += w * y * y
}

// FitLinear fits t(n) = t_s + n/B to at least two samples of different sizes. Samples must
// have finite sizes ≥ 0 and times > 0 (Parse guarantees both).
func FitLinear(samples []Sample) (LinearFit, error) {
	f := LinearFit{Method: linearMethod, Points: len(samples), MinSize: math.Inf(1)}
	var a sums
	for _, s := range samples {
		if !(s.TimeS > 0) || math.IsInf(s.TimeS, 0) || !(s.SizeBytes >= 0) || math.IsInf(s.SizeBytes, 0) {
			return f, fmt.Errorf("%w: sample (%g bytes, %g s): sizes must be finite ≥ 0 and times finite > 0", fault.ErrInput, s.SizeBytes, s.TimeS)
		}
		a.add(s.SizeBytes, s.TimeS)
		f.MinSize, f.MaxSize = math.Min(f.MinSize, s.SizeBytes), math.Max(f.MaxSize, s.SizeBytes)
	}
	if len(samples) < 2 || f.MaxSize == f.MinSize {
		return f, fmt.Errorf("%w: a fit of t_s and B needs samples at two or more message sizes (have %d)", fault.ErrInput, len(samples))
	}
	det := a.s*a.sxx - a.sx*a.sx
	if !(det > 0) {
		return f, fmt.Errorf("%w: message sizes too close to separate t_s from 1/B", fault.ErrInput)
	}
	b := (a.s*a.sxy - a.sx*a.sy) / det
	t0 := (a.sy - b*a.sx) / a.s
	if b < 0 {
		// Time falls with size: 1/B is not identifiable; fit the constant alone.
		b, t0 = 0, a.sy/a.s
		f.Notes = append(f.Notes, "the time does not grow with message size over these sizes: bandwidth not identifiable, t_s is the weighted mean time")
	}
	if t0 < 0 {
		t0 = 0
		b = a.sxy / a.sxx
		f.Notes = append(f.Notes, "the unconstrained intercept is negative: t_s fixed at 0 (not identifiable from these sizes)")
	}
	f.LatencyS, f.SecondsPerByte = t0, b
	ssr := 0.0
	for _, s := range samples {
		r := (t0 + b*s.SizeBytes - s.TimeS) / s.TimeS
		ssr += r * r
	}
	f.RelRMS = math.Sqrt(ssr / float64(len(samples)))
	f.DegreesOfFreedom = len(samples) - 2
	f.LatencyLowS, f.LatencyHighS = t0, t0
	f.SecondsPerByteLow, f.SecondsPerByteHigh = b, b
	if f.DegreesOfFreedom >= 1 {
		s2 := ssr / float64(f.DegreesOfFreedom)
		q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(f.DegreesOfFreedom)}.Quantile(0.975)
		ha := q * math.Sqrt(s2*a.sxx/det)
		hb := q * math.Sqrt(s2*a.s/det)
		f.LatencyLowS, f.LatencyHighS = math.Max(t0-ha, 0), t0+ha
		f.SecondsPerByteLow, f.SecondsPerByteHigh = math.Max(b-hb, 0), b+hb
	} else {
		f.Notes = append(f.Notes, "two sizes, two parameters: an exact fit without an interval (an interval needs ≥ 3 sizes)")
	}
	if b > 0 {
		bw := 1 / b
		f.BandwidthBytesPerS = &bw
		lo := 1 / f.SecondsPerByteHigh
		f.BandwidthLowBytesPerS = &lo
		if f.SecondsPerByteLow > 0 {
			hi := 1 / f.SecondsPerByteLow
			f.BandwidthHighBytesPerS = &hi
		} else {
			f.Notes = append(f.Notes, "the interval of 1/B reaches 0: no upper bound on the bandwidth")
		}
	}
	return f, nil
}

// Piecewise is t(n) fitted separately below and above a message size: MPI libraries switch
// from an eager to a rendezvous protocol at some size, with a different t_s and B.
type Piecewise struct {
	Method       string    `json:"method"`
	Exact        bool      `json:"exact"`
	BreakBytes   float64   `json:"break_size_bytes"`       // first size of the upper range
	Chosen       bool      `json:"break_chosen_from_data"` // the break was chosen from the data (breakBytes ≤ 0)
	Below        LinearFit `json:"below"`
	Above        LinearFit `json:"above"`
	SingleRelRMS float64   `json:"single_fit_rel_rms"` // of one t_s + n/B over all samples, for comparison
	RelRMS       float64   `json:"rel_rms"`            // of the piecewise model over all samples
	Notes        []string  `json:"notes,omitempty"`
}

// MinSegment is the fewest samples FitPiecewise puts in a size range (≥ 1 degree of freedom).
const MinSegment = 3

// FitPiecewise fits t(n) = t_s + n/B separately to samples below breakBytes and from it on.
// breakBytes ≤ 0 chooses the break from the data: the split (with at least MinSegment samples
// on each side) of least total weighted squared error, found in O(n) with running sums. A
// break chosen from the same data makes the fit look better than it would on new data: the
// notes say so. Samples must be sorted by size (Parse's tables are).
func FitPiecewise(samples []Sample, breakBytes float64) (Piecewise, error) {
	pw := Piecewise{Method: "two ranges of " + linearMethod, BreakBytes: breakBytes}
	single, err := FitLinear(samples)
	if err != nil {
		return pw, err
	}
	pw.SingleRelRMS = single.RelRMS
	for i := 1; i < len(samples); i++ {
		if samples[i].SizeBytes <= samples[i-1].SizeBytes {
			return pw, fmt.Errorf("%w: samples must be sorted by increasing size", fault.ErrInput)
		}
	}
	k := -1
	if breakBytes > 0 {
		for i, s := range samples {
			if s.SizeBytes >= breakBytes {
				k = i
				break
			}
		}
		if k < 2 || len(samples)-k < 2 {
			return pw, fmt.Errorf("%w: break at %g bytes leaves fewer than 2 sizes on one side", fault.ErrInput, breakBytes)
		}
	} else {
		if len(samples) < 2*MinSegment {
			return pw, fmt.Errorf("%w: choosing a break needs ≥ %d sizes (have %d)", fault.ErrInput, 2*MinSegment, len(samples))
		}
		pre := make([]sums, len(samples)+1)
		for i, s := range samples {
			pre[i+1] = pre[i]
			pre[i+1].add(s.SizeBytes, s.TimeS)
		}
		sse := func(a sums) float64 {
			det := a.s*a.sxx - a.sx*a.sx
			if !(det > 0) {
				return math.Inf(1)
			}
			b := (a.s*a.sxy - a.sx*a.sy) / det
			c := (a.sy - b*a.sx) / a.s
			return math.Max(a.syy-c*a.sy-b*a.sxy, 0)
		}
		best := math.Inf(1)
		for i := MinSegment; i <= len(samples)-MinSegment; i++ {
			lo, hi, all := pre[i], pre[len(samples)], pre[len(samples)]
			hi = sums{all.s - lo.s, all.sx - lo.sx, all.sxx - lo.sxx, all.sy - lo.sy, all.sxy - lo.sxy, all.syy - lo.syy}
			if v := sse(lo) + sse(hi); v < best {
				best, k = v, i
			}
		}
		if k < 0 {
			return pw, fmt.Errorf("%w: no break separates the sizes", fault.ErrInput)
		}
		pw.Chosen = true
		pw.BreakBytes = samples[k].SizeBytes
		pw.Notes = append(pw.Notes, "break chosen by least squares on the same samples: the piecewise fit's error is optimistic")
	}
	if pw.Below, err = FitLinear(samples[:k]); err != nil {
		return pw, err
	}
	if pw.Above, err = FitLinear(samples[k:]); err != nil {
		return pw, err
	}
	ssr := 0.0
	for i, s := range samples {
		m := pw.Below
		if i >= k {
			m = pw.Above
		}
		r := (m.At(s.SizeBytes) - s.TimeS) / s.TimeS
		ssr += r * r
	}
	pw.RelRMS = math.Sqrt(ssr / float64(len(samples)))
	return pw, nil
}

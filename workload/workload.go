// Package workload splits a log of background jobs into classes by cluster analysis (002 §3:
// when the CPU demand of the background jobs has a high coefficient of variation, the
// predictions improve if the jobs are split into classes, each with a smaller one). The
// classes are found by k-means on the CPU demand (one dimension, so the classes are ranges
// of demand), with the number of classes chosen by the Calinski–Harabasz criterion
// (Calinski and Harabasz 1974, "A dendrite method for cluster analysis", Commun. Stat. 3:
// 1–27; the criterion Weka's cascade k-means uses to pick k). Each class gets its share of
// the arrival rate, its mean demand and its coefficient of variation, as package tpn's
// background job streams need them.
package workload

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/spec"
)

// Limits: the rows of a log, and the largest number of classes tried.
const (
	MaxJobs    = 1_000_000
	MaxClasses = 8
)

// Job is one background job: its arrival time and CPU demand, s.
type Job struct {
	Arrival float64
	Demand  float64
}

// ReadJobs reads a CSV log with a header naming the columns arrival_time (s) and cpu_demand
// (s, > 0); other columns are ignored. At least two jobs, at most MaxJobs; every problem is
// refused naming file:line.
func ReadJobs(file string, r io.Reader) ([]Job, error) {
	cr := csv.NewReader(bufio.NewReader(r))
	cr.FieldsPerRecord, cr.ReuseRecord = -1, true
	bad := func(line int, format string, a ...any) error {
		return &spec.Error{File: file, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	head, err := cr.Read()
	if err != nil {
		return nil, bad(1, "no header line (want arrival_time,cpu_demand): %v", err)
	}
	ai, di := -1, -1
	for i, h := range head {
		switch strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")) {
		case "arrival_time":
			ai = i
		case "cpu_demand":
			di = i
		}
	}
	if ai < 0 || di < 0 {
		return nil, bad(1, "the header %q lacks arrival_time or cpu_demand", strings.Join(head, ","))
	}
	var jobs []Job
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, bad(pe.Line, "%v", pe.Err)
		}
		if err != nil {
			return nil, bad(0, "%v", err)
		}
		line, _ := cr.FieldPos(0) // a record read has at least one field
		if len(jobs) >= MaxJobs {
			return nil, &spec.Error{File: file, Line: line, Msg: fmt.Sprintf("more than %d jobs", MaxJobs), Kind: fault.ErrTooLarge}
		}
		if len(rec) <= max(ai, di) {
			return nil, bad(line, "%d fields, the header has %d", len(rec), len(head))
		}
		a, errA := strconv.ParseFloat(strings.TrimSpace(rec[ai]), 64)
		d, errD := strconv.ParseFloat(strings.TrimSpace(rec[di]), 64)
		switch {
		case errA != nil || !(a >= 0) || math.IsInf(a, 0):
			return nil, bad(line, "arrival_time %q: want a finite number of seconds ≥ 0", rec[ai])
		case errD != nil || !(d > 0) || math.IsInf(d, 0):
			return nil, bad(line, "cpu_demand %q: want a finite number of seconds > 0", rec[di])
		}
		jobs = append(jobs, Job{a, d})
	}
	if len(jobs) < 2 {
		return nil, bad(0, "%d jobs: classes need at least 2", len(jobs))
	}
	return jobs, nil
}

// Class is one class of background jobs.
type Class struct {
	Jobs        int     `json:"jobs"`
	ArrivalRate float64 `json:"arrival_rate_per_s"` // the class's share of the log's (N − 1)/span
	MeanDemand  float64 `json:"mean_demand_s"`
	CV          float64 `json:"cv"` // standard deviation / mean of the demand
	MinDemand   float64 `json:"min_demand_s"`
	MaxDemand   float64 `json:"max_demand_s"`
}

// Utilization is the class's CPU utilization λ·D (002's U_o term).
func (c Class) Utilization() float64 { return c.ArrivalRate * c.MeanDemand }

// Split is a log's classes and how their number was chosen.
type Split struct {
	All     Class   `json:"all"`     // the log as one class
	Classes []Class `json:"classes"` // by increasing mean demand
	SpanS   float64 `json:"span_s"`  // last arrival − first arrival
	// CH[k-2] is the Calinski–Harabasz index of the k-means split into k classes, k = 2 …
	CH        []float64 `json:"calinski_harabasz"`
	Criterion string    `json:"criterion"`
}

// Classify splits the jobs into k classes by k-means on the CPU demand (k = 0: chosen, see
// Split.Criterion). Sorting makes one-dimensional classes contiguous ranges, so Lloyd's
// iterations run on prefix sums in O(k log n) each, from centres at the demand quantiles
// (deterministic: no random start).
func Classify(jobs []Job, k int) (*Split, error) {
	if len(jobs) < 2 || k < 0 || k > MaxClasses || k > len(jobs) {
		return nil, fmt.Errorf("%w: %d jobs into %d classes: want at least 2 jobs and 0 (chosen) … %d classes, at most one per job", fault.ErrInput, len(jobs), k, MaxClasses)
	}
	d := make([]float64, len(jobs))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, j := range jobs {
		d[i] = j.Demand
		lo, hi = min(lo, j.Arrival), max(hi, j.Arrival)
	}
	slices.Sort(d)
	span := hi - lo
	if !(span > 0) {
		return nil, fmt.Errorf("%w: every job arrives at %g s: no arrival rate", fault.ErrInput, lo)
	}
	ps := newPrefix(d)
	s := &Split{SpanS: span, All: ps.class(0, len(d), span)}
	for kk := 2; kk <= min(MaxClasses, len(d)-1); kk++ {
		s.CH = append(s.CH, ps.calinskiHarabasz(kmeans(ps, kk)))
	}
	switch {
	case k > 0:
		s.Criterion = fmt.Sprintf("%d classes, as asked", k)
	case s.All.CV <= 1 || len(s.CH) == 0:
		k = 1
		s.Criterion = fmt.Sprintf("one class: the demand's CV %.3g is at most 1 (002 §3 splits a high-CV workload; an exponential demand has CV 1)", s.All.CV)
	default:
		k = 2 + argmax(s.CH)
		s.Criterion = fmt.Sprintf("%d classes: the largest Calinski–Harabasz index (between-class over within-class variance, each per degree of freedom; Calinski and Harabasz 1974) over k = 2 … %d, the demand's CV %.3g being above 1", k, 1+len(s.CH), s.All.CV)
	}
	cuts := []int{0, len(d)}
	if k > 1 {
		cuts = kmeans(ps, k)
	}
	for i := 0; i+1 < len(cuts); i++ {
		s.Classes = append(s.Classes, ps.class(cuts[i], cuts[i+1], span))
	}
	return s, nil
}

func argmax(x []float64) int {
	b := 0
	for i, v := range x {
		if v > x[b] {
			b = i
		}
	}
	return b
}

// prefix holds the sorted demands with prefix sums of x and x².
type prefix struct {
	d, s, s2 []float64
}

func newPrefix(d []float64) *prefix {
	p := &prefix{d: d, s: make([]float64, len(d)+1), s2: make([]float64, len(d)+1)}
	for i, x := range d {
		p.s[i+1], p.s2[i+1] = p.s[i]+x, p.s2[i]+x*x
	}
	return p
}

func (p *prefix) mean(a, b int) float64 { return (p.s[b] - p.s[a]) / float64(b-a) }

// sse is Σ (x − mean)² over d[a:b].
func (p *prefix) sse(a, b int) float64 {
	m := p.mean(a, b)
	return math.Max(p.s2[b]-p.s2[a]-float64(b-a)*m*m, 0)
}

// class is d[a:b]'s class. Its arrival rate is its share n/N of the log's rate (N − 1)/span:
// N arrivals over the span between the first and the last are N − 1 inter-arrival gaps (the
// maximum-likelihood Poisson rate given the first arrival); n/span would count one gap too many.
func (p *prefix) class(a, b int, span float64) Class {
	n := float64(b - a)
	total := float64(len(p.d))
	m := p.mean(a, b)
	cv := 0.0
	if b-a > 1 && m > 0 {
		cv = math.Sqrt(p.sse(a, b)/(n-1)) / m
	}
	return Class{Jobs: b - a, ArrivalRate: n / total * (total - 1) / span, MeanDemand: m, CV: cv, MinDemand: p.d[a], MaxDemand: p.d[b-1]}
}

// kmeans returns the k classes' cut points (cuts[0] = 0 … cuts[k] = n) after Lloyd's
// iterations: each value joins its nearest centre (the cut between two centres is at their
// midpoint), each centre moves to its class's mean; at most 200 iterations or until the
// cuts repeat. An empty class keeps its previous centre.
func kmeans(p *prefix, k int) []int {
	n := len(p.d)
	c := make([]float64, k)
	for i := range c {
		c[i] = p.d[min(n-1, (2*i+1)*n/(2*k))]
	}
	cuts := make([]int, k+1)
	for it := 0; it < 200; it++ {
		next := make([]int, k+1)
		next[k] = n
		for i := 1; i < k; i++ {
			mid := (c[i-1] + c[i]) / 2
			next[i] = max(next[i-1], sortSearch(p.d, mid))
		}
		if slices.Equal(next, cuts) {
			break
		}
		cuts = next
		for i := 0; i < k; i++ {
			if cuts[i+1] > cuts[i] {
				c[i] = p.mean(cuts[i], cuts[i+1])
			}
		}
		slices.Sort(c)
	}
	return dropEmpty(cuts)
}

// sortSearch is the first index whose value exceeds x.
func sortSearch(d []float64, x float64) int {
	i, _ := slices.BinarySearchFunc(d, x, func(v, t float64) int {
		if v <= t {
			return -1
		}
		return 1
	})
	return i
}

func dropEmpty(cuts []int) []int {
	out := []int{cuts[0]}
	for _, c := range cuts[1:] {
		if c > out[len(out)-1] {
			out = append(out, c)
		}
	}
	return out
}

// calinskiHarabasz is (B/(k − 1)) / (W/(n − k)) of a split: B the between-class and W the
// within-class sum of squares; +Inf when W = 0 (every class one value), 0 for one class.
func (p *prefix) calinskiHarabasz(cuts []int) float64 {
	n, k := len(p.d), len(cuts)-1
	if k < 2 || n <= k {
		return 0
	}
	var w float64
	for i := 0; i < k; i++ {
		w += p.sse(cuts[i], cuts[i+1])
	}
	b := p.sse(0, n) - w
	if w == 0 {
		return math.Inf(1)
	}
	return (b / float64(k-1)) / (w / float64(n-k))
}

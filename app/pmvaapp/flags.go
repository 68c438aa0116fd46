package pmvaapp

import (
	"cmp"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/internal/units"
	"github.com/clusterperf/clusterperf/pmva"
	"github.com/clusterperf/clusterperf/qn"
)

// Flags are the pmva command's options as given: worker counts in the range syntax, the
// solvers and the class order comma-separated, q and k as times with units ("16us").
type Flags struct {
	Workers, Algorithms string
	Repeats             int
	Scale, CalScale     float64
	ClassOrder          string
	Q, K                string
	MaxPoints           float64
}

// Request checks the options (every problem into c, before any work), reads the model of
// path with read and builds the request; progress is told each network's runs.
func (o Flags) Request(c *app.FlagCheck, read func(string) ([]byte, error), path string, progress func(network string, alg pmva.Algorithm, p, n int)) (Request, error) {
	q := Request{Repeats: o.Repeats, Scale: o.Scale, CalibrateScale: o.CalScale, Given: o.Q != "", MaxPoints: o.MaxPoints, Progress: progress}
	q.Workers, q.Algorithms = o.check(c)
	q.Q, q.K = o.costs(c)
	if err := c.Err(); err != nil {
		return q, err
	}
	data, err := read(path)
	if err != nil {
		return q, err
	}
	m, name, err := qn.ParseModel(path, data)
	if err != nil {
		return q, app.Lib(err)
	}
	q.Model, q.Name = m, cmp.Or(name, path)
	if o.ClassOrder != "" {
		q.ClassOrder = strings.Split(o.ClassOrder, ",")
	}
	return q, nil
}

// check records the range errors of the options and returns the p values and solvers.
func (o Flags) check(c *app.FlagCheck) (ps []int, algs []pmva.Algorithm) {
	ps, perr := ranges.Parse("--workers", o.Workers, ranges.Limits{Min: 1, Max: 4096, MaxCount: 64})
	if perr != nil {
		c.Add("%v", perr)
	}
	for _, a := range strings.Split(o.Algorithms, ",") {
		alg, aerr := pmva.ParseAlgorithm(strings.TrimSpace(a))
		if aerr != nil {
			c.Add("--algorithm: %v", aerr)
		}
		algs = append(algs, alg)
	}
	c.AtLeast("repeats", int64(o.Repeats), 1)
	if o.Repeats > 100 {
		c.Add("--repeats %d: want at most 100", o.Repeats)
	}
	if !(o.Scale >= 1 && o.Scale <= 1e6) {
		c.Add("--scale %v: want 1 ≤ f ≤ 1e6", o.Scale)
	}
	if !(o.CalScale > 1 && o.CalScale <= 1e6) {
		c.Add("--calibrate-scale %v: want 1 < f ≤ 1e6 (calibrating on the predicted network itself is not a check)", o.CalScale)
	}
	if !(o.MaxPoints >= 1 && o.MaxPoints <= 1e10) {
		c.Add("--max-points %v: want 1 … 1e10", o.MaxPoints)
	}
	return ps, algs
}

// costs reads --q and --k (both or neither) in seconds.
func (o Flags) costs(c *app.FlagCheck) (q, k float64) {
	if (o.Q == "") != (o.K == "") {
		c.Add("--q and --k go together")
		return 0, 0
	}
	if o.Q == "" {
		return 0, 0
	}
	var err error
	if q, err = units.Duration(o.Q); err != nil || CheckCosts(q, 0) != nil {
		c.Add("--q %q: want a time %g … %g s (e.g. 16us)", o.Q, MinCostS, MaxCostS)
	}
	if k, err = units.Duration(o.K); err != nil || CheckCosts(1, k) != nil {
		c.Add("--k %q: want 0 or a time %g … %g s (e.g. 100us)", o.K, MinCostS, MaxCostS)
	}
	return q, k
}

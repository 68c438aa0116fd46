package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/pmvaapp"
	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/internal/units"
	"github.com/clusterperf/clusterperf/pmva"
	"github.com/clusterperf/clusterperf/qn"
)

type pmvaOptions struct {
	workers    string
	algorithms string
	repeats    int
	scale      float64
	calScale   float64
	classOrder string
	q, k       string
	maxPoints  float64
	out        outOptions
}

func newPmvaCmd(stdout, stderr io.Writer) *cobra.Command {
	var o pmvaOptions
	cmd := &cobra.Command{
		Use:   "pmva MODEL.yaml",
		Short: "Time the parallel exact MVA on a model and check Gennaro (001) chapter 6's performance model",
		Long: `Run qn's pipelined (and interleaved) parallel exact MVA on a closed multi-class model
and check the performance model of Gennaro (001) §6.1: the per-point cost q(p), the
per-message communication/wait cost k(p) (eqs. 6.6–6.7, 6.4), the predicted time T(p)
(eq. 6.5) and speedup and efficiency (eq. 6.8), α = q/k with eqs. (6.9)–(6.11), and the
BUS-AIO c = 2 model of §6.1.7 beside eq. (6.10) (Fig. 6.9: the same form with h(2) = 1.5
on 1/p).

The check is honest: q(p) and k(p) are measured on a CALIBRATION network (the model with its
populations divided by --calibrate-scale, default 2: about 1/8 of the points for 3 classes)
and the times are predicted for the model (divided by --scale, default 1) and compared with
runs of it: rel_error = (predicted − measured median)/measured median. Every network is run
--repeats times; min, median and max are printed, and spread = (max − min)/median is the
machine's speed spread. The thesis network (pmva/testdata/thesis-network.yaml, 9.3e7 points)
takes seconds to tens of seconds per run on a loaded machine: --scale 4 runs a stand-in of
the same shape.

--q and --k give q and k (seconds, with units: 16us) instead of measuring: no runs, only the
formulas (e.g. --q 16us, the thesis's q(1) after the erratum of eqs. 6.12–6.13).

--class-order B,A,C walks the classes in that order, B as class 1 (the Fig. 6.8 experiment):
the timed runs and the formulas both use it. The answer of exact MVA is the same in every
order; the time is not (eq. 6.11: class 1 should be the largest). Without it the class with
the largest population is class 1 (001 §6.1.6). class_order in the output is the order used.

CSV tables (--csv-table): points (default), calibration, fig69.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPmva(cmd.Context(), o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.workers, "workers", "1,2", "worker counts p (lists, FROM:TO, FROM:TO:STEP, FROM:TO:xK)")
	f.StringVar(&o.algorithms, "algorithm", "pipelined,interleaved", "solvers: pipelined, interleaved (comma-separated)")
	f.IntVar(&o.repeats, "repeats", 3, "runs per network and p (min, median, max)")
	f.Float64Var(&o.scale, "scale", 1, "divide every population by this (a stand-in of the same shape)")
	f.Float64Var(&o.calScale, "calibrate-scale", 2, "calibration network: the predicted network's populations divided by this (> 1)")
	f.StringVar(&o.classOrder, "class-order", "", "class names in the wanted order (comma-separated)")
	f.StringVar(&o.q, "q", "", "per-point cost q (no runs; needs --k)")
	f.StringVar(&o.k, "k", "", "per-message cost k (no runs; needs --q)")
	f.Float64Var(&o.maxPoints, "max-points", pmva.MaxPoints, "refuse runs above this many population vectors")
	addOutFlags(cmd, &o.out)
	return cmd
}

// check validates the flags before any work and returns the p values and algorithms.
func (o pmvaOptions) check() (ps []int, algs []pmva.Algorithm, q, k float64, err error) {
	var c flagCheck
	o.out.check(&c)
	ps, perr := ranges.Parse("--workers", o.workers, ranges.Limits{Min: 1, Max: 4096, MaxCount: 64})
	if perr != nil {
		c.Add("%v", perr)
	}
	for _, a := range strings.Split(o.algorithms, ",") {
		alg, aerr := pmva.ParseAlgorithm(strings.TrimSpace(a))
		if aerr != nil {
			c.Add("--algorithm: %v", aerr)
		}
		algs = append(algs, alg)
	}
	c.AtLeast("repeats", int64(o.repeats), 1)
	if o.repeats > 100 {
		c.Add("--repeats %d: want at most 100", o.repeats)
	}
	if !(o.scale >= 1 && o.scale <= 1e6) {
		c.Add("--scale %v: want 1 ≤ f ≤ 1e6", o.scale)
	}
	if !(o.calScale > 1 && o.calScale <= 1e6) {
		c.Add("--calibrate-scale %v: want 1 < f ≤ 1e6 (calibrating on the predicted network itself is not a check)", o.calScale)
	}
	if !(o.maxPoints >= 1 && o.maxPoints <= 1e10) {
		c.Add("--max-points %v: want 1 … 1e10", o.maxPoints)
	}
	q, k = o.costs(&c)
	return ps, algs, q, k, c.Err()
}

func (o pmvaOptions) costs(c *flagCheck) (q, k float64) {
	if (o.q == "") != (o.k == "") {
		c.Add("--q and --k go together")
		return 0, 0
	}
	if o.q == "" {
		return 0, 0
	}
	var err error
	if q, err = units.Duration(o.q); err != nil || pmvaapp.CheckCosts(q, 0) != nil {
		c.Add("--q %q: want a time %g … %g s (e.g. 16us)", o.q, pmvaapp.MinCostS, pmvaapp.MaxCostS)
	}
	if k, err = units.Duration(o.k); err != nil || pmvaapp.CheckCosts(1, k) != nil {
		c.Add("--k %q: want 0 or a time %g … %g s (e.g. 100us)", o.k, pmvaapp.MinCostS, pmvaapp.MaxCostS)
	}
	return q, k
}

func runPmva(ctx context.Context, o pmvaOptions, path string, stdout, stderr io.Writer) error {
	ps, algs, q, k, err := o.check()
	if err != nil {
		return err
	}
	data, err := readInput(path)
	if err != nil {
		return err
	}
	m, name, err := qn.ParseModel(path, data)
	if err != nil {
		return libError(err)
	}
	req := pmvaapp.Request{Model: m, Name: cmp.Or(name, path), Algorithms: algs, Workers: ps, Repeats: o.repeats,
		Scale: o.scale, CalibrateScale: o.calScale, Given: o.q != "", Q: q, K: k, MaxPoints: o.maxPoints,
		Progress: func(network string, alg pmva.Algorithm, p, n int) {
			fmt.Fprintf(stderr, "pmva: %s network, %s, p = %d, %d runs\n", network, alg, p, n)
		}}
	if o.classOrder != "" {
		req.ClassOrder = strings.Split(o.classOrder, ",")
	}
	r, err := pmvaapp.Run(ctx, req)
	if err != nil {
		return err
	}
	return render(stdout, r, o.out)
}

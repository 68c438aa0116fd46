package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/pmvaapp"
	"github.com/clusterperf/clusterperf/pmva"
)

type pmvaOptions struct {
	pmvaapp.Flags
	out outOptions
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
	f.StringVar(&o.Workers, "workers", "1,2", "worker counts p (lists, FROM:TO, FROM:TO:STEP, FROM:TO:xK)")
	f.StringVar(&o.Algorithms, "algorithm", "pipelined,interleaved", "solvers: pipelined, interleaved (comma-separated)")
	f.IntVar(&o.Repeats, "repeats", 3, "runs per network and p (min, median, max)")
	f.Float64Var(&o.Scale, "scale", 1, "divide every population by this (a stand-in of the same shape)")
	f.Float64Var(&o.CalScale, "calibrate-scale", 2, "calibration network: the predicted network's populations divided by this (> 1)")
	f.StringVar(&o.ClassOrder, "class-order", "", "class names in the wanted order (comma-separated)")
	f.StringVar(&o.Q, "q", "", "per-point cost q (no runs; needs --k)")
	f.StringVar(&o.K, "k", "", "per-message cost k (no runs; needs --q)")
	f.Float64Var(&o.MaxPoints, "max-points", pmva.MaxPoints, "refuse runs above this many population vectors")
	addOutFlags(cmd, &o.out)
	return cmd
}

func runPmva(ctx context.Context, o pmvaOptions, path string, stdout, stderr io.Writer) error {
	var c flagCheck
	o.out.check(&c)
	req, err := o.Request(&c.FlagCheck, readInput, path, func(network string, alg pmva.Algorithm, p, n int) {
		fmt.Fprintf(stderr, "pmva: %s network, %s, p = %d, %d runs\n", network, alg, p, n)
	})
	if err != nil {
		return err
	}
	r, err := pmvaapp.Run(ctx, req)
	if err != nil {
		return err
	}
	return render(stdout, r, o.out)
}

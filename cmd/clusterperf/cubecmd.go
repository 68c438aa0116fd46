package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/cubeapp"
)

type cubeOptions struct {
	cubeapp.Flags
	out outOptions
}

const cubeLong = `cube PROFILE.cubex | SET_DIR | PROFILE.cubex… --values V,…: Score-P / Scalasca CUBE4 profiles.

One profile: its metrics and call tree, each call path's inclusive and exclusive values summed
over the locations, and the check that the root's inclusive value equals the sum of the
exclusive values over the call tree.

A set (a folder of <name>.<parameters>.r<repetition>/ folders, as Extra-P's cube-set loader
reads them, e.g. mm.x10y1z1.r1; or several files with --values giving --param's value of each):
per call path and metric, the mean value per location (exclusive; the application total
inclusive) fitted against --param by package scaling's models (as fit DATA.csv), the
application total, and which call path stops scaling first (the smallest value at which
doubling the parameter cuts its fitted time by less than 10 %; only for times that fall as it
grows — a time that grows with it, as with a problem size, has trend "grows" instead).
Two parameters (--param p,n, or the two that vary) are modelled jointly by Extra-P's
multi-parameter normal form (package scaling's FitPN: c0 + c1·f(p) + c2·g(n) and its
multiplicative and mixed shapes), the trend along the first at the largest second.
Further parameters must be fixed (--fix z=1).
CSV tables (--csv-table): one profile: call_tree (default), metrics; a set: models (default), summary.
`

func newCubeCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &cubeOptions{}
	cmd := &cobra.Command{
		Use:   "cube PROFILE.cubex | SET_DIR | PROFILE.cubex… --values V,…",
		Short: "Read Score-P CUBE4 profiles: call tree and metrics, or per-region scaling models of a profile set",
		Long:  cubeLong,
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCube(cmd, *o, args, stdout)
		},
	}
	f := cmd.Flags()
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.Param, "param", "", "the parameter to model against, or two to model jointly, e.g. p,n (default: those that vary in the set, p first)")
	f.StringVar(&o.Fix, "fix", "", "values of the other parameters, e.g. y=1,z=1")
	f.StringVar(&o.Metrics, "metric", "", "metrics to model, by uniq_name (default: every metric with data), e.g. time,visits")
	f.StringVar(&o.Latency, "latency", "", "one profile: network latency (e.g. 2us) for 004's queueing model from the profile's MPI call paths")
	f.StringVar(&o.Bandwidth, "bandwidth", "", "one profile: network bandwidth (e.g. 10GB/s) for 004's queueing model")
	f.StringVar(&o.Values, "values", "", "with several .cubex files: --param's value of each, in order (e.g. 1,2,4,8)")
	return cmd
}

func runCube(cmd *cobra.Command, o cubeOptions, args []string, stdout io.Writer) error {
	var c flagCheck
	o.out.check(&c)
	q, err := o.Request(&c.FlagCheck, args)
	if err != nil {
		return err
	}
	res, err := cubeapp.Run(cmd.Context(), q)
	if err != nil {
		return err
	}
	return render(stdout, res, o.out)
}

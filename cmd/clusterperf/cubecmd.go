package main

import (
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/cubeapp"
	"github.com/clusterperf/clusterperf/internal/units"
)

type cubeOptions struct {
	out                outOptions
	param              string
	fix                string
	metrics            string
	values             string
	latency, bandwidth string
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
	f.StringVar(&o.param, "param", "", "the parameter to model against, or two to model jointly, e.g. p,n (default: those that vary in the set, p first)")
	f.StringVar(&o.fix, "fix", "", "values of the other parameters, e.g. y=1,z=1")
	f.StringVar(&o.metrics, "metric", "", "metrics to model, by uniq_name (default: every metric with data), e.g. time,visits")
	f.StringVar(&o.latency, "latency", "", "one profile: network latency (e.g. 2us) for 004's queueing model from the profile's MPI call paths")
	f.StringVar(&o.bandwidth, "bandwidth", "", "one profile: network bandwidth (e.g. 10GB/s) for 004's queueing model")
	f.StringVar(&o.values, "values", "", "with several .cubex files: --param's value of each, in order (e.g. 1,2,4,8)")
	return cmd
}

// request reads the flags into a cubeapp.Request: --fix's values, --metric's names,
// --values, the network of --latency and --bandwidth.
func (o cubeOptions) request(args []string) (cubeapp.Request, error) {
	var c flagCheck
	o.out.check(&c)
	q := cubeapp.Request{Paths: args, Param: o.param, Fix: map[string]float64{}}
	if o.fix != "" {
		for _, kv := range strings.Split(o.fix, ",") {
			k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
			x, err := strconv.ParseFloat(v, 64)
			if !ok || err != nil || k == "" {
				c.Add("--fix %q: want name=value pairs such as y=1,z=1", o.fix)
				break
			}
			q.Fix[k] = x
		}
	}
	if o.metrics != "" {
		q.Metrics = strings.Split(o.metrics, ",")
	}
	if o.values != "" {
		for _, v := range strings.Split(o.values, ",") {
			x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				c.Add("--values %q: %q is not a number", o.values, v)
				break
			}
			q.Values = append(q.Values, x)
		}
	}
	if (o.latency == "") != (o.bandwidth == "") {
		c.Add("--latency and --bandwidth go together (004's network)")
	} else if o.latency != "" {
		var e error
		q.Network = true
		if q.Latency, e = units.Duration(o.latency); e != nil || !(q.Latency >= 0) {
			c.Add("--latency %q: want a time such as 2us", o.latency)
		}
		if q.Bandwidth, e = units.Bandwidth(o.bandwidth); e != nil || !(q.Bandwidth > 0) {
			c.Add("--bandwidth %q: want a rate such as 10GB/s", o.bandwidth)
		}
	}
	return q, c.Err()
}

func runCube(cmd *cobra.Command, o cubeOptions, args []string, stdout io.Writer) error {
	q, err := o.request(args)
	if err != nil {
		return err
	}
	res, err := cubeapp.Run(cmd.Context(), q)
	if err != nil {
		return err
	}
	return render(stdout, res, o.out)
}

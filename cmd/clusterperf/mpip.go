package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/internal/units"
	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/report"
)

type mpipOptions struct {
	latency, bandwidth string
	network            string
	waitOps            string
	collectives        bool
	predict            string
	samples            int
	seed               uint64
	out                outOptions
	plot               string
}

func newMpipCmd(stdout, stderr io.Writer) *cobra.Command {
	var o mpipOptions
	cmd := &cobra.Command{
		Use:   "mpip REPORT.mpiP...",
		Short: "Queueing models from mpiP profiles, validated against the measurement (004)",
		Long: `Read mpiP text reports (3.x, verbose or concise, single-collector or collective) and build
the queueing model of 004 for each: N = P messages, a switch delay D0 = L/BW + Lat, P identical
CPU queues with D_k = (MPI_Time − MPI_Wait)/(P·M), a computation delay (App_Time − MPI_Time)/M.
Prints the extracted figures, the model's inputs and outputs, 004's validation views
(application time, MPI time, MPI wait time, throughput: observed, modelled, relative error)
and the component breakdown. Several reports give the table across P; with three or more
P, --predict extrapolates the per-message inputs and predicts other P with an interval.

Network: --latency and --bandwidth (units: 5us, 1.2ms; 200MB/s, 10Gb/s), or --network F.csv
with columns p (or size), latency, bandwidth, interpolated linearly as 004 does.

MPI wait time is the time in --wait-ops (default: ` + strings.Join(mpip.DefaultWaitOps, ",") + `);
polling (Test*, Iprobe) counts because it can dominate. Messages M are point-to-point sends
(` + strings.Join(mpip.P2PSendOps, ",") + `); --collectives adds collective sends.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMpip(o, args, stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.latency, "latency", "", "network latency, e.g. 5us")
	f.StringVar(&o.bandwidth, "bandwidth", "", "network bandwidth, e.g. 200MB/s")
	f.StringVar(&o.network, "network", "", "CSV table of latency and bandwidth by p or by message size")
	f.StringVar(&o.waitOps, "wait-ops", "", "comma-separated MPI operations counted as wait time")
	f.BoolVar(&o.collectives, "collectives", false, "count collective sends as messages too")
	f.StringVar(&o.predict, "predict", "", "comma-separated P to predict (needs reports at 3+ different P)")
	f.IntVar(&o.samples, "samples", 2000, "Monte Carlo samples for prediction intervals")
	f.Uint64Var(&o.seed, "seed", 1, "random seed of the prediction intervals")
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.plot, "plot", "", "write measured vs modelled wall time and components to FILE.svg|png")
	return cmd
}

type mpipRun struct {
	Summary mpip.Summary `json:"summary"`
	Model   *mpip.Result `json:"model"`
	Notes   []string     `json:"notes,omitempty"`
}

func (o mpipOptions) check() ([]int, error) {
	var c flagCheck
	o.out.check(&c)
	c.output("plot", o.plot, ".svg", ".png")
	c.atLeast("samples", int64(o.samples), 1)
	if o.samples > 10_000_000 {
		c.add("--samples %d: at most 10000000", o.samples)
	}
	if o.network != "" && (o.latency != "" || o.bandwidth != "") {
		c.add("give --network or --latency/--bandwidth, not both")
	} else if o.network == "" && (o.latency == "" || o.bandwidth == "") {
		c.add("the model needs the network: --latency and --bandwidth (e.g. --latency 5us --bandwidth 200MB/s), or --network F.csv")
	}
	var targets []int
	for _, s := range strings.Split(o.predict, ",") {
		if o.predict == "" {
			break
		}
		p, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || p < 1 {
			c.add("--predict %q: want whole numbers ≥ 1, e.g. 128,256", o.predict)
			break
		}
		targets = append(targets, p)
	}
	return targets, c.err()
}

// mpipResult is mpip's one result value.
type mpipResult struct {
	WaitOps     []string          `json:"wait_ops"`
	Runs        []mpipRun         `json:"runs"`
	Predictions []mpip.Prediction `json:"predictions,omitempty"`
	Trends      []mpip.Trend      `json:"trends,omitempty"`
	Notes       []string          `json:"notes"`
}

func runMpip(o mpipOptions, files []string, stdout, stderr io.Writer) error {
	targets, err := o.check()
	if err != nil {
		return err
	}
	net, err := o.net()
	if err != nil {
		return err
	}
	opts := mpip.Options{IncludeCollectives: o.collectives}
	if o.waitOps != "" {
		opts.WaitOps = strings.Split(o.waitOps, ",")
	}
	out := &mpipResult{WaitOps: waitList(opts), Notes: []string{}}
	seen := map[string]bool{}
	for _, path := range files {
		run, ops, err := mpipModel(path, opts, net)
		if err != nil {
			return err
		}
		out.Runs = append(out.Runs, run)
		for _, op := range ops {
			seen[op] = true
		}
	}
	if err := checkWaitOps(opts.WaitOps, seen); err != nil {
		return err
	}
	sort.SliceStable(out.Runs, func(i, j int) bool { return out.Runs[i].Summary.P < out.Runs[j].Summary.P })
	if len(targets) > 0 {
		var ins []mpip.Inputs
		for _, r := range out.Runs {
			ins = append(ins, r.Model.Inputs)
		}
		if out.Predictions, out.Trends, err = mpip.Predict(ins, net, targets, o.samples, o.seed); err != nil {
			return badInput(err)
		}
	}
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	if o.plot != "" {
		return mpipPlot(o.plot, out.Runs, out.Predictions)
	}
	return nil
}

// net is the network of --network or --latency/--bandwidth.
func (o mpipOptions) net() (mpip.Network, error) {
	if o.network != "" {
		b, err := readInput(o.network)
		if err != nil {
			return mpip.Network{}, err
		}
		net, err := mpip.ReadNetwork(o.network, bytes.NewReader(b))
		return net, badInput(err)
	}
	lat, err := units.Duration(o.latency)
	if err != nil {
		return mpip.Network{}, badInputf("--latency: %v", err)
	}
	bw, err := units.Bandwidth(o.bandwidth)
	if err != nil {
		return mpip.Network{}, badInputf("--bandwidth: %v", err)
	}
	return mpip.ConstNetwork(lat, bw), nil
}

// checkWaitOps refuses a --wait-ops operation that no report has (a typo such as Waitt
// would otherwise set the MPI wait to 0 and change every result).
func checkWaitOps(ops []string, seen map[string]bool) error {
	var c flagCheck
	for _, op := range ops {
		if !seen[op] {
			c.add("--wait-ops %q: no report has this MPI operation (they have: %s)", op, strings.Join(slices.Sorted(maps.Keys(seen)), ", "))
		}
	}
	return c.err()
}

// mpipModel parses one report and solves its 004 model; it returns the report's MPI
// operation names too.
func mpipModel(path string, opts mpip.Options, net mpip.Network) (mpipRun, []string, error) {
	b, err := readInput(path)
	if err != nil {
		return mpipRun{}, nil, err
	}
	rep, err := mpip.Parse(path, bytes.NewReader(b))
	if err != nil {
		return mpipRun{}, nil, badInput(err)
	}
	s, err := rep.Summarize(opts)
	if err != nil {
		return mpipRun{}, nil, badInput(err)
	}
	lat, bw, note := net.At(s.P, s.AvgSize)
	res, err := mpip.Solve(mpip.InputsFrom(s, lat, bw))
	if err != nil {
		return mpipRun{}, nil, libError(err)
	}
	run := mpipRun{Summary: s, Model: res, Notes: append([]string{}, s.Notes...)}
	if note != "" {
		run.Notes = append(run.Notes, note)
	}
	for _, sk := range rep.Skipped {
		run.Notes = append(run.Notes, "skipped non-standard block at "+sk)
	}
	return run, rep.OpNames(), nil
}

func waitList(o mpip.Options) []string {
	if o.WaitOps != nil {
		return o.WaitOps
	}
	return mpip.DefaultWaitOps
}

func (r *mpipResult) NoteLines() []string {
	out := slices.Clone(r.Notes)
	for _, run := range r.Runs {
		for _, n := range run.Notes {
			out = append(out, run.Summary.File+": "+n)
		}
	}
	for _, p := range r.Predictions {
		if p.Note != "" {
			out = append(out, fmt.Sprintf("predicted P = %d: %s", p.P, p.Note))
		}
	}
	return out
}

// Tables: "across_p" (default; 004's spreadsheet), "views" (observed against model per
// run), "trends".
func (r *mpipResult) Tables() []*report.Table {
	t := acrossP(r.Runs, r.Predictions)
	t.Name, t.Title = "across_p", "Across P (004's spreadsheet): observed and modelled wall time AT = App_Time/P and R·M/P"
	v := &report.Table{Name: "views", Title: "Observed against the 004 model", Header: []string{"file", "p", "view", "observed", "model", "rel_error"}}
	for _, run := range r.Runs {
		m := run.Model
		for _, x := range []struct {
			name string
			v    mpip.View
		}{{"app (wall) time AT, s", m.AppTime}, {"MPI time MT, s", m.MPITime}, {"MPI wait time WT, s", m.WaitTime}, {"throughput X, msg/s", m.Throughput}} {
			v.Add(run.Summary.File, run.Summary.P, x.name, x.v.Observed, x.v.Model, report.Percent(x.v.Rel()))
		}
	}
	tr := &report.Table{Name: "trends", Title: "Power-law trends across P", Header: []string{"input", "a", "exponent", "residual_sd_ln", "runs"}}
	for _, x := range r.Trends {
		tr.Add(x.Name, x.A, x.B, x.S, x.N)
	}
	return []*report.Table{t, v, tr}
}

func acrossP(runs []mpipRun, preds []mpip.Prediction) *report.Table {
	t := &report.Table{Header: []string{"p", "file", "app_time_s", "mpi_time_s", "mpi_wait_s", "messages", "avg_size_bytes", "d0_s", "dk_s", "compute_delay_s",
		"r_s", "x_per_s", "at_observed_s", "at_model_s", "at_rel_error", "mt_rel_error", "wt_rel_error", "x_rel_error", "at_low_s", "at_high_s"}}
	for _, r := range runs {
		m := r.Model
		t.Add(r.Summary.P, r.Summary.File, m.Inputs.AppTime, m.Inputs.MPITime, m.Inputs.MPIWait, m.Inputs.M, m.Inputs.L, m.Demands.D0, m.Demands.Dk, m.Demands.Compute,
			m.R, m.X, m.AppTime.Observed, m.AppTime.Model, report.Percent(m.AppTime.Rel()), report.Percent(m.MPITime.Rel()), report.Percent(m.WaitTime.Rel()), report.Percent(m.Throughput.Rel()), "", "")
	}
	for _, p := range preds {
		m := p.Result
		t.Add(p.P, "(predicted)", m.Inputs.AppTime, m.Inputs.MPITime, "", m.Inputs.M, m.Inputs.L, m.Demands.D0, m.Demands.Dk, m.Demands.Compute,
			m.R, m.X, "", m.AppTime.Model, "", "", "", "", p.ATLow, p.ATHigh)
	}
	return t
}

func mpipPlot(path string, runs []mpipRun, preds []mpip.Prediction) error {
	wall := report.Panel{Title: "Wall time per process: measured vs 004 model", XLabel: "P", YLabel: "s", LogX: true}
	var xs, obs, mod []float64
	for _, r := range runs {
		xs = append(xs, float64(r.Summary.P))
		obs = append(obs, r.Model.AppTime.Observed)
		mod = append(mod, r.Model.AppTime.Model)
	}
	wall.Series = append(wall.Series, report.Series{Name: "model AT = R·M/P", X: xs, Y: mod}, report.Series{Name: "measured AT* = App_Time/P", X: xs, Y: obs, Points: true})
	if len(preds) > 0 {
		var px, py, lo, hi []float64
		for _, p := range preds {
			px = append(px, float64(p.P))
			py = append(py, p.Result.AppTime.Model)
			lo = append(lo, p.ATLow)
			hi = append(hi, p.ATHigh)
		}
		wall.Series = append(wall.Series, report.Series{Name: "predicted", X: px, Y: py, Points: true},
			report.Series{Name: "95 % low", X: px, Y: lo, Points: true}, report.Series{Name: "95 % high", X: px, Y: hi, Points: true})
	}
	names := []string{"switch delay", "MPI contention", "MPI active", "compute"}
	ys := make([][]float64, 4)
	for _, r := range runs {
		c := r.Model.Model
		for i, v := range []float64{c.SwitchDelay, c.MPIContention, c.MPIActive, c.Compute} {
			ys[i] = append(ys[i], v)
		}
	}
	panels := []report.Panel{wall}
	if len(xs) > 1 {
		st, err := report.Stacked("Modelled components (aggregate seconds)", "P", "s", xs, names, ys)
		if err != nil {
			return err
		}
		panels = append(panels, st)
	}
	return report.SaveFigure(path, panels...)
}

package main

import (
	"fmt"
	"io"
	"math"
	"os"
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
	format             string
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
	f.StringVar(&o.format, "format", "table", "output format: table, json, csv")
	f.StringVar(&o.plot, "plot", "", "write measured vs modelled wall time and components to FILE.svg|png")
	return cmd
}

type mpipRun struct {
	Summary mpip.Summary `json:"summary"`
	Model   *mpip.Result `json:"model"`
	Notes   []string     `json:"notes,omitempty"`
}

func runMpip(o mpipOptions, files []string, stdout, stderr io.Writer) error {
	if err := report.CheckFormat(o.format); err != nil {
		return badInput(err)
	}
	if err := checkPlotPath(o.plot); err != nil {
		return err
	}
	var net mpip.Network
	switch {
	case o.network != "" && (o.latency != "" || o.bandwidth != ""):
		return badInputf("give --network or --latency/--bandwidth, not both")
	case o.network != "":
		f, err := os.Open(o.network)
		if err != nil {
			return badInputf("cannot read %s: %v", o.network, err)
		}
		net, err = mpip.ReadNetwork(o.network, f)
		f.Close()
		if err != nil {
			return badInput(err)
		}
	case o.latency != "" && o.bandwidth != "":
		lat, err := units.Duration(o.latency)
		if err != nil {
			return badInputf("--latency: %v", err)
		}
		bw, err := units.Bandwidth(o.bandwidth)
		if err != nil {
			return badInputf("--bandwidth: %v", err)
		}
		net = mpip.ConstNetwork(lat, bw)
	default:
		return badInputf("the model needs the network: --latency and --bandwidth (e.g. --latency 5us --bandwidth 200MB/s), or --network F.csv")
	}
	var targets []int
	if o.predict != "" {
		for _, s := range strings.Split(o.predict, ",") {
			p, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || p < 1 {
				return badInputf("--predict %q: want whole numbers ≥ 1, e.g. 128,256", o.predict)
			}
			targets = append(targets, p)
		}
	}
	opts := mpip.Options{IncludeCollectives: o.collectives}
	if o.waitOps != "" {
		opts.WaitOps = strings.Split(o.waitOps, ",")
	}
	var runs []mpipRun
	for _, path := range files {
		fh, err := os.Open(path)
		if err != nil {
			return badInputf("cannot read %s: %v", path, err)
		}
		rep, err := mpip.Parse(path, fh)
		fh.Close()
		if err != nil {
			return badInput(err)
		}
		s, err := rep.Summarize(opts)
		if err != nil {
			return badInput(err)
		}
		lat, bw, note := net.At(s.P, s.AvgSize)
		res, err := mpip.Solve(mpip.InputsFrom(s, lat, bw))
		if err != nil {
			return badInput(err)
		}
		run := mpipRun{Summary: s, Model: res, Notes: append([]string(nil), s.Notes...)}
		if note != "" {
			run.Notes = append(run.Notes, note)
		}
		for _, sk := range rep.Skipped {
			run.Notes = append(run.Notes, "skipped non-standard block at "+sk)
		}
		runs = append(runs, run)
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Summary.P < runs[j].Summary.P })
	var preds []mpip.Prediction
	var trends []mpip.Trend
	if len(targets) > 0 {
		var ins []mpip.Inputs
		for _, r := range runs {
			ins = append(ins, r.Model.Inputs)
		}
		var err error
		preds, trends, err = mpip.Predict(ins, net, targets, o.samples, o.seed)
		if err != nil {
			return badInput(err)
		}
	}
	switch o.format {
	case "json":
		out := struct {
			WaitOps     []string          `json:"wait_ops"`
			Runs        []mpipRun         `json:"runs"`
			Predictions []mpip.Prediction `json:"predictions,omitempty"`
			Trends      []mpip.Trend      `json:"trends,omitempty"`
		}{WaitOps: waitList(opts), Runs: runs, Predictions: preds, Trends: trends}
		if err := report.WriteJSON(stdout, out); err != nil {
			return err
		}
	case "csv":
		if err := acrossP(runs, preds).WriteCSV(stdout); err != nil {
			return err
		}
	default:
		for _, r := range runs {
			writeRun(stdout, r)
		}
		if len(runs) > 1 || len(preds) > 0 {
			t := acrossP(runs, preds)
			t.Title = "Across P (004's spreadsheet): observed and modelled wall time AT = App_Time/P and R·M/P"
			if err := t.WriteText(stdout); err != nil {
				return err
			}
			fmt.Fprintln(stdout)
		}
		for _, tr := range trends {
			fmt.Fprintf(stdout, "trend %-24s ∝ P^%.3f (residual sd of ln: %.3g, %d runs)\n", tr.Name, tr.B, tr.S, tr.N)
		}
		for _, p := range preds {
			fmt.Fprintf(stdout, "Predicted P = %d: AT = %.4g s (95 %% interval %.4g … %.4g s over %d samples)%s\n", p.P, p.Result.AppTime.Model, p.ATLow, p.ATHigh, p.Samples, noteSuffix(p.Note))
		}
	}
	if o.plot != "" {
		return mpipPlot(o.plot, runs, preds)
	}
	return nil
}

func noteSuffix(n string) string {
	if n == "" {
		return ""
	}
	return " — " + n
}

func waitList(o mpip.Options) []string {
	if o.WaitOps != nil {
		return o.WaitOps
	}
	return mpip.DefaultWaitOps
}

func pct(v mpip.View) string {
	e := v.Rel()
	if math.IsNaN(e) {
		return "n/a"
	}
	return fmt.Sprintf("%+.1f%%", 100*e)
}

func writeRun(w io.Writer, r mpipRun) {
	s, m := r.Summary, r.Model
	d := m.Demands
	fmt.Fprintf(w, "%s: P = %d\n", s.File, s.P)
	fmt.Fprintf(w, "  collected  App_Time %.4g s, MPI_Time %.4g s, MPI_Wait %.4g s, M = %.6g messages of L = %.4g B (BW %.4g B/s, Lat %.3g s)\n",
		s.AppTime, s.MPITime, s.MPIWait, s.Messages, s.AvgSize, m.Inputs.BW, m.Inputs.Lat)
	fmt.Fprintf(w, "  model in   N = %d, K = %d: D0 = %.4g s, D_k = %.4g s (×%d), D_P+1 = %.4g s\n", d.N, d.K, d.D0, d.Dk, d.N, d.Compute)
	fmt.Fprintf(w, "  model out  R = %.4g s, R0 = %.4g s, R_k = %.4g s, X = %.4g msg/s, U0 = %.4g, U_k = %.4g, U_P+1 = %.4g\n", m.R, m.R0, m.Rk, m.X, m.U0, m.Uk, m.UC)
	t := &report.Table{Header: []string{"view", "observed", "model", "rel. error"}}
	t.Add("app (wall) time AT, s", m.AppTime.Observed, m.AppTime.Model, pct(m.AppTime))
	t.Add("MPI time MT, s", m.MPITime.Observed, m.MPITime.Model, pct(m.MPITime))
	t.Add("MPI wait time WT, s", m.WaitTime.Observed, m.WaitTime.Model, pct(m.WaitTime))
	t.Add("throughput X, msg/s", m.Throughput.Observed, m.Throughput.Model, pct(m.Throughput))
	t.WriteText(w)
	c, ms := m.Model, m.Measured
	fmt.Fprintf(w, "  components (aggregate s): model switch %.4g, MPI contention %.4g, MPI active %.4g, compute %.4g; measured MPI wait %.4g, MPI active %.4g, computation %.4g\n",
		c.SwitchDelay, c.MPIContention, c.MPIActive, c.Compute, ms.MPIWait, ms.MPIActive, ms.Computation)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	fmt.Fprintln(w)
}

func acrossP(runs []mpipRun, preds []mpip.Prediction) *report.Table {
	t := &report.Table{Header: []string{"p", "file", "app_time", "mpi_time", "mpi_wait", "messages", "avg_size", "d0", "dk", "compute_delay",
		"r", "x", "at_observed", "at_model", "at_error", "mt_error", "wt_error", "x_error", "at_low", "at_high"}}
	for _, r := range runs {
		m := r.Model
		t.Add(r.Summary.P, r.Summary.File, m.Inputs.AppTime, m.Inputs.MPITime, m.Inputs.MPIWait, m.Inputs.M, m.Inputs.L, m.Demands.D0, m.Demands.Dk, m.Demands.Compute,
			m.R, m.X, m.AppTime.Observed, m.AppTime.Model, m.AppTime.Rel(), m.MPITime.Rel(), m.WaitTime.Rel(), m.Throughput.Rel(), "", "")
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

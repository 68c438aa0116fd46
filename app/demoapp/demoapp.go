// Package demoapp is the demo command's workflow: a tour of the questions clusterperf
// answers, each section one built-in example (package examples) solved by the library call
// of the command named beside it, written as text.
package demoapp

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/pipelineapp"
	"github.com/clusterperf/clusterperf/examples"
	"github.com/clusterperf/clusterperf/fit"
	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/pipeline"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/scaling"
	"github.com/clusterperf/clusterperf/spmd"
	"github.com/clusterperf/clusterperf/tpn"
)

// Run writes the tour of what clusterperf answers to w: each section runs a built-in
// example (package examples) through the library call its command uses.
func Run(ctx context.Context, w io.Writer) error {
	fmt.Fprintln(w, "== 1. Is my service saturated, and where? A queueing network: NAS CG class A on 64 CPUs (Elliott (004)) ==\n"+
		"   Stations serve jobs; demand D = seconds of service per job; utilization U = X·D (busy fraction); the bottleneck is\n"+
		"   the station with the largest D, and N* = (ΣD + Z)/D_max (Z: think time) is the population beyond which jobs only queue.")
	fmt.Fprintln(w, "   (examples/keck/cg-a-64.yaml: switch delay, 64 identical CPU queues solved once, compute delay; clusterperf solve FILE)")
	_, res, err := demoSolve(ctx, w, "keck/cg-a-64.yaml")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Model wall time AT = R·M/P = %.4g s (R: response time per message, M: messages, P: processes;\n   Elliott (004) appendix: 1.613 s; measured 1.578 s)\n\n", res.ResponseTime[0]*269.376e3/64)

	if err := demoPipeline(ctx, w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if err := demoSpeedup(w); err != nil {
		return err
	}
	if err := demoMpip(w); err != nil {
		return err
	}
	if err := demoExtrapolate(ctx, w); err != nil {
		return err
	}
	if err := demoFit(w); err != nil {
		return err
	}
	if err := demoTpn(w); err != nil {
		return err
	}
	return demoRouting(ctx, w)
}

func demoRouting(ctx context.Context, w io.Writer) error {
	fmt.Fprintln(w, "\n== 8. My model has routing probabilities, not visit counts: which station is busiest? A central-server file server ==")
	fmt.Fprintln(w, "   (examples/qn/central-server.yaml; check it: clusterperf simulate … --discipline cpu=ps)")
	m, res, err := demoSolve(ctx, w, "qn/central-server.yaml")
	if err != nil {
		return err
	}
	b := 0 // the bottleneck: the station with the highest utilization
	for k := range m.Stations {
		if res.StationUtilization(k) > res.StationUtilization(b) {
			b = k
		}
	}
	fmt.Fprintf(w, "   The visits come from the traffic equations (%.3g %s visits per %s cycle);\n"+
		"   the busiest station is %s at %.0f %%.\n", m.Visits[0][0], m.Stations[0].Name, m.Classes[0].Name,
		m.Stations[b].Name, 100*res.StationUtilization(b))
	return nil
}

// demoSolve reads an embedded qn example, solves it with the automatic solver and prints its
// name and result tables.
func demoSolve(ctx context.Context, w io.Writer, path string) (*qn.Model, *qn.Result, error) {
	data, err := examples.FS.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	m, name, err := qn.ParseModel("examples/"+path, data)
	if err != nil {
		return nil, nil, err
	}
	res, err := qn.Solve(ctx, m, "auto", qn.AMVAOptions{})
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(w, "%s\n", name)
	for _, t := range app.QNTables(qn.NewView(name, m, res)) {
		if err := t.WriteText(w); err != nil {
			return nil, nil, err
		}
		fmt.Fprintln(w)
	}
	return m, res, nil
}

func demoTpn(w io.Writer) error {
	fmt.Fprintln(w, "\n== 7. How much do other people's jobs slow my program? A message-passing ring on shared workstations (Anglano (002)) ==")
	fmt.Fprintln(w, "   (examples/tpn/matmul.yaml --cluster cluster.yaml; clusterperf tpn … --plot gantt.svg --advise)")
	prog, err := parseExample("tpn/matmul.yaml", tpn.ParseProgram)
	if err != nil {
		return err
	}
	cl, err := parseExample("tpn/cluster.yaml", tpn.ParseCluster)
	if err != nil {
		return err
	}
	for _, U := range []float64{0, 0.3, 0.6} {
		cl.Workstations[3].Background = []tpn.BgClass{{ArrivalRate: U, Demand: 1}}
		net, err := tpn.Build(prog, cl)
		if err != nil {
			return err
		}
		r, err := net.Run(tpn.Options{})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "   background utilization %.1f on ws4 (expansion %.3g): predicted %.4g s (%s)\n", U, 1/(1-U), tpn.Seconds(r.Time), r.Outcome)
	}
	return nil
}

func demoFit(w io.Writer) error {
	fmt.Fprintln(w, "== 6. What limits my program? An SPMD model fitted to 42 measured speedups (QCRD, Cremonesi & Gennaro (000) §5.2) ==\n"+
		"   p processors, d disks; speedup S = T(1)/T(p, d); the fitted model names the part (CPU, I/O, sync) that limits S.")
	fmt.Fprintln(w, "   (examples/fit/qcrd.yaml + qcrd.csv; clusterperf fit … --predict 128x32 --plot fit.svg)")
	sp, err := parseExample("fit/qcrd.yaml", fit.ParseSpec)
	if err != nil {
		return err
	}
	data, err := parseExample("fit/qcrd.csv", reading(fit.ReadData))
	if err != nil {
		return err
	}
	rep, err := fit.Run(sp, data)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "   %s fits with average error %.3g %% (Cremonesi & Gennaro's (000) metric); ranking by AICc:", rep.Best.Architecture, 100*rep.Best.Metrics.AverageError)
	for _, r := range rep.Ranking {
		if r.DeltaAICc != nil {
			fmt.Fprintf(w, " %s (Δ %.1f)", r.Name, *r.DeltaAICc)
		}
	}
	fmt.Fprintf(w, "\n   %s.\n", fit.Inference(rep.Best, 64, 32))
	for _, u := range rep.Best.Unidentified {
		fmt.Fprintf(w, "   Not determined by these data: the direction %s.\n", u)
	}
	return nil
}

func demoMpip(w io.Writer) error {
	fmt.Fprintln(w, "== 4. What does my mpiP profile say: does it scale, what limits it? NAS CG class A on the Keck cluster (Elliott (004)) ==\n"+
		"   P processes; AT* = App_Time/P the measured wall time per process, AT = R·M/P the model's (R: response time per message).")
	fmt.Fprintln(w, "   (examples/mpip/keck_cg_a.csv, Elliott (004) appendix B; clusterperf mpip examples/mpip/keck_cg_a.csv --calibrate --predict 64)")
	ins, err := parseExample("mpip/keck_cg_a.csv", reading(mpip.ReadInputs))
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "   With Elliott's (004) measured network, the model's wall time against the measurement:")
	var runs []mpip.ExplainRun
	for _, in := range ins {
		res, err := mpip.Solve(in)
		if err != nil {
			return err
		}
		runs = append(runs, mpip.ExplainRun{Result: res})
		fmt.Fprintf(w, "     P = %3d: observed %8.4g s, model %8.4g s (%+.1f %%)\n", in.P, res.AppTime.Observed, res.AppTime.Model, 100*res.AppTime.Rel())
	}
	for _, e := range mpip.Explain(runs, mpip.ExplainOptions{}) {
		if e.View != "app_time" {
			continue
		}
		for _, f := range e.Findings {
			fmt.Fprintf(w, "   Why P = %d misses by %+.0f %%: %s — %s\n", e.P, 100*e.RelError, f.Assumption, f.Evidence)
		}
	}
	if err := demoMpipCalibrated(w, ins); err != nil {
		return err
	}
	return demoMpipExplained(w)
}

// demoMpipExplained: a real mpiP report with an assumed network misses; the profile says why.
func demoMpipExplained(w io.Writer) error {
	const name = "mpip/hpc-mpip__driver.8.253.1.mpiP"
	rep, err := parseExample(name, reading(mpip.Parse))
	if err != nil {
		return err
	}
	s, err := rep.Summarize(mpip.Options{})
	if err != nil {
		return err
	}
	res, err := mpip.Solve(mpip.InputsFrom(s, 50e-6, 1e9))
	if err != nil {
		return err
	}
	prof := mpip.Profile(rep, s, 3)
	fmt.Fprintf(w, "   A real mpiP report (examples/%s, 8 ranks, network assumed 50 µs, 1 GB/s): wall time %+.0f %%. Why:\n", name, 100*res.AppTime.Rel())
	for _, e := range mpip.Explain([]mpip.ExplainRun{{Result: res, Profile: &prof}}, mpip.ExplainOptions{}) {
		if e.View != "app_time" {
			continue
		}
		for _, f := range e.Findings {
			fmt.Fprintf(w, "     %s: %s\n", f.Assumption, f.Evidence)
		}
		for _, n := range e.NextSteps {
			fmt.Fprintf(w, "     next: %s\n", n)
		}
	}
	fmt.Fprintln(w)
	return nil
}

// demoMpipCalibrated: the network fitted to the wall times, and the backtest.
func demoMpipCalibrated(w io.Writer, ins []mpip.Inputs) error {
	c, err := mpip.Calibrate(ins, mpip.CalibrateOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "   Calibrated (kind %s, interval %s): latency %.3g s [%.3g … %.3g]; the runs with it:\n", c.Kind, c.IntervalKind, c.LatencyS, c.LatencyLowS, c.LatencyHighS)
	for _, r := range c.Runs {
		fmt.Fprintf(w, "     P = %3d: observed %8.4g s, calibrated model %8.4g s (%+.1f %%)\n", r.P, r.ObservedAppTimeS, r.ModelAppTimeS, 100*r.RelError)
	}
	bt, err := mpip.BacktestRuns(ins, mpip.CalibrateOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "   Backtest — each P predicted from the others (calibrated model on the run's own profile; forecasts: wall time direct, through 004's model):")
	for _, s := range bt.Splits {
		fmt.Fprintf(w, "     P = %3d from %v: %+.1f %%; forecasts %+.1f %% direct, %+.1f %% through the model\n", s.HeldOutP, s.FromP, 100*s.Calibrated.RelError, 100*s.WallTimeRelError, 100*s.ModelRelError)
	}
	ch := mpip.ChooseForecast(bt, len(bt.Splits))
	fmt.Fprintf(w, "   Sizing at an unmeasured P uses the %s forecast: %s.\n", ch.Used, ch.Reason)
	return nil
}

// demoExtrapolate: fit on a measured corpus CSV, with the backtest and the sizing.
func demoExtrapolate(ctx context.Context, w io.Writer) error {
	fmt.Fprintln(w)
	fmt.Fprintln(w, "== 5. How many cores should I book? Measured times only (a p,time file): OpenFOAM's motorbike case ==")
	fmt.Fprintln(w, "   (examples/scaling/openfoam_motorbike_arc.csv, a copy of testdata/scaling's; clusterperf fit FILE --predict 96)")
	d, err := parseExample("scaling/openfoam_motorbike_arc.csv", reading(scaling.ReadCSV))
	if err != nil {
		return err
	}
	fr, err := scaling.Fit(ctx, d)
	if err != nil {
		return err
	}
	m := fr.Chosen
	fmt.Fprintf(w, "   Chosen by held-out error: %s, T(p) = %s\n", m.Name, m.Formula)
	if bt, err := scaling.BacktestLargest(ctx, d); err == nil {
		fmt.Fprintf(w, "   Backtest: predicting your largest p = %d from the other %d points would have erred by %+.1f %%.\n", bt.HeldOutP, bt.TrainingPoints, 100*bt.RelError)
	}
	pr, err := fr.Predict(2 * fr.MaxP)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "   p = %d: %.4g s", pr.P, pr.TimeS)
	if pr.Interval {
		fmt.Fprintf(w, " (95 %% interval %.4g … %.4g)", *pr.Low95S, *pr.High95S)
	} else {
		fmt.Fprintf(w, " (no interval; plausible models %.4g … %.4g)", pr.PlausibleLowS, pr.PlausibleHighS)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)
	return nil
}

func demoSpeedup(w io.Writer) error {
	fmt.Fprintln(w, "== 3. How fast on p processors and d disks? Speedup s(p, d) of a program on a hybrid machine (Gennaro (001) Fig. 5.8) ==")
	fmt.Fprintln(w, "   (examples/spmd/hybrid.yaml; clusterperf speedup … --p 1:64 --d 1:256 --plot s.svg draws the heat map)")
	m, err := parseExample("spmd/hybrid.yaml", spmd.ParseModel)
	if err != nil {
		return err
	}
	e, err := spmd.NewEvaluator(m)
	if err != nil {
		return err
	}
	ps := []int{1, 4, 8, 16, 28, 40, 64}
	ds := []int{1, 4, 16, 64, 128, 256}
	fmt.Fprintf(w, "   %8s", "p \\ d")
	for _, d := range ds {
		fmt.Fprintf(w, "%8d", d)
	}
	fmt.Fprintln(w)
	for _, p := range ps {
		fmt.Fprintf(w, "   %8d", p)
		for _, d := range ds {
			pt, err := e.Evaluate(p, d)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "%8.2f", pt.Speedup)
		}
		fmt.Fprintln(w)
	}
	pt, _ := e.Evaluate(28, 128)
	fmt.Fprintf(w, "   At p = 28, d = 128 the bottleneck is %s (%.0f %% of the time); the thesis calls this speedup satisfactory.\n\n",
		pt.Bottleneck, 100*pt.Components.Value(pt.Bottleneck)/pt.Time)
	return nil
}

// demoPipeline is section 2: the sort model of (003) over p = 1..11 with the pipeline
// command's default sizing, so the knee and the recommendation are the command's.
func demoPipeline(ctx context.Context, w io.Writer) error {
	fmt.Fprintln(w, "== 2. How many nodes for my pipeline? A parallel sort of 2·10⁷ integers (Juhász & Charaf (003)) ==\n"+
		"   Each p's bottleneck is named \"stage: phase\" (write: resolution = the merge's resolution phase of stage write).")
	fmt.Fprintln(w, "   (examples/pipeline/sort.yaml; clusterperf pipeline … --measured sort.csv --plot t.svg)")
	pdata, err := examples.FS.ReadFile("pipeline/sort.yaml")
	if err != nil {
		return err
	}
	pm, _, err := pipeline.ParseModel("examples/pipeline/sort.yaml", pdata)
	if err != nil {
		return err
	}
	pts, err := pm.PredictRange(1, 11)
	if err != nil {
		return err
	}
	for _, pt := range pts {
		flag := ""
		if pt.MemoryExceeded {
			flag = "  (data exceed node memory: paging expected)"
		}
		fmt.Fprintf(w, "   p = %2d: %7.2f s, bottleneck %s%s\n", pt.P, pt.Time, pt.Bottleneck, flag)
	}
	ps := make([]int, len(pts))
	for i, pt := range pts {
		ps[i] = pt.P
	}
	pr, err := pipelineapp.Run(ctx, pipelineapp.Request{Model: pm, P: ps, Sizing: app.DefaultSizing()})
	if err != nil {
		return err
	}
	if err := pr.OptimumTable().WriteText(w); err != nil {
		return err
	}
	return nil
}

// parseExample reads the embedded example name (a path below examples/) and parses it,
// naming it examples/NAME in errors as a command given that file would.
func parseExample[T any](name string, parse func(file string, data []byte) (T, error)) (T, error) {
	data, err := examples.FS.ReadFile(name)
	if err != nil {
		var zero T
		return zero, err
	}
	return parse("examples/"+name, data)
}

// reading adapts a parser of an io.Reader to parseExample.
func reading[T any](parse func(file string, r io.Reader) (T, error)) func(string, []byte) (T, error) {
	return func(file string, data []byte) (T, error) { return parse(file, bytes.NewReader(data)) }
}

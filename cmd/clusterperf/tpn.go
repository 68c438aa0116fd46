package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/tpn"
)

type tpnOptions struct {
	cluster    string
	out        outOptions
	plot       string
	exportPNML string
	atomic     bool
	maxTime    float64
	advise     bool
	budget     int
}

func newTpnCmd(stdout, stderr io.Writer) *cobra.Command {
	var o tpnOptions
	cmd := &cobra.Command{
		Use:   "tpn PROGRAM.yaml --cluster CLUSTER.yaml",
		Short: "Predict a message-passing program's time on a shared, heterogeneous cluster with a timed Petri net (002)",
		Long: `Build the timed Petri net of a message-passing program (002 §3) on a cluster of workstations
with power weights and background load, simulate it to its final marking, and print the
predicted execution time, each process's computing / sending / waiting time and the critical
path; --plot draws a Gantt chart. A deadlock is reported with the blocked steps, the missing
messages and the processes in the wait-for cycle (exit code 3, a finding, no result).
CSV tables (--csv-table): processes (default), critical_path, advice.

` + tpn.ProgramFormat,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTpn(o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.cluster, "cluster", "", "cluster file (required)")
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.plot, "plot", "", "write a Gantt chart to FILE.svg or FILE.png")
	f.StringVar(&o.exportPNML, "export-pnml", "", "write the net as PNML (timing in a toolspecific block)")
	f.BoolVar(&o.atomic, "atomic", false, "atomic firing: tokens stay in the input places until a firing ends")
	f.Float64Var(&o.maxTime, "max-time", 0, "cut the run off at this simulated time (s)")
	f.BoolVar(&o.advise, "advise", false, "search process-to-workstation mappings for the least predicted time")
	f.IntVar(&o.budget, "budget", 2000, "--advise: simulations allowed to the heuristic search")
	return cmd
}

func (o tpnOptions) check() error {
	var c flagCheck
	o.out.check(&c)
	c.output("plot", o.plot, ".svg", ".png")
	c.output("export-pnml", o.exportPNML)
	if o.cluster == "" {
		c.add("--cluster CLUSTER.yaml is required (the workstations and the network)")
	}
	c.nonNegative("max-time", o.maxTime, "no limit")
	if o.maxTime/tpn.Tick > math.MaxInt64/2 {
		c.add("--max-time %g: beyond the representable horizon of %g s", o.maxTime, tpn.Seconds(math.MaxInt64/2))
	}
	c.atLeast("budget", int64(o.budget), 1)
	return c.err()
}

// tpnResult is tpn's one result value.
type tpnResult struct {
	Program     string             `json:"program,omitempty"`
	Outcome     string             `json:"outcome"`
	TimeS       float64            `json:"time_s"`
	Firings     int64              `json:"firings"`
	Places      int                `json:"places"`
	Transitions int                `json:"transitions"`
	Processes   []tpn.ProcessTimes `json:"processes"`
	Critical    []tpnStep          `json:"critical_path"`
	Advice      *tpn.Advice        `json:"advice,omitempty"`
	Notes       []string           `json:"notes"`
	order       []string           // process names in program order, for the advice table
}

type tpnStep struct {
	Step   string  `json:"step"`
	StartS float64 `json:"start_s"`
	EndS   float64 `json:"end_s"`
}

func runTpn(o tpnOptions, path string, stdout, stderr io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	prog, cl, err := parseTpn(path, o.cluster)
	if err != nil {
		return err
	}
	net, err := tpn.Build(prog, cl)
	if err != nil {
		return badInput(err)
	}
	if o.exportPNML != "" {
		if err := report.WriteAtomic(o.exportPNML, func(f *os.File) error { return tpn.WritePNML(f, net) }); err != nil {
			return err
		}
	}
	res, err := net.Run(tpn.Options{Record: true, AtomicFiring: o.atomic, MaxTime: tpn.ToTicks(o.maxTime)})
	if err != nil {
		return badInput(err)
	}
	switch res.Outcome {
	case tpn.Deadlock:
		fmt.Fprint(stderr, res.Deadlock.Error())
		for _, n := range tpn.CountMessages(prog) {
			fmt.Fprintf(stderr, "note: %s\n", n)
		}
		return finding(fault.ErrDeadlock, fmt.Errorf("the program deadlocks at t = %g s (blocked steps above)", tpn.Seconds(res.Time)))
	case tpn.CutOff:
		return finding(fault.ErrFinding, fmt.Errorf("run cut off by --max-time at t = %g s before the final marking: no result", tpn.Seconds(res.Time)))
	}
	out, spans := newTpnResult(prog, net, res)
	if o.advise {
		if out.Advice, err = tpn.Advise(prog, cl, o.budget); err != nil {
			return badInput(err)
		}
	}
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	if o.plot != "" {
		return ganttPlot(o.plot, out.Processes, spans)
	}
	return nil
}

func parseTpn(path, cluster string) (*tpn.Program, *tpn.Cluster, error) {
	pb, err := readInput(path)
	if err != nil {
		return nil, nil, err
	}
	prog, err := tpn.ParseProgram(path, pb)
	if err != nil {
		return nil, nil, badInput(err)
	}
	cb, err := readInput(cluster)
	if err != nil {
		return nil, nil, err
	}
	cl, err := tpn.ParseCluster(cluster, cb)
	if err != nil {
		return nil, nil, badInput(err)
	}
	return prog, cl, nil
}

func newTpnResult(prog *tpn.Program, net *tpn.Net, res *tpn.Result) (*tpnResult, []tpn.Interval) {
	times, spans := tpn.Times(net, res)
	out := &tpnResult{Program: prog.Name, Outcome: res.Outcome.String(), TimeS: tpn.Seconds(res.Time), Firings: res.Firings,
		Places: len(net.Places), Transitions: len(net.Transitions), Processes: times, Notes: tpn.CountMessages(prog)}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	for _, c := range tpn.CriticalPath(net, res) {
		out.Critical = append(out.Critical, tpnStep{c.Name, c.Start, c.End})
	}
	for _, pr := range prog.Processes {
		out.order = append(out.order, pr.Name)
	}
	return out, spans
}

func (r *tpnResult) NoteLines() []string { return r.Notes }

// Tables: "processes" (default), "critical_path", "advice".
func (r *tpnResult) Tables() []*report.Table {
	t := &report.Table{Name: "processes", Title: strings.TrimSpace(fmt.Sprintf("%s: %s at t = %.6g s after %d firings (%d places, %d transitions)", r.Program, r.Outcome, r.TimeS, r.Firings, r.Places, r.Transitions)),
		Header: []string{"process", "finish_s", "computing_s", "sending_s", "waiting_s"}}
	for _, p := range r.Processes {
		t.Add(p.Name, p.Finish, p.Computing, p.Sending, p.Waiting)
	}
	cp := &report.Table{Name: "critical_path", Title: "Critical path", Header: []string{"step", "start_s", "end_s"}}
	for _, c := range r.Critical {
		cp.Add(c.Step, c.StartS, c.EndS)
	}
	ts := []*report.Table{t, cp}
	if a := r.Advice; a != nil {
		how := "exhaustive search"
		if !a.Exhaustive {
			how = fmt.Sprintf("greedy + local search, %.1f %% above the lower bound at most", 100*a.Gap)
		}
		at := &report.Table{Name: "advice", Title: fmt.Sprintf("Allocation advice (%s, %d simulations): %.6g s instead of %.6g s; lower bound %.6g s", how, a.Evaluated, a.Time, a.Given, a.LowerBound),
			Header: []string{"process", "workstation"}}
		for _, p := range r.order {
			at.Add(p, a.Allocation[p])
		}
		ts = append(ts, at)
	}
	return ts
}

func ganttPlot(path string, times []tpn.ProcessTimes, spans []tpn.Interval) error {
	row := map[string]int{}
	names := make([]string, len(times))
	for i, t := range times {
		row[t.Name] = len(times) - 1 - i
		names[len(times)-1-i] = t.Name
	}
	p := plot.New()
	p.Title.Text = "Gantt chart: computing (dark) and messages on the network (light)"
	p.X.Label.Text = "time (s)"
	sort.SliceStable(spans, func(a, b int) bool { return spans[a].Kind > spans[b].Kind })
	added := map[string]bool{}
	for _, s := range spans {
		y := float64(row[s.Process])
		lo, hi := y-0.35, y+0.35
		col := report.Color(0)
		if s.Kind == "transfer" {
			lo, hi = y+0.1, y+0.4
			col = report.Color(5)
		}
		pg, err := plotter.NewPolygon(plotter.XYs{{X: s.Start, Y: lo}, {X: s.End, Y: lo}, {X: s.End, Y: hi}, {X: s.Start, Y: hi}})
		if err != nil {
			return err
		}
		pg.Color = col
		pg.LineStyle.Width = 0
		p.Add(pg)
		if !added[s.Kind] {
			p.Legend.Add(s.Kind, pg)
			added[s.Kind] = true
		}
	}
	p.NominalY(names...)
	p.Legend.Top = true
	return report.SaveFigure(path, report.Panel{Plot: p})
}

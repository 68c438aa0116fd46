package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/tpn"
)

type tpnOptions struct {
	cluster    string
	format     string
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
messages and the processes in the wait-for cycle (exit code 1).

` + tpn.ProgramFormat,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTpn(o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.cluster, "cluster", "", "cluster file (required)")
	f.StringVar(&o.format, "format", "table", "output format: table, json, csv")
	f.StringVar(&o.plot, "plot", "", "write a Gantt chart to FILE.svg or FILE.png")
	f.StringVar(&o.exportPNML, "export-pnml", "", "write the net as PNML (timing in a toolspecific block)")
	f.BoolVar(&o.atomic, "atomic", false, "atomic firing: tokens stay in the input places until a firing ends")
	f.Float64Var(&o.maxTime, "max-time", 0, "cut the run off at this simulated time (s)")
	f.BoolVar(&o.advise, "advise", false, "search process-to-workstation mappings for the least predicted time")
	f.IntVar(&o.budget, "budget", 2000, "--advise: simulations allowed to the heuristic search")
	return cmd
}

func runTpn(o tpnOptions, path string, stdout, stderr io.Writer) error {
	if err := report.CheckFormat(o.format); err != nil {
		return badInput(err)
	}
	if err := checkPlotPath(o.plot); err != nil {
		return err
	}
	if o.cluster == "" {
		return badInputf("--cluster CLUSTER.yaml is required (the workstations and the network)")
	}
	pb, err := readInput(path)
	if err != nil {
		return err
	}
	prog, err := tpn.ParseProgram(path, pb)
	if err != nil {
		return badInput(err)
	}
	cb, err := readInput(o.cluster)
	if err != nil {
		return err
	}
	cl, err := tpn.ParseCluster(o.cluster, cb)
	if err != nil {
		return badInput(err)
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
	times, spans := tpn.Times(net, res)
	crit := tpn.CriticalPath(net, res)
	warnings := tpn.CountMessages(prog)
	switch o.format {
	case "json":
		type critStep struct {
			Step  string  `json:"step"`
			Start float64 `json:"start"`
			End   float64 `json:"end"`
		}
		var cp []critStep
		for _, c := range crit {
			cp = append(cp, critStep{c.Name, c.Start, c.End})
		}
		out := struct {
			Program   string              `json:"program,omitempty"`
			Outcome   string              `json:"outcome"`
			Time      float64             `json:"time"`
			Firings   int64               `json:"firings"`
			Processes []tpn.ProcessTimes  `json:"processes"`
			Critical  []critStep          `json:"critical_path"`
			Deadlock  *tpn.DeadlockReport `json:"deadlock,omitempty"`
			Warnings  []string            `json:"warnings,omitempty"`
		}{prog.Name, res.Outcome.String(), tpn.Seconds(res.Time), res.Firings, times, cp, res.Deadlock, warnings}
		if err := report.WriteJSON(stdout, out); err != nil {
			return err
		}
	default:
		t := &report.Table{Header: []string{"process", "finish_s", "computing_s", "sending_s", "waiting_s"}}
		for _, p := range times {
			t.Add(p.Name, p.Finish, p.Computing, p.Sending, p.Waiting)
		}
		if o.format == "csv" {
			if err := t.WriteCSV(stdout); err != nil {
				return err
			}
			break
		}
		if prog.Name != "" {
			fmt.Fprintf(stdout, "%s\n", prog.Name)
		}
		fmt.Fprintf(stdout, "%s at t = %.6g s after %d firings (%d places, %d transitions)\n\n", res.Outcome, tpn.Seconds(res.Time), res.Firings, len(net.Places), len(net.Transitions))
		t.WriteText(stdout)
		fmt.Fprintln(stdout, "\nCritical path:")
		for _, c := range crit {
			fmt.Fprintf(stdout, "  %9.6g … %-9.6g %s\n", c.Start, c.End, c.Name)
		}
		for _, w := range warnings {
			fmt.Fprintf(stdout, "warning: %s\n", w)
		}
	}
	if o.advise && res.Outcome == tpn.Completed {
		a, err := tpn.Advise(prog, cl, o.budget)
		if err != nil {
			return badInput(err)
		}
		how := "exhaustive search"
		if !a.Exhaustive {
			how = fmt.Sprintf("greedy + local search, %.1f %% above the lower bound at most", 100*a.Gap)
		}
		fmt.Fprintf(stdout, "\nAllocation advice (%s, %d simulations): %.6g s instead of %.6g s; lower bound %.6g s\n", how, a.Evaluated, a.Time, a.Given, a.LowerBound)
		for _, pr := range prog.Processes {
			fmt.Fprintf(stdout, "  %s -> %s\n", pr.Name, a.Allocation[pr.Name])
		}
	}
	if o.plot != "" {
		if err := ganttPlot(o.plot, times, spans); err != nil {
			return err
		}
	}
	switch res.Outcome {
	case tpn.Deadlock:
		fmt.Fprint(stderr, res.Deadlock.Error())
		return errors.New("the program deadlocks")
	case tpn.CutOff:
		return fmt.Errorf("run cut off at t = %g s before the final marking", tpn.Seconds(res.Time))
	}
	return nil
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

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/shard"
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
	maxTrans   int64
	maxFirings int64
	study      studyOptions
}

func newTpnCmd(stdout, stderr io.Writer) *cobra.Command {
	var o tpnOptions
	return tpnCmd(&o, stdout, stderr)
}

// tpnCmd is the tpn command with its flags bound to o (merge parses a study's arguments
// with it).
func tpnCmd(o *tpnOptions, stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tpn PROGRAM.yaml --cluster CLUSTER.yaml | tpn NET.pnml",
		Short: "Predict a message-passing program's time on a shared, heterogeneous cluster with a timed Petri net (002)",
		Long: `Build the timed Petri net of a message-passing program (002 §3) on a cluster of workstations
with power weights and background load, simulate it to its final marking, and print the
predicted execution time, each process's computing / sending / waiting time and the critical
path; --plot draws a Gantt chart. A deadlock is reported with the blocked steps, the missing
messages and the processes in the wait-for cycle (exit code 3, a finding, no result).
A run cut off by --max-time or --max-firings is a finding too (exit 3). A file ending in
.pnml is a net itself (as --export-pnml writes it, timing in the toolspecific block): it is
run to its final marking with no program or cluster.
CSV tables (--csv-table): processes (default), critical_path, advice.

--advise with an exhaustive search (at most 20000 mappings) can be split over machines:
--shard I/N --out DIR simulates mappings of shard I, --slurm --out DIR submits all shards
as a Slurm job array, and "clusterperf merge DIR" prints the one-machine result.

` + tpn.ProgramFormat,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.study.active() {
				return runTpnStudy(cmd, *o, args, stdout)
			}
			return runTpn(*o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.cluster, "cluster", "", "cluster file (required)")
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.plot, "plot", "", "write a Gantt chart to FILE.svg or FILE.png")
	f.StringVar(&o.exportPNML, "export-pnml", "", "write the net as PNML (timing in a toolspecific block)")
	f.BoolVar(&o.atomic, "atomic", false, "atomic firing: tokens stay in the input places until a firing ends")
	f.Float64Var(&o.maxTime, "max-time", 0, "cut the run off at this simulated time (s), 0 … 4.6e9 (0: no limit)")
	f.BoolVar(&o.advise, "advise", false, "search process-to-workstation mappings for the least predicted time")
	f.IntVar(&o.budget, "budget", 2000, "--advise: simulations allowed to the heuristic search, ≥ 1")
	f.Int64Var(&o.maxTrans, "max-transitions", 0, "refuse a program whose net unrolls to more transitions (0: 2000000)")
	f.Int64Var(&o.maxFirings, "max-firings", 0, "refuse a program whose run takes more firings, and cut a run off there (0: 10000000)")
	addStudyFlags(f, &o.study, "--advise mappings (exhaustive search)")
	return cmd
}

// build are the net budgets of the flags.
func (o tpnOptions) build() tpn.BuildOptions {
	return tpn.BuildOptions{MaxTransitions: o.maxTrans, MaxFirings: o.maxFirings}
}

// isPNML tells a net file from a program file by its extension.
func isPNML(path string) bool { return strings.EqualFold(filepath.Ext(path), ".pnml") }

func (o tpnOptions) check(path string) error {
	var c flagCheck
	o.out.check(&c)
	c.output("plot", o.plot, ".svg", ".png")
	c.output("export-pnml", o.exportPNML)
	switch {
	case isPNML(path) && (o.cluster != "" || o.advise):
		c.add("%s is a net: --cluster and --advise belong to a program file", path)
	case !isPNML(path) && o.cluster == "":
		c.add("--cluster CLUSTER.yaml is required (the workstations and the network)")
	}
	if _, err := tpn.Ticks(o.maxTime); err != nil {
		c.add("--max-time %g: want a duration in seconds from 0 (no limit) to the representable horizon of %.4g s (2^62 ticks of 1 ns)", o.maxTime, tpn.MaxSeconds)
	}
	c.atLeast("budget", int64(o.budget), 1)
	c.zeroOrAtLeast("max-transitions", o.maxTrans, 1, "the default")
	c.zeroOrAtLeast("max-firings", o.maxFirings, 1, "the default")
	o.study.check(&c)
	if o.study.active() && !o.advise {
		c.add("--shard/--slurm split the mappings of --advise; one run of a net is not a study")
	}
	return c.err()
}

// runOpts are the run options of the flags (the checked --max-time in ticks).
func (o tpnOptions) runOpts() tpn.Options {
	t, _ := tpn.Ticks(o.maxTime)
	return tpn.Options{Record: true, AtomicFiring: o.atomic, MaxTime: t, MaxFirings: o.maxFirings}
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
	if err := o.check(path); err != nil {
		return err
	}
	if isPNML(path) {
		return runPNML(o, path, stdout)
	}
	prog, cl, err := parseTpn(path, o.cluster, o.build())
	if err != nil {
		return err
	}
	out, spans, err := tpnRun(o, prog, cl, stderr)
	if err != nil {
		return err
	}
	if o.advise {
		if out.Advice, err = tpn.AdviseWith(prog, cl, tpn.AdviseOptions{Budget: o.budget}); err != nil {
			return libError(err)
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

// tpnRun builds and runs the net of a program (--export-pnml on the way); a deadlock or a
// cut-off is the run's finding (exit 3), with the program's message counts on stderr.
func tpnRun(o tpnOptions, prog *tpn.Program, cl *tpn.Cluster, stderr io.Writer) (*tpnResult, []tpn.Interval, error) {
	net, err := tpn.BuildWith(prog, cl, o.build())
	if err != nil {
		return nil, nil, libError(err)
	}
	if o.exportPNML != "" {
		if err := report.WriteAtomic(o.exportPNML, func(f *os.File) error { return tpn.WritePNML(f, net) }); err != nil {
			return nil, nil, err
		}
	}
	res, err := net.Run(o.runOpts())
	if err != nil {
		return nil, nil, libError(err)
	}
	if err := res.Err(); err != nil {
		for _, n := range tpn.CountMessages(prog) {
			fmt.Fprintf(stderr, "note: %s\n", n)
		}
		if res.Outcome == tpn.Deadlock {
			return nil, nil, fmt.Errorf("the program deadlocks: %w", err)
		}
		return nil, nil, err
	}
	out, spans := newTpnResult(prog, net, res)
	return out, spans, nil
}

// runPNML runs a net read from PNML to its final marking.
func runPNML(o tpnOptions, path string, stdout io.Writer) error {
	net, err := tpn.ReadPNMLFile(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return badInputf("cannot read %s: %v", path, err)
	}
	if err != nil {
		return libError(err)
	}
	res, err := net.Run(o.runOpts())
	if err != nil {
		return libError(err)
	}
	if err := res.Err(); err != nil {
		return err
	}
	out, spans := newNetResult(net, res)
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	if o.plot != "" {
		return ganttPlot(o.plot, out.Processes, spans)
	}
	return nil
}

func parseTpn(path, cluster string, bo tpn.BuildOptions) (*tpn.Program, *tpn.Cluster, error) {
	return parseTpnWith(readInput, path, cluster, bo)
}

// parseTpnWith is parseTpn reading the files with read (a study's merge reads them where
// its plan recorded them).
func parseTpnWith(read func(string) ([]byte, error), path, cluster string, bo tpn.BuildOptions) (*tpn.Program, *tpn.Cluster, error) {
	pb, err := read(path)
	if err != nil {
		return nil, nil, err
	}
	prog, err := tpn.ParseProgramWith(path, pb, bo)
	if err != nil {
		return nil, nil, badInput(err)
	}
	cb, err := read(cluster)
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
	out, spans := newNetResult(net, res)
	out.Program = prog.Name
	out.Notes = append(out.Notes, tpn.CountMessages(prog)...)
	for _, pr := range prog.Processes {
		out.order = append(out.order, pr.Name)
	}
	return out, spans
}

// newNetResult is the result of a completed run of a net: times per process, critical path.
func newNetResult(net *tpn.Net, res *tpn.Result) (*tpnResult, []tpn.Interval) {
	times, spans := tpn.Times(net, res)
	out := &tpnResult{Outcome: res.Outcome.String(), TimeS: tpn.Seconds(res.Time), Firings: res.Firings,
		Places: len(net.Places), Transitions: len(net.Transitions), Processes: times, Notes: []string{}}
	for _, c := range tpn.CriticalPath(net, res) {
		out.Critical = append(out.Critical, tpnStep{c.Name, c.Start, c.End})
	}
	return out, spans
}

// NoteLines: the run's notes, then the advice's (budget cuts of the search).
func (r *tpnResult) NoteLines() []string {
	if r.Advice == nil {
		return r.Notes
	}
	out := append([]string{}, r.Notes...)
	for _, n := range r.Advice.Notes {
		out = append(out, "advice: "+n)
	}
	return out
}

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

// runTpnStudy runs one shard of a sharded tpn --advise study (mapping k of the exhaustive
// search is simulated from the program and k alone), or submits the study to Slurm.
func runTpnStudy(cmd *cobra.Command, o tpnOptions, args []string, stdout io.Writer) error {
	if err := o.check(args[0]); err != nil {
		return err
	}
	if o.plot != "" || o.exportPNML != "" {
		return badInputf("--plot and --export-pnml with --shard/--slurm: give them to the one-machine run (merge prints the result)")
	}
	_, _, st, err := prepareAdvise(o, args[0], io.Discard)
	if err != nil {
		return err
	}
	p, err := studyPlan(cmd, args, o.study, 0, st.Items())
	if err != nil {
		return err
	}
	work := func(k int) (json.RawMessage, error) {
		mt, err := st.Eval(k)
		if err != nil {
			return nil, err
		}
		return json.Marshal(mt)
	}
	return runStudy(cmd.Context(), o.study, p, work, stdout)
}

// prepareAdvise parses a program and its cluster, runs the program's own allocation (a
// deadlock or cut-off is the finding it is on one machine) and prepares the exhaustive
// advice study.
func prepareAdvise(o tpnOptions, path string, stderr io.Writer) (*tpnResult, *tpn.Program, *tpn.AdviseStudy, error) {
	prog, cl, err := parseTpnWith(o.study.read, path, o.cluster, o.build())
	if err != nil {
		return nil, nil, nil, err
	}
	out, _, err := tpnRun(o, prog, cl, stderr)
	if err != nil {
		return nil, nil, nil, err
	}
	st, err := tpn.NewAdviseStudy(prog, cl, tpn.AdviseOptions{Budget: o.budget})
	if err != nil {
		return nil, nil, nil, libError(err)
	}
	return out, prog, st, nil
}

// mergeTpn turns the mapping times of a complete tpn --advise study into tpn's result: the
// one-machine run's value, byte for byte in every format.
func mergeTpn(p shard.Plan, items []json.RawMessage) (any, error) {
	var o tpnOptions
	pos, err := reparseStudy(tpnCmd(&o, io.Discard, io.Discard), p, &o.study)
	if err != nil {
		return nil, err
	}
	if len(pos) != 1 || !o.advise {
		return nil, badInputf("the plan's arguments %q are not a tpn --advise study", p.Args)
	}
	out, _, st, err := prepareAdvise(o, pos[0], io.Discard)
	if err != nil {
		return nil, err
	}
	times := make([]tpn.MappingTime, len(items))
	for k, it := range items {
		if err := json.Unmarshal(it, &times[k]); err != nil {
			return nil, badInputf("mapping %d: %v", k, err)
		}
	}
	if out.Advice, err = st.Merge(times); err != nil {
		return nil, libError(err)
	}
	return out, nil
}

package main

import (
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/spmd"
)

type speedupOptions struct {
	p, d       string
	format     string
	plot       string
	efficiency float64
	progress   bool
	validate   bool
	sim        simOptions
}

func newSpeedupCmd(stdout, stderr io.Writer) *cobra.Command {
	var o speedupOptions
	cmd := &cobra.Command{
		Use:   "speedup MODEL.yaml",
		Short: "SPMD speedup models (000/001): time, speedup and bottleneck over p processors and d disks",
		Long: `Predict the time and speedup of an SPMD program on p processors and d disks (I/O nodes)
with the queueing-network models of Cremonesi & Gennaro: BUS/CLU × SIO/AIO and the
optimistic bounds. Prints every (p, d) with its components (CPU, synchronisation,
communication startup/transfer/contention, I/O) and bottleneck, the best configuration,
the largest p whose efficiency stays above --efficiency, and the asymptotic speedups.

--plot FILE.svg|png draws the speedup surface as a heat map (when d varies), speedup
against p for several d, and the stacked time components against p.

` + spmd.FileFormat,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSpeedup(o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.p, "p", "1:64", "processors FROM:TO")
	f.StringVar(&o.d, "d", "1:1", "disks (I/O nodes) FROM:TO")
	f.StringVar(&o.format, "format", "table", "output format: table, json, csv")
	f.StringVar(&o.plot, "plot", "", "write plots to FILE.svg or FILE.png")
	f.Float64Var(&o.efficiency, "efficiency", 0.5, "report the largest p with efficiency s/p at least this")
	f.BoolVar(&o.progress, "progress", true, "show progress of large surfaces on stderr (only on a terminal)")
	f.BoolVar(&o.validate, "validate", false, "also simulate the program directly at the best point and the range's ends and compare")
	f.Uint64Var(&o.sim.seed, "seed", 1, "--validate: random seed")
	f.IntVar(&o.sim.reps, "reps", 10, "--validate: replications")
	f.IntVar(&o.sim.cycles, "cycles", 2000, "--validate: cycles per replication")
	f.StringVar(&o.sim.cpu, "cpu", "exponential", "--validate: CPU burst distribution")
	return cmd
}

func span(a, b int) []int {
	out := make([]int, 0, b-a+1)
	for v := a; v <= b; v++ {
		out = append(out, v)
	}
	return out
}

func runSpeedup(o speedupOptions, path string, stdout, stderr io.Writer) error {
	if err := report.CheckFormat(o.format); err != nil {
		return badInput(err)
	}
	if err := checkPlotPath(o.plot); err != nil {
		return err
	}
	p0, p1, err := parseIntRange("p", o.p)
	if err != nil {
		return err
	}
	d0, d1, err := parseIntRange("d", o.d)
	if err != nil {
		return err
	}
	if (p1-p0+1)*(d1-d0+1) > 4_000_000 {
		return badInputf("--p %s × --d %s is more than 4 million points", o.p, o.d)
	}
	if !(o.efficiency > 0 && o.efficiency <= 1) {
		return badInputf("--efficiency %v: want a value in (0, 1]", o.efficiency)
	}
	data, err := readInput(path)
	if err != nil {
		return err
	}
	m, err := spmd.ParseModel(path, data)
	if err != nil {
		return badInput(err)
	}
	e, err := spmd.NewEvaluator(m)
	if err != nil {
		return badInput(err)
	}
	pts, skipped, err := e.Surface(span(p0, p1), span(d0, d1), progressFunc(o.progress && (p1-p0+1)*(d1-d0+1) > 20000, "surface"))
	if err != nil {
		return err
	}
	if len(pts) == 0 {
		msg := "no valid (p, d) in the ranges"
		if len(skipped) > 0 {
			msg += ": " + skipped[0].Reason
		}
		return badInputf("%s", msg)
	}
	best, _ := spmd.Best(pts)
	eff := spmd.LargestEfficient(pts, o.efficiency)
	limP, err := e.LimitP(d1, 0)
	if err != nil {
		return err
	}
	limD, err := e.LimitD(best.P)
	if err != nil {
		return err
	}
	switch o.format {
	case "json":
		type lim struct {
			Speedup   *float64 `json:"speedup"`
			Converged bool     `json:"converged"`
			At        int      `json:"evaluated_at"`
			Note      string   `json:"note"`
		}
		mk := func(l spmd.Limit) lim {
			out := lim{Converged: l.Converged, At: l.AtValue, Note: l.Note}
			if !math.IsNaN(l.Speedup) {
				v := l.Speedup
				out.Speedup = &v
			}
			return out
		}
		var effs []spmd.Point
		for _, d := range sortedKeys(eff) {
			effs = append(effs, eff[d])
		}
		out := struct {
			Model        string         `json:"model,omitempty"`
			Architecture string         `json:"architecture"`
			Points       []spmd.Point   `json:"points"`
			Best         spmd.Point     `json:"best"`
			Efficient    []spmd.Point   `json:"largest_efficient_p"`
			Efficiency   float64        `json:"efficiency_threshold"`
			LimitP       lim            `json:"limit_p_infinite"`
			LimitD       lim            `json:"limit_d_infinite"`
			Skipped      []spmd.Skipped `json:"skipped,omitempty"`
		}{m.Name, m.Arch.String(), pts, best, effs, o.efficiency, mk(limP), mk(limD), skipped}
		if err := report.WriteJSON(stdout, out); err != nil {
			return err
		}
	default:
		t := &report.Table{Header: []string{"p", "d", "time", "speedup", "efficiency", "cpu", "sync", "comm_startup", "comm_transfer", "contention", "io", "bottleneck"}}
		for _, pt := range pts {
			c := pt.Components
			t.Add(pt.P, pt.D, pt.Time, pt.Speedup, pt.Efficiency, c.CPU, c.Sync, c.CommStartup, c.CommTransfer, c.Contention, c.IO, pt.Bottleneck)
		}
		if o.format == "csv" {
			if err := t.WriteCSV(stdout); err != nil {
				return err
			}
			break
		}
		if m.Name != "" {
			fmt.Fprintf(stdout, "%s (%v)\n\n", m.Name, m.Arch)
		}
		if err := t.WriteText(stdout); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nBest in range: p = %d, d = %d: time %.4g, speedup %.4g (bottleneck %s)\n", best.P, best.D, best.Time, best.Speedup, best.Bottleneck)
		keys := sortedKeys(eff)
		if len(keys) > 8 { // a few evenly spaced d
			var pick []int
			for i := 0; i < 8; i++ {
				pick = append(pick, keys[i*(len(keys)-1)/7])
			}
			keys = pick
		}
		for _, d := range keys {
			pt := eff[d]
			fmt.Fprintf(stdout, "Largest p with efficiency ≥ %.2g at d = %d: p = %d (speedup %.4g)\n", o.efficiency, d, pt.P, pt.Speedup)
		}
		fmt.Fprintf(stdout, "Speedup as p → ∞ (d = %d): %s — %s\n", d1, limText(limP), limP.Note)
		fmt.Fprintf(stdout, "Speedup as d → ∞ (p = %d): %s — %s\n", best.P, limText(limD), limD.Note)
		if len(skipped) > 0 {
			fmt.Fprintf(stdout, "%d (p, d) skipped, e.g. p = %d, d = %d: %s\n", len(skipped), skipped[0].P, skipped[0].D, skipped[0].Reason)
		}
	}
	if o.validate && m.Arch != spmd.OptimisticAIO && m.Arch != spmd.OptimisticSIO {
		pds := [][2]int{{best.P, best.D}, {pts[0].P, pts[0].D}, {pts[len(pts)-1].P, pts[len(pts)-1].D}}
		rows, err := validateSPMD(m, pds, o.sim)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout)
		if err := writeRows(stdout, o.format, "Validation by direct simulation of the program:", rows); err != nil {
			return err
		}
	}
	if o.plot != "" {
		return speedupPlot(o.plot, m, pts)
	}
	return nil
}

func limText(l spmd.Limit) string {
	if math.IsNaN(l.Speedup) {
		return "n/a"
	}
	return fmt.Sprintf("%.4g", l.Speedup)
}

func sortedKeys(m map[int]spmd.Point) []int {
	k := make([]int, 0, len(m))
	for d := range m {
		k = append(k, d)
	}
	sort.Ints(k)
	return k
}

func speedupPlot(path string, m *spmd.Model, pts []spmd.Point) error {
	var ps, ds []int
	seenP, seenD := map[int]bool{}, map[int]bool{}
	for _, pt := range pts {
		if !seenP[pt.P] {
			seenP[pt.P] = true
			ps = append(ps, pt.P)
		}
		if !seenD[pt.D] {
			seenD[pt.D] = true
			ds = append(ds, pt.D)
		}
	}
	sort.Ints(ps)
	sort.Ints(ds)
	var panels []report.Panel
	if len(ds) > 1 && len(ps) > 1 {
		g := report.Grid{Z: make([][]float64, len(ps))}
		pi, di := map[int]int{}, map[int]int{}
		for i, p := range ps {
			g.X = append(g.X, float64(p))
			pi[p] = i
			g.Z[i] = make([]float64, len(ds))
			for j := range g.Z[i] {
				g.Z[i][j] = math.NaN()
			}
		}
		for j, d := range ds {
			g.Y = append(g.Y, float64(d))
			di[d] = j
		}
		for _, pt := range pts {
			g.Z[pi[pt.P]][di[pt.D]] = pt.Speedup
		}
		hm, err := report.HeatMap(fmt.Sprintf("Speedup s(p, d), %v", m.Arch), "processors p", "disks d", g)
		if err != nil {
			return err
		}
		panels = append(panels, hm)
	}
	// speedup against p for up to six d
	curves := report.Panel{Title: "Speedup against p", XLabel: "processors p", YLabel: "speedup"}
	pick := ds
	if len(ds) > 6 {
		pick = nil
		for i := 0; i < 6; i++ {
			pick = append(pick, ds[i*(len(ds)-1)/5])
		}
	}
	for _, d := range pick {
		s := report.Series{Name: fmt.Sprintf("d = %d", d)}
		for _, pt := range pts {
			if pt.D == d {
				s.X = append(s.X, float64(pt.P))
				s.Y = append(s.Y, pt.Speedup)
			}
		}
		curves.Series = append(curves.Series, s)
	}
	panels = append(panels, curves)
	// stacked components for the largest d
	dl := ds[len(ds)-1]
	var x []float64
	ys := make([][]float64, 6)
	for _, pt := range pts {
		if pt.D != dl {
			continue
		}
		x = append(x, float64(pt.P))
		c := pt.Components
		for i, v := range []float64{c.CPU, c.Sync, c.CommStartup, c.CommTransfer, c.Contention, c.IO} {
			ys[i] = append(ys[i], v)
		}
	}
	if len(x) > 1 {
		st, err := report.Stacked(fmt.Sprintf("Time components, d = %d", dl), "processors p", "time", x,
			[]string{"cpu", "sync", "comm startup", "comm transfer", "contention", "io"}, ys)
		if err != nil {
			return err
		}
		panels = append(panels, st)
	}
	return report.SaveFigure(path, panels...)
}

package main

import (
	"bytes"
	"context"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/pipelineapp"
	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/pipeline"
	"github.com/clusterperf/clusterperf/report"
)

type pipelineOptions struct {
	p        string
	measured string
	out      outOptions
	plot     string
	fit      string
	sizing   sizingFlags
}

func newPipelineCmd(stdout, stderr io.Writer) *cobra.Command {
	var o pipelineOptions
	cmd := &cobra.Command{
		Use:   "pipeline MODEL.yaml",
		Short: "Bottleneck model of overlapped read/distribute/process/gather/write after Juhász & Charaf (003), and the optimal cluster size",
		Long: `Predict the run time of a job fed in and collected at one node, after Juhász & Charaf (003): every stage runs at
the speed of its slowest resource. Prints the time at every cluster size p, each stage's
bottleneck, the optimal cluster size (least time; the knee; the closed form of 003 eq. (19)
where it applies) and flags sizes whose data overflow node memory. The knee is package
sizing's, the same in every command: the first p from which no larger p saves --knee-gain
(default 10 %) of the time per doubling; the first p within 1 % of the least time is
printed too, as "within 1 % of least".

--measured F.csv (columns p,time; times in seconds or with a unit, 750ms) puts measured times beside the predictions with relative
errors rel_error = (model − measured)/measured (the opposite sign of 003's
tables, which divide by the prediction); --fit c_m,b_gather fits those constants of a
sort model to the measurements (runs that overflow memory are left out).

--p takes the one range syntax: lists (1,2,4,8), FROM:TO, FROM:TO:STEP, FROM:TO:xK (powers of
K, e.g. 1:64:x2). The summary prints the least time, the knee, 003 eq. (19)'s closed form,
eq. (21)'s storage bound (no p reads and writes the data faster than storage: 2N/b_io for
the sort) and the recommendation of package sizing's rule (--rule: balanced, the default, is
the fastest p at or below the knee with efficiency ≥ --efficiency; fastest, knee,
efficiency, cheapest within --within of the fastest, core_hours), with the trade-off table
around it. Speedup and efficiency are against T_1, the model's time at p = 1, whatever --p
starts at (package sizing's one definition S = T_1/T(p), E = S/p; speedup_reference in JSON).

CSV tables (--csv-table): points (default), optimum, trade_off.

` + pipeline.FileFormat,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPipeline(o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.p, "p", "1:32", "cluster sizes: 1,2,4,8 | FROM:TO | FROM:TO:STEP | FROM:TO:xK")
	f.StringVar(&o.measured, "measured", "", "CSV of measured times (columns p,time)")
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.plot, "plot", "", "write time against p to FILE.svg or FILE.png")
	f.StringVar(&o.fit, "fit", "", "comma-separated sort constants to fit to --measured (c_q, c_m, b_io, l_n, b_n, b_gather)")
	registerSizing(cmd, &o.sizing)
	return cmd
}

func (o pipelineOptions) check() (ps []int, err error) {
	var c flagCheck
	o.out.check(&c)
	c.Output("plot", o.plot, ".svg", ".png")
	ps, err = ranges.Parse("--p", o.p, ranges.Limits{Min: 1, Max: pipeline.MaxP, MaxCount: pipeline.MaxPoints})
	if err != nil {
		c.Errs = append(c.Errs, err)
	}
	if o.fit != "" && o.measured == "" {
		c.Add("--fit needs --measured")
	}
	o.sizing.Check(&c.FlagCheck)
	return ps, c.Err()
}

func runPipeline(o pipelineOptions, path string, stdout, stderr io.Writer) error {
	ps, err := o.check()
	if err != nil {
		return err
	}
	m, sp, meas, err := parsePipeline(path, o.measured)
	if err != nil {
		return err
	}
	q := pipelineapp.Request{Model: m, Sort: sp, Measured: meas, P: ps, Sizing: o.sizing.Options(nil)}
	if o.fit != "" {
		q.Fit = strings.Split(o.fit, ",")
	}
	out, err := pipelineapp.Run(context.Background(), q)
	if err != nil {
		return err
	}
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	if o.plot = o.out.plotFile(o.plot); o.plot != "" {
		fm, pts := out.FittedModel()
		return pipelinePlot(o.plot, fm, pts, meas)
	}
	return nil
}

func parsePipeline(path, measured string) (*pipeline.Model, *pipeline.SortParams, []pipeline.Measurement, error) {
	data, err := readInput(path)
	if err != nil {
		return nil, nil, nil, err
	}
	m, sp, err := pipeline.ParseModel(path, data)
	if err != nil {
		return nil, nil, nil, badInput(err)
	}
	if measured == "" {
		return m, sp, nil, nil
	}
	b, err := readInput(measured)
	if err != nil {
		return nil, nil, nil, err
	}
	meas, err := pipeline.ReadMeasurements(measured, bytes.NewReader(b))
	if err != nil {
		return nil, nil, nil, badInput(err)
	}
	return m, sp, meas, nil
}

func pipelinePlot(path string, m *pipeline.Model, pts []pipeline.Point, meas []pipeline.Measurement) error {
	p := report.Panel{Title: "Predicted run time by cluster size", XLabel: "cluster size p", YLabel: "time (s)"}
	// one line per bottleneck regime, so the regions show
	var order []string
	seg := map[string]*report.Series{}
	for _, pt := range pts {
		var parts []string
		for _, st := range pt.Stages {
			parts = append(parts, st.Stage+": "+st.Bottleneck)
		}
		key := strings.Join(parts, ", ")
		s, ok := seg[key]
		if !ok {
			s = &report.Series{Name: key}
			if n := len(order); n > 0 { // start where the previous regime ended
				prev := seg[order[n-1]]
				s.X = append(s.X, prev.X[len(prev.X)-1])
				s.Y = append(s.Y, prev.Y[len(prev.Y)-1])
			}
			seg[key] = s
			order = append(order, key)
		}
		s.X = append(s.X, float64(pt.P))
		s.Y = append(s.Y, pt.Time)
	}
	for _, k := range order {
		p.Series = append(p.Series, *seg[k])
	}
	var mem report.Series
	mem.Name, mem.Points = "memory exceeded (paging)", true
	for _, pt := range pts {
		if pt.MemoryExceeded {
			mem.X = append(mem.X, float64(pt.P))
			mem.Y = append(mem.Y, pt.Time)
		}
	}
	if len(mem.X) > 0 {
		p.Series = append(p.Series, mem)
	}
	if len(meas) > 0 {
		s := report.Series{Name: "measured", Points: true}
		for _, mt := range meas {
			s.X = append(s.X, float64(mt.P))
			s.Y = append(s.Y, mt.Time)
		}
		p.Series = append(p.Series, s)
	}
	return report.SaveFigure(path, p)
}

package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/pipeline"
	"github.com/clusterperf/clusterperf/report"
)

type pipelineOptions struct {
	p        string
	measured string
	format   string
	plot     string
	fit      string
}

func newPipelineCmd(stdout, stderr io.Writer) *cobra.Command {
	var o pipelineOptions
	cmd := &cobra.Command{
		Use:   "pipeline MODEL.yaml",
		Short: "Bottleneck model of overlapped read/distribute/process/gather/write (003) and the optimal cluster size",
		Long: `Predict the run time of a job fed in and collected at one node (003): every stage runs at
the speed of its slowest resource. Prints the time at every cluster size p, each stage's
bottleneck, the optimal cluster size (least time; the knee within 1 %; the closed form of
003 eq. (19) where it applies) and flags sizes whose data overflow node memory.

--measured F.csv (columns p,time) puts measured times beside the predictions with relative
errors (against the prediction, as 003 does); --fit c_m,b_gather fits those constants of a
sort model to the measurements (runs that overflow memory are left out).

` + pipeline.FileFormat,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPipeline(o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.p, "p", "1:32", "cluster sizes FROM:TO")
	f.StringVar(&o.measured, "measured", "", "CSV of measured times (columns p,time)")
	f.StringVar(&o.format, "format", "table", "output format: table, json, csv")
	f.StringVar(&o.plot, "plot", "", "write time against p to FILE.svg or FILE.png")
	f.StringVar(&o.fit, "fit", "", "comma-separated sort constants to fit to --measured (c_q, c_m, b_io, l_n, b_n, b_gather)")
	return cmd
}

func parseIntRange(flag, s string) (int, int, error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		b = a
	}
	from, err1 := strconv.Atoi(strings.TrimSpace(a))
	to, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil || from < 1 || to < from {
		return 0, 0, badInputf("--%s %q: want FROM:TO with whole numbers 1 ≤ FROM ≤ TO", flag, s)
	}
	return from, to, nil
}

type pipelinePointJSON struct {
	P              int                  `json:"p"`
	Time           float64              `json:"time"`
	Bottleneck     string               `json:"bottleneck"`
	Stages         []pipeline.StageTime `json:"stages"`
	FixedTimes     map[string]float64   `json:"fixed_times"`
	MemoryExceeded bool                 `json:"memory_exceeded"`
	Measured       []float64            `json:"measured,omitempty"`
	RelativeError  []float64            `json:"relative_error,omitempty"`
}

func runPipeline(o pipelineOptions, path string, stdout, stderr io.Writer) error {
	if err := report.CheckFormat(o.format); err != nil {
		return badInput(err)
	}
	if err := checkPlotPath(o.plot); err != nil {
		return err
	}
	from, to, err := parseIntRange("p", o.p)
	if err != nil {
		return err
	}
	data, err := readInput(path)
	if err != nil {
		return err
	}
	m, sp, err := pipeline.ParseModel(path, data)
	if err != nil {
		return badInput(err)
	}
	var meas []pipeline.Measurement
	if o.measured != "" {
		b, err := readInput(o.measured)
		if err != nil {
			return err
		}
		if meas, err = pipeline.ReadMeasurements(o.measured, bytes.NewReader(b)); err != nil {
			return badInput(err)
		}
	}
	var fit *pipeline.FitResult
	if o.fit != "" {
		if sp == nil {
			return badInputf("--fit works on sort models (the model file's sort: block)")
		}
		if len(meas) == 0 {
			return badInputf("--fit needs --measured")
		}
		fit, err = pipeline.FitSort(*sp, m.Memory, strings.Split(o.fit, ","), meas)
		if err != nil {
			return badInput(err)
		}
		mem := m.Memory
		m = fit.Params.Model(m.Name)
		m.Memory = mem
	}
	pts, err := m.PredictRange(from, to)
	if err != nil {
		return badInput(err)
	}
	opt := m.Optimal(pts)
	byP := map[int][]float64{}
	for _, mt := range meas {
		byP[mt.P] = append(byP[mt.P], mt.Time)
	}
	switch o.format {
	case "json":
		out := struct {
			Model      string              `json:"model,omitempty"`
			Points     []pipelinePointJSON `json:"points"`
			OptimalP   int                 `json:"optimal_p"`
			OptimalT   float64             `json:"optimal_time"`
			KneeP      int                 `json:"knee_p"`
			KneeT      float64             `json:"knee_time"`
			ClosedForm *float64            `json:"closed_form_p,omitempty"`
			ClosedNote string              `json:"closed_form_note"`
			Fit        *pipeline.FitResult `json:"fit,omitempty"`
		}{Model: m.Name, OptimalP: opt.P, OptimalT: opt.Time, KneeP: opt.Knee, KneeT: opt.KneeTime, ClosedNote: opt.ClosedNote, Fit: fit}
		if !math.IsNaN(opt.ClosedForm) {
			cf := opt.ClosedForm
			out.ClosedForm = &cf
		}
		for _, pt := range pts {
			j := pipelinePointJSON{P: pt.P, Time: pt.Time, Bottleneck: pt.Bottleneck, Stages: pt.Stages, MemoryExceeded: pt.MemoryExceeded, FixedTimes: map[string]float64{}}
			for i, f := range m.Fixed {
				j.FixedTimes[f.Name] = pt.Fixed[i]
			}
			for _, t := range byP[pt.P] {
				j.Measured = append(j.Measured, t)
				j.RelativeError = append(j.RelativeError, (t-pt.Time)/pt.Time)
			}
			out.Points = append(out.Points, j)
		}
		if err := report.WriteJSON(stdout, out); err != nil {
			return err
		}
	default:
		t := &report.Table{Header: []string{"p", "time_s"}}
		for _, st := range m.Stages {
			t.Header = append(t.Header, st.Name+"_s", st.Name+"_bottleneck")
		}
		for _, f := range m.Fixed {
			t.Header = append(t.Header, strings.ReplaceAll(f.Name, " ", "_")+"_s")
		}
		t.Header = append(t.Header, "measured_s", "rel_error", "note")
		for _, pt := range pts {
			row := []any{pt.P, pt.Time}
			for _, st := range pt.Stages {
				row = append(row, st.Time, st.Bottleneck)
			}
			for _, f := range pt.Fixed {
				row = append(row, f)
			}
			ms, es := "", ""
			for i, mt := range byP[pt.P] {
				if i > 0 {
					ms += " "
					es += " "
				}
				ms += report.Num(mt)
				es += fmt.Sprintf("%+.1f%%", 100*(mt-pt.Time)/pt.Time)
			}
			note := ""
			if pt.MemoryExceeded {
				note = "data exceed node memory: expect paging, prediction too low"
			}
			if pt.P == opt.P {
				note = strings.TrimPrefix(note+"; least time", "; ")
			}
			if pt.P == opt.Knee {
				note = strings.TrimPrefix(note+"; knee (within 1 % of least)", "; ")
			}
			row = append(row, ms, es, note)
			t.Add(row...)
		}
		if o.format == "csv" {
			return t.WriteCSV(stdout)
		}
		if m.Name != "" {
			fmt.Fprintf(stdout, "%s\n\n", m.Name)
		}
		if err := t.WriteText(stdout); err != nil {
			return err
		}
		fmt.Fprintln(stdout)
		writeOptimum(stdout, opt)
		if fit != nil {
			fmt.Fprintf(stdout, "\nFitted to %d measurements (Nelder–Mead, %s, %d evaluations): rms relative error %.3g → %.3g\n", fit.Used, fit.Status, fit.Evals, fit.Before, fit.After)
			for i, n := range fit.Names {
				fmt.Fprintf(stdout, "  %s = %.6g\n", n, fit.Values[i])
			}
		}
	}
	if o.plot != "" {
		return pipelinePlot(o.plot, m, pts, meas)
	}
	return nil
}

func writeOptimum(w io.Writer, opt pipeline.Optimum) {
	fmt.Fprintf(w, "Least predicted time: p = %d, %.4g s", opt.P, opt.Time)
	if !math.IsNaN(opt.SavedPrev) {
		fmt.Fprintf(w, " (%.3g s less than p = %d", opt.SavedPrev, opt.P-1)
		if !math.IsNaN(opt.SavedNext) {
			fmt.Fprintf(w, ", %.3g s less than p = %d", opt.SavedNext, opt.P+1)
		}
		fmt.Fprint(w, ")")
	}
	fmt.Fprintf(w, "\nKnee: p = %d, %.4g s — more nodes gain less than 1 %%\n", opt.Knee, opt.KneeTime)
	if !math.IsNaN(opt.ClosedForm) {
		fmt.Fprintf(w, "Closed form p* = %.3f (%s); whole choices: p = %d or %d\n", opt.ClosedForm, opt.ClosedNote, int(math.Floor(opt.ClosedForm)), int(math.Ceil(opt.ClosedForm)))
	} else {
		fmt.Fprintf(w, "Closed form: %s\n", opt.ClosedNote)
	}
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

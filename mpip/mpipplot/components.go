package mpipplot

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/clusterperf/clusterperf/report"
)

// ComponentRow is one P of 004's component figure (Figures 2, 4, 6, 8): the measured
// aggregate times (MPI_Wait, MPI_Time − MPI_Wait, App_Time − MPI_Time) and, with a model, the
// modelled ones (switch delay R_0·M, MPI contention (R_k − D_k)·M·P, MPI active D_k·M·P,
// compute D_{P+1}·M), all in s. A modelled part below 0 by rounding (004 prints −1.263E-12
// for CG A P = 1) is drawn as 0.
type ComponentRow struct {
	P        int
	Measured [3]float64
	Modelled *[4]float64 // nil without a model
}

// measuredNames and modelledNames are the components' legend names (004 "Graphical View").
var (
	measuredNames = [3]string{"measured: MPI wait", "measured: MPI active", "measured: computation"}
	modelledNames = [4]string{"model: switch delay R_0·M", "model: MPI contention (R_k − D_k)·M·P", "model: MPI active D_k·M·P", "model: compute D_{P+1}·M"}
)

// Components lists the component rows of a class's runs in P order; the model is the
// calibrated one when there is one, else the given network's.
func Components(runs []Run) []ComponentRow {
	var out []ComponentRow
	for _, r := range runs {
		in := r.Inputs
		row := ComponentRow{P: r.P, Measured: [3]float64{in.MPIWait, in.MPITime - in.MPIWait, in.AppTime - in.MPITime}}
		m := r.Model
		if r.Calibrated != nil {
			m = r.Calibrated
		}
		if m != nil {
			c := m.Model
			row.Modelled = &[4]float64{c.SwitchDelay, c.MPIContention, c.MPIActive, c.Compute}
		}
		out = append(out, row)
	}
	return out
}

// componentPlot: at each P a measured stacked bar (left) and a modelled one (right).
func componentPlot(runs []Run, class string) (*plot.Plot, error) {
	rows := Components(runs)
	pl := plot.New()
	modelled := rows[0].Modelled != nil
	pl.Title.Text = "Components of the aggregate time (Σ over ranks): measured (left) and modelled (right)"
	if !modelled {
		pl.Title.Text = "Components of the aggregate time (Σ over ranks), measured"
	}
	if class != "" {
		pl.Title.Text += " (" + class + ")"
	}
	pl.X.Label.Text, pl.Y.Label.Text = "P (processes)", "aggregate time, s"
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = strconv.Itoa(r.P)
	}
	width := vg.Points(14)
	stack := func(vals [][]float64, labels []string, colour int, offset vg.Length) error {
		var below *plotter.BarChart
		for k, v := range vals {
			b, err := plotter.NewBarChart(plotter.Values(v), width)
			if err != nil {
				return err
			}
			b.Color, b.LineStyle.Width, b.Offset = report.Color(colour+k), vg.Points(0.5), offset
			if below != nil {
				b.StackOn(below)
			}
			below = b
			pl.Add(b)
			pl.Legend.Add(labels[k], b)
		}
		return nil
	}
	meas := make([][]float64, 3)
	for k := range meas {
		for _, r := range rows {
			meas[k] = append(meas[k], math.Max(r.Measured[k], 0))
		}
	}
	off := vg.Length(0)
	if modelled {
		off = -width / 2
	}
	if err := stack(meas, measuredNames[:], 0, off); err != nil {
		return nil, err
	}
	if modelled {
		mod := make([][]float64, 4)
		for k := range mod {
			for _, r := range rows {
				v := 0.0
				if r.Modelled != nil {
					v = math.Max(r.Modelled[k], 0)
				}
				mod[k] = append(mod[k], v)
			}
		}
		if err := stack(mod, modelledNames[:], 3, width/2); err != nil {
			return nil, err
		}
	}
	pl.NominalX(names...)
	top := 0.0
	for _, r := range rows {
		top = math.Max(top, r.Measured[0]+r.Measured[1]+r.Measured[2])
		if r.Modelled != nil {
			top = math.Max(top, r.Modelled[0]+r.Modelled[1]+r.Modelled[2]+r.Modelled[3])
		}
	}
	pl.X.Min, pl.X.Max = -0.7, float64(len(rows)-1)+0.7
	pl.Y.Min, pl.Y.Max = 0, 1.05*math.Max(top, 1e-300)
	pl.Add(plotter.NewGrid())
	return pl, nil
}

// Package mpipplot draws the figures of `clusterperf mpip`: 004's wall-clock-time figure
// (measured AT* = App_Time/P against the model's AT = R·M/P by P, with the calibrated model,
// predictions and forecasts) and its component figure (measured MPI wait, MPI active and
// computation against the modelled switch delay, MPI contention, MPI active and compute time),
// one pair per class (004 Figures 1–8: CG A–D).
//
// The wall-time axis follows the data (issue 16): its range is set by the measured points,
// the model's values and the point forecasts, never by an interval or a spread. An interval
// end beyond the range is drawn at the plot's edge with an arrowhead (▲ above, ▼ below) and a
// legend entry, and the figure's notes give its real value. The package holds the layout
// (Wall, computed without drawing, what the tests check) and the drawing (Panels).
package mpipplot

import (
	"fmt"
	"math"
	"sort"

	"github.com/clusterperf/clusterperf/mpip"
)

// Run is one run of a class: its measured wall time and the model's, given and calibrated.
type Run struct {
	Class      string       // the class (a CSV row's label, or the program of the reports)
	P          int          // processes
	Inputs     mpip.Inputs  // collected values (the measured components)
	Model      *mpip.Result // with the given network; nil without one
	Calibrated *mpip.Result // with --calibrate; nil otherwise
}

// Input is everything the figures show.
type Input struct {
	Runs        []Run
	Predictions []mpip.Prediction // power-law predictions (intervals from ≥ 5 runs only)
	Forecasts   []*mpip.Forecast  // --calibrate --predict (spreads of plausible models)
	// Answer: the forecast the answer states at each --predict P (X = P, Y = wall time per
	// process, s; the kind mpip.ChooseForecast chose), ringed so the figure shows the text's
	// number (issue 29: the plot marked 0.28 s at P = 128 where the text said 1.35 s).
	Answer []Mark
}

// Mark is one drawn value.
type Mark struct {
	Series string
	X, Y   float64
}

// Interval is a vertical bar at X from Low to High (an interval or a spread), and what of it
// is drawn: ShownLow … ShownHigh, clipped to the plot's range where ClippedLow/ClippedHigh.
type Interval struct {
	Series                  string
	X                       float64
	Low, High               float64
	ShownLow, ShownHigh     float64
	ClippedLow, ClippedHigh bool
}

// Wall is the layout of one class's wall-time panel: a log-log plot whose y range
// [YMin, YMax] contains every mark (measured, modelled, predicted, forecast values) with a
// margin, and intervals clipped to it.
type Wall struct {
	Class      string
	Ps         []int // the measured and target P, in order (the x axis's labels)
	YMin, YMax float64
	Lines      map[string][]Mark // series drawn as line + markers, in P order
	Points     map[string][]Mark // series drawn as markers only
	Intervals  []Interval
	Notes      []string
}

// Series names (legend entries).
const (
	Measured   = "measured AT* = App_Time/P"
	Modelled   = "model AT = R·M/P (given network)"
	Calibrated = "model AT, calibrated network"
	Predicted  = "predicted (power law in P)"
	PredIntvl  = "95 % interval (≥ 5 runs)"
	WallFc     = "forecast: wall time extrapolated"
	ModelFc    = "forecast: 004 model, extrapolated inputs"
	FcSpread   = "spread of plausible scaling models"
	AnswerFc   = "the answer's forecast (its value in the text)"
)

// margin is the factor the y range extends beyond the marks on each side (log axis), and
// minDecades the smallest span of the axis (a single run gets 0.8 … 1.25 of its value).
const (
	margin     = 1.25
	minDecades = 0.2
)

// classesOf lists the classes of the runs in first-seen order.
func classesOf(in Input) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range in.Runs {
		if !seen[r.Class] {
			seen[r.Class] = true
			out = append(out, r.Class)
		}
	}
	return out
}

// Walls lays out the wall-time panel of each class. Predictions and forecasts belong to the
// runs they were made from: drawn with a single class, left out (with a note) with several.
func Walls(in Input) []Wall {
	classes := classesOf(in)
	var out []Wall
	for _, c := range classes {
		w := Wall{Class: c, Lines: map[string][]Mark{}, Points: map[string][]Mark{}}
		runs := classRuns(in.Runs, c)
		for _, r := range runs {
			w.Points[Measured] = append(w.Points[Measured], Mark{Measured, float64(r.P), r.Inputs.AppTime / float64(r.P)})
			if r.Model != nil {
				w.Lines[Modelled] = append(w.Lines[Modelled], Mark{Modelled, float64(r.P), r.Model.AppTime.Model})
			}
			if r.Calibrated != nil {
				w.Lines[Calibrated] = append(w.Lines[Calibrated], Mark{Calibrated, float64(r.P), r.Calibrated.AppTime.Model})
			}
		}
		if len(classes) == 1 {
			w.addPredictions(in.Predictions)
			w.addForecasts(in.Forecasts)
			for _, m := range in.Answer {
				w.Points[AnswerFc] = append(w.Points[AnswerFc], Mark{AnswerFc, m.X, m.Y})
			}
		} else if len(in.Predictions)+len(in.Forecasts) > 0 {
			w.Notes = append(w.Notes, fmt.Sprintf("%s: predictions and forecasts not drawn: the runs are of %d classes", c, len(classes)))
		}
		w.scale()
		w.Ps = ps(runs, in, len(classes) == 1)
		out = append(out, w)
	}
	return out
}

func classRuns(runs []Run, class string) []Run {
	var out []Run
	for _, r := range runs {
		if r.Class == class {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].P < out[j].P })
	return out
}

func (w *Wall) addPredictions(ps []mpip.Prediction) {
	for _, p := range ps {
		if p.Result == nil {
			continue
		}
		x := float64(p.P)
		w.Points[Predicted] = append(w.Points[Predicted], Mark{Predicted, x, p.Result.AppTime.Model})
		if p.Interval {
			w.Intervals = append(w.Intervals, Interval{Series: PredIntvl, X: x, Low: p.ATLow, High: p.ATHigh})
		}
	}
}

// addForecasts: the two routes side by side (x × 0.93 and × 1.07 on the log axis), each with
// its spread.
func (w *Wall) addForecasts(fs []*mpip.Forecast) {
	for _, f := range fs {
		x := float64(f.P)
		w.Points[WallFc] = append(w.Points[WallFc], Mark{WallFc, x * 0.93, f.WallTime.Value})
		w.Intervals = append(w.Intervals, Interval{Series: FcSpread, X: x * 0.93, Low: f.WallTime.SpreadLow, High: f.WallTime.SpreadHigh})
		w.Points[ModelFc] = append(w.Points[ModelFc], Mark{ModelFc, x * 1.07, f.ModelAppTimeS})
		w.Intervals = append(w.Intervals, Interval{Series: FcSpread, X: x * 1.07, Low: f.ModelAppTimeLowS, High: f.ModelAppTimeHighS})
	}
}

// scale sets the y range from the marks alone (every value finite and > 0: times and the
// model's AT are), then clips the intervals to it.
func (w *Wall) scale() {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, set := range []map[string][]Mark{w.Lines, w.Points} {
		for _, ms := range set {
			for _, m := range ms {
				if m.Y > 0 && !math.IsInf(m.Y, 0) {
					lo, hi = math.Min(lo, m.Y), math.Max(hi, m.Y)
				}
			}
		}
	}
	if math.IsInf(lo, 0) { // nothing to draw: an arbitrary unit range
		lo, hi = 1, 1
	}
	lo, hi = lo/margin, hi*margin
	if span := math.Log10(hi / lo); span < minDecades {
		c := math.Sqrt(lo * hi)
		lo, hi = c/math.Pow(10, minDecades/2), c*math.Pow(10, minDecades/2)
	}
	w.YMin, w.YMax = lo, hi
	for i := range w.Intervals {
		iv := &w.Intervals[i]
		iv.ShownLow, iv.ShownHigh = math.Max(iv.Low, lo), math.Min(iv.High, hi)
		iv.ClippedLow, iv.ClippedHigh = iv.Low < lo, iv.High > hi
		if iv.ShownLow > iv.ShownHigh { // wholly outside: a marker at the edge it lies beyond
			if iv.Low > hi {
				iv.ShownLow, iv.ShownHigh = hi, hi
			} else {
				iv.ShownLow, iv.ShownHigh = lo, lo
			}
		}
		if iv.ClippedLow || iv.ClippedHigh {
			w.Notes = append(w.Notes, fmt.Sprintf("%s at P ≈ %.0f: %s %.4g … %.4g s runs beyond the plot's range %.4g … %.4g s: drawn clipped, with ▲/▼ at the edge",
				w.Class, iv.X, iv.Series, iv.Low, iv.High, lo, hi))
		}
	}
}

// Clipped reports whether any interval of the panel is clipped.
func (w Wall) Clipped() bool {
	for _, iv := range w.Intervals {
		if iv.ClippedLow || iv.ClippedHigh {
			return true
		}
	}
	return false
}

func ps(runs []Run, in Input, targets bool) []int {
	seen := map[int]bool{}
	var out []int
	add := func(p int) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, r := range runs {
		add(r.P)
	}
	if targets {
		for _, p := range in.Predictions {
			add(p.P)
		}
		for _, f := range in.Forecasts {
			add(f.P)
		}
	}
	sort.Ints(out)
	return out
}

package fitapp

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fit"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
)

// explainIdentifiability follows every direction of the SPMD family's parameters that the
// data do not determine (fit.SPMDResult.Identifiability over the sizing range) and says in
// the notes how far it reaches, what the bootstrap ranges mean there, whether each
// prediction moves along it, and which runs would determine it (issue 21).
func (r *Result) explainIdentifiability() {
	dirs := r.best.Identifiability(r.PMax, r.DMax)
	r.Identifiability = dirs
	if len(dirs) == 0 {
		return
	}
	if r.baseline != nil {
		r.Notes = append(r.Notes, fmt.Sprintf("the next notes are about the SPMD family %s's parameters (its interval and bootstrap columns), not the winner %s's", r.Architecture, r.Chosen))
	}
	moved := 0.0
	var names []string
	for _, d := range dirs {
		r.Notes = append(r.Notes, d.Explain(r.Target))
		moved = math.Max(moved, d.MeasuredRelChange)
		for _, p := range d.Parameters {
			if !contains(names, p.Name) {
				names = append(names, p.Name)
			}
		}
	}
	r.Notes = append(r.Notes, fmt.Sprintf("the fitted %s at the measured configurations moves by at most %.2g %% along these directions: the predictions there, and their intervals, are determined by the data even though %s are not", r.Target, 100*moved, strings.Join(names, ", ")))
	if r.BootstrapReplicates > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("the bootstrap ranges (%d replicates) of %s are conditional: each refit starts at the optimum, where the data exert no pull along the undetermined directions, so the ranges leave those directions where the fit found them — they are not confidence intervals for these parameters; the spans above are how far the parameters can move", r.BootstrapReplicates, strings.Join(names, ", ")))
	}
	if r.baseline != nil {
		return // the predictions are the winning baseline's
	}
	r.explainT1(dirs)
	r.explainBottleneck(dirs)
	for i := range r.Predictions {
		pr := &r.Predictions[i]
		worst := 0.0
		for _, d := range dirs {
			if ch, ok := r.best.DirectionChange(d, pr.P, pr.D); ok {
				worst = math.Max(worst, ch)
			}
		}
		if pr.Low == nil || pr.High == nil {
			continue
		}
		half := (*pr.High - *pr.Low) / 2 / pr.Value
		if math.IsNaN(half) || math.IsInf(half, 0) {
			continue // no interval to compare with
		}
		pr.UndeterminedRelChange, pr.BeyondInterval = &worst, worst > half
		if worst > half {
			r.Notes = append(r.Notes, fmt.Sprintf("p = %d, d = %d: along the undetermined directions the prediction moves by %.2g %%, more than its interval's ±%.2g %%: the interval covers only what the data determine; a run there would settle it", pr.P, pr.D, 100*worst, 100*half))
		} else {
			r.Notes = append(r.Notes, fmt.Sprintf("p = %d, d = %d: the prediction moves by at most %.2g %% along the undetermined directions, within its interval's ±%.2g %%", pr.P, pr.D, 100*worst, 100*half))
		}
	}
}

// shareSpread is the largest (high − low) of the shares: above bottleneckSpread the verdict
// of what limits the program depends on the undetermined directions.
func shareSpread(sh []fit.Share) float64 {
	w := 0.0
	for _, s := range sh {
		w = math.Max(w, s.High-s.Low)
	}
	return w
}

// bottleneckSpread: a share that moves by more than 5 percentage points along the
// undetermined directions makes the bottleneck verdict undetermined (P2-5).
const bottleneckSpread = 0.05

// explainBottleneck qualifies the verdict of what limits the program (at the largest
// measured p and d) when the shares of the time move along the undetermined directions:
// the verdict then says the range of each share and which run (or separate measurement)
// would settle it (P2-5).
func (r *Result) explainBottleneck(dirs []fit.Direction) {
	p, d := 1, 1
	for _, x := range r.Residuals {
		p, d = max(p, x.P), max(d, x.D)
	}
	sh, ok := r.best.ShareRanges(dirs, p, d)
	if !ok {
		return
	}
	r.BottleneckShares = sh
	if shareSpread(sh) <= bottleneckSpread {
		return
	}
	r.BottleneckUndetermined = true
	var parts, runs []string
	for _, s := range sh {
		if s.High > 0.005 {
			parts = append(parts, fmt.Sprintf("%s %.0f–%.0f %%", s.Component, 100*s.Low, 100*s.High))
		}
	}
	structural := false
	for _, dir := range dirs {
		if one, ok := r.best.ShareRanges([]fit.Direction{dir}, p, d); !ok || shareSpread(one) <= bottleneckSpread {
			continue
		}
		if dir.Structural || len(dir.Identify) == 0 || !dir.Identify[0].Identifies {
			structural = true
			continue
		}
		if run := fmt.Sprintf("p = %d, d = %d", dir.Identify[0].P, dir.Identify[0].D); !contains(runs, run) {
			runs = append(runs, run)
		}
	}
	settle := "a run at " + strings.Join(runs, " or ") + " would settle it"
	switch {
	case structural && len(runs) > 0:
		settle += "; for the rest fix one of the parameters in the model file from a separate measurement (e.g. a profile of the communication time)"
	case structural:
		settle = "no run at another p or d would settle it: fix one of the parameters in the model file from a separate measurement (e.g. a profile of the communication time)"
	}
	r.Inference += fmt.Sprintf(" — but not determined by these data: along the parameter directions they leave undetermined (see the notes), the shares of the time at p = %d, d = %d span %s, with the same fitted %s; %s",
		p, d, strings.Join(parts, ", "), r.Target, settle)
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// addBand (--band) evaluates the SPMD family at the measured and predicted configurations
// with contention w as fitted, w = 0 (optimistic) and w = 1 (pessimistic) (fit.Band;
// Gennaro (001) §4), and says where the band is widest.
func (r *Result) addBand(data *fit.Data) error {
	seen := map[[2]int]bool{}
	var pts [][2]int
	add := func(p, d int) {
		if !seen[[2]int{p, d}] {
			seen[[2]int{p, d}] = true
			pts = append(pts, [2]int{p, d})
		}
	}
	for _, o := range data.Obs {
		add(o.P, o.D)
	}
	for _, p := range r.Predictions {
		add(p.P, p.D)
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i][0] < pts[j][0] || pts[i][0] == pts[j][0] && pts[i][1] < pts[j][1] })
	b, err := fit.Band(r.best, pts)
	if err != nil {
		return app.Lib(err)
	}
	r.Band, r.BandArchitecture = b, r.best.Architecture
	w := 0.0
	for _, p := range r.best.Parameters {
		if p.Name == "w" {
			w = p.Value
		}
	}
	wide, at := 0.0, 0
	for i, x := range b {
		if v := math.Abs(x.W1-x.W0) / x.Fitted; v > wide {
			wide, at = v, i
		}
	}
	if wide < 1e-9 {
		r.Notes = append(r.Notes, fmt.Sprintf("contention band: the %s model's %s does not depend on w at these configurations (w = 0 and w = 1 agree)", r.BandArchitecture, r.Target))
	} else {
		x := b[at]
		r.Notes = append(r.Notes, fmt.Sprintf("contention band of %s: widest at p = %d, d = %d, where the %s is %s with w = 0 (optimistic) and %s with w = 1 (pessimistic); the fitted w = %.3g gives %s",
			r.BandArchitecture, x.P, x.D, r.Target, report.Num(x.W0), report.Num(x.W1), w, report.Num(x.Fitted)))
	}
	if r.baseline != nil {
		r.Notes = append(r.Notes, fmt.Sprintf("the band is the SPMD family's (%s); the winner %s has no contention parameter", r.BandArchitecture, r.Chosen))
	}
	return nil
}

// bandTable is --band's table: the observed mean (blank where not measured), the fit, and
// the w = 0 / w = 1 values.
func (r *Result) bandTable() *report.Table {
	t := &report.Table{Name: "band", Title: fmt.Sprintf("Contention band of %s: w as fitted, w = 0 (optimistic: the network a delay), w = 1 (pessimistic: a queue)", r.BandArchitecture),
		Header: []string{"p", "d", "observed_mean", "fitted", "w0_optimistic", "w1_pessimistic"}, Keys: 2}
	sum, n := map[[2]int]float64{}, map[[2]int]int{}
	for _, x := range r.Residuals {
		sum[[2]int{x.P, x.D}] += x.Observed
		n[[2]int{x.P, x.D}]++
	}
	for _, x := range r.Band {
		var obs any = report.TextOnly("")
		if k := [2]int{x.P, x.D}; n[k] > 0 {
			obs = sum[k] / float64(n[k])
		}
		t.Add(x.P, x.D, obs, x.Fitted, x.W0, x.W1)
	}
	return t
}

// explainT1 notes when the sizing's T_1 = T_ref moves along an undetermined direction (a
// time fit under g(1) = 1 cannot tell one processor's communication from its computation):
// every speedup and efficiency of the trade-off then moves with it, the times do not.
func (r *Result) explainT1(dirs []fit.Direction) {
	ref := r.Sizing.SpeedupReference
	lo, hi := ref.T1S, ref.T1S
	for _, d := range dirs {
		a, b := r.best.RefTimeRange(d)
		lo, hi = math.Min(lo, a), math.Max(hi, b)
	}
	if ref.Kind != sizing.T1Model || !((hi-lo)/ref.T1S > 1e-6) {
		return
	}
	r.Notes = append(r.Notes, fmt.Sprintf("sizing: T_1 = T_ref = %.6g is not determined by the data: along the undetermined directions it ranges %.6g … %.6g (%+.2g %% … %+.2g %%), and the trade-off's speedups and efficiencies with it (its times do not move); a separate measurement of one of those parameters, or speedup data against a measured reference_time, would fix it", ref.T1S, lo, hi, 100*(lo/ref.T1S-1), 100*(hi/ref.T1S-1)))
}

package fitapp

import "github.com/clusterperf/clusterperf/app"

// CheckExtrap records in c the options that `fit` on an Extra-P experiment does not use
// (plot: the explicit --plot file, "" when none): that form answers with each region's model
// over its measured points, so --predict, --plot and --pmax are refused (exit 2 naming the
// flag) rather than ignored (new-user review 8, P2-3: exit 0 with no forecast and no file).
func (o Flags) CheckExtrap(c *app.FlagCheck, plot string) {
	const form = "an Extra-P experiment is answered with each region's fitted model over its measured points"
	if o.Predict != "" {
		c.Add("--predict %q: %s; it has no forecast (fit a p,time CSV of one region for predictions)", o.Predict, form)
	}
	if plot != "" {
		c.Add("--plot %q: %s; it has no figure (fit a p,time CSV of one region to draw it)", plot, form)
	}
	if o.PMax != 0 {
		c.Add("--pmax %d: %s; it is not sized", o.PMax, form)
	}
}

// CheckPN records in c the options that `fit` on a p,n,time CSV does not use (plot: the
// explicit --plot file): it predicts the --predict p x n pairs but draws no figure and sizes
// nothing, so --plot and --pmax are refused (exit 2 naming the flag) rather than ignored.
func (o Flags) CheckPN(c *app.FlagCheck, plot string) {
	const form = "a p,n,time CSV is answered with joint models T(p, n) and the --predict p x n pairs"
	if plot != "" {
		c.Add("--plot %q: %s; it has no figure", plot, form)
	}
	if o.PMax != 0 {
		c.Add("--pmax %d: %s; it is not sized", o.PMax, form)
	}
}

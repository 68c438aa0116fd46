package mpip

// ordered refuses a Callsite statistics row whose Max, Mean and Min (mmm, in that order) are
// out of order. mpiP prints each of the three from its own running statistic — per-call
// duration or bytes (verbose), per-task cumulative time (concise) — with %.3g (or %f with -e);
// rounding to a fixed number of digits is monotone, so Max ≥ Mean ≥ Min holds in every row
// mpiP writes (docs: mpip-format.md §3.7, §3.8, §4). A row breaking it was edited or damaged;
// taken as is, Mean < Min would make the idle part of a blocking collective,
// Count·(Mean − Min), negative (hostile review 7, P2-4: it was clamped to 0 in silence).
func (p *parser) ordered(mmm []float64, name string) error {
	switch mx, mean, mn := mmm[0], mmm[1], mmm[2]; {
	case mn > mean:
		return p.errf("section %q: %s row: Min %g > Mean %g (mpiP's Min, Mean and Max of one row are always ordered: the row is damaged)", p.section, name, mn, mean)
	case mean > mx:
		return p.errf("section %q: %s row: Mean %g > Max %g (mpiP's Min, Mean and Max of one row are always ordered: the row is damaged)", p.section, name, mean, mx)
	}
	return nil
}

// atLine records line as the operation's line when the row's time (ms) is its largest yet.
func (o *OpStats) atLine(ms float64, line int) {
	if o.Line == 0 || ms > o.lineMS {
		o.Line, o.lineMS = line, ms
	}
}

package scaling

import (
	"fmt"
	"testing"
)

func TestQuickCorpusDump(t *testing.T) {
	s, err := RunCorpus("../testdata/scaling")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range s.Rows {
		b := r.Backtest
		in := "-"
		if b.InsideInterval != nil {
			in = fmt.Sprint(*b.InsideInterval)
		}
		lo, hi := 0.0, 0.0
		if b.Prediction.Interval {
			lo, hi = *b.Prediction.Low95S, *b.Prediction.High95S
		}
		fmt.Printf("%-26s %-6s P=%-5d obs=%-9.4g pred=%-9.4g err=%+7.3f am=%+7.3f usl=%+7.3f in=%s [%.3g,%.3g] spread[%.3g,%.3g] %s\n", r.Name, r.Scaling, b.HeldOutP, b.ObservedS, b.Prediction.TimeS, b.RelError, deref(b.AmdahlRelError), deref(b.USLRelError), in, lo, hi, b.Prediction.PlausibleLowS, b.Prediction.PlausibleHighS, b.Prediction.Formula)
	}
	fmt.Printf("median %.3f strong %.3f amdahl %.3f usl %.3f coverage %.2f (%d) spread %.2f nonfinite %d\n", s.MedianAbsRelError, s.MedianAbsRelErrorStrong, s.MedianAmdahlStrong, s.MedianUSLStrong, s.Coverage95, s.WithInterval, s.SpreadCoverage, s.NonFinite)
}

func deref(p *float64) float64 {
	if p == nil {
		return -99
	}
	return *p
}

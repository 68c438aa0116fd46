package explore

import (
	"strings"
	"testing"
)

// TestFitChartDrawsWhatItNames: the explorer's p,time chart names its lines as fit --plot
// does — the chosen formula over the whole range and the stacked prediction beyond the
// largest measured p (48 in openfoam_motorbike_arc.csv) as its own line — instead of the
// stacked prediction drawn under the formula's name (new-user review 7 P2-1). At p = 96 (the
// default slider) the stacked line ends at the answer's time, the formula's line at the
// chosen model's (182.562 s and 204.148 s, fit --predict 96's time_s and chosen_model_s).
func TestFitChartDrawsWhatItNames(t *testing.T) {
	const path = "../examples/scaling/openfoam_motorbike_arc.csv"
	m, err := Load(path, read(t, path), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, r := evalAt(t, m, Values{}) // the file's own values
	var model, stacked *Series
	for i, s := range r.Charts[0].Series {
		switch {
		case strings.HasPrefix(s.Name, "chosen model: T(p) = "):
			model = &r.Charts[0].Series[i]
		case strings.HasPrefix(s.Name, "stacked prediction (p > 48)"):
			stacked = &r.Charts[0].Series[i]
		}
	}
	if model == nil || stacked == nil {
		t.Fatalf("series %+v: want the chosen model and the stacked prediction", r.Charts[0].Series)
	}
	last := func(s *Series) (float64, float64) { return s.X[len(s.X)-1], s.Y[len(s.Y)-1] }
	if x, y := last(stacked); x != 96 || y != r.Values["predicted_time_s"] {
		t.Errorf("stacked line ends at (%v, %v), want (96, %v)", x, y, r.Values["predicted_time_s"])
	}
	if x, y := last(model); x != 96 || y < 204.1 || y > 204.2 {
		t.Errorf("chosen-model line ends at (%v, %v), want (96, 204.148)", x, y)
	}
	if stacked.X[0] != 48 {
		t.Errorf("stacked line starts at p = %v, want 48", stacked.X[0])
	}
}

package main

import (
	"math"
	"os"
	"testing"

	"github.com/clusterperf/clusterperf/explore"
)

// TestExploreFitCSV (issue 29): `clusterperf explore DATA.csv` takes a p,time file and
// answers from the same library call as `fit DATA.csv` (fitapp.RunScaling): at its default
// point (p = twice the largest measured, 2·48 = 96; efficiency 0.5) the predicted time and
// the recommended p are the command's answer facts, read from its JSON.
func TestExploreFitCSV(t *testing.T) {
	const path = "../../examples/scaling/openfoam_motorbike_arc.csv"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := explore.Load(path, data, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind() != "fit" {
		t.Fatalf("kind %q", m.Kind())
	}
	v := explore.Values{}
	for _, p := range m.Params() {
		v[p.ID] = p.Value
	}
	r, err := m.Eval(v)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Answer struct {
			Facts map[string]any `json:"facts"`
		} `json:"answer"`
	}
	runJSON(t, &got, "fit", path, "--predict", "96", "--format", "json")
	if v["p"] != 96 {
		t.Fatalf("default p %v, want 96", v["p"])
	}
	if want := got.Answer.Facts["predicted_time_s"].(float64); math.Abs(r.Values["predicted_time_s"]-want) > 1e-9*want {
		t.Errorf("explorer %v s, fit %v s", r.Values["predicted_time_s"], want)
	}
	if want := got.Answer.Facts["recommended_p"].(float64); r.Values["recommended_p"] != want {
		t.Errorf("explorer recommends p = %v, fit %v", r.Values["recommended_p"], want)
	}
	// the chart is fit --plot's figure (TestExplorerChartIsCommandPlot): the measured runs,
	// the model, its interval bands and the held-out run
	if len(r.Charts) != 1 || len(r.Charts[0].Series) < 2 || len(r.Tables) == 0 {
		t.Errorf("charts %d, tables %d", len(r.Charts), len(r.Tables))
	}
}

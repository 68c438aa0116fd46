package validate

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/sim"
)

// TestCheckQN: the report QNReport builds for TestQN's model (one class of N = 2 at one
// queue of demand 1 s: exact MVA X = 1/s, R = 2 s, U = 1, Q = 2) passes CheckQN after a JSON
// round trip (as a shard file holds it); each tampering of one field is refused with an
// error naming that field (hostile review: sweep shards' validation records were not
// range-checked on merge).
func TestCheckQN(t *testing.T) {
	m, an, res := twoJobsOneQueue(t, 0.999)
	good, err := json.Marshal(QNReport(m, "mva", an, nil, res, 7, nil))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, old, new, field string
	}{
		{"untouched", "", "", ""},
		{"negative half-width", `"half_width_95":0.01`, `"half_width_95":-0.01`, "rows[0].half_width_95"},
		{"simulated U above 1", `"simulated":0.999`, `"simulated":1.5`, "rows[2].simulated"},
		{"negative simulated time", `"simulated":2,`, `"simulated":-2,`, "rows[1].simulated"},
		{"negative analytic", `"analytic":1,`, `"analytic":-1,`, "rows[0].analytic"},
		{"inside flipped", `"analytic_inside":true`, `"analytic_inside":false`, "rows[0].analytic_inside"},
		{"rel_error forged", `"rel_error":0`, `"rel_error":0.5`, "rows[0].rel_error"},
		{"quantity renamed", `"X c"`, `"X d"`, "rows[0]"},
		{"no replications", `"replications":3`, `"replications":0`, "simulation.replications"},
		{"negative events", `"seed":7`, `"events":-5,"seed":7`, "simulation.events"},
		{"precision negative", `"seed":7`, `"achieved_precision":-1,"seed":7`, "simulation.achieved_precision"},
	}
	for _, tc := range cases {
		data := string(good)
		if tc.old != "" {
			if !strings.Contains(data, tc.old) {
				t.Fatalf("%s: %q not in %s", tc.name, tc.old, data)
			}
			data = strings.Replace(data, tc.old, tc.new, 1)
		}
		var r Report
		if err := json.Unmarshal([]byte(data), &r); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		err := r.CheckQN(m)
		switch {
		case tc.field == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.field != "" && err == nil:
			t.Errorf("%s: accepted %s", tc.name, data)
		case tc.field != "" && !strings.Contains(err.Error(), tc.field):
			t.Errorf("%s: error %q does not name %s", tc.name, err, tc.field)
		}
	}
}

// twoJobsOneQueue is TestQN's model (one class of N = 2 at one queue of demand 1 s), its
// exact MVA solution, and a simulation result estimating X = 1, R = 2, U = u, Q = 2 with
// half-widths 0.01.
func twoJobsOneQueue(t *testing.T, u float64) (*qn.Model, *qn.Result, *sim.Result) {
	t.Helper()
	m := &qn.Model{Classes: []qn.Class{{Name: "c", Population: 2}}, Stations: []qn.Station{{Name: "cpu", Kind: qn.Queue}}, Demand: [][]float64{{1}}}
	an, err := qn.Solve(context.Background(), m, "mva", qn.AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e := func(v float64) sim.Estimate { return sim.Estimate{Mean: v, Half: 0.01} }
	return m, an, &sim.Result{Method: "replications", Replications: 3, Throughput: []sim.Estimate{e(1)}, ResponseTime: []sim.Estimate{e(2)},
		Utilization: []sim.Estimate{e(u)}, QueueLength: [][]sim.Estimate{{e(2)}}}
}

// TestCheckSaturation: a saturation record names a station of the model and a utilization
// ≥ 1 (qn.SaturationError's meaning); anything else is refused naming the field.
func TestCheckSaturation(t *testing.T) {
	m := &qn.Model{Stations: []qn.Station{{Name: "cpu", Kind: qn.Queue}}}
	for _, tc := range []struct {
		e     qn.SaturationError
		field string
	}{
		{qn.SaturationError{Station: "cpu", Utilization: 1.2}, ""},
		{qn.SaturationError{Station: "cpu", Utilization: 1}, ""},
		{qn.SaturationError{Station: "disk", Utilization: 1.2}, "Station"},
		{qn.SaturationError{Station: "cpu", Utilization: 0.5}, "Utilization"},
		{qn.SaturationError{Station: "cpu", Utilization: -1}, "Utilization"},
	} {
		err := CheckSaturation(&tc.e, m)
		if (err != nil) != (tc.field != "") || (err != nil && !strings.Contains(err.Error(), tc.field)) {
			t.Errorf("%+v: %v, want an error naming %q", tc.e, err, tc.field)
		}
	}
}

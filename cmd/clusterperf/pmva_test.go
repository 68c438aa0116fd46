package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/app/pmvaapp"
)

// TestPmvaMeasured: the timed path on the thesis shape /64 (calibrated on /128): valid JSON
// against the schema, every point with its runs and a relative error; timings are not
// compared (they are not deterministic).
func TestPmvaMeasured(t *testing.T) {
	var out, errb bytes.Buffer
	args := []string{"pmva", "--format", "json", "--scale", "64", "--repeats", "2", "--workers", "1,2", "../../pmva/testdata/thesis-network.yaml"}
	if code := run(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	checkFormat(t, "pmva", "json", out.Bytes())
	var r pmvaapp.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Results) != 4 || r.Calibration == nil || len(r.Calibration.Samples) != 4 || r.Populations[0] != 64 || r.Calibration.Populations[0] != 32 {
		t.Fatalf("%+v", r)
	}
	for _, p := range r.Results {
		if p.Measured == nil || p.RelError == nil || len(p.Measured.Runs) != 2 {
			t.Errorf("%+v", p)
		}
	}
}

// TestPmvaRefusals: bad flags exit 2 before any run, naming the flag.
func TestPmvaRefusals(t *testing.T) {
	for _, c := range [][]string{
		{"--workers", "0"},
		{"--algorithm", "fast"},
		{"--calibrate-scale", "1"},
		{"--scale", "0.5"},
		{"--q", "16us"},
		{"--q", "-1s", "--k", "1s"},
		{"--repeats", "0"},
		{"--class-order", "A,B"},
		{"--max-points", "10"},
	} {
		var out, errb bytes.Buffer
		args := append([]string{"pmva"}, c...)
		args = append(args, "../../pmva/testdata/thesis-network.yaml")
		// --max-points 10: the budget (fault.ErrTooLarge), also exit 2
		if code := run(context.Background(), args, &out, &errb); code != 2 || !strings.Contains(errb.String(), strings.TrimPrefix(c[0], "--")) && c[0] != "--max-points" {
			t.Errorf("%v: exit %d, %s", c, code, errb.String())
		}
	}
}

// TestPmvaClassOrder: with --q/--k the formulas take the requested order (Fig. 6.8): B
// first is slower than A first at p = 64; the timed runs walk the lattice in the requested
// order too (B is class 1) and the note says class 1 is not the largest class.
func TestPmvaClassOrder(t *testing.T) {
	time := func(order string) float64 {
		var out, errb bytes.Buffer
		args := []string{"pmva", "--format", "json", "--q", "16us", "--k", "100us", "--workers", "64", "--algorithm", "pipelined", "--class-order", order, "../../pmva/testdata/thesis-network.yaml"}
		if code := run(context.Background(), args, &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		var r pmvaapp.Result
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.ClassOrder[0] != order[:1] {
			t.Errorf("%s: order used %v", order, r.ClassOrder)
		}
		return r.Results[0].Time
	}
	if a, b := time("A,B,C"), time("B,A,C"); !(a < b) {
		t.Errorf("ABC %v not faster than BAC %v", a, b)
	}
	var out, errb bytes.Buffer
	args := []string{"pmva", "--format", "json", "--scale", "64", "--repeats", "1", "--algorithm", "pipelined", "--class-order", "B,A,C", "../../pmva/testdata/thesis-network.yaml"}
	if code := run(context.Background(), args, &out, &errb); code != 0 || !strings.Contains(out.String(), "class 1 is not the class with the largest population (A)") {
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
	var r pmvaapp.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	for _, pt := range r.Results {
		if pt.Measured == nil || strings.Join(pt.Measured.Order, ",") != "B,A,C" {
			t.Errorf("p = %d: timed run's order %+v", pt.P, pt.Measured)
		}
	}
	for _, s := range r.Calibration.Samples {
		if strings.Join(s.Order, ",") != "B,A,C" {
			t.Errorf("calibration p = %d: order %v", s.P, s.Order)
		}
	}
}

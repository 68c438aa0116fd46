package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Tests of the session-4 review of speedup (helper fixs): each failed before its fix.

// TestSpeedupValidateOnePerPoint: --validate simulates each distinct (p, d) of {best, first,
// last} once, in the grid's order (p, then d): a one-point grid gave the same row three times,
// --p 9,64 gave p = 64, 9, 64.
func TestSpeedupValidateOnePerPoint(t *testing.T) {
	cases := []struct {
		model, p, d string
		want        []string
	}{
		{"btio.yaml", "9", "3", []string{"cycle time p=9 d=3"}},
		{"btio.yaml", "9,64", "3", []string{"cycle time p=9 d=3", "cycle time p=64 d=3"}},
		{"hybrid.yaml", "4", "2", []string{"cycle time p=4 d=2"}},
	}
	for _, c := range cases {
		var r struct {
			Validation struct {
				Rows []struct {
					Quantity string `json:"quantity"`
				} `json:"rows"`
				Notes []string `json:"notes"`
			} `json:"validation"`
		}
		runJSON(t, &r, "speedup", "../../examples/spmd/"+c.model, "--p", c.p, "--d", c.d, "--validate", "--reps", "2", "--cycles", "20", "--format", "json")
		var got []string
		for _, row := range r.Validation.Rows {
			got = append(got, row.Quantity)
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s --p %s --d %s: validation rows %q, want %q", c.model, c.p, c.d, got, c.want)
		}
		for _, n := range r.Validation.Notes {
			for _, q := range c.want {
				if strings.Count(n, q) > 1 {
					t.Errorf("%s --p %s: note names %q %d times: %s", c.model, c.p, q, strings.Count(n, q), n)
				}
			}
		}
	}
}

// TestSpeedupHelpDefinition: the help states the speedup the command computes, 000 eq. 3's
// s = T_1/T(p, d) with T_1 = n_IO·S^CPU + S^IO (000 eq. 1: one processor, one disk, no
// communication), not T(1, 1)/T(p, d): hybrid.yaml's s(1, 1) is 0.9775, below 1.
func TestSpeedupHelpDefinition(t *testing.T) {
	help := runOut(t, "help", "speedup")
	if strings.Contains(help, "T(1 processor, 1 disk)/T(p, d)") {
		t.Errorf("help still defines the speedup as T(1 processor, 1 disk)/T(p, d)")
	}
	for _, s := range []string{"T_ref/T(p, d)", "000 eq. 3", "reference_time", "s(1, 1)"} {
		if !strings.Contains(help, s) {
			t.Errorf("help lacks %q", s)
		}
	}
	var r speedupJSON
	runJSON(t, &r, "speedup", "../../examples/spmd/hybrid.yaml", "--p", "1", "--format", "json")
	// hybrid.yaml's header comment and spmd.Evaluator.Conventions: s(1, 1) = 0.9775
	if s := r.Points[0].Speedup; math.Abs(s-0.9775) > 5e-5 {
		t.Errorf("hybrid s(1, 1) = %g, want 0.9775 (T_ref/T(1, 1), communication not in T_ref)", s)
	}
}

// speedupJSON is the part of speedup's JSON these tests read.
type speedupJSON struct {
	Points []struct {
		P, D       int
		TimeS      float64 `json:"time_s"`
		Speedup    float64 `json:"speedup"`
		Efficiency float64 `json:"efficiency"`
	} `json:"points"`
	Best struct {
		P, D    int
		Speedup float64 `json:"speedup"`
	} `json:"best"`
	Sizing sizingPartJSON `json:"sizing"`
}

// TestSpeedupSizingSameSpeedup: one output, one speedup. The sizing table's speedup and
// efficiency of a configuration are the points table's (000 eq. 3: T_ref/T(p, d), T_ref the
// model's reference time): BTIO at p = 9, d = 3 printed speedup 2.77 in the points and 9 in
// the sizing line (then p_min·T(p_min)/T(p), perfect scaling assumed up to p_min = 9).
func TestSpeedupSizingSameSpeedup(t *testing.T) {
	cases := [][]string{
		{"btio.yaml", "--p", "9", "--d", "3"},
		{"btio.yaml", "--p", "4,9,16,25,36,64", "--d", "1:4"},
		{"hybrid.yaml", "--p", "1:64", "--d", "1,16,256"},
	}
	for _, c := range cases {
		var r speedupJSON
		runJSON(t, &r, append([]string{"speedup", "../../examples/spmd/" + c[0], "--format", "json"}, c[1:]...)...)
		type pd struct{ p, d int }
		pts := map[pd][2]float64{}
		for _, pt := range r.Points {
			pts[pd{pt.P, pt.D}] = [2]float64{pt.Speedup, pt.Efficiency}
		}
		if len(r.Sizing.TradeOff) == 0 {
			t.Fatalf("%v: no trade-off rows", c)
		}
		if ref := r.Sizing.Reference; ref.Kind != "t1_model" || ref.P != 1 || !(ref.T1S > 0) {
			t.Errorf("%v: speedup_reference %+v, want t1_model at p = 1 (the model's T_ref)", c, ref)
		}
		for _, cf := range r.Sizing.TradeOff {
			want, ok := pts[pd{cf.P, cf.D}]
			if !ok {
				t.Errorf("%v: trade-off row p = %d, d = %d is not a point", c, cf.P, cf.D)
				continue
			}
			if !nearlyEqual(cf.Speedup, want[0]) || !nearlyEqual(cf.Efficiency, want[1]) {
				t.Errorf("%v: p = %d, d = %d: sizing speedup %g efficiency %g, points %g %g", c, cf.P, cf.D, cf.Speedup, cf.Efficiency, want[0], want[1])
			}
		}
	}
}

func nearlyEqual(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }

// TestSpeedupTooLarge: a surface whose JSON or CSV would exhaust memory is refused up front,
// exit 2 with the estimate and the limit, before any point is evaluated (the 2000 × 2000
// hybrid grid in JSON ran 31 s to 2 GB, then "fatal error: out of memory").
func TestSpeedupTooLarge(t *testing.T) {
	for _, format := range []string{"json", "csv"} {
		var out, errb bytes.Buffer
		start := time.Now()
		code := run(context.Background(), []string{"speedup", "../../examples/spmd/hybrid.yaml", "--p", "1:2000", "--d", "1:2000", "--format", format}, &out, &errb)
		if code != 2 {
			t.Errorf("--format %s: exit %d, want 2 (too large): %s", format, code, errb.String())
		}
		for _, s := range []string{"too large", "GiB", "limit", "--format table"} {
			if !strings.Contains(errb.String(), s) {
				t.Errorf("--format %s: message lacks %q: %s", format, s, errb.String())
			}
		}
		if out.Len() != 0 {
			t.Errorf("--format %s: %d bytes on stdout", format, out.Len())
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("--format %s: refused after %v, want before the surface is computed", format, el)
		}
	}
	// a grid that fits is still answered in every format
	runOut(t, "speedup", "../../examples/spmd/hybrid.yaml", "--p", "1:100", "--d", "1:50", "--format", "json")
}

// TestSpeedupPlotUnits: the stacked components' axis names its unit.
func TestSpeedupPlotUnits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.svg")
	runOut(t, "speedup", "../../examples/spmd/hybrid.yaml", "--p", "1:16", "--d", "1:4", "--plot", path)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), ">time (s)<") {
		t.Errorf("the time components panel's axis does not say time (s)")
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/clusterperf/clusterperf/app/fitapp"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/scaling"
)

// extrapolate on a measured strong-scaling CSV (OpenFOAM motorbike, testdata/scaling): the
// balanced sizing rule stops at p = 32 (efficiency 4390/(32·213.9) = 0.64 measured; the model
// gives 0.65), the backtest is printed, and JSON carries the same result.
func TestExtrapolateCSV(t *testing.T) {
	csv := filepath.Join("..", "..", "testdata", "scaling", "openfoam_motorbike_arc.csv")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"extrapolate", csv, "--predict", "64,128"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"backtest: p = 48", "recommended (balanced)", "Predictions", "p = 32, time"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if code := run(context.Background(), []string{"extrapolate", csv, "--format", "json", "--predict", "64"}, &out, &errb); code != 0 {
		t.Fatalf("json exit %d: %s", code, errb.String())
	}
	var res struct {
		Predictions []struct {
			P     int     `json:"p"`
			TimeS float64 `json:"time_s"`
		} `json:"predictions"`
		Sizing   sizingJSON `json:"sizing"`
		Backtest struct {
			RelError float64 `json:"rel_error"`
		} `json:"backtest"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Predictions) != 1 || !(res.Predictions[0].TimeS > 0) || res.Sizing.Recommended.Config.P != 32 || res.Sizing.Recommended.Config.Efficiency < 0.5 {
		t.Fatalf("json %+v", res)
	}
}

func TestExtrapolateBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("p,time\n1,10\n2,-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join("..", "..", "testdata", "scaling", "isorank_s2k.csv")
	for _, args := range [][]string{
		{"extrapolate", bad},
		{"extrapolate", filepath.Join(dir, "missing.csv")},
		{"extrapolate", good, "--predict", "0"},
		{"extrapolate", good, "--rule", "max"},
		{"extrapolate", good, "--format", "xml"},
		{"extrapolate", good, "--efficiency", "2"},
	} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	run(context.Background(), []string{"extrapolate", bad}, &out, &errb)
	if !strings.Contains(errb.String(), "bad.csv:3") {
		t.Errorf("error does not name file:line: %s", errb.String())
	}
}

// USL data (T₁ = 100, σ = 0.05, κ = 0.0005, N_max = sqrt(0.95/0.0005) = 43.6) with 2 %
// multiplicative noise from a seeded source, 3 replicates at 12 p: extrapolate keeps USL,
// prints σ, κ and N_max, recovers σ and κ within their 95 % intervals, and sizes on the USL
// curve (method names usl; balanced: efficiency ≥ 0.5) — issue 21's must-show.
func TestExtrapolateUSL(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 0))
	var b strings.Builder
	b.WriteString("# scaling: strong\np,time\n")
	for _, p := range []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64} {
		for k := 0; k < 3; k++ {
			x := float64(p)
			fmt.Fprintf(&b, "%d,%.6g\n", p, 100*(1+0.05*(x-1)+0.0005*x*(x-1))/x*(1+0.02*rng.NormFloat64()))
		}
	}
	path := filepath.Join(t.TempDir(), "usl.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"extrapolate", path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "Chosen model (held-out error): usl") || !strings.Contains(out.String(), "USL N_max = sqrt((1−σ)/κ)") {
		t.Fatalf("USL not chosen or not reported:\n%s", out.String())
	}
	var res struct {
		Method string `json:"method"`
		Fit    struct {
			Chosen scaling.Model `json:"chosen"`
		} `json:"fit"`
		Sizing sizingJSON `json:"sizing"`
	}
	runJSON(t, &res, "fit", path, "--format", "json")
	truth := map[string]float64{"sigma": 0.05, "kappa": 0.0005}
	for _, p := range res.Fit.Chosen.Parameters {
		if v, ok := truth[p.Name]; ok {
			delete(truth, p.Name)
			if p.Low95 == nil || !(*p.Low95 <= v && v <= *p.High95) {
				t.Errorf("%s = %g, interval %v … %v, truth %g", p.Name, p.Value, p.Low95, p.High95, v)
			}
		}
	}
	if len(truth) != 0 || !strings.HasPrefix(res.Method, "usl:") || res.Sizing.Recommended.Config.Efficiency < 0.5 {
		t.Errorf("missing %v; method %q; recommended efficiency %v", truth, res.Method, res.Sizing.Recommended.Config.Efficiency)
	}
}

// The sizing grid follows the data: never below the smallest measured p (on
// wavetrisk_bbserv_2560, p ≥ 2, the chosen c0 + c1·p^(-4/3)·log2(p) is 0 at p = 1 and the
// command exited 3 with a grid from p = 1), powers of two from there, and pmax.
func TestSizingGridFollowsData(t *testing.T) {
	d := &scaling.Data{Points: []scaling.Point{{P: 5, TimeS: 10}, {P: 12, TimeS: 5}, {P: 40, TimeS: 2}}}
	got := fitapp.SizingGrid(d, 80)
	want := []int{5, 8, 12, 16, 32, 40, 64, 80}
	if !slices.Equal(got, want) {
		t.Fatalf("SizingGrid = %v, want %v", got, want)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"fit", "../../testdata/scaling/wavetrisk_bbserv_2560.csv"}, &out, &errb); code != 0 {
		t.Fatalf("fit wavetrisk_bbserv_2560: exit %d: %s", code, errb.String())
	}
}

// TestFitDataSchema: `fit DATA.csv --format json` (no model file) has its own schema,
// docs/schema/fit-data.schema.json (fit.schema.json is the model fit's), and validates
// against it.
func TestFitDataSchema(t *testing.T) {
	out := runOut(t, "fit", "../../testdata/scaling/openfoam_motorbike_arc.csv", "--format", "json")
	checkFormat(t, "fit-data", "json", []byte(out))
}

// TestFitSummaryWidth: fit's Summary (a table of sentences) is left-aligned: no line is
// padded to the longest sentence (issue 21: the value column was right-aligned to ~240
// characters, so "R²" sat at column 240).
func TestFitSummaryWidth(t *testing.T) {
	out := runOut(t, "fit", "../../examples/fit/qcrd.yaml", "../../examples/fit/qcrd.csv")
	i := strings.Index(out, "\nSummary\n")
	if i < 0 {
		t.Fatalf("no Summary:\n%s", out)
	}
	for _, line := range strings.Split(out[i+1:], "\n")[1:] {
		if line == "" {
			break
		}
		if strings.HasPrefix(line, "R²") || strings.HasPrefix(line, "SMAPE") {
			if n := len([]rune(strings.TrimRight(line, " "))); n > 60 {
				t.Errorf("short row padded to %d characters: %q", n, line)
			}
		}
		// issue P3-15: SMAPE is a percentage shown like the average error ("0.743%"), not
		// a bare number under a "SMAPE %" label
		if strings.HasPrefix(line, "SMAPE") && !strings.HasSuffix(strings.TrimRight(line, " "), "%") {
			t.Errorf("SMAPE row without a %% sign: %q", line)
		}
	}
}

// TestFitCSVSizingRange: P2-6 — the trade-off's "fastest" is the fastest within the range
// the sizing searched, so that range is printed (table and JSON), and a predicted p beyond
// it that is faster is pointed out. Data: T(p) = 4 + 96/p exactly (Amdahl), so the
// prediction at p = 16 is 10 s (the stacked prediction on 3 distinct p weighs the selected
// Amdahl and USL, which is Amdahl exactly here, see scaling.DefaultPrior), faster than 16 s
// at the default --pmax = 2·4 = 8.
func TestFitCSVSizingRange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.csv")
	if err := os.WriteFile(path, []byte("p,time\n1,100\n2,52\n4,28\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	txt := runOut(t, "fit", path, "--predict", "8,16")
	for _, want := range []string{"recommended (balanced) within p ≤ 8 ", "(docs/extrapolation.md)) within p ≤ 8 (--pmax; default twice the largest measured p)", "p = 16: predicted 10 s, faster than the sizing's fastest (16 s)"} {
		if !strings.Contains(txt, want) {
			t.Errorf("missing %q in:\n%s", want, txt)
		}
	}
	var res struct {
		PMax   int    `json:"recommend_pmax"`
		Source string `json:"recommend_pmax_source"`
	}
	if err := json.Unmarshal([]byte(runOut(t, "fit", path, "--pmax", "32", "--format", "json")), &res); err != nil {
		t.Fatal(err)
	}
	if res.PMax != 32 || res.Source != "--pmax" {
		t.Errorf("recommend_pmax %d (%s), want 32 (--pmax)", res.PMax, res.Source)
	}
}

package tpn

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/sim"
)

var loadStudy = flag.String("load-study", "", "write the sampled-background study of 002's matrix multiplication to this markdown file")

// loadCase is one background: which workstations carry it, U, and the distributions.
type loadCase struct {
	U        float64
	arr, dem sim.Dist
	all      bool // every workstation loaded (else only ws4, as in 002's experiments)
}

// loadStudyRow runs one case: 002's matrix-multiplication ring in the document's order
// (examples/tpn/matmul.yaml: 0.25 s per block product, 320 000-byte blocks) on four
// workstations of power 1 with dedicated 100 Mbit/s links (t_s = 1 ms, B = 12.5 MB/s, as in
// 002's second set: communication an order of magnitude below the segments), background jobs
// of mean demand 0.5 s.
func loadStudyRow(t testing.TB, lc loadCase, reps int) (det float64, st *Replications) {
	p, _ := load(t, "../examples/tpn/matmul.yaml", "../examples/tpn/cluster.yaml")
	c := &Cluster{Network: Medium{Startup: 0.001, Bandwidth: 12.5e6}}
	for i, w := range []string{"ws1", "ws2", "ws3", "ws4"} {
		ws := Workstation{Name: w, Power: 1}
		if lc.all || i == 3 {
			ws.Background = []BgClass{{ArrivalRate: lc.U / 0.5, Demand: 0.5, Arrivals: lc.arr, Demands: lc.dem}}
		}
		c.Workstations = append(c.Workstations, ws)
	}
	n := build(t, p, c)
	r := runCompleted(t, n, Options{})
	st, err := Replicate(context.Background(), n, ReplicateOptions{Reps: reps, Seed: 1, Baseline: r})
	if err != nil {
		t.Fatal(err)
	}
	return Seconds(r.Time), st
}

// TestLoadStudy regenerates the table of docs/studies-findings.md §1b with
//
//	go test ./tpn -run TestLoadStudy -load-study $PWD/docs/tpn-load-study.md
//
// (without the flag it runs a few replications of two cases as a smoke test).
func TestLoadStudy(t *testing.T) {
	exp := sim.Dist(nil)
	h4, g4 := sim.HyperExp{C2: 4}, sim.Gamma{Shape: 0.25}
	var cases []loadCase
	for _, U := range []float64{0.2, 0.5, 0.8} {
		for _, d := range [][2]sim.Dist{{exp, exp}, {exp, h4}, {h4, exp}, {exp, g4}, {g4, exp}} {
			cases = append(cases, loadCase{U: U, arr: d[0], dem: d[1]})
		}
	}
	for _, d := range [][2]sim.Dist{{exp, exp}, {exp, g4}, {g4, exp}} {
		cases = append(cases, loadCase{U: 0.5, arr: d[0], dem: d[1], all: true})
	}
	reps := 1000
	if *loadStudy == "" {
		cases, reps = cases[:2], 10
	}
	var b strings.Builder
	b.WriteString("| loaded | U | arrivals | demands | 1/(1−U) model | sampled mean | model error | run-to-run sd (CV) |\n|---|---|---|---|---|---|---|---|\n")
	for _, lc := range cases {
		det, st := loadStudyRow(t, lc, reps)
		who := "ws4"
		if lc.all {
			who = "all 4"
		}
		fmt.Fprintf(&b, "| %s | %.1f | %s | %s | %.3f s | %.3f ± %.3f s | %+.1f %% | %.3f s (%.1f %%) |\n", who, lc.U, distName(lc.arr), distName(lc.dem), det, st.MeanS, st.HalfWidthS, 100*(det-st.MeanS)/st.MeanS, st.StdDevS, 100*st.StdDevS/st.MeanS)
	}
	if *loadStudy != "" {
		if err := os.WriteFile(*loadStudy, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Log("\n" + b.String())
}

func distName(d sim.Dist) string {
	if d == nil {
		return "exponential"
	}
	return d.String()
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/tpnapp"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const tpnEx = "../../examples/tpn/"

// tpnJSON runs tpn with args and decodes its JSON document.
func tpnJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errs := cli(append([]string{"tpn", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestTpnSampledNoBackground: on a cluster without background load the sampled mode's mean
// is the deterministic answer exactly (every replication is the same run), and the output
// states the method: simulation, not exact, with its error estimate (here 0).
func TestTpnSampledNoBackground(t *testing.T) {
	b, err := os.ReadFile(tpnEx + "cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.Contains(l, "background") && !strings.Contains(l, "arrival_rate") {
			keep = append(keep, l)
		}
	}
	cl := filepath.Join(t.TempDir(), "quiet.yaml")
	if err := os.WriteFile(cl, []byte(strings.Join(keep, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	mean := tpnJSON(t, "--cluster", cl, tpnEx+"matmul.yaml")
	s := tpnJSON(t, "--cluster", cl, "--background", "sampled", "--reps", "5", tpnEx+"matmul.yaml")
	bg := s["background"].(map[string]any)
	if s["time_s"] != mean["time_s"] || bg["mean_expansion_time_s"] != mean["time_s"] || bg["std_dev_s"] != 0.0 {
		t.Errorf("sampled %v (background %v), mean expansion %v: want equal, no spread", s["time_s"], bg, mean["time_s"])
	}
	if mean["exact"] != true || s["exact"] != false || !strings.HasPrefix(s["method"].(string), "simulation, 5 replications") || s["error_estimate"] == nil {
		t.Errorf("method/exact: %v %v / %v %v %v", mean["method"], mean["exact"], s["method"], s["exact"], s["error_estimate"])
	}
}

// TestTpnFlags: bad --background values and combinations are refused before any work,
// naming the flag (exit 2).
func TestTpnFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--background", "poisson"}, `--background "poisson": allowed mean (default) or sampled`},
		{[]string{"--background", "sampled", "--reps", "1"}, "--reps 1: want a whole number from 2"},
		{[]string{"--background", "sampled", "--atomic"}, "--atomic with --background sampled"},
		{[]string{"--advise", "--rule", "widest"}, `--rule "widest"`},
		{[]string{"--reps", "50"}, "--reps and --seed belong to --background sampled"},
	} {
		code, out, errs := cli(append([]string{"tpn", "--cluster", tpnEx + "cluster.yaml", tpnEx + "matmul.yaml"}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q, want %q", tc.args, code, errs, tc.want)
		}
	}
	dir := t.TempDir()
	net := filepath.Join(dir, "net.pnml")
	if code, _, errs := cli("tpn", "--cluster", tpnEx+"cluster.yaml", "--export-pnml", net, tpnEx+"matmul.yaml"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := cli("tpn", "--background", "sampled", net); code != 2 || !strings.Contains(errs, "needs a program and its cluster") {
		t.Errorf("sampled PNML: exit %d %q", code, errs)
	}
}

// TestTpnAdviseSizing: --advise's best mapping per number of workstations goes through the
// sizing rules; --rule fastest recommends the fastest mapping's workstation count, and the
// recommended mapping uses that many workstations.
func TestTpnAdviseSizing(t *testing.T) {
	for _, rule := range []string{"fastest", "balanced", "core-hours"} {
		doc := tpnJSON(t, "--advise", "--rule", rule, "--cluster", tpnEx+"cluster.yaml", tpnEx+"masterworker.yaml")
		adv, sz := doc["advice"].(map[string]any), doc["sizing"].(map[string]any)
		rec := sz["recommended"].(map[string]any)["config"].(map[string]any)
		used := map[any]bool{}
		for _, pl := range doc["sizing_allocation"].([]any) {
			used[pl.(map[string]any)["workstation"]] = true
		}
		if float64(len(used)) != rec["p"].(float64) {
			t.Errorf("%s: recommended p = %v but the mapping uses %d workstations", rule, rec["p"], len(used))
		}
		if rule == "fastest" && rec["time_s"] != adv["time_s"] {
			t.Errorf("fastest: recommended %v s, the advice's best %v s", rec["time_s"], adv["time_s"])
		}
	}
}

// TestTpnInterrupted: a cancelled context (Ctrl-C) stops the replications; with fewer than
// two finished there is no interval and no result, only the interruption.
func TestTpnInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	o := tpnOptions{Flags: tpnapp.Flags{Cluster: tpnEx + "cluster.yaml", Background: "sampled", Reps: 10, Seed: 1, Budget: 1,
		Sizing: app.SizingFlags{Rule: "balanced", Efficiency: 0.5, KneeGain: 0.1, Within: 0.1}}}
	o.out.format = "json"
	err := runTpn(ctx, o, tpnEx+"matmul.yaml", &out, io.Discard)
	if !errors.Is(err, context.Canceled) || out.Len() != 0 {
		t.Errorf("%v, printed %q", err, out.String())
	}
}

// TestTpnAdviseTradeOffRows (review P2-9): every number of workstations the advice searched
// is either a row of the sizing trade-off or named in a note saying why it is left out. On
// matmul.yaml p = 3 and p = 4 are no faster than p = 2 (package sizing's frontier keeps a p
// only when it is faster than every smaller p), so the note names them.
func TestTpnAdviseTradeOffRows(t *testing.T) {
	doc := tpnJSON(t, "--advise", "--cluster", tpnEx+"cluster.yaml", tpnEx+"matmul.yaml")
	rows := map[float64]bool{}
	for _, c := range doc["sizing"].(map[string]any)["trade_off"].([]any) {
		rows[c.(map[string]any)["p"].(float64)] = true
	}
	var notes []string
	for _, n := range doc["notes"].([]any) {
		notes = append(notes, n.(string))
	}
	all := strings.Join(notes, "\n")
	omitted := 0
	for _, k := range doc["advice"].(map[string]any)["by_workstations"].([]any) {
		p := k.(map[string]any)["workstations"].(float64)
		if rows[p] {
			continue
		}
		omitted++
		if !strings.Contains(all, "p = "+strconv.Itoa(int(p))+" (") {
			t.Errorf("p = %v searched but neither in the trade-off nor in a note:\n%s", p, all)
		}
	}
	if omitted == 0 {
		t.Error("matmul.yaml: expected dominated p (3, 4: no faster than p = 2) to be left out of the trade-off")
	}
}

// TestTpnAdviseBasis (review P2-8): with --background sampled the headline is the sampled
// mean, but the advice compares mappings by the mean-expansion run; the advice table's title
// and a note say so, and the note's given-mapping time is the mean-expansion time.
func TestTpnAdviseBasis(t *testing.T) {
	args := []string{"--advise", "--background", "sampled", "--reps", "8", "--cluster", tpnEx + "cluster.yaml", tpnEx + "matmul.yaml"}
	doc := tpnJSON(t, args...)
	me := doc["background"].(map[string]any)["mean_expansion_time_s"].(float64)
	if given := doc["advice"].(map[string]any)["given_time_s"].(float64); given != me {
		t.Errorf("advice's given time %v s, the mean-expansion run %v s", given, me)
	}
	found := false
	for _, n := range doc["notes"].([]any) {
		found = found || strings.Contains(n.(string), "compare mappings by the deterministic run with 002's mean expansion")
	}
	if !found {
		t.Error("no note saying the advice's basis")
	}
	code, txt, _ := cli(append([]string{"tpn"}, args...)...)
	if code != 0 || !strings.Contains(txt, "times with the mean expansion 1/(1 − U), not sampled") {
		t.Errorf("exit %d; advice title does not say its basis:\n%s", code, txt)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/app/demoapp"
	"github.com/clusterperf/clusterperf/report"
)

// TestExitCodes: 0 for success, 2 for bad input or usage, 3 for a model finding
// (saturation, deadlock, no convergence), by fault.ExitCode.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := tempWriter(t, dir)
	ok := write("ok.yaml", "classes: [{name: c, population: 3}]\nstations: [{name: cpu, demand: 0.1}]\n")
	bad := write("bad.yaml", "classes: [{name: c, population: -3}]\nstations: [{name: cpu, demand: 0.1}]\n")
	sat := write("sat.yaml", "classes: [{name: c, arrival_rate: 20}]\nstations: [{name: cpu, demand: 0.1}]\n")
	dead := write("dead.yaml", "processes:\n  - name: A\n    segments: [{recv: {from: B}}, {send: {to: B, bytes: 10}}]\n  - name: B\n    segments: [{recv: {from: A}}, {send: {to: A, bytes: 10}}]\n")
	big := write("big.yaml", "classes: [{name: c, population: 50}]\nstations: [{name: a, demand: 0.1}, {name: b, demand: 0.2}]\n")
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"solve", ok}, 0},
		{[]string{"solve", bad}, 2},
		{[]string{"solve", sat}, 3}, // saturation is a finding
		{[]string{"solve", filepath.Join(dir, "none.yaml")}, 2},
		{[]string{"solve"}, 2},
		{[]string{"solve", "--bogus", ok}, 2},
		{[]string{"nosuchcommand"}, 2},
		{[]string{"demo"}, 0},
		{[]string{"tpn", "--cluster", ex + "tpn/cluster.yaml", dead}, 3},         // deadlock
		{[]string{"solve", "--solver", "schweitzer", "--max-iter", "1", big}, 3}, // not converged
		{[]string{"solve", "--sweep", "arrival_rate.c=20:30:n3", sat}, 3},        // no point has a steady state
		{[]string{"tpn", "--cluster", ex + "tpn/cluster.yaml", "--max-time", "1e-9", ex + "tpn/matmul.yaml"}, 3}, // cut off
		{[]string{"--version"}, 0},
	} {
		var out, errb bytes.Buffer
		if got := run(context.Background(), tc.args, &out, &errb); got != tc.want {
			t.Errorf("clusterperf %v: exit %d, want %d (stderr %q)", tc.args, got, tc.want, errb.String())
		}
	}
}

// TestDemoSections: the demo runs every section on the embedded examples.
func TestDemoSections(t *testing.T) {
	var out bytes.Buffer
	if err := demoapp.Run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 7; i++ {
		if !strings.Contains(out.String(), fmt.Sprintf("== %d. ", i)) {
			t.Errorf("section %d missing", i)
		}
	}
	if !strings.Contains(out.String(), "10 cpu visits per interactive cycle") { // 1/0.10, see examples TestCentralServerRouting
		t.Error("routing section: visits not from the traffic equations")
	}
}

// TestDemoPipelineKnee (review P2-3): the demo's section 2 prints the knee and the
// recommendation the pipeline command prints for the same model and p range (the demo used
// to build its optimum table without sizing, showing knee p = 0). The expected rows are
// read from the command's own JSON, not hard-coded.
func TestDemoPipelineKnee(t *testing.T) {
	var demo bytes.Buffer
	if err := demoapp.Run(context.Background(), &demo); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Optimum struct {
			KneeP     int     `json:"knee_p"`
			KneeTimeS float64 `json:"knee_time_s"`
		} `json:"optimum"`
	}
	js := runOut(t, "pipeline", "../../examples/pipeline/sort.yaml", "--p", "1:11", "--format", "json")
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	if got.Optimum.KneeP < 1 {
		t.Fatalf("pipeline command's knee p = %d", got.Optimum.KneeP)
	}
	sec := demo.String()
	sec = sec[strings.Index(sec, "== 2. "):strings.Index(sec, "== 3. ")]
	re := regexp.MustCompile(`(?m)^\s*knee\s+(\d+)\s+(\S+)\s+\S`)
	m := re.FindStringSubmatch(sec)
	if m == nil {
		t.Fatalf("no knee row with a note in demo section 2:\n%s", sec)
	}
	if m[1] != strconv.Itoa(got.Optimum.KneeP) || m[2] != report.Num(got.Optimum.KneeTimeS) {
		t.Errorf("demo knee p = %s, %s s; pipeline command: p = %d, %s s", m[1], m[2], got.Optimum.KneeP, report.Num(got.Optimum.KneeTimeS))
	}
	if !strings.Contains(sec, "recommended (") {
		t.Error("demo section 2 has no sizing recommendation")
	}
}

// TestUsageMessages: a missing argument is named from the command's usage line, a misspelt
// command or flag gets a suggestion within edit distance 2 (cobra's SuggestionsFor; our
// editDistance), and each is bad input, exit 2 (hostile review: "accepts 1 arg(s), received
// 0" did not say MODEL.yaml; "slove" and "--sweeep" got no "did you mean").
func TestUsageMessages(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"solve"}, "solve: missing the argument MODEL.yaml|MODEL.jmva\n(see clusterperf help solve)"},
		{[]string{"fit"}, "fit: missing the argument DATA.csv"},
		{[]string{"queue"}, "queue: missing the argument MODEL"},
		{[]string{"tpn"}, "tpn: missing the argument (usage: clusterperf tpn PROGRAM.yaml"},
		{[]string{"solve", "a.yaml", "b.yaml"}, "solve: accepts 1 arg(s), received 2 (usage: clusterperf solve MODEL.yaml|MODEL.jmva [flags])"},
		{[]string{"slove", "m.yaml"}, `unknown command "slove" (did you mean solve?)`},
		{[]string{"zzzz"}, `unknown command "zzzz"` + "\n"},
		{[]string{"solve", "--sweeep", "x", "m.yaml"}, "unknown flag: --sweeep (did you mean --sweep?)"},
		{[]string{"queue", "--percentile", "50", "mm1"}, "(did you mean --percentiles?)"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), tc.args, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), tc.want) || out.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, errb.String(), tc.want)
		}
	}
}

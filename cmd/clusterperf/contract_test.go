package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"github.com/clusterperf/clusterperf/app/solveapp"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app/cubeapp"
	"github.com/clusterperf/clusterperf/app/fitapp"
	"github.com/clusterperf/clusterperf/app/historyapp"
	"github.com/clusterperf/clusterperf/app/mpipapp"
	"github.com/clusterperf/clusterperf/app/pipelineapp"
	"github.com/clusterperf/clusterperf/app/pmvaapp"
	"github.com/clusterperf/clusterperf/app/queueapp"
	"github.com/clusterperf/clusterperf/app/simapp"
	"github.com/clusterperf/clusterperf/app/speedupapp"
	"github.com/clusterperf/clusterperf/app/tpnapp"
	"github.com/clusterperf/clusterperf/report"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden and the schemas under docs/schema")

const ex = "../../examples/"

// contractCase is one command on one example. schema names docs/schema/<schema>.schema.json.
type contractCase struct {
	name, schema string
	args         []string
}

// contractCases: every command on every example it takes, with small sizes so the suite
// stays fast.
// Simulation is seeded; nothing timing-dependent is printed.
func contractCases() []contractCase {
	var cs []contractCase
	add := func(name, schema string, args ...string) { cs = append(cs, contractCase{name, schema, args}) }
	qnFiles, _ := filepath.Glob(ex + "qn/*.yaml")
	keck, _ := filepath.Glob(ex + "keck/*.yaml")
	for _, f := range append(qnFiles, keck...) {
		add("solve-"+strings.TrimSuffix(filepath.Base(f), ".yaml"), "solve", "solve", f)
	}
	add("solve-validate-cg-a-4", "solve", "solve", "--validate", "--solver", "schweitzer", "--reps", "3", "--events", "4000", ex+"keck/cg-a-4.yaml")
	add("solve-sweep-central-server", "solve-sweep", "solve", "--sweep", "population=1:6", ex+"qn/central-server.yaml")
	add("solve-sweep-measured-cg-a-4", "solve-sweep", "solve", "--sweep", "population=1:6", "--measured", "testdata/solve/cg-a-4-measured.csv", ex+"keck/cg-a-4.yaml")
	add("solve-jmva-central", "solve", "solve", "--distribution", "cpu", ex+"jmt/central.jmva")
	add("solve-jmva-ld-whatif", "solve-sweep", "solve", ex+"jmt/ld.jmva")
	add("solve-distribution-disk-group", "solve", "solve", "--distribution", "disk", "../../testdata/models/disk-group.yaml")
	add("simulate-central-server", "simulate", "simulate", "--reps", "3", "--events", "4000", ex+"qn/central-server.yaml")
	add("solve-mvablo-finite-capacity", "solve", "solve", "--solver", "mvablo", ex+"qn/finite-capacity.yaml")
	add("simulate-precision", "simulate", "simulate", "--precision", "0.2", "--reps", "2", "--events", "4000", ex+"qn/central-server.yaml")
	add("simulate-class-switch", "simulate", "simulate", "--reps", "3", "--events", "4000", ex+"qn/class-switch.yaml")
	add("simulate-finite-capacity", "simulate", "simulate", "--reps", "3", "--events", "4000", ex+"qn/finite-capacity.yaml")
	add("simulate-fig59-bus", "simulate", "simulate", "--reps", "3", "--cycles", "100", "--p", "4", "--d", "2", ex+"spmd/fig59-bus.yaml")
	for _, f := range []string{"btio", "fig59-bus", "fig59-clu", "hybrid", "optimistic-aio", "optimistic-sio", "pmva", "qcrd", "qcrd2-thesis"} {
		add("speedup-"+f, "speedup", "speedup", "--p", "1:6", "--d", "1:2", ex+"spmd/"+f+".yaml")
	}
	add("speedup-validate-fig59-bus", "speedup", "speedup", "--p", "2:4", "--validate", "--reps", "2", "--cycles", "50", ex+"spmd/fig59-bus.yaml")
	for _, f := range []string{"sort", "sort-5m", "sort-10m"} {
		add("pipeline-"+f, "pipeline", "pipeline", "--p", "1:11", "--measured", ex+"pipeline/"+f+".csv", ex+"pipeline/"+f+".yaml")
	}
	add("pipeline-fit-sort", "pipeline", "pipeline", "--p", "1:11", "--measured", ex+"pipeline/sort.csv", "--fit", "c_m,b_gather", ex+"pipeline/sort.yaml")
	add("fit-qcrd", "fit", "fit", "--predict", "128x32", ex+"fit/qcrd.yaml", ex+"fit/qcrd.csv")
	add("mpip-driver8", "mpip", "mpip", "--latency", "50us", "--bandwidth", "1GB/s", ex+"mpip/hpc-mpip__driver.8.253.1.mpiP")
	add("mpip-driver8-profile", "mpip", "mpip", ex+"mpip/hpc-mpip__driver.8.253.1.mpiP")
	// 004 appendix B: the collected values of NAS CG A–D, each row solved with its own BW and
	// Lat, reproduce the appendix's model outputs and validation views (mpip.TestKeckAppendixFromCSV)
	for _, c := range []string{"a", "b", "c", "d"} {
		add("mpip-keck-cg-"+c, "mpip", "mpip", ex+"mpip/keck_cg_"+c+".csv")
	}
	add("mpip-keck-cg-a-calibrate", "mpip", "mpip", "--calibrate", "--predict", "128", ex+"mpip/keck_cg_a.csv")
	// the network from netbench's generated OSU outputs (a known model, not measurements)
	add("mpip-driver8-osu", "mpip", "mpip", "--osu", "../../netbench/testdata/osu_latency.txt", "--osu", "../../netbench/testdata/osu_bw.txt", ex+"mpip/hpc-mpip__driver.8.253.1.mpiP")
	// 004's FT case (issue 33): a synthetic Alltoall-bound report, the collective's idle part as wait
	add("mpip-ft-wait-ops", "mpip", "mpip", "--latency", "10us", "--bandwidth", "1GB/s", "--collectives", "--wait-ops", "Alltoall", "../../mpip/testdata/ft-alltoall.4.1.1.mpiP")
	amg, _ := filepath.Glob("../../mpip/testdata/samples/mpiP_cm__amg2013.*.mpiP")
	add("mpip-amg-calibrate", "mpip", append([]string{"mpip", "--calibrate", "--predict", "128"}, amg...)...)
	for _, f := range []string{"masterworker", "matmul", "pipeline"} {
		add("tpn-"+f, "tpn", "tpn", "--cluster", ex+"tpn/cluster.yaml", ex+"tpn/"+f+".yaml")
	}
	add("tpn-advise-matmul", "tpn", "tpn", "--advise", "--budget", "50", "--cluster", ex+"tpn/cluster.yaml", ex+"tpn/matmul.yaml")
	// the network measured (issue 33): ten sampled runs of t_s and B, and netbench's OSU outputs
	add("tpn-matmul-measured", "tpn", "tpn", "--cluster", ex+"tpn/cluster-measured.yaml", ex+"tpn/matmul.yaml")
	add("tpn-sampled-matmul-classes", "tpn", "tpn", "--background", "sampled", "--reps", "20", "--seed", "3", "--cluster", ex+"tpn/cluster-classes.yaml", ex+"tpn/matmul.yaml")
	add("tpn-sampled-masterworker", "tpn", "tpn", "--background", "sampled", "--reps", "20", "--seed", "3", "--cluster", ex+"tpn/cluster.yaml", ex+"tpn/masterworker.yaml")
	scalingData, _ := filepath.Glob("../../testdata/scaling/*.csv")
	for _, f := range scalingData {
		// fit DATA.csv (alias extrapolate); wavetrisk_bbserv_2560 included: the sizing grid
		// follows the data (p ≥ 2) where c0 + c1·p^(-4/3)·log2(p) is finite
		add("extrapolate-"+strings.TrimSuffix(filepath.Base(f), ".csv"), "fit-data", "fit", "--predict", "256", f)
	}
	// Extra-P experiments (one and two parameters) and p,n,time data: the new-user review of
	// 2026-11-27 found `fit experiment2.txt` printing no answer; these cases hold every form of fit.
	add("fit-extrap-experiment2", "fit-extrap", "fit", "../../extrap/testdata/experiment2.txt")
	add("fit-extrap-relearn", "fit-extrap", "fit", "../../extrap/testdata/relearn_data.txt")
	add("fit-pn-relearn", "fit-pn", "fit", "--predict", "1024x2e4", "../../testdata/scaling_pn/relearn_main.csv")
	add("extrapolate-alias-wavetrisk_bbserv_640", "fit-data", "extrapolate", "--rule", "core-hours", "../../testdata/scaling/wavetrisk_bbserv_640.csv")
	for _, q := range [][]string{
		{"M/M/1", "--lambda", "8", "--mu", "10"},
		{"M/M/4", "--lambda", "30", "--service-time", "0.1", "--percentiles", "50,95,99.9"},
		{"M/M/2/10", "--lambda", "3", "--mu", "2"},
		{"M/G/1", "--lambda", "0.8", "--mu", "1", "--scv", "0"},
		{"erlangb", "--load", "50", "--servers", "60"},
		{"hetero", "--lambda", "73", "--mus", "10,15,20,20,25"},
	} {
		add("queue-"+strings.NewReplacer("/", "-").Replace(q[0]), "queue", append([]string{"queue"}, q...)...)
	}
	// pmva: formulas only (--q, --k); the timed runs are not deterministic (pmva_test.go)
	add("pmva-thesis-formulas", "pmva", "pmva", "--q", "16us", "--k", "100us", "--workers", "1,2,4,64,512", "--algorithm", "pipelined", "../../pmva/testdata/thesis-network.yaml")
	// history: a saved sacct output of 31 jobs of two programs (history/testdata, generated
	// by its gen script from known laws) with timeouts, failures and cancellations
	add("history-two-programs", "history", "history", "--predict", "128,256", "../../history/testdata/sacct-two-programs.txt")
	add("history-two-programs-cg", "history", "history", "--study", "3", "../../history/testdata/sacct-two-programs.txt")
	// cube: real Score-P profiles (cube/testdata, copied from shared/data/cube)
	add("cube-profile-mm-x10", "cube", "cube", "../../cube/testdata/single_parameter/mm.x10y1z1.r1/profile.cubex")
	add("cube-profile-threaded", "cube", "cube", "../../cube/testdata/simple_threaded/example.f1/cube-example1.cubex")
	add("cube-set-single-parameter", "cube", "cube", "--metric", "time,visits", "../../cube/testdata/single_parameter")
	// two parameters modelled jointly (scaling.FitPN), the matrix sizes x and y (issue 31)
	add("cube-set-multi-parameter", "cube", "cube", "--metric", "time", "../../cube/testdata/multi_parameter_z1")
	// a real weak-scaling set over p and a problem size: LULESH, 25 Score-P profiles (issue 31)
	add("cube-set-lulesh", "cube", "cube", "--metric", "time", "../../cube/testdata/lulesh")
	// MPI time and bytes per call path → 004's model (a synthetic profile: the samples have no MPI)
	add("cube-mpi-synthetic", "cube", "cube", "--latency", "1us", "--bandwidth", "1GB/s", "../../cube/testdata/synthetic-mpi.cubex")
	return cs
}

// resultTypes: the result value of every schema; the schema files are generated from them
// (report.Schema), so a new field in a library struct shows up as a reviewed schema diff.
var resultTypes = map[string]reflect.Type{
	"solve":       reflect.TypeFor[solveResult](),
	"solve-sweep": reflect.TypeFor[solveapp.SweepResult](),
	"simulate":    reflect.TypeFor[simapp.Result](),
	"speedup":     reflect.TypeFor[speedupapp.Result](),
	"pipeline":    reflect.TypeFor[pipelineapp.Result](),
	"fit":         reflect.TypeFor[fitapp.Result](),
	"mpip":        reflect.TypeFor[mpipapp.Result](),
	"tpn":         reflect.TypeFor[tpnapp.Result](),
	"queue":       reflect.TypeFor[queueapp.Result](),
	"fit-data":    reflect.TypeFor[fitapp.ScalingResult](),
	"fit-extrap":  reflect.TypeFor[fitapp.ExtrapResult](),
	"fit-pn":      reflect.TypeFor[fitapp.PNResult](),
	"pmva":        reflect.TypeFor[pmvaapp.Result](),
	"history":     reflect.TypeFor[historyapp.Result](),
	"cube":        reflect.TypeFor[cubeapp.Result](),
	"finding":     reflect.TypeFor[answer.FindingResult](),
}

const schemaDir = "../../docs/schema"

// pendingKeys: result types that still carry a library struct whose JSON keys are not
// snake_case, with the owner who is renaming them. TestSchemas fails once the keys are
// fixed, so the entry is removed and the strict check applies again.
var pendingKeys = map[string]string{}

// pendingNotes: result types whose notes array the library leaves out when empty.
var pendingNotes = map[string]string{}

// TestSchemas: docs/schema holds exactly the schema of every result type (snake_case keys
// enforced by report.Schema).
func TestSchemas(t *testing.T) {
	for name, typ := range resultTypes {
		title := "clusterperf " + strings.ReplaceAll(name, "-", " --") + " --format json"
		s, err := report.Schema(title, typ)
		if why, ok := pendingKeys[name]; ok {
			if err == nil {
				t.Errorf("%s: keys are snake_case now: remove it from pendingKeys", name)
			}
			t.Logf("%s: pending: %s (%v)", name, why, err)
			s, err = report.SchemaLax(title, typ)
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		req, _ := s["required"].([]string)
		switch why, pending := pendingNotes[name]; {
		case pending && slices.Contains(req, "notes"):
			t.Errorf("%s: notes is required now: remove it from pendingNotes", name)
		case pending:
			t.Logf("%s: pending: %s", name, why)
		case !slices.Contains(req, "notes"):
			t.Errorf("%s: the result has no required notes array", name)
		}
		want, _ := json.MarshalIndent(s, "", "  ")
		want = append(want, '\n')
		compareGolden(t, filepath.Join(schemaDir, name+".schema.json"), want)
	}
}

// TestContract: every command × example × format exits 0; JSON is one document valid
// against the command's schema; CSV is one rectangular table; all three match their golden
// files (go test ./cmd/clusterperf -run TestContract -update rewrites them).
func TestContract(t *testing.T) {
	for _, c := range contractCases() {
		for _, format := range []string{"table", "json", "csv"} {
			t.Run(c.name+"/"+format, func(t *testing.T) {
				var out, errb bytes.Buffer
				args := append([]string{c.args[0], "--format", format}, c.args[1:]...)
				if code := run(context.Background(), args, &out, &errb); code != 0 {
					t.Fatalf("clusterperf %v: exit %d: %s", args, code, errb.String())
				}
				checkFormat(t, c.schema, format, out.Bytes())
				ext := map[string]string{"table": "txt", "json": "json", "csv": "csv"}[format]
				compareGolden(t, filepath.Join("testdata", "golden", c.name+"."+ext), out.Bytes())
			})
		}
	}
}

func checkFormat(t *testing.T, schema, format string, out []byte) {
	t.Helper()
	switch format {
	case "json":
		b, err := os.ReadFile(filepath.Join(schemaDir, schema+".schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		var s map[string]any
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if err := report.ValidateJSON(s, out); err != nil {
			t.Errorf("schema %s: %v", schema, err)
		}
	case "csv":
		r := csv.NewReader(bytes.NewReader(out)) // FieldsPerRecord 0: every row as wide as the header
		recs, err := r.ReadAll()
		if err != nil || len(recs) < 2 {
			t.Errorf("not one CSV table with a header and rows: %v (%d records)", err, len(recs))
		}
	}
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (run with -update after reviewing):\n%s", path, firstDiff(string(want), string(got)))
	}
}

func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strings.Repeat("", 0) + itoa(i+1) + ":\n- " + w + "\n+ " + g
		}
	}
	return ""
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

package explore

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/mpip"
)

const (
	driverReport = "../examples/mpip/hpc-mpip__driver.8.253.1.mpiP"
	cgACSV       = "../examples/mpip/keck_cg_a.csv"
	amgPrefix    = "../mpip/testdata/samples/mpiP_cm__amg2013."
)

var amgReports = []string{amgPrefix + "16.5362.1.mpiP", amgPrefix + "32.5386.1.mpiP", amgPrefix + "64.5412.1.mpiP"}

func loadMpipFiles(t *testing.T, o MpipOptions, paths ...string) Model {
	t.Helper()
	var ds [][]byte
	for _, p := range paths {
		ds = append(ds, read(t, p))
	}
	m, err := LoadMpip(paths, ds, o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// summaryInputs are a report's collected values with a network, computed without explore.
func summaryInputs(t *testing.T, path string, lat, bw float64) mpip.Inputs {
	t.Helper()
	rep, err := mpip.Parse(path, bytes.NewReader(read(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := rep.Summarize(mpip.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return mpip.InputsFrom(s, lat, bw)
}

func relDiff(a, b float64) float64 { return math.Abs(a-b) / math.Max(math.Abs(b), 1e-300) }

// One report with the network given: the explorer's wall time and components are
// mpip.Solve's on the report's summary with that network (the library, called directly), and
// the four per-process components add up to the wall time AT = R·M/P (004: the components
// split R·M, which is AT·P).
func TestMpipGivenNetwork(t *testing.T) {
	m := loadMpipFiles(t, MpipOptions{LatencyS: 5e-6, BandwidthBytesPerS: 2e8}, driverReport)
	for _, lat := range []float64{5e-6, 1e-5} {
		_, r := evalAt(t, m, Values{"latency": lat})
		want, err := mpip.Solve(summaryInputs(t, driverReport, lat, 2e8))
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Values["wall_time_s"]; relDiff(got, want.AppTime.Model) > 1e-12 {
			t.Errorf("lat %g: wall time %v, mpip.Solve %v", lat, got, want.AppTime.Model)
		}
		sum := r.Values["switch_delay_s"] + r.Values["mpi_contention_s"] + r.Values["mpi_active_s"] + r.Values["computation_s"]
		if relDiff(sum, r.Values["wall_time_s"]) > 1e-9 {
			t.Errorf("components add up to %v, wall time %v", sum, r.Values["wall_time_s"])
		}
		// one run: the charts against bandwidth and latency, no by-P chart of a single point
		if !r.Exact || r.ErrorEstimate != nil || r.Bottleneck == "" || r.Best == "" || len(r.Charts) != 2 {
			t.Errorf("exact %v, estimate %v, bottleneck %q, best %q, %d charts", r.Exact, r.ErrorEstimate, r.Bottleneck, r.Best, len(r.Charts))
		}
	}
}

// Without a network, a single report's latency is fitted so that the model reproduces the
// measured wall time (mpip.Calibrate's implied switch delay: rel_error 0 up to its bisection),
// with the bandwidth assumption stated in the notes.
func TestMpipCalibratedDefault(t *testing.T) {
	m := loadMpipFiles(t, MpipOptions{}, driverReport)
	_, r := evalAt(t, m, nil)
	if e := r.Values["rel_error"]; math.Abs(e) > 1e-6 {
		t.Errorf("calibrated model's rel_error %v, want 0", e)
	}
	if !strings.Contains(strings.Join(r.Notes, " "), "assumed") {
		t.Errorf("notes do not state the bandwidth assumption: %q", r.Notes)
	}
}

// Three reports at P = 16, 32, 64: at a P not measured the explorer gives mpip.Predict's
// wall time with the same network (the library, called directly), says it is not exact and
// why no interval; at a measured P the measured run's model, exact.
func TestMpipPredicted(t *testing.T) {
	m := loadMpipFiles(t, MpipOptions{LatencyS: 2e-5, BandwidthBytesPerS: 1e9}, amgReports...)
	var runs []mpip.Inputs
	for _, p := range amgReports {
		runs = append(runs, summaryInputs(t, p, 2e-5, 1e9))
	}
	pr, err := mpip.Predict(runs, mpip.ConstNetwork(2e-5, 1e9), []int{100}, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	v, r := evalAt(t, m, Values{"p": 100})
	if relDiff(r.Values["wall_time_s"], pr[0].Result.AppTime.Model) > 1e-12 || r.Exact {
		t.Errorf("P = 100: wall time %v exact %v, mpip.Predict %v", r.Values["wall_time_s"], r.Exact, pr[0].Result.AppTime.Model)
	}
	if !strings.Contains(strings.Join(r.Notes, " "), "no interval") {
		t.Errorf("three runs: the notes should say why there is no interval: %q", r.Notes)
	}
	v["p"] = 32
	r, err = m.Eval(v)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := mpip.Solve(runs[1])
	if relDiff(r.Values["wall_time_s"], want.AppTime.Model) > 1e-12 || !r.Exact {
		t.Errorf("P = 32: wall time %v exact %v, mpip.Solve %v", r.Values["wall_time_s"], r.Exact, want.AppTime.Model)
	}
	// AMG2013's runs have different arguments (a process grid that grows with P: weak
	// scaling): the mpip command refuses to size them (mpipapp.Refusal), and so does the page
	// (issue 28: it showed "P = 2", eight times below the smallest measured run)
	if _, ok := r.Values["best_p"]; ok || !strings.HasPrefix(r.Best, "no recommended P: the runs have different arguments") {
		t.Errorf("weak-scaling runs sized: best %q, best_p %v", r.Best, r.Values["best_p"])
	}
	if len(r.Warnings) == 0 || !strings.Contains(strings.Join(r.Warnings, " "), "no sizing") {
		t.Errorf("the refusal is not among the warnings: %q", r.Warnings)
	}
}

// A CSV of 004's collected values: with the sliders at 1 each run is solved with its own
// network (as `clusterperf mpip keck_cg_a.csv` does); the saved file reads back (ReadInputs)
// into the same model; a factor scales every run's network.
func TestMpipCSVAndSave(t *testing.T) {
	m := loadMpipFiles(t, MpipOptions{}, cgACSV)
	ins, err := mpip.ReadInputs(cgACSV, bytes.NewReader(read(t, cgACSV)))
	if err != nil {
		t.Fatal(err)
	}
	v, r := evalAt(t, m, Values{"bandwidth": 2})
	last := ins[len(ins)-1]
	last.BW *= 2
	want, _ := mpip.Solve(last)
	if relDiff(r.Values["wall_time_s"], want.AppTime.Model) > 1e-12 {
		t.Errorf("bandwidth ×2: wall time %v, mpip.Solve %v", r.Values["wall_time_s"], want.AppTime.Model)
	}
	b, name, err := m.File(v)
	if err != nil || !strings.HasSuffix(name, ".csv") {
		t.Fatal(err, name)
	}
	m2, err := LoadMpip([]string{name}, [][]byte{b}, MpipOptions{})
	if err != nil {
		t.Fatalf("saved file does not read back: %v\n%s", err, b)
	}
	v2, _ := Check(m2.Params(), nil)
	r2, err := m2.Eval(v2)
	if err != nil {
		t.Fatal(err)
	}
	if relDiff(r2.Values["wall_time_s"], r.Values["wall_time_s"]) > 1e-12 {
		t.Errorf("saved point gives %v s, the explored point %v s", r2.Values["wall_time_s"], r.Values["wall_time_s"])
	}
}

// Bad combinations are refused as input errors naming what is allowed.
func TestMpipLoadErrors(t *testing.T) {
	for _, c := range []struct {
		paths []string
		o     MpipOptions
	}{
		{[]string{driverReport, cgACSV}, MpipOptions{}},
		{[]string{driverReport, amgReports[0]}, MpipOptions{}},
		{[]string{driverReport}, MpipOptions{LatencyS: 1e-6}},
		{[]string{driverReport}, MpipOptions{LatencyS: math.NaN(), BandwidthBytesPerS: 1}},
		{[]string{cgACSV}, MpipOptions{LatencyS: 1e-6, BandwidthBytesPerS: 1e9}},
		{nil, MpipOptions{}},
	} {
		var ds [][]byte
		for _, p := range c.paths {
			ds = append(ds, read(t, p))
		}
		if _, err := LoadMpip(c.paths, ds, c.o); !errors.Is(err, fault.ErrInput) {
			t.Errorf("%v %+v: err = %v, want an input error", c.paths, c.o, err)
		}
	}
	if _, err := Load("x.mpiP", []byte("@ mpiP\n@ Command : ./a\n"), "", nil); !errors.Is(err, fault.ErrInput) {
		t.Errorf("a truncated report: err = %v, want an input error", err)
	}
}

// Two reports (P = 16, 32) allow no prediction: the P slider is replaced by the choice of
// the measured run, whose model is mpip.Solve's; the charts show the measured runs only.
func TestMpipTwoRuns(t *testing.T) {
	m := loadMpipFiles(t, MpipOptions{LatencyS: 2e-5, BandwidthBytesPerS: 1e9}, amgReports[:2]...)
	ids := map[string]Param{}
	for _, p := range m.Params() {
		ids[p.ID] = p
	}
	if _, ok := ids["p"]; ok {
		t.Fatalf("two runs: a P slider, but no prediction is possible")
	}
	if r, ok := ids["run"]; !ok || r.Min != 1 || r.Max != 2 || !r.Integer {
		t.Fatalf("run parameter %+v", r)
	}
	_, r := evalAt(t, m, Values{"run": 1})
	want, err := mpip.Solve(summaryInputs(t, amgReports[0], 2e-5, 1e9))
	if err != nil {
		t.Fatal(err)
	}
	if r.Values["p"] != 16 || relDiff(r.Values["wall_time_s"], want.AppTime.Model) > 1e-12 || !r.Exact {
		t.Errorf("run 1: P %v wall time %v exact %v, want P 16, %v (mpip.Solve)", r.Values["p"], r.Values["wall_time_s"], r.Exact, want.AppTime.Model)
	}
	for _, c := range r.Charts {
		if c.ID == "wall" && len(c.Series[0].X) != 2 {
			t.Errorf("wall-time chart has %d points, want the 2 measured runs", len(c.Series[0].X))
		}
	}
}

// Five runs at different P give mpip.Predict's Monte Carlo interval: at a P not measured the
// explorer states an error estimate, the half-width of that 95 % interval relative to its
// median, equal to the library's with the same samples and seed. (Synthetic collected values
// near power laws in P, with a few per cent of scatter so the interval is not empty.)
func TestMpipInterval(t *testing.T) {
	csv := "label,P,App_Time,MPI_Time,MPI_Wait,M,L,BW,Lat\n"
	scatter := []float64{1.03, 0.97, 1.02, 0.99, 1.04}
	for i, p := range []float64{4, 8, 16, 32, 64} {
		app := 100 * math.Pow(p, 0.3) * scatter[i]
		mpi := 0.2 * app * math.Pow(p/4, 0.2)
		csv += fmt.Sprintf("syn,%g,%g,%g,%g,%g,%g,1e9,5e-6\n", p, app, mpi, 0.4*mpi, 1000*p*scatter[4-i], 4096.0)
	}
	m, err := LoadMpip([]string{"syn.csv"}, [][]byte{[]byte(csv)}, MpipOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, r := evalAt(t, m, Values{"p": 128})
	ins, err := mpip.ReadInputs("syn.csv", strings.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	pr, err := mpip.Predict(ins, mpip.ConstNetwork(5e-6, 1e9), []int{128}, samplesAt(128), 1)
	if err != nil {
		t.Fatal(err)
	}
	if !pr[0].Interval {
		t.Fatalf("the library gives no interval with five runs: %s", pr[0].Note)
	}
	est, ok := r.ErrorEstimate.(map[string]any)
	if !ok || r.Exact {
		t.Fatalf("exact %v, error estimate %#v", r.Exact, r.ErrorEstimate)
	}
	want := (pr[0].ATHigh - pr[0].ATLow) / 2 / pr[0].ATMedian
	if got, _ := est["rel_error"].(float64); relDiff(got, want) > 1e-12 || !(want > 0) {
		t.Errorf("rel_error %v, the library's interval gives %v", est["rel_error"], want)
	}
}

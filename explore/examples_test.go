package explore

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/clusterperf/clusterperf/htmlreport"
	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/pipeline"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/spmd"
	"github.com/clusterperf/clusterperf/tpn"
)

// cell is a number the page must show: in the table titled Table (prefix), the row whose
// first cell is Row, the column named Col; Want is the library's value at the point,
// computed in the test without the explorer's code.
type cell struct {
	Table, Row, Col string
	Want            float64
}

// example is one model of examples/ with a parameter to move (slider: the range input;
// otherwise the number input) and the library's numbers at the moved point.
type example struct {
	name, file, cluster string
	more                []string // further files (mpiP reports of the same program)
	param               string
	value               float64
	slider              bool
	want                func(t *testing.T) []cell
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func qnCells(t *testing.T, path string, edit func(m *qn.Model)) []cell {
	m, _, err := qn.ParseModel(path, read(t, path))
	if err != nil {
		t.Fatal(err)
	}
	edit(m)
	r, err := qn.Solve(context.Background(), m, "auto", qn.AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []cell
	for c, cl := range m.Classes {
		out = append(out, cell{"Classes", cl.Name, "throughput_per_s", r.Throughput[c]}, cell{"Classes", cl.Name, "response_time_s", r.ResponseTime[c]})
	}
	for k, st := range m.Stations {
		out = append(out, cell{"Stations", st.Name, "utilization", r.StationUtilization(k)})
	}
	return out
}

func spmdCells(t *testing.T, path string, p, d int) []cell {
	m, err := spmd.ParseModel(path, read(t, path))
	if err != nil {
		t.Fatal(err)
	}
	e, err := spmd.NewEvaluator(m)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := e.Evaluate(p, d)
	if err != nil {
		t.Fatal(err)
	}
	row := fmt.Sprint(p)
	return []cell{{"Speedup", row, "time (s)", pt.Time}, {"Speedup", row, "speedup", pt.Speedup}, {"Speedup", row, "efficiency", pt.Efficiency},
		{"Time at", "cpu", "time (s)", pt.Components.CPU}, {"Time at", "io", "time (s)", pt.Components.IO}}
}

var examples = []example{
	{name: "keck-cg-a-4", file: "../examples/keck/cg-a-4.yaml", param: "pop.0", value: 8, slider: true, want: func(t *testing.T) []cell {
		return qnCells(t, "../examples/keck/cg-a-4.yaml", func(m *qn.Model) { m.Classes[0].Population = 8 })
	}},
	{name: "central-server", file: "../examples/qn/central-server.yaml", param: "rate.1", value: 1.25, want: func(t *testing.T) []cell {
		return qnCells(t, "../examples/qn/central-server.yaml", func(m *qn.Model) { m.Classes[1].ArrivalRate = 1.25 })
	}},
	{name: "spmd-hybrid", file: "../examples/spmd/hybrid.yaml", param: "p", value: 32, slider: true, want: func(t *testing.T) []cell {
		return spmdCells(t, "../examples/spmd/hybrid.yaml", 32, 4)
	}},
	{name: "spmd-btio", file: "../examples/spmd/btio.yaml", param: "p", value: 9, slider: true, want: func(t *testing.T) []cell {
		return spmdCells(t, "../examples/spmd/btio.yaml", 9, 4)
	}},
	{name: "pipeline-sort", file: "../examples/pipeline/sort.yaml", param: "p", value: 6, slider: true, want: func(t *testing.T) []cell {
		m, _, err := pipeline.ParseModel("sort.yaml", read(t, "../examples/pipeline/sort.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		pt := m.Predict(6)
		out := []cell{{"Stages", "total", "time (s)", pt.Time}}
		for _, s := range pt.Stages {
			out = append(out, cell{"Stages", s.Stage, "time (s)", s.Time}, cell{"Stages", s.Stage, "rate (elements/s)", s.Rate})
		}
		return out
	}},
	{name: "tpn-matmul", file: "../examples/tpn/matmul.yaml", cluster: "../examples/tpn/cluster.yaml", param: "net.bandwidth", value: 2.5e6, want: func(t *testing.T) []cell {
		return tpnCells(t, "../examples/tpn/matmul.yaml", "../examples/tpn/cluster.yaml", 2.5e6)
	}},
	{name: "tpn-mw48", file: "testdata/mw48.yaml", cluster: "testdata/cluster8.yaml", param: "net.bandwidth", value: 2.5e6, want: func(t *testing.T) []cell {
		return tpnCells(t, "testdata/mw48.yaml", "testdata/cluster8.yaml", 2.5e6)
	}},
	// mpiP: one report, latency typed (the bandwidth is the assumed default: the runs' one
	// message size cannot separate it)
	{name: "mpip-driver", file: driverReport, param: "latency", value: 5e-5, want: func(t *testing.T) []cell {
		r, err := mpip.Solve(summaryInputs(t, driverReport, 5e-5, defaultBandwidth))
		if err != nil {
			t.Fatal(err)
		}
		return mpipCells(r, true)
	}},
	// three AMG2013 reports (P = 16, 32, 64): the P slider to 100, a prediction
	{name: "mpip-amg", file: amgReports[0], more: amgReports[1:], param: "p", value: 100, slider: true, want: func(t *testing.T) []cell {
		var runs []mpip.Inputs
		for _, p := range amgReports {
			runs = append(runs, summaryInputs(t, p, 0, defaultBandwidth))
		}
		c, err := mpip.Calibrate(runs, mpip.CalibrateOptions{BandwidthBytesPerS: defaultBandwidth})
		if err != nil {
			t.Fatal(err)
		}
		for i := range runs {
			runs[i].Lat = c.LatencyS
		}
		pr, err := mpip.Predict(runs, mpip.ConstNetwork(c.LatencyS, defaultBandwidth), []int{100}, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		return mpipCells(pr[0].Result, false)
	}},
	// 004's CG A collected values: the bandwidth slider to 2× each run's
	{name: "mpip-cg-a", file: cgACSV, param: "bandwidth", value: 2, slider: true, want: func(t *testing.T) []cell {
		ins, err := mpip.ReadInputs(cgACSV, bytes.NewReader(read(t, cgACSV)))
		if err != nil {
			t.Fatal(err)
		}
		last := ins[len(ins)-1]
		last.BW *= 2
		r, err := mpip.Solve(last)
		if err != nil {
			t.Fatal(err)
		}
		return mpipCells(r, true)
	}},
}

func tpnCells(t *testing.T, progPath, clusterPath string, bw float64) []cell {
	prog, err := tpn.ParseProgram(progPath, read(t, progPath))
	if err != nil {
		t.Fatal(err)
	}
	cl, err := tpn.ParseCluster(clusterPath, read(t, clusterPath))
	if err != nil {
		t.Fatal(err)
	}
	cl.Network.Bandwidth = bw
	net, err := tpn.Build(prog, cl)
	if err != nil {
		t.Fatal(err)
	}
	res, err := net.Run(tpn.Options{Record: true})
	if err != nil || res.Outcome != tpn.Completed {
		t.Fatal(err, res.Outcome)
	}
	times, _ := tpn.Times(net, res)
	var out []cell
	for _, p := range times {
		out = append(out, cell{"Processes", p.Name, "finish (s)", p.Finish}, cell{"Processes", p.Name, "computing (s)", p.Computing})
	}
	return out
}

// mpipCells are the 004 components per process (Components / P, 004's graphical views) and
// the wall time AT = R·M/P of a solved run; measured: also its row of the runs table.
func mpipCells(r *mpip.Result, measured bool) []cell {
	P := float64(r.Inputs.P)
	tb := fmt.Sprintf("Wall time at P = %d", r.Inputs.P)
	out := []cell{
		{tb, "switch delay", "time (s)", r.Model.SwitchDelay / P},
		{tb, "MPI contention", "time (s)", r.Model.MPIContention / P},
		{tb, "MPI active", "time (s)", r.Model.MPIActive / P},
		{tb, "computation", "time (s)", r.Model.Compute / P},
		{tb, "wall time AT = R·M/P", "time (s)", r.AppTime.Model},
	}
	if measured {
		row := strconv.Itoa(r.Inputs.P)
		out = append(out, cell{"Measured runs", row, "wall time model (s)", r.AppTime.Model}, cell{"Measured runs", row, "wall time measured (s)", r.AppTime.Observed})
	}
	return out
}

// evalAt checks the values in against m's parameters (Check) and evaluates m there,
// failing t on an error; it returns the checked values and the result.
func evalAt(t testing.TB, m Model, in Values) (Values, *Result) {
	t.Helper()
	v, err := Check(m.Params(), in)
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Eval(v)
	if err != nil {
		t.Fatal(err)
	}
	return v, r
}

func loadExample(t testing.TB, ex example) Model {
	t.Helper()
	data, err := os.ReadFile(ex.file)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.more) > 0 {
		paths, datas := []string{ex.file}, [][]byte{data}
		for _, p := range ex.more {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			paths, datas = append(paths, p), append(datas, b)
		}
		m, err := LoadMpip(paths, datas, MpipOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	var cdata []byte
	if ex.cluster != "" {
		if cdata, err = os.ReadFile(ex.cluster); err != nil {
			t.Fatal(err)
		}
	}
	m, err := Load(ex.file, data, ex.cluster, cdata)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// find returns the cell text of c in the tables, or an error saying what is missing.
func find(tables []htmlreport.Table, c cell) (string, error) {
	for _, tb := range tables {
		if len(tb.Title) < len(c.Table) || tb.Title[:len(c.Table)] != c.Table {
			continue
		}
		col := -1
		for i, h := range tb.Header {
			if h == c.Col {
				col = i
			}
		}
		if col < 0 {
			return "", fmt.Errorf("table %q has no column %q (%v)", tb.Title, c.Col, tb.Header)
		}
		for _, r := range tb.Rows {
			if len(r) > col && r[0] == c.Row {
				return r[col], nil
			}
		}
		return "", fmt.Errorf("table %q has no row %q", tb.Title, c.Row)
	}
	return "", fmt.Errorf("no table titled %q…", c.Table)
}

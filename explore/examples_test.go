package explore

import (
	"fmt"
	"os"
	"testing"

	"github.com/clusterperf/clusterperf/htmlreport"
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
	r, err := qn.Solve(m, "auto", qn.AMVAOptions{})
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
		prog, err := tpn.ParseProgram("matmul.yaml", read(t, "../examples/tpn/matmul.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		cl, err := tpn.ParseCluster("cluster.yaml", read(t, "../examples/tpn/cluster.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		cl.Network.Bandwidth = 2.5e6
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
	}},
}

func loadExample(t testing.TB, ex example) Model {
	t.Helper()
	data, err := os.ReadFile(ex.file)
	if err != nil {
		t.Fatal(err)
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
		for i, h := range tb.Columns {
			if h == c.Col {
				col = i
			}
		}
		if col < 0 {
			return "", fmt.Errorf("table %q has no column %q (%v)", tb.Title, c.Col, tb.Columns)
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

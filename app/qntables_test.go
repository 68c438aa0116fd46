package app

import (
	"github.com/clusterperf/clusterperf/report"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/qn"
)

// TestQNTablesVisitsNotGiven: a model that gives demands (D = V·S) has no visit count; the
// stations table says so ("—" in text, empty in CSV, and a title that explains it) instead
// of a blank cell (review P3). A model with visits shows the number and no such title.
// The numbers are the view's own (given), only the cells under test are checked.
func TestQNTablesVisitsNotGiven(t *testing.T) {
	two := 2.0
	cases := []struct {
		name      string
		visits    *float64
		wantText  string // the visits cell in the text table
		wantCSV   string // the visits cell in CSV
		wantTitle bool
	}{
		{"demands", nil, "—", "", true},
		{"visits", &two, "2", "2", false},
	}
	for _, tc := range cases {
		v := qn.View{Solver: "mva", Method: "exact MVA", Exact: true,
			Classes:  []qn.ClassView{{Name: "c", Type: "closed", Throughput: 1, ResponseTime: 1}},
			Stations: []qn.StationView{{Name: "cpu", Type: "queue", Count: 1, Visits: tc.visits, Utilization: 0.5, QueueLength: 0.5, ResidenceTime: 0.5}}}
		st := QNTables(v)[1]
		col := -1
		for i, h := range st.Header {
			if h == "visits" {
				col = i
			}
		}
		if got := st.Rows[0][col]; got != tc.wantText {
			t.Errorf("%s: text visits cell %q, want %q", tc.name, got, tc.wantText)
		}
		var b strings.Builder
		if err := st.WriteCSV(&b); err != nil {
			t.Fatal(err)
		}
		row := strings.Split(strings.Split(strings.TrimSpace(b.String()), "\n")[1], ",")
		if row[col] != tc.wantCSV {
			t.Errorf("%s: CSV visits cell %q, want %q", tc.name, row[col], tc.wantCSV)
		}
		if got := strings.Contains(st.Title, "demands, not visits"); got != tc.wantTitle {
			t.Errorf("%s: title %q, explains — %v, want %v", tc.name, st.Title, got, tc.wantTitle)
		}
	}
}

// TestQNTablesInfeasibleFlag: a station the approximation left at U > 1
// (qn.StationView.UtilizationInfeasible, e.g. Linearizer's 1.00013 on qn's
// linearizer-u-above-1.yaml) is marked on its row of the text table and explained in the
// title (review: only the JSON flagged it); CSV keeps the bare number. A feasible station
// has neither.
func TestQNTablesInfeasibleFlag(t *testing.T) {
	for _, infeasible := range []bool{true, false} {
		u := 0.9
		if infeasible {
			u = 1.0001321871903361
		}
		v := qn.View{Solver: "linearizer", Method: "linearizer",
			Classes:  []qn.ClassView{{Name: "c", Type: "closed", Throughput: 1, ResponseTime: 1}},
			Stations: []qn.StationView{{Name: "s1", Type: "queue", Count: 1, Utilization: u, UtilizationInfeasible: infeasible, QueueLength: 1, ResidenceTime: 1}}}
		st := QNTables(v)[1]
		col := 6 // utilization
		if st.Header[col] != "utilization" {
			t.Fatalf("header %v", st.Header)
		}
		if got := strings.Contains(st.Rows[0][col], infeasibleMark); got != infeasible {
			t.Errorf("U = %v: text cell %q, marked %v, want %v", u, st.Rows[0][col], got, infeasible)
		}
		if got := strings.Contains(st.Title, infeasibleMark); got != infeasible {
			t.Errorf("U = %v: title %q, explains the mark %v, want %v", u, st.Title, got, infeasible)
		}
		var b strings.Builder
		if err := st.WriteCSV(&b); err != nil {
			t.Fatal(err)
		}
		row := strings.Split(strings.Split(strings.TrimSpace(b.String()), "\n")[1], ",")
		if want := report.FullNum(u); row[col] != want {
			t.Errorf("U = %v: CSV cell %q, want %q", u, row[col], want)
		}
	}
}

// TestQNTablesDelayUtilization: at a delay station utilization is X·D, the mean number of
// jobs there (24.077 on a review model), not a fraction of 1; the stations title says so
// when the model has a delay station, and only then (review P3).
func TestQNTablesDelayUtilization(t *testing.T) {
	for _, kind := range []qn.Kind{qn.Delay, qn.Queue} {
		v := qn.View{Solver: "mva", Method: "exact MVA", Exact: true,
			Classes:  []qn.ClassView{{Name: "c", Type: "closed", Throughput: 1, ResponseTime: 1}},
			Stations: []qn.StationView{{Name: "think", Type: kind.String(), Count: 1, Utilization: 24.077, QueueLength: 24.077, ResidenceTime: 24.077}}}
		got := strings.Contains(QNTables(v)[1].Title, "utilization at a delay station is its mean number of jobs")
		if got != (kind == qn.Delay) {
			t.Errorf("%s station: title %q explains delay utilization %v", kind, QNTables(v)[1].Title, got)
		}
	}
}

package fit

import (
	"github.com/clusterperf/clusterperf/internal/units"
	"io"
	"strconv"

	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/spmd"
)

// Observation is one measured run.
type Observation struct {
	P, D  int
	Value float64 // time (s) or speedup, as Target says
	Line  int
}

// Data is a set of measurements of one quantity.
type Data struct {
	Target string // "time" or "speedup"
	Obs    []Observation
}

// Range of a measured time (s) or speedup: relative residuals divide by it, and the model's
// times lie in spmd's ranges.
const (
	MinValue = 1e-12
	MaxValue = 1e12
)

// ReadData reads CSV with a header naming p, optionally d (default 1), optionally run (a
// repetition id), and exactly one of time (seconds) or speedup. Repeated (p, d) rows are
// replicates and all are used; the same (p, d, run) twice with different values is a
// conflict. Non-positive values are refused. Errors name the file and line.
func ReadData(file string, r io.Reader) (*Data, error) {
	d := &Data{}
	type key struct {
		p, d int
		run  string
	}
	seen := map[key]Observation{}
	aliases := map[string][]string{"p": {"p"}, "d": {"d"}, "run": {"run", "rep", "repetition"}, "time": {"time", "time_s"}, "speedup": {"speedup"}}
	check := spec.OneOf("time", "speedup", "time (seconds) or speedup", &d.Target)
	err := spec.ReadCSVChecked(file, r, aliases, []string{"p"}, check, func(row spec.Row) error {
		p, err := strconv.Atoi(row.Get("p"))
		if err != nil || p < 1 || p > spmd.MaxP {
			return row.Errorf("p = %q must be a whole number 1 … %d", row.Get("p"), spmd.MaxP)
		}
		dd := 1
		if row.Has("d") {
			if dd, err = strconv.Atoi(row.Get("d")); err != nil || dd < 1 || dd > spmd.MaxP {
				return row.Errorf("d = %q must be a whole number 1 … %d", row.Get("d"), spmd.MaxP)
			}
		}
		var v float64
		if d.Target == "time" { // times take the one units rule: 2.5, 2500ms, 1.2min
			v, err = units.Duration(row.Get(d.Target))
		} else {
			v, err = strconv.ParseFloat(row.Get(d.Target), 64)
		}
		if err != nil || !(v >= MinValue && v <= MaxValue) {
			return row.Errorf("%s = %q must be a number > 0 within %g … %g", d.Target, row.Get(d.Target), MinValue, MaxValue)
		}
		o := Observation{P: p, D: dd, Value: v, Line: row.Line}
		if row.Has("run") {
			k := key{p, dd, row.Get("run")}
			if prev, ok := seen[k]; ok && prev.Value != v {
				return row.Errorf("p = %d, d = %d, run %q conflicts with line %d (%g vs %g)", p, dd, k.run, prev.Line, v, prev.Value)
			}
			seen[k] = o
		}
		d.Obs = append(d.Obs, o)
		return nil
	})
	return d, err
}

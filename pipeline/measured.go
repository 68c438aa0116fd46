package pipeline

import (
	"io"
	"strconv"

	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/internal/units"
)

// Measurement is one measured run: cluster size and wall time in seconds.
type Measurement struct {
	P    int
	Time float64
	Line int // line in the CSV file
}

// MinMeasured is the least measured time accepted, s (a relative error divides by it).
const MinMeasured = 1e-9

// ReadMeasurements reads CSV with a header naming columns p and time (seconds, or with a
// unit suffix as every time field takes: 750ms, 2min; internal/units.Duration); other
// columns are ignored. Errors name the file, line and column.
func ReadMeasurements(file string, r io.Reader) ([]Measurement, error) {
	var out []Measurement
	err := spec.ReadCSV(file, r, map[string][]string{"p": {"p"}, "time": {"time", "time_s", "measured", "measured_time"}}, []string{"p", "time"}, func(row spec.Row) error {
		p, err := strconv.Atoi(row.Get("p"))
		if err != nil || p < 1 || p > MaxP {
			return row.Errorf("p = %q must be a whole number 1 … %d", row.Get("p"), MaxP)
		}
		t, err := units.Duration(row.Get("time"))
		if err != nil || !(t >= MinMeasured && t <= MaxSeconds) {
			return row.Errorf("time = %q must be a time in seconds (or with a unit: 750ms, 2min) in %g … %g s", row.Get("time"), MinMeasured, MaxSeconds)
		}
		out = append(out, Measurement{P: p, Time: t, Line: row.Line})
		return nil
	})
	return out, err
}

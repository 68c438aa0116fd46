package spmd

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/internal/units"
)

// Measurement is one measured run of the program: p processors, d disks and the measured
// time of the whole program in seconds (the model's Point.Time), from line Line of its CSV.
type Measurement struct {
	P, D int
	Time float64
	Line int
}

// MaxMeasured bounds the measured times accepted, s (a year: beyond it a number is a typo).
const MaxMeasured = 3.2e7

// ReadMeasurements reads a CSV whose header names the columns p, time (also time_s,
// seconds, measured) and optionally d (default 1); other columns are ignored. A time is
// seconds or carries a unit suffix (internal/units.Duration: 750ms, 2min). p and d are whole
// numbers 1 … 2³⁰, a time lies in (0, MaxMeasured]. Errors name the file, line and column.
func ReadMeasurements(file string, r io.Reader) ([]Measurement, error) {
	var out []Measurement
	aliases := map[string][]string{"p": {"p", "processors"}, "d": {"d", "disks"}, "time": {"time", "time_s", "seconds", "measured"}}
	err := spec.ReadCSV(file, r, aliases, []string{"p", "time"}, func(row spec.Row) error {
		m := Measurement{D: 1, Line: row.Line}
		var err error
		if m.P, err = strconv.Atoi(row.Get("p")); err != nil || m.P < 1 || m.P > 1<<30 {
			return row.Errorf("p = %q must be a whole number 1 … %d", row.Get("p"), 1<<30)
		}
		if row.Has("d") {
			if m.D, err = strconv.Atoi(row.Get("d")); err != nil || m.D < 1 || m.D > 1<<30 {
				return row.Errorf("d = %q must be a whole number 1 … %d", row.Get("d"), 1<<30)
			}
		}
		if m.Time, err = units.Duration(row.Get("time")); err != nil || !(m.Time > 0 && m.Time <= MaxMeasured) {
			return row.Errorf("time = %q must be a time in seconds (or with a unit: 750ms, 2min) above 0 and at most %g s", row.Get("time"), float64(MaxMeasured))
		}
		out = append(out, m)
		return nil
	})
	if err == nil && len(out) == 0 {
		return nil, &spec.Error{File: file, Msg: "no measured rows"}
	}
	return out, err
}

// Comparison is a measured run beside the model at the same (p, d): rel_error =
// (model − measured)/measured, a signed fraction; the speedups are both against the model's
// T_ref (000 eq. 3), so they differ by the same factor as the times.
type Comparison struct {
	P               int     `json:"p"`
	D               int     `json:"d"`
	MeasuredTime    float64 `json:"measured_time_s"`
	ModelTime       float64 `json:"model_time_s"`
	MeasuredSpeedup float64 `json:"measured_speedup"`
	ModelSpeedup    float64 `json:"model_speedup"`
	RelError        float64 `json:"rel_error"`
	Line            int     `json:"line"`
	OutsideSurface  bool    `json:"outside_surface,omitempty"`
}

// Compare evaluates the model at every measured (p, d) — inside the surface asked for or not
// (inside reports whether (p, d) is one of its points) — and compares. A (p, d) the model
// cannot take (CheckConfig) is an input error naming the CSV line.
func (e *Evaluator) Compare(file string, meas []Measurement, inside func(p, d int) bool) ([]Comparison, error) {
	ref := e.m.RefTime()
	out := make([]Comparison, 0, len(meas))
	for _, m := range meas {
		pt, err := e.Evaluate(m.P, m.D)
		if err != nil {
			return nil, fmt.Errorf("%w: %s:%d: the model cannot be evaluated at the measured p = %d, d = %d: %v", fault.ErrInput, file, m.Line, m.P, m.D, err)
		}
		c := Comparison{P: m.P, D: m.D, MeasuredTime: m.Time, ModelTime: pt.Time, ModelSpeedup: pt.Speedup,
			MeasuredSpeedup: ref / m.Time, RelError: (pt.Time - m.Time) / m.Time, Line: m.Line, OutsideSurface: !inside(m.P, m.D)}
		if math.IsInf(c.MeasuredSpeedup, 0) || math.IsNaN(c.RelError) || math.IsInf(c.RelError, 0) {
			return nil, fmt.Errorf("%w: %s:%d: the comparison at p = %d, d = %d leaves the float64 range", fault.ErrInput, file, m.Line, m.P, m.D)
		}
		out = append(out, c)
	}
	return out, nil
}

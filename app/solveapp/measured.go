package solveapp

import (
	"errors"
	"fmt"
	"github.com/clusterperf/clusterperf/qn"
	"io"
	"math"
	"strconv"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/internal/units"
)

// SweepMeasurement is one measured point of a what-if sweep: at the swept value, one
// class's throughput (jobs/s) and/or response time (s).
type SweepMeasurement struct {
	Value        float64
	Class        int
	Throughput   *float64
	ResponseTime *float64
	Line         int // in the CSV file
}

// ReadSweepMeasurements reads measured sweep points of model m from CSV: a header naming
// the column value (the swept value; also x), class (a class name; may be left out for a
// one-class model) and throughput_per_s (also throughput, x_per_s) and/or response_time_s
// (also response_time, r_s); other columns are ignored, a cell may be empty. Measured
// values must be finite and > 0 (they are divisors of the relative error). Errors name
// the file and line and wrap fault.ErrInput.
func ReadSweepMeasurements(file string, r io.Reader, m *qn.Model) ([]SweepMeasurement, error) {
	aliases := map[string][]string{"value": {"value", "x"}, "class": {"class"},
		"throughput": {"throughput_per_s", "throughput", "x_per_s"}, "response": {"response_time_s", "response_time", "r_s"}}
	check := func(has func(string) bool) error {
		switch {
		case !has("throughput") && !has("response"):
			return errors.New("want a column throughput_per_s or response_time_s (or both)")
		case !has("class") && len(m.Classes) > 1:
			return fmt.Errorf("the model has %d classes: want a column class", len(m.Classes))
		}
		return nil
	}
	var out []SweepMeasurement
	err := spec.ReadCSVChecked(file, r, aliases, []string{"value"}, check, func(row spec.Row) error {
		v, err := strconv.ParseFloat(row.Get("value"), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return row.Errorf("value = %q must be a finite number (the swept value)", row.Get("value"))
		}
		pt := SweepMeasurement{Value: v, Line: row.Line}
		if name := row.Get("class"); name != "" || len(m.Classes) > 1 {
			pt.Class = -1
			for c, cl := range m.Classes {
				if cl.Name == name {
					pt.Class = c
				}
			}
			if pt.Class < 0 {
				return row.Errorf("class = %q is not a class of the model", name)
			}
		}
		// the units rule of every rate and time field (internal/units): 12/min, 250ms
		for _, f := range []struct {
			key, what string
			parse     func(string) (float64, error)
			dst       **float64
		}{{"throughput", "throughput_per_s", units.Rate, &pt.Throughput}, {"response", "response_time_s", units.Duration, &pt.ResponseTime}} {
			s := row.Get(f.key)
			if s == "" {
				continue
			}
			x, err := f.parse(s)
			if err != nil || !(x > 0) || math.IsInf(x, 0) {
				return row.Errorf("%s = %q must be a finite number > 0 (a unit may follow: 12/min, 250ms)", f.what, s)
			}
			*f.dst = &x
		}
		if pt.Throughput == nil && pt.ResponseTime == nil {
			return row.Errorf("no measured throughput_per_s or response_time_s")
		}
		out = append(out, pt)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", fault.ErrInput, err)
	}
	return out, nil
}

// SweepComparison is a measured sweep point beside the model's value there, with the
// relative errors (model − measured)/measured as signed fractions (validate.RelError's
// definition). The model values are absent where the sweep has no solution (a saturated
// point).
type SweepComparison struct {
	Value                float64  `json:"value"`
	Class                string   `json:"class"`
	Line                 int      `json:"line"`
	MeasuredThroughput   *float64 `json:"measured_throughput_per_s,omitempty"`
	ModelThroughput      *float64 `json:"model_throughput_per_s,omitempty"`
	ThroughputRelError   *float64 `json:"throughput_rel_error,omitempty"`
	MeasuredResponseTime *float64 `json:"measured_response_time_s,omitempty"`
	ModelResponseTime    *float64 `json:"model_response_time_s,omitempty"`
	ResponseTimeRelError *float64 `json:"response_time_rel_error,omitempty"`
}

// CompareSweep puts every measurement beside the sweep point at the same value (equal to
// 1e-9 relative); a measurement at a value the sweep does not have is an error naming the
// file's line (wrapping fault.ErrInput): the model is not interpolated.
func CompareSweep(file string, m *qn.Model, pts []qn.SweepPoint, ms []SweepMeasurement) ([]SweepComparison, error) {
	out := make([]SweepComparison, 0, len(ms))
	for _, meas := range ms {
		i := -1
		for j, pt := range pts {
			if math.Abs(pt.Value-meas.Value) <= 1e-9*math.Max(1, math.Abs(meas.Value)) {
				i = j
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("%w: %s:%d: value %g is not a point of the sweep (from %g to %g): measure at swept values", fault.ErrInput, file, meas.Line, meas.Value, pts[0].Value, pts[len(pts)-1].Value)
		}
		c := SweepComparison{Value: meas.Value, Class: m.Classes[meas.Class].Name, Line: meas.Line,
			MeasuredThroughput: meas.Throughput, MeasuredResponseTime: meas.ResponseTime}
		if r := pts[i].Result; r != nil && pts[i].Err == nil {
			c.ModelThroughput, c.ThroughputRelError = compareOne(r.Throughput[meas.Class], meas.Throughput)
			c.ModelResponseTime, c.ResponseTimeRelError = compareOne(r.ResponseTime[meas.Class], meas.ResponseTime)
		}
		out = append(out, c)
	}
	return out, nil
}

func compareOne(model float64, measured *float64) (*float64, *float64) {
	if measured == nil {
		return nil, nil
	}
	e := (model - *measured) / *measured
	return &model, &e
}

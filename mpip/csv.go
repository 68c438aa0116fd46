package mpip

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/internal/units"
)

// MaxCSVRuns bounds the rows of a collected-values table (each row is one MVA with N = P).
const MaxCSVRuns = 10_000

// ReadInputs reads 004's "Collected Values" (appendix B) as a CSV table, one run per row, an
// alternative to mpiP reports as the model's input. Columns (header names case-insensitive):
//
//	label     optional text (e.g. "CG A")
//	P         processes, a whole number ≥ 1
//	App_Time  Σ_r application time, s        MPI_Time  Σ_r MPI time, s
//	MPI_Wait  time in the wait operations, s M         messages sent
//	L         mean sent message size, bytes  BW        network bandwidth, bytes/s
//	Lat       network latency, s
//
// Units are 004's (its Unit column); times, sizes and bandwidths may also carry a unit suffix
// (5us, 64KB, 200MB/s). Every bad row is reported with its line; errors wrap fault.ErrInput.
func ReadInputs(file string, r io.Reader) ([]Inputs, error) {
	aliases := map[string][]string{
		"label": {"label", "app", "application"}, "p": {"p", "procs", "ranks", "cpus"},
		"app_time": {"app_time", "app_time_s"}, "mpi_time": {"mpi_time", "mpi_time_s"},
		"mpi_wait": {"mpi_wait", "mpi_wait_s"}, "m": {"m", "messages"}, "l": {"l", "avg_size", "mean_size_bytes"},
		"bw": {"bw", "bandwidth", "bandwidth_bytes_per_s"}, "lat": {"lat", "latency", "latency_s"},
	}
	var runs []Inputs
	err := spec.ReadCSV(file, r, aliases, []string{"p", "app_time", "mpi_time", "mpi_wait", "m", "l", "bw", "lat"}, func(row spec.Row) error {
		if len(runs) >= MaxCSVRuns {
			return row.Errorf("more than %d runs", MaxCSVRuns)
		}
		in := Inputs{Label: row.Get("label")}
		p, err := strconv.Atoi(row.Get("p"))
		if err != nil || p < 1 || p > MaxPredictP {
			return row.Errorf("P = %q must be a whole number from 1 to %d", row.Get("p"), MaxPredictP)
		}
		in.P = p
		var errs []error
		get := func(key string, parse func(string) (float64, error), dst *float64) {
			v, err := parse(row.Get(key))
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %v", key, err))
				return
			}
			*dst = v
		}
		plain := func(s string) (float64, error) {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return 0, fmt.Errorf("%q is not a finite number ≥ 0", s)
			}
			return v, nil
		}
		get("app_time", units.Duration, &in.AppTime)
		get("mpi_time", units.Duration, &in.MPITime)
		get("mpi_wait", units.Duration, &in.MPIWait)
		get("m", plain, &in.M)
		get("l", units.Bytes, &in.L)
		get("bw", units.Bandwidth, &in.BW)
		get("lat", units.Duration, &in.Lat)
		if len(errs) > 0 {
			return row.Errorf("%v", errors.Join(errs...))
		}
		if in.Label == "" {
			in.Label = fmt.Sprintf("%s:%d", file, row.Line)
		}
		if err := in.Validate(); err != nil {
			return row.Errorf("%v", err)
		}
		runs = append(runs, in)
		return nil
	})
	if err != nil {
		return nil, inputError{err}
	}
	return runs, nil
}

// inputError marks an error of the input readers as fault.ErrInput, keeping its message.
type inputError struct{ err error }

func (e inputError) Error() string   { return e.err.Error() }
func (e inputError) Unwrap() []error { return []error{e.err, fault.ErrInput} }

func inputErrorf(format string, args ...any) error {
	return inputError{fmt.Errorf(format, args...)}
}

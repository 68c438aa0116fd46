package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
)

// Sharded studies (package shard, issue 18): replication k of a study is Run(seed, k) on
// whichever machine computes it, its RepResult travels as JSON (MarshalJSON below), and
// Summarise turns the replications of all shards, in index order, into the Result that
// Replicate returns for the same seed and replication count on one machine.

// CheckStudy refuses, before any shard runs, what Replicate would refuse for these options
// (a fixed number of replications: no precision target, no batch means): options out of
// range (fault.ErrInput), a saturated open network (fault.ErrSaturated), more events than
// Options.MaxTotalEvents (fault.ErrTooLarge).
func (s *Simulator) CheckStudy(o Options) error {
	if o.Precision > 0 || o.Batches > 0 {
		return fmt.Errorf("%w: a sharded study runs a fixed number of independent replications: a precision target decides the count from the data of earlier rounds, and batch means are one run — neither can be split over machines", fault.ErrInput)
	}
	if err := o.validate(); err != nil {
		return err
	}
	if err := s.checkSaturation(); err != nil {
		return err
	}
	if tot := float64(s.cfg.Events) * float64(o.Reps); tot > float64(o.MaxTotalEvents) {
		return fmt.Errorf("%w: %d replications of %d events (%.3g events) exceed the limit of %d events over all replications (--max-events)", fault.ErrTooLarge, o.Reps, s.cfg.Events, tot, o.MaxTotalEvents)
	}
	return nil
}

// Summarise is what Replicate returns (without a precision target) when its replications
// are reps, in stream order: means and intervals, the warm-up and too-short counts, and the
// simulator's notes. reps must be Run's results for streams 0, 1, … of one seed on this
// simulator (same model and Config); it needs at least two.
func (s *Simulator) Summarise(reps []*RepResult) (*Result, error) {
	if len(reps) < 2 {
		return nil, fmt.Errorf("%w: %d replications: an interval needs at least two", fault.ErrInput, len(reps))
	}
	C, K := len(s.m.Classes), len(s.m.Stations)
	for i, r := range reps {
		if r == nil || len(r.Throughput) != C || len(r.ResponseTime) != C || len(r.Utilization) != K || len(r.QueueLength) != K {
			return nil, fmt.Errorf("%w: replication %d does not match the model (%d classes, %d stations)", fault.ErrInput, i, C, K)
		}
		for _, q := range r.QueueLength {
			if len(q) != C {
				return nil, fmt.Errorf("%w: replication %d does not match the model (%d classes, %d stations)", fault.ErrInput, i, C, K)
			}
		}
	}
	res := s.summariseReps(reps)
	if res.TooShort*2 > res.Replications {
		res.Notes = append(res.Notes, fmt.Sprintf("run too short: in %d of %d replications the initial transient (MSER-5) did not end in the first half of the %d events — the estimates are probably biased; raise --events or set --precision, which lengthens the run", res.TooShort, res.Replications, s.cfg.Events))
	}
	return res, nil
}

// Events is the length of one replication after defaults (Config.Events, or DefaultEvents
// of the model).
func (s *Simulator) Events() int64 { return s.cfg.Events }

// repJSON is RepResult's JSON form. A measurement with no value (a class without a
// completion has no response time: NaN) is null, which JSON can carry and NaN cannot.
type repJSON struct {
	Throughput   []jsonFloat   `json:"throughput_per_s"`
	ResponseTime []jsonFloat   `json:"response_time_s"`
	QueueLength  [][]jsonFloat `json:"queue_length"`
	Utilization  []jsonFloat   `json:"utilization"`
	Events       int64         `json:"events"`
	Time         jsonFloat     `json:"time_s"`
	WarmupEvents int64         `json:"warmup_events"`
	WarmupTime   jsonFloat     `json:"warmup_time_s"`
	TooShort     bool          `json:"too_short"`
}

// jsonFloat is a float64 whose NaN is JSON null. Finite values are written with the
// shortest representation that reads back to the same float64 (encoding/json), so a
// replication survives the round trip bit for bit; ±Inf (never produced by Run) is refused.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = jsonFloat(math.NaN())
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = jsonFloat(v)
	return nil
}

func toJSON(xs []float64) []jsonFloat {
	out := make([]jsonFloat, len(xs))
	for i, x := range xs {
		out[i] = jsonFloat(x)
	}
	return out
}

func fromJSON(xs []jsonFloat) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// MarshalJSON writes a replication for a shard file (NaN as null; keys with units).
func (r *RepResult) MarshalJSON() ([]byte, error) {
	j := repJSON{Throughput: toJSON(r.Throughput), ResponseTime: toJSON(r.ResponseTime), Utilization: toJSON(r.Utilization),
		Events: r.Events, Time: jsonFloat(r.Time), WarmupEvents: r.WarmupEvents, WarmupTime: jsonFloat(r.WarmupTime), TooShort: r.TooShort}
	for _, q := range r.QueueLength {
		j.QueueLength = append(j.QueueLength, toJSON(q))
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON wrote, strictly: an unknown key is refused.
func (r *RepResult) UnmarshalJSON(b []byte) error {
	var j repJSON
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields() // a decoder's setting does not reach a custom UnmarshalJSON
	if err := d.Decode(&j); err != nil {
		return repProblem(err)
	}
	*r = RepResult{Throughput: fromJSON(j.Throughput), ResponseTime: fromJSON(j.ResponseTime), Utilization: fromJSON(j.Utilization),
		Events: j.Events, Time: float64(j.Time), WarmupEvents: j.WarmupEvents, WarmupTime: float64(j.WarmupTime), TooShort: j.TooShort}
	for _, q := range j.QueueLength {
		r.QueueLength = append(r.QueueLength, fromJSON(q))
	}
	return nil
}

// repProblem is a replication's decoding error in the shard file's terms — its key and the
// value wanted — never Go's ("cannot unmarshal number 1e999 into Go struct field
// repJSON.throughput_per_s of type float64", hostile review 7 P3-7).
func repProblem(err error) error {
	var ue *json.UnmarshalTypeError
	if errors.As(err, &ue) {
		want := "a value of another type"
		switch ue.Type.Kind() {
		case reflect.Float32, reflect.Float64:
			want = "a finite number (at most 1.8e308)"
		case reflect.Int, reflect.Int64:
			want = "a whole number"
		case reflect.Bool:
			want = "true or false"
		case reflect.Slice:
			want = "a list"
		}
		key := ue.Field
		if key == "" {
			key = "the replication"
		}
		return fmt.Errorf("%s: want %s, not a JSON %s", key, want, ue.Value)
	}
	return errors.New(strings.Replace(strings.TrimPrefix(err.Error(), "json: "), "unknown field", "unknown key", 1))
}

// SPMDEstimate is ReplicateSPMD's summary of the cycle times of its replications (stream i
// of the seed for replication i, in order): their mean with its Student-t 95 % half-width.
// A sharded study computes each replication with SimulateSPMD and merges them with it.
func SPMDEstimate(cycleTimes []float64) (Estimate, error) {
	if len(cycleTimes) < 2 {
		return Estimate{}, fmt.Errorf("%w: %d replications: an interval needs at least two", fault.ErrInput, len(cycleTimes))
	}
	for i, x := range cycleTimes {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return Estimate{}, fmt.Errorf("%w: replication %d: cycle time %v is not a finite time ≥ 0", fault.ErrInput, i, x)
		}
	}
	return estimate(cycleTimes), nil
}

package studyapp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/tpn"
	"github.com/clusterperf/clusterperf/validate"
)

// Checks of the items a merge reads from shard files (hostile-input review): every item is
// checked for shape (the model's classes and stations) and range (finite, non-negative
// times, throughputs and queue lengths; utilizations of queueing stations at most 1 per
// server) before use. An item's error is an ItemError; checkedMerge names the shard file
// that holds the item.

// ItemError is a refused shard item: item k of the study (its index over all shards).
type ItemError struct {
	k   int
	err error
}

func (e *ItemError) Error() string { return fmt.Sprintf("item %d: %v", e.k, e.err) }
func (e *ItemError) Unwrap() error { return e.err }

// ItemErr is err as the error of study item k.
func ItemErr(k int, err error) error { return &ItemError{k: k, err: err} }

// BadItem is the input error of study item k: what is wrong and what was expected.
func BadItem(k int, format string, a ...any) error {
	return &ItemError{k: k, err: app.Inputf(format, a...)}
}

// shardOf names the shard file of plan p that holds study item k.
func shardOf(p shard.Plan, k int) string {
	for i := range p.N {
		if r, err := p.Spec.Range(i); err == nil && k >= r.Lo && k < r.Hi {
			return shard.FileName(i, p.N)
		}
	}
	return "no shard file"
}

// InShard is err with the shard file of an item's error named (items[k].result).
func InShard(p shard.Plan, err error) error {
	var ie *ItemError
	if !errors.As(err, &ie) {
		return err
	}
	r, _ := p.Spec.Range(0)
	for i := range p.N {
		if q, e := p.Spec.Range(i); e == nil && ie.k >= q.Lo && ie.k < q.Hi {
			r = q
		}
	}
	return app.Inputf("%s: items[%d].result (study item %d): %w", shardOf(p, ie.k), ie.k-r.Lo, ie.k, ie.err)
}

// DecodeItem decodes study item k strictly into v: unknown keys and a null item are refused.
func DecodeItem(k int, raw json.RawMessage, v any) error {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return BadItem(k, "null; want a result")
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return BadItem(k, "%v", err)
	}
	return nil
}

// CheckVec reports whether xs has n finite non-negative values.
func CheckVec(name string, xs []float64, n int, what string) error {
	if len(xs) != n {
		return fmt.Errorf("%s has %d values; want %d (one per %s)", name, len(xs), n, what)
	}
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return fmt.Errorf("%s[%d] = %g; want a finite value ≥ 0", name, i, x)
		}
	}
	return nil
}

// CheckMat reports whether xs is a stations × classes matrix of finite non-negative values.
func CheckMat(name string, xs [][]float64, m *qn.Model) error {
	if len(xs) != len(m.Stations) {
		return fmt.Errorf("%s has %d rows; want %d (one per station)", name, len(xs), len(m.Stations))
	}
	for k, row := range xs {
		if err := CheckVec(fmt.Sprintf("%s[%d]", name, k), row, len(m.Classes), "class"); err != nil {
			return err
		}
	}
	return nil
}

// queueing reports whether a station's utilization is a busy fraction per server (≤ 1).
func queueing(s qn.Station) bool { return s.Kind == qn.Queue || s.Kind == qn.MultiServer }

// utilTol is the rounding allowed above a utilization of 1.
const utilTol = 1e-9

// CheckQNResult checks a solved point of model m (solved with opt): shape and range, then
// method, status and numbers against what m implies (validate.CheckMethod, CheckResult:
// Little's law, the asymptotic throughput bound, R ≥ D, the utilization law, Q ≤ N). A
// utilization above 1 at a queueing station is refused only in an exact result: an
// approximate solver may give one legitimately (Linearizer gives 1.00014 on
// qn/testdata/linearizer-u-above-1.yaml, noted "approximation infeasible" and not clamped),
// as validate's CheckQN allows for analytic values.
func CheckQNResult(r *qn.Result, m *qn.Model, opt qn.AMVAOptions) error {
	C := len(m.Classes)
	errs := []error{CheckVec("throughput_per_s", r.Throughput, C, "class"), CheckVec("response_time_s", r.ResponseTime, C, "class"),
		CheckMat("queue_length", r.QueueLength, m), CheckMat("residence_time_s", r.Residence, m), CheckMat("utilization", r.Utilization, m)}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for k, s := range m.Stations {
		u := 0.0
		for _, x := range r.Utilization[k] {
			u += x
		}
		if r.Exact && queueing(s) && u > 1+utilTol {
			return fmt.Errorf("utilization of station %s sums to %g; want at most 1 (busy fraction per server)", s.Name, u)
		}
	}
	return errors.Join(validate.CheckMethod(r, opt), validate.CheckResult(r, m))
}

// RecheckMapping re-simulates mapping k of a tpn --advise study when its shard says it does
// not complete: nothing in a shard file can prove a deadlock, and a tampered
// completed: false would silently drop what may be the best mapping (hostile review). A
// real run has few such mappings (usually none), so re-simulating only them is cheap.
func RecheckMapping(st *tpn.AdviseStudy, k int, t tpn.MappingTime) error {
	if t.Completed {
		return nil
	}
	again, err := st.Eval(k)
	if err != nil {
		return app.Lib(err)
	}
	if again.Completed {
		return BadItem(k, "completed = false, but mapping %d completes when simulated again (time_ns %d): the shard file was altered", k, again.TimeNs)
	}
	return nil
}

// CheckRep checks replication k of a simulation of model m: shape and range (a class's
// response time is null, NaN, only when it completed no cycle), then what the simulator's
// accounting implies (sim.CheckRep: Q ≤ N, X·R bounded by the population).
func CheckRep(k int, r *sim.RepResult, m *qn.Model) error {
	C, K := len(m.Classes), len(m.Stations)
	rt := make([]float64, len(r.ResponseTime))
	for i, x := range r.ResponseTime {
		if !math.IsNaN(x) {
			rt[i] = x
		}
	}
	errs := []error{CheckVec("throughput_per_s", r.Throughput, C, "class"), CheckVec("response_time_s", rt, C, "class"),
		CheckMat("queue_length", r.QueueLength, m), CheckVec("utilization", r.Utilization, K, "station")}
	for _, t := range []struct {
		name string
		v    float64
	}{{"time_s", r.Time}, {"warmup_time_s", r.WarmupTime}, {"events", float64(r.Events)}, {"warmup_events", float64(r.WarmupEvents)}} {
		if math.IsNaN(t.v) || math.IsInf(t.v, 0) || t.v < 0 {
			errs = append(errs, fmt.Errorf("%s = %g; want a finite value ≥ 0", t.name, t.v))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return BadItem(k, "%v", err)
	}
	if !(r.Time > 0) {
		return BadItem(k, "time_s = %g; want the measured simulated time > 0", r.Time)
	}
	// every job completion is an event: completions Σ_c X_c·time_s ≤ events (an item with
	// 0 events and a positive time and throughput is forged, not a replication)
	done := 0.0
	for _, x := range r.Throughput {
		done += x * r.Time
	}
	if float64(r.Events)+1 < done*(1-utilTol) || r.Events == 0 {
		return BadItem(k, "events = %d with time_s = %g and throughputs giving %.6g completions; want at least one event per completion", r.Events, r.Time, done)
	}
	for i, s := range m.Stations {
		if queueing(s) && r.Utilization[i] > 1+utilTol {
			return BadItem(k, "utilization of station %s = %g; want at most 1 (busy servers / servers)", s.Name, r.Utilization[i])
		}
	}
	if err := sim.CheckRep(r, m); err != nil {
		return BadItem(k, "%v", err)
	}
	return nil
}

// DecodeReplicate decodes bootstrap replicate item k: null (a failed refit) or an array of
// numbers, none of them null.
func DecodeReplicate(k int, raw json.RawMessage, x *[]float64) error {
	var ps []*float64
	if err := json.Unmarshal(raw, &ps); err != nil {
		return BadItem(k, "%v; want an array of numbers (one per free parameter) or null", err)
	}
	if ps == nil {
		*x = nil
		return nil
	}
	*x = make([]float64, len(ps))
	for j, p := range ps {
		if p == nil {
			return BadItem(k, "value %d is null; want a number", j)
		}
		(*x)[j] = *p
	}
	return nil
}

// DecodeMapping decodes tpn --advise item k: both keys present, time_ns ≥ 0.
func DecodeMapping(k int, raw json.RawMessage, t *tpn.MappingTime) error {
	var v struct {
		Completed *bool  `json:"completed"`
		TimeNs    *int64 `json:"time_ns"`
	}
	if err := DecodeItem(k, raw, &v); err != nil {
		return err
	}
	if v.Completed == nil || v.TimeNs == nil {
		return BadItem(k, "want both completed (bool) and time_ns (integer ≥ 0)")
	}
	if *v.TimeNs < 0 || *v.TimeNs > tpn.MaxTicks {
		return BadItem(k, "time_ns = %d; want 0 … %d", *v.TimeNs, int64(tpn.MaxTicks))
	}
	*t = tpn.MappingTime{Completed: *v.Completed, TimeNs: *v.TimeNs}
	return nil
}

// DecodeCycleTime decodes speedup --validate item k: a simulated cycle time, a finite
// number ≥ 0 (null, which would read as 0, is refused).
func DecodeCycleTime(k int, raw json.RawMessage, x *float64) error {
	var p *float64
	if err := DecodeItem(k, raw, &p); err != nil {
		return err
	}
	if math.IsNaN(*p) || math.IsInf(*p, 0) || *p < 0 {
		return BadItem(k, "cycle time %g; want a finite time ≥ 0 (seconds)", *p)
	}
	*x = *p
	return nil
}

package sim

import (
	"errors"
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
)

// FuzzSimulateModel: every model file qn.ParseModel accepts (routing, fork/joins, groups
// included) is accepted by the simulator or refused with a classified error (too large),
// and a short replication either gives finite, non-negative numbers or a classified error
// (input, too large, a finding) — never a panic, never a NaN or Inf printed as a result.
func FuzzSimulateModel(f *testing.F) {
	f.Add([]byte("classes: [{name: b, population: 2}, {name: w, arrival_rate: 1}]\nstations: [{name: a, service_time: 0.1}, {name: d, service_time: 0.2, count: 2}]\n" +
		"routing:\n  b: {reference: d, from: {a: {d: 1}, d: {a: 0.5, d: 0.5}}}\n  w: {arrivals: {a: 1}, from: {a: {d: 0.5}, d: {a: 1}}}\n"))
	f.Add([]byte("classes: [{name: j, population: 4}]\nstations: [{name: c, service_time: 0.05}, {name: a, service_time: 0.2}, {name: b, service_time: 0.3}]\n" +
		"fork_joins: [{name: s, branches: [a, b]}]\nrouting:\n  j: {from: {c: {s: 1}, s: {c: 1}}}\n"))
	f.Add([]byte("classes: [{name: u, population: 3, think_time: 1}]\nstations: [{name: cpu, type: multiserver, servers: 2, demand: 0.1}, {name: t, type: delay, demand: 1}]\n"))
	f.Add([]byte("classes: [{name: u, population: 100000000}]\nstations: [{name: cpu, demand: 1e308, count: 4096}]\n"))
	f.Add([]byte("classes: [{name: o, arrival_rate: 1e-300}, {name: c, population: 7}]\nstations: [{name: cpu, demand: 1e-300}, {name: ld, type: ld, rates: [1, 2], demand: 3}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, _, err := qn.ParseModel("fuzz.yaml", data)
		if err != nil {
			return
		}
		// keep a run short whatever the numbers: the budgets refuse what is too large, a
		// small limit keeps the accepted ones quick
		s, err := New(m, Config{Events: 500, MaxMemoryBytes: 64 << 20})
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("the simulator rejects a parsed model without a class: %v\n%s", err, data)
			}
			return
		}
		checkRun(t, s, data)
	})
}

// FuzzSimulateMagnitudes builds networks from a few numbers — population, group size,
// demands and rates over the whole float64 range (as powers of ten), station kinds — so
// the fuzzer reaches sizes and magnitudes that text mutations rarely do: 1e-300 and 1e300 s,
// populations up to 2^16 and groups up to 2^16 (refused by the memory budget where large).
func FuzzSimulateMagnitudes(f *testing.F) {
	f.Add(uint32(10), uint16(1), int16(0), int16(-3), int16(0), int16(-400), uint8(0), uint8(1))
	f.Add(uint32(256), uint16(256), int16(-4), int16(-5), int16(-3), int16(-400), uint8(2), uint8(3))
	f.Add(uint32(1), uint16(1), int16(308), int16(-308), int16(300), int16(-300), uint8(1), uint8(2))
	f.Add(uint32(0), uint16(3), int16(0), int16(0), int16(0), int16(1), uint8(3), uint8(0))
	f.Fuzz(func(t *testing.T, pop uint32, count uint16, d1, d2, think, lam int16, kind, servers uint8) {
		pow := func(e int16) float64 { return math.Pow(10, float64(e%330)) }
		kinds := []qn.Kind{qn.Queue, qn.Delay, qn.MultiServer, qn.LoadDependent}
		st := qn.Station{Name: "b", Kind: kinds[int(kind)%4], Count: int(count) + 1}
		switch st.Kind {
		case qn.MultiServer:
			st.Servers = int(servers%8) + 1
		case qn.LoadDependent:
			st.Rates = []float64{1, float64(servers%8) + 1}
		}
		m := &qn.Model{
			Classes:  []qn.Class{{Name: "c", Population: int(pop % (1 << 16)), ThinkTime: pow(think)}},
			Stations: []qn.Station{{Name: "a", Kind: qn.Queue}, st},
			Demand:   [][]float64{{pow(d1), pow(d2)}},
		}
		if lam > -330 && lam%3 == 0 {
			m.Classes = append(m.Classes, qn.Class{Name: "o", Open: true, ArrivalRate: pow(lam)})
			m.Demand = append(m.Demand, []float64{pow(d2), pow(d1)})
		}
		if m.Validate() != nil {
			return
		}
		s, err := New(m, Config{Events: 2000, MaxMemoryBytes: 16 << 20})
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("New: unclassified error %v", err)
			}
			return
		}
		checkRun(t, s, nil)
	})
}

// checkRun runs one replication and checks: a classified error, or finite non-negative
// numbers with U ≤ 1 (+ rounding) at queues.
func checkRun(t *testing.T, s *Simulator, data []byte) {
	t.Helper()
	r, err := s.Run(1, 0)
	if err != nil {
		if !errors.Is(err, fault.ErrInput) && !errors.Is(err, fault.ErrFinding) {
			t.Fatalf("unclassified error: %v\n%s", err, data)
		}
		return
	}
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 }
	for c, x := range r.Throughput {
		if bad(x) || (!math.IsNaN(r.ResponseTime[c]) && bad(r.ResponseTime[c])) {
			t.Fatalf("class %d: X = %v, R = %v\n%s", c, x, r.ResponseTime[c], data)
		}
	}
	for k, u := range r.Utilization {
		if bad(u) || (s.m.Stations[k].Kind != qn.Delay && u > 1+1e-9) {
			t.Fatalf("station %d: U = %v\n%s", k, u, data)
		}
		for _, q := range r.QueueLength[k] {
			if bad(q) {
				t.Fatalf("station %d: Q = %v\n%s", k, q, data)
			}
		}
	}
}

package sim

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/spmd"
)

// TestSummariseIsReplicate: the replications Run(seed, k) computes one by one (as the shards
// of a study do), sent through their JSON form and summarised, give exactly Replicate's
// result for the same seed and count — the contract of a sharded study (package shard).
func TestSummariseIsReplicate(t *testing.T) {
	m := parseModel(t, "two.yaml", []byte(`classes: [{name: a, population: 3, think_time: 1}, {name: b, population: 2}]
stations: [{name: cpu, service_time: {a: 0.2, b: 0.1}}, {name: disk, service_time: {a: 0.3, b: 0.5}}]
`))
	s, err := New(m, Config{Events: 20000})
	if err != nil {
		t.Fatal(err)
	}
	const seed, n = 7, 6
	want, err := s.Replicate(Options{Seed: seed, Reps: n})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CheckStudy(Options{Seed: seed, Reps: n}); err != nil {
		t.Fatal(err)
	}
	reps := make([]*RepResult, n)
	for k := range reps {
		r, err := s.Run(seed, uint64(k))
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		reps[k] = new(RepResult)
		if err := json.Unmarshal(b, reps[k]); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Summarise(reps)
	if err != nil {
		t.Fatal(err)
	}
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if string(gb) != string(wb) {
		t.Fatalf("summarised shards\n%s\nReplicate\n%s", gb, wb)
	}
	if _, err := s.Summarise(reps[:1]); !errors.Is(err, fault.ErrInput) {
		t.Errorf("one replication: %v, want fault.ErrInput", err)
	}
	if err := s.CheckStudy(Options{Reps: n, Precision: 0.05}); !errors.Is(err, fault.ErrInput) {
		t.Errorf("a precision study: %v, want fault.ErrInput", err)
	}
}

// TestRepJSONNaN: a replication with no completion of a class has a NaN response time,
// which travels as null and comes back NaN.
func TestRepJSONNaN(t *testing.T) {
	r := &RepResult{Throughput: []float64{0}, ResponseTime: []float64{math.NaN()}, QueueLength: [][]float64{{0.1}}, Utilization: []float64{1.0 / 3}, Events: 9, Time: 2.5}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back RepResult
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(back.ResponseTime[0]) || back.Utilization[0] != 1.0/3 || back.Time != 2.5 || back.Events != 9 {
		t.Fatalf("%s read back as %+v", b, back)
	}
}

// TestSPMDEstimateIsReplicateSPMD: SimulateSPMD's replications one by one, summarised,
// equal ReplicateSPMD's estimate for the same seed.
func TestSPMDEstimateIsReplicateSPMD(t *testing.T) {
	// one phase of runlength_test.go's BUS-AIO program (c = 1, n_IO = 1)
	m := &spmd.Model{Arch: spmd.BusAIO, Phases: []spmd.Phase{{C: 1, NIO: 1, SPar: 1, SRIO: 0.1, S0IO: 0.01}}}
	cfg := SPMDConfig{Cycles: 200}
	want, err := ReplicateSPMD(m, 4, 2, cfg, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	got, err := SPMDEstimate(spmdCycleTimes(t, m, cfg, 3, 5))
	if err != nil || got != want {
		t.Fatalf("SPMDEstimate %+v (%v), ReplicateSPMD %+v", got, err, want)
	}
	if _, err := SPMDEstimate([]float64{1, math.NaN()}); !errors.Is(err, fault.ErrInput) {
		t.Errorf("NaN: %v", err)
	}
}

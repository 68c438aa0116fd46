package tpn

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestAdviseStudyIsAdvise: the mappings simulated one by one (as the shards of a study do),
// through their JSON form, merge to exactly AdviseWith's exhaustive answer — the contract of
// a sharded study (package shard) — on the example programs.
func TestAdviseStudyIsAdvise(t *testing.T) {
	for _, prog := range []string{"matmul", "pipeline", "masterworker"} {
		p, c := load(t, "../examples/tpn/"+prog+".yaml", "../examples/tpn/cluster.yaml")
		o := AdviseOptions{Budget: 50}
		want, err := AdviseWith(p, c, o)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewAdviseStudy(p, c, o)
		if !want.Exhaustive {
			if !errors.Is(err, fault.ErrInput) {
				t.Errorf("%s: heuristic search as a study: %v, want fault.ErrInput", prog, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		times := make([]MappingTime, s.Items())
		for k := range times {
			mt, err := s.Eval(k)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(mt)
			if err := json.Unmarshal(b, &times[k]); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.Merge(times)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: merged %+v\nAdviseWith %+v", prog, got, want)
		} else {
			t.Logf("%s: %d mappings, best %.6g s (given %.6g s, bound %.6g s)", prog, s.Items(), got.Time, got.Given, got.LowerBound)
		}
		if _, err := s.Merge(times[1:]); !errors.Is(err, fault.ErrInput) {
			t.Errorf("%s: a missing mapping: %v", prog, err)
		}
	}
}

// TestAdviseStudyNoneCompletes: merged outcomes in which no mapping completes (a shard file
// says so) are a deadlock finding, never an advice with an infinite time.
func TestAdviseStudyNoneCompletes(t *testing.T) {
	p, c := load(t, "../examples/tpn/matmul.yaml", "../examples/tpn/cluster.yaml")
	s, err := NewAdviseStudy(p, c, AdviseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	adv, err := s.Merge(make([]MappingTime, s.Items()))
	if !errors.Is(err, fault.ErrDeadlock) || adv != nil {
		t.Errorf("no mapping completes: %v, %v; want fault.ErrDeadlock", adv, err)
	}
}

package simapp

import (
	"context"
	"encoding/json"

	"github.com/clusterperf/clusterperf/app/studyapp"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/spmd"
	"github.com/clusterperf/clusterperf/validate"
)

// Study is a simulation of a queueing network split into its replications
// (studyapp.Study, issue 18): item k is replication k, sim.Simulator.Run(seed, k), as in the
// one-machine run, and the replications of every shard summarise to its result.
type Study struct {
	mf   *qn.ModelFile
	name string
	s    *sim.Simulator
	o    Options
}

// NewStudy decodes the model file path (data; given: the flags set, as Decode) for a
// study of o.Reps replications from o.Seed (PrepareStudy's refusals).
func NewStudy(path string, data []byte, given map[string]bool, o Options) (*Study, error) {
	mf, name, s, err := PrepareStudy(path, data, given, o)
	if err != nil {
		return nil, err
	}
	return &Study{mf: mf, name: name, s: s, o: o}, nil
}

func (st *Study) Items() int   { return st.o.Reps }
func (st *Study) Seed() uint64 { return st.o.Seed }

// Work simulates replication k.
func (st *Study) Work(shard.Range) studyapp.Work {
	return func(k int) (json.RawMessage, error) {
		r, err := st.s.Run(st.o.Seed, uint64(k))
		if err != nil {
			return nil, err
		}
		return json.Marshal(r)
	}
}

// Merge summarises the replications (each checked: studyapp.SummariseReps) beside the
// model's analytic solution: simulate's one-machine result, byte for byte in every format.
func (st *Study) Merge(items []json.RawMessage) (any, error) {
	res, err := studyapp.SummariseReps(st.s, items, st.mf.Model)
	if err != nil {
		return nil, err
	}
	an, anErr := st.mf.Solve(context.Background(), "auto", qn.AMVAOptions{})
	return NewQNResult(st.name, st.mf.Model, an, anErr, res, st.o.Seed), nil
}

// SPMDStudy is the simulation of speedup --validate split into replications: item k is
// replication k mod Reps at the configuration pds[k div Reps], sim.SimulateSPMD from
// (Seed, k mod Reps) as sim.ReplicateSPMD does; the items merge into the validation report
// (SPMDReport), which result puts into the command's one-machine result.
type SPMDStudy struct {
	m      *spmd.Model
	e      *spmd.Evaluator
	pds    [][2]int
	o      Options
	cfg    sim.SPMDConfig
	result func(*validate.Report) any
}

// NewSPMDStudy prepares the study of model m (evaluated by e) at pds under o, refusing
// what the one-machine simulation refuses (SPMDConfig).
func NewSPMDStudy(m *spmd.Model, e *spmd.Evaluator, pds [][2]int, o Options, result func(*validate.Report) any) (*SPMDStudy, error) {
	cfg, err := SPMDConfig(o, m)
	if err != nil {
		return nil, err
	}
	return &SPMDStudy{m: m, e: e, pds: pds, o: o, cfg: cfg, result: result}, nil
}

func (st *SPMDStudy) Items() int   { return len(st.pds) * st.o.Reps }
func (st *SPMDStudy) Seed() uint64 { return st.o.Seed }

// Work simulates item k; the item is its cycle time.
func (st *SPMDStudy) Work(shard.Range) studyapp.Work {
	return func(k int) (json.RawMessage, error) {
		pd := st.pds[k/st.o.Reps]
		r, err := sim.SimulateSPMD(st.m, pd[0], pd[1], st.cfg, st.o.Seed, uint64(k%st.o.Reps))
		if err != nil {
			return nil, err
		}
		return json.Marshal(r.CycleTime)
	}
}

// Merge reads the cycle times (each checked: studyapp.DecodeCycleTime) into the validation
// report and returns the result it completes.
func (st *SPMDStudy) Merge(items []json.RawMessage) (any, error) {
	xs := make([]float64, len(items))
	for k, it := range items {
		if err := studyapp.DecodeCycleTime(k, it, &xs[k]); err != nil {
			return nil, err
		}
	}
	v, err := SPMDReport(st.m, st.e, st.pds, xs, st.o)
	if err != nil {
		return nil, err
	}
	return st.result(v), nil
}

package slurm

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"github.com/clusterperf/clusterperf/app"
	"strconv"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/sim"
)

// A sweep validated by simulation, sharded by sweep point: item k is point k of the sweep,
// solved analytically and simulated (replication r on stream r of the seed, as
// sim.Replicate), with the signed relative error of the model against the simulation.

type sweepItem struct {
	Value      float64      `json:"value"`
	ModelX     float64      `json:"throughput_per_s"`
	ModelR     float64      `json:"response_time_s"`
	SimX       sim.Estimate `json:"sim_throughput_per_s"`
	SimR       sim.Estimate `json:"sim_response_time_s"`
	RelErrorX  float64      `json:"rel_error_throughput"`
	RelErrorR  float64      `json:"rel_error_response_time"`
	Replicated int          `json:"replications"`
}

type sweepStudy struct {
	model  *qn.Model
	param  qn.SweepParam
	values []float64
	seed   uint64
	reps   int
	events int64
}

func newSweepStudy(sweep string, seed uint64, reps int, events int64) (*sweepStudy, error) {
	m, _, err := qn.ParseModel("disk-group.yaml", []byte(workerModel))
	if err != nil {
		return nil, err
	}
	p, vals, err := app.ParseSweep(sweep, m)
	if err != nil {
		return nil, err
	}
	return &sweepStudy{model: m, param: p, values: vals, seed: seed, reps: reps, events: events}, nil
}

func (s *sweepStudy) point(k int) (json.RawMessage, error) {
	mm := s.param.Apply(s.model, s.values[k])
	an, err := qn.Solve(context.Background(), mm, "auto", qn.AMVAOptions{})
	if err != nil {
		return nil, err
	}
	sm, err := sim.New(mm, sim.Config{Events: s.events})
	if err != nil {
		return nil, err
	}
	res, err := sm.Replicate(sim.Options{Seed: s.seed, Reps: s.reps, MaxReps: s.reps})
	if err != nil {
		return nil, err
	}
	it := sweepItem{Value: s.values[k], ModelX: an.Throughput[0], ModelR: an.ResponseTime[0],
		SimX: res.Throughput[0], SimR: res.ResponseTime[0], Replicated: res.Replications}
	it.RelErrorX = (it.ModelX - it.SimX.Mean) / it.SimX.Mean
	it.RelErrorR = (it.ModelR - it.SimR.Mean) / it.SimR.Mean
	return json.Marshal(it)
}

func sweepArgs(sweep string, seed uint64, reps int, events int64) []string {
	return []string{"--sweep", sweep, "--seed", strconv.FormatUint(seed, 10), "--reps", strconv.Itoa(reps), "--events", strconv.FormatInt(events, 10)}
}

func sweepWorker(args []string) error {
	fl := flag.NewFlagSet("sweep-validate", flag.ContinueOnError)
	sweep := fl.String("sweep", "", "")
	seed := fl.Uint64("seed", 1, "")
	reps := fl.Int("reps", 4, "")
	events := fl.Int64("events", 5000, "")
	shardFlag := fl.String("shard", "", "")
	out := fl.String("out", "", "")
	if err := fl.Parse(args); err != nil {
		return err
	}
	i, n, err := shard.ParseShard(*shardFlag)
	if err != nil {
		return err
	}
	s, err := newSweepStudy(*sweep, *seed, *reps, *events)
	if err != nil {
		return err
	}
	p, err := shard.NewPlan("sweep-validate", sweepArgs(*sweep, *seed, *reps, *events), *seed, shard.Spec{Items: len(s.values), N: n}, "test")
	if err != nil {
		return err
	}
	return shard.Run(*out, p, i, s.point)
}

// TestSlurmSweepValidate: solve --sweep population=1:24 --validate as 8 array tasks of 3
// points each: the merged points are byte-identical to the points computed in order on one
// machine; and the model agrees with the simulation (the disk-group network is product form:
// exact MVA is the simulated system's mean, so |rel_error| stays within a few half-widths).
func TestSlurmSweepValidate(t *testing.T) {
	c := requireSlurm(t)
	t.Parallel()
	const sweep, seed, reps, events, n = "population=1:24", 11, 4, 5000, 8
	s, err := newSweepStudy(sweep, seed, reps, events)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	local := make([]json.RawMessage, len(s.values))
	for k := range local {
		if local[k], err = s.point(k); err != nil {
			t.Fatal(err)
		}
	}
	localWall := time.Since(t0)
	args := sweepArgs(sweep, seed, reps, events)
	plan, err := shard.NewPlan("sweep-validate", args, seed, shard.Spec{Items: len(s.values), N: n}, "test")
	if err != nil {
		t.Fatal(err)
	}
	m, sharded := submitWaitMerge(t, c, plan, args)
	for k, it := range m.Items {
		if !bytes.Equal(it, local[k]) {
			t.Fatalf("point %d: sharded %s, local %s", k, it, local[k])
		}
		var p sweepItem
		json.Unmarshal(it, &p)
		// 4 replications: t(0.975, 3) = 3.18 makes the half-width wide; the model must lie
		// within 2 half-widths of the simulated mean
		if d := p.ModelX - p.SimX.Mean; d > 2*p.SimX.Half || -d > 2*p.SimX.Half {
			t.Errorf("N=%g: model X %g, simulated %g ± %g", p.Value, p.ModelX, p.SimX.Mean, p.SimX.Half)
		}
	}
	t.Logf("sweep of %d points validated by simulation: local %v, sharded over %d array tasks %v",
		len(m.Items), localWall.Round(time.Millisecond), n, sharded.Round(time.Millisecond))
}

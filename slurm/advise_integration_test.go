package slurm

import (
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/tpn"
)

// The exhaustive search of tpn.Advise, sharded: item k is mapping k, process i on
// workstation digit i of k in base W (process 0 the least significant digit: Advise's
// enumeration order), evaluated by building the net and simulating it as Advise does.

type adviseItem struct {
	Completed bool    `json:"completed"`
	Time      float64 `json:"time_s"`
}

func loadAdvise(prog, cluster string) (*tpn.Program, *tpn.Cluster, error) {
	pb, err := os.ReadFile(prog)
	if err != nil {
		return nil, nil, err
	}
	p, err := tpn.ParseProgram(prog, pb)
	if err != nil {
		return nil, nil, err
	}
	cb, err := os.ReadFile(cluster)
	if err != nil {
		return nil, nil, err
	}
	c, err := tpn.ParseCluster(cluster, cb)
	return p, c, err
}

// mappings is W^P, refused beyond tpn.MaxExhaustive (Advise searches heuristically there,
// which is sequential and not sharded).
func mappings(p *tpn.Program, c *tpn.Cluster) (int, error) {
	n := math.Pow(float64(len(c.Workstations)), float64(len(p.Processes)))
	if n > tpn.MaxExhaustive {
		return 0, errors.New("more mappings than tpn.MaxExhaustive: not an exhaustive search")
	}
	return int(n), nil
}

func assignment(p *tpn.Program, c *tpn.Cluster, k int) map[string]string {
	W := len(c.Workstations)
	a := map[string]string{}
	for _, pr := range p.Processes {
		a[pr.Name] = c.Workstations[k%W].Name
		k /= W
	}
	return a
}

func evalMapping(p *tpn.Program, c *tpn.Cluster, k int) (adviseItem, error) {
	q := *p
	q.Allocation = assignment(p, c, k)
	n, err := tpn.Build(&q, c)
	if err != nil {
		return adviseItem{}, err
	}
	r, err := n.Run(tpn.Options{})
	if err != nil {
		return adviseItem{}, err
	}
	if r.Outcome != tpn.Completed {
		return adviseItem{}, nil
	}
	return adviseItem{Completed: true, Time: tpn.Seconds(r.Time)}, nil
}

func adviseWorker(args []string) error {
	fl := flag.NewFlagSet("tpn-advise", flag.ContinueOnError)
	prog := fl.String("program", "", "")
	cluster := fl.String("cluster", "", "")
	shardFlag := fl.String("shard", "", "")
	out := fl.String("out", "", "")
	if err := fl.Parse(args); err != nil {
		return err
	}
	i, n, err := shard.ParseShard(*shardFlag)
	if err != nil {
		return err
	}
	p, c, err := loadAdvise(*prog, *cluster)
	if err != nil {
		return err
	}
	items, err := mappings(p, c)
	if err != nil {
		return err
	}
	plan, err := shard.NewPlan("tpn-advise", []string{"--program", *prog, "--cluster", *cluster}, 0, shard.Spec{Items: items, N: n}, "test")
	if err != nil {
		return err
	}
	return shard.Run(*out, plan, i, func(k int) (json.RawMessage, error) {
		it, err := evalMapping(p, c, k)
		if err != nil {
			return nil, err
		}
		return json.Marshal(it)
	})
}

// mergeAdvise is the first mapping of least time in index order (strict <, as Advise keeps
// the first minimum it meets).
func mergeAdvise(p *tpn.Program, c *tpn.Cluster, items []json.RawMessage) (map[string]string, float64, error) {
	best, bestT := 0, math.Inf(1)
	for k, raw := range items {
		var it adviseItem
		if err := json.Unmarshal(raw, &it); err != nil {
			return nil, 0, err
		}
		if it.Completed && it.Time < bestT {
			best, bestT = k, it.Time
		}
	}
	return assignment(p, c, best), bestT, nil
}

// TestSlurmAdvise: the exhaustive allocation search of examples/tpn (master/worker on 4
// workstations, 4⁴ = 256 mappings) as 8 array tasks on the local Slurm gives tpn.Advise's
// allocation and exactly its time.
func TestSlurmAdvise(t *testing.T) {
	c := requireSlurm(t)
	t.Parallel()
	prog, _ := filepath.Abs("../examples/tpn/masterworker.yaml")
	cluster, _ := filepath.Abs("../examples/tpn/cluster.yaml")
	p, cl, err := loadAdvise(prog, cluster)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	local, err := tpn.Advise(p, cl, 0)
	if err != nil {
		t.Fatal(err)
	}
	localWall := time.Since(t0)
	items, err := mappings(p, cl)
	if err != nil || !local.Exhaustive || local.Evaluated != items {
		t.Fatalf("local advice %+v, %d mappings %v", local, items, err)
	}
	const n = 8
	args := []string{"--program", prog, "--cluster", cluster}
	plan, err := shard.NewPlan("tpn-advise", args, 0, shard.Spec{Items: items, N: n}, "test")
	if err != nil {
		t.Fatal(err)
	}
	m, sharded := submitWaitMerge(t, c, plan, args)
	alloc, tm, err := mergeAdvise(p, cl, m.Items)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(alloc, local.Allocation.Map()) || math.Float64bits(tm) != math.Float64bits(local.Time) {
		t.Errorf("sharded advice %v %v s, local %v %v s", alloc, tm, local.Allocation, local.Time)
	}
	t.Logf("tpn advise over %d mappings: local %v, sharded over %d array tasks %v; best %v in %.6g s",
		items, localWall.Round(time.Millisecond), n, sharded.Round(time.Millisecond), alloc, tm)
}

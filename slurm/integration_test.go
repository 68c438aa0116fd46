package slurm

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/sim"
)

// workerModel is testdata/models/disk-group.yaml: a CPU and 4 disks by routing, 12 users.
const workerModel = `classes: [{name: u, population: 12, think_time: 2}]
stations:
  - {name: cpu, service_time: 0.01}
  - {name: disk, count: 4, service_time: 0.04}
routing:
  u: {from: {cpu: {disk: 0.8, cpu: 0.2}, disk: {cpu: 1}}}
`

// simulator builds the study's simulator; events is the measured events per replication.
func simulator(events int64) (*sim.Simulator, error) {
	m, _, err := qn.ParseModel("disk-group.yaml", []byte(workerModel))
	if err != nil {
		return nil, err
	}
	return sim.New(m, sim.Config{Events: events})
}

// repJSON encodes one replication; encoding/json writes the shortest decimal that reads
// back to the same float64, so the round trip through a shard file is exact.
func repJSON(r *sim.RepResult) (json.RawMessage, error) { return json.Marshal(r) }

func simulateWorker(args []string) error {
	fl := flag.NewFlagSet("simulate", flag.ContinueOnError)
	seed := fl.Uint64("seed", 1, "")
	reps := fl.Int("reps", 10, "")
	events := fl.Int64("events", 20000, "")
	shardFlag := fl.String("shard", "", "")
	out := fl.String("out", "", "")
	if err := fl.Parse(args); err != nil {
		return err
	}
	i, n, err := shard.ParseShard(*shardFlag)
	if err != nil {
		return err
	}
	study := []string{"--seed", strconv.FormatUint(*seed, 10), "--reps", strconv.Itoa(*reps), "--events", strconv.FormatInt(*events, 10)}
	p, err := shard.NewPlan("simulate", study, *seed, shard.Spec{Items: *reps, N: n}, "test")
	if err != nil {
		return err
	}
	s, err := simulator(*events)
	if err != nil {
		return err
	}
	hold := filepath.Join(*out, fmt.Sprintf("hold-%d", i))
	first := true
	return shard.Run(*out, p, i, func(k int) (json.RawMessage, error) {
		r, err := s.Run(p.Seed, uint64(k)) // stream k of the seed: replication k, as sim.Replicate
		if err != nil {
			return nil, err
		}
		// a held shard stops after its first item until the test removes DIR/hold-i (or
		// cancels it): a shard killed mid-run
		if _, err := os.Stat(hold); err == nil && first {
			os.WriteFile(filepath.Join(*out, fmt.Sprintf("holding-%d", i)), nil, 0o644)
			for t0 := time.Now(); time.Since(t0) < 2*time.Minute; time.Sleep(100 * time.Millisecond) {
				if _, err := os.Stat(hold); err != nil {
					break
				}
			}
		}
		first = false
		return repJSON(r)
	})
}

// TestSlurmSimulateStudy runs a 120-replication simulation study as 8 array tasks on the
// local Slurm; shard 5 is held after its first replication and cancelled with scancel. The
// status then shows 7 shards done and shard 5 failed with no shard file; a resubmission runs
// shard 5 alone; the merged replications are byte-identical to sim.Replicate's on one
// machine with the same seed (stream k of the seed for replication k).
func TestSlurmSimulateStudy(t *testing.T) {
	c := requireSlurm(t)
	t.Parallel()
	const (
		seed   = 20261122
		reps   = 120
		n      = 8
		events = 20000
		held   = 5
	)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	// the one-machine run
	s, err := simulator(events)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	local, err := s.Replicate(sim.Options{Seed: seed, Reps: reps, MaxReps: reps})
	if err != nil {
		t.Fatal(err)
	}
	localWall := time.Since(t0)
	if len(local.Reps) != reps {
		t.Fatalf("local run: %d replications", len(local.Reps))
	}

	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	study := []string{"--seed", strconv.Itoa(seed), "--reps", strconv.Itoa(reps), "--events", strconv.Itoa(events)}
	p, err := shard.NewPlan("simulate", study, seed, shard.Spec{Items: reps, N: n}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if err := shard.WritePlan(dir, p); err != nil {
		t.Fatal(err)
	}
	hold := filepath.Join(dir, fmt.Sprintf("hold-%d", held))
	os.WriteFile(hold, nil, 0o644)
	j := Job{Executable: exe, Command: "simulate", Args: study, Dir: dir, Shards: n}

	t1 := time.Now()
	sub, err := c.submit(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("submitted job %s (array %s)", sub.JobID, sub.Array)
	// wait until shard 5 is mid-run, then kill it
	for {
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("holding-%d", held))); err == nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("shard %d never started: %v", held, logs(dir, held))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := cancelTask(ctx, c, sub.JobID, held); err != nil {
		t.Fatal(err)
	}
	st, err := c.Wait(ctx, dir, 250*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	firstWall := time.Since(t1)
	want := []int{0, 1, 2, 3, 4, 6, 7}
	if got := st.Indices(StateDone); !reflect.DeepEqual(got, want) {
		t.Fatalf("done %v, want %v; status %+v; %s", got, want, st.Shards, logs(dir, held))
	}
	if got := st.Indices(StateFailed); !reflect.DeepEqual(got, []int{held}) {
		t.Fatalf("failed %v, want [%d]; %+v", got, held, st.Shards)
	}
	t.Logf("after scancel: shard %d: %s", held, st.Shards[held].Reason)
	if _, err := os.Stat(filepath.Join(dir, shard.FileName(held, n))); err == nil {
		t.Fatal("the cancelled shard left a result file")
	}
	if _, err := shard.Merge(dir); err == nil {
		t.Fatal("merge of an incomplete study succeeded")
	}

	// what a user sees: clusterperf merge --status names the killed shard (failed: Slurm
	// ended it without a shard file), merge refuses (the shard file is missing, and it
	// points to --status), and merge --resubmit reruns shard 5 alone
	cp := buildCLI(t)
	if code, out, errs := cli(cp, t.TempDir(), "merge", "--status", dir); code != 0 ||
		!bytes.Contains(out, []byte("done 7, active 0, failed 1, missing 0")) || !bytes.Contains(out, []byte("CANCELLED")) {
		t.Errorf("merge --status: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := cli(cp, t.TempDir(), "merge", dir); code != 2 || !strings.Contains(errs, "missing: 5") || !strings.Contains(errs, "merge --status") {
		t.Errorf("merge of the incomplete study: exit %d: %s", code, errs)
	}
	os.Remove(hold)
	t2 := time.Now()
	if out := cliOut(t, cp, t.TempDir(), "merge", "--resubmit", dir); !bytes.HasPrefix(out, []byte("resubmitted shards "+strconv.Itoa(held)+" as job ")) {
		t.Errorf("merge --resubmit printed %q, want shard %d alone", out, held)
	}
	if subs, err := Submissions(dir); err != nil || len(subs) != 2 || subs[1].Array != strconv.Itoa(held) {
		t.Errorf("submissions %+v %v: want the second for array %d alone", subs, err, held)
	}
	st, err = c.Wait(ctx, dir, 250*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Indices(StateDone)) != n {
		t.Fatalf("after resubmission: %+v %s", st.Shards, logs(dir, held))
	}
	t3 := time.Now()
	m, err := shard.Merge(dir)
	if err != nil {
		t.Fatal(err)
	}
	mergeWall := time.Since(t3)
	rerunWall := time.Since(t2)
	if len(m.Items) != reps {
		t.Fatalf("%d merged items", len(m.Items))
	}
	for k, it := range m.Items {
		want, err := repJSON(local.Reps[k])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(it, want) {
			t.Fatalf("replication %d: sharded %s\nlocal %s", k, it, want)
		}
		var back sim.RepResult
		if err := json.Unmarshal(it, &back); err != nil || !reflect.DeepEqual(&back, local.Reps[k]) {
			t.Fatalf("replication %d does not decode to the local value: %v", k, err)
		}
	}
	t.Logf("local sim.Replicate of %d replications on %d cores: %v; sharded over %d array tasks: first submission to all settled %v (with shard %d held and cancelled), rerun of shard %d %v, merge %v",
		reps, runtime.GOMAXPROCS(0), localWall, n, firstWall, held, held, rerunWall, mergeWall)
}

// TestSlurmClean runs the same study without faults, to measure the sharded wall time
// (submission to merged result) against the local run. It is a measurement, run with
// CLUSTERPERF_SLURM_MEASURE=1 (TestSlurmSimulateStudy checks the same path in every run).
func TestSlurmClean(t *testing.T) {
	if os.Getenv("CLUSTERPERF_SLURM_MEASURE") != "1" {
		t.Skip("a measurement: set CLUSTERPERF_SLURM_MEASURE=1 (and CLUSTERPERF_SLURM_EVENTS for longer replications)")
	}
	c := requireSlurm(t)
	t.Parallel()
	const seed, reps, n = 7, 120, 8
	events := 20000 // CLUSTERPERF_SLURM_EVENTS=200000 for a study where the work, not Slurm, dominates
	if v, err := strconv.Atoi(os.Getenv("CLUSTERPERF_SLURM_EVENTS")); err == nil && v > 0 {
		events = v
	}
	s, err := simulator(int64(events))
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	local, err := s.Replicate(sim.Options{Seed: seed, Reps: reps, MaxReps: reps})
	if err != nil {
		t.Fatal(err)
	}
	localWall := time.Since(t0)
	study := []string{"--seed", strconv.Itoa(seed), "--reps", strconv.Itoa(reps), "--events", strconv.Itoa(events)}
	p, _ := shard.NewPlan("simulate", study, seed, shard.Spec{Items: reps, N: n}, "test")
	m, sharded := submitWaitMerge(t, c, p, study)
	for k, it := range m.Items {
		want, _ := repJSON(local.Reps[k])
		if !bytes.Equal(it, want) {
			t.Fatalf("replication %d differs", k)
		}
	}
	t.Logf("%d replications × %d events: local %v, sharded over %d Slurm array tasks (submit, run, poll, merge) %v",
		reps, events, localWall.Round(time.Millisecond), n, sharded.Round(time.Millisecond))
}

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/shard"
)

// rewrite copies the study in src to a new directory, editing the plan of plan.json and of
// every shard manifest with edit; with rehash the shards' plan_sha256 is recomputed (a
// consistent study of another plan), else left (a forged manifest).
func rewrite(t *testing.T, src string, rehash bool, edit func(p *shard.Plan)) string {
	t.Helper()
	return copyStudy(t, src, func(name string, b []byte) []byte {
		switch {
		case name == "plan.json":
			var p shard.Plan
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatal(err)
			}
			edit(&p)
			b, _ = json.Marshal(p)
		case strings.HasSuffix(name, ".json"):
			var f shard.File
			if err := json.Unmarshal(b, &f); err != nil {
				t.Fatal(err)
			}
			edit(&f.Manifest.Plan)
			if rehash {
				f.Manifest.PlanSHA256 = f.Manifest.Plan.Hash()
			}
			b, _ = json.Marshal(f)
		}
		return b
	})
}

// Study integrity (issue 32): shards of another version merged silently; a shard whose
// manifest was edited, a shard file that is a FIFO (merge blocked forever) are refused.
// Each refusal is exit 2 within a second, naming what differs.
func TestMergeStudyIntegrity(t *testing.T) {
	model := filepath.Join("..", "..", "examples", "qn", "central-server.yaml")
	src := t.TempDir()
	shardAll(t, src, 2, "simulate", "--seed", "3", "--reps", "4", "--events", "20000", model)
	if code, _, errs := cli("merge", src); code != 0 {
		t.Fatalf("untouched study: exit %d: %s", code, errs)
	}
	other := rewrite(t, src, true, func(p *shard.Plan) { p.Version = "v0.9.0 0123456789ab, go1.22" })
	forged := rewrite(t, src, false, func(p *shard.Plan) { p.Seed = 4 })
	fifo := rewrite(t, src, true, func(*shard.Plan) {})
	os.Remove(filepath.Join(fifo, shard.FileName(1, 2)))
	if err := syscall.Mkfifo(filepath.Join(fifo, shard.FileName(1, 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	planFIFO := rewrite(t, src, true, func(*shard.Plan) {})
	os.Remove(filepath.Join(planFIFO, "plan.json"))
	syscall.Mkfifo(filepath.Join(planFIFO, "plan.json"), 0o644)
	for _, c := range []struct{ name, dir, want string }{
		{"another version", other, `computed by clusterperf "v0.9.0 0123456789ab, go1.22", this is`},
		{"forged manifest", forged, "plan_sha256"},
		{"FIFO shard", fifo, shard.FileName(1, 2) + ": not a regular file (a FIFO)"},
		{"FIFO plan", planFIFO, "plan.json: not a regular file (a FIFO)"},
	} {
		start := time.Now()
		done := make(chan struct{})
		var code int
		var errs string
		go func() { code, _, errs = cli("merge", c.dir); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: merge blocked", c.name)
		}
		if code != fault.ExitInput || !strings.Contains(errs, c.want) || time.Since(start) > time.Second {
			t.Errorf("%s: exit %d after %v: %s", c.name, code, time.Since(start), errs)
		}
	}
}

// SIGTERM (issue 32: what scancel and Slurm time limits send; it killed without a message or
// partial result) is handled as SIGINT: the run stops, prints what it finished marked
// partial, and exits 130. A real SIGTERM is sent to this process while simulate runs.
func TestSIGTERMPartial(t *testing.T) {
	model := filepath.Join("..", "..", "examples", "qn", "central-server.yaml")
	var out, errb syncBuf
	ctx := interruptible(context.Background(), &errb)
	go func() {
		time.Sleep(700 * time.Millisecond)
		syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
	}()
	start := time.Now()
	code := run(ctx, []string{"simulate", "--reps", "100000", "--events", "20000", "--format", "json", model}, &out, &errb)
	if code != fault.ExitInterrupted || !strings.Contains(out.String(), `"partial": true`) || !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("exit %d after %v\nstdout %.300s\nstderr %s", code, time.Since(start), out.String(), errb.String())
	}
}

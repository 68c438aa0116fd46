package slurm

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/shard"
)

func TestSubmitStudy(t *testing.T) {
	bin := fakeSlurm(t)
	dir := t.TempDir()
	p, _ := shard.NewPlan("simulate", []string{"m.yaml"}, 1, shard.Spec{Items: 100, N: 8}, "v")
	j := Job{Executable: "/bin/true", Command: "simulate", Args: []string{"m.yaml"}, Dir: dir, Shards: 8}
	for _, bad := range []func(*Job){
		func(j *Job) { j.Shards = 4 },
		func(j *Job) { j.Command = "fit" },
		func(j *Job) { j.Args = []string{"other.yaml"} },
	} {
		jb := j
		bad(&jb)
		if _, err := DryRun(p, jb); !errors.Is(err, fault.ErrInput) {
			t.Errorf("%+v: %v", jb, err)
		}
	}
	if _, err := DryRun(p, j); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "plan.json")); err == nil {
		t.Fatal("dry run wrote the plan")
	}
	sub, err := Client{Bin: bin}.SubmitStudy(context.Background(), p, j)
	if err != nil || sub.JobID != "77" {
		t.Fatalf("%+v %v", sub, err)
	}
	if got, err := shard.ReadPlan(dir); err != nil || !reflect.DeepEqual(got, p) {
		t.Errorf("plan %+v %v", got, err)
	}
}

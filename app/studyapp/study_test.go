package studyapp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/clusterperf/clusterperf/app/simapp"
	"github.com/clusterperf/clusterperf/app/studyapp"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/spmd"
	"github.com/clusterperf/clusterperf/validate"
)

// oneQueue: a closed network of one queue and a think time (2 jobs, Z = 1 s, D = 0.5 s),
// simapp's test model.
const oneQueue = `name: one queue
classes:
  - {name: jobs, population: 2, think_time: 1}
stations:
  - {name: cpu, type: queue, demand: 0.5}
`

// TestShardsMergeToOneMachine: a study started shard by shard (studyapp.Start, --shard
// i/n) and merged (studyapp.Merge) gives, byte for byte in JSON, what the one-machine run
// with the same seed gives (issue 18's contract; replication k uses stream k of the seed
// wherever it runs): simulate's queueing-network replications (simapp.Run) and speedup
// --validate's SPMD replications at three (p, d) (simapp.SimulateSPMD), over 1, 2 and 3
// shards.
func TestShardsMergeToOneMachine(t *testing.T) {
	ctx := context.Background()
	mf, err := qn.ParseModelFile("one.yaml", []byte(oneQueue))
	if err != nil {
		t.Fatal(err)
	}
	spmdFile := filepath.Join("..", "..", "examples", "spmd", "fig59-bus.yaml")
	data, err := os.ReadFile(spmdFile)
	if err != nil {
		t.Fatal(err)
	}
	m, err := spmd.ParseModel(spmdFile, data)
	if err != nil {
		t.Fatal(err)
	}
	e, err := spmd.NewEvaluator(m)
	if err != nil {
		t.Fatal(err)
	}
	pds := [][2]int{{1, 1}, {4, 1}, {16, 1}}
	qo := simapp.Options{Seed: 11, Reps: 4, Events: 4000}
	so := simapp.Options{Seed: 4, Reps: 3, Cycles: 200}
	for _, tc := range []struct {
		name  string
		study func() (studyapp.Study, error)
		one   func() (any, error)
	}{
		{"simulate, queueing network",
			func() (studyapp.Study, error) { return simapp.NewStudy("one.yaml", []byte(oneQueue), nil, qo) },
			func() (any, error) { return simapp.Run(ctx, simapp.Request{Path: "one.yaml", QN: mf, Options: qo}) }},
		{"speedup --validate, SPMD",
			func() (studyapp.Study, error) {
				return simapp.NewSPMDStudy(m, e, pds, so, func(v *validate.Report) any { return v })
			},
			func() (any, error) { return simapp.SimulateSPMD(ctx, m, e, pds, so) }},
	} {
		one, err := tc.one()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(one)
		for _, n := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("%s, %d shards", tc.name, n), func(t *testing.T) {
				t.Chdir(t.TempDir())
				line := studyapp.Line{Command: "study", Positional: []string{"model"}}
				for i := range n {
					st, err := tc.study()
					if err != nil {
						t.Fatal(err)
					}
					q := studyapp.Request{Options: studyapp.Options{Shard: fmt.Sprintf("%d/%d", i, n), Out: "dir"}, Line: line, Version: "v"}
					if err := studyapp.Start(ctx, q, st, &bytes.Buffer{}); err != nil {
						t.Fatal(err)
					}
				}
				merge := func(p shard.Plan, items []json.RawMessage) (any, error) {
					st, err := tc.study()
					if err != nil {
						return nil, err
					}
					return studyapp.MergeStudy(p, st, items)
				}
				got, err := studyapp.Merge(ctx, studyapp.MergeRequest{Dir: "dir", Version: "v"}, shard.Mergers{"study": merge})
				if err != nil {
					t.Fatal(err)
				}
				if b, _ := json.Marshal(got.Value); !bytes.Equal(b, want) {
					t.Errorf("merged:\n%s\none machine:\n%s", b, want)
				}
			})
		}
	}
}

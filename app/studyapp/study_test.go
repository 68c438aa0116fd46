package studyapp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/clusterperf/clusterperf/app/fitapp"
	"github.com/clusterperf/clusterperf/app/simapp"
	"github.com/clusterperf/clusterperf/app/solveapp"
	"github.com/clusterperf/clusterperf/app/studyapp"
	"github.com/clusterperf/clusterperf/app/tpnapp"
	"github.com/clusterperf/clusterperf/fit"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/spmd"
	"github.com/clusterperf/clusterperf/tpn"
	"github.com/clusterperf/clusterperf/validate"
)

// TestShardsMergeToOneMachine: a study started shard by shard (studyapp.Start, --shard
// i/n) and merged (studyapp.Merge) gives, byte for byte in JSON, what the one-machine run
// with the same seed gives (issue 18's contract; replication k uses stream k of the seed
// wherever it runs): simulate's queueing-network replications (central-server, simapp.Run) and speedup
// --validate's SPMD replications at three (p, d) (simapp.SimulateSPMD), solve's sweep
// with --validate and --validate of one model (solveapp.Run; striped-write has fork/join
// nodes, so the points carry simulated error estimates too), tpn --advise's exhaustive
// search (tpnapp.Run) and fit's bootstrap replicates (fitapp.Run), over 1, 2 and 3 shards.
func TestShardsMergeToOneMachine(t *testing.T) {
	ctx := context.Background()
	central := filepath.Join("..", "..", "examples", "qn", "central-server.yaml")
	cs, err := os.ReadFile(central)
	if err != nil {
		t.Fatal(err)
	}
	mf, err := qn.ParseModelFile(central, cs)
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
	striped := filepath.Join("..", "..", "examples", "qn", "striped-write.yaml")
	in, err := solveapp.ParseInput(os.ReadFile, striped)
	if err != nil {
		t.Fatal(err)
	}
	sweep := solveapp.Request{Input: in, Sweep: "population=1:5", Validate: true, Sim: simapp.Options{Seed: 3, Reps: 3, Events: 3000}}
	validateOne := solveapp.Request{Input: in, Validate: true, Sim: simapp.Options{Seed: 3, Reps: 6, Events: 3000}}
	tpnDir := filepath.Join("..", "..", "examples", "tpn")
	prog, cl, err := tpnapp.Parse(os.ReadFile, filepath.Join(tpnDir, "matmul.yaml"), filepath.Join(tpnDir, "cluster.yaml"), tpn.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	advise := tpnapp.Request{Program: prog, Cluster: cl, Run: tpn.Options{Record: true}, Advise: true, Budget: 2000}
	fitFile, fitData := filepath.Join("..", "..", "examples", "fit", "qcrd.yaml"), filepath.Join("..", "..", "examples", "fit", "qcrd.csv")
	fb, err := os.ReadFile(fitFile)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := fit.ParseSpec(fitFile, fb)
	if err != nil {
		t.Fatal(err)
	}
	sp.Bootstrap = 4
	db, err := os.ReadFile(fitData)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := fit.ReadData(fitData, bytes.NewReader(db))
	if err != nil {
		t.Fatal(err)
	}
	boot := fitapp.Request{Spec: sp, Data: fd, DataPath: fitData}
	qo := simapp.Options{Seed: 11, Reps: 4, Events: 40000}
	so := simapp.Options{Seed: 4, Reps: 3, Cycles: 200}
	for _, tc := range []struct {
		name  string
		study func() (studyapp.Study, error)
		one   func() (any, error)
	}{
		{"simulate, queueing network",
			func() (studyapp.Study, error) { return simapp.NewStudy(central, cs, nil, qo) },
			func() (any, error) { return simapp.Run(ctx, simapp.Request{Path: central, QN: mf, Options: qo}) }},
		{"solve --sweep --validate (fork/join points)",
			func() (studyapp.Study, error) { return solveapp.NewStudy(sweep, false) },
			func() (any, error) { r, err := solveapp.Run(ctx, sweep); return r.Sweep, err }},
		{"solve --validate, one model",
			func() (studyapp.Study, error) { return solveapp.NewStudy(validateOne, false) },
			func() (any, error) { r, err := solveapp.Run(ctx, validateOne); return r.Solution, err }},
		{"tpn --advise (matmul: 4^4 = 256 mappings)",
			func() (studyapp.Study, error) { return tpnapp.NewAdviceStudy(advise) },
			func() (any, error) { return tpnapp.Run(ctx, advise) }},
		{"fit --bootstrap 4 (qcrd)",
			func() (studyapp.Study, error) { return fitapp.NewStudy(boot, fitFile) },
			func() (any, error) { return fitapp.Run(ctx, boot) }},
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

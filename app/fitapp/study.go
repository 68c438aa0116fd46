package fitapp

import (
	"encoding/json"
	"fmt"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/studyapp"
	"github.com/clusterperf/clusterperf/fit"
	"github.com/clusterperf/clusterperf/shard"
)

// Study is a fit whose bootstrap is computed elsewhere (studyapp.Study, issue 18): the
// report of every candidate fitted without bootstrap, and the replicate count B. Item k is
// replicate k mod B of candidate k div B (fit.SPMDResult.Replicate, seeded by the model
// file's seed and the replicate alone), so the shards merge to the one-machine result.
type Study struct {
	q   Request
	rep *fit.Report
	b   int
}

// NewStudy fits every candidate of q without bootstrap; a request without bootstrap
// replicates (modelPath: the model file, for the message) is not a study.
func NewStudy(q Request, modelPath string) (*Study, error) {
	b := q.Spec.Bootstrap
	if b == 0 {
		return nil, app.Inputf("--shard/--slurm split the bootstrap replicates: give --bootstrap N (or bootstrap: N in %s)", modelPath)
	}
	q.Spec.Bootstrap = 0
	rep, err := fit.Run(q.Spec, q.Data)
	if err != nil {
		return nil, app.Input(DataError(q.DataPath, err))
	}
	q.Spec.Bootstrap = b
	return &Study{q: q, rep: rep, b: b}, nil
}

// Items is the number of replicates over all candidates.
func (s *Study) Items() int { return len(s.rep.Candidates) * s.b }

// Seed is the model file's seed.
func (s *Study) Seed() uint64 { return s.q.Spec.Seed }

// Work refits replicate k mod B of candidate k div B; a failed refit is null (counted as
// such by the merge, as by the one-machine run).
func (s *Study) Work(shard.Range) studyapp.Work {
	return func(k int) (json.RawMessage, error) {
		x, _ := s.rep.Candidates[k/s.b].Replicate(k % s.b)
		return json.Marshal(x)
	}
}

// Merge gives every candidate its replicates, each checked for shape and range
// (studyapp.DecodeReplicate, fit.SPMDResult.CheckReplicate), and assembles fit's result.
func (s *Study) Merge(items []json.RawMessage) (any, error) {
	for i, c := range s.rep.Candidates {
		draws := make([][]float64, s.b)
		for b := range draws {
			k := i*s.b + b
			if err := studyapp.DecodeReplicate(k, items[k], &draws[b]); err != nil {
				return nil, err
			}
			if err := c.CheckReplicate(draws[b]); err != nil {
				return nil, studyapp.ItemErr(k, fmt.Errorf("bootstrap replicate %d: %w", b, err))
			}
		}
		c.SetBootstrap(draws)
	}
	return Finish(s.q, s.rep)
}

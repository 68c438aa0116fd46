package studyapp

import (
	"context"
	"fmt"
	"io"
	"maps"
	"strconv"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/slurm"
)

// MergeRequest is what "clusterperf merge DIR" asks: the study in Dir merged into the
// one-machine result (by the merge of its command, checked against Version: Checked), or
// its shards' states (Status), or its failed and missing shards submitted again
// (Resubmit). Format and Plot are the output the caller will render, checked here.
type MergeRequest struct {
	Dir              string
	Status, Resubmit bool
	Format, Plot     string
	Version          string
}

// Check is the request's refusals (flag names as merge spells them).
func (q MergeRequest) Check() []string {
	var errs []string
	if (q.Status || q.Resubmit) && q.Format == "csv" {
		errs = append(errs, "--format csv: --status and --resubmit print a table or JSON")
	}
	if (q.Status || q.Resubmit) && q.Plot != "" {
		errs = append(errs, "--plot draws a merged result: not with --status or --resubmit")
	}
	return errs
}

// Merged is merge's answer: the merged study's result (Value: the value the command's
// one-machine run returns), or its shards' states (Status), or, with Resubmit, the new
// submission (Resubmitted; nil when every shard was done or still queued or running).
type Merged struct {
	Value       any
	Status      *slurm.StudyStatus
	Resubmit    bool
	Resubmitted *slurm.Submission
}

// Merge answers q. The merge of the study's command is looked up in ms (a plan naming a
// command without one is refused, exit 2) and runs after Checked's checks.
func Merge(ctx context.Context, q MergeRequest, ms shard.Mergers) (*Merged, error) {
	c := slurm.Client{}
	switch {
	case q.Resubmit:
		sub, ok, err := c.Resubmit(ctx, q.Dir)
		if err != nil || !ok {
			return &Merged{Resubmit: true}, app.Classify(err)
		}
		return &Merged{Resubmit: true, Resubmitted: &sub}, nil
	case q.Status:
		st, err := c.Status(ctx, q.Dir)
		if err != nil {
			return nil, app.Classify(err)
		}
		return &Merged{Status: st}, nil
	}
	checked := maps.Clone(ms)
	for name, f := range checked {
		checked[name] = Checked(q.Version, f)
	}
	v, _, err := checked.Merge(q.Dir)
	if err != nil {
		return nil, app.Classify(err)
	}
	return &Merged{Value: v}, nil
}

// WriteText writes a Status or Resubmit answer as merge prints it: what was resubmitted,
// or a line on the study, a table of its shards (index, item range, state, Slurm task and
// state, reason) and the notes.
func (m *Merged) WriteText(w io.Writer) error {
	if m.Resubmit {
		if m.Resubmitted == nil {
			_, err := fmt.Fprintln(w, "nothing to resubmit: every shard is done or still queued/running")
			return err
		}
		s := m.Resubmitted
		_, err := fmt.Fprintf(w, "resubmitted shards %s as job %s (script %s)\n", s.Array, s.JobID, s.Script)
		return err
	}
	st := m.Status
	t := &report.Table{Header: []string{"shard", "items", "state", "slurm", "reason"}}
	for _, sh := range st.Shards {
		r, _ := st.Plan.Spec.Range(sh.Index)
		task := ""
		if sh.Task != nil {
			task = sh.Task.JobID + "_" + strconv.Itoa(sh.Index) + " " + sh.Task.State
		}
		t.Add(sh.Index, fmt.Sprintf("%d-%d", r.Lo, r.Hi-1), sh.State, task, sh.Reason)
	}
	fmt.Fprintf(w, "study %s (%d items over %d shards, seed %d): done %d, active %d, failed %d, missing %d\n",
		st.Plan.Command, st.Plan.Items, st.Plan.N, st.Plan.Seed, len(st.Indices(slurm.StateDone)),
		len(st.Indices(slurm.StateActive)), len(st.Indices(slurm.StateFailed)), len(st.Indices(slurm.StateMissing)))
	if err := t.WriteText(w); err != nil {
		return err
	}
	for _, n := range st.Notes {
		fmt.Fprintln(w, "note:", n)
	}
	return nil
}

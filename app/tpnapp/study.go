package tpnapp

import (
	"encoding/json"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/studyapp"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/sizing"
	"github.com/clusterperf/clusterperf/tpn"
)

// Parse reads a program file and its cluster file with read (the command reads the user's
// files; a study's merge reads them where its plan recorded them) and decodes them under bo.
func Parse(read func(string) ([]byte, error), path, cluster string, bo tpn.BuildOptions) (*tpn.Program, *tpn.Cluster, error) {
	pb, err := read(path)
	if err != nil {
		return nil, nil, err
	}
	prog, err := tpn.ParseProgramWith(path, pb, bo)
	if err != nil {
		return nil, nil, app.Input(err)
	}
	cb, err := read(cluster)
	if err != nil {
		return nil, nil, err
	}
	cl, err := tpn.ParseClusterWith(cluster, cb, read)
	if err != nil {
		return nil, nil, app.Input(err)
	}
	return prog, cl, nil
}

// AdviceStudy is a tpn --advise study (studyapp.Study): item k is the time of mapping k of
// the exhaustive search (tpn.AdviseStudy.Eval, from the program and k alone); the items
// merge into the one-machine run's result, byte for byte in every format.
type AdviceStudy struct {
	out    *Result
	st     *tpn.AdviseStudy
	sizing sizing.Options
}

// NewAdviceStudy runs the program's own allocation of q (a deadlock or cut-off is the
// finding it is on one machine) and prepares the exhaustive advice study of q.Budget, to be
// sized under q.Sizing.
func NewAdviceStudy(q Request) (*AdviceStudy, error) {
	out, err := Deterministic(q)
	if err != nil {
		return nil, err
	}
	st, err := tpn.NewAdviseStudy(q.Program, q.Cluster, tpn.AdviseOptions{Budget: q.Budget})
	if err != nil {
		return nil, app.Lib(err)
	}
	return &AdviceStudy{out: out, st: st, sizing: q.Sizing}, nil
}

// Items is the number of mappings searched.
func (a *AdviceStudy) Items() int { return a.st.Items() }

// Seed is 0: the mappings' runs are deterministic.
func (a *AdviceStudy) Seed() uint64 { return 0 }

// Work simulates mapping k.
func (a *AdviceStudy) Work(shard.Range) studyapp.Work {
	return func(k int) (json.RawMessage, error) {
		mt, err := a.st.Eval(k)
		if err != nil {
			return nil, err
		}
		return json.Marshal(mt)
	}
}

// Merge completes the result with the advice of the study's items (mapping k's time, each
// checked against the study) and sizes it: the one-machine run's result.
func (a *AdviceStudy) Merge(items []json.RawMessage) (any, error) {
	times := make([]tpn.MappingTime, len(items))
	for k, it := range items {
		if err := studyapp.DecodeMapping(k, it, &times[k]); err != nil {
			return nil, err
		}
		if err := studyapp.RecheckMapping(a.st, k, times[k]); err != nil {
			return nil, err
		}
	}
	var err error
	if a.out.Advice, err = a.st.Merge(times); err != nil {
		return nil, app.Lib(err)
	}
	if err := a.out.Size(a.sizing); err != nil {
		return nil, err
	}
	return a.out, nil
}

// SaveGantt draws the result's Gantt chart (Gantt) to path.
func (r *Result) SaveGantt(path string) error {
	p, err := r.Gantt()
	if err != nil {
		return err
	}
	return report.SaveFigure(path, p)
}

// Gantt is the result's Gantt chart (tpn --plot, the explorer's): a row per process;
// computing, loops with their iterations grouped, and messages.
func (r *Result) Gantt() (report.Panel, error) {
	rows := make([]string, len(r.Processes))
	for i, t := range r.Processes {
		rows[i] = t.Name
	}
	spans := r.Spans()
	bars := make([]report.Span, len(spans))
	for i, s := range spans {
		bars[i] = report.Span{Row: s.Process, Start: s.Start, End: s.End, Kind: s.Kind}
		switch s.Kind {
		case "transfer", "transfers": // a channel's many messages: one span
			bars[i].Color, bars[i].Thin = 5, true
		case "loop": // a loop's iterations grouped: first start to last end
			bars[i].Color = 2
		}
	}
	return report.Gantt("Gantt chart: computing, loops (iterations grouped) and messages on the network", "time (s)", rows, bars)
}

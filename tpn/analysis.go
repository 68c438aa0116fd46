package tpn

import "sort"

// ProcessTimes is where a process's time went.
type ProcessTimes struct {
	Name      string  `json:"name"`
	Finish    float64 `json:"finish_s"`    // s: its last step
	Computing float64 `json:"computing_s"` // s: its compute firings
	Sending   float64 `json:"sending_s"`   // s: its messages on the network (overlaps computing)
	Waiting   float64 `json:"waiting_s"`   // s: finish − computing (blocked in receives)
}

// Interval is one busy span of a process, for Gantt charts.
type Interval struct {
	Process    string
	Kind       string
	Start, End float64
	Name       string
}

// Times summarises a recorded run per process (in declaration order of the processes). A run
// whose log was dropped (Result.LogDropped) has nothing to sum: Times returns nil.
func Times(n *Net, r *Result) ([]ProcessTimes, []Interval) {
	if r.LogDropped {
		return nil, nil
	}
	idx := map[string]int{}
	var out []ProcessTimes
	for _, p := range n.Places {
		if p.Process == "" {
			continue
		}
		if _, ok := idx[p.Process]; !ok {
			idx[p.Process] = len(out)
			out = append(out, ProcessTimes{Name: p.Process})
		}
	}
	var spans []Interval
	for _, f := range r.Log {
		if f.End < 0 {
			continue
		}
		t := &n.Transitions[f.T]
		i, ok := idx[t.Process]
		if !ok {
			continue
		}
		d := Seconds(f.End - f.Start)
		switch t.Kind {
		case "compute":
			out[i].Computing += d
			spans = append(spans, Interval{t.Process, "compute", Seconds(f.Start), Seconds(f.End), t.Name})
		case "transfer":
			out[i].Sending += d
			spans = append(spans, Interval{t.Process, "transfer", Seconds(f.Start), Seconds(f.End), t.Name})
		}
		if t.Kind != "transfer" && Seconds(f.End) > out[i].Finish {
			out[i].Finish = Seconds(f.End)
		}
	}
	for i := range out {
		out[i].Waiting = out[i].Finish - out[i].Computing
	}
	return out, spans
}

// CriticalPath follows, from the last firing that ended, the firing that produced the last
// token each firing needed, back to the initial marking: the chain of steps that decided the
// completion time (for conflict-free nets, the critical path). Nil if the log was dropped.
func CriticalPath(n *Net, r *Result) []Interval {
	last := -1
	for i, f := range r.Log {
		if f.End >= 0 && (last < 0 || f.End > r.Log[last].End || (f.End == r.Log[last].End && i > last)) {
			last = i
		}
	}
	var path []Interval
	for i := last; i >= 0; i = r.Log[i].Cause {
		f := r.Log[i]
		t := n.Transitions[f.T]
		path = append(path, Interval{t.Process, t.Kind, Seconds(f.Start), Seconds(f.End), t.Name})
		if len(path) > len(r.Log) {
			break
		}
	}
	sort.SliceStable(path, func(a, b int) bool { return path[a].Start < path[b].Start })
	return path
}

package tpn

import (
	"fmt"
	"sort"
	"strings"
)

// ProcessTimes is where a process's time went.
type ProcessTimes struct {
	Name      string  `json:"name"`
	Finish    float64 `json:"finish_s"`    // s: its last step
	Computing float64 `json:"computing_s"` // s: its compute firings
	// Sending: the time during which at least one of its messages is on the network (the union
	// of its transfers, Result.OnNetwork: overlapping transfers count once); it overlaps
	// computing and waiting. Atomic runs sum the transfers' durations instead.
	Sending float64 `json:"sending_s"`
	Waiting float64 `json:"waiting_s"` // s: finish − computing (blocked in receives)
}

// Interval is one busy span of a process, for Gantt charts; a loop's iterations form one
// span (Kind "loop", or "transfers" for a channel's many messages).
type Interval struct {
	Process    string
	Kind       string
	Start, End float64
	Name       string
}

// Times summarises a run per process (in declaration order of the processes) from its
// per-transition statistics (Result.Stats: constant memory, whatever the log kept), and
// gives the Gantt chart's spans: a transition fired once is its own span; the compute steps
// of a loop form one span per process and outermost loop, from its first start to its last
// end, named with its busy time (the iterations grouped: the chart's size does not grow with
// the iteration count); a transfer transition fired more than once (a channel's messages)
// one span. A result without statistics (not from Run) has nothing to sum: nil.
func Times(n *Net, r *Result) ([]ProcessTimes, []Interval) {
	if len(r.Stats) != len(n.Transitions) {
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
	type group struct {
		first, last, busy int64
		firings           int64
		process, name     string
	}
	groups := map[string]*group{}
	var order []string
	for ti := range n.Transitions {
		t, st := &n.Transitions[ti], r.Stats[ti]
		i, ok := idx[t.Process]
		if !ok || st.Firings == 0 {
			continue
		}
		d := Seconds(st.Busy)
		switch {
		case t.Kind == "compute" && t.Loop != "":
			out[i].Computing += d
			key := t.Process + "\x00" + t.Loop
			g := groups[key]
			if g == nil {
				g = &group{first: st.FirstStart, process: t.Process, name: t.Loop}
				groups[key] = g
				order = append(order, key)
			}
			g.first, g.last = min(g.first, st.FirstStart), max(g.last, st.LastEnd)
			g.busy += st.Busy
			g.firings += st.Firings
		case t.Kind == "compute" && st.Firings == 1:
			out[i].Computing += d
			spans = append(spans, Interval{t.Process, "compute", Seconds(st.FirstStart), Seconds(st.LastEnd), t.Name})
		case t.Kind == "compute": // a net's cyclic step (PNML): its firings grouped
			out[i].Computing += d
			spans = append(spans, Interval{t.Process, "loop", Seconds(st.FirstStart), Seconds(st.LastEnd),
				fmt.Sprintf("%s: %d firings, %.6g s computing", t.Name, st.Firings, d)})
		case t.Kind == "transfer" && st.Firings == 1:
			out[i].Sending += d
			spans = append(spans, Interval{t.Process, "transfer", Seconds(st.FirstStart), Seconds(st.LastEnd), t.Name})
		case t.Kind == "transfer":
			out[i].Sending += d
			spans = append(spans, Interval{t.Process, "transfers", Seconds(st.FirstStart), Seconds(st.LastEnd),
				fmt.Sprintf("%s: %d messages, %.6g s on the network", t.Name, st.Firings, d)})
		}
		if t.Kind != "transfer" && Seconds(st.LastEnd) > out[i].Finish {
			out[i].Finish = Seconds(st.LastEnd)
		}
	}
	for _, k := range order {
		g := groups[k]
		spans = append(spans, Interval{g.process, "loop", Seconds(g.first), Seconds(g.last),
			fmt.Sprintf("%s: %d compute steps, %.6g s computing", g.name, g.firings, Seconds(g.busy))})
	}
	sort.SliceStable(spans, func(a, b int) bool { return spans[a].Start < spans[b].Start })
	for i := range out {
		out[i].Waiting = out[i].Finish - out[i].Computing
		if r.OnNetwork != nil {
			out[i].Sending = Seconds(r.OnNetwork[out[i].Name])
		}
	}
	return out, spans
}

// CriticalPath follows, from the last firing that ended, the firing that produced the last
// token each firing needed, back to the initial marking: the chain of steps that decided the
// completion time (for conflict-free nets, the critical path). Consecutive steps of one loop
// (its replicas in every process counting as one: same source line, or same name) are
// grouped into one step naming the loop and how many steps it took on the path, with the
// transfers between them. Nil if the log was dropped.
func CriticalPath(n *Net, r *Result) []Interval {
	last := -1
	for i, f := range r.Log {
		if f.End >= 0 && (last < 0 || f.End > r.Log[last].End || (f.End == r.Log[last].End && i > last)) {
			last = i
		}
	}
	var path []Interval
	var keys []string
	for i := last; i >= 0; i = r.Log[i].Cause {
		f := r.Log[i]
		t := &n.Transitions[f.T]
		path = append(path, Interval{t.Process, t.Kind, Seconds(f.Start), Seconds(f.End), t.Name})
		keys = append(keys, loopKey(t))
		if len(path) > len(r.Log) {
			break
		}
	}
	// the walk goes backwards: reversed, it is causal, and a stable sort by start keeps
	// same-instant steps in causal order (a receive, the send it enabled, its transfer)
	perm := make([]int, len(path))
	for i := range perm {
		perm[i] = len(path) - 1 - i
	}
	sort.SliceStable(perm, func(a, b int) bool { return path[perm[a]].Start < path[perm[b]].Start })
	sorted, sk := make([]Interval, len(path)), make([]string, len(path))
	for i, p := range perm {
		sorted[i], sk[i] = path[p], keys[p]
	}
	return groupLoops(sorted, sk)
}

// loopKey is the loop a transition's iterations are grouped by ("" outside loops).
func loopKey(t *Transition) string {
	// "P3.loop#2 (prog.yaml:7)" is the same program loop in every replica of a process:
	// "loop#2 (prog.yaml:7)"
	return strings.TrimPrefix(t.Loop, t.Process+".")
}

// minGroup is the fewest consecutive steps of a loop the critical path groups (shorter runs
// are shown step by step).
const minGroup = 4

// groupLoops merges runs of critical-path steps of one loop (a transfer between two steps of
// the loop joins them) into one step.
func groupLoops(path []Interval, keys []string) []Interval {
	// a transfer inherits the loop of the steps around it
	for i := range path {
		if keys[i] != "" || path[i].Kind != "transfer" {
			continue
		}
		var prev, next string
		for j := i - 1; j >= 0; j-- {
			if path[j].Kind != "transfer" {
				prev = keys[j]
				break
			}
		}
		for j := i + 1; j < len(path); j++ {
			if path[j].Kind != "transfer" {
				next = keys[j]
				break
			}
		}
		if prev == next {
			keys[i] = prev
		}
	}
	var out []Interval
	for i := 0; i < len(path); {
		j := i + 1
		for keys[i] != "" && j < len(path) && keys[j] == keys[i] {
			j++
		}
		if j-i < minGroup {
			out = append(out, path[i:j]...)
		} else if j-i == 1 {
			out = append(out, path[i])
		} else {
			procs := map[string]bool{}
			end := path[i].End
			for _, p := range path[i:j] {
				procs[p.Process] = true
				end = max(end, p.End)
			}
			out = append(out, Interval{path[i].Process, "loop", path[i].Start, end,
				fmt.Sprintf("%s: %d steps (%s)", keys[i], j-i, plural(len(procs), "process", "processes"))})
		}
		i = j
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

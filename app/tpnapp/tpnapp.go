// Package tpnapp answers "how long does this message-passing program take on this shared,
// heterogeneous cluster, and where should its processes run?": 002's timed Petri net of the
// program built and run to its final marking (the background as the mean expansion
// 1/(1 − U), or sampled in replications), the makespan's interval from the network's
// measured t_s and B, the allocation search and its sizing. The tpn command renders the
// Result (and draws its Gantt chart); the explorer evaluates the same Run.
package tpnapp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/sizing"
	"github.com/clusterperf/clusterperf/tpn"
)

// Request is one tpn run: a program on a cluster, or a net read from PNML (Program nil).
type Request struct {
	Program *tpn.Program
	Cluster *tpn.Cluster
	Net     *tpn.Net // a net itself (PNML): run to its final marking, nothing else
	Build   tpn.BuildOptions
	Run     tpn.Options
	// ExportPNML: write the program's net there as PNML before running it ("" none).
	ExportPNML string
	// Sampled: the background simulated in Reps replications seeded by Seed (002's mean
	// expansion stays beside it).
	Sampled bool
	Reps    int
	Seed    uint64
	// Advise: search mappings (Budget simulations for the heuristic) and size them.
	Advise bool
	Budget int
	Sizing sizing.Options
	// Progress makes a progress reporter for a labelled loop (nil: silent).
	Progress func(label string) func(done, total int)
	// Notify receives the program's message-count notes when its run deadlocks or is cut
	// off (nil: discarded).
	Notify io.Writer
}

func (q Request) progress(label string) func(done, total int) {
	if q.Progress == nil {
		return nil
	}
	return q.Progress(label)
}

// Run builds and runs the net (a deadlock or cut-off is the finding, fault.ErrFinding), then
// the sampled replications, the network interval and the allocation advice as asked. When
// ctx is cancelled part way, Run returns what finished (Partial) together with the
// interruption; any other error comes alone, classified.
func Run(ctx context.Context, q Request) (*Result, error) {
	if q.Program == nil {
		return runNet(q)
	}
	out, err := Deterministic(q)
	if err != nil {
		return nil, err
	}
	if out.NetworkInterval, err = tpn.NetworkBounds(ctx, q.Program, q.Cluster, q.Build, q.Run); err != nil {
		if IsInterrupt(err) {
			return nil, err
		}
		return nil, app.Lib(err)
	}
	if b := out.NetworkInterval; b != nil {
		out.Notes = append(out.Notes, "network interval: time_s is the run with every measured t_s and B at its sample mean; with the network's uncertainty the time lies in "+b.String()+"; "+b.Method)
		out.Notes = append(out.Notes, b.Notes...)
	}
	out.Notes = append(out.Notes, classNotes(q.Cluster)...)
	var stop error // an interruption: the partial result is returned with it
	if q.Sampled {
		stop = out.sample(ctx, q)
		if stop != nil && (out.Background == nil || out.Background.Done < 2) {
			return nil, stop
		}
	}
	if q.Advise && stop == nil {
		if stop, err = out.advise(ctx, q); err != nil {
			return nil, err
		}
	}
	out.Partial = stop != nil
	return out, stop
}

// advise searches mappings and sizes the best per number of workstations; an interruption
// (the best so far kept) is returned as stop.
func (r *Result) advise(ctx context.Context, q Request) (stop, err error) {
	ao := tpn.AdviseOptions{Budget: q.Budget, Progress: q.progress("advise: simulations")}
	r.Advice, err = tpn.AdviseContext(ctx, q.Program, q.Cluster, ao)
	if r.Advice == nil || (err != nil && !IsInterrupt(err)) {
		return nil, app.Lib(err)
	}
	if err != nil {
		stop = fmt.Errorf("interrupted after %d simulations of the allocation search (the best so far printed, marked partial): %w", r.Advice.Evaluated, err)
	}
	if err := r.Size(q.Sizing); err != nil {
		return nil, err
	}
	if b := r.Background; b != nil {
		r.Notes = append(r.Notes, fmt.Sprintf("advice and sizing compare mappings by the deterministic run with 002's mean expansion 1/(1 − U) (the given mapping: %.6g s), not by the sampled background (%.6g s): sampling every mapping would take --reps replications each", b.MeanExpansionS, b.MeanS))
	}
	return stop, nil
}

// IsInterrupt: the run was stopped (Ctrl-C cancels the command's context).
func IsInterrupt(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// Deterministic builds and runs the program's net (PNML written on the way when asked); a
// deadlock or a cut-off is the run's finding, with the program's message counts to Notify.
func Deterministic(q Request) (*Result, error) {
	net, err := tpn.BuildWith(q.Program, q.Cluster, q.Build)
	if err != nil {
		return nil, app.Lib(err)
	}
	if q.ExportPNML != "" {
		if err := report.WriteAtomic(q.ExportPNML, func(f *os.File) error { return tpn.WritePNML(f, net) }); err != nil {
			return nil, err
		}
	}
	res, err := net.Run(q.Run)
	if err != nil {
		return nil, app.Lib(err)
	}
	if err := res.Err(); err != nil {
		if q.Notify != nil {
			for _, n := range tpn.CountMessages(q.Program) {
				fmt.Fprintf(q.Notify, "note: %s\n", n)
			}
		}
		if res.Outcome == tpn.Deadlock {
			return nil, fmt.Errorf("the program deadlocks: %w", err)
		}
		return nil, err
	}
	return newProgramResult(q.Program, net, res), nil
}

// runNet runs a net read from PNML to its final marking.
func runNet(q Request) (*Result, error) {
	res, err := q.Net.Run(q.Run)
	if err != nil {
		return nil, app.Lib(err)
	}
	if err := res.Err(); err != nil {
		return nil, err
	}
	return newNetResult(q.Net, res), nil
}

// Spans are the run's Gantt bars (tpn.Times): computing, loops and transfers per process.
func (r *Result) Spans() []tpn.Interval { return r.spans }

// CriticalIntervals is the run's critical path with each step's process and activity.
func (r *Result) CriticalIntervals() []tpn.Interval { return r.critical }

// Result is tpn's one result value.
type Result struct {
	report.Answered
	Program string `json:"program,omitempty"`
	// Method and Exact say how time_s was obtained: deterministic firing of the net (exact for
	// its times, the background as a mean expansion) or the sampled simulation's mean.
	Method        string             `json:"method"`
	Exact         bool               `json:"exact"`
	ErrorEstimate *ErrorEstimate     `json:"error_estimate,omitempty"`
	Partial       bool               `json:"partial,omitempty"` // interrupted (Ctrl-C): what finished
	Outcome       string             `json:"outcome"`
	TimeS         float64            `json:"time_s"`
	Firings       int64              `json:"firings"`
	Places        int                `json:"places"`
	Transitions   int                `json:"transitions"`
	Processes     []tpn.ProcessTimes `json:"processes"`
	Critical      []Step             `json:"critical_path"`
	Advice        *tpn.Advice        `json:"advice,omitempty"`
	Sizing        *sizing.Advice     `json:"sizing,omitempty"` // --advise: p = workstations used
	// SizingAllocation is the mapping of the configuration the sizing rule recommends.
	SizingAllocation tpn.Allocation `json:"sizing_allocation,omitempty"`
	Background       *Background    `json:"background,omitempty"` // --background sampled
	Notes            []string       `json:"notes"`
	// NetworkInterval: the makespan's interval from the networks' measured t_s and B
	// (tpn.NetworkBounds; absent when the cluster gives them as constants).
	NetworkInterval *tpn.NetBounds `json:"network_interval,omitempty"`
	order           []string       // process names in program order, for the advice table
	spans           []tpn.Interval // Gantt bars
	critical        []tpn.Interval // the critical path with processes and activities
}

// ErrorEstimate is a sampled result's error: the half-width of its 95 % interval.
type ErrorEstimate struct {
	HalfWidthS   float64 `json:"half_width_s"`
	RelHalfWidth float64 `json:"rel_half_width"` // half-width / mean
	Confidence   float64 `json:"confidence"`
	Against      string  `json:"against"`
}

// Background is the sampled study beside the mean-expansion answer.
type Background struct {
	tpn.Replications
	MeanExpansionS float64 `json:"mean_expansion_time_s"` // the deterministic run, 1/(1 − U)
	// RelError is the mean-expansion answer's (model − observed)/observed against the
	// sampled mean.
	RelError     float64 `json:"rel_error"`
	Workstations []Load  `json:"workstations"`
}

// Load is one loaded workstation's background.
type Load struct {
	Workstation string  `json:"workstation"`
	Utilization float64 `json:"utilization"`
	Expansion   float64 `json:"expansion_factor"`
	Streams     string  `json:"streams"` // per class: rate, demand, distributions
}

type Step struct {
	Step   string  `json:"step"`
	StartS float64 `json:"start_s"`
	EndS   float64 `json:"end_s"`
}

// sample runs the sampled-background replications of the program's own allocation and
// makes their mean the result's time (the mean-expansion run stays beside it). It returns
// the interruption, if any, with what finished already in the result.
func (r *Result) sample(ctx context.Context, q Request) error {
	net, err := tpn.BuildWith(q.Program, q.Cluster, q.Build)
	if err != nil {
		return app.Lib(err)
	}
	ro := q.Run
	ro.Record = false
	st, err := tpn.Replicate(ctx, net, tpn.ReplicateOptions{Reps: q.Reps, Seed: q.Seed, Run: ro, Progress: q.progress("replications")})
	if st == nil {
		return app.Lib(err)
	}
	if err != nil && !IsInterrupt(err) {
		return app.Lib(err)
	}
	det := r.TimeS
	r.Background = &Background{Replications: *st, MeanExpansionS: det, RelError: (det - st.MeanS) / st.MeanS, Workstations: loads(q.Program, q.Cluster)}
	r.TimeS = st.MeanS
	r.Method = fmt.Sprintf("simulation, %d replications: the timed Petri net with background jobs sampled on processor-sharing CPUs (seed %d)", st.Done, q.Seed)
	r.Exact = false
	r.ErrorEstimate = &ErrorEstimate{HalfWidthS: st.HalfWidthS, RelHalfWidth: st.HalfWidthS / st.MeanS, Confidence: 0.95,
		Against: "the sampled model's true mean makespan (Student-t interval over the replications)"}
	r.Notes = append(r.Notes, sampledNotes(st, det)...)
	if err != nil {
		return fmt.Errorf("interrupted after %d of %d replications (printed, marked partial): %w", st.Done, st.Reps, err)
	}
	return nil
}

// sampledNotes say what the sampled figures are, and where they part from 002.
func sampledNotes(st *tpn.Replications, det float64) []string {
	n := []string{
		fmt.Sprintf("time_s is the mean makespan of %d sampled replications, ± %s s (95 %% interval); one run's standard deviation is %s s. 002's mean expansion 1/(1 − U) predicts %s s (rel_error %+.1f %%); processes and critical path are that run's",
			st.Done, report.Num(st.HalfWidthS), report.Num(st.StdDevS), report.Num(det), 100*(det-st.MeanS)/st.MeanS),
		"002 (§3, preliminary experiments) found 1/(1 − U) underestimates, more as the CV of the background CPU demand grows, and little sensitivity to the inter-arrival distribution. On an ideal processor-sharing CPU with Poisson arrivals the mean of a step is exactly 1/(1 − U) whatever the demands (M/G/1-PS insensitivity): here the demand distribution changes only the spread, the inter-arrival distribution the mean too, and a program's mean rises above 1/(1 − U) only through its synchronisations (a receive waits for the slower path). 002's CPUs were round-robin Unix schedulers, not processor sharing: see docs/studies-findings.md §1",
	}
	if st.Partial {
		n = append(n, fmt.Sprintf("interrupted: %d of %d replications finished; the interval is theirs", st.Done, st.Reps))
	}
	return n
}

// loads describes the background of the workstations the program uses.
func loads(prog *tpn.Program, cl *tpn.Cluster) []Load {
	out := []Load{}
	for i, w := range cl.Workstations {
		used := false
		for k, pr := range prog.Processes {
			a, ok := prog.Allocation[pr.Name]
			used = used || a == w.Name || (!ok && k%len(cl.Workstations) == i)
		}
		if !used || len(w.Background) == 0 {
			continue
		}
		var parts []string
		for _, b := range w.Background {
			parts = append(parts, fmt.Sprintf("λ = %g/s %s, D = %g s %s", b.ArrivalRate, distName(b.Arrivals), b.Demand, distName(b.Demands)))
		}
		ef, _ := w.ExpansionFactor()
		out = append(out, Load{Workstation: w.Name, Utilization: w.Utilization(), Expansion: ef, Streams: strings.Join(parts, "; ")})
	}
	return out
}

func distName(d sim.Dist) string {
	if d == nil {
		return "exponential"
	}
	return d.String()
}

// Size applies the sizing rules to the advice's best mapping per number of workstations
// (p = workstations booked; core-hours are workstation-hours).
func (r *Result) Size(so sizing.Options) error {
	var pts []sizing.Point
	for _, k := range r.Advice.ByWorkstations {
		pts = append(pts, sizing.Point{P: k.Workstations, TimeS: k.TimeS})
	}
	if len(pts) == 0 {
		return nil
	}
	adv, err := sizing.Advise(pts, app.WithT1(so, tpn.SizingT1(r.Advice.ByWorkstations)))
	if err != nil {
		return app.Lib(err)
	}
	r.Sizing = adv
	for _, k := range r.Advice.ByWorkstations {
		if k.Workstations == adv.Recommended.Config.P {
			r.SizingAllocation = k.Allocation
		}
	}
	r.Notes = append(r.Notes, "sizing: p is the number of workstations used; messages between processes on one workstation still cross the network in the model (002 models network communication only), so packing processes is not favoured by cheaper local messages")
	r.Notes = append(r.Notes, omittedNotes(r.Advice.ByWorkstations, adv)...)
	if !r.Advice.Exhaustive {
		r.Notes = append(r.Notes, "sizing: the heuristic search simulated some mappings for each number of workstations, not all; each time is the best found")
	}
	return nil
}

func newProgramResult(prog *tpn.Program, net *tpn.Net, res *tpn.Result) *Result {
	out := newNetResult(net, res)
	out.Program = prog.Name
	out.Method = "timed Petri net, deterministic firing (exact for the given times; background load as 002's mean expansion factor 1/(1 − U))"
	out.Notes = append(out.Notes, tpn.CountMessages(prog)...)
	for _, pr := range prog.Processes {
		out.order = append(out.order, pr.Name)
	}
	return out
}

// newNetResult is the result of a completed run of a net: times per process, critical path.
func newNetResult(net *tpn.Net, res *tpn.Result) *Result {
	times, spans := tpn.Times(net, res)
	out := &Result{Outcome: res.Outcome.String(), TimeS: tpn.Seconds(res.Time), Firings: res.Firings,
		Places: len(net.Places), Transitions: len(net.Transitions), Processes: times, Notes: []string{overlapNote},
		Method: "timed Petri net, deterministic firing (exact for the given times)", Exact: true}
	out.spans, out.critical = spans, tpn.CriticalPath(net, res)
	for _, c := range out.critical {
		out.Critical = append(out.Critical, Step{c.Name, c.Start, c.End})
	}
	if res.LogDropped {
		out.Notes = append(out.Notes, fmt.Sprintf("%s at t = %.6g s after %d firings, more than the log keeps (tpn.DefaultMaxLog = %d firings, or the net's transitions): the critical path is left out; time_s, firings, the per-process times and the Gantt chart (from per-transition sums) are exact", res.Outcome, out.TimeS, res.Firings, tpn.DefaultMaxLog))
	}
	return out
}

// overlapNote explains the per-process columns.
const overlapNote = "per process, the columns overlap: sending_s (the time at least one of its messages is on the network, overlapping transfers counted once, so at most the makespan) runs while it computes or waits, and waiting_s = finish_s − computing_s, so computing_s + sending_s + waiting_s can exceed finish_s"

// NoteLines: the run's notes, then the advice's (budget cuts of the search).
func (r *Result) NoteLines() []string {
	if r.Advice == nil {
		return r.Notes
	}
	out := append([]string{}, r.Notes...)
	for _, n := range r.Advice.Notes {
		out = append(out, "advice: "+n)
	}
	return out
}

// Tables: "processes" (default), "critical_path", "advice", "trade_off"; with sampled
// background "background" comes first.
func (r *Result) Tables() []*report.Table {
	at := fmt.Sprintf("at t = %.6g s", r.TimeS)
	if r.Background != nil {
		at = fmt.Sprintf("at t = %.6g s with the mean expansion", r.Background.MeanExpansionS)
	}
	t := &report.Table{Name: "processes", Title: strings.TrimSpace(fmt.Sprintf("%s: %s %s after %d firings (%d places, %d transitions); the columns overlap (see notes)", r.Program, r.Outcome, at, r.Firings, r.Places, r.Transitions)),
		Header: []string{"process", "finish_s", "computing_s", "sending_s", "waiting_s"}}
	for _, p := range r.Processes {
		t.Add(p.Name, p.Finish, p.Computing, p.Sending, p.Waiting)
	}
	cp := &report.Table{Name: "critical_path", Title: "Critical path", Header: []string{"step", "start_s", "end_s"}}
	for _, c := range r.Critical {
		cp.Add(c.Step, c.StartS, c.EndS)
	}
	ts := []*report.Table{t, cp}
	if nt := r.networkTable(); nt != nil {
		ts = []*report.Table{t, nt, cp}
	}
	if b := r.Background; b != nil {
		ts = append([]*report.Table{r.backgroundTable()}, ts...)
	}
	if r.Advice != nil {
		ts = append(ts, r.adviceTable())
	}
	if r.Sizing != nil {
		ts = append(ts, app.TradeOffTable(r.Sizing, "Trade-off (p = workstations used, each with the best mapping found)"))
	}
	return ts
}

// networkTable is the makespan's interval from the measured network parameters
// (tpn.NetworkBounds) with each parameter's interval; nil without measured parameters.
func (r *Result) networkTable() *report.Table {
	b := r.NetworkInterval
	if b == nil {
		return nil
	}
	time := r.TimeS
	if r.Background != nil {
		time = r.Background.MeanExpansionS
	}
	t := &report.Table{Name: "network_interval", Title: fmt.Sprintf("Network interval (≥ %.0f %% joint confidence; each parameter's interval at %.1f %%): the makespan with the measured t_s and B at their sample means, and at the corners of their intervals", 100*b.Confidence, 100*b.ParamConfidence),
		Header: []string{"quantity", "value", "low", "high"}}
	t.Add("makespan (s)", time, b.LowS, b.HighS)
	for _, m := range b.Media {
		t.Add("t_s of "+m.Network+" (s)", m.StartupS, m.StartupLowS, m.StartupHighS)
		t.Add("B of "+m.Network+" (bytes/s)", m.Bandwidth, m.BandwidthLow, m.BandwidthHigh)
	}
	return t
}

// backgroundTable puts the sampled makespan beside the mean-expansion answer.
func (r *Result) backgroundTable() *report.Table {
	b := r.Background
	partial := ""
	if b.Partial {
		partial = fmt.Sprintf(" — PARTIAL: %d of %d replications", b.Done, b.Reps)
	}
	t := &report.Table{Name: "background", Title: fmt.Sprintf("Makespan with background load: sampled (%d replications, seed %d) and 002's mean expansion%s", b.Done, b.Seed, partial),
		Header: []string{"method", "time_s", "half_width_95_s", "std_dev_s", "min_s", "max_s", "rel_error"}}
	t.Add("sampled background (simulation)", b.MeanS, b.HalfWidthS, b.StdDevS, b.MinS, b.MaxS, "")
	t.Add("mean expansion 1/(1 − U) (002)", b.MeanExpansionS, "", "", "", "", report.Percent(b.RelError))
	return t
}

// adviceTable is the fastest mapping found and the one the sizing rule recommends.
func (r *Result) adviceTable() *report.Table {
	a := r.Advice
	header := []string{"process", "fastest"}
	if r.SizingAllocation != nil {
		header = append(header, "recommended_"+string(r.Sizing.Rule))
	}
	basis := ""
	if r.Background != nil {
		basis = "; times with the mean expansion 1/(1 − U), not sampled (see notes)"
	}
	at := &report.Table{Name: "advice", Title: fmt.Sprintf("Allocation advice: %s%s", AdviceText(a), basis),
		Header: header}
	best, rec := a.Allocation.Map(), r.SizingAllocation.Map()
	for _, p := range r.order {
		if r.SizingAllocation != nil {
			at.Add(p, best[p], rec[p])
		} else {
			at.Add(p, best[p])
		}
	}
	return at
}

// omittedNotes says why a number of workstations searched by the advice has no row in the
// sizing trade-off: package sizing keeps a p on its frontier only when it is faster than every
// smaller p (a dominated p costs more workstations for no less time), and shows the frontier
// rows around the recommendation plus every rule's pick.
func omittedNotes(by []tpn.KBest, adv *sizing.Advice) []string {
	shown := map[int]bool{}
	for _, c := range adv.TradeOff {
		shown[c.P] = true
	}
	var dominated, far []string
	best, bestP := math.Inf(1), 0
	for _, k := range by { // ascending workstations
		switch {
		case shown[k.Workstations]:
		case k.TimeS >= best:
			dominated = append(dominated, fmt.Sprintf("p = %d (%s s, no faster than p = %d)", k.Workstations, report.Num(k.TimeS), bestP))
		default:
			far = append(far, fmt.Sprintf("p = %d (%s s)", k.Workstations, report.Num(k.TimeS)))
		}
		if k.TimeS < best {
			best, bestP = k.TimeS, k.Workstations
		}
	}
	var notes []string
	if len(dominated) > 0 {
		notes = append(notes, "sizing: the trade-off leaves out "+strings.Join(dominated, ", ")+": more workstations for no less time; advice.by_workstations lists every p searched")
	}
	if len(far) > 0 {
		notes = append(notes, "sizing: the trade-off shows the rows next to the recommendation and every rule's pick; left out: "+strings.Join(far, ", ")+" (advice.by_workstations lists every p searched)")
	}
	return notes
}

// SetAnswer fills the answer block (package answer): the outcome, the time, the last process
// to finish and the advice, so every path that renders the result says the same answer.
func (r *Result) SetAnswer() {
	last, at := "", -1.0
	for _, p := range r.Processes {
		if p.Finish > at {
			last, at = p.Name, p.Finish
		}
	}
	var pick *answer.TPNPick
	if r.Sizing != nil && r.SizingAllocation != nil {
		c := r.Sizing.Recommended.Config
		pick = &answer.TPNPick{Rule: string(r.Sizing.Rule), Workstations: c.P, TimeS: c.TimeS, Mapping: MappingText(r.order, r.SizingAllocation)}
	}
	iv := r.NetworkInterval
	if r.Background != nil { // the interval is the mean-expansion run's, not the sampled mean's
		iv = nil
	}
	r.Answer = answer.TPN(r.Outcome, r.TimeS, last, iv, r.Advice, pick)
}

// MappingText is an allocation in words, by workstation in the order the processes (order,
// the program's) first use them: "ws1: P0, P2, P3; ws2: P1" — readable at 64 processes too.
func MappingText(order []string, a tpn.Allocation) string {
	on := a.Map()
	var hosts []string
	procs := map[string][]string{}
	for _, p := range order {
		w, ok := on[p]
		if !ok {
			continue
		}
		if len(procs[w]) == 0 {
			hosts = append(hosts, w)
		}
		procs[w] = append(procs[w], p)
	}
	parts := make([]string, len(hosts))
	for i, w := range hosts {
		parts[i] = w + ": " + strings.Join(procs[w], ", ")
	}
	return strings.Join(parts, "; ")
}

// AdviceText is the allocation search's outcome in words, for the advice table's title and
// the explorer: the fastest mapping found against the program's own allocation, the lower
// bound, and how it was searched.
func AdviceText(a *tpn.Advice) string {
	how := "exhaustive search"
	if !a.Exhaustive {
		how = fmt.Sprintf("greedy + local search, %.1f %% above the lower bound at most", 100*a.Gap)
	}
	if a.Partial {
		how += ", INTERRUPTED: best so far"
	}
	vs := fmt.Sprintf("fastest %.6g s against the program's own allocation's %.6g s", a.Time, a.Given)
	switch {
	case a.Given <= 0:
		vs = fmt.Sprintf("fastest %.6g s (the program's own allocation does not complete)", a.Time)
	case a.Time >= a.Given:
		vs = fmt.Sprintf("fastest %.6g s: no mapping beats the program's own allocation", a.Time)
	}
	return fmt.Sprintf("%s; lower bound %.6g s (%s, %d simulations)", vs, a.LowerBound, how, a.Evaluated)
}

// classNotes describe the workstations whose background came from a job log split into
// classes (package workload, 002 §3).
func classNotes(cl *tpn.Cluster) []string {
	var n []string
	for _, w := range cl.Workstations {
		s := w.Classes
		if s == nil {
			continue
		}
		parts := make([]string, len(s.Classes))
		for i, c := range s.Classes {
			parts[i] = fmt.Sprintf("%d jobs, mean %s s, CV %.3g", c.Jobs, report.Num(c.MeanDemand), c.CV)
		}
		n = append(n, fmt.Sprintf("%s: background log of %d jobs (demand CV %.3g) in %s: %s; the mean expansion is the same whatever the split (U = Σ λ_c·D_c), --background sampled draws each class with its own mean and CV", w.Name, s.All.Jobs, s.All.CV, s.Criterion, strings.Join(parts, "; ")))
	}
	return n
}

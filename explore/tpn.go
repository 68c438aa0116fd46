package explore

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/app/tpnapp"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/htmlreport"
	"github.com/clusterperf/clusterperf/internal/input"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/tpn"
)

type tpnModel struct {
	path, clusterPath string
	data, clusterData []byte
	prog              *tpn.Program
	cl                *tpn.Cluster
}

// bandwidthFactors are the network bandwidths of the sensitivity chart, relative to the point's.
var bandwidthFactors = []float64{0.25, 0.5, 1, 2, 4, 8}

// adviseBudget bounds the simulations of the allocation search per request.
const adviseBudget = 400

func loadTPN(path string, data []byte, clusterPath string, clusterData []byte) (Model, error) {
	prog, err := tpn.ParseProgram(path, data)
	if err != nil {
		return nil, err
	}
	// The files the cluster names (a network's benchmark: outputs, a background_log) are
	// read as the tpn command reads them (bounded, relative to the cluster file), so the
	// explorer serves every cluster the command accepts (hostile review 7, P2-7).
	cl, err := tpn.ParseClusterWith(clusterPath, clusterData, input.Read)
	if err != nil {
		return nil, err
	}
	if _, err := tpn.Build(prog, cl); err != nil {
		return nil, fmt.Errorf("%s on %s: %w: %w", path, clusterPath, fault.ErrInput, err)
	}
	if prog.Name == "" {
		prog.Name = base(path)
	}
	return &tpnModel{path: path, clusterPath: clusterPath, data: data, clusterData: clusterData, prog: prog, cl: cl}, nil
}

func (t *tpnModel) Kind() string { return "tpn" }
func (t *tpnModel) Name() string { return t.prog.Name }
func (t *tpnModel) Inputs() []htmlreport.Input {
	return []htmlreport.Input{htmlreport.InputFile(t.path, t.data), htmlreport.InputFile(t.clusterPath, t.clusterData)}
}

// Params: per workstation its power weight ρ (0.05 … 1) and background utilization U
// (0 … 0.95: the file's job streams scaled, or one stream of 1 s jobs added); the network's
// startup (0 … 4×) and bandwidth (1/8 … 4×).
func (t *tpnModel) Params() []Param {
	var ps []Param
	for i, w := range t.cl.Workstations {
		ps = append(ps,
			Param{ID: fmt.Sprintf("power.%d", i), Label: "power ρ of " + w.Name, Group: "workstations", Min: 0.05, Max: 1, Step: 0.01, Value: w.Power},
			Param{ID: fmt.Sprintf("bg.%d", i), Label: "background load U of " + w.Name, Group: "workstations", Min: 0, Max: 0.95, Step: 0.01, Value: w.Utilization()})
	}
	nw := t.cl.Network
	_, hi, st := span(nw.Startup)
	ps = append(ps,
		Param{ID: "net.startup", Label: "network startup t_s", Group: "network", Min: 0, Max: hi, Step: st, Value: nw.Startup, Unit: "s"},
		Param{ID: "net.bandwidth", Label: "network bandwidth B", Group: "network", Min: nw.Bandwidth / 8, Max: 4 * nw.Bandwidth, Step: nw.Bandwidth / 80, Value: nw.Bandwidth, Unit: "bytes/s"})
	return ps
}

func (t *tpnModel) apply(v Values) *tpn.Cluster {
	c := *t.cl
	c.Workstations = make([]tpn.Workstation, len(t.cl.Workstations))
	for i, w := range t.cl.Workstations {
		p, u, u0 := v[fmt.Sprintf("power.%d", i)], v[fmt.Sprintf("bg.%d", i)], w.Utilization()
		c.Workstations[i] = w
		if p == w.Power && u == u0 { // the file's own: kept as read (distributions too)
			continue
		}
		w.Power = p
		switch {
		case u == 0:
			w.Background = nil
		case u0 > 0:
			bg := make([]tpn.BgClass, len(w.Background))
			for j, b := range w.Background {
				bg[j] = tpn.BgClass{ArrivalRate: b.ArrivalRate * u / u0, Demand: b.Demand}
			}
			w.Background = bg
		default:
			w.Background = []tpn.BgClass{{ArrivalRate: u, Demand: 1}}
		}
		c.Workstations[i] = w
	}
	if st, bw := v["net.startup"], v["net.bandwidth"]; st != c.Network.Startup || bw != c.Network.Bandwidth {
		// moved off the measured means: the samples no longer describe the network
		c.Network.Startup, c.Network.Bandwidth, c.Network.Uncertainty = st, bw, nil
	}
	return &c
}

// request is tpnapp's request for the program on c; every run polls ctx (tpn.Options.Cancel).
func (t *tpnModel) request(ctx context.Context, c *tpn.Cluster) tpnapp.Request {
	return tpnapp.Request{Program: t.prog, Cluster: c, Run: tpn.Options{Record: true, Cancel: ctx.Done()}}
}

// command is the tpn command line answering the same question at the file's values (the
// allocation search within the explorer's budget).
func (t *tpnModel) command() []string {
	return []string{"tpn", t.path, "--cluster", t.clusterPath, "--advise", "--budget", strconv.Itoa(adviseBudget)}
}

// Eval builds the timed Petri net of the program on the cluster (002 §3) and runs it to the
// final marking through tpnapp.Run, the tpn command's call (exact-tick simulation of a deterministic net: the makespan is exact up to the
// tick); the bottleneck is the process and activity holding the largest share of the critical
// path; the best configuration is tpn.Advise's allocation.
func (t *tpnModel) Eval(v Values) (*Result, error) { return t.EvalContext(context.Background(), v) }

// EvalContext is Eval stopping when ctx is done (ContextModel): each run polls it
// (tpn.Options.Cancel).
func (t *tpnModel) EvalContext(ctx context.Context, v Values) (*Result, error) {
	c := t.apply(v)
	res, err := tpnapp.Run(ctx, t.request(ctx, c))
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	times, crit, makespan := res.Processes, res.CriticalIntervals(), res.TimeS
	r := &Result{Kind: "tpn", Model: t.prog.Name, Method: res.Method, Exact: res.Exact, Command: t.command(),
		Values: map[string]float64{"makespan_s": makespan, "firings": float64(res.Firings)}}
	r.Notes = append(r.Notes, fmt.Sprintf("deterministic delays rounded to the tick (%g s); background load enters as the expansion factor 1/(1 − U) (002)", tpn.Tick))
	if b := res.NetworkInterval; b != nil {
		r.Values["makespan_low_s"], r.Values["makespan_high_s"] = b.LowS, b.HighS
		r.Notes = append(r.Notes, "network interval: "+b.String())
	}
	r.Warnings = append(r.Warnings, tpn.CountMessages(t.prog)...)
	pt := htmlreport.Table{Title: "Processes", Header: []string{"process", "finish (s)", "computing (s)", "sending (s)", "waiting (s)"}}
	last := 0
	for i, p := range times {
		pt.Rows = append(pt.Rows, []string{p.Name, htmlreport.Num(p.Finish), htmlreport.Num(p.Computing), htmlreport.Num(p.Sending), htmlreport.Num(p.Waiting)})
		r.Values["finish_s."+p.Name] = p.Finish
		if p.Finish > times[last].Finish {
			last = i
		}
	}
	if len(times) > 0 {
		pt.Highlight = []int{last}
	}
	share := map[string]float64{}
	for _, in := range crit {
		share[in.Process+" "+in.Kind] += in.End - in.Start
	}
	keys := make([]string, 0, len(share))
	for k := range share {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return share[keys[i]] > share[keys[j]] || (share[keys[i]] == share[keys[j]] && keys[i] < keys[j])
	})
	ct := htmlreport.Table{Title: "Critical path by process and activity", Header: []string{"process activity", "time (s)", "share"}}
	for _, k := range keys {
		ct.Rows = append(ct.Rows, []string{k, htmlreport.Num(share[k]), fmt.Sprintf("%.1f %%", 100*share[k]/makespan)})
	}
	if len(keys) > 0 {
		ct.Highlight = []int{0}
		r.Bottleneck = fmt.Sprintf("%s: %.4g s of the %.4g s critical path", keys[0], share[keys[0]], makespan)
	}
	r.Tables = append(r.Tables, pt, ct)
	r.Best, r.BestPending = "searching allocations…", true
	host := t.hosts()
	gc, err := ganttChart("gantt", res, host)
	if err != nil {
		return nil, err
	}
	r.Charts = append(r.Charts, gc)
	bw := Series{Name: "makespan"}
	for _, f := range bandwidthFactors {
		cc := *c
		cc.Network.Bandwidth, cc.Network.Uncertainty = c.Network.Bandwidth*f, nil
		q := t.request(ctx, &cc)
		q.Run.Record = false
		rr, err := tpnapp.Deterministic(q)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			continue
		}
		bw.X, bw.Y = append(bw.X, cc.Network.Bandwidth), append(bw.Y, rr.TimeS)
	}
	cur := c.Network.Bandwidth
	r.Charts = append(r.Charts, chart("bandwidth", report.Panel{Title: "Makespan against network bandwidth", XLabel: "bandwidth (bytes/s)", YLabel: "s", Series: []Series{bw}}, &cur, nil))
	return r, nil
}

// hosts maps each process to its workstation: the program's allocation, else round robin
// over the cluster's workstations in process order (tpn.Build's rule).
func (t *tpnModel) hosts() map[string]string {
	out := make(map[string]string, len(t.prog.Processes))
	for i, p := range t.prog.Processes {
		if w, ok := t.prog.Allocation[p.Name]; ok {
			out[p.Name] = w
		} else {
			out[p.Name] = t.cl.Workstations[i%len(t.cl.Workstations)].Name
		}
	}
	return out
}

// Best searches allocations of the processes to the workstations for the least makespan
// through tpnapp.Run with Advise, as `tpn --advise --budget 400` does (tpn.Advise: every mapping when there are at most tpn.MaxExhaustive, else greedy and local
// search within adviseBudget simulations). It runs apart from Eval because it simulates the
// net once per mapping (256 for matmul on four workstations, about 0.7 s here).
func (t *tpnModel) Best(v Values) (string, map[string]float64, error) {
	return t.BestContext(context.Background(), v)
}

// BestContext is Best stopping when ctx is done (tpn.AdviseContext through tpnapp.Run).
func (t *tpnModel) BestContext(ctx context.Context, v Values) (string, map[string]float64, error) {
	q := t.request(ctx, t.apply(v))
	q.Advise, q.Budget = true, adviseBudget
	res, err := tpnapp.Run(ctx, q)
	if ctx.Err() != nil {
		return "", nil, ctx.Err()
	}
	if err != nil {
		return "", nil, err
	}
	a := res.Advice
	vals := map[string]float64{"best_time_s": a.Time, "given_time_s": a.Given}
	best := "allocation " + t.allocationText(a.Allocation.Map()) + ": " + tpnapp.AdviceText(a)
	if sz := res.Sizing; sz != nil && res.SizingAllocation != nil {
		c := sz.Recommended.Config
		vals["recommended_time_s"], vals["recommended_workstations"] = c.TimeS, float64(c.P)
		best = fmt.Sprintf("recommended (%s): %d workstation(s), %.4g s, allocation %s; %s", sz.Rule, c.P, c.TimeS, t.allocationText(res.SizingAllocation.Map()), best)
	}
	return best, vals, nil
}

// allocationText lists an allocation process by process ("P0→ws2, P1→ws1") up to a dozen
// processes, beyond that by workstation ("ws1: master, W7, W15 (3); ws2: …"), which stays
// readable at 64 processes.
func (t *tpnModel) allocationText(alloc map[string]string) string {
	if len(t.prog.Processes) <= 12 {
		names := make([]string, 0, len(alloc))
		for _, p := range t.prog.Processes {
			names = append(names, p.Name+"→"+alloc[p.Name])
		}
		return strings.Join(names, ", ")
	}
	on := map[string][]string{}
	for _, p := range t.prog.Processes {
		on[alloc[p.Name]] = append(on[alloc[p.Name]], p.Name)
	}
	var parts []string
	for _, w := range t.cl.Workstations {
		if ps := on[w.Name]; len(ps) > 0 {
			parts = append(parts, fmt.Sprintf("%s: %s (%d)", w.Name, strings.Join(ps, ", "), len(ps)))
		}
	}
	return strings.Join(parts, "; ")
}

// File writes the cluster of the point (the program is unchanged).
func (t *tpnModel) File(v Values) ([]byte, string, error) {
	c := t.apply(v)
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	var b bytes.Buffer
	fmt.Fprintf(&b, "# written by clusterperf explore from %s (program %s)\n", t.clusterPath, t.path)
	if c.Name != "" {
		fmt.Fprintf(&b, "name: %s\n", strconv.Quote(c.Name))
	}
	if c.Reference != "" {
		fmt.Fprintf(&b, "reference: %s\n", strconv.Quote(c.Reference))
	}
	if c.ReferenceRate > 0 {
		fmt.Fprintf(&b, "reference_rate: %s\n", f(c.ReferenceRate))
	}
	b.WriteString("workstations:\n")
	for _, w := range c.Workstations {
		fmt.Fprintf(&b, "  - name: %s\n    power: %s\n", strconv.Quote(w.Name), f(w.Power))
		if len(w.Background) > 0 {
			b.WriteString("    background:\n")
			for _, g := range w.Background {
				fmt.Fprintf(&b, "      - {arrival_rate: %s, demand: %s}\n", f(g.ArrivalRate), f(g.Demand))
			}
		}
	}
	fmt.Fprintf(&b, "network:\n  startup: %ss\n  bandwidth: %s\n  shared: %v\n  policy: %s\n", f(c.Network.Startup), f(c.Network.Bandwidth), c.Network.Shared,
		map[tpn.SharePolicy]string{tpn.StaticAtStart: "static", tpn.FluidSharing: "fluid"}[c.Network.Policy])
	return b.Bytes(), base(t.clusterPath) + "-whatif.yaml", nil
}

package explore

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	answers "github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/solveapp"
	"github.com/clusterperf/clusterperf/htmlreport"
	"github.com/clusterperf/clusterperf/modelfile"
	"github.com/clusterperf/clusterperf/qn"
)

// maxSweep bounds the points of a sweep chart (each is one solution).
const maxSweep = 200

type qnModel struct {
	path, name string
	data       []byte
	m          *qn.Model
	sweepClass int // the closed class whose population the chart sweeps; -1: none
}

// loadQN reads a queueing network from its file's YAML tree (doc: modelfile.Parse of data).
func loadQN(path string, data []byte, doc *modelfile.Doc) (Model, error) {
	m, name, err := qn.DecodeModel(doc)
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = base(path)
	}
	q := &qnModel{path: path, name: name, data: data, m: m, sweepClass: -1}
	if cl := m.ClosedClasses(); len(cl) > 0 {
		q.sweepClass = cl[0]
	}
	return q, nil
}

func (q *qnModel) Kind() string { return "qn" }
func (q *qnModel) Name() string { return q.name }
func (q *qnModel) Inputs() []htmlreport.Input {
	return []htmlreport.Input{htmlreport.InputFile(q.path, q.data)}
}

func span(v float64) (lo, hi, step float64) {
	if v <= 0 {
		return 0, 1, 0.01
	}
	hi = 4 * v
	return 0, hi, hi / 400
}

// Params: per class the population (0 … max(4N, 50)) or arrival rate (0 … 4λ), think time;
// per station and class the demand (0 … 4D); the sweep's largest population.
func (q *qnModel) Params() []Param {
	var ps []Param
	maxN := 1
	for c, cl := range q.m.Classes {
		if cl.Open {
			// up to the open class's own saturation rate 1/max_k D_k (or 4λ if larger)
			lo, hi, st := span(cl.ArrivalRate)
			dmax := 0.0
			for k := range q.m.Stations {
				if q.m.Stations[k].Kind != qn.Delay {
					dmax = math.Max(dmax, q.m.Demand[c][k])
				}
			}
			if dmax > 0 && 1/dmax > hi {
				hi, st = 1/dmax, 1/dmax/400
			}
			ps = append(ps, Param{ID: fmt.Sprintf("rate.%d", c), Label: "arrival rate of " + cl.Name, Group: "classes", Min: lo, Max: hi, Step: st, Value: cl.ArrivalRate, Unit: "jobs/s"})
			continue
		}
		n := max(4*cl.Population, 50)
		maxN = max(maxN, n)
		ps = append(ps, Param{ID: fmt.Sprintf("pop.%d", c), Label: "population of " + cl.Name, Group: "classes", Min: 0, Max: float64(n), Step: 1, Value: float64(cl.Population), Integer: true, Unit: "jobs"})
		lo, hi, st := span(cl.ThinkTime)
		ps = append(ps, Param{ID: fmt.Sprintf("think.%d", c), Label: "think time of " + cl.Name, Group: "classes", Min: lo, Max: hi, Step: st, Value: cl.ThinkTime, Unit: "s"})
	}
	for k, st := range q.m.Stations {
		for c, cl := range q.m.Classes {
			d := q.m.Demand[c][k]
			lo, hi, step := span(d)
			label := "demand at " + st.Name
			if len(q.m.Classes) > 1 {
				label += " (" + cl.Name + ")"
			}
			ps = append(ps, Param{ID: fmt.Sprintf("demand.%d.%d", k, c), Label: label, Group: "demands", Min: lo, Max: hi, Step: step, Value: d, Unit: "s"})
		}
	}
	if q.sweepClass >= 0 {
		cl := q.m.Classes[q.sweepClass]
		def := max(2*cl.Population, 20)
		ps = append(ps, Param{ID: "sweep.to", Label: "sweep population of " + cl.Name + " up to", Group: "sweep", Min: 2, Max: float64(max(maxN, maxSweep)), Step: 1, Value: float64(min(def, maxSweep)), Integer: true, Unit: "jobs"})
	}
	return ps
}

// apply returns a copy of the model at the values. Scaling a demand keeps the visits, so a
// model with routing keeps its per-visit service time D/V.
func (q *qnModel) apply(v Values) *qn.Model {
	m := q.m.Clone()
	for c := range m.Classes {
		if m.Classes[c].Open {
			m.Classes[c].ArrivalRate = v[fmt.Sprintf("rate.%d", c)]
		} else {
			m.Classes[c].Population = int(v[fmt.Sprintf("pop.%d", c)])
			m.Classes[c].ThinkTime = v[fmt.Sprintf("think.%d", c)]
		}
	}
	for k := range m.Stations {
		for c := range m.Classes {
			m.Demand[c][k] = v[fmt.Sprintf("demand.%d.%d", k, c)]
		}
	}
	return m
}

// Eval solves the network at the point through the solve command's Run (solveapp.Run, solver
// auto, its refusals: a solver that does not converge, a saturated open station), with its
// answer: the bottleneck (the queueing station of highest utilization per server,
// qn.SaturationOf), and N* = (D + Z)/D_max for one closed class, the knee of the asymptotic
// bounds (Lazowska et al. §5.2) beyond which more jobs only queue, or the largest
// sustainable arrival rate for open classes. The charts sweep the population of the first
// closed class by the same Run (--sweep), with the asymptotic bounds.
func (q *qnModel) Eval(v Values) (*Result, error) { return q.EvalContext(context.Background(), v) }

// EvalContext is Eval stopped when ctx ends (ContextModel: the client left, the budget ran out).
func (q *qnModel) EvalContext(ctx context.Context, v Values) (*Result, error) {
	m := q.apply(v)
	in := solveapp.ModelInput(q.name, m)
	out, err := solveapp.Run(ctx, solveapp.Request{Input: in, Solver: "auto", Sim: solveapp.DefaultSimulation()})
	if err != nil {
		return nil, err
	}
	res, sol := out.QN, out.Solution
	r := &Result{Kind: "qn", Model: q.name, Method: res.Solver, Exact: res.Exact, Values: map[string]float64{
		"system_throughput_per_s": res.SystemThroughput(), "system_response_time_s": res.SystemResponseTime()}}
	r.Command = []string{"solve", q.commandFile(v)}
	// exactness as the solver decided it for this model (an exact solver on a FCFS station
	// whose service times differ by class is not exact), with its notes
	if r.Exact {
		r.Notes = append(r.Notes, "exact solution ("+res.Solver+")")
	} else {
		r.Notes = append(r.Notes, res.Solver+" is an approximation")
	}
	r.Notes = append(r.Notes, sol.Notes...)
	if res.ErrorEstimate != nil {
		r.ErrorEstimate = res.ErrorEstimate
	}
	q.answer(r, sol)
	for c, cl := range sol.Classes {
		r.Values["throughput_per_s."+cl.Name] = res.Throughput[c]
		r.Values["response_time_s."+cl.Name] = res.ResponseTime[c]
	}
	for k, st := range m.Stations {
		r.Values["utilization."+st.Name] = res.StationUtilization(k)
	}
	if q.sweepClass >= 0 {
		if err := q.sweep(ctx, m, v, r); err != nil {
			r.Warnings = append(r.Warnings, "no population sweep: "+err.Error())
		} else {
			r.ChartCommand = append([]string{"solve", q.commandFile(v)}, q.SweepArgs(v)...)
		}
	}
	return r, nil
}

// commandFile is the file the solve command is given for the point: the model file itself
// when no slider of the model moved, else the file File writes.
func (q *qnModel) commandFile(v Values) string {
	for _, p := range q.Params() {
		if p.Group != "sweep" && v[p.ID] != p.Value {
			_, file, _ := q.File(v)
			return file
		}
	}
	return q.path
}

// answer sets the bottleneck, the best population (or arrival rate) and the tables from the
// solve command's answer (solveapp.Solution), the bottleneck's rows highlighted.
func (q *qnModel) answer(r *Result, sol *solveapp.Solution) {
	a := sol.Answer
	fact := func(name string) float64 {
		if f, ok := a.Fact(name); ok && f.Value != nil {
			return *f.Value
		}
		return 0
	}
	bn, _ := a.Fact("bottleneck")
	if bn.Text != "" {
		r.Bottleneck = fmt.Sprintf("%s (%.3g %% busy, demand %.4g s per job per server)", bn.Text, 100*fact("bottleneck_utilization"), fact("bottleneck_demand_s"))
	} else {
		r.Bottleneck = a.Summary
	}
	// Not a "best configuration": N* is where saturation starts (the solve command's words,
	// answers.SaturationWords), and the page says where the model's population stands.
	switch ns, rate := fact("saturation_population"), fact("max_arrival_rate_per_s"); {
	case ns > 0:
		clause, why := answers.SaturationWords(int(fact("population")), ns, bn.Text)
		r.BestLabel, r.Best = "Saturation point", sentence(clause, why)
		r.Values["n_star"] = ns
	case rate > 0:
		clause, why := answers.RateWords(fact("arrival_rate_per_s"), rate, bn.Text)
		r.BestLabel, r.Best = "Largest sustainable arrival rate", sentence(clause, why)
		r.Values["max_arrival_rate_per_s"] = rate
	default:
		r.BestLabel, r.Best = "Saturation point", "none for one population: a multi-class or mixed network saturates along a mix of classes (see the sweep)"
	}
	names := strings.Split(bn.Text, " and ")
	for _, t := range htmlreport.FromTables(app.QNTables(sol.View)) {
		if len(t.Header) > 0 && t.Header[0] == "station" {
			for i, row := range t.Rows {
				if len(row) > 0 && bn.Text != "" && slices.Contains(names, row[0]) {
					t.Highlight = append(t.Highlight, i)
				}
			}
		}
		r.Tables = append(r.Tables, t)
	}
}

// sweep draws throughput and response time of the sweep class against its population, 1 …
// sweep.to (at most maxSweep points): the figure of the solve command's sweep
// (SweepArgs: the same --sweep, solveapp.Run, Sweep.Figure), with the point's population
// marked.
func (q *qnModel) sweep(ctx context.Context, m *qn.Model, v Values, r *Result) error {
	p, vals, err := app.ParseSweep(q.SweepArgs(v)[1], m)
	if err != nil {
		return err
	}
	pts := &solveapp.Points{Param: p, Values: vals}
	out, err := solveapp.Run(ctx, solveapp.Request{Input: solveapp.ModelInput(q.name, m), Solver: "auto", Points: pts, Sim: solveapp.DefaultSimulation()})
	if err != nil {
		return err
	}
	cur := float64(m.Classes[q.sweepClass].Population)
	fig := out.Sweep.Figure()
	r.Charts = append(r.Charts, chart("throughput", fig[0], &cur, nil), chart("response", fig[1], &cur, nil))
	return nil
}

// SweepArgs are the solve command's flags of the point's sweep chart: --sweep
// population[.CLASS]=1:TO:STEP (the class named when the model has more than one closed
// class), at most maxSweep points.
func (q *qnModel) SweepArgs(v Values) []string {
	to := int(v["sweep.to"])
	step := max(1, (to+maxSweep-1)/maxSweep)
	lhs, closed := "population", 0
	for _, c := range q.m.Classes {
		if !c.Open {
			closed++
		}
	}
	if closed > 1 {
		lhs += "." + q.m.Classes[q.sweepClass].Name
	}
	return []string{"--sweep", fmt.Sprintf("%s=1:%d:%d", lhs, to, step)}
}

// File writes the point as a qn model file (qn.WriteModel).
func (q *qnModel) File(v Values) ([]byte, string, error) {
	var buf bytes.Buffer
	if err := qn.WriteModel(&buf, q.name, q.apply(v)); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), base(q.path) + "-whatif.yaml", nil
}

// sentence is the answer's clause as a sentence, then its explanation.
func sentence(clause, why string) string {
	if clause != "" {
		clause = strings.ToUpper(clause[:1]) + clause[1:] + "."
	}
	return strings.TrimSpace(clause + " " + why)
}

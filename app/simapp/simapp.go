// Package simapp answers "what does a discrete-event simulation of this model say, and
// does the analytic answer fall inside its confidence intervals?": a queueing network
// (package sim's replications or batch means) or an SPMD program simulated directly
// (sim.SimulateSPMD), each compared with the analytic solution by package validate. The
// simulate command renders the Result; solve, sweep and speedup --validate call the same
// simulation functions (RunQN, QNReport, SimulateSPMD, SPMDReport).
package simapp

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/spmd"
	"github.com/clusterperf/clusterperf/validate"
)

// Options are one simulation's settings (the simulate command's flags, and those of
// --validate), checked for range by the caller.
type Options struct {
	Seed      uint64  // replication i uses stream i
	Precision float64 // relative 95 % half-width target in (0, 1] (0: off)
	Reps      int     // replications, ≥ 2
	Batches   int     // queueing networks: batch means with this many batches (0: off)
	// Events per replication, warm-up included (0: the model's default); MaxEvents the
	// refusal bound per replication and over all (0: sim's defaults); MaxMemoryBytes a
	// replication's memory bound (0: sim's default).
	Events, MaxEvents int64
	MaxMemoryBytes    int64
	// Service, Discipline, Arrival and Think are NAME=VALUE assignments as given on the
	// command line (--service STATION=DIST, --discipline STATION=fcfs|ps, --arrival
	// CLASS=DIST of an open class, --think CLASS=DIST of a closed class).
	Service, Discipline, Arrival, Think []string
	// SPMD models: cycles per replication, the CPU burst distribution and whether the
	// computation bursts per I/O burst are geometric (000 §3.4) rather than fixed.
	Cycles          int
	CPU             string
	GeometricBursts bool
	// Progress makes the progress reporter of a run counting unit ("events" or "cycles");
	// nil, or a nil reporter: silent.
	Progress func(unit string) func(done, total int)
	// Count, if set, is called once per queueing-network simulation (tests count them).
	Count func()
}

func (o Options) progress(unit string) func(done, total int) {
	if o.Progress == nil {
		return nil
	}
	return o.Progress(unit)
}

// SimOptions are the replication options of o (sim.Options).
func (o Options) SimOptions() sim.Options {
	return sim.Options{Seed: o.Seed, Reps: o.Reps, Precision: o.Precision, Batches: o.Batches, MaxTotalEvents: o.MaxEvents,
		Progress: o.progress("events")}
}

// parseAssign reads NAME=VALUE items of a flag into a map.
func parseAssign(flag string, items []string) (map[string]string, error) {
	out := map[string]string{}
	for _, it := range items {
		k, v, ok := strings.Cut(it, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--%s %q: want NAME=VALUE", flag, it)
		}
		out[k] = v
	}
	return out, nil
}

// Config is the simulator configuration of o for m: the run length and budgets, and the
// distributions and disciplines named per station or class (a name m does not have is
// refused rather than ignored).
func Config(m *qn.Model, o Options) (sim.Config, error) {
	cfg := sim.Config{Events: o.Events, MaxEvents: o.MaxEvents, MaxMemoryBytes: o.MaxMemoryBytes, Service: map[string]sim.Dist{}, Arrival: map[string]sim.Dist{}, Think: map[string]sim.Dist{}, Discipline: map[string]sim.Discipline{}}
	stations, open, closed := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, s := range m.Stations {
		stations[s.Name] = true
	}
	for _, c := range m.Classes {
		open[c.Name], closed[c.Name] = c.Open, !c.Open
	}
	// --arrival applies to open classes, --think to closed ones: naming another class would
	// be silently ignored by the simulator.
	for _, spec := range []struct {
		flag  string
		items []string
		names map[string]bool
		into  map[string]sim.Dist
	}{{"service", o.Service, stations, cfg.Service}, {"arrival", o.Arrival, open, cfg.Arrival}, {"think", o.Think, closed, cfg.Think}} {
		if err := assignDists(spec.flag, spec.items, spec.names, spec.into); err != nil {
			return cfg, err
		}
	}
	a, err := parseAssign("discipline", o.Discipline)
	if err != nil {
		return cfg, err
	}
	for k, v := range a {
		if !stations[k] {
			return cfg, fmt.Errorf("--discipline %s=…: the model has no such station", k)
		}
		switch v {
		case "fcfs":
			cfg.Discipline[k] = sim.FCFS
		case "ps":
			cfg.Discipline[k] = sim.PS
		default:
			return cfg, fmt.Errorf("--discipline %s=%s: want fcfs or ps", k, v)
		}
	}
	return cfg, nil
}

// assignDists parses the NAME=DIST items of flag into into, refusing a name not in names.
func assignDists(flag string, items []string, names map[string]bool, into map[string]sim.Dist) error {
	a, err := parseAssign(flag, items)
	if err != nil {
		return err
	}
	for k, v := range a {
		if !names[k] {
			what := map[string]string{"service": "station", "arrival": "open class", "think": "closed class"}[flag]
			return fmt.Errorf("--%s %s=…: the model has no %s of that name", flag, k, what)
		}
		d, err := sim.ParseDist(v)
		if err != nil {
			return fmt.Errorf("--%s %s: %v", flag, k, err)
		}
		into[k] = d
	}
	return nil
}

// NewSimulator builds the simulator of m under o, with the class switching and
// capacities of its model file mf (nil: none, e.g. a .jmva file).
func NewSimulator(mf *qn.ModelFile, m *qn.Model, o Options) (*sim.Simulator, error) {
	cfg, err := Config(m, o)
	if err != nil {
		return nil, app.Input(err)
	}
	if mf != nil && mf.Model == m {
		cfg = sim.FileConfig(mf, cfg)
	}
	s, err := sim.New(m, cfg)
	return s, app.Lib(err) // fault.ErrInput or ErrTooLarge, classified by sim
}

// RunQN simulates m under o until ctx is cancelled; the library classifies its errors
// (saturation and no steady state are findings, budgets and options input). An
// interrupted run returns the partial result with its error (fault.ErrInterrupted).
func RunQN(ctx context.Context, mf *qn.ModelFile, m *qn.Model, o Options) (*sim.Result, error) {
	if o.Count != nil {
		o.Count()
	}
	s, err := NewSimulator(mf, m, o)
	if err != nil {
		return nil, err
	}
	res, err := s.ReplicateContext(ctx, o.SimOptions())
	if res != nil && res.Partial {
		return res, err
	}
	return res, app.Lib(err)
}

// QNReport compares a simulation with the solution an of the named solver (nil: the
// solver failed with anErr, said in a note). The report's notes are the simulation's
// (warm-up, run length, product-form caveats, lag-1); validate would add the lag-1 note a
// second time, so it is given the result without it.
func QNReport(m *qn.Model, solver string, an *qn.Result, anErr error, res *sim.Result, seed uint64) *validate.Report {
	if an != nil && an.Solver != "" {
		solver = an.Solver
	}
	if an != nil && an.Method != "" && an.Method != solver {
		solver = an.Solver + " (" + an.Method + ")" // e.g. auto (ctmc-blocking-after-service)
	}
	quiet := *res
	quiet.Lag1 = 0
	rep := validate.QNReport(m, solver, an, anErr, &quiet, seed, res.Notes)
	rep.Partial = res.Partial
	return rep
}

// SimulateQN simulates m and compares it with the solution an of the named solver. A
// cancelled ctx stops it: the report of the replications finished (marked Partial) with
// the error fault.ErrInterrupted (exit 130).
func SimulateQN(ctx context.Context, mf *qn.ModelFile, m *qn.Model, solver string, an *qn.Result, anErr error, o Options) (*validate.Report, error) {
	res, err := RunQN(ctx, mf, m, o)
	if res != nil && res.Partial {
		return QNReport(m, solver, an, anErr, res, o.Seed), err
	}
	if err != nil {
		return nil, err
	}
	return QNReport(m, solver, an, anErr, res, o.Seed), nil
}

// SPMDConfig is the direct SPMD simulation o asks for. Direct simulation takes a
// one-phase model (validate.SPMD, sim.SimulateSPMD): another is refused as input.
func SPMDConfig(o Options, m *spmd.Model) (sim.SPMDConfig, error) {
	if len(m.Phases) != 1 {
		return sim.SPMDConfig{}, app.Inputf("direct simulation takes a one-phase model (this one has %d phases)", len(m.Phases))
	}
	cpu, err := sim.ParseDist(o.CPU)
	if err != nil {
		return sim.SPMDConfig{}, app.Inputf("--cpu: %v", err)
	}
	return sim.SPMDConfig{CPU: cpu, Cycles: o.Cycles, MaxMemoryBytes: o.MaxMemoryBytes, GeometricBursts: o.GeometricBursts}, nil
}

// SimulateSPMD simulates the SPMD program directly at each (p, d) and compares the cycle
// time with the analytic model's (e: the evaluator already built, or nil). A cancelled
// ctx returns the report of what finished, marked Partial, with the error
// fault.ErrInterrupted (nil report: nothing finished).
func SimulateSPMD(ctx context.Context, m *spmd.Model, e *spmd.Evaluator, pds [][2]int, o Options) (*validate.Report, error) {
	cfg, err := SPMDConfig(o, m)
	if err != nil {
		return nil, err
	}
	if e == nil {
		if e, err = spmd.NewEvaluator(m); err != nil {
			return nil, app.Input(err)
		}
	}
	rep, err := validate.SPMDContext(ctx, m, e, pds, cfg, o.Seed, o.Reps, o.progress("cycles"))
	if rep != nil && rep.Partial {
		return rep, err
	}
	if err != nil {
		return nil, app.Lib(err)
	}
	return rep, nil
}

// SPMDReport is validate.SPMD's report from cycle times computed elsewhere (the shards of
// a study): xs holds o.Reps replications per (p, d) of pds, in order; each (p, d) is
// summarised by sim.SPMDEstimate and compared by validate.Compare with the analytic cycle
// time, as validate.SPMD does (TestSpeedupShardMerge checks the two agree byte for byte).
func SPMDReport(m *spmd.Model, e *spmd.Evaluator, pds [][2]int, xs []float64, o Options) (*validate.Report, error) {
	cycles := m.Phases[0].Cycles
	if cycles <= 0 {
		cycles = 1
	}
	rep := &validate.Report{AnalyticMethod: "spmd " + m.Arch.String(), Simulation: validate.Simulation{Method: "direct SPMD simulation", Replications: o.Reps, Seed: o.Seed}, Notes: []string{}}
	for i, pd := range pds {
		pt, err := e.Evaluate(pd[0], pd[1])
		if err != nil {
			return nil, app.Lib(err)
		}
		est, err := sim.SPMDEstimate(xs[i*o.Reps : (i+1)*o.Reps])
		if err != nil {
			return nil, app.Lib(err)
		}
		rep.Rows = append(rep.Rows, validate.Compare(fmt.Sprintf("cycle time p=%d d=%d", pd[0], pd[1]), "s", est, pt.Time/cycles))
	}
	cfg, err := SPMDConfig(o, m)
	if err != nil {
		return nil, err
	}
	rep.Notes = append(rep.Notes, validate.SPMDNotes(m, cfg, rep.Rows)...)
	return rep, nil
}

// Request is one simulate run: the decoded model (exactly one of QN and SPMD), its path
// (the name when the model has none), the (P, D) of an SPMD program, and the options.
type Request struct {
	Path    string
	QN      *qn.ModelFile
	SPMD    *spmd.Model
	P, D    int
	Options Options
}

// Run simulates the model and compares it with the analytic answer (a queueing network:
// qn's auto solver). When ctx is cancelled part way, Run returns the result of what
// finished (Partial) together with fault.ErrInterrupted; any other error comes alone,
// classified (package app).
func Run(ctx context.Context, q Request) (*Result, error) {
	if q.SPMD != nil {
		out := &Result{Model: cmp.Or(q.SPMD.Name, q.Path), Kind: "spmd"}
		var stop error
		if out.Report, stop = SimulateSPMD(ctx, q.SPMD, nil, [][2]int{{q.P, q.D}}, q.Options); out.Report == nil {
			return nil, stop
		}
		out.Partial = out.Report.Partial
		out.finish()
		return out, stop
	}
	mf := q.QN
	an, anErr := mf.Solve(ctx, "auto", qn.AMVAOptions{})
	res, runErr := RunQN(ctx, mf, mf.Model, q.Options)
	if runErr != nil && (res == nil || !res.Partial) {
		return nil, runErr
	}
	out := NewQNResult(cmp.Or(mf.Name, q.Path), mf.Model, an, anErr, res, q.Options.Seed)
	out.setPrecision(q.Options.Precision, res)
	return out, runErr
}

// NewQNResult is the result of a queueing-network simulation res of m beside the auto
// solver's answer an (or its failure anErr): also the value merge builds from the
// replications of a sharded study.
func NewQNResult(name string, m *qn.Model, an *qn.Result, anErr error, res *sim.Result, seed uint64) *Result {
	out := &Result{Model: name, Kind: "qn", Report: QNReport(m, "auto", an, anErr, res, seed)}
	out.EventsPerRep, out.WarmupEvents, out.TooShort = &res.EventsPerRep, &res.WarmupEvents, &res.TooShort
	out.Partial = res.Partial
	out.finish()
	return out
}

// finish states the result's method and error estimate from its simulation report, and
// its answer.
func (r *Result) finish() {
	r.Method = "discrete-event simulation"
	if r.Report != nil && r.Report.Simulation.Method != "" {
		r.Method += " (" + r.Report.Simulation.Method + ")"
	}
	if r.Report != nil && r.Report.Simulation.Precision > 0 && !math.IsInf(r.Report.Simulation.Precision, 0) {
		r.ErrorEstimate = &ErrorEstimate{RelHalfWidth95: r.Report.Simulation.Precision,
			Against: "the true mean: the largest relative 95 % confidence half-width of the classes' throughput and response time over the replications (batches)"}
	}
	r.Answer = answer.Simulation(r.Report)
}

// setPrecision records the --precision target (0: none) and whether the run met it: an
// interrupted run, or one whose replications were too short to estimate from, may stop
// above it.
func (r *Result) setPrecision(target float64, res *sim.Result) {
	if target <= 0 {
		return
	}
	met := res.Precision <= target && !res.Partial
	r.PrecisionTarget, r.PrecisionMet = &target, &met
}

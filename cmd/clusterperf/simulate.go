package main

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/spmd"
	"github.com/clusterperf/clusterperf/validate"
)

type simOptions struct {
	seed       uint64
	precision  float64
	reps       int
	batches    int
	events     int64
	service    []string
	discipline []string
	arrival    []string
	think      []string
	out        outOptions
	p, d       int
	cpu        string
	cycles     int
	progress   bool
}

// addRunFlags adds the flags of a simulation run shared by simulate and --validate.
func addRunFlags(f *pflag.FlagSet, o *simOptions) {
	f.Uint64Var(&o.seed, "seed", 1, "random seed (replication i uses stream i)")
	f.Float64Var(&o.precision, "precision", 0, "run replications until every class's X and R have a 95 % half-width within this fraction of the mean, in (0, 1] (0: off)")
	f.IntVar(&o.reps, "reps", 10, "replications, ≥ 2 (the minimum, with --precision)")
	f.Int64Var(&o.events, "events", 200000, "events per replication after the warm-up (10 %), ≥ 1")
}

func addSimFlags(cmd *cobra.Command, o *simOptions) {
	f := cmd.Flags()
	addRunFlags(f, o)
	f.IntVar(&o.batches, "batches", 0, "queueing networks: batch means instead of replications — one run of --events events cut into this many batches (one core), ≥ 2 (0: off)")
	f.StringArrayVar(&o.service, "service", nil, "service distribution of a station, STATION=DIST (DIST: "+sim.DistNames+")")
	f.StringArrayVar(&o.discipline, "discipline", nil, "STATION=fcfs|ps")
	f.StringArrayVar(&o.arrival, "arrival", nil, "inter-arrival distribution of an open class, CLASS=DIST")
	f.StringArrayVar(&o.think, "think", nil, "think-time distribution of a closed class, CLASS=DIST")
	f.IntVar(&o.cycles, "cycles", 2000, "SPMD models: cycles per replication, ≥ 1")
	f.StringVar(&o.cpu, "cpu", "exponential", "SPMD models: CPU burst distribution")
	f.BoolVar(&o.progress, "progress", true, "show progress on stderr (only on a terminal)")
}

// checkRun adds the range errors of the flags of addRunFlags to c.
func (o simOptions) checkRun(c *flagCheck) {
	c.atLeast("reps", int64(o.reps), 2)
	c.atLeast("events", o.events, 1)
	if o.precision != 0 {
		c.fraction("precision", o.precision, 0, 1)
	}
}

// check adds the range errors of all simulation flags to c.
func (o simOptions) check(c *flagCheck) {
	o.checkRun(c)
	c.zeroOrAtLeast("batches", int64(o.batches), 2, "off")
	c.atLeast("cycles", int64(o.cycles), 1)
	if o.batches > 0 && o.precision > 0 {
		c.add("--batches and --precision: batch means run a fixed length; give one of them")
	}
}

func newSimulateCmd(stdout, stderr io.Writer) *cobra.Command {
	var o simOptions
	cmd := &cobra.Command{
		Use:   "simulate MODEL.yaml",
		Short: "Discrete-event simulation of a queueing network or an SPMD model, with confidence intervals",
		Long: `Simulate the model of a solve file (queueing network) or a speedup file (SPMD program, at
--p and --d) by discrete events: independent replications on all cores, 95 % confidence
intervals, optionally until a relative precision. Distributions: ` + sim.DistNames + `.
The analytic answer is printed beside the simulated one with whether it falls inside the
interval.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSimulate(o, args[0], stdout, stderr)
		},
	}
	addSimFlags(cmd, &o)
	f := cmd.Flags()
	addOutFlags(cmd, &o.out)
	f.IntVar(&o.p, "p", 16, "SPMD models: processors")
	f.IntVar(&o.d, "d", 1, "SPMD models: disks")
	return cmd
}

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

func (o simOptions) config(m *qn.Model) (sim.Config, error) {
	cfg := sim.Config{Events: o.events, Service: map[string]sim.Dist{}, Arrival: map[string]sim.Dist{}, Think: map[string]sim.Dist{}, Discipline: map[string]sim.Discipline{}}
	stations, classes := map[string]bool{}, map[string]bool{}
	for _, s := range m.Stations {
		stations[s.Name] = true
	}
	for _, c := range m.Classes {
		classes[c.Name] = true
	}
	for _, spec := range []struct {
		flag  string
		items []string
		names map[string]bool
		into  map[string]sim.Dist
	}{{"service", o.service, stations, cfg.Service}, {"arrival", o.arrival, classes, cfg.Arrival}, {"think", o.think, classes, cfg.Think}} {
		a, err := parseAssign(spec.flag, spec.items)
		if err != nil {
			return cfg, err
		}
		for k, v := range a {
			if !spec.names[k] {
				return cfg, fmt.Errorf("--%s %s=…: the model has no such name", spec.flag, k)
			}
			d, err := sim.ParseDist(v)
			if err != nil {
				return cfg, fmt.Errorf("--%s %s: %v", spec.flag, k, err)
			}
			spec.into[k] = d
		}
	}
	a, err := parseAssign("discipline", o.discipline)
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

// modelKind tells a queueing-network file from an SPMD one by its top-level fields.
func modelKind(data []byte) string {
	var top map[string]any
	if yaml.Unmarshal(data, &top) != nil {
		return ""
	}
	if _, ok := top["architecture"]; ok {
		return "spmd"
	}
	return "qn"
}

// simulateResult is simulate's result value: the model's name and the validation report
// (its fields at the top level of the JSON document).
type simulateResult struct {
	Model string `json:"model"`
	Kind  string `json:"kind"` // "qn" or "spmd"
	*validate.Report
}

func (r *simulateResult) Tables() []*report.Table {
	return []*report.Table{report.ValidationTable(r.Report)}
}
func (r *simulateResult) NoteLines() []string { return r.Notes }

func runSimulate(o simOptions, path string, stdout, stderr io.Writer) error {
	var c flagCheck
	o.out.check(&c)
	o.check(&c)
	c.atLeast("p", int64(o.p), 1)
	c.atLeast("d", int64(o.d), 1)
	if err := c.err(); err != nil {
		return err
	}
	data, err := readInput(path)
	if err != nil {
		return err
	}
	out := &simulateResult{Model: path, Kind: modelKind(data)}
	if out.Kind == "spmd" {
		m, err := spmd.ParseModel(path, data)
		if err != nil {
			return badInput(err)
		}
		out.Model = cmp.Or(m.Name, path)
		if out.Report, err = simulateSPMD(m, nil, [][2]int{{o.p, o.d}}, o); err != nil {
			return err
		}
		return render(stdout, out, o.out)
	}
	m, name, err := qn.ParseModel(path, data)
	if err != nil {
		return badInput(err)
	}
	out.Model = cmp.Or(name, path)
	an, anErr := qn.Solve(m, "auto", qn.AMVAOptions{})
	if out.Report, err = simulateQN(m, "auto", an, anErr, o); err != nil {
		return err
	}
	return render(stdout, out, o.out)
}

// simulateQN simulates m and compares it with the solution an of the named solver (nil:
// the solver failed with anErr, said in a note).
func simulateQN(m *qn.Model, solver string, an *qn.Result, anErr error, o simOptions) (*validate.Report, error) {
	cfg, err := o.config(m)
	if err != nil {
		return nil, badInput(err)
	}
	s, err := sim.New(m, cfg)
	if err != nil {
		return nil, badInput(err) // the model or a distribution the simulator cannot take
	}
	res, err := s.Replicate(sim.Options{Seed: o.seed, Reps: o.reps, Precision: o.precision, Batches: o.batches, Progress: progressFunc(o.progress, "replications")})
	if err != nil && o.batches > 0 {
		return nil, badInput(err) // batches too short for the run length
	}
	if err != nil {
		return nil, libError(err)
	}
	if an != nil && an.Solver != "" {
		solver = an.Solver
	}
	return validate.QNReport(m, solver, an, anErr, res, o.seed, cfg.ProductFormNotes(m)), nil
}

// simulateSPMD simulates the SPMD program directly at each (p, d) and compares the cycle
// time with the analytic model's (e: the evaluator already built, or nil).
func simulateSPMD(m *spmd.Model, e *spmd.Evaluator, pds [][2]int, o simOptions) (*validate.Report, error) {
	cpu, err := sim.ParseDist(o.cpu)
	if err != nil {
		return nil, badInputf("--cpu: %v", err)
	}
	if e == nil {
		if e, err = spmd.NewEvaluator(m); err != nil {
			return nil, badInput(err)
		}
	}
	rep, err := validate.SPMD(m, e, pds, sim.SPMDConfig{CPU: cpu, Cycles: o.cycles}, o.seed, o.reps)
	if err != nil {
		return nil, badInput(err)
	}
	return rep, nil
}

package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/spmd"
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
	format     string
	p, d       int
	cpu        string
	cycles     int
	progress   bool
}

func addSimFlags(cmd *cobra.Command, o *simOptions) {
	f := cmd.Flags()
	f.Uint64Var(&o.seed, "seed", 1, "random seed (replication i uses stream i)")
	f.Float64Var(&o.precision, "precision", 0, "run replications until every class's X and R have a 95 % half-width within this fraction of the mean")
	f.IntVar(&o.reps, "reps", 10, "replications (the minimum, with --precision)")
	f.IntVar(&o.batches, "batches", 0, "queueing networks: batch means instead of replications — one run of --events events cut into this many batches (one core)")
	f.Int64Var(&o.events, "events", 200000, "events per replication after the warm-up (10 %)")
	f.StringArrayVar(&o.service, "service", nil, "service distribution of a station, STATION=DIST (DIST: "+sim.DistNames+")")
	f.StringArrayVar(&o.discipline, "discipline", nil, "STATION=fcfs|ps")
	f.StringArrayVar(&o.arrival, "arrival", nil, "inter-arrival distribution of an open class, CLASS=DIST")
	f.StringArrayVar(&o.think, "think", nil, "think-time distribution of a closed class, CLASS=DIST")
	f.IntVar(&o.cycles, "cycles", 2000, "SPMD models: cycles per replication")
	f.StringVar(&o.cpu, "cpu", "exponential", "SPMD models: CPU burst distribution")
	f.BoolVar(&o.progress, "progress", true, "show progress on stderr (only on a terminal)")
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
	f.StringVar(&o.format, "format", "table", "output format: table, json, csv")
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

type simRow struct {
	Quantity  string   `json:"quantity"`
	Analytic  *float64 `json:"analytic,omitempty"`
	Simulated float64  `json:"simulated"`
	HalfWidth float64  `json:"half_width"`
	Inside    *bool    `json:"analytic_inside,omitempty"`
	RelError  *float64 `json:"analytic_relative_error,omitempty"`
}

func row(q string, e sim.Estimate, analytic float64, have bool) simRow {
	r := simRow{Quantity: q, Simulated: e.Mean, HalfWidth: e.Half}
	if have && !math.IsNaN(analytic) {
		a := analytic
		in := e.Contains(a)
		rel := (a - e.Mean) / e.Mean
		r.Analytic, r.Inside, r.RelError = &a, &in, &rel
	}
	return r
}

func writeRows(w io.Writer, format, title string, rows []simRow) error {
	t := &report.Table{Title: title, Header: []string{"quantity", "analytic", "simulated", "±95%", "inside", "analytic_error_%"}}
	for _, r := range rows {
		a, in, e := "", "", ""
		if r.Analytic != nil {
			a, in, e = report.Num(*r.Analytic), fmt.Sprint(*r.Inside), report.Num(100**r.RelError)
		}
		t.Add(r.Quantity, a, r.Simulated, r.HalfWidth, in, e)
	}
	switch format {
	case "json":
		return report.WriteJSON(w, rows)
	case "csv":
		return t.WriteCSV(w)
	}
	return t.WriteText(w)
}

func runSimulate(o simOptions, path string, stdout, stderr io.Writer) error {
	if err := report.CheckFormat(o.format); err != nil {
		return badInput(err)
	}
	data, err := readInput(path)
	if err != nil {
		return err
	}
	if modelKind(data) == "spmd" {
		m, err := spmd.ParseModel(path, data)
		if err != nil {
			return badInput(err)
		}
		rows, err := validateSPMD(m, [][2]int{{o.p, o.d}}, o)
		if err != nil {
			return err
		}
		return writeRows(stdout, o.format, fmt.Sprintf("%s: simulated directly (%d replications, CPU bursts %s)", m.Arch, max(o.reps, 2), o.cpu), rows)
	}
	m, name, err := qn.ParseModel(path, data)
	if err != nil {
		return badInput(err)
	}
	rows, res, err := validateQN(m, o, stderr)
	if err != nil {
		return err
	}
	if name == "" {
		name = path
	}
	how := fmt.Sprintf("%d replications", res.Replications)
	if res.Method == "batch means" {
		how = fmt.Sprintf("batch means over %d batches", res.Replications)
	}
	return writeRows(stdout, o.format, fmt.Sprintf("%s: %s, %d events, precision %.3g", name, how, res.Events, res.Precision), rows)
}

// validateQN simulates m and lines the exact (or best analytic) solution up against it.
// Notes on where the analytic answer is not exact go to stderr.
func validateQN(m *qn.Model, o simOptions, stderr io.Writer) ([]simRow, *sim.Result, error) {
	cfg, err := o.config(m)
	if err != nil {
		return nil, nil, badInput(err)
	}
	s, err := sim.New(m, cfg)
	if err != nil {
		return nil, nil, badInput(err)
	}
	for _, n := range cfg.ProductFormNotes(m) {
		fmt.Fprintf(stderr, "note: %s\n", n)
	}
	if o.batches > 0 && o.precision > 0 {
		return nil, nil, badInputf("--batches and --precision: batch means run a fixed length; give one of them")
	}
	res, err := s.Replicate(sim.Options{Seed: o.seed, Reps: o.reps, Precision: o.precision, Batches: o.batches, Progress: progressFunc(o.progress, "replications")})
	if err != nil {
		if o.batches > 0 {
			return nil, nil, badInput(err)
		}
		return nil, nil, err
	}
	if res.Lag1Suspect() {
		fmt.Fprintf(stderr, "note: the batch throughputs have lag-1 autocorrelation %.2f (above 2/√%d): batches are probably too short, the intervals too narrow — raise --events or lower --batches\n", res.Lag1, res.Replications)
	}
	an, aerr := qn.Solve(m, "auto", qn.AMVAOptions{})
	have := aerr == nil
	var rows []simRow
	for c, cl := range m.Classes {
		var x, r float64
		if have {
			x, r = an.Throughput[c], an.ResponseTime[c]
		}
		rows = append(rows, row("X "+cl.Name, res.Throughput[c], x, have), row("R "+cl.Name, res.ResponseTime[c], r, have))
	}
	for k, st := range m.Stations {
		var u, q float64
		if have {
			u, q = an.StationUtilization(k), an.StationQueueLength(k)
		}
		qs := sim.Estimate{}
		for c := range m.Classes {
			qs.Mean += res.QueueLength[k][c].Mean
			qs.Half += res.QueueLength[k][c].Half // conservative: halves add
		}
		rows = append(rows, row("U "+st.Name, res.Utilization[k], u, have), row("Q "+st.Name, qs, q, have))
	}
	return rows, res, nil
}

// validateSPMD simulates the SPMD model directly at the given (p, d) and compares the cycle
// time with the analytic model's.
func validateSPMD(m *spmd.Model, pds [][2]int, o simOptions) ([]simRow, error) {
	if len(m.Phases) != 1 {
		return nil, badInputf("direct simulation takes a one-phase model (this one has %d)", len(m.Phases))
	}
	cpu, err := sim.ParseDist(o.cpu)
	if err != nil {
		return nil, badInputf("--cpu: %v", err)
	}
	e, err := spmd.NewEvaluator(m)
	if err != nil {
		return nil, badInput(err)
	}
	var rows []simRow
	for _, pd := range pds {
		pt, err := e.Evaluate(pd[0], pd[1])
		if err != nil {
			return nil, badInput(err)
		}
		est, err := sim.ReplicateSPMD(m, pd[0], pd[1], sim.SPMDConfig{CPU: cpu, Cycles: o.cycles}, o.seed, max(o.reps, 2))
		if err != nil {
			return nil, badInput(err)
		}
		ph := m.Phases[0]
		cycles := ph.Cycles
		if cycles <= 0 {
			cycles = 1
		}
		rows = append(rows, row(fmt.Sprintf("cycle time p=%d d=%d", pd[0], pd[1]), est, pt.Time/cycles, true))
	}
	return rows, nil
}

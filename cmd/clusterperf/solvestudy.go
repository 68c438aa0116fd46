package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/validate"
)

// solveStudyLong is solve's help on running a study on a cluster (issue 18).
const solveStudyLong = `Studies on a cluster: the replications of --validate (one model) and the points of a
sweep (--sweep or a .jmva what-if, with or without --validate) split over machines:
--shard I/N --out DIR computes shard I, --slurm --out DIR submits every shard as a Slurm
job array (--slurm-opt, --slurm-array-size, --slurm-dry-run), and "clusterperf merge DIR"
prints what the one-machine run with the same seed prints (merge --plot FILE draws a
sweep's plot). Replication r uses stream r of the seed, at every point of a sweep.

`

// runSolveStudy runs one shard of a sharded solve study, or submits it to Slurm: the
// replications of --validate of one model (replication k is sim.Simulator.Run(seed, k), as
// in the one-machine run), or the points of a sweep (point k solved, and simulated with
// --validate, from the model and its value alone).
func runSolveStudy(cmd *cobra.Command, o *solveOptions, args []string, stdout, stderr io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	if o.plot != "" || o.exportJMVA != "" {
		return badInputf("--plot and --export-jmva with --shard/--slurm: the shards hold no whole result; draw the plot with \"clusterperf merge DIR --plot FILE\", export JMVA from the one-machine run")
	}
	in, err := parseSolveModel(args[0])
	if err != nil {
		return err
	}
	if err := o.checkSpecial(in, args[0]); err != nil {
		return err
	}
	if o.isSweep(in) {
		return runSweepStudy(cmd, o, in, args, stdout)
	}
	switch {
	case !o.validate:
		return badInputf("--shard/--slurm split the replications of --validate or the points of --sweep; solving one model is not a study")
	case o.measured != "":
		return badInputf("--measured %s: the measurements are compared with a sweep: give --sweep (or a .jmva file with a what-if analysis)", o.measured)
	}
	m := in.model
	if o.distribution != "" { // refused before any shard runs, as the one-machine run does
		if _, err := distribution(m, o.distribution); err != nil {
			return err
		}
	}
	if _, err := solveLabelledWith(in.solver(m), m, o.solver, o.amvaOptions(), func(*qn.Result) {}, io.Discard); err != nil {
		return err
	}
	s, err := newSimulator(in.file, m, o.sim)
	if err != nil {
		return err
	}
	if err := s.CheckStudy(o.sim.simOpts()); err != nil {
		return libError(err)
	}
	p, err := studyPlan(cmd, args, o.sim.study, o.sim.seed, o.sim.reps)
	if err != nil {
		return err
	}
	work := func(k int) (json.RawMessage, error) {
		r, err := s.Run(p.Seed, uint64(k))
		if err != nil {
			return nil, libError(err)
		}
		return json.Marshal(r)
	}
	return runStudy(cmd.Context(), o.sim.study, p, work, stdout)
}

// sweepItem is one point of a sharded sweep as its shard file holds it: the solution (or
// the saturation that leaves the point without one) and, with --validate, its validation.
// encoding/json writes the shortest decimal that reads back as the same float64, so the
// merged points are the one-machine run's bit for bit.
type sweepItem struct {
	Value      float64             `json:"value"`
	Result     *qn.Result          `json:"result,omitempty"`
	Saturation *qn.SaturationError `json:"saturation,omitempty"`
	Validation *validate.Report    `json:"validation,omitempty"`
}

// runSweepStudy is runSolveStudy for a sweep: item k is point k.
func runSweepStudy(cmd *cobra.Command, o *solveOptions, in *solveInput, args []string, stdout io.Writer) error {
	m := in.model
	p, vals, err := sweepParam(in, o.sweep)
	if _, legacy := legacySweep(o.sweep); legacy && err != nil && plannedHere(cmd, args, o.sim.study) {
		p, vals, err = planSweepParam(in, o.sweep) // a shard of an older version's study
	}
	if err != nil {
		return err
	}
	if _, err := sweepMeasurements(m, *o, readInput); err != nil {
		return err
	}
	plan, err := studyPlan(cmd, args, o.sim.study, o.sim.seed, len(vals))
	if err != nil {
		return err
	}
	q := *o
	q.progress, q.sim.progress = false, false
	// the shard's points are solved together when its first item is asked for: qn.Sweep of
	// the shard's values applies the sweep's work budget to the shard, as the one-machine
	// run applies it to the whole sweep (each point is solved on its own either way)
	var pts []qn.SweepPoint
	lo := 0
	work := func(k int) (json.RawMessage, error) {
		if pts == nil {
			i, _, _ := shard.ParseShard(o.sim.study.shard)
			r, err := plan.Spec.Range(i)
			if err != nil {
				return nil, err
			}
			if pts, err = solveSweepRange(m, p, vals[r.Lo:r.Hi], q); err != nil {
				return nil, err
			}
			lo = r.Lo
		}
		return sweepPointItem(m, p, pts[k-lo], q)
	}
	return runStudy(cmd.Context(), o.sim.study, plan, work, stdout)
}

// solveSweepRange solves the sweep at vals as the one-machine run solves the whole sweep
// (qn.Sweep, its budget and errors; fork/join points' simulated error estimates).
func solveSweepRange(m *qn.Model, p qn.SweepParam, vals []float64, o solveOptions) ([]qn.SweepPoint, error) {
	opt := o.amvaOptions()
	pts, err := qn.Sweep(m, p, vals, o.solver, opt, nil)
	if err != nil {
		if opt.RequireExact && errors.Is(err, fault.ErrTooLarge) {
			return nil, badInputf("--exact: %w", err)
		}
		return nil, libError(err)
	}
	if !o.validate { // with --validate, sweepPointItem's simulation gives the estimates
		_, _ = estimateSweep(context.Background(), m, p, pts, o.sim) // the study stops between items
	}
	return pts, nil
}

// sweepPointItem is one solved point as a shard item, simulated with --validate: what the
// one-machine sweep computes for that point.
func sweepPointItem(m *qn.Model, p qn.SweepParam, pt qn.SweepPoint, o solveOptions) (json.RawMessage, error) {
	it := sweepItem{Value: pt.Value, Result: pt.Result}
	if pt.Err != nil && !errors.As(pt.Err, &it.Saturation) {
		return nil, libError(pt.Err)
	}
	if o.validate {
		checks, err := validateSweep(context.Background(), m, p, []qn.SweepPoint{pt}, o) // the study stops between items
		if err != nil {
			return nil, err
		}
		it.Validation = checks[0]
	}
	return json.Marshal(it)
}

// mergeSolveTo is the merge of a solve study (the approximate points' account goes to
// stderr, as in the one-machine run).
func mergeSolveTo(stderr io.Writer) shard.MergeFunc {
	return func(p shard.Plan, items []json.RawMessage) (any, error) {
		var o solveOptions
		pos, err := reparseStudy(solveCmd(&o, io.Discard, io.Discard), p, &o.sim.study)
		if err != nil {
			return nil, err
		}
		if len(pos) != 1 || o.sim.seed != p.Seed {
			return nil, badInputf("the plan's arguments %q are not a solve study with seed %d", p.Args, p.Seed)
		}
		in, err := parseSolveModelWith(o.sim.study.read, pos[0])
		if err != nil {
			return nil, err
		}
		if o.isSweep(in) {
			return mergeSweep(in, o, items, stderr)
		}
		if !o.validate || o.sim.reps != len(items) {
			return nil, badInputf("the plan's arguments %q are not a solve --validate study of %d replications", p.Args, len(items))
		}
		s, err := newSimulator(in.file, in.model, o.sim)
		if err != nil {
			return nil, err
		}
		sr, err := summariseReps(s, items, in.model)
		if err != nil {
			return nil, err
		}
		out, _, err := solveOne(context.Background(), in, o, sr, stderr) // sr given: nothing to simulate
		return out, err
	}
}

// mergeSweep rebuilds the sweep's points from its items and makes the one-machine result.
func mergeSweep(in *solveInput, o solveOptions, items []json.RawMessage, stderr io.Writer) (any, error) {
	p, vals, err := planSweepParam(in, o.sweep)
	if err != nil {
		return nil, err
	}
	if len(vals) != len(items) {
		return nil, badInputf("the study has %d points; its arguments sweep %d", len(items), len(vals))
	}
	meas, err := sweepMeasurements(in.model, o, o.sim.study.read)
	if err != nil {
		return nil, err
	}
	pts := make([]qn.SweepPoint, len(items))
	var checks []*validate.Report
	if o.validate {
		checks = make([]*validate.Report, len(items))
	}
	for k, raw := range items {
		var it sweepItem
		if err := decodeItem(k, raw, &it); err != nil {
			return nil, err
		}
		if math.Float64bits(it.Value) != math.Float64bits(vals[k]) {
			return nil, badInputf("point %d holds the value %g, the sweep's point %d is %g", k, it.Value, k, vals[k])
		}
		if err := checkSweepItem(k, it, p.Apply(in.model, vals[k]), o.amvaOptions(), o.validate); err != nil {
			return nil, err
		}
		pts[k] = qn.SweepPoint{Value: it.Value, Result: it.Result}
		if it.Saturation != nil {
			pts[k].Err = it.Saturation
		}
		if checks != nil {
			checks[k] = it.Validation
		}
	}
	return sweepOutput(in, o, p, pts, checks, meas, stderr)
}

// legacySweep reads a --sweep value in the form versions before the nN spelling wrote into
// their plans: a real range (demand, arrival_rate) FROM:TO:N with a bare whole number N,
// which then meant N evenly spaced values and is now refused as ambiguous (qn.ParseSweep).
// It returns the value with N spelt nN, and whether v had that form.
func legacySweep(v string) (string, bool) {
	lhs, rng, ok := strings.Cut(v, "=")
	f := strings.Split(rng, ":")
	if !ok || len(f) != 3 || !(strings.HasPrefix(lhs, "demand.") || lhs == "arrival_rate" || strings.HasPrefix(lhs, "arrival_rate.")) {
		return v, false
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(f[2]), 64)
	if err != nil || n != math.Trunc(n) || n < 0 {
		return v, false
	}
	return lhs + "=" + f[0] + ":" + f[1] + ":n" + strings.TrimSpace(f[2]), true
}

// planSweepParam is sweepParam for a sweep read from a study's plan (merge, and a shard of
// an existing plan). A plan is data an earlier clusterperf wrote, and this version never
// writes the bare FROM:TO:N form (it refuses it before planning), so in a plan that form
// can only mean what it meant then: N evenly spaced values, computed exactly as that
// version did, FROM + (TO − FROM)·i/(N − 1) with no clamping of the last value to TO, so
// the values match its shards' bit for bit.
func planSweepParam(in *solveInput, flag string) (qn.SweepParam, []float64, error) {
	nForm, legacy := legacySweep(flag)
	if !legacy {
		return sweepParam(in, flag)
	}
	p, vals, err := sweepParam(in, nForm)
	if err != nil {
		return p, nil, err
	}
	lhs, rng, _ := strings.Cut(flag, "=")
	f := strings.Split(rng, ":")
	_, end, err := sweepParam(in, lhs+"="+f[1]+":"+f[1]) // TO in the field's base unit
	if err != nil {
		return p, nil, err
	}
	nf, _ := strconv.ParseFloat(strings.TrimSpace(f[2]), 64)
	n := int(nf) // a whole number in 2 … qn.MaxSweepPoints: the nN form parsed
	a, b := vals[0], end[0]
	vals = make([]float64, n) // N values even when FROM = TO, as then
	for i := range vals {
		vals[i] = a + (b-a)*float64(i)/float64(n-1)
	}
	return p, vals, nil
}

// plannedHere reports whether the study directory of a --shard run holds a plan of exactly
// this command line (the task of a Slurm array, or a shard rerun by hand).
func plannedHere(cmd *cobra.Command, args []string, so studyOptions) bool {
	if so.shard == "" || so.out == "" {
		return false
	}
	p, err := shard.ReadPlan(so.out)
	return err == nil && p.ArgsHash == shard.HashArgs(cmd.Name(), studyArgs(cmd, args))
}

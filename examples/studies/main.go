// Command studies runs the two simulation studies of issue 8 and writes docs/studies.md:
// (1) 002's expansion factor 1/(1 − U) against simulated processor sharing with background
// streams of several inter-arrival and demand distributions; (2) the error of the fork/join
// approximation (000 eq. 16) and of the exponential-burst assumption against c, p and the
// burst distribution. Seeded: the same seed gives the same file.
//
//	go run ./examples/studies [-out docs/studies.md] [-seed 1] [-quick]
//
// Each table cell is one item of a study (package shard), computed from the seed and its
// own replications alone, so the study splits over machines and merges to the same bytes:
//
//	studies -shard I/N -out DIR          compute shard I of N into the study directory DIR
//	studies -slurm -out DIR [-slurm-opt partition=debug] [-slurm-array-size N] [-slurm-dry-run]
//	                                     submit every shard as a Slurm job array (a built
//	                                     binary: go build -o studies ./examples/studies)
//	clusterperf merge --status DIR       which shards are done, failed or missing
//	studies -merge DIR [-out docs/studies.md]
//	                                     write the document from the shards
//
// Run it from the repository root (it reads examples/spmd/btio.yaml; -merge reads it where
// the plan recorded it and refuses it if it changed).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/clusterperf/clusterperf/internal/atomicfile"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/slurm"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "studies:", err)
		os.Exit(1)
	}
}

// options are the program's flags.
type options struct {
	out, shard, merge string
	seed              uint64
	quick             bool
	slurm, dryRun     bool
	slurmOpts         []string
	arraySize         int
}

func parse(args []string) (options, error) {
	if len(args) > 0 && args[0] == command { // how a Slurm array task starts the program
		args = args[1:]
	}
	var o options
	fl := flag.NewFlagSet("studies", flag.ContinueOnError)
	fl.StringVar(&o.out, "out", "", "the document to write (default docs/studies.md); with -shard or -slurm the study directory")
	fl.Uint64Var(&o.seed, "seed", 1, "random seed")
	fl.BoolVar(&o.quick, "quick", false, "fewer replications (a smoke test)")
	fl.StringVar(&o.shard, "shard", "", "compute only shard I/N of the cells into the study directory -out")
	fl.StringVar(&o.merge, "merge", "", "write the document from the finished shards in this study directory")
	fl.BoolVar(&o.slurm, "slurm", false, "submit the shards as a Slurm job array into the study directory -out")
	fl.Func("slurm-opt", "-slurm: an sbatch option, e.g. partition=debug (repeatable)", func(v string) error {
		o.slurmOpts = append(o.slurmOpts, v)
		return nil
	})
	fl.IntVar(&o.arraySize, "slurm-array-size", 0, "-slurm: array tasks (0: min(32, cells))")
	fl.BoolVar(&o.dryRun, "slurm-dry-run", false, "-slurm: print the batch script instead of submitting it")
	if err := fl.Parse(args); err != nil {
		return o, err
	}
	if fl.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fl.Args())
	}
	modes := 0
	for _, on := range []bool{o.shard != "", o.merge != "", o.slurm} {
		if on {
			modes++
		}
	}
	switch {
	case modes > 1:
		return o, errors.New("give one of -shard, -slurm and -merge")
	case (o.shard != "" || o.slurm) && o.out == "":
		return o, errors.New("-shard and -slurm need -out DIR, the study directory")
	case !o.slurm && (o.dryRun || o.arraySize != 0 || len(o.slurmOpts) > 0):
		return o, errors.New("-slurm-opt, -slurm-array-size and -slurm-dry-run belong to -slurm")
	case o.out == "":
		o.out = "docs/studies.md"
	}
	return o, nil
}

func run(args []string) error {
	o, err := parse(args)
	if err != nil {
		return err
	}
	switch {
	case o.merge != "":
		return mergeStudy(o)
	case o.shard != "" || o.slurm:
		return shardStudy(o)
	}
	start := time.Now()
	s, err := newStudy(o.seed, o.quick, btioFile)
	if err != nil {
		return err
	}
	ests := make([]estimate, len(s.cells))
	for k := range s.cells {
		if ests[k], err = s.cells[k].run(); err != nil {
			return err
		}
	}
	doc, err := s.document(ests)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteBytes(o.out, doc); err != nil {
		return err
	}
	fmt.Printf("wrote %s (in %.0f s)\n", o.out, time.Since(start).Seconds())
	return nil
}

// command is the Slurm job's command word and the plan's command name.
const command = "studies"

// planVersion names the item encoding and the document's layout: shards and merge must
// agree on it (raise it when either changes).
const planVersion = "studies/2"

// plan is the study's shard plan over n shards (0: the -slurm default).
func (s *study) plan(o options, n int) (shard.Plan, error) {
	if n == 0 {
		n = slurm.DefaultArraySize(len(s.cells))
	}
	args := []string{fmt.Sprintf("-quick=%v", o.quick), fmt.Sprintf("-seed=%d", o.seed)}
	p, err := shard.NewPlan(command, args, o.seed, shard.Spec{Items: len(s.cells), N: n}, planVersion)
	if err != nil {
		return p, err
	}
	if p.Dir, err = os.Getwd(); err != nil {
		return p, err
	}
	in, err := shard.HashInput(p.Dir, btioFile)
	if err != nil {
		return p, fmt.Errorf("%v (run from the repository root)", err)
	}
	p.Inputs = []shard.Input{in}
	return p, nil
}

func shardStudy(o options) error {
	s, err := newStudy(o.seed, o.quick, btioFile)
	if err != nil {
		return err
	}
	if o.shard != "" {
		i, n, err := shard.ParseShard(o.shard)
		if err != nil {
			return err
		}
		p, err := s.plan(o, n)
		if err != nil {
			return err
		}
		if err := shard.WritePlan(o.out, p); err != nil {
			return err
		}
		return shard.Run(o.out, p, i, s.item)
	}
	p, err := s.plan(o, o.arraySize)
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if strings.Contains(exe, "go-build") {
		return errors.New("-slurm: the array tasks need a binary that outlives this run: go build -o studies ./examples/studies, then run ./studies -slurm")
	}
	dir, err := absDir(o.out)
	if err != nil {
		return err
	}
	j := slurm.Job{Executable: exe, Command: command, Args: p.Args, Dir: dir, Shards: p.N, Opts: o.slurmOpts, WorkDir: p.Dir}
	if o.dryRun {
		script, err := slurm.DryRun(p, j)
		if err == nil {
			fmt.Print(script)
		}
		return err
	}
	sub, err := slurm.Client{}.SubmitStudy(context.Background(), p, j)
	if err != nil {
		return err
	}
	fmt.Printf("submitted %d cells over shards %s as job %s\nprogress: clusterperf merge --status %s\nresult:   studies -merge %s -out docs/studies.md\n", p.Items, sub.Array, sub.JobID, dir, dir)
	return nil
}

// mergeStudy writes the document from a finished study directory: the cells' estimates in
// index order, the analytic values recomputed from the plan's input (checked unchanged).
func mergeStudy(o options) error {
	m, err := shard.Merge(o.merge)
	if err != nil {
		return err
	}
	p := m.Plan
	if p.Command != command || p.Version != planVersion {
		return fmt.Errorf("%s holds a %s study (version %s), not this program's (%s)", o.merge, p.Command, p.Version, planVersion)
	}
	if err := p.CheckInputs(); err != nil {
		return err
	}
	quick := false
	for _, a := range p.Args {
		quick = quick || a == "-quick=true"
	}
	s, err := newStudy(p.Seed, quick, p.Resolve(btioFile))
	if err != nil {
		return err
	}
	if len(s.cells) != len(m.Items) {
		return fmt.Errorf("%s: %d cells, the study has %d", o.merge, len(m.Items), len(s.cells))
	}
	ests := make([]estimate, len(m.Items))
	for k, raw := range m.Items {
		if ests[k], err = decodeItem(raw); err != nil {
			return fmt.Errorf("%s: cell %d: %w", o.merge, k, err)
		}
	}
	doc, err := s.document(ests)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteBytes(o.out, doc); err != nil {
		return err
	}
	fmt.Printf("wrote %s from %d cells over %d shards\n", o.out, len(ests), p.N)
	return nil
}

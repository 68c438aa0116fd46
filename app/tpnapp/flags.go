package tpnapp

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/tpn"
)

// Flags are the tpn command's options as given: the cluster file, the background load
// (mean or sampled, with its replications and seed; SampleFlags: --reps or --seed was
// given), the output files (checked here, written by Run or the command), the firing rule,
// the cut-offs, the advice search and its sizing rule.
type Flags struct {
	Cluster, Background string
	Reps                int
	Seed                uint64
	SampleFlags         bool
	Plot, ExportPNML    string
	Atomic              bool
	MaxTime             float64
	Advise              bool
	Budget              int
	MaxTrans            int64
	MaxFirings          int64
	Sizing              app.SizingFlags
}

// IsPNML tells a net file from a program file by its extension.
func IsPNML(path string) bool { return strings.EqualFold(filepath.Ext(path), ".pnml") }

// Check records the options' problems for the file at path in c; study records the problems
// of the sharding options and says whether a sharded study is asked for.
func (o Flags) Check(c *app.FlagCheck, path string, study func(*app.FlagCheck) bool) {
	c.Output("plot", o.Plot, ".svg", ".png")
	c.Output("export-pnml", o.ExportPNML)
	switch {
	case IsPNML(path) && (o.Cluster != "" || o.Advise):
		c.Add("%s is a net: --cluster and --advise belong to a program file", path)
	case !IsPNML(path) && o.Cluster == "":
		c.Add("--cluster CLUSTER.yaml is required (the workstations and the network)")
	}
	if _, err := tpn.Ticks(o.MaxTime); err != nil {
		c.Add("--max-time %g: want a duration in seconds from 0 (no limit) to the representable horizon of %.4g s (2^62 ticks of 1 ns)", o.MaxTime, tpn.MaxSeconds)
	}
	c.AtLeast("budget", int64(o.Budget), 1)
	c.ZeroOrAtLeast("max-transitions", o.MaxTrans, 1, "the default")
	c.ZeroOrAtLeast("max-firings", o.MaxFirings, 1, "the default")
	sharded := study(c)
	if sharded && !o.Advise {
		c.Add("--shard/--slurm split the mappings of --advise; one run of a net is not a study")
	}
	o.Sizing.Check(c)
	o.checkBackground(c, path, sharded)
}

// checkBackground records the problems of --background and its --reps and --seed.
func (o Flags) checkBackground(c *app.FlagCheck, path string, sharded bool) {
	switch o.Background {
	case "mean":
		if o.SampleFlags {
			c.Add("--reps and --seed belong to --background sampled (the mean expansion is deterministic)")
		}
		return
	case "sampled":
	default:
		c.Add("--background %q: allowed mean (default) or sampled", o.Background)
		return
	}
	if o.Reps < 2 || o.Reps > tpn.MaxReps {
		c.Add("--reps %d: want a whole number from 2 (an interval needs two) to %d", o.Reps, tpn.MaxReps)
	}
	switch {
	case IsPNML(path):
		c.Add("--background sampled needs a program and its cluster (the workstations' background load); %s is a net", path)
	case o.Atomic:
		c.Add("--atomic with --background sampled: a sampled run fires tokens at start only")
	case sharded:
		c.Add("--shard/--slurm split the mappings of --advise, not sampled replications")
	}
}

// Request reads the program and its cluster with read (or the net of a .pnml path) into
// the request of the checked options (Check). The caller adds Progress and Notify.
func (o Flags) Request(read func(string) ([]byte, error), path string) (Request, error) {
	t, _ := tpn.Ticks(o.MaxTime)
	bo := tpn.BuildOptions{MaxTransitions: o.MaxTrans, MaxFirings: o.MaxFirings}
	q := Request{Build: bo, Run: tpn.Options{Record: true, AtomicFiring: o.Atomic, MaxTime: t, MaxFirings: o.MaxFirings},
		ExportPNML: o.ExportPNML, Sampled: o.Background == "sampled", Reps: o.Reps, Seed: o.Seed,
		Advise: o.Advise, Budget: o.Budget, Sizing: o.Sizing.Options(nil)}
	var err error
	if IsPNML(path) {
		q.Net, err = tpn.ReadPNMLFile(path)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return q, app.Inputf("cannot read %s: %v", path, err)
		}
		return q, app.Lib(err)
	}
	q.Program, q.Cluster, err = Parse(read, path, o.Cluster, bo)
	return q, err
}

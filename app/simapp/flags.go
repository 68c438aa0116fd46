package simapp

import (
	"math"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/internal/units"
)

// Flags are the simulation options as given (simulate, and --validate of solve and
// speedup): the seed, the precision target, replications or batches, the run length and
// its bounds (--max-memory a size with units, "8GB"), the distributions and disciplines as
// NAME=VALUE assignments, and for SPMD models p, d, the cycles, the CPU burst distribution
// and the bursts per I/O burst (fixed or geometric).
type Flags struct {
	Seed                                uint64
	Precision                           float64
	Reps, Batches                       int
	Events, MaxEvents                   int64
	MaxMemory                           string
	Service, Discipline, Arrival, Think []string
	P, D                                int
	CPU                                 string
	Cycles                              int
	Bursts                              string
}

// CheckRun records the problems of the options of one simulation run (replications, length,
// bounds, precision) in c.
func (o Flags) CheckRun(c *app.FlagCheck) {
	c.AtLeast("reps", int64(o.Reps), 2)
	c.ZeroOrAtLeast("events", o.Events, 500, "the model's default length")
	c.ZeroOrAtLeast("max-events", o.MaxEvents, 1, "the defaults")
	if o.MaxMemory != "" {
		b, err := units.Bytes(o.MaxMemory)
		switch {
		case err != nil:
			c.Add("--max-memory: %v", err)
		case !(b >= 1 && b < math.MaxInt64):
			c.Add("--max-memory %q: want a size of at least 1 byte and below 8 EiB", o.MaxMemory)
		}
	}
	if o.Precision != 0 {
		c.Fraction("precision", o.Precision, 0, 1)
	}
}

// Check records the problems of every simulation option in c; study records the sharding
// options' problems and says whether a sharded study is asked for.
func (o Flags) Check(c *app.FlagCheck, study func(*app.FlagCheck) bool) {
	o.CheckRun(c)
	sharded := study(c)
	if sharded && o.Precision > 0 {
		c.Add("--precision with --shard/--slurm: a precision target decides how many replications to run from the data of the earlier ones, which one shard does not see; give a fixed --reps")
	}
	if sharded && o.Batches > 0 {
		c.Add("--batches with --shard/--slurm: batch means cut one long run into batches, which cannot be split over machines; use replications (--reps)")
	}
	c.ZeroOrAtLeast("batches", int64(o.Batches), 2, "off")
	c.AtLeast("cycles", int64(o.Cycles), 1)
	if o.Bursts != "" && o.Bursts != "fixed" && o.Bursts != "geometric" {
		c.Add("--bursts %q: want fixed or geometric", o.Bursts)
	}
	if o.Batches > 0 && o.Precision > 0 {
		c.Add("--batches and --precision: batch means run a fixed length; give one of them")
	}
}

// Options are the simulation options of the checked flags; progress makes the reporter of
// a run counting unit.
func (o Flags) Options(progress func(unit string) func(done, total int)) Options {
	var mem int64
	if o.MaxMemory != "" {
		b, _ := units.Bytes(o.MaxMemory) // CheckRun refused a size that does not parse
		mem = int64(b)
	}
	return Options{Seed: o.Seed, Precision: o.Precision, Reps: o.Reps, Batches: o.Batches, Events: o.Events,
		MaxEvents: o.MaxEvents, MaxMemoryBytes: mem, Service: o.Service, Discipline: o.Discipline, Arrival: o.Arrival,
		Think: o.Think, Cycles: o.Cycles, CPU: o.CPU, GeometricBursts: o.Bursts == "geometric", Progress: progress}
}

package studyapp

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/shard"
)

// A study's plan, without a command-line library: the command line as a value (Line), what
// the command computes as a value (Study), and where and how it runs (Request). A command
// that takes --shard binds its flags, gives Start its Line and its Study, and gives merge
// (Merge) a function that turns a plan's arguments back into the same Study.

// Flag is one flag set on a command line: its name and value, or the values of a
// repeatable flag in the order given (List).
type Flag struct {
	Name   string
	Values []string
	List   bool
}

// Line is a command line as a study records it: the command's name, the flags that were
// set (in name order) and the positional arguments.
type Line struct {
	Command    string
	Flags      []Flag
	Positional []string
}

// placementFlags say where and how a study runs, not what it computes: they are left out
// of the plan's arguments (with the output format and progress, which merge chooses).
var placementFlags = map[string]bool{"shard": true, "out": true, "slurm": true, "slurm-opt": true, "slurm-array-size": true,
	"slurm-dry-run": true, "format": true, "csv-table": true, "progress": true, "report": true}

// outputFlags name files a command writes, never inputs of a study.
var outputFlags = map[string]bool{"plot": true, "export-jmva": true, "export-pnml": true, "report": true}

// Args is the canonical form of the command line for a plan: every flag that was set and
// is not a placement flag, as --name=value in the order of Flags (a repeatable flag once a
// value), then the positional arguments. Two spellings of one study give one plan.
func (l Line) Args() []string {
	var out []string
	for _, f := range l.Flags {
		if placementFlags[f.Name] {
			continue
		}
		for _, v := range f.Values {
			out = append(out, "--"+f.Name+"="+v)
		}
	}
	return append(out, l.Positional...)
}

// Inputs are the files the study reads: the positional arguments and the values of flags
// (neither placement nor output flags) that name regular files, relative paths taken from
// dir, each hashed (shard.HashInput) so that merge can find them from any directory and
// refuse them when they changed. Each file is listed once, in the order of the line.
func (l Line) Inputs(dir string) ([]shard.Input, error) {
	var args []string
	for _, f := range l.Flags {
		if !placementFlags[f.Name] && !outputFlags[f.Name] {
			args = append(args, f.Values...)
		}
	}
	var out []shard.Input
	seen := map[string]bool{}
	for _, a := range append(args, l.Positional...) {
		if a == "" || seen[a] || !regular(dir, a) {
			continue
		}
		seen[a] = true
		in, err := shard.HashInput(dir, a)
		if err != nil {
			return nil, app.Classify(err)
		}
		out = append(out, in)
	}
	return out, nil
}

// regular reports whether arg, relative to dir unless absolute, is a regular file.
func regular(dir, arg string) bool {
	if !filepath.IsAbs(arg) {
		arg = filepath.Join(dir, arg)
	}
	fi, err := os.Stat(arg)
	return err == nil && fi.Mode().IsRegular()
}

// Study is what a study-capable command computes, once its request is read: Items
// independent items from the seed Seed, item k computed from the seed and k alone (Work
// gives the items of one shard's range), and Merge, which turns the items of every shard,
// in index order, into the value the one-machine run with the same seed returns.
type Study interface {
	Items() int
	Seed() uint64
	Work(r shard.Range) Work
	Merge(items []json.RawMessage) (any, error)
}

// Request is a study to start: where and how it runs (Options), the command line it
// records (Line) and the program's version (merge refuses shards of another version).
type Request struct {
	Options
	Line    Line
	Version string
}

// Plan is the plan of study st as q runs it: over the --shard count, or over
// --slurm-array-size (default min(32, items)) array tasks, made in the working directory,
// with the study's input files hashed.
func (q Request) Plan(st Study) (shard.Plan, error) {
	p, err := shard.NewPlan(q.Line.Command, q.Line.Args(), st.Seed(), shard.Spec{Items: st.Items(), N: q.Shards(st.Items())}, q.Version)
	if err != nil {
		return p, app.Classify(err)
	}
	if p.Dir, err = os.Getwd(); err != nil {
		return p, err
	}
	p.Inputs, err = q.Line.Inputs(p.Dir)
	return p, err
}

// Planned reports whether the study directory of a --shard run holds a plan of exactly
// this command line (the task of a Slurm array, or a shard rerun by hand).
func (q Request) Planned() bool {
	if q.Shard == "" || q.Out == "" {
		return false
	}
	p, err := shard.ReadPlan(q.Out)
	return err == nil && p.ArgsHash == shard.HashArgs(q.Line.Command, q.Line.Args())
}

// Start plans study st and runs it as q asks (Run): this run's shard, or every shard
// submitted to Slurm.
func Start(ctx context.Context, q Request, st Study, stdout io.Writer) error {
	p, err := q.Plan(st)
	if err != nil {
		return err
	}
	r, _ := q.Range(p) // a Slurm submission computes no item here
	return Run(ctx, q.Options, p, st.Work(r), stdout)
}

// MergeStudy merges the items of a complete study of plan p into its result: st is the
// study the plan's arguments give (read again, inputs at the paths the plan recorded),
// refused when its seed or item count is not the plan's.
func MergeStudy(p shard.Plan, st Study, items []json.RawMessage) (any, error) {
	if st.Seed() != p.Seed || st.Items() != len(items) {
		return nil, app.Inputf("the plan's arguments %q give a %s study of %d items with seed %d; its shards hold %d items with seed %d",
			p.Args, p.Command, st.Items(), st.Seed(), len(items), p.Seed)
	}
	return st.Merge(items)
}

// Items is a Study given by its parts, for a command whose items and merge are a few
// lines of its own: N items from seed From, item k computed by Item, and Merged.
type Items struct {
	N      int
	From   uint64
	Item   Work
	Merged func(items []json.RawMessage) (any, error)
}

func (s Items) Items() int                                 { return s.N }
func (s Items) Seed() uint64                               { return s.From }
func (s Items) Work(shard.Range) Work                      { return s.Item }
func (s Items) Merge(items []json.RawMessage) (any, error) { return s.Merged(items) }

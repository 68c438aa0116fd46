// Package shard splits an embarrassingly parallel study (replications of a simulation, points
// of a sweep, bootstrap samples, candidate allocations) into n shards of contiguous item
// ranges, writes each shard's results to its own file atomically, and merges the files back
// into the items in index order.
//
// The contract that makes a sharded run bit-identical to the one-machine run: the caller
// derives everything random about item k from (seed, k) alone — sim.Simulator.Run(seed, k)
// does — so which shard computes item k, and how many shards there are, cannot change its
// result. Merge then returns exactly the items the local run would have produced, in the
// same order, and the command's own summary (means, intervals, tables) runs on them.
//
// Layout of a study directory DIR:
//
//	DIR/plan.json               the Plan (written once, by whoever submits the study)
//	DIR/shard-i-of-n.json       a finished shard: its Manifest and its items (File)
//	DIR/shard-i-of-n.failed     a shard whose work returned an error (Failure)
//
// Both shard files are written to a temporary name in DIR and renamed, so a shard killed
// mid-run leaves at most a ".tmp-" file, which Merge and Status ignore (and Status reports
// the shard as missing).
package shard

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
)

// Format names the shard file layout; files of another format are refused.
const Format = "clusterperf-shard/1"

// Limits on a study. MaxShards matches Slurm's default MaxArraySize of 1001 (array indices
// 0..1000); MaxItems bounds the index arithmetic and the merged slice (16 bytes a slot).
const (
	MaxShards = 1000
	MaxItems  = 1 << 26
)

// Range is the half-open item index range [Lo, Hi) of one shard.
type Range struct {
	Lo int `json:"item_lo"`
	Hi int `json:"item_hi"`
}

// Len is the number of items in the range.
func (r Range) Len() int { return r.Hi - r.Lo }

// Spec is the work of a study: Items work items (replications, sweep points…) over N shards.
type Spec struct {
	Items int `json:"items"`
	N     int `json:"n"`
}

// Validate refuses a study with no items, no shards, more shards than items (a shard would
// be empty) or beyond MaxShards/MaxItems.
func (s Spec) Validate() error {
	switch {
	case s.Items < 1:
		return fmt.Errorf("%w: a study needs at least one item (got %d)", fault.ErrInput, s.Items)
	case s.Items > MaxItems:
		return fmt.Errorf("%w: %d items, limit %d", fault.ErrTooLarge, s.Items, MaxItems)
	case s.N < 1:
		return fmt.Errorf("%w: shard count must be at least 1 (got %d)", fault.ErrInput, s.N)
	case s.N > MaxShards:
		return fmt.Errorf("%w: %d shards, limit %d (Slurm's default MaxArraySize)", fault.ErrTooLarge, s.N, MaxShards)
	case s.N > s.Items:
		return fmt.Errorf("%w: %d shards for %d items would leave shards empty; use at most %d shards", fault.ErrInput, s.N, s.Items, s.Items)
	}
	return nil
}

// Range returns the items of shard i (0 ≤ i < N): [⌊i·Items/N⌋, ⌊(i+1)·Items/N⌋). The ranges
// are contiguous, disjoint, cover 0..Items−1 and differ in length by at most one.
func (s Spec) Range(i int) (Range, error) {
	if err := s.Validate(); err != nil {
		return Range{}, err
	}
	if i < 0 || i >= s.N {
		return Range{}, fmt.Errorf("%w: shard %d of %d: index must be in 0..%d", fault.ErrInput, i, s.N, s.N-1)
	}
	return Range{Lo: i * s.Items / s.N, Hi: (i + 1) * s.Items / s.N}, nil
}

// ParseShard reads the --shard flag value "i/n" (0 ≤ i < n ≤ MaxShards).
func ParseShard(v string) (i, n int, err error) {
	a, b, ok := strings.Cut(v, "/")
	if ok {
		i, err = strconv.Atoi(a)
		if err == nil {
			n, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil {
		return 0, 0, fmt.Errorf("%w: --shard %q: want i/n with whole numbers, e.g. 0/8", fault.ErrInput, v)
	}
	if n < 1 || n > MaxShards || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("%w: --shard %q: want 0 ≤ i < n ≤ %d", fault.ErrInput, v, MaxShards)
	}
	return i, n, nil
}

// FileName is the name of shard i's result file: shard-i-of-n.json.
func FileName(i, n int) string { return fmt.Sprintf("shard-%d-of-%d.json", i, n) }

// failedName is the name of shard i's failure marker: shard-i-of-n.failed.
func failedName(i, n int) string { return fmt.Sprintf("shard-%d-of-%d.failed", i, n) }

// Plan is what every shard of one study shares: the command and its study arguments (without
// --shard, --out and the Slurm flags), their hash, the seed, the Spec and the program version.
// Shards whose plans differ are not parts of one study and Merge refuses to combine them.
type Plan struct {
	Format   string   `json:"format"`
	Command  string   `json:"command"`
	Args     []string `json:"args"`
	ArgsHash string   `json:"args_sha256"`
	Seed     uint64   `json:"seed"`
	Spec
	Version string `json:"version"`
	// Dir is the absolute working directory the plan was made in (where relative paths in
	// Args are resolved); Inputs are the files the arguments name, with their contents'
	// hashes, so that merge can read them from any directory and refuse a file changed
	// since the study was planned. Both are empty in plans of older versions.
	Dir    string  `json:"dir,omitempty"`
	Inputs []Input `json:"inputs,omitempty"`
}

// Input is one file a study's arguments name: the argument as given (relative paths stay
// relative, because the command's output may name the file so), its absolute path when the
// plan was made, its size and the hex SHA-256 of its contents.
type Input struct {
	Arg       string `json:"arg"`
	Path      string `json:"path"`
	SizeBytes int64  `json:"size_bytes"`
	SHA256    string `json:"sha256"`
}

// NewPlan fills Format and ArgsHash and validates the spec.
func NewPlan(command string, args []string, seed uint64, spec Spec, version string) (Plan, error) {
	if command == "" {
		return Plan{}, fmt.Errorf("%w: a plan needs the command name", fault.ErrInput)
	}
	if err := spec.Validate(); err != nil {
		return Plan{}, err
	}
	return Plan{Format: Format, Command: command, Args: append([]string(nil), args...), ArgsHash: HashArgs(command, args),
		Seed: seed, Spec: spec, Version: version}, nil
}

// HashArgs is the hex SHA-256 of the command and its arguments, each followed by a NUL byte.
func HashArgs(command string, args []string) string {
	h := sha256.New()
	h.Write([]byte(command))
	h.Write([]byte{0})
	for _, a := range args {
		h.Write([]byte(a))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// diff reports the first field in which two plans differ ("" when they agree).
func (p Plan) diff(q Plan) string {
	switch {
	case p.Format != q.Format:
		return fmt.Sprintf("format %q vs %q", p.Format, q.Format)
	case p.Command != q.Command:
		return fmt.Sprintf("command %q vs %q", p.Command, q.Command)
	case p.ArgsHash != q.ArgsHash:
		return fmt.Sprintf("arguments (args_sha256 %.12s… vs %.12s…)", p.ArgsHash, q.ArgsHash)
	case p.Seed != q.Seed:
		return fmt.Sprintf("seed %d vs %d", p.Seed, q.Seed)
	case p.Items != q.Items:
		return fmt.Sprintf("items %d vs %d", p.Items, q.Items)
	case p.N != q.N:
		return fmt.Sprintf("shards %d vs %d", p.N, q.N)
	case p.Version != q.Version:
		return fmt.Sprintf("version %q vs %q", p.Version, q.Version)
	case len(p.Inputs) != len(q.Inputs):
		return fmt.Sprintf("input files %d vs %d", len(p.Inputs), len(q.Inputs))
	}
	// the working directory and absolute paths may differ between machines that share
	// the files under other mount points; the files' contents must not
	for k, a := range p.Inputs {
		if b := q.Inputs[k]; a.Arg != b.Arg || a.SHA256 != b.SHA256 {
			return fmt.Sprintf("input %s (sha256 %.12s… vs %s %.12s…): the file changed between the two", a.Arg, a.SHA256, b.Arg, b.SHA256)
		}
	}
	return ""
}

// Manifest heads a shard file: the plan, its hash (Plan.Hash, checked when the file is
// read and against the study's plan.json), which shard this is and its item range.
type Manifest struct {
	Plan
	PlanSHA256 string `json:"plan_sha256"`
	I          int    `json:"i"`
	Range
}

// Hash is the hex SHA-256 of what makes two plans one study — the fields diff compares:
// format, command, args_sha256, seed, items, shards, version and the input files' arguments
// and contents (not the working directory and absolute paths, which may differ between
// machines sharing the files). Each field is written with its name and a NUL byte.
func (p Plan) Hash() string {
	h := sha256.New()
	field := func(name string, v any) { fmt.Fprintf(h, "%s=%v\x00", name, v) }
	field("format", p.Format)
	field("command", p.Command)
	field("args_sha256", p.ArgsHash)
	field("seed", p.Seed)
	field("items", p.Items)
	field("n", p.N)
	field("version", p.Version)
	for _, in := range p.Inputs {
		field("input", in.Arg+"\x00"+in.SHA256)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// MergeFunc turns a complete study's item results (in index order, as Merge returns them)
// into the command's result value — the same value the one-machine run of the command
// returns, which the command's renderers then print as table, JSON or plot.
type MergeFunc func(p Plan, items []json.RawMessage) (any, error)

// Mergers maps a command name (Plan.Command) to its MergeFunc. It is a plain value the
// command layer builds explicitly (no registration at init, no global state), e.g.
//
//	shard.Mergers{"simulate": mergeSimulate}
type Mergers map[string]MergeFunc

// Merge merges the study in dir and hands its items to the MergeFunc of the study's
// command. A command without one is refused with fault.ErrInput naming the commands that
// have one; the raw merged study is returned alongside so a caller can still print it.
func (ms Mergers) Merge(dir string) (any, *Merged, error) {
	m, err := Merge(dir)
	if err != nil {
		return nil, nil, err
	}
	f := ms[m.Plan.Command]
	if f == nil {
		names := make([]string, 0, len(ms))
		for k := range ms {
			names = append(names, k)
		}
		sort.Strings(names)
		have := "none yet"
		if len(names) > 0 {
			have = "merges exist for " + strings.Join(names, ", ")
		}
		return nil, m, fmt.Errorf("%w: %s: no merge for command %q (%s)", fault.ErrInput, dir, m.Plan.Command, have)
	}
	v, err := f(m.Plan, m.Items)
	if err != nil {
		return nil, m, fmt.Errorf("%s: merging %s: %w", dir, m.Plan.Command, err)
	}
	return v, m, nil
}

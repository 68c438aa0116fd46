package studyapp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/slurm"
)

// TestLineArgs: a plan's arguments are the flags that say what is computed, as
// --name=value in the line's order (a repeatable flag once a value), then the positional
// arguments; the flags of placement (shard, out, slurm*, format, csv-table, progress,
// report) are left out, so that every shard of one study and its merge share one plan
// (the rule of cmd/clusterperf's studyArgs before it moved here).
func TestLineArgs(t *testing.T) {
	for _, tc := range []struct {
		name string
		line Line
		want []string
	}{
		{"positional only", Line{Command: "solve", Positional: []string{"m.yaml"}}, []string{"m.yaml"}},
		{"placement flags dropped", Line{Command: "simulate", Flags: []Flag{
			{Name: "format", Values: []string{"json"}}, {Name: "out", Values: []string{"d"}}, {Name: "reps", Values: []string{"8"}},
			{Name: "shard", Values: []string{"0/2"}}, {Name: "slurm-opt", Values: []string{"time=1", "partition=x"}, List: true},
		}, Positional: []string{"m.yaml"}}, []string{"--reps=8", "m.yaml"}},
		{"repeatable flag once a value, in order", Line{Command: "solve", Flags: []Flag{
			{Name: "set", Values: []string{"b=2", "a=1"}, List: true}, {Name: "validate", Values: []string{"true"}},
		}, Positional: []string{"m.yaml"}}, []string{"--set=b=2", "--set=a=1", "--validate=true", "m.yaml"}},
		{"an empty list flag adds nothing", Line{Command: "solve", Flags: []Flag{{Name: "set", List: true}}, Positional: []string{"m.yaml"}},
			[]string{"m.yaml"}},
		{"output flags stay (they change what is refused)", Line{Command: "solve", Flags: []Flag{{Name: "plot", Values: []string{"p.svg"}}}},
			[]string{"--plot=p.svg"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.line.Args(); !slices.Equal(got, tc.want) {
				t.Errorf("Args() = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLineInputs: the inputs are the regular files among the positional arguments and the
// values of flags that are neither placement nor output flags, each once, relative to dir,
// hashed (shard.HashInput: the SHA-256 of the contents).
func TestLineInputs(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"m.yaml", "c.yaml", "out.svg"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(dir, "c.yaml")
	for _, tc := range []struct {
		name string
		line Line
		want []string // Arg of each input, in order
	}{
		{"positional file", Line{Positional: []string{"m.yaml"}}, []string{"m.yaml"}},
		{"flag value naming a file, then positional", Line{Flags: []Flag{{Name: "cluster", Values: []string{"c.yaml"}}}, Positional: []string{"m.yaml"}},
			[]string{"c.yaml", "m.yaml"}},
		{"absolute path kept as given", Line{Positional: []string{abs}}, []string{abs}},
		{"a file named twice is listed once", Line{Flags: []Flag{{Name: "measured", Values: []string{"m.yaml"}}}, Positional: []string{"m.yaml"}},
			[]string{"m.yaml"}},
		{"output, placement, directories and non-files left out", Line{Flags: []Flag{
			{Name: "plot", Values: []string{"out.svg"}}, {Name: "out", Values: []string{"sub"}}, {Name: "reps", Values: []string{"8"}},
			{Name: "sweep", Values: []string{"population=1:4"}},
		}, Positional: []string{"sub", "missing.yaml"}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ins, err := tc.line.Inputs(dir)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, in := range ins {
				got = append(got, in.Arg)
				if in.SHA256 == "" || in.SizeBytes != int64(len(filepath.Base(in.Arg))) {
					t.Errorf("input %s: size %d, sha256 %q; want the file's (it holds its own name)", in.Arg, in.SizeBytes, in.SHA256)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Inputs() args = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestRequestPlan: the plan's shard count is the --shard N, else --slurm-array-size, else
// min(32, items) (slurm.DefaultArraySize); its seed and items are the study's; an input
// file named by a relative path is found from the working directory.
func TestRequestPlan(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("m.yaml", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	line := Line{Command: "simulate", Flags: []Flag{{Name: "reps", Values: []string{"40"}}}, Positional: []string{"m.yaml"}}
	for _, tc := range []struct {
		name  string
		o     Options
		items int
		wantN int
	}{
		{"--shard 1/4", Options{Shard: "1/4", Out: "d"}, 40, 4},
		{"--slurm-array-size 5", Options{Slurm: true, Out: "d", ArraySize: 5}, 40, 5},
		{"--slurm, 40 items: 32 tasks", Options{Slurm: true, Out: "d"}, 40, slurm.DefaultShards},
		{"--slurm, 3 items: 3 tasks", Options{Slurm: true, Out: "d"}, 3, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Request{Options: tc.o, Line: line, Version: "v1"}.Plan(Items{N: tc.items, From: 7})
			if err != nil {
				t.Fatal(err)
			}
			if p.N != tc.wantN || p.Items != tc.items || p.Seed != 7 || p.Command != "simulate" || p.Version != "v1" {
				t.Errorf("plan: N %d items %d seed %d command %q version %q; want N %d items %d seed 7 simulate v1", p.N, p.Items, p.Seed, p.Command, p.Version, tc.wantN, tc.items)
			}
			if !slices.Equal(p.Args, []string{"--reps=40", "m.yaml"}) || len(p.Inputs) != 1 || p.Inputs[0].Path != filepath.Join(dir, "m.yaml") {
				t.Errorf("plan args %q inputs %+v; want [--reps=40 m.yaml] and m.yaml in %s", p.Args, p.Inputs, dir)
			}
		})
	}
	if _, err := (Request{Options: Options{Shard: "0/50", Out: "d"}, Line: line}).Plan(Items{N: 3}); !errors.Is(err, fault.ErrInput) {
		t.Errorf("50 shards of 3 items: err %v, want an input error (a shard without items)", err)
	}
}

// sumStudy is a study of n items whose item k is k·k and whose merge is their sum, with a
// record of the ranges its Work was asked for.
type sumStudy struct {
	n      int
	seed   uint64
	ranges *[]shard.Range
}

func (s sumStudy) Items() int   { return s.n }
func (s sumStudy) Seed() uint64 { return s.seed }
func (s sumStudy) Work(r shard.Range) Work {
	*s.ranges = append(*s.ranges, r)
	return func(k int) (json.RawMessage, error) { return json.Marshal(k * k) }
}
func (s sumStudy) Merge(items []json.RawMessage) (any, error) {
	sum := 0
	for k, it := range items {
		var x int
		if err := DecodeItem(k, it, &x); err != nil {
			return nil, err
		}
		sum += x
	}
	return sum, nil
}

// TestStartAndMerge: the shards of a study started one by one (--shard i/n) merge to the
// value of the whole study (0² + … + 9² = 285 by the formula n(n+1)(2n+1)/6 with n = 9);
// each shard's Work is asked for its own range; a second run of the same line finds its
// plan (Planned); a plan whose arguments give another seed or item count is refused.
func TestStartAndMerge(t *testing.T) {
	t.Chdir(t.TempDir())
	var ranges []shard.Range
	st := sumStudy{n: 10, seed: 3, ranges: &ranges}
	line := Line{Command: "sum", Positional: []string{"x"}}
	for i := range 3 {
		q := Request{Options: Options{Shard: fmt.Sprintf("%d/3", i), Out: "study"}, Line: line, Version: "v1"}
		if i > 0 && !q.Planned() {
			t.Errorf("shard %d: Planned() = false after shard 0 wrote the plan of this line", i)
		}
		var out bytes.Buffer
		if err := Start(context.Background(), q, st, &out); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out.String(), "shard "+q.Shard+": items ") {
			t.Errorf("shard %d said %q", i, out.String())
		}
	}
	// shard.Spec.Range: [⌊i·10/3⌋, ⌊(i+1)·10/3⌋) = [0,3), [3,6), [6,10)
	if want := []shard.Range{{Lo: 0, Hi: 3}, {Lo: 3, Hi: 6}, {Lo: 6, Hi: 10}}; !slices.Equal(ranges, want) {
		t.Errorf("Work ranges %v, want %v (shard.Spec.Range of 10 items over 3)", ranges, want)
	}
	if (Request{Options: Options{Shard: "0/3", Out: "study"}, Line: Line{Command: "sum", Positional: []string{"y"}}}).Planned() {
		t.Error("Planned() = true for another command line")
	}
	for _, tc := range []struct {
		name    string
		merge   Study
		want    any
		wantErr string
	}{
		{"same study", st, 285, ""},
		{"other seed", sumStudy{n: 10, seed: 4, ranges: &ranges}, nil, "give a sum study of 10 items with seed 4; its shards hold 10 items with seed 3"},
		{"other items", sumStudy{n: 9, seed: 3, ranges: &ranges}, nil, "give a sum study of 9 items with seed 3; its shards hold 10 items"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms := shard.Mergers{"sum": func(p shard.Plan, items []json.RawMessage) (any, error) { return MergeStudy(p, tc.merge, items) }}
			m, err := Merge(context.Background(), MergeRequest{Dir: "study", Version: "v1"}, ms)
			if tc.wantErr != "" {
				if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want an input error saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || m.Value != tc.want {
				t.Fatalf("Merge = %v, %v; want %v", m, err, tc.want)
			}
		})
	}
}

// TestMergeRefusals: merge refuses shards of another version (Checked), a study of a
// command without a merge, and the output options that --status and --resubmit do not
// print.
func TestMergeRefusals(t *testing.T) {
	t.Chdir(t.TempDir())
	var ranges []shard.Range
	st := sumStudy{n: 2, seed: 1, ranges: &ranges}
	if err := Start(context.Background(), Request{Options: Options{Shard: "0/1", Out: "s"}, Line: Line{Command: "sum"}, Version: "v1"}, st, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	sum := shard.Mergers{"sum": func(p shard.Plan, items []json.RawMessage) (any, error) { return MergeStudy(p, st, items) }}
	for _, tc := range []struct {
		name string
		q    MergeRequest
		ms   shard.Mergers
		want string
	}{
		{"another version", MergeRequest{Dir: "s", Version: "v2"}, sum, `computed by clusterperf "v1", this is "v2"`},
		{"no merge for the command", MergeRequest{Dir: "s", Version: "v1"}, shard.Mergers{"other": sum["sum"]}, `no merge for command "sum" (merges exist for other)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Merge(context.Background(), tc.q, tc.ms)
			if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want an input error saying %q", err, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		q    MergeRequest
		want int
	}{
		{MergeRequest{Status: true, Format: "csv"}, 1},
		{MergeRequest{Resubmit: true, Plot: "p.svg"}, 1},
		{MergeRequest{Status: true, Format: "csv", Plot: "p.png"}, 2},
		{MergeRequest{Format: "csv", Plot: "p.svg"}, 0},
		{MergeRequest{Status: true, Format: "json"}, 0},
	} {
		if got := tc.q.Check(); len(got) != tc.want {
			t.Errorf("%+v: Check() = %q, want %d refusals", tc.q, got, tc.want)
		}
	}
}

// TestMergedText: a resubmission that found nothing to do says so; the status of a study
// lists each shard with its item range (4 items over 2 shards: 0-1 and 2-3).
func TestMergedText(t *testing.T) {
	var b bytes.Buffer
	if err := (&Merged{Resubmit: true}).WriteText(&b); err != nil || b.String() != "nothing to resubmit: every shard is done or still queued/running\n" {
		t.Errorf("nothing resubmitted: %q, %v", b.String(), err)
	}
	b.Reset()
	p, err := shard.NewPlan("sum", nil, 5, shard.Spec{Items: 4, N: 2}, "v1")
	if err != nil {
		t.Fatal(err)
	}
	st := &slurm.StudyStatus{Plan: p, Shards: []slurm.ShardState{{Index: 0, State: slurm.StateDone}, {Index: 1, State: slurm.StateMissing}}}
	if err := (&Merged{Status: st}).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"study sum (4 items over 2 shards, seed 5): done 1, active 0, failed 0, missing 1\n", "0-1", "2-3", "missing"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("status text lacks %q:\n%s", want, b.String())
		}
	}
}

// TestOptionsCheck: the refusals of the placement flags, each naming its flags (the
// messages cmd/clusterperf's TestShardFlagMessage and study tests see), and the shard
// count a study of 40 items gets from them.
func TestOptionsCheck(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		o      Options
		want   string // a refusal contains it; "" none
		shards int    // of 40 items, when accepted
	}{
		{"one machine", Options{}, "", 0},
		{"--shard", Options{Shard: "2/5", Out: "d"}, "", 5},
		{"--slurm", Options{Slurm: true, Out: "d"}, "", 32}, // min(slurm.DefaultShards = 32, 40)
		{"--slurm --slurm-array-size", Options{Slurm: true, Out: "d", ArraySize: 7}, "", 7},
		{"both", Options{Shard: "0/2", Slurm: true, Out: "d"}, "--shard and --slurm: --slurm submits the shards itself", 0},
		{"no --out", Options{Shard: "0/2"}, "need --out DIR", 0},
		{"--out alone", Options{Out: "d"}, "belong to --shard or --slurm", 0},
		{"--slurm-dry-run alone", Options{DryRun: true}, "belong to --shard or --slurm", 0},
		{"index out of range", Options{Shard: "2/2", Out: "d"}, `--shard "2/2": want I/N`, 0},
		{"not I/N", Options{Shard: "x", Out: "d"}, `--shard "x": want I/N`, 0},
		{"--out a file", Options{Shard: "0/2", Out: file}, "not a directory", 0},
		{"array too large", Options{Slurm: true, Out: "d", ArraySize: shard.MaxShards + 1}, "--slurm-array-size 1001: want 1 … 1000", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := tc.o.Check()
			if tc.want == "" {
				if len(errs) > 0 {
					t.Fatalf("refused: %q", errs)
				}
				if tc.o.Active() && tc.o.Shards(40) != tc.shards {
					t.Errorf("Shards(40) = %d, want %d", tc.o.Shards(40), tc.shards)
				}
				return
			}
			if !strings.Contains(strings.Join(errs, "\n"), tc.want) {
				t.Errorf("Check() = %q, want a refusal containing %q", errs, tc.want)
			}
		})
	}
}

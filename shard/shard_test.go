package shard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// toyItem is one replication of a toy Monte Carlo study: the fraction of Samples uniform
// points of the unit square inside the quarter circle, times 4 (an estimate of π). Its
// random stream is PCG(seed, k): a function of the replication index alone, the contract
// that makes sharding invisible in the result.
func toyItem(seed uint64, k, samples int) (json.RawMessage, error) {
	r := rand.New(rand.NewPCG(seed, uint64(k)))
	hits := 0
	for range samples {
		x, y := r.Float64(), r.Float64()
		if x*x+y*y <= 1 {
			hits++
		}
	}
	return json.Marshal(map[string]float64{"pi": 4 * float64(hits) / float64(samples)})
}

// toySummary is the study's result: the mean over replications and the sample variance,
// computed in index order (floating-point addition is not associative, so the order is part
// of the bit-identity).
func toySummary(items []json.RawMessage) ([]byte, error) {
	var sum, sq float64
	for _, it := range items {
		var v struct{ Pi float64 }
		if err := json.Unmarshal(it, &v); err != nil {
			return nil, err
		}
		sum += v.Pi
		sq += v.Pi * v.Pi
	}
	n := float64(len(items))
	mean := sum / n
	return json.Marshal(map[string]float64{"mean": mean, "var": (sq - n*mean*mean) / (n - 1)})
}

func toyPlan(t testing.TB, items, n int) Plan {
	t.Helper()
	p, err := NewPlan("toy", []string{"--samples", "2000"}, 42, Spec{Items: items, N: n}, "test")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRangesPartition: for every (items, n) the ranges are contiguous, disjoint, cover
// 0..items−1 and differ in length by at most one (the definition in Spec.Range).
func TestRangesPartition(t *testing.T) {
	for _, items := range []int{1, 2, 7, 8, 100, 101, 1000} {
		for _, n := range []int{1, 2, 3, 7, 8, 13, 100} {
			if n > items {
				continue
			}
			s := Spec{Items: items, N: n}
			next, minL, maxL := 0, items, 0
			for i := range n {
				r, err := s.Range(i)
				if err != nil {
					t.Fatal(err)
				}
				if r.Lo != next || r.Len() < 1 {
					t.Fatalf("%+v shard %d: %+v, want start %d, non-empty", s, i, r, next)
				}
				next = r.Hi
				minL, maxL = min(minL, r.Len()), max(maxL, r.Len())
			}
			if next != items || maxL-minL > 1 {
				t.Fatalf("%+v: covers [0,%d), lengths %d..%d", s, next, minL, maxL)
			}
		}
	}
}

func TestSpecRefused(t *testing.T) {
	cases := []struct {
		s    Spec
		i    int
		want error
	}{
		{Spec{0, 1}, 0, fault.ErrInput},
		{Spec{5, 0}, 0, fault.ErrInput},
		{Spec{5, 6}, 0, fault.ErrInput},
		{Spec{5000, MaxShards + 1}, 0, fault.ErrTooLarge},
		{Spec{MaxItems + 1, 2}, 0, fault.ErrTooLarge},
		{Spec{5, 2}, 2, fault.ErrInput},
		{Spec{5, 2}, -1, fault.ErrInput},
	}
	for _, c := range cases {
		if _, err := c.s.Range(c.i); !errors.Is(err, c.want) {
			t.Errorf("%+v shard %d: %v, want %v", c.s, c.i, err, c.want)
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		v    string
		i, n int
		ok   bool
	}{
		{"0/8", 0, 8, true}, {"7/8", 7, 8, true}, {"0/1", 0, 1, true},
		{"8/8", 0, 0, false}, {"-1/8", 0, 0, false}, {"1", 0, 0, false}, {"a/b", 0, 0, false},
		{"0/0", 0, 0, false}, {"0/1001", 0, 0, false}, {"1/2/3", 0, 0, false},
	} {
		i, n, err := ParseShard(c.v)
		if c.ok != (err == nil) || (c.ok && (i != c.i || n != c.n)) {
			t.Errorf("%q: %d/%d %v", c.v, i, n, err)
		}
		if err != nil && !errors.Is(err, fault.ErrInput) {
			t.Errorf("%q: %v is not an input error", c.v, err)
		}
	}
}

// TestShardedBitIdentical: the toy study of 100 replications run locally (items 0..99 in
// order) and sharded over n = 1, 3, 8 (each shard in its own directory write, then Merge)
// gives byte-identical summaries.
func TestShardedBitIdentical(t *testing.T) {
	const items, samples = 100, 2000
	local := make([]json.RawMessage, items)
	for k := range items {
		var err error
		if local[k], err = toyItem(42, k, samples); err != nil {
			t.Fatal(err)
		}
	}
	want, err := toySummary(local)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 3, 8} {
		dir := t.TempDir()
		p := toyPlan(t, items, n)
		if err := WritePlan(dir, p); err != nil {
			t.Fatal(err)
		}
		for i := n - 1; i >= 0; i-- { // order of completion must not matter
			if err := Run(dir, p, i, func(k int) (json.RawMessage, error) { return toyItem(p.Seed, k, samples) }); err != nil {
				t.Fatal(err)
			}
		}
		m, err := Merge(dir)
		if err != nil {
			t.Fatal(err)
		}
		got, err := toySummary(m.Items)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("n=%d: merged %s, local %s", n, got, want)
		}
		if !reflect.DeepEqual(m.Plan, p) {
			t.Errorf("n=%d: merged plan %+v, want %+v", n, m.Plan, p)
		}
	}
	// the toy study is a real Monte Carlo: its mean is near π (100·2000 samples, standard
	// error √(π(4−π)/200000) ≈ 0.0037; 5 of them is a test that fails on a broken sampler)
	var s struct{ Mean float64 }
	json.Unmarshal(want, &s)
	if math.Abs(s.Mean-math.Pi) > 5*0.0037 {
		t.Errorf("toy mean %v, want π within 0.0185", s.Mean)
	}
}

// TestFailedAndMissing: a shard whose work fails leaves only a .failed marker, a killed
// shard leaves only a .tmp- file; Status names them, Merge refuses, and rerunning just those
// shards completes the study with the same result.
func TestFailedAndMissing(t *testing.T) {
	dir := t.TempDir()
	p := toyPlan(t, 20, 4)
	if err := WritePlan(dir, p); err != nil {
		t.Fatal(err)
	}
	work := func(k int) (json.RawMessage, error) { return toyItem(p.Seed, k, 100) }
	for _, i := range []int{0, 2} {
		if err := Run(dir, p, i, work); err != nil {
			t.Fatal(err)
		}
	}
	boom := func(k int) (json.RawMessage, error) {
		if k == 7 {
			return nil, errors.New("out of memory")
		}
		return work(k)
	}
	if err := Run(dir, p, 1, boom); err == nil {
		t.Fatal("failing work: no error")
	}
	// shard 3 killed during its write
	os.WriteFile(filepath.Join(dir, ".tmp-"+FileName(3, 4)+"-123"), []byte(`{"manifest":`), 0o644)
	if _, err := os.Stat(filepath.Join(dir, FileName(1, 4))); err == nil {
		t.Fatal("failed shard left a result file")
	}
	st, err := ReadStatus(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(st.Done, []int{0, 2}) || !reflect.DeepEqual(st.Failed, []int{1}) || !reflect.DeepEqual(st.Missing, []int{3}) {
		t.Fatalf("status %+v", st)
	}
	if !strings.Contains(st.Errors["1"], "item 7: out of memory") || len(st.Partial) != 1 {
		t.Errorf("errors %v partial %v", st.Errors, st.Partial)
	}
	if got := st.Summary(); got != "2 of 4 shards done; failed: 1; missing: 3" {
		t.Errorf("summary %q", got)
	}
	if _, err := Merge(dir); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "failed: 1; missing: 3") {
		t.Fatalf("merge of an incomplete study: %v", err)
	}
	for _, i := range st.Todo() {
		if err := Run(dir, p, i, work); err != nil {
			t.Fatal(err)
		}
	}
	st, err = ReadStatus(dir)
	if err != nil || !st.Complete() || len(st.Errors) != 0 {
		t.Fatalf("after rerun: %+v %v", st, err)
	}
	m, err := Merge(dir)
	if err != nil {
		t.Fatal(err)
	}
	for k, it := range m.Items {
		want, _ := work(k)
		if !bytes.Equal(it, want) {
			t.Fatalf("item %d: %s, want %s", k, it, want)
		}
	}
}

// TestMergeRefusesMixedStudies: shards of another seed, another argument list or another
// shard count in the same directory are refused, naming the difference.
func TestMergeRefusesMixedStudies(t *testing.T) {
	work := func(k int) (json.RawMessage, error) { return json.RawMessage(fmt.Sprint(k)), nil }
	base := toyPlan(t, 10, 2)
	base.Inputs = []Input{{Arg: "m.yaml", Path: "/a/m.yaml", SHA256: "aa"}}
	other := func(f func(*Plan)) Plan { q := base; f(&q); q.ArgsHash = HashArgs(q.Command, q.Args); return q }
	cases := []struct {
		name string
		p    Plan
		want string
	}{
		{"seed", other(func(q *Plan) { q.Seed = 43 }), "seed 42 vs 43"},
		{"args", other(func(q *Plan) { q.Args = []string{"--samples", "3000"} }), "arguments"},
		{"version", other(func(q *Plan) { q.Version = "v2" }), "version"},
		{"n", other(func(q *Plan) { q.N = 5 }), "shards 2 vs 5"},
		{"input changed", other(func(q *Plan) { q.Inputs = []Input{{Arg: "m.yaml", Path: "/a/m.yaml", SHA256: "bb"}} }), "input m.yaml"},
		{"input count", other(func(q *Plan) { q.Inputs = nil }), "input files 1 vs 0"},
	}
	for _, c := range cases {
		dir := t.TempDir()
		if err := Run(dir, base, 0, work); err != nil {
			t.Fatal(err)
		}
		if err := Run(dir, c.p, 1, work); err != nil {
			t.Fatal(err)
		}
		_, err := Merge(dir)
		if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an input error naming %q", c.name, err, c.want)
		}
	}
	// a plan.json of another study
	dir := t.TempDir()
	if err := WritePlan(dir, base); err != nil {
		t.Fatal(err)
	}
	if err := WritePlan(dir, other(func(q *Plan) { q.Seed = 1 })); !errors.Is(err, fault.ErrInput) {
		t.Errorf("second plan in one directory: %v", err)
	}
}

// TestReadRefusesTampered: files edited by hand (an item dropped, an index repeated, an
// unknown field, a range that is not the shard's) are refused by Read.
func TestReadRefusesTampered(t *testing.T) {
	dir := t.TempDir()
	p := toyPlan(t, 10, 2)
	if err := Run(dir, p, 1, func(k int) (json.RawMessage, error) { return json.RawMessage(fmt.Sprint(k)), nil }); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, FileName(1, 2))
	orig, _ := os.ReadFile(path)
	for _, c := range []struct{ old, new, want string }{
		{`{"index":9,"result":9}`, `{"index":8,"result":9}`, "item 4 has index 8"},
		{`,{"index":9,"result":9}`, ``, "4 items"},
		{`"i":1`, `"i":1,"extra":2`, "unknown key"},
		{`"item_lo":5`, `"item_lo":4`, "is not shard 1"},
		{`"seed":42`, `"seed":-1`, "seed"},
		{`"args":["--samples","2000"]`, `"args":["--samples","3000"]`, "args_sha256"},
	} {
		if !bytes.Contains(orig, []byte(c.old)) {
			t.Fatalf("%s not in %s", c.old, orig)
		}
		os.WriteFile(path, bytes.Replace(orig, []byte(c.old), []byte(c.new), 1), 0o644)
		if _, err := Read(path); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s→%s: %v, want %q", c.old, c.new, err, c.want)
		}
	}
}

func TestMergers(t *testing.T) {
	dir := t.TempDir()
	p := toyPlan(t, 6, 2)
	for i := range 2 {
		if err := Run(dir, p, i, func(k int) (json.RawMessage, error) { return json.RawMessage(fmt.Sprint(k * k)), nil }); err != nil {
			t.Fatal(err)
		}
	}
	sum := func(_ Plan, items []json.RawMessage) (any, error) {
		s := 0
		for _, it := range items {
			var v int
			json.Unmarshal(it, &v)
			s += v
		}
		return s, nil
	}
	v, _, err := Mergers{"toy": sum}.Merge(dir)
	if err != nil || v != 0+1+4+9+16+25 {
		t.Errorf("toy merge: %v %v, want 55", v, err)
	}
	if _, m, err := (Mergers{"simulate": sum}).Merge(dir); !errors.Is(err, fault.ErrInput) || m == nil || !strings.Contains(err.Error(), "simulate") {
		t.Errorf("no merger: %v", err)
	}
}

func BenchmarkMerge(b *testing.B) {
	dir := b.TempDir()
	p, _ := NewPlan("toy", nil, 1, Spec{Items: 10000, N: 8}, "bench")
	for i := range 8 {
		Run(dir, p, i, func(k int) (json.RawMessage, error) { return json.RawMessage(`{"x":1.2345678901234567}`), nil })
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Merge(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzRead: any bytes in a shard file are read without a panic, and a file Read accepts
// has the items of its range in order.
func FuzzRead(f *testing.F) {
	dir := f.TempDir()
	p, _ := NewPlan("toy", []string{"a"}, 1, Spec{Items: 4, N: 2}, "v")
	Run(dir, p, 1, func(k int) (json.RawMessage, error) { return json.RawMessage(fmt.Sprint(k)), nil })
	seed, _ := os.ReadFile(filepath.Join(dir, FileName(1, 2)))
	f.Add(seed)
	f.Add([]byte(`{"manifest":{},"items":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "s.json")
		os.WriteFile(path, data, 0o644)
		sf, err := Read(path)
		if err != nil {
			return
		}
		for j, it := range sf.Items {
			if it.Index != sf.Manifest.Lo+j {
				t.Fatalf("accepted item %d with index %d", j, it.Index)
			}
		}
	})
}

// FuzzParseShard: an accepted --shard value is 0 ≤ i < n ≤ MaxShards.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/8", "7/8", "8/8", "-1/2", "1/1001", "a/b", "3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		i, n, err := ParseShard(v)
		if err == nil && (i < 0 || i >= n || n > MaxShards) {
			t.Fatalf("%q accepted as %d/%d", v, i, n)
		}
	})
}

// TestInputs: an input is hashed where the plan was made and found there from any
// directory (Resolve); the same contents under another directory are the same study (the
// plans agree), changed or removed contents are refused by CheckInputs naming the file;
// what is not a regular file is refused by HashInput. The SHA-256 of "abc" is FIPS 180-2's
// example (appendix B.1).
func TestInputs(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.yaml"), []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := HashInput(dir, "m.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := Input{Arg: "m.yaml", Path: filepath.Join(dir, "m.yaml"), SizeBytes: 3, SHA256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}
	if in != want {
		t.Fatalf("HashInput: %+v, want %+v", in, want)
	}
	p := toyPlan(t, 10, 2)
	p.Dir, p.Inputs = dir, []Input{in}
	if err := p.CheckInputs(); err != nil {
		t.Fatal(err)
	}
	if got := p.Resolve("m.yaml"); got != want.Path {
		t.Errorf("Resolve(m.yaml) = %q", got)
	}
	if got := p.Resolve("other.yaml"); got != "other.yaml" {
		t.Errorf("Resolve(other.yaml) = %q", got)
	}
	// the same file mounted elsewhere: another Dir and Path, one study
	q := p
	q.Dir, q.Inputs = "/mnt/x", []Input{{Arg: "m.yaml", Path: "/mnt/x/m.yaml", SizeBytes: 3, SHA256: in.SHA256}}
	if d := p.diff(q); d != "" {
		t.Errorf("same contents under another directory: plans differ in %s", d)
	}
	if err := os.WriteFile(filepath.Join(dir, "m.yaml"), []byte("abd"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := p.CheckInputs(); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "m.yaml") || !strings.Contains(err.Error(), "changed since") {
		t.Errorf("changed input: %v", err)
	}
	os.Remove(filepath.Join(dir, "m.yaml"))
	if err := p.CheckInputs(); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "cannot be read") {
		t.Errorf("removed input: %v", err)
	}
	if _, err := HashInput(dir, "."); !errors.Is(err, fault.ErrInput) {
		t.Errorf("a directory as input: %v", err)
	}
	// plans of older versions (no inputs) still read and merge
	old := toyPlan(t, 10, 2)
	if err := WritePlan(t.TempDir(), old); err != nil || old.CheckInputs() != nil {
		t.Errorf("a plan without inputs: %v", err)
	}
}

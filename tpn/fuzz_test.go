package tpn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// fuzzBudget keeps each fuzz execution small (the defaults allow nets of millions).
var fuzzBudget = BuildOptions{MaxTransitions: 20000, MaxFirings: 100000}

// checkOutcome is the contract every input must meet: an error is classed (input, too large
// or a finding) and a completed run has a finite time within the horizon, no earlier than
// any firing's end.
func checkOutcome(t *testing.T, r *Result, err error) {
	t.Helper()
	if err != nil {
		if !errors.Is(err, fault.ErrInput) && !errors.Is(err, fault.ErrFinding) {
			t.Fatalf("unclassified error: %v", err)
		}
		return
	}
	if r.Time < 0 || r.Time > MaxTicks {
		t.Fatalf("time %d ticks outside 0 … 2^62", r.Time)
	}
	for _, f := range r.Log {
		if f.End > r.Time || (f.End >= 0 && f.Start > f.End) {
			t.Fatalf("firing %+v outside the run's %d ticks", f, r.Time)
		}
	}
	if e := r.Err(); e != nil && !errors.Is(e, fault.ErrFinding) {
		t.Fatalf("outcome %v: %v is not a finding", r.Outcome, e)
	}
}

func corpusFiles(f *testing.F, glob string) [][]byte {
	var out [][]byte
	files, _ := filepath.Glob(glob)
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// FuzzProgramCluster varies both files: programs and clusters from the examples and the
// hostile corpus, mutated together (magnitudes, booleans, policies, sizes).
func FuzzProgramCluster(f *testing.F) {
	progs := append(corpusFiles(f, "../examples/tpn/[mp]*.yaml"), corpusFiles(f, "testdata/hostile/*.prog.yaml")...)
	clusters := append(corpusFiles(f, "../examples/tpn/cluster.yaml"), corpusFiles(f, "testdata/hostile/*.cluster.yaml")...)
	for i, p := range progs {
		f.Add(p, clusters[i%len(clusters)])
	}
	f.Fuzz(func(t *testing.T, pb, cb []byte) {
		p, err := ParseProgramWith("p.yaml", pb, fuzzBudget)
		if err != nil {
			checkOutcome(t, nil, err)
			return
		}
		c, err := ParseCluster("c.yaml", cb)
		if err != nil {
			checkOutcome(t, nil, err)
			return
		}
		n, err := BuildWith(p, c, fuzzBudget)
		if err != nil {
			checkOutcome(t, nil, err)
			return
		}
		r, err := n.Run(Options{Record: true, MaxFirings: fuzzBudget.MaxFirings})
		checkOutcome(t, r, err)
		if err != nil || r.Outcome != Completed {
			return
		}
		// the sampled background (two replications, small budgets): refused, or finite
		st, err := Replicate(context.Background(), n, ReplicateOptions{Reps: 2, Seed: 1, Baseline: r, MaxEvents: 2e6, Run: Options{MaxFirings: fuzzBudget.MaxFirings}})
		if err != nil {
			checkOutcome(t, nil, err)
			return
		}
		if !(st.MeanS >= 0) || math.IsInf(st.MeanS, 0) || !(st.HalfWidthS >= 0) || math.IsInf(st.HalfWidthS, 0) || st.Done != 2 {
			t.Fatalf("sampled: %+v", st)
		}
	})
}

// FuzzMagnitudes builds a ring of P processes (each computing, sending m bytes to the next
// and receiving from the previous, L times) on a cluster whose every number comes from the
// fuzzer (1e-300 … 1e300, NaN, Inf, negative): the answer is either refused as input or a
// completed run whose time is at least one process's compute delay, the same on a second
// run (determinism).
func FuzzMagnitudes(f *testing.F) {
	f.Add(0.5, 1e6, 1.25e6, 1e-3, 1.0, 0.2, uint8(4), uint8(3), true, false)
	f.Add(1e300, 1e300, 1e-300, 0.0, 1e-300, 0.9999999999, uint8(2), uint8(1), true, true)
	f.Add(1e-300, 0.0, 1e300, 1e300, 0.5, 0.0, uint8(1), uint8(0), false, false)
	f.Add(math.NaN(), math.Inf(1), -1.0, math.Inf(-1), 2.0, 1.5, uint8(255), uint8(255), true, true)
	f.Add(4e9, 1.0, 1.0, 0.0, 1.0, 0.0, uint8(2), uint8(2), false, false)
	f.Fuzz(func(t *testing.T, compute, size, bw, startup, power, util float64, P, L uint8, shared, fluid bool) {
		np := int(P%16) + 1
		p := &Program{}
		for i := 0; i < np; i++ {
			body := []Segment{{Compute: compute}, {Send: &Message{Peer: fmt.Sprint("P", (i+1)%np), Bytes: size}}, {Recv: &Message{Peer: fmt.Sprint("P", (i+np-1)%np)}}}
			p.Processes = append(p.Processes, Process{Name: fmt.Sprint("P", i), Segments: []Segment{{Loop: &Loop{Count: int(L % 32), Body: body}}}})
		}
		pol := StaticAtStart
		if fluid {
			pol = FluidSharing
		}
		c := &Cluster{Workstations: []Workstation{{Name: "fast", Power: 1}, {Name: "other", Power: power, Background: []BgClass{{ArrivalRate: util, Demand: 1}}}},
			Network: Medium{Bandwidth: bw, Startup: startup, Shared: shared, Policy: pol}}
		n, err := BuildWith(p, c, fuzzBudget)
		if err != nil {
			checkOutcome(t, nil, err)
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("build: %v is not an input error", err)
			}
			return
		}
		r, err := n.Run(Options{Record: true, MaxFirings: fuzzBudget.MaxFirings})
		checkOutcome(t, r, err)
		if err != nil {
			return
		}
		if r.Outcome != Completed {
			t.Fatalf("a ring with matched sends and receives ended %v", r.Outcome)
		}
		for _, tr := range n.Transitions {
			if tr.Delay > r.Time {
				t.Fatalf("%s takes %d ticks, longer than the run's %d", tr.Name, tr.Delay, r.Time)
			}
		}
		r2, err := n.Run(Options{Record: true, MaxFirings: fuzzBudget.MaxFirings})
		if err != nil || r2.Time != r.Time || r2.Firings != r.Firings {
			t.Fatalf("second run differs: %v %d/%d firings %d/%d", err, r2.Time, r.Time, r2.Firings, r.Firings)
		}
	})
}

// FuzzReadPNML: any document is refused as input or read into a net that runs (within a
// firing budget) to a classed outcome.
func FuzzReadPNML(f *testing.F) {
	f.Add([]byte(`<pnml><net id="n"><page id="p"><place id="a"><initialMarking><text>1</text></initialMarking></place><transition id="t"/><arc id="x" source="a" target="t"/></page></net></pnml>`))
	for _, b := range corpusFiles(f, "testdata/hostile/*.pnml") {
		f.Add(b)
	}
	if p, c := pnmlSeed(); p != nil {
		f.Add(p)
		_ = c
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := ReadPNML(bytes.NewReader(b))
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("unclassified error: %v", err)
			}
			return
		}
		r, err := n.Run(Options{MaxFirings: 1000, Record: true})
		checkOutcome(t, r, err)
	})
}

// pnmlSeed is the matmul example written as PNML (media, priorities, finals, processes).
func pnmlSeed() ([]byte, error) {
	pb, err1 := os.ReadFile("../examples/tpn/matmul.yaml")
	cb, err2 := os.ReadFile("../examples/tpn/cluster.yaml")
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	p, err := ParseProgram("m.yaml", pb)
	if err != nil {
		return nil, err
	}
	c, err := ParseCluster("c.yaml", cb)
	if err != nil {
		return nil, err
	}
	n, err := Build(p, c)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := WritePNML(&buf, n); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

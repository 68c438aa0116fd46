package qn

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// solverModels are the models of examples/qn and examples/keck that ParseModel takes (the
// finite-capacity and class-switching files go through ModelFile.Solve), the fork/join
// model of TestAutoLabels, and TestExactnessPerModel's networks: one whose FCFS station
// "cpu" has service times per visit that differ by class (not product form, BCMP) and the
// same with "cpu" processor sharing (product form).
func solverModels(t *testing.T) map[string]*Model {
	t.Helper()
	out := map[string]*Model{}
	for _, glob := range []string{"../examples/qn/*.yaml", "../examples/keck/*.yaml"} {
		files, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if m, _, err := ParseModel(f, data); err == nil {
				out[f] = m
			}
		}
	}
	fj, _, err := ParseModel("fj.yaml", []byte(fmt.Sprintf(fjModel, 4)))
	if err != nil {
		t.Fatal(err)
	}
	out["forkjoin"] = fj
	fcfs := func(ps bool) *Model {
		return &Model{
			Classes:  []Class{{Name: "a", Population: 3, ThinkTime: 1}, {Name: "b", Population: 2, ThinkTime: 2}},
			Stations: []Station{{Name: "cpu", Kind: Queue, PS: ps}, {Name: "disk", Kind: Queue}},
			Demand:   [][]float64{{0.10, 0.20}, {0.30, 0.40}},
			Visits:   [][]float64{{1, 2}, {1, 4}},
		}
	}
	out["fcfs-class-dependent"], out["ps"] = fcfs(false), fcfs(true)
	if len(out) < 10 {
		t.Fatalf("only %d models", len(out))
	}
	return out
}

// TestSolverExact (issue 28): for every solver value and every model it solves, Exact(m)
// says what the result says (Result.Exact, after Solve's product-form check), so a label
// decided before the run and the result cannot disagree; the not-product-form network must
// make an exact method say false.
func TestSolverExact(t *testing.T) {
	ctx := context.Background()
	sawFalse := false
	for name, m := range solverModels(t) {
		for _, s := range Solvers(AMVAOptions{}) {
			if !s.Cost(m).Applies && s.Name() != "mva" && s.Name() != "comom" {
				continue // outside auto's scope: may be slow or refused; the exact ones are run anyway
			}
			r, err := s.Solve(ctx, m)
			if err != nil {
				continue // refused: nothing to label
			}
			if got := s.Exact(m); got != r.Exact {
				t.Errorf("%s, solver %s: Exact = %v, result exact %v (%s)", name, s.Name(), got, r.Exact, r.Method)
			}
			if name == "fcfs-class-dependent" && (s.Name() == "mva" || s.Name() == "comom") {
				sawFalse = sawFalse || !r.Exact
			}
		}
	}
	if !sawFalse {
		t.Error("no exact method said exact false on the not-product-form network")
	}
}

// TestAutoIsCheapest (issue 28): auto's result is that of the first solver in Candidates
// (ordered by Cost: accuracy rank, then estimated seconds) that solves the model when asked
// by name — the cheapest admissible solver — and Candidates is in that order.
func TestAutoIsCheapest(t *testing.T) {
	ctx := context.Background()
	for name, m := range solverModels(t) {
		cands := Candidates(m, AMVAOptions{})
		for i := 1; i < len(cands); i++ {
			if cands[i].Cost(m).before(cands[i-1].Cost(m)) {
				t.Errorf("%s: candidate %s before %s, which costs less", name, cands[i-1].Name(), cands[i].Name())
			}
		}
		auto, err := Solve(ctx, m, "auto", AMVAOptions{})
		if err != nil {
			t.Errorf("%s: auto: %v", name, err)
			continue
		}
		var want *Result
		for _, s := range cands {
			if r, err := s.Solve(ctx, m); err == nil {
				want = r
				break
			}
		}
		if want == nil {
			t.Errorf("%s: no candidate solves it, auto gave %s", name, auto.Method)
			continue
		}
		if auto.Method != want.Method || auto.Exact != want.Exact || fmt.Sprint(auto.Throughput) != fmt.Sprint(want.Throughput) {
			t.Errorf("%s: auto %s exact %v X %v; cheapest admissible %s exact %v X %v", name, auto.Method, auto.Exact, auto.Throughput, want.Method, want.Exact, want.Throughput)
		}
	}
}

package explore

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// heavyTPN is examples/tpn/pipeline.yaml with its loops at 700 000 iterations (the hostile
// review's program of issue 32): about 9.1e6 firings per run, within tpn's firing limit, and
// Eval runs it seven times (the point and six bandwidths), tens of seconds of CPU.
func heavyTPN(t testing.TB) Model {
	t.Helper()
	prog, err := os.ReadFile("../examples/tpn/pipeline.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cl, err := os.ReadFile("../examples/tpn/cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	heavy := strings.ReplaceAll(string(prog), "count: 10,", "count: 700000,")
	if heavy == string(prog) {
		t.Fatal("examples/tpn/pipeline.yaml has no loop count of 10 any more")
	}
	m, err := Load("heavy.yaml", []byte(heavy), "cluster.yaml", cl)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Abandoned work stops for every kind of model (issue 32; session 6 did it for queueing
// networks only, TestQNEvalStopsAtBudget: spmd, tpn, mpip and pipeline evaluations held
// their slot to the end). Each such model is a ContextModel whose evaluation under a
// cancelled context returns the context's error instead of a result; before, none of the
// four was (the server called Eval, which ran to its end).
func TestEveryModelStops(t *testing.T) {
	for _, ex := range examples {
		m := loadExample(t, ex)
		if m.Kind() == "qn" {
			continue // the solvers poll ctx in their long loops only (TestQNEvalStopsAtBudget)
		}
		cm, ok := m.(ContextModel)
		if !ok {
			t.Errorf("%s (%s): not a ContextModel: an abandoned evaluation keeps its slot to the end", ex.name, m.Kind())
			continue
		}
		v := Values{}
		for _, p := range m.Params() {
			v[p.ID] = p.Value
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if r, err := cm.EvalContext(ctx, v); !errors.Is(err, context.Canceled) {
			t.Errorf("%s (%s): cancelled evaluation answered %v, %v", ex.name, m.Kind(), r != nil, err)
		}
		if bs, ok := m.(BestSearcher); ok {
			if _, _, err := bestCtx(ctx, bs, v); !errors.Is(err, context.Canceled) {
				t.Errorf("%s (%s): cancelled best search: %v", ex.name, m.Kind(), err)
			}
		}
	}
}

// A costly tpn point frees its slot within a fraction of a second of the budget's end
// (before, the heavy program's point kept its slot for its whole evaluation, tens of seconds
// of CPU). The other kinds' points take milliseconds (spmd's largest best search, p ≤ 1024
// and d ≤ 4, under 0.1 s): TestEveryModelStops covers them.
func TestCostlyEvalStopsAtBudget(t *testing.T) {
	cases := []struct {
		name string
		m    Model
		body string
	}{
		{"tpn loop 700 000", heavyTPN(t), `{"values":{}}`},
	}
	for _, c := range cases {
		lim := DefaultLimits()
		lim.EvalBudget = 100 * time.Millisecond
		s := NewServerLimits(c.m, "test", lim)
		start := time.Now()
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, pageRequest(s, "POST", "/api/eval", c.body))
		if rec.Code != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d %.200s, want 422 over the budget", c.name, rec.Code, rec.Body)
			continue
		}
		waitFor(t, func() bool { return s.Running() == 0 }, c.name+": the evaluation stopped")
		if el := time.Since(start); el > 1500*time.Millisecond {
			t.Errorf("%s: the evaluation ran %v after a budget of %v", c.name, el, lim.EvalBudget)
		}
		t.Logf("%s: refused and stopped after %v", c.name, time.Since(start))
	}
}

// EvalDefaultsContext stops when ctx is cancelled (Ctrl-C while explore starts) and refuses
// a model whose own point takes more than the budget, naming the command that answers it.
func TestEvalDefaultsBudget(t *testing.T) {
	m := heavyTPN(t)
	start := time.Now()
	err := EvalDefaultsContext(context.Background(), m, 100*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "budget") || !strings.Contains(err.Error(), "clusterperf tpn") || time.Since(start) > 1500*time.Millisecond {
		t.Errorf("over budget after %v: %v", time.Since(start), err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start = time.Now()
	if err := EvalDefaultsContext(ctx, m, time.Minute); err == nil || !strings.Contains(err.Error(), "interrupted") || time.Since(start) > 1500*time.Millisecond {
		t.Errorf("cancelled after %v: %v", time.Since(start), err)
	}
}

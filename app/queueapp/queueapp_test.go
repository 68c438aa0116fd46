package queueapp

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/queue"
)

// TestRun: the queue question's answer, notes and refusals. Expected values: M/M/1 with
// λ = 8, μ = 10 has ρ = 0.8, L = ρ/(1−ρ) = 4 jobs, R = 1/(μ−λ) = 0.5 s (Kleinrock, Queueing
// Systems I, §3.2); an offered load A = 0.8 Erlangs is the same station with μ = 1.
func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name    string
		q       Request
		wantR   float64
		wantL   float64
		loadMsg bool
		wantErr error
	}{
		{"mm1", Request{Spec: queue.Spec{Kind: queue.KindMM1, Lambda: 8, Mu: 10, Servers: 1}}, 0.5, 4, false, nil},
		{"mm1 load", Request{Spec: queue.Spec{Kind: queue.KindMM1, Lambda: 0.8, Mu: 1, Servers: 1}, LoadGiven: true}, 5, 4, true, nil},
		// λ ≥ μ: no steady state, a model finding (exit 3), not an input error
		{"mm1 unstable", Request{Spec: queue.Spec{Kind: queue.KindMM1, Lambda: 10, Mu: 8, Servers: 1}}, 0, 0, false, fault.ErrSaturated},
		{"negative rate", Request{Spec: queue.Spec{Kind: queue.KindMM1, Lambda: -1, Mu: 8, Servers: 1}}, 0, 0, false, fault.ErrInput},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Run(context.Background(), tc.q)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("error %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(r.ResponseTime-tc.wantR) > 1e-12 || math.Abs(r.Jobs-tc.wantL) > 1e-12 {
				t.Errorf("R = %v, L = %v; want %v, %v", r.ResponseTime, r.Jobs, tc.wantR, tc.wantL)
			}
			if r.Answer.Summary == "" {
				t.Error("no answer")
			}
			if got := strings.Contains(strings.Join(r.Notes, " "), "--load"); got != tc.loadMsg {
				t.Errorf("--load note present = %v, want %v (notes %q)", got, tc.loadMsg, r.Notes)
			}
			if len(r.Tables()) != 1 {
				t.Errorf("%d tables, want 1", len(r.Tables()))
			}
		})
	}
}

// TestRunCancelled: a cancelled context is an interruption, not a result.
func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, Request{Spec: queue.Spec{Kind: queue.KindMM1, Lambda: 8, Mu: 10, Servers: 1}}); !errors.Is(err, fault.ErrInterrupted) {
		t.Fatalf("error %v, want fault.ErrInterrupted", err)
	}
}

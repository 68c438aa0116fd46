package fault

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestExitCode(t *testing.T) {
	cases := []struct {
		err  error
		want int
	}{
		{nil, ExitOK},
		{errors.New("disk full"), ExitFailure},
		{fmt.Errorf("x.yaml:3: %w", ErrInput), ExitInput},
		{fmt.Errorf("%w: lattice 1e12 points", ErrTooLarge), ExitInput},
		{fmt.Errorf("%w: cpu U = 1.5", ErrSaturated), ExitFinding},
		{fmt.Errorf("%w", ErrDeadlock), ExitFinding},
		{fmt.Errorf("a: %w", fmt.Errorf("b: %w", ErrNotConverged)), ExitFinding},
		{errors.Join(errors.New("x"), ErrNoSteadyState), ExitFinding},
		{fmt.Errorf("simulate: %w", ErrInterrupted), ExitInterrupted},
		{fmt.Errorf("sweep: %w", context.Canceled), ExitInterrupted},
	}
	for i, c := range cases {
		if got := ExitCode(c.err); got != c.want {
			t.Errorf("case %d (%v): exit %d, want %d", i, c.err, got, c.want)
		}
	}
	if errors.Is(ErrSaturated, ErrInput) || errors.Is(ErrInput, ErrFinding) {
		t.Error("classes overlap")
	}
}

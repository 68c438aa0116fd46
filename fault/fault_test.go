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

// TestDetail: a note built from an error reads as a sentence: the class words the sentinels
// put in front ("invalid input: ", "input too large: ", "fit: invalid input: " inside a
// chain) are gone, words the error does not carry as its class stay, and the error's own
// text is unchanged.
func TestDetail(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{nil, ""},
		{errors.New("disk full"), "disk full"},
		{fmt.Errorf("%w: d.csv: 2 distinct p: a backtest needs at least 3", ErrInput), "d.csv: 2 distinct p: a backtest needs at least 3"},
		{fmt.Errorf("fit: %w: %w: 6 observations for 7 free parameters", ErrInput, errors.New("fewer observations than free parameters")), "fit: fewer observations than free parameters: 6 observations for 7 free parameters"},
		{fmt.Errorf("%w: lattice 1e12 points, limit 2e9", ErrTooLarge), "lattice 1e12 points, limit 2e9"},
		{fmt.Errorf("%w: station %q: utilization 1.5 ≥ 1", ErrSaturated, "cpu"), `station "cpu": utilization 1.5 ≥ 1`},
		{errors.New("invalid input: said by a library that wraps no sentinel"), "invalid input: said by a library that wraps no sentinel"},
		{fmt.Errorf("%w: station %q is saturated: utilization 1.5 ≥ 1", ErrSaturated, "cpu"), `station "cpu" is saturated: utilization 1.5 ≥ 1`},
		{fmt.Errorf("%w: %w: shard 2: invalid input: x", ErrInput, ErrInput), "shard 2: x"},
	}
	for i, c := range cases {
		if got := Detail(c.err); got != c.want {
			t.Errorf("case %d: Detail(%v) = %q, want %q", i, c.err, got, c.want)
		}
	}
}

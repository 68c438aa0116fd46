package qn

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestIntegralSmallPopulations: 1–6 jobs per class, where the density has exponential,
// not Gaussian, tails (an edge-bounded coordinate's tail piece catches them: before it,
// these differed from MVA by up to 7e-7 with a spread of 1e-14), against exact MVA.
func TestIntegralSmallPopulations(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20; i++ {
		m := randomClosed(rng, 2+rng.IntN(2), 2+rng.IntN(4), 6)
		checkIntegral(t, fmt.Sprintf("small %d", i), m)
	}
}

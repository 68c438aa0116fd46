package sim

import (
	"math"
	"math/rand/v2"
)

// expansionRep measures, in one replication, the expansion factor of 002: how much longer a
// foreground task of Work seconds of dedicated CPU takes on a processor-sharing CPU that also
// serves a background stream (inter-arrival times from Arrival with mean 1/λ, CPU demands
// from Demand with mean D; utilisation U = λD). The task starts at a random instant of the
// background's steady state; the replication averages Tasks successive tasks (each started
// after a gap drawn so the background is sampled at random times). 002 predicts 1/(1 − U).
func expansionRep(U, work float64, arrival, demand Dist, tasks int, seed, stream uint64) float64 {
	rng := rand.New(rand.NewPCG(seed, stream))
	const D = 1.0
	lambda := U / D
	// state: background jobs' remaining work (PS: each gets 1/n of the CPU)
	var bg []float64
	fg := -1.0 // remaining work of the foreground task (<0: none)
	now := 0.0
	nextArr := arrival.Sample(rng, 1/lambda)
	warm := 200 * work / (1 - U)
	nextStart := warm
	startedAt := 0.0
	sum, done := 0.0, 0
	for done < tasks {
		n := len(bg)
		if fg >= 0 {
			n++
		}
		// next event: an arrival, the task's start, or the first completion at rate 1/n;
		// the completing job is removed by identity (not by a tolerance: at large times a
		// tiny remainder would no longer advance the clock)
		tNext, what := nextArr, -3 // -3 arrival, -2 task start, -1 task done, i ≥ 0 bg job i
		if fg < 0 && nextStart < tNext {
			tNext, what = nextStart, -2
		}
		minW, minI := math.Inf(1), 0
		for i, w := range bg {
			if w < minW {
				minW, minI = w, i
			}
		}
		if fg >= 0 && fg < minW {
			minW, minI = fg, -1
		}
		if n > 0 && now+minW*float64(n) < tNext {
			tNext, what = now+minW*float64(n), minI
		}
		if n > 0 {
			served := (tNext - now) / float64(n)
			if what >= -1 {
				served = minW // exact for the completing job
			}
			for i := range bg {
				bg[i] -= served
			}
			if fg >= 0 {
				fg -= served
			}
		}
		now = tNext
		switch {
		case what == -3:
			bg = append(bg, demand.Sample(rng, D))
			nextArr = now + arrival.Sample(rng, 1/lambda)
		case what == -2:
			fg, startedAt = work, now
		case what == -1:
			sum += (now - startedAt) / work
			done++
			fg = -1
			nextStart = now + work/(1-U)*rng.ExpFloat64()
		default:
			bg[what] = bg[len(bg)-1]
			bg = bg[:len(bg)-1]
		}
	}
	return sum / float64(tasks)
}

// ExpansionStudy estimates the mean expansion factor with a 95 % interval over reps
// replications run on all cores.
func ExpansionStudy(U, work float64, arrival, demand Dist, tasks, reps int, seed uint64) Estimate {
	xs := make([]float64, reps)
	parallelFor(reps, func(i int) { xs[i] = expansionRep(U, work, arrival, demand, tasks, seed, uint64(i)) })
	return estimate(xs)
}

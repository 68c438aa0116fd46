package tpn

import (
	"errors"
	"math"
)

// CriticalPathLength is the completion time of an acyclic, conflict-free net in which every
// transition fires once (PERT): finish(t) = delay(t) + max over its input places of the
// finish of the place's producer (0 for a place marked initially). It is the oracle the
// simulation must equal on such nets (notes §3.4). Errors for nets outside that class.
func CriticalPathLength(n *Net) (int64, error) {
	producer := make([]int, len(n.Places))
	consumers := make([]int, len(n.Places))
	for i := range producer {
		producer[i] = -1
	}
	for ti, t := range n.Transitions {
		for _, a := range t.Out {
			if producer[a.Place] >= 0 {
				return 0, errors.New("a place has two producers: not conflict-free")
			}
			producer[a.Place] = ti
		}
		for _, a := range t.In {
			consumers[a.Place]++
			if consumers[a.Place] > 1 {
				return 0, errors.New("a place has two consumers: not conflict-free")
			}
		}
	}
	finish := make([]int64, len(n.Transitions))
	state := make([]int, len(n.Transitions))
	var visit func(t int) (int64, error)
	visit = func(t int) (int64, error) {
		switch state[t] {
		case 1:
			return 0, errors.New("the net has a cycle")
		case 2:
			return finish[t], nil
		}
		state[t] = 1
		start := int64(0)
		for _, a := range n.Transitions[t].In {
			if p := producer[a.Place]; p >= 0 {
				f, err := visit(p)
				if err != nil {
					return 0, err
				}
				start = max(start, f)
			}
		}
		finish[t] = start + n.Transitions[t].Delay
		state[t] = 2
		return finish[t], nil
	}
	end := int64(0)
	for t := range n.Transitions {
		f, err := visit(t)
		if err != nil {
			return 0, err
		}
		end = max(end, f)
	}
	return end, nil
}

// MaxCycleRatio is the cycle time (s) of a timed marked graph (every place with exactly one
// producer and one consumer): the maximum over directed circuits of (Σ delays)/(Σ tokens)
// (Ramamoorthy & Ho 1980), single-server transitions adding their own circuit d/1. Found by
// enumerating the elementary circuits (small nets only: the oracle of the property tests).
func MaxCycleRatio(n *Net) (float64, error) {
	T := len(n.Transitions)
	type edge struct {
		to     int
		tokens int
	}
	adj := make([][]edge, T)
	producer := make([]int, len(n.Places))
	for i := range producer {
		producer[i] = -1
	}
	for ti, t := range n.Transitions {
		for _, a := range t.Out {
			producer[a.Place] = ti
		}
	}
	for ti, t := range n.Transitions {
		for _, a := range t.In {
			p := producer[a.Place]
			if p < 0 {
				return 0, errors.New("a place has no producer: not a marked graph")
			}
			adj[p] = append(adj[p], edge{ti, n.Places[a.Place].Initial})
		}
	}
	best := 0.0
	for ti, t := range n.Transitions {
		if t.Servers == 1 {
			best = math.Max(best, Seconds(t.Delay))
		}
		_ = ti
	}
	// elementary circuits through their smallest transition
	onPath := make([]bool, T)
	var dfs func(start, v int, d float64, m int)
	dfs = func(start, v int, d float64, m int) {
		for _, e := range adj[v] {
			if e.to == start {
				if m+e.tokens == 0 {
					best = math.Inf(1) // a token-free circuit: the net is dead
				} else {
					best = math.Max(best, (d+Seconds(n.Transitions[v].Delay))/float64(m+e.tokens))
				}
				continue
			}
			if e.to > start && !onPath[e.to] {
				onPath[e.to] = true
				dfs(start, e.to, d+Seconds(n.Transitions[v].Delay), m+e.tokens)
				onPath[e.to] = false
			}
		}
	}
	for s := 0; s < T; s++ {
		onPath[s] = true
		dfs(s, s, 0, 0)
		onPath[s] = false
	}
	return best, nil
}

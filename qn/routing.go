package qn

import (
	"errors"
	"fmt"
	"math"

	gmat "gonum.org/v1/gonum/mat"
)

// Routing is how the jobs of one class move between stations, the alternative to giving
// visit counts directly. P[i][j] is the probability that a job leaving station i goes next
// to station j (i, j = 0…K−1 in the model's station order; a station with Count > 1 is one
// node, and a job routed to it goes to one of its copies at random).
//
// Closed class: every row that jobs reach sums to 1, and a cycle is counted from one visit to
// station Reference to the next — the think time (if any) is spent once per visit to
// Reference. Open class: a row may sum to less than 1, the rest leaving the network, and
// Arrivals[k] is the share of external arrivals that enter at station k (Σ = 1).
type Routing struct {
	P         [][]float64
	Reference int       // closed classes
	Arrivals  []float64 // open classes
}

// ClosedVisits solves the traffic equations of a closed class, V = V·P with V[ref] = 1:
// V[k] is the mean number of visits to station k per visit to station ref (GNU Octave's
// qncsvisits(P, ref+1)). Stations not reachable from ref get 0. It is an error if P is not a
// K×K matrix of probabilities, if a reachable row does not sum to 1, or if jobs can reach a
// station from which they never come back to ref (the visits would be unbounded).
func ClosedVisits(P [][]float64, ref int) ([]float64, error) {
	return closedVisits(P, ref, indexName)
}

// indexName names station i in errors of the exported functions.
func indexName(i int) string { return fmt.Sprintf("station %d", i) }

func closedVisits(P [][]float64, ref int, name func(int) string) ([]float64, error) {
	K, err := checkRouting(P, name)
	if err != nil {
		return nil, err
	}
	if ref < 0 || ref >= K {
		return nil, fmt.Errorf("reference station %d out of range 0…%d", ref, K-1)
	}
	reach := reachable(P, []int{ref})
	for i := range reach {
		if reach[i] && math.Abs(rowSum(P[i])-1) > 1e-9 {
			return nil, fmt.Errorf("the routing from %s sums to %.6g; in a closed class every reachable station's routing must sum to 1", name(i), rowSum(P[i]))
		}
	}
	back := reachableBack(P, []int{ref})
	for i := range reach {
		if reach[i] && !back[i] {
			return nil, fmt.Errorf("%s is reachable from the reference %s but jobs never return from it", name(i), name(ref))
		}
	}
	// unknowns: V[i] for reachable i. Equations: V[j] = Σ_i V[i] P[i][j] for reachable j ≠ ref,
	// and V[ref] = 1.
	return solveTraffic(P, reach, func(j int) (float64, bool) {
		if j == ref {
			return 1, true
		}
		return 0, false
	})
}

// OpenVisits solves the traffic equations of an open class, V = a + V·P with a the arrival
// shares (Σ a = 1): V[k] is the mean number of visits to station k per job that enters the
// network (GNU Octave's qnosvisits(P, a), which divides by Σ a = 1). Stations not reachable from an entry get 0. It is an error if jobs can reach a
// station from which they never leave the network.
func OpenVisits(P [][]float64, arrivals []float64) ([]float64, error) {
	return openVisits(P, arrivals, indexName)
}

func openVisits(P [][]float64, arrivals []float64, name func(int) string) ([]float64, error) {
	K, err := checkRouting(P, name)
	if err != nil {
		return nil, err
	}
	if len(arrivals) != K {
		return nil, fmt.Errorf("arrivals: %d shares, want %d (one per station)", len(arrivals), K)
	}
	var entries, exits []int
	tot := 0.0
	for k, a := range arrivals {
		if !(a >= 0) || math.IsInf(a, 0) {
			return nil, fmt.Errorf("arrivals[%d] = %v must be a probability", k, a)
		}
		tot += a
		if a > 0 {
			entries = append(entries, k)
		}
		if rowSum(P[k]) < 1-1e-9 {
			exits = append(exits, k)
		}
	}
	if math.Abs(tot-1) > 1e-9 {
		return nil, fmt.Errorf("arrival shares sum to %.6g, not 1", tot)
	}
	reach := reachable(P, entries)
	leave := reachableBack(P, exits)
	for i := range reach {
		if reach[i] && !leave[i] {
			return nil, fmt.Errorf("%s is reachable by arriving jobs but they never leave the network from it", name(i))
		}
	}
	return solveTraffic(P, reach, func(j int) (float64, bool) { return arrivals[j], false })
}

// solveTraffic solves, over the stations marked in use, V[j] − Σ_i V[i]·P[i][j] = rhs(j), or
// V[j] = rhs(j) where fixed(j) says so.
func solveTraffic(P [][]float64, use []bool, rhs func(j int) (float64, bool)) ([]float64, error) {
	K := len(P)
	idx := make([]int, K)
	n := 0
	for i := range use {
		idx[i] = -1
		if use[i] {
			idx[i] = n
			n++
		}
	}
	A := gmat.NewDense(n, n, nil)
	b := gmat.NewVecDense(n, nil)
	for j := 0; j < K; j++ {
		r := idx[j]
		if r < 0 {
			continue
		}
		v, fixed := rhs(j)
		b.SetVec(r, v)
		if fixed {
			A.Set(r, r, 1)
			continue
		}
		A.Set(r, r, 1)
		for i := 0; i < K; i++ {
			if c := idx[i]; c >= 0 && P[i][j] != 0 {
				A.Set(r, c, A.At(r, c)-P[i][j])
			}
		}
	}
	var x gmat.VecDense
	if err := x.SolveVec(A, b); err != nil {
		var cond gmat.Condition
		if !errors.As(err, &cond) || float64(cond) > 1e12 {
			return nil, fmt.Errorf("traffic equations are singular: %v", err)
		}
	}
	V := make([]float64, K)
	for i := range V {
		if idx[i] >= 0 {
			V[i] = math.Max(0, x.AtVec(idx[i])) // round-off can leave −1e-17
		}
	}
	return V, nil
}

func checkRouting(P [][]float64, name func(int) string) (int, error) {
	K := len(P)
	if K == 0 {
		return 0, errors.New("routing matrix is empty")
	}
	for i, row := range P {
		if len(row) != K {
			return 0, fmt.Errorf("routing row %d has %d entries, want %d", i, len(row), K)
		}
		for j, v := range row {
			if !(v >= 0) || v > 1 {
				return 0, fmt.Errorf("routing from %s to %s: %v must be a probability in [0, 1]", name(i), name(j), v)
			}
		}
		if s := rowSum(row); s > 1+1e-9 {
			return 0, fmt.Errorf("the routing from %s sums to %.6g > 1", name(i), s)
		}
	}
	return K, nil
}

func rowSum(r []float64) float64 {
	s := 0.0
	for _, v := range r {
		s += v
	}
	return s
}

// reachable marks the stations reachable (in ≥ 0 steps) from the start stations.
func reachable(P [][]float64, start []int) []bool {
	return search(len(P), start, func(i, j int) bool { return P[i][j] > 0 })
}

// reachableBack marks the stations from which one of the target stations can be reached.
func reachableBack(P [][]float64, target []int) []bool {
	return search(len(P), target, func(i, j int) bool { return P[j][i] > 0 })
}

func search(K int, start []int, edge func(i, j int) bool) []bool {
	seen := make([]bool, K)
	stack := append([]int(nil), start...)
	for _, s := range start {
		seen[s] = true
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for j := 0; j < K; j++ {
			if !seen[j] && edge(i, j) {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	return seen
}

// NodeMatrix returns the routing as a (1+K+extra)×(1+K+extra) matrix over nodes, node 0 the
// reference (a closed class's terminals, an open class's outside) and nodes 1…K the stations
// — the form the simulator takes. A closed class passes through node 0 just before each
// visit to Reference, so its think time is spent once per cycle as the analytic model
// assumes; an open class enters by Arrivals and leaves with each row's missing probability.
func (r *Routing) NodeMatrix(open bool, extra int) [][]float64 {
	K := len(r.P)
	n := 1 + K + extra
	R := make([][]float64, n)
	for i := range R {
		R[i] = make([]float64, n)
	}
	if open {
		for k, a := range r.Arrivals {
			R[0][1+k] = a
		}
	} else {
		R[0][1+r.Reference] = 1
	}
	for i, row := range r.P {
		if !open && math.Abs(rowSum(row)-1) > 1e-9 {
			continue // a station the class never reaches (ClosedVisits checks the others)
		}
		out := 1.0
		for j, p := range row {
			if !open && j == r.Reference {
				R[1+i][0] += p
			} else {
				R[1+i][1+j] = p
			}
			out -= p
		}
		if open && out > 1e-12 {
			R[1+i][0] += out
		}
	}
	return R
}

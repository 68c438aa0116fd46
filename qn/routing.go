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
//
// P may extend past the stations to fork/join nodes (see ForkJoin): then it is n×n with
// n = K + len(Branches), Branches[f] the stations node K+f splits a job into.
type Routing struct {
	P         [][]float64
	Reference int       // closed classes
	Arrivals  []float64 // open classes
	Branches  [][]int   // per fork/join node, its branch stations
}

// graph returns the routing as the traffic equations see it, names from name.
func (r *Routing) graph(name func(int) string) *flowGraph {
	return &flowGraph{P: r.P, branches: r.Branches, name: name}
}

// ClosedVisits solves the traffic equations of a closed class, V = V·P with V[ref] = 1:
// V[k] is the mean number of visits to station k per visit to station ref (GNU Octave's
// qncsvisits(P, ref+1)). Stations not reachable from ref get 0. It is an error if P is not a
// K×K matrix of probabilities, if a reachable row does not sum to 1, or if jobs can reach a
// station from which they never come back to ref (the visits would be unbounded).
func ClosedVisits(P [][]float64, ref int) ([]float64, error) {
	return (&flowGraph{P: P, name: indexName}).closedVisits(ref)
}

// OpenVisits solves the traffic equations of an open class, V = a + V·P with a the arrival
// shares (Σ a = 1): V[k] is the mean number of visits to station k per job that enters the
// network (GNU Octave's qnosvisits(P, a), which divides by Σ a = 1). Stations not reachable
// from an entry get 0. It is an error if jobs can reach a station from which they never
// leave the network.
func OpenVisits(P [][]float64, arrivals []float64) ([]float64, error) {
	return (&flowGraph{P: P, name: indexName}).openVisits(arrivals)
}

// indexName names node i in errors of the exported functions.
func indexName(i int) string { return fmt.Sprintf("station %d", i) }

// flowGraph is what the traffic equations run on: P over n nodes, the last len(branches) of
// them fork/join nodes. A job entering fork/join node n−F+f splits into one task per station
// of branches[f]; a task goes back to the join when served (so a branch station has no
// routing row of its own), and the job leaves the join by the node's row of P once every
// task is back. Each visit to a fork/join node is thus one visit to each branch station.
type flowGraph struct {
	P        [][]float64
	branches [][]int
	name     func(int) string
	isBranch []bool // by node: a branch station of some fork/join node
	joinOf   []int  // by node: the fork/join node a branch station returns to
}

func (g *flowGraph) n() int { return len(g.P) }

// flow is the mean number of transfers from node i to node j per visit to i.
func (g *flowGraph) flow(i, j int) float64 {
	v := g.P[i][j]
	if f := i - (g.n() - len(g.branches)); f >= 0 {
		for _, b := range g.branches[f] {
			if b == j {
				v++
			}
		}
	}
	return v
}

// check validates P and the branches and returns the node count.
func (g *flowGraph) check() (int, error) {
	n := len(g.P)
	if n == 0 {
		return 0, errors.New("routing matrix is empty")
	}
	for i, row := range g.P {
		if len(row) != n {
			return 0, fmt.Errorf("routing row %d has %d entries, want %d", i, len(row), n)
		}
		for j, v := range row {
			if !(v >= 0) || v > 1 {
				return 0, fmt.Errorf("routing from %s to %s: %v must be a probability in [0, 1]", g.name(i), g.name(j), v)
			}
		}
		if s := rowSum(row); s > 1+1e-9 {
			return 0, fmt.Errorf("the routing from %s sums to %.6g > 1", g.name(i), s)
		}
	}
	g.isBranch = make([]bool, n)
	g.joinOf = make([]int, n)
	first := n - len(g.branches)
	for f, br := range g.branches {
		for _, b := range br {
			if b < 0 || b >= first {
				return 0, fmt.Errorf("%s: branch %d is not a station (0…%d)", g.name(first+f), b, first-1)
			}
			if g.isBranch[b] {
				return 0, fmt.Errorf("%s is a branch of both %s and %s; a station can serve one fork/join node", g.name(b), g.name(g.joinOf[b]), g.name(first+f))
			}
			g.isBranch[b], g.joinOf[b] = true, first+f
			if rowSum(g.P[b]) != 0 {
				return 0, fmt.Errorf("%s is a branch of %s: its tasks return to the join when served, so it has no routing of its own", g.name(b), g.name(first+f))
			}
		}
	}
	for i := range g.P {
		for _, br := range g.branches {
			for _, b := range br {
				if g.P[i][b] > 0 {
					return 0, fmt.Errorf("the routing from %s goes straight to %s, a fork/join branch: route jobs to %s", g.name(i), g.name(b), g.name(g.joinOf[b]))
				}
			}
		}
	}
	return n, nil
}

// reachable marks the nodes reachable (in ≥ 0 steps) from the start nodes.
func (g *flowGraph) reachable(start []int) []bool {
	return search(g.n(), start, func(i, j int) bool { return g.flow(i, j) > 0 })
}

// reachableBack marks the nodes from which one of the target nodes can be reached (a branch
// station reaches its join).
func (g *flowGraph) reachableBack(target []int) []bool {
	return search(g.n(), target, func(i, j int) bool {
		return g.flow(j, i) > 0 || (g.isBranch[j] && g.joinOf[j] == i)
	})
}

func (g *flowGraph) closedVisits(ref int) ([]float64, error) {
	n, err := g.check()
	if err != nil {
		return nil, err
	}
	if ref < 0 || ref >= n {
		return nil, fmt.Errorf("reference station %d out of range 0…%d", ref, n-1)
	}
	if g.isBranch[ref] {
		return nil, fmt.Errorf("the reference %s is a fork/join branch; choose a station jobs visit whole", g.name(ref))
	}
	reach := g.reachable([]int{ref})
	for i := range reach {
		if reach[i] && !g.isBranch[i] && math.Abs(rowSum(g.P[i])-1) > 1e-9 {
			return nil, fmt.Errorf("the routing from %s sums to %.6g; in a closed class every reachable station's routing must sum to 1", g.name(i), rowSum(g.P[i]))
		}
	}
	back := g.reachableBack([]int{ref})
	for i := range reach {
		if reach[i] && !back[i] {
			return nil, fmt.Errorf("%s is reachable from the reference %s but jobs never return from it", g.name(i), g.name(ref))
		}
	}
	// unknowns: V[i] for reachable i. Equations: V[j] = Σ_i V[i]·flow(i, j) for reachable
	// j ≠ ref, and V[ref] = 1.
	return g.solve(reach, func(j int) (float64, bool) {
		if j == ref {
			return 1, true
		}
		return 0, false
	})
}

func (g *flowGraph) openVisits(arrivals []float64) ([]float64, error) {
	n, err := g.check()
	if err != nil {
		return nil, err
	}
	if len(arrivals) != n {
		return nil, fmt.Errorf("arrivals: %d shares, want %d (one per node)", len(arrivals), n)
	}
	var entries, exits []int
	tot := 0.0
	for k, a := range arrivals {
		if !(a >= 0) || math.IsInf(a, 0) {
			return nil, fmt.Errorf("arrivals at %s: %v must be a probability", g.name(k), a)
		}
		if a > 0 && g.isBranch[k] {
			return nil, fmt.Errorf("arrivals at %s, a fork/join branch: jobs must enter at the fork/join node", g.name(k))
		}
		tot += a
		if a > 0 {
			entries = append(entries, k)
		}
		if !g.isBranch[k] && rowSum(g.P[k]) < 1-1e-9 {
			exits = append(exits, k)
		}
	}
	if math.Abs(tot-1) > 1e-9 {
		return nil, fmt.Errorf("arrival shares sum to %.6g, not 1", tot)
	}
	reach := g.reachable(entries)
	leave := g.reachableBack(exits)
	for i := range reach {
		if reach[i] && !leave[i] {
			return nil, fmt.Errorf("%s is reachable by arriving jobs but they never leave the network from it", g.name(i))
		}
	}
	return g.solve(reach, func(j int) (float64, bool) { return arrivals[j], false })
}

// solve solves, over the nodes marked in use, V[j] − Σ_i V[i]·flow(i, j) = rhs(j), or
// V[j] = rhs(j) where fixed(j) says so.
func (g *flowGraph) solve(use []bool, rhs func(j int) (float64, bool)) ([]float64, error) {
	K := g.n()
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
		A.Set(r, r, 1)
		if fixed {
			continue
		}
		for i := 0; i < K; i++ {
			if c := idx[i]; c >= 0 {
				if f := g.flow(i, j); f != 0 {
					A.Set(r, c, A.At(r, c)-f)
				}
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

func rowSum(r []float64) float64 {
	s := 0.0
	for _, v := range r {
		s += v
	}
	return s
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

// NodeMatrix returns the routing as a (1+n)×(1+n) matrix over nodes — node 0 the reference
// (a closed class's terminals, an open class's outside), nodes 1…n the stations and then the
// fork/join nodes of P — the form the simulator takes. A closed class passes through node 0
// just before each visit to Reference, so its think time is spent once per cycle as the
// analytic model assumes; an open class enters by Arrivals and leaves with each row's missing
// probability. Rows of stations the class never leaves from on its own (fork/join branches,
// stations a closed class never reaches) stay empty.
func (r *Routing) NodeMatrix(open bool) [][]float64 {
	n := len(r.P)
	R := make([][]float64, 1+n)
	for i := range R {
		R[i] = make([]float64, 1+n)
	}
	if open {
		for k, a := range r.Arrivals {
			R[0][1+k] = a
		}
	} else {
		R[0][1+r.Reference] = 1
	}
	branch := make([]bool, n)
	for _, br := range r.Branches {
		for _, b := range br {
			branch[b] = true
		}
	}
	for i, row := range r.P {
		if branch[i] || (!open && math.Abs(rowSum(row)-1) > 1e-9) {
			continue // a branch, or a station the class never reaches (the visits check the rest)
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

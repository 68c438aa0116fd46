package qn

import (
	"context"
	"fmt"
	"math"
	"strings"

	gmat "gonum.org/v1/gonum/mat"

	"github.com/clusterperf/clusterperf/fault"
)

// ChainVisits solves the traffic equations of a closed multi-class network with class
// switching (GNU Octave's qncmvisits(P, r) semantics, 0-based): P[c][i][d][j] is the
// probability that a class-c job completing service at station i goes to station j as a
// class-d job. The (class, station) pairs that routing connects form routing chains; chain[c]
// is the chain of class c (numbered 0, 1, … in order of first class). Within a chain the
// visits solve V(d,j) = Σ_{c,i} V(c,i)·P[c][i][d][j] with one normalisation per chain:
// V(c, ref[c]) = 1 for the chain's first class c. A class whose (class, station) nodes fall
// into different chains, a chain whose traffic equations have no unique solution (it is not
// one closed communicating class from its reference), or a malformed P is an error wrapping
// fault.ErrInput.
func ChainVisits(P [][][][]float64, ref []int) (V [][]float64, chain []int, err error) {
	if err := checkSwitching(P, ref); err != nil {
		return nil, nil, err
	}
	C, K := len(P), len(P[0])
	g := newSwitchGraph(P)
	chain, err = g.classChains(C)
	if err != nil {
		return nil, nil, err
	}
	V = make([][]float64, C)
	for c := range V {
		V[c] = make([]float64, K)
	}
	for h := 0; h < g.nch; h++ {
		if err := g.solveChain(P, ref, chain, h, V); err != nil {
			return nil, nil, err
		}
	}
	return V, chain, nil
}

// checkSwitching refuses a malformed routing P[c][i][d][j] (ErrInput): shapes that are not
// C × K × C × K, a reference station out of range, a probability outside [0, 1], or a
// non-empty row (c, i) that does not sum to 1 (the network is closed).
func checkSwitching(P [][][][]float64, ref []int) error {
	C := len(P)
	if C == 0 || len(ref) != C {
		return fmt.Errorf("%w: class switching: P has %d classes and ref %d entries; want the same, at least 1", fault.ErrInput, C, len(ref))
	}
	K := len(P[0])
	for c := range P {
		if len(P[c]) != K {
			return fmt.Errorf("%w: class switching: P[%d] has %d stations, want %d", fault.ErrInput, c, len(P[c]), K)
		}
		if ref[c] < 0 || ref[c] >= K {
			return fmt.Errorf("%w: class switching: reference station %d of class %d out of range", fault.ErrInput, ref[c], c)
		}
		for i := range P[c] {
			if len(P[c][i]) != C {
				return fmt.Errorf("%w: class switching: P[%d][%d] has %d classes, want %d", fault.ErrInput, c, i, len(P[c][i]), C)
			}
			sum := 0.0
			for d := range P[c][i] {
				if len(P[c][i][d]) != K {
					return fmt.Errorf("%w: class switching: P[%d][%d][%d] has %d stations, want %d", fault.ErrInput, c, i, d, len(P[c][i][d]), K)
				}
				for _, p := range P[c][i][d] {
					if !(p >= 0 && p <= 1) {
						return fmt.Errorf("%w: class switching: probability %v out of [0, 1] (class %d, station %d)", fault.ErrInput, p, c, i)
					}
					sum += p
				}
			}
			if sum != 0 && math.Abs(sum-1) > 1e-9 {
				return fmt.Errorf("%w: class switching: row of class %d at station %d sums to %v, want 1 (closed network)", fault.ErrInput, c, i, sum)
			}
		}
	}
	return nil
}

// switchGraph is the routing graph on (class, station) nodes c·K + k: comp labels the
// weakly connected components of the nodes that routing touches (in node order);
// compChain numbers the components that hold a class as chains 0, 1, … in order of
// first class; nch is the number of chains.
type switchGraph struct {
	K         int
	comp      []int
	touched   []bool
	compChain map[int]int
	nch       int
}

// newSwitchGraph builds the undirected graph with an edge (c,i)–(d,j) for P[c][i][d][j] > 0
// and labels its components by depth-first search.
func newSwitchGraph(P [][][][]float64) *switchGraph {
	C, K := len(P), len(P[0])
	n := C * K
	g := &switchGraph{K: K, comp: make([]int, n), touched: make([]bool, n), compChain: map[int]int{}}
	adj := make([][]int, n)
	for c := 0; c < C; c++ {
		for i := 0; i < K; i++ {
			for d := 0; d < C; d++ {
				for j := 0; j < K; j++ {
					if P[c][i][d][j] > 0 {
						a, b := c*K+i, d*K+j
						adj[a] = append(adj[a], b)
						adj[b] = append(adj[b], a)
						g.touched[a], g.touched[b] = true, true
					}
				}
			}
		}
	}
	for i := range g.comp {
		g.comp[i] = -1
	}
	ncomp := 0
	for v := range g.comp {
		if !g.touched[v] || g.comp[v] >= 0 {
			continue
		}
		stack := []int{v}
		g.comp[v] = ncomp
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, w := range adj[u] {
				if g.comp[w] < 0 {
					g.comp[w] = ncomp
					stack = append(stack, w)
				}
			}
		}
		ncomp++
	}
	return g
}

// classChains returns the chain of each class; a class whose nodes fall into two chains,
// or that has no routing, is refused (ErrInput).
func (g *switchGraph) classChains(C int) ([]int, error) {
	chain := make([]int, C)
	for c := range chain {
		chain[c] = -1
	}
	for c := 0; c < C; c++ {
		for k := 0; k < g.K; k++ {
			v := c*g.K + k
			if !g.touched[v] {
				continue
			}
			h, ok := g.compChain[g.comp[v]]
			if !ok {
				h = g.nch
				g.compChain[g.comp[v]] = h
				g.nch++
			}
			if chain[c] >= 0 && chain[c] != h {
				return nil, fmt.Errorf("%w: class switching: class %d belongs to two routing chains", fault.ErrInput, c)
			}
			chain[c] = h
		}
		if chain[c] < 0 {
			return nil, fmt.Errorf("%w: class switching: class %d has no routing", fault.ErrInput, c)
		}
	}
	return chain, nil
}

// solveChain solves chain h's traffic equations V_j = Σ_i V_i·P(i→j) over its nodes, with
// V = 1 at the reference station of its first class, into V[class][station]; a singular
// system or a negative or infinite visit count is refused (ErrInput).
func (g *switchGraph) solveChain(P [][][][]float64, ref, chain []int, h int, V [][]float64) error {
	K := g.K
	var nodes []int
	idx := map[int]int{}
	first := -1
	for c := range chain {
		if chain[c] != h {
			continue
		}
		if first < 0 {
			first = c
		}
		for k := 0; k < K; k++ {
			v := c*K + k
			if g.touched[v] && g.comp[v] >= 0 && g.compChain[g.comp[v]] == h {
				idx[v] = len(nodes)
				nodes = append(nodes, v)
			}
		}
	}
	rv, ok := idx[first*K+ref[first]]
	if !ok {
		return fmt.Errorf("%w: class switching: reference station %d of class %d is not on its routing chain", fault.ErrInput, ref[first], first)
	}
	m := len(nodes)
	A := gmat.NewDense(m, m, nil)
	b := gmat.NewVecDense(m, nil)
	// Row j: Σ_i V_i·P(i→j) − V_j = 0, except the reference row: V_ref = 1.
	for jj, vj := range nodes {
		if jj == rv {
			A.Set(jj, jj, 1)
			b.SetVec(jj, 1)
			continue
		}
		A.Set(jj, jj, -1)
		dj, kj := vj/K, vj%K
		for ii, vi := range nodes {
			ci, ki := vi/K, vi%K
			if p := P[ci][ki][dj][kj]; p > 0 {
				A.Set(jj, ii, A.At(jj, ii)+p)
			}
		}
	}
	var x gmat.VecDense
	if err := x.SolveVec(A, b); err != nil {
		return fmt.Errorf("%w: class switching: the traffic equations of routing chain %d have no unique solution (is every (class, station) of the chain reachable from class %d's reference station and back?): %v", fault.ErrInput, h, first, err)
	}
	for ii, v := range nodes {
		val := x.AtVec(ii)
		if val < 0 && val > -1e-12 {
			val = 0
		}
		if !(val >= 0) || math.IsInf(val, 0) {
			return fmt.Errorf("%w: class switching: routing chain %d: visit count %v of class %d at station %d (the chain is not one closed communicating class)", fault.ErrInput, h, val, v/K, v%K)
		}
		V[v/K][v%K] = val
	}
	return nil
}

// ChainNetwork is a closed network with class switching reduced to its routing chains.
type ChainNetwork struct {
	Classes  []Class     // per class; Population N_c; ThinkTime must be 0 (route through a delay station)
	Stations []Station   //
	Service  [][]float64 // Service[c][k]: mean service time per visit, seconds
	Visits   [][]float64 // from ChainVisits
	Chain    []int       // chain of each class
	Model    *Model      // one closed class per chain: population Σ N_c, demand Σ_c V_{c,k}·S_{c,k}
}

// NewChainNetwork builds the chain model of a closed network with class switching
// (BGdMT §7.3.6; Octave's qncmmva(N, S, P, r, m)): each routing chain becomes one closed
// class whose population is the sum of its classes' populations and whose demand at
// station k is Σ_{c ∈ chain} V_{c,k}·S_{c,k}, the visits relative to the chain's
// reference (see ChainVisits).
func NewChainNetwork(classes []Class, stations []Station, service [][]float64, P [][][][]float64, ref []int) (*ChainNetwork, error) {
	V, chain, err := ChainVisits(P, ref)
	if err != nil {
		return nil, err
	}
	if len(classes) != len(P) || len(service) != len(P) {
		return nil, fmt.Errorf("%w: class switching: %d classes, %d service rows, %d routing classes; want the same", fault.ErrInput, len(classes), len(service), len(P))
	}
	cn := &ChainNetwork{Classes: classes, Stations: stations, Service: service, Visits: V, Chain: chain}
	nch := 0
	for _, h := range chain {
		nch = max(nch, h+1)
	}
	m := &Model{Stations: stations}
	for h := 0; h < nch; h++ {
		cl := Class{Name: fmt.Sprintf("chain%d", h)}
		row := make([]float64, len(stations))
		for c, hc := range chain {
			if hc != h {
				continue
			}
			if classes[c].Open || classes[c].ThinkTime != 0 {
				return nil, fmt.Errorf("%w: class switching: class %q must be closed with no think time (route it through a delay station instead)", fault.ErrInput, classes[c].Name)
			}
			if len(service[c]) != len(stations) {
				return nil, fmt.Errorf("%w: class switching: class %q has %d service times, want %d", fault.ErrInput, classes[c].Name, len(service[c]), len(stations))
			}
			cl.Population += classes[c].Population
			if cl.Name == fmt.Sprintf("chain%d", h) {
				cl.Name = "chain of " + classes[c].Name
			}
			for k := range stations {
				row[k] += V[c][k] * service[c][k]
			}
		}
		m.Classes = append(m.Classes, cl)
		m.Demand = append(m.Demand, row)
	}
	cn.Model = m
	return cn, nil
}

// Solve solves the chain model with Solve(solver, opt) and reports per class: Throughput[c]
// is the chain's cycle rate (visits to the chain's reference per second), so the class-c
// throughput at station k is Throughput[c]·Visits[c][k]; Residence[k][c] (all visits of
// one cycle) is the chain's residence times D_{c,k}/D_{h,k} (product form: a station's
// residence time per unit demand is the same for every class of a chain), Q and U follow
// (Q = X·R, U = X·D/m), and ResponseTime[c] is the class's share of the cycle time.
func (cn *ChainNetwork) Solve(ctx context.Context, solver string, opt AMVAOptions) (*Result, error) {
	cr, err := Solve(ctx, cn.Model, solver, opt)
	if err != nil {
		return nil, err
	}
	C, K := len(cn.Classes), len(cn.Stations)
	res := newResult(cr.Solver, C, K)
	res.Method, res.Exact, res.Reason, res.ErrorEstimate, res.Notes, res.Status = cr.Method, cr.Exact, cr.Reason, cr.ErrorEstimate, cr.Notes, cr.Status
	res.Notes = append(res.Notes, fmt.Sprintf("class switching: %d routing chains solved as classes", len(cn.Model.Classes)))
	for h, mc := range cn.Model.Classes {
		var names []string
		for c := range cn.Classes {
			if cn.Chain[c] == h {
				names = append(names, cn.Classes[c].Name)
			}
		}
		if len(names) > 1 {
			res.Notes = append(res.Notes, fmt.Sprintf("class switching: chain {%s} holds %d jobs in all (the classes' populations summed); jobs change class as they move, so a class's mean number of jobs need not equal its given population", strings.Join(names, ", "), mc.Population))
		}
	}
	res.Reason = fmt.Sprintf("class switching: %d classes reduced to %d routing chain(s); for the chain model, %s", C, len(cn.Model.Classes), cr.Reason)
	for c := range cn.Classes {
		h := cn.Chain[c]
		x := cr.Throughput[h]
		res.Throughput[c] = x
		for k, st := range cn.Stations {
			d := cn.Visits[c][k] * cn.Service[c][k]
			dh := cn.Model.Demand[h][k]
			r := 0.0
			if dh > 0 {
				r = cr.Residence[k][h] * d / dh
			}
			res.Residence[k][c] = r
			res.QueueLength[k][c] = x * r
			res.ResponseTime[c] += float64(st.Copies()) * r
			u := x * d
			switch {
			case st.Kind == MultiServer:
				u /= float64(st.Servers)
			case st.Kind == LoadDependent && dh > 0:
				u = cr.Utilization[k][h] * d / dh
			}
			res.Utilization[k][c] = u
		}
	}
	return res, nil
}

package qn

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/spec"
)

// ModelFile is everything a model file holds (see FileFormat and ParseModelFile): the Model,
// and what a Model has no field for — class switching (Switch) and station capacities
// (Capacity). Solve and the simulator (sim.Config.FromFile) take it whole, so that neither
// can drop a feature of the file silently.
type ModelFile struct {
	File  string
	Name  string
	Model *Model
	// Switch, if not nil, is the class-switching routing of the file (routing: CLASS:
	// switch:). Model then carries per class the chain visits (Visits) and V·S (Demand),
	// which no solver of Model alone may use: the classes of a chain share one population.
	Switch *ClassSwitch
	// Capacity, if not nil, is per station the largest number of jobs it holds (waiting, in
	// service and blocked), 0 for unlimited (capacity:). Blocking after service.
	Capacity []int
	// PS names the stations declared type: ps. A Model does not distinguish PS from FCFS
	// (their mean values agree under product form); the simulator does, and simulates these
	// stations by processor sharing (sim.FileConfig).
	PS      map[string]bool
	capNode []spec.Node // for errors at the capacity fields' lines
}

// ClassSwitch is a closed network's routing with class switching, read from a model file:
// P[c][i][d][j] is the probability that a class-c job completing service at station i goes
// to station j as a class-d job (Octave's qncmvisits(P, r) semantics, 0-based), Ref[c] the
// reference station of class c (a chain's cycle is one visit of its first class to its
// reference), Service[c][k] the mean service time per visit (seconds). Net is the network
// reduced to its routing chains (NewChainNetwork), Visits and Chain its visit ratios and the
// chain of every class.
type ClassSwitch struct {
	P       [][][][]float64
	Ref     []int
	Service [][]float64
	Net     *ChainNetwork
}

// Solve solves the file's model: by routing chains if it has class switching (exact MVA of
// the chain model with solver "mva" or "auto", see ChainNetwork.Solve), by the blocking
// approximation if it has capacities (SolveBlocking), otherwise Solve(Model, solver, opt).
func (f *ModelFile) Solve(ctx context.Context, solver string, opt AMVAOptions) (*Result, error) {
	switch {
	case f.Switch != nil && f.Capacity != nil:
		return nil, fmt.Errorf("%w: %s: capacity: finite capacities with class switching are not supported (no solver covers both)", fault.ErrInput, f.File)
	case f.Switch != nil:
		res, err := f.Switch.Net.Solve(ctx, solver, opt)
		if err == nil {
			if st := f.Switch.classDependentQueues(f.PS); len(st) > 0 && res.Exact {
				// the label and the note agree: not exact for FCFS (issue 28)
				res.Exact = false
				res.Notes = append(res.Notes, fmt.Sprintf("class switching: the service times at %s differ by class; the chain solution is exact for processor sharing (type ps), only approximate for FCFS (BCMP), without an error estimate: check it against `simulate`", strings.Join(st, ", ")))
			}
		}
		return res, err
	case f.Capacity != nil:
		return SolveBlocking(f.Model, f.Capacity, f.Model.Routing, solver)
	}
	return Solve(ctx, f.Model, solver, opt)
}

// classDependentQueues names the single- or multi-server stations, other than those declared
// type ps, at which classes that visit them have different service times (product form then
// needs PS, not FCFS).
func (sw *ClassSwitch) classDependentQueues(ps map[string]bool) []string {
	var out []string
	for k, st := range sw.Net.Stations {
		if st.Kind == Delay || ps[st.Name] {
			continue
		}
		first, diff := -1.0, false
		for c := range sw.Service {
			if sw.Net.Visits[c][k] == 0 {
				continue
			}
			if first < 0 {
				first = sw.Service[c][k]
			} else if sw.Service[c][k] != first {
				diff = true
			}
		}
		if diff {
			out = append(out, fmt.Sprintf("%q", st.Name))
		}
	}
	return out
}

// plainOnly refuses a file whose features a bare Model cannot carry.
func (f *ModelFile) plainOnly() error {
	if f.Switch != nil {
		return fmt.Errorf("%w: %s: routing: … switch: class switching needs ParseModelFile and ModelFile.Solve (this caller reads a plain model and would ignore it)", fault.ErrInput, f.File)
	}
	if f.Capacity != nil {
		return fmt.Errorf("%w: %s: capacity: finite capacities need ParseModelFile and ModelFile.Solve (this caller reads a plain model and would ignore them)", fault.ErrInput, f.File)
	}
	return nil
}

// pendingClass is one class's routing section, read, with its visits still to solve.
type pendingClass struct {
	c    int
	node spec.Node
	sw   spec.Node // switch: rows, if any
	r    *Routing
	bad  bool
}

// readSwitches builds the class-switching routing if any class has switch: rows (nil
// otherwise): P[c][i][c][j] from the class's from: rows, P[c][i][d][j] from its switch:
// rows (station → {class: {station: probability}}); every row a job can reach sums to 1.
// Refused, at the offending field: open classes, think times, fork/join nodes, station
// groups (count > 1), classes without routing. The visits come from ChainVisits, and each
// class's Visits and Demand (V·S) are set in m for reporting.
func readSwitches(pend []pendingClass, m *Model, in *stationInputs, station func(spec.Node, string) int) *ClassSwitch {
	if !slices.ContainsFunc(pend, func(pc pendingClass) bool { return pc.sw.Valid() }) {
		return nil
	}
	C, K := len(m.Classes), len(m.Stations)
	sw := &ClassSwitch{Ref: make([]int, C), Service: in.svc, P: make([][][][]float64, C)}
	for c := range sw.P {
		sw.P[c] = make([][][]float64, K)
		for i := range sw.P[c] {
			sw.P[c][i] = make([][]float64, C)
			for d := range sw.P[c][i] {
				sw.P[c][i][d] = make([]float64, K)
			}
		}
	}
	ok := true
	for _, pc := range pend {
		ok = sw.readClass(pc, m, station) && ok
	}
	ok = switchNetworkOK(pend, m, in) && ok
	if !ok || !sw.rowsSumToOne(pend[0].node, m) {
		return &ClassSwitch{} // errors recorded; the caller returns them
	}
	net, err := NewChainNetwork(m.Classes, m.Stations, sw.Service, sw.P, sw.Ref)
	if err != nil {
		pend[0].node.Errorf("%v", err)
		return &ClassSwitch{}
	}
	sw.Net = net
	for c := 0; c < C; c++ {
		for k := 0; k < K; k++ {
			in.visits[c][k] = net.Visits[c][k]
			m.Demand[c][k] = net.Visits[c][k] * sw.Service[c][k]
		}
	}
	return sw
}

// readClass puts one routed class of a switching network into sw: its reference, its from:
// rows as P[c][i][c][j] and its switch: rows. It reports whether the class was accepted;
// refusals are recorded at their lines.
func (sw *ClassSwitch) readClass(pc pendingClass, m *Model, station func(spec.Node, string) int) bool {
	c, r, K := pc.c, pc.r, len(m.Stations)
	switch cl := m.Classes[c]; {
	case cl.Open:
		pc.node.Errorf("class switching (switch:) is supported for closed classes only; class %q is open", cl.Name)
		return false
	case cl.ThinkTime != 0:
		pc.node.Errorf("class switching (switch:): class %q has a think time; give it population only and route it through a delay station", cl.Name)
		return false
	}
	ok := !pc.bad
	sw.Ref[c] = r.Reference
	for i := 0; i < K; i++ {
		copy(sw.P[c][i][c], r.P[i][:K])
	}
	classIdx := map[string]int{}
	for d, cl := range m.Classes {
		classIdx[cl.Name] = d
	}
	for _, src := range pc.sw.Entries() {
		i := station(src.Node, src.Key)
		switch {
		case i >= K:
			src.Node.Errorf("class switching at fork/join nodes is not supported")
			ok = false
		case !src.Node.Mapping("{CLASS: {STATION: probability, …}, …}"):
			ok = false
		default:
			ok = readSwitchRow(sw.P[c], i, src.Node, classIdx, K, station) && ok
		}
	}
	return ok
}

// switchNetworkOK refuses what class switching does not support in the network: fork/join
// nodes, station groups (count > 1) and classes without a routing entry.
func switchNetworkOK(pend []pendingClass, m *Model, in *stationInputs) bool {
	ok := true
	if len(m.ForkJoins) > 0 {
		pend[0].node.Errorf("class switching with fork/join nodes is not supported")
		ok = false
	}
	for k, st := range m.Stations {
		if st.Copies() > 1 {
			in.nodes[k].Errorf("class switching with station groups (count: %d) is not supported; list the copies as stations", st.Count)
			ok = false
		}
	}
	routed := make([]bool, len(m.Classes))
	for _, pc := range pend {
		routed[pc.c] = true
	}
	for c, cl := range m.Classes {
		if !routed[c] {
			pend[0].node.Errorf("class switching: class %q has no routing entry; every class of a switching network needs one", cl.Name)
			ok = false
		}
	}
	return ok
}

// rowsSumToOne checks that every row of a (class, station) with outgoing routing (from: and
// switch: together) sums to 1, recording each that does not at at.
func (sw *ClassSwitch) rowsSumToOne(at spec.Node, m *Model) bool {
	ok := true
	for c := range sw.P {
		for i := range sw.P[c] {
			sum := 0.0
			for d := range sw.P[c][i] {
				for _, p := range sw.P[c][i][d] {
					sum += p
				}
			}
			if sum != 0 && math.Abs(sum-1) > 1e-9 {
				at.Errorf("class switching: the routing of class %q from station %q (from: and switch: together) sums to %.6g, want 1", m.Classes[c].Name, m.Stations[i].Name, sum)
				ok = false
			}
		}
	}
	return ok
}

// readSwitchRow reads a class's switch: row at station i (row: {CLASS: {STATION:
// probability, …}, …}) into Pc[i][d][j]; with i < 0 (an unknown station, already reported)
// it only checks the row. It reports whether the row was accepted; refusals are recorded at
// their lines.
func readSwitchRow(Pc [][][]float64, i int, row spec.Node, classIdx map[string]int, K int, station func(spec.Node, string) int) bool {
	ok := true
	for _, dc := range row.Entries() {
		d := dc.Node.Named("class", classIdx, dc.Key)
		if d < 0 || !dc.Node.Mapping("{STATION: probability, …}") {
			ok = false
			continue
		}
		for _, dst := range dc.Node.Entries() {
			j := station(dst.Node, dst.Key)
			p := dst.Node.NonNeg()
			switch {
			case j >= K:
				dst.Node.Errorf("class switching into fork/join nodes is not supported")
				ok = false
			case j >= 0 && i >= 0:
				Pc[i][d][j] += p
			default:
				ok = false
			}
		}
	}
	return ok
}

package qn

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/clusterperf/clusterperf/fault"
)

// Kind is the kind of a station.
type Kind int

const (
	// Queue is a single-server queue (FCFS with class-independent service times, or PS).
	Queue Kind = iota
	// Delay is an infinite-server (IS) centre: no queueing, R = D.
	Delay
	// MultiServer is a queue with Servers identical servers (M/M/m).
	MultiServer
	// LoadDependent is a queue whose service rate with j customers present is α(j)/S,
	// α = Rates (α(j) = Rates[len-1] for j > len(Rates)).
	LoadDependent
)

var kindNames = map[Kind]string{Queue: "queue", Delay: "delay", MultiServer: "multiserver", LoadDependent: "ld"}

func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// ParseKind converts a station type name ("queue", "fcfs", "ps", "delay", "is",
// "multiserver", "ld") into a Kind.
func ParseKind(s string) (Kind, error) {
	switch s {
	case "queue", "fcfs", "ps":
		return Queue, nil
	case "delay", "is", "infinite":
		return Delay, nil
	case "multiserver", "mm", "multi":
		return MultiServer, nil
	case "ld", "load_dependent", "loaddependent":
		return LoadDependent, nil
	}
	return 0, fmt.Errorf("unknown station type %q (allowed: queue, fcfs, ps, delay, is, multiserver, ld)", s)
}

// Station is a service centre, or a group of Count identical ones.
type Station struct {
	Name    string
	Kind    Kind
	Servers int       // MultiServer: number of servers m ≥ 1
	Rates   []float64 // LoadDependent: rate multipliers α(1), α(2), … (all > 0)
	Count   int       // identical copies; 0 means 1
	// PS: the station serves by processor sharing (file type ps), so product form (and the
	// exactness of MVA) holds whatever the classes' service times; false: FCFS, which needs
	// one service time per visit for every class (see Solve).
	PS bool
}

// Copies returns the number of identical copies the station stands for (at least 1).
func (s Station) Copies() int {
	if s.Count < 1 {
		return 1
	}
	return s.Count
}

// alpha returns the rate multiplier α(j) for j ≥ 1 customers.
func (s Station) alpha(j int) float64 {
	switch s.Kind {
	case MultiServer:
		if j < s.Servers {
			return float64(j)
		}
		return float64(s.Servers)
	case LoadDependent:
		if j <= len(s.Rates) {
			return s.Rates[j-1]
		}
		return s.Rates[len(s.Rates)-1]
	case Delay:
		return float64(j)
	}
	return 1
}

// Class is a customer class: closed (Population jobs, ThinkTime seconds at the terminals)
// or open (Open set, ArrivalRate jobs per second).
type Class struct {
	Name        string
	Open        bool
	Population  int
	ThinkTime   float64
	ArrivalRate float64
}

// Model is a queueing network. Demand[c][k] is the service demand (seconds) of one job of
// class c at one copy of station k. Visits, if not nil, gives visit counts V[c][k] so that
// station throughputs X_c·V and per-visit response times can be reported; it does not change
// the solution, which depends on demands only.
type Model struct {
	Classes  []Class
	Stations []Station
	Demand   [][]float64
	Visits   [][]float64
	// ForkJoins are fork/join nodes that routed classes can be sent to (see Routing). Only
	// ForkJoinMVA (approximate) models their synchronisation; the other solvers reject such
	// models with ErrUnsupported. The simulator runs them.
	ForkJoins []ForkJoin
	// Routing, if not nil, gives per class (nil entries: none) the routing matrix from which
	// Visits were computed (see ClosedVisits, OpenVisits). Solvers use demands only; the
	// simulator routes such a class by the matrix instead of by visit counts.
	Routing []*Routing
}

// ForkJoin is a fork/join node: a job routed to it splits into one task per branch station
// (indices into Stations); each task is served once there, and the job moves on by its
// routing from the fork/join node when every task is done.
type ForkJoin struct {
	Name     string
	Branches []int
}

// Validate reports every structural problem of the model at once.
func (m *Model) Validate() error {
	var errs []error
	if len(m.Classes) == 0 {
		errs = append(errs, errors.New("model has no classes"))
	}
	if len(m.Stations) == 0 {
		errs = append(errs, errors.New("model has no stations"))
	}
	for _, c := range m.Classes {
		errs = append(errs, c.problems()...)
	}
	for _, s := range m.Stations {
		errs = append(errs, s.problems()...)
	}
	errs = append(errs, m.perClassErrors(m.Demand,
		"demand has %d rows, want one per class (%d)",
		"class %q: %d demands, want one per station (%d)",
		"class %q, station %q: demand %v must be finite and ≥ 0")...)
	if m.Visits != nil {
		errs = append(errs, m.perClassErrors(m.Visits,
			"visits has %d rows, want %d",
			"class %q: %d visit counts, want %d",
			"class %q, station %q: visits %v must be finite and ≥ 0")...)
	}
	for _, fj := range m.ForkJoins {
		if len(fj.Branches) == 0 {
			errs = append(errs, fmt.Errorf("fork/join %q has no branches", fj.Name))
		}
		for _, b := range fj.Branches {
			if b < 0 || b >= len(m.Stations) {
				errs = append(errs, fmt.Errorf("fork/join %q: branch %d is not a station", fj.Name, b))
			}
		}
	}
	if m.Routing != nil {
		if len(m.Routing) != len(m.Classes) {
			errs = append(errs, fmt.Errorf("routing has %d entries, want %d (one per class)", len(m.Routing), len(m.Classes)))
		} else {
			for c, r := range m.Routing {
				if n := len(m.Stations) + len(m.ForkJoins); r != nil && len(r.P) != n {
					errs = append(errs, fmt.Errorf("class %q: routing matrix has %d rows, want %d (stations and fork/join nodes)", m.Classes[c].Name, len(r.P), n))
				}
			}
		}
	}
	return errors.Join(errs...)
}

// problems lists what is wrong with a class: an open class's arrival rate must be finite and
// ≥ 0; a closed class's population ≥ 0 and its think time finite and ≥ 0.
func (c Class) problems() []error {
	var errs []error
	if c.Open {
		if !(c.ArrivalRate >= 0) || math.IsInf(c.ArrivalRate, 0) {
			errs = append(errs, fmt.Errorf("class %q: arrival rate %v must be finite and ≥ 0", c.Name, c.ArrivalRate))
		}
		return errs
	}
	if c.Population < 0 {
		errs = append(errs, fmt.Errorf("class %q: population %d must be ≥ 0", c.Name, c.Population))
	}
	if !(c.ThinkTime >= 0) || math.IsInf(c.ThinkTime, 0) {
		errs = append(errs, fmt.Errorf("class %q: think time %v must be finite and ≥ 0", c.Name, c.ThinkTime))
	}
	return errs
}

// problems lists what is wrong with a station: a known kind, at least one server, rates
// α(1), α(2), … finite and > 0 for a load-dependent station, a count ≥ 0 (0 means 1).
func (s Station) problems() []error {
	var errs []error
	switch s.Kind {
	case MultiServer:
		if s.Servers < 1 {
			errs = append(errs, fmt.Errorf("station %q: servers %d must be ≥ 1", s.Name, s.Servers))
		}
	case LoadDependent:
		if len(s.Rates) == 0 {
			errs = append(errs, fmt.Errorf("station %q: load-dependent station needs rates α(1), α(2), …", s.Name))
		}
		for j, a := range s.Rates {
			if !(a > 0) || math.IsInf(a, 0) {
				errs = append(errs, fmt.Errorf("station %q: rate α(%d) = %v must be finite and > 0", s.Name, j+1, a))
			}
		}
	case Queue, Delay:
	default:
		errs = append(errs, fmt.Errorf("station %q: unknown kind %v", s.Name, s.Kind))
	}
	if s.Count < 0 {
		errs = append(errs, fmt.Errorf("station %q: count %d must be ≥ 1", s.Name, s.Count))
	}
	return errs
}

// perClassErrors checks a class × station matrix (demands or visits): one row per class
// (rowsMsg: rows, classes), one entry per station (lenMsg: class, entries, stations), each
// finite and ≥ 0 (valueMsg: class, station, value).
func (m *Model) perClassErrors(rows [][]float64, rowsMsg, lenMsg, valueMsg string) []error {
	if len(rows) != len(m.Classes) {
		return []error{fmt.Errorf(rowsMsg, len(rows), len(m.Classes))}
	}
	var errs []error
	for c, row := range rows {
		if len(row) != len(m.Stations) {
			errs = append(errs, fmt.Errorf(lenMsg, m.Classes[c].Name, len(row), len(m.Stations)))
			continue
		}
		for k, v := range row {
			if !(v >= 0) || math.IsInf(v, 0) {
				errs = append(errs, fmt.Errorf(valueMsg, m.Classes[c].Name, m.Stations[k].Name, v))
			}
		}
	}
	return errs
}

// ClosedClasses and OpenClasses return the indices of the classes of each kind.
func (m *Model) ClosedClasses() []int { return m.classIdx(false) }

// OpenClasses returns the indices of the open classes.
func (m *Model) OpenClasses() []int { return m.classIdx(true) }

func (m *Model) classIdx(open bool) []int {
	var idx []int
	for i, c := range m.Classes {
		if c.Open == open {
			idx = append(idx, i)
		}
	}
	return idx
}

// HasJobs reports whether any job ever enters the network: a closed class with population
// > 0 or an open class with arrival rate > 0. Without jobs the solution is the zero
// convention (X = 0, U = 0, Q = 0) and there is nothing to simulate.
func (m *Model) HasJobs() bool {
	for _, c := range m.Classes {
		if c.Open && c.ArrivalRate > 0 || !c.Open && c.Population > 0 {
			return true
		}
	}
	return false
}

// Clone returns a deep copy of the model.
func (m *Model) Clone() *Model {
	c := &Model{Classes: append([]Class(nil), m.Classes...)}
	if len(m.Stations) > 0 { // one allocation (Solve clones every model it rescales)
		c.Stations = make([]Station, 0, len(m.Stations))
	}
	for _, s := range m.Stations {
		s.Rates = append([]float64(nil), s.Rates...)
		c.Stations = append(c.Stations, s)
	}
	for _, r := range m.Demand {
		c.Demand = append(c.Demand, append([]float64(nil), r...))
	}
	if m.Visits != nil {
		for _, r := range m.Visits {
			c.Visits = append(c.Visits, append([]float64(nil), r...))
		}
	}
	if m.Routing != nil {
		c.Routing = make([]*Routing, len(m.Routing))
		for i, r := range m.Routing {
			if r == nil {
				continue
			}
			cr := &Routing{Reference: r.Reference, Arrivals: append([]float64(nil), r.Arrivals...)}
			for _, row := range r.P {
				cr.P = append(cr.P, append([]float64(nil), row...))
			}
			for _, br := range r.Branches {
				cr.Branches = append(cr.Branches, append([]int(nil), br...))
			}
			c.Routing[i] = cr
		}
	}
	for _, fj := range m.ForkJoins {
		c.ForkJoins = append(c.ForkJoins, ForkJoin{Name: fj.Name, Branches: append([]int(nil), fj.Branches...)})
	}
	return c
}

// solvable is Validate plus what only ForkJoinMVA handles (fork/join nodes).
func (m *Model) solvable() error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("%w: %w", fault.ErrInput, err)
	}
	if len(m.ForkJoins) > 0 {
		return unsupported("fork/join node %q: this solver does not model fork/join synchronisation; use solver forkjoin (approximate, single closed class) or simulate the model", m.ForkJoins[0].Name)
	}
	return nil
}

// thinkPlusDelay returns each class's Z_c: its think time plus its demands at the delay
// stations (all copies), the delay the product-form solvers fold into one term.
func thinkPlusDelay(m *Model) []float64 {
	z := make([]float64, len(m.Classes))
	for c, cl := range m.Classes {
		z[c] = cl.ThinkTime
		for k, s := range m.Stations {
			if s.Kind == Delay {
				z[c] += float64(s.Copies()) * m.Demand[c][k]
			}
		}
	}
	return z
}

// queueGroups returns the queue stations some class of act visits, merged into one group
// when the act classes' demands at them are identical (the product form depends on demands
// and copies only), and each group's number of copies.
func queueGroups(m *Model, act []int) ([][]int, []float64) {
	var groups [][]int
	var copies []float64
	for k, s := range m.Stations {
		if s.Kind == Delay || !slices.ContainsFunc(act, func(c int) bool { return m.Demand[c][k] > 0 }) {
			continue
		}
		g := slices.IndexFunc(groups, func(ks []int) bool {
			return !slices.ContainsFunc(act, func(c int) bool { return m.Demand[c][ks[0]] != m.Demand[c][k] })
		})
		if g < 0 {
			groups, copies = append(groups, nil), append(copies, 0)
			g = len(groups) - 1
		}
		groups[g] = append(groups[g], k)
		copies[g] += float64(s.Copies())
	}
	return groups, copies
}

// closedSolver checks what a closed-network solver needs: a solvable model, closed demands
// (checkClosedDemand) and no open class (ErrUnsupported naming solver).
func closedSolver(m *Model, solver string) error {
	if err := m.solvable(); err != nil {
		return err
	}
	if err := m.checkClosedDemand(); err != nil {
		return err
	}
	for _, c := range m.Classes {
		if c.Open {
			return unsupported("%s solves closed networks; class %q is open (use the mixed solver)", solver, c.Name)
		}
	}
	return nil
}

// singleServerOnly refuses (ErrUnsupported naming solver) multi-server and load-dependent
// stations.
func singleServerOnly(m *Model, solver string) error {
	for _, s := range m.Stations {
		if s.Kind == LoadDependent || (s.Kind == MultiServer && s.Servers > 1) {
			return unsupported("%s supports single-server queue and delay stations; station %q is %v (use solver mva, schweitzer or linearizer)", solver, s.Name, s.Kind)
		}
	}
	return nil
}

// checkClosedDemand reports a closed class whose jobs would cycle in zero time (no demand
// anywhere and no think time), which has unbounded throughput: bad input (fault.ErrInput).
// ParseModel reports the same at the class's line; this catches models built in code.
func (m *Model) checkClosedDemand() error {
	for c, cl := range m.Classes {
		if cl.Open || cl.Population == 0 || cl.ThinkTime > 0 {
			continue
		}
		tot := 0.0
		for _, d := range m.Demand[c] {
			tot += d
		}
		if tot == 0 {
			return fmt.Errorf("%w: class %q: zero think time and zero demand at every station: throughput is unbounded (give a think time > 0 or a demand > 0 at some station)", fault.ErrInput, cl.Name)
		}
	}
	return nil
}

package qn

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/internal/units"
)

// FileFormat documents the model file read by ParseModel (shown by `clusterperf help solve`).
const FileFormat = `A model file is YAML (or JSON). Units are seconds and jobs per second; a time
(think_time, demand, service_time) may carry a unit suffix (5ms, 150us, 2min, 1h) and a rate
(arrival_rate) one per time (48/min, 0.8/s), as the flags take them.

  name: web shop                  # optional title
  classes:                        # one or more
    - name: batch                 # closed class: a fixed population
      population: 20              #   whole number ≥ 0
      think_time: 5               #   seconds at the terminals (default 0)
    - name: web                   # open class: Poisson arrivals
      arrival_rate: 0.8           #   jobs per second ≥ 0
  stations:                       # one or more
    - name: cpu
      type: queue                 # queue (= fcfs, ps) | delay (= is) | multiserver | ld
      demand: 0.05                # seconds per job, the same for every class, or per class:
    - name: disk
      type: multiserver
      servers: 4                  # multiserver: m ≥ 1
      demand: {batch: 0.2, web: 0.1}
    - name: array
      type: ld                    # load-dependent: rate multipliers α(1), α(2), …
      rates: [1, 1.8, 2.4]        #   α(n) = last value for larger n
      visits: {batch: 3, web: 1}  # visits per job (number or per class; default 1) …
      service_time: 0.01          # … × seconds per visit (number or per class)
    - name: node
      type: queue
      count: 64                   # 64 identical copies, solved once (default 1)
      demand: 0.001
      capacity: 10                # optional: at most 10 jobs here (see Finite capacity below)

A class missing from a per-class map has demand 0 there. Give either demand, or
service_time (with optional visits), not both.

Instead of visits, a class may be given routing probabilities; its visits then solve the
traffic equations (as Octave's qncsvisits / qnosvisits) and its stations need service_time:

  routing:
    batch:                        # a closed class
      reference: cpu              #   a cycle = one visit here; the think time is spent once
                                  #   per visit (default: the first station)
      from:                       #   from each station, probabilities of the next one (Σ = 1)
        cpu: {disk: 0.3, array: 0.6, cpu: 0.1}
        disk: {cpu: 1}
        array: {cpu: 1}
    web:                          # an open class
      arrivals: {cpu: 1}          #   where arriving jobs enter (shares, Σ = 1)
      from:
        cpu: {disk: 0.5}          #   the rest (0.5) leaves the network
        disk: {cpu: 1}

A job routed to a station with count > 1 goes to one of its copies at random (each copy
gets 1/count of the visits). clusterperf simulate moves routed jobs by these probabilities.

Fork/join nodes split a job into one task per branch station; the job moves on by the
node's routing row when every task has been served (solve: the approximate forkjoin solver,
one closed class; simulate: any model):

  fork_joins:
    - {name: split, branches: [disk, array]}   # branch stations have no routing row
  routing:
    batch:
      from:
        cpu: {split: 0.4, cpu: 0.6}
        split: {cpu: 1}           # after the join

Class switching: a closed class's routing may send a job on as another class with switch:
rows, station → {class: {station: probability}}; a class's from: and switch: rows from
one station sum to 1 together (GNU Octave's qncmvisits semantics, JMT's class switch):

  routing:
    read:
      reference: terminals        # the chain's cycle: a visit of its first class here
      from:
        terminals: {cpu: 1}
        cpu: {disk: 0.6, terminals: 0.2}
        disk: {cpu: 1}
      switch:
        cpu: {write: {disk: 0.2}} # after the cpu, 0.2: on to the disk as a write
    write:
      from: {cpu: {disk: 0.5}, disk: {cpu: 1}}
      switch: {cpu: {read: {terminals: 0.5}}}

Classes that switch into each other form a routing chain that shares its jobs (population
is the sum of its classes'); solve reduces the network to its chains (one class each, exact
MVA: BGdMT §7.3.6) and reports per class: its throughput is the chain's cycle rate, its
visits the chain's visit ratios, its response time its share of the cycle. Every class must
be closed, routed, with no think time (route through a delay station instead); no fork/join
nodes or station groups (count > 1) with switching. Product form (what the chain solution
assumes) needs processor sharing (type ps) or class-independent service times at queues;
simulate such stations with --discipline STATION=ps.

Finite capacity: capacity: N on a station holds at most N jobs there (waiting, in service
and blocked), with blocking after service as in JMT and Akyildiz's MVABLO: a job finishing
at station i whose next station j is full stays at i, which serves no one, until j has room
(stations waiting for j move in the order they were blocked). Supported for one closed class
with no think time, routed by a routing: section, single-server queue stations (count 1),
population ≤ the total capacity. solve: exact (a CTMC) up to 1000 states, else Akyildiz's
MVABLO (approximate; the result states its error measured against the exact CTMC at the
largest affordable population; docs/finite-capacity.md has its error distribution); --solver
exact or mvablo forces one. A population that can fill a cycle of stations deadlocks (exit 3).`

// ParseModel decodes a model file (see FileFormat). Every problem is reported with the file
// name and line; the model returned has passed Validate. A file with class switching
// (routing: CLASS: switch:) or finite capacities (capacity:) is refused with fault.ErrInput
// naming the field: a Model cannot carry them, so its solvers would silently ignore them;
// read such files with ParseModelFile.
func ParseModel(file string, data []byte) (*Model, string, error) {
	d, root, err := spec.Parse(file, data)
	if err != nil {
		return nil, "", err
	}
	return DecodeModel(d, root)
}

// DecodeModel is ParseModel of a file already read by spec.Parse (d, root): for a caller
// in this module that looked at the top level first (explore tells a model's kind by its
// keys and decodes the one tree: TestLoadParsesOnce). Its parameters are internal/spec's,
// so outside the module ParseModel is the entry point.
func DecodeModel(d *spec.Decoder, root spec.Node) (*Model, string, error) {
	f, err := decodeModelFile(d, root)
	if err != nil {
		return nil, "", err
	}
	if err := f.plainOnly(); err != nil {
		return nil, "", err
	}
	return f.Model, f.Name, nil
}

// ParseModelFile decodes a model file (see FileFormat) with everything it may hold: the
// model, and the class switching and station capacities a Model has no field for. Every
// problem is reported with the file name and line.
func ParseModelFile(file string, data []byte) (*ModelFile, error) {
	d, root, err := spec.Parse(file, data)
	if err != nil {
		return nil, err
	}
	return decodeModelFile(d, root)
}

// decodeModelFile is ParseModelFile from a file spec.Parse has already read.
func decodeModelFile(d *spec.Decoder, root spec.Node) (*ModelFile, error) {
	file := d.File
	mf := &ModelFile{File: file}
	top := root.Map("name", "classes", "stations", "fork_joins", "routing")
	name := top["name"].String()
	mf.Name = name
	m := &Model{}
	if !top["classes"].Valid() {
		root.Errorf("missing field classes")
	}
	if !top["stations"].Valid() {
		root.Errorf("missing field stations")
	}
	classIdx := map[string]int{}
	for i, cn := range top["classes"].List() {
		f := cn.Map("name", "population", "think_time", "arrival_rate")
		c := Class{Name: f["name"].String()}
		if c.Name == "" {
			c.Name = fmt.Sprintf("class%d", i+1)
		}
		if _, dup := classIdx[c.Name]; dup {
			cn.Errorf("class name %q used twice", c.Name)
		}
		classIdx[c.Name] = i
		pop, arr := f["population"], f["arrival_rate"]
		switch {
		case pop.Valid() && arr.Valid():
			cn.Errorf("give population (closed class) or arrival_rate (open class), not both")
		case pop.Valid():
			c.Population = pop.Int(0, 100_000_000)
			if t := f["think_time"]; t.Valid() {
				c.ThinkTime = t.Seconds()
			}
		case arr.Valid():
			c.Open = true
			c.ArrivalRate = rate(arr)
			if t := f["think_time"]; t.Valid() {
				t.Errorf("an open class has no think time")
			}
		default:
			cn.Errorf("needs population (closed class) or arrival_rate (open class)")
		}
		m.Classes = append(m.Classes, c)
	}
	C := len(m.Classes)
	stations := top["stations"].List()
	in := newStationInputs(C, stations)
	m.Demand = make([][]float64, C)
	for c := range m.Demand {
		m.Demand[c] = make([]float64, len(stations))
	}
	visits := in.visits
	haveVisits := false
	names := map[string]bool{}
	stIdx := map[string]int{}
	for k, sn := range stations {
		f := sn.Map("name", "type", "servers", "rates", "count", "demand", "visits", "service_time", "capacity")
		s := Station{Name: f["name"].String(), Kind: Queue, Count: 1}
		if s.Name == "" {
			s.Name = fmt.Sprintf("station%d", k+1)
		}
		if names[s.Name] {
			sn.Errorf("station name %q used twice", s.Name)
		}
		names[s.Name] = true
		stIdx[s.Name] = k
		if t := f["type"]; t.Valid() {
			kind, err := ParseKind(t.String())
			if err != nil {
				t.Errorf("%v", err)
			}
			s.Kind = kind
			if strings.EqualFold(strings.TrimSpace(t.String()), "ps") && kind == Queue {
				if mf.PS == nil {
					mf.PS = map[string]bool{}
				}
				mf.PS[s.Name] = true
				s.PS = true
			}
		}
		if sv := f["servers"]; sv.Valid() {
			if s.Kind != MultiServer {
				sv.Errorf("servers is only for type multiserver")
			}
			s.Servers = sv.Int(1, 1<<30)
		} else if s.Kind == MultiServer {
			sn.Errorf("type multiserver needs servers")
		}
		if rv := f["rates"]; rv.Valid() {
			if s.Kind != LoadDependent {
				rv.Errorf("rates is only for type ld")
			}
			for _, r := range rv.List() {
				s.Rates = append(s.Rates, r.Positive())
			}
		} else if s.Kind == LoadDependent {
			sn.Errorf("type ld needs rates: [α(1), α(2), …]")
		}
		if cv := f["count"]; cv.Valid() {
			s.Count = cv.Int(1, 1<<30)
		}
		if cv := f["capacity"]; cv.Valid() {
			if mf.Capacity == nil {
				mf.Capacity = make([]int, len(stations))
				mf.capNode = make([]spec.Node, len(stations))
			}
			mf.Capacity[k] = cv.Int(1, 1<<30)
			mf.capNode[k] = cv
		}
		dem, vis, st := f["demand"], f["visits"], f["service_time"]
		switch {
		case dem.Valid() && (vis.Valid() || st.Valid()):
			sn.Errorf("give demand, or service_time (with optional visits), not both")
		case dem.Valid():
			perClass(dem, spec.Node.Seconds, classIdx, C, func(c int, v float64) {
				m.Demand[c][k] = v
				in.demGiven[c][k] = true
				if v > 0 {
					visits[c][k] = 1
				}
			})
		case st.Valid():
			haveVisits = true
			sv := make([]float64, C)
			vv := make([]float64, C)
			for c := range vv {
				vv[c] = 1
			}
			perClass(st, spec.Node.Seconds, classIdx, C, func(c int, v float64) { sv[c] = v })
			if vis.Valid() {
				for c := range vv {
					vv[c] = 0
				}
				perClass(vis, spec.Node.NonNeg, classIdx, C, func(c int, v float64) { vv[c] = v; in.visGiven[c][k] = true })
			}
			for c := 0; c < C; c++ {
				in.svc[c][k] = sv[c]
				m.Demand[c][k] = vv[c] * sv[c]
				visits[c][k] = vv[c]
			}
		case vis.Valid():
			vis.Errorf("visits needs service_time")
		default:
			sn.Errorf("needs demand, or service_time (with optional visits)")
		}
		m.Stations = append(m.Stations, s)
	}
	nodeIdx := stIdx // stations, then fork/join nodes, by name
	if fn := top["fork_joins"]; fn.Valid() {
		nodeIdx = parseForkJoins(fn, m, stIdx)
		if !top["routing"].Valid() {
			fn.Errorf("fork/join nodes need a routing section that sends jobs to them")
		}
	}
	if rn := top["routing"]; rn.Valid() {
		haveVisits = true
		m.Routing, mf.Switch = parseRouting(rn, m, classIdx, nodeIdx, in)
	}
	if haveVisits {
		m.Visits = visits
	}
	if d.Err() == nil {
		checkDemands(m, top["classes"].List(), in)
	}
	mf.Model = m
	if mf.Capacity != nil && d.Err() == nil {
		mf.checkCapacity()
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, &spec.Error{File: file, Msg: err.Error()}
	}
	return mf, nil
}

// checkDemands refuses, at the line that caused it, a demand visits × service time that left
// the float64 range (0 or subnormal though both factors are non-zero, or +Inf) and a closed
// class with jobs that has no think time and no demand anywhere (its throughput would be
// unbounded). Hostile review: both gave exit 1 with no file or line.
func checkDemands(m *Model, classes []spec.Node, in *stationInputs) {
	for c := range m.Classes {
		for k, d := range m.Demand[c] {
			v, st := in.visits[c][k], in.svc[c][k]
			if v > 0 && st > 0 && (d == 0 || math.IsInf(d, 0) || d < 0x1p-1022) {
				in.nodes[k].Errorf("class %q: demand = visits %g × service_time %g s = %g is out of the float64 range (about 2.2e-308 to 1.8e308 s): express the times in another unit", m.Classes[c].Name, v, st, d)
			}
		}
	}
	for c, cl := range m.Classes {
		if cl.Open || cl.Population == 0 || cl.ThinkTime > 0 || c >= len(classes) {
			continue
		}
		tot := 0.0
		for _, d := range m.Demand[c] {
			tot += d
		}
		if tot == 0 {
			classes[c].Errorf("class %q has zero think time and zero demand at every station, so its throughput is unbounded: give it a think_time > 0 or a demand > 0 at some station", cl.Name)
		}
	}
}

// stationInputs is what the stations section gave per class c and station k, kept for the
// routing section: service time per visit, whether a demand or visits were given (both
// conflict with routing), and the visit counts (which routing fills in for routed classes).
type stationInputs struct {
	nodes              []spec.Node // the stations' nodes, for errors at their lines
	svc, visits        [][]float64
	demGiven, visGiven [][]bool
}

func newStationInputs(C int, nodes []spec.Node) *stationInputs {
	in := &stationInputs{nodes: nodes}
	for c := 0; c < C; c++ {
		in.svc = append(in.svc, make([]float64, len(nodes)))
		in.visits = append(in.visits, make([]float64, len(nodes)))
		in.demGiven = append(in.demGiven, make([]bool, len(nodes)))
		in.visGiven = append(in.visGiven, make([]bool, len(nodes)))
	}
	return in
}

// parseForkJoins reads the fork_joins list into m.ForkJoins and returns the node index:
// stations 0…K−1, then the fork/join nodes.
func parseForkJoins(fn spec.Node, m *Model, stIdx map[string]int) map[string]int {
	K := len(m.Stations)
	nodes := make(map[string]int, K)
	for name, k := range stIdx {
		nodes[name] = k
	}
	inBranch := map[int]string{}
	for i, n := range fn.List() {
		f := n.Map("name", "branches")
		fj := ForkJoin{Name: f["name"].String()}
		if fj.Name == "" {
			fj.Name = fmt.Sprintf("forkjoin%d", i+1)
		}
		if _, dup := nodes[fj.Name]; dup {
			f["name"].Errorf("name %q is already a station or fork/join node", fj.Name)
		}
		nodes[fj.Name] = K + len(m.ForkJoins)
		if !f["branches"].Valid() {
			n.Errorf("needs branches: [STATION, …]")
		}
		for _, b := range f["branches"].List() {
			name := b.String()
			k, ok := stIdx[name]
			switch {
			case !ok:
				b.Errorf("no station named %q", name)
			case inBranch[k] != "":
				b.Errorf("station %q is already a branch of fork/join %q", name, inBranch[k])
			default:
				inBranch[k] = fj.Name
				fj.Branches = append(fj.Branches, k)
			}
		}
		m.ForkJoins = append(m.ForkJoins, fj)
	}
	return nodes
}

// parseRouting reads the routing section (class → reference/arrivals and from: station →
// {station: probability}), solves each routed class's traffic equations into visits and sets
// its demands to visits × service time per visit.
func parseRouting(rn spec.Node, m *Model, classIdx, nodeIdx map[string]int, in *stationInputs) ([]*Routing, *ClassSwitch) {
	K := len(m.Stations)
	n := K + len(m.ForkJoins)
	var branches [][]int
	for _, fj := range m.ForkJoins {
		branches = append(branches, fj.Branches)
	}
	out := make([]*Routing, len(m.Classes))
	bad := false // a name did not resolve: the traffic equations would only add noise
	station := func(nd spec.Node, name string) int {
		k, ok := nodeIdx[name]
		if !ok {
			nd.Errorf("no station or fork/join node named %q", name)
			bad = true
			return -1
		}
		return k
	}
	var pend []pendingClass // routed classes whose visits are still to solve
	for _, cl := range sortedKeys(rn) {
		cname, cn := cl.key, cl.node
		bad = false
		c, ok := classIdx[cname]
		if !ok {
			cn.Errorf("no class named %q", cname)
			continue
		}
		open := m.Classes[c].Open
		f := cn.Map("reference", "arrivals", "from", "switch")
		r := &Routing{P: make([][]float64, n), Branches: branches}
		for i := range r.P {
			r.P[i] = make([]float64, n)
		}
		if !f["from"].Valid() && !f["switch"].Valid() {
			cn.Errorf("needs from: {STATION: {STATION: probability, …}, …}")
			bad = true
		}
		for _, src := range sortedKeys(f["from"]) {
			i := station(src.node, src.key)
			if !mapping(src.node, "{STATION: probability, …}") {
				bad = true
				continue
			}
			dsts := src.node.Map()
			for _, dst := range sortedKeysOf(dsts) {
				j := station(dsts[dst], dst)
				p := dsts[dst].NonNeg()
				if i >= 0 && j >= 0 {
					r.P[i][j] = p
				}
			}
		}
		if open {
			if ref := f["reference"]; ref.Valid() {
				ref.Errorf("an open class has no reference station; give arrivals")
			}
			r.Arrivals = make([]float64, n)
			an := f["arrivals"]
			if !an.Valid() {
				cn.Errorf("an open class needs arrivals: {STATION: share, …} (Σ = 1)")
				bad = true
			}
			for _, a := range sortedKeys(an) {
				if k := station(a.node, a.key); k >= 0 {
					r.Arrivals[k] = a.node.NonNeg()
				}
			}
		} else {
			if a := f["arrivals"]; a.Valid() {
				a.Errorf("a closed class has no arrivals; give reference (default: the first station)")
			}
			if ref := f["reference"]; ref.Valid() {
				if k := station(ref, ref.String()); k >= 0 {
					r.Reference = k
				}
			}
		}
		for k := 0; k < K; k++ {
			if in.demGiven[c][k] {
				in.nodes[k].Errorf("class %q is routed (routing:), so give its service_time here, not demand", cname)
			}
			if in.visGiven[c][k] {
				in.nodes[k].Errorf("the visits of class %q come from its routing; remove them here", cname)
			}
		}
		pend = append(pend, pendingClass{c: c, node: cn, sw: f["switch"], r: r, bad: bad})
	}
	if sw := readSwitches(pend, m, in, station); sw != nil {
		return nil, sw
	}
	for _, pc := range pend {
		c, cn, r, open := pc.c, pc.node, pc.r, m.Classes[pc.c].Open
		if pc.bad {
			continue
		}
		g := r.graph(func(k int) string {
			if k >= K {
				return fmt.Sprintf("fork/join %q", m.ForkJoins[k-K].Name)
			}
			return fmt.Sprintf("station %q", m.Stations[k].Name)
		})
		var V []float64
		var err error
		if open {
			V, err = g.openVisits(r.Arrivals)
		} else {
			V, err = g.closedVisits(r.Reference)
		}
		if err != nil {
			cn.Errorf("%v", err)
			continue
		}
		for k := 0; k < K; k++ {
			// a group of identical copies: a job routed to it goes to one copy at random, so
			// each copy gets 1/count of the group's visits (Visits and Demand are per copy)
			v := V[k] / float64(m.Stations[k].Copies())
			in.visits[c][k] = v
			m.Demand[c][k] = v * in.svc[c][k]
		}
		out[c] = r
	}
	return out, nil
}

type keyed struct {
	key  string
	node spec.Node
}

// sortedKeys returns the fields of a mapping node in key order (nothing if n is absent).
// mapping reports whether n is a mapping; otherwise it records "must be a mapping SHAPE" at
// n's line.
func mapping(n spec.Node, shape string) bool {
	if n.IsMap() {
		return true
	}
	n.Errorf("must be a mapping %s", shape)
	return false
}

func sortedKeys(n spec.Node) []keyed {
	if !n.Valid() {
		return nil
	}
	fields := n.Map()
	var out []keyed
	for _, k := range sortedKeysOf(fields) {
		out = append(out, keyed{k, fields[k]})
	}
	return out
}

func sortedKeysOf(m map[string]spec.Node) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// rate reads a rate in jobs per second with an optional unit per time (internal/units.Rate:
// 0.8, 0.8/s, 48/min), naming the line and the allowed forms otherwise.
func rate(n spec.Node) float64 {
	if !n.IsScalar() {
		n.Errorf("must be a rate such as 0.8, 0.8/s or 48/min")
		return 0
	}
	v, err := units.Rate(n.String())
	if err != nil {
		n.Errorf("%v", err)
		return 0
	}
	return v
}

// perClass reads a value (the same for every class) or a mapping class → value, each with
// read (spec.Node.Seconds for a time with an optional unit, NonNeg for a count ≥ 0).
func perClass(n spec.Node, read func(spec.Node) float64, classIdx map[string]int, C int, set func(c int, v float64)) {
	if n.IsMap() {
		fields := n.Map()
		for _, name := range sortedKeysOf(fields) {
			v := fields[name]
			c, ok := classIdx[name]
			if !ok {
				v.Errorf("no class named %q", name)
				continue
			}
			set(c, read(v))
		}
		return
	}
	v := read(n)
	for c := 0; c < C; c++ {
		set(c, v)
	}
}

package qn

import (
	"fmt"
	"math"
	"strings"

	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/modelfile"
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
	doc, err := modelfile.Parse(file, data)
	if err != nil {
		return nil, "", err
	}
	return DecodeModel(doc)
}

// DecodeModel is ParseModel of a file already read by modelfile.Parse: for a caller that
// looked at the top level first (explore tells a model's kind by its keys and decodes the
// one tree: TestLoadParsesOnce).
func DecodeModel(doc *modelfile.Doc) (*Model, string, error) {
	f, err := DecodeModelFile(doc)
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
	doc, err := modelfile.Parse(file, data)
	if err != nil {
		return nil, err
	}
	return DecodeModelFile(doc)
}

// DecodeModelFile is ParseModelFile of a file already read by modelfile.Parse.
func DecodeModelFile(doc *modelfile.Doc) (*ModelFile, error) {
	d, root := spec.Tree(doc)
	fd := &fileDecoder{mf: &ModelFile{File: d.File}, m: &Model{}, classIdx: map[string]int{}}
	var classes []spec.Node
	top := root.Decode(
		spec.Text("name", &fd.mf.Name),
		spec.Func("classes", func(n spec.Node) { classes = n.List(); fd.classes(classes) }).Required("missing field classes"),
		spec.Func("stations", fd.stations).Required("missing field stations"),
		spec.Key("fork_joins"), spec.Key("routing"),
	)
	if fd.in == nil {
		fd.stations(spec.Node{}) // no stations section: the per-class tables are still needed
	}
	m := fd.m
	nodeIdx := fd.stIdx // stations, then fork/join nodes, by name
	if fn, ok := top["fork_joins"]; ok {
		nodeIdx = parseForkJoins(fn, m, fd.stIdx)
		if _, ok := top["routing"]; !ok {
			fn.Errorf("fork/join nodes need a routing section that sends jobs to them")
		}
	}
	if rn, ok := top["routing"]; ok {
		fd.haveVisits = true
		m.Routing, fd.mf.Switch = parseRouting(rn, m, fd.classIdx, nodeIdx, fd.in)
	}
	if fd.haveVisits {
		m.Visits = fd.in.visits
	}
	if d.Err() == nil {
		checkDemands(m, classes, fd.in)
	}
	fd.mf.Model = m
	if fd.mf.Capacity != nil && d.Err() == nil {
		fd.mf.checkCapacity()
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, &spec.Error{File: d.File, Msg: err.Error()}
	}
	return fd.mf, nil
}

// fileDecoder is the state of one model file's decoding: the file and model so far, the
// classes and stations by name, and what the stations section gave for the routing section.
type fileDecoder struct {
	mf              *ModelFile
	m               *Model
	classIdx, stIdx map[string]int
	in              *stationInputs
	haveVisits      bool // visits given (service_time) or solved (routing)
}

// classes reads the classes section: each closed (population, think_time) or open
// (arrival_rate), with a name used once (default classN).
func (fd *fileDecoder) classes(list []spec.Node) {
	for i, cn := range list {
		var c Class
		f := cn.Decode(
			spec.Text("name", &c.Name),
			spec.Int("population", &c.Population, 0, 100_000_000),
			spec.Float("think_time", &c.ThinkTime, spec.Time),
			spec.Float("arrival_rate", &c.ArrivalRate, spec.JobRate),
		)
		if c.Name == "" {
			c.Name = fmt.Sprintf("class%d", i+1)
		}
		if _, dup := fd.classIdx[c.Name]; dup {
			cn.Errorf("class name %q used twice", c.Name)
		}
		fd.classIdx[c.Name] = i
		if cn.OneOf(f, "needs population (closed class) or arrival_rate (open class)", "give population (closed class) or arrival_rate (open class), not both", "population", "arrival_rate") == "arrival_rate" {
			c.Open = true
			if t, ok := f["think_time"]; ok {
				t.Errorf("an open class has no think time")
			}
		}
		fd.m.Classes = append(fd.m.Classes, c)
	}
}

// stations reads the stations section: each station's kind and its kind's parameters, its
// copies and capacity, and its demands (demand, or service_time with optional visits).
func (fd *fileDecoder) stations(n spec.Node) {
	m, C := fd.m, len(fd.m.Classes)
	list := n.List()
	fd.in = newStationInputs(C, list)
	fd.stIdx = map[string]int{}
	m.Demand = make([][]float64, C)
	for c := range m.Demand {
		m.Demand[c] = make([]float64, len(list))
	}
	for k, sn := range list {
		s := fd.station(k, sn, len(list))
		if _, dup := fd.stIdx[s.Name]; dup {
			sn.Errorf("station name %q used twice", s.Name)
		}
		fd.stIdx[s.Name] = k
		m.Stations = append(m.Stations, s)
	}
}

// station reads station k of K: its fields, the rules between them, and its demands.
func (fd *fileDecoder) station(k int, sn spec.Node, K int) Station {
	s := Station{Kind: Queue, Count: 1}
	f := sn.Decode(
		spec.Text("name", &s.Name),
		spec.Parsed("type", &s.Kind, ParseKind),
		spec.Int("servers", &s.Servers, 1, 1<<30),
		spec.Func("rates", func(n spec.Node) {
			for _, r := range n.List() {
				s.Rates = append(s.Rates, r.Positive())
			}
		}),
		spec.Int("count", &s.Count, 1, 1<<30),
		spec.Func("capacity", func(n spec.Node) {
			if fd.mf.Capacity == nil {
				fd.mf.Capacity, fd.mf.capNode = make([]int, K), make([]spec.Node, K)
			}
			fd.mf.Capacity[k], fd.mf.capNode[k] = n.Int(1, 1<<30), n
		}),
		spec.Key("demand"), spec.Key("visits"), spec.Key("service_time"),
	)
	if s.Name == "" {
		s.Name = fmt.Sprintf("station%d", k+1)
	}
	if t, ok := f["type"]; ok && s.Kind == Queue && strings.EqualFold(strings.TrimSpace(t.String()), "ps") {
		if fd.mf.PS == nil {
			fd.mf.PS = map[string]bool{}
		}
		fd.mf.PS[s.Name], s.PS = true, true
	}
	onlyFor(sn, f, "servers", s.Kind == MultiServer, "servers is only for type multiserver", "type multiserver needs servers")
	onlyFor(sn, f, "rates", s.Kind == LoadDependent, "rates is only for type ld", "type ld needs rates: [α(1), α(2), …]")
	fd.demands(k, sn, f)
	return s
}

// onlyFor checks a field that belongs to one kind of station (kind: the station is of that
// kind): recorded at the field when given to another kind (other), at the station when
// missing from its kind (missing).
func onlyFor(sn spec.Node, f map[string]spec.Node, key string, kind bool, other, missing string) {
	v, ok := f[key]
	switch {
	case ok && !kind:
		v.Errorf("%s", other)
	case !ok && kind:
		sn.Errorf("%s", missing)
	}
}

// demands reads station k's demands: demand (seconds per job, for every class or per class),
// or service_time (per visit) with optional visits (default 1).
func (fd *fileDecoder) demands(k int, sn spec.Node, f map[string]spec.Node) {
	m, in, C := fd.m, fd.in, len(fd.m.Classes)
	dem, vis, st := f["demand"], f["visits"], f["service_time"]
	switch {
	case dem.Valid() && (vis.Valid() || st.Valid()):
		sn.Errorf("give demand, or service_time (with optional visits), not both")
	case dem.Valid():
		dem.PerName("class", fd.classIdx, C, spec.Time, func(c int, v float64) {
			m.Demand[c][k] = v
			in.demGiven[c][k] = true
			if v > 0 {
				in.visits[c][k] = 1
			}
		})
	case st.Valid():
		fd.haveVisits = true
		vv := make([]float64, C)
		for c := range vv {
			vv[c] = 1
		}
		st.PerName("class", fd.classIdx, C, spec.Time, func(c int, v float64) { in.svc[c][k] = v })
		if vis.Valid() {
			clear(vv)
			vis.PerName("class", fd.classIdx, C, spec.NonNegative, func(c int, v float64) { vv[c] = v; in.visGiven[c][k] = true })
		}
		for c := 0; c < C; c++ {
			m.Demand[c][k] = vv[c] * in.svc[c][k]
			in.visits[c][k] = vv[c]
		}
	case vis.Valid():
		vis.Errorf("visits needs service_time")
	default:
		sn.Errorf("needs demand, or service_time (with optional visits)")
	}
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
		var fj ForkJoin
		var branches []spec.Node
		f := n.Decode(spec.Text("name", &fj.Name),
			spec.Func("branches", func(b spec.Node) { branches = b.List() }).Required("needs branches: [STATION, …]"))
		if fj.Name == "" {
			fj.Name = fmt.Sprintf("forkjoin%d", i+1)
		}
		if _, dup := nodes[fj.Name]; dup {
			at := n // a default name (forkjoinN) has no field of its own
			if v, ok := f["name"]; ok {
				at = v
			}
			at.Errorf("name %q is already a station or fork/join node", fj.Name)
		}
		nodes[fj.Name] = K + len(m.ForkJoins)
		for _, b := range branches {
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

// routeDecoder reads the routing section: the nodes (stations, then fork/join nodes) by
// name, and whether a name of the class being read did not resolve (its traffic equations
// would only add noise).
type routeDecoder struct {
	nodeIdx map[string]int
	bad     bool
}

// station is the index of the node named name, or −1 (recorded at nd).
func (rd *routeDecoder) station(nd spec.Node, name string) int {
	k := nd.Named("station or fork/join node", rd.nodeIdx, name)
	if k < 0 {
		rd.bad = true
	}
	return k
}

// parseRouting reads the routing section (class → reference/arrivals and from: station →
// {station: probability}), solves each routed class's traffic equations into visits and sets
// its demands to visits × service time per visit; with class switching (switch: rows) the
// visits are the chains' (readSwitches).
func parseRouting(rn spec.Node, m *Model, classIdx, nodeIdx map[string]int, in *stationInputs) ([]*Routing, *ClassSwitch) {
	rd := &routeDecoder{nodeIdx: nodeIdx}
	var pend []pendingClass // routed classes whose visits are still to solve
	for _, cl := range rn.Entries() {
		c := cl.Node.Named("class", classIdx, cl.Key)
		if c < 0 {
			continue
		}
		rd.bad = false
		pc := rd.classRouting(c, cl.Node, m)
		for k := range m.Stations {
			if in.demGiven[c][k] {
				in.nodes[k].Errorf("class %q is routed (routing:), so give its service_time here, not demand", cl.Key)
			}
			if in.visGiven[c][k] {
				in.nodes[k].Errorf("the visits of class %q come from its routing; remove them here", cl.Key)
			}
		}
		pend = append(pend, pc)
	}
	if sw := readSwitches(pend, m, in, rd.station); sw != nil {
		return nil, sw
	}
	out := make([]*Routing, len(m.Classes))
	for _, pc := range pend {
		if !pc.bad && solveVisits(pc, m, in) {
			out[pc.c] = pc.r
		}
	}
	return out, nil
}

// classRouting reads class c's routing entry cn: its from: rows (station → {station:
// probability}), and where a cycle is counted (closed: reference) or jobs enter (open:
// arrivals).
func (rd *routeDecoder) classRouting(c int, cn spec.Node, m *Model) pendingClass {
	n := len(m.Stations) + len(m.ForkJoins)
	r := &Routing{P: make([][]float64, n)}
	for _, fj := range m.ForkJoins {
		r.Branches = append(r.Branches, fj.Branches)
	}
	for i := range r.P {
		r.P[i] = make([]float64, n)
	}
	f := cn.Decode(spec.Key("reference"), spec.Key("arrivals"), spec.Key("from"), spec.Key("switch"))
	if !f["from"].Valid() && !f["switch"].Valid() {
		cn.Errorf("needs from: {STATION: {STATION: probability, …}, …}")
		rd.bad = true
	}
	for _, src := range f["from"].Entries() {
		i := rd.station(src.Node, src.Key)
		if !src.Node.Mapping("{STATION: probability, …}") {
			rd.bad = true
			continue
		}
		for _, dst := range src.Node.Entries() {
			if j, p := rd.station(dst.Node, dst.Key), dst.Node.NonNeg(); i >= 0 && j >= 0 {
				r.P[i][j] = p
			}
		}
	}
	rd.endpoints(r, m.Classes[c].Open, cn, f["reference"], f["arrivals"])
	return pendingClass{c: c, node: cn, sw: f["switch"], r: r, bad: rd.bad}
}

// endpoints reads where a class's cycle is counted (closed: reference, default the first
// station) or where its jobs enter (open: arrivals, shares that sum to 1) into r.
func (rd *routeDecoder) endpoints(r *Routing, open bool, cn, ref, arr spec.Node) {
	if !open {
		if arr.Valid() {
			arr.Errorf("a closed class has no arrivals; give reference (default: the first station)")
		}
		if ref.Valid() {
			if k := rd.station(ref, ref.String()); k >= 0 {
				r.Reference = k
			}
		}
		return
	}
	if ref.Valid() {
		ref.Errorf("an open class has no reference station; give arrivals")
	}
	r.Arrivals = make([]float64, len(r.P))
	if !arr.Valid() {
		cn.Errorf("an open class needs arrivals: {STATION: share, …} (Σ = 1)")
		rd.bad = true
	}
	for _, a := range arr.Entries() {
		if k := rd.station(a.Node, a.Key); k >= 0 {
			r.Arrivals[k] = a.Node.NonNeg()
		}
	}
}

// solveVisits solves a routed class's traffic equations (closed: one cycle = one visit to
// the reference; open: the arrival shares) into its visits and demands (visits × service
// time per visit); a station group of count copies shares the visits (each copy gets
// 1/count). It reports whether the equations were solved; otherwise the problem is recorded.
func solveVisits(pc pendingClass, m *Model, in *stationInputs) bool {
	c, r, K := pc.c, pc.r, len(m.Stations)
	g := r.graph(func(k int) string {
		if k >= K {
			return fmt.Sprintf("fork/join %q", m.ForkJoins[k-K].Name)
		}
		return fmt.Sprintf("station %q", m.Stations[k].Name)
	})
	var V []float64
	var err error
	if m.Classes[c].Open {
		V, err = g.openVisits(r.Arrivals)
	} else {
		V, err = g.closedVisits(r.Reference)
	}
	if err != nil {
		pc.node.Errorf("%v", err)
		return false
	}
	for k := 0; k < K; k++ {
		v := V[k] / float64(m.Stations[k].Copies()) // Visits and Demand are per copy
		in.visits[c][k] = v
		m.Demand[c][k] = v * in.svc[c][k]
	}
	return true
}

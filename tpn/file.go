package tpn

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/internal/units"
	"github.com/clusterperf/clusterperf/sim"
)

// ProgramFormat documents the program and cluster files (shown by `clusterperf help tpn`).
const ProgramFormat = `A program file (YAML) describes processes as segments, without Petri nets:

  name: ring of 4 processes
  processes:
    - name: P{i}              # {i}, {next}, {prev}, {last} are replaced for each copy
      count: 4                # replicate the process (default 1)
      segments:
        - compute: 0.5        # seconds of dedicated CPU on the cluster's reference machine
        - compute_ops: 2e9    # … or operations (needs the cluster's reference_rate)
        - send: {to: "P{next}", bytes: 80000, count: 1}   # blocking: true waits for the
                                                           # receive; network: NAME picks one
        - loop:
            count: 3          # known iteration count (a counter-place subnet: any count
            body:             # up to 16777216 gives a net of the same size)
              - recv: {from: "P{prev}"}
              - compute: 0.25
  allocation: {P0: fast, P1: slow}   # process → workstation (default: round robin)

A cluster file describes the workstations and the network:

  reference: fast            # where compute work is measured (default: the one with power 1)
  reference_rate: 4e9        # its operations per second (for compute_ops)
  workstations:
    - name: fast
      power: 1               # power weight ρ = t_fastest/t_x, or give benchmark_time
    - name: slow
      benchmark_time: 14.2   # seconds for the serial benchmark (the fastest's time / this = ρ)
      background:            # background job streams: U = Σ λ·D, expansion 1/(1 − U)
        - {arrival_rate: 0.2, demand: 1.5}
        # --background sampled draws the jobs during the run: arrivals and demands are the
        # distributions of the inter-arrival times and CPU demands, with the means above
        # (default exponential; gamma:SHAPE 0.01…1e6, hyperexp:SCV ≤ 1e4, erlang:K,
        # pareto:ALPHA > 1, lognormal:SCV ≤ 1e4, deterministic, uniform, empirical:v1;v2;…;
        # sim.ParseDist's bounds). A sampled run needs each SCV ≤ 100 (MaxSampledSCV:
        # pareto α ≥ 2.005); the mean expansion takes any of them.
        - {arrival_rate: 0.1, demand: 1.0, arrivals: exponential, demands: gamma:0.5}
  network:
    startup: 1ms             # t_s (units: s, ms, us)
    bandwidth: 1.25MB/s      # B
    shared: true             # Ethernet-like: k transfers in progress share B
    policy: static           # static (k fixed when a transfer starts) | fluid (re-shared)
    # measured instead of given (002 §3: sample means of repeated benchmark runs): the time
    # is printed at the means with an interval from their uncertainty (network_interval):
    #   startup_samples: [1.1ms, 0.9ms, 1.0ms]        # ≥ 2 runs each, replacing startup
    #   bandwidth_samples: [1.2MB/s, 1.3MB/s, 1.25MB/s]
    # or OSU/IMB outputs (paths relative to this file; t_s from osu_latency / IMB PingPong,
    # B from osu_bw / osu_bibw or else the latency table's slope), replacing both:
    #   benchmark: [osu_latency.txt, osu_bw.txt]
  # or several networks, each with its own startup and bandwidth; a send picks one with
  # network: NAME (default: the first):
  # networks:
  #   - {name: eth, startup: 1ms, bandwidth: 1.25MB/s, shared: true}
  #   - {name: myrinet, startup: 10us, bandwidth: 160MB/s}

Without network (or networks) the cluster has none: a program that sends is refused.`

// ParseProgram decodes a program file within the default budgets.
func ParseProgram(file string, data []byte) (*Program, error) {
	return ParseProgramWith(file, data, BuildOptions{})
}

// ParseProgramWith decodes a program file, refusing (fault.ErrTooLarge) replicated processes
// whose segments would exceed o.MaxTransitions before copying them.
func ParseProgramWith(file string, data []byte, o BuildOptions) (*Program, error) {
	limit := o.MaxTransitions
	if limit <= 0 {
		limit = DefaultMaxTransitions
	}
	d, root, err := spec.Parse(file, data)
	if err != nil {
		return nil, asInput(err)
	}
	p := &Program{Allocation: map[string]string{}, AllocationLines: map[string]int{}, File: file}
	top := root.Decode(
		spec.Text("name", &p.Name),
		spec.Key("processes").Required("missing processes"),
		spec.Func("allocation", func(a spec.Node) {
			for _, e := range a.Entries() {
				p.Allocation[e.Key], p.AllocationLines[e.Key] = e.Node.String(), e.Node.Line()
			}
		}),
	)
	total := 0.0 // segments after replication, checked before replicating
	for _, pn := range top["processes"].List() {
		name, count := "", 1
		f := pn.Decode(spec.Text("name", &name), spec.Int("count", &count, 1, 1_000_000), spec.Key("segments"))
		if name == "" {
			pn.Errorf("a process needs a name")
		}
		first := parseSegments(f["segments"]) // peers unexpanded: a template for every copy
		total += float64(count) * float64(1+countSegments(first))
		if total > float64(limit) {
			n := pn
			if c, ok := f["count"]; ok {
				n = c
			}
			return nil, fmt.Errorf("%w: %w", fault.ErrTooLarge, &spec.Error{File: file, Line: n.Line(), Msg: fmt.Sprintf("%s: %d copies of a process of %d segments make about %.4g segments in all; the limit is %d (BuildOptions.MaxTransitions, --max-transitions)", n.Path, count, countSegments(first), total, limit)})
		}
		if d.Err() != nil {
			count = 1 // the copies would repeat the same errors
		}
		p.Processes = slices.Grow(p.Processes, count)
		for i := 0; i < count; i++ {
			p.Processes = append(p.Processes, Process{Name: expand(name, i, count), Line: pn.Line(), Segments: instantiate(first, i, count)})
		}
	}
	if err := d.Err(); err != nil {
		return nil, asInput(err)
	}
	if len(p.Processes) == 0 {
		return nil, asInput(&spec.Error{File: file, Line: top["processes"].Line(), Msg: "no processes"})
	}
	return p, nil
}

// countSegments counts the segment nodes of a parsed body (a loop and its body's segments).
func countSegments(segs []Segment) int {
	n := 0
	for _, s := range segs {
		n++
		if s.Loop != nil {
			n += countSegments(s.Loop.Body)
		}
	}
	return n
}

// instantiate copies a segment template for copy i of count, expanding the peers' names.
func instantiate(segs []Segment, i, count int) []Segment {
	out := make([]Segment, len(segs))
	for k, s := range segs {
		switch {
		case s.Send != nil:
			m := *s.Send
			m.Peer = expand(m.Peer, i, count)
			s.Send = &m
		case s.Recv != nil:
			m := *s.Recv
			m.Peer = expand(m.Peer, i, count)
			s.Recv = &m
		case s.Loop != nil:
			s.Loop = &Loop{Count: s.Loop.Count, Body: instantiate(s.Loop.Body, i, count)}
		}
		out[k] = s
	}
	return out
}

// parseSegments reads a list of segments, each exactly one of compute (seconds), compute_ops
// (operations), send, recv and loop.
func parseSegments(n spec.Node) []Segment {
	var out []Segment
	for _, sn := range n.List() {
		f := sn.Decode(spec.Key("compute"), spec.Key("compute_ops"), spec.Key("send"), spec.Key("recv"), spec.Key("loop"))
		if len(f) != 1 {
			sn.Errorf("a segment is exactly one of compute, send, recv, loop")
			continue
		}
		s := Segment{Line: sn.Line()}
		sn.Decode(
			spec.Float("compute", &s.Compute, spec.NonNegative),
			spec.Float("compute_ops", &s.Ops, spec.NonNegative),
			spec.Func("send", func(m spec.Node) {
				s.Send = &Message{Count: 1}
				m.Decode(spec.Text("to", &s.Send.Peer).Required("send needs to"), spec.Float("bytes", &s.Send.Bytes, spec.NonNegative),
					spec.Int("count", &s.Send.Count, 1, 1<<30), spec.Bool("blocking", &s.Send.Blocking), spec.Text("network", &s.Send.Network))
			}),
			spec.Func("recv", func(m spec.Node) {
				s.Recv = &Message{Count: 1}
				m.Decode(spec.Text("from", &s.Recv.Peer).Required("recv needs from"), spec.Int("count", &s.Recv.Count, 1, 1<<30))
			}),
			spec.Func("loop", func(l spec.Node) {
				s.Loop = &Loop{}
				l.Decode(spec.Int("count", &s.Loop.Count, 0, 1<<24), spec.Func("body", func(b spec.Node) { s.Loop.Body = parseSegments(b) }))
			}),
		)
		out = append(out, s)
	}
	return out
}

// parseDist decodes a background distribution (sim.ParseDist's names; absent: exponential).
func parseDist(n spec.Node) sim.Dist {
	if !n.Valid() {
		return nil
	}
	d, err := sim.ParseDist(n.String())
	if err != nil {
		n.Errorf("%v", err)
		return nil
	}
	return d
}

// parseMedium decodes one network (named, in a networks: list).
func parseMedium(nn spec.Node, named bool, read ReadFunc) Medium {
	m := Medium{Name: "network"}
	fields := []spec.Field{
		spec.Float("startup", &m.Startup, startupTime),
		spec.Float("bandwidth", &m.Bandwidth, bandwidth),
		spec.Bool("shared", &m.Shared),
		spec.Parsed("policy", &m.Policy, parsePolicy),
		spec.Key("startup_samples"), spec.Key("bandwidth_samples"), spec.Key("benchmark"),
	}
	if named {
		m.Name = ""
		fields = append(fields, spec.Text("name", &m.Name))
	}
	net := nn.Decode(fields...)
	if named && m.Name == "" {
		nn.Errorf("a network in a list needs a name")
	}
	if nn.IsMap() && !net["bandwidth"].Valid() && !net["bandwidth_samples"].Valid() && !net["benchmark"].Valid() {
		nn.Errorf("missing bandwidth (or bandwidth_samples, or benchmark)")
	}
	parseSamples(nn, net, &m)
	parseBenchmark(net, &m, read)
	return m
}

// startupTime reads a network's startup t_s: a time (units) in 0 … MaxSeconds.
func startupTime(v spec.Node) float64 {
	t, err := units.Duration(v.String())
	switch {
	case err != nil:
		v.Errorf("%v", err)
	case !(t >= 0) || t > MaxSeconds:
		v.Errorf("startup %g s (allowed: 0 … %.4g s)", t, MaxSeconds)
	default:
		return t
	}
	return 0
}

// bandwidth reads a network's bandwidth B: bytes per second (units), finite and > 0.
func bandwidth(v spec.Node) float64 {
	b, err := units.Bandwidth(v.String())
	switch {
	case err != nil:
		v.Errorf("%v", err)
	case !(b > 0) || math.IsInf(b, 0):
		v.Errorf("bandwidth %g B/s (allowed: a finite number > 0)", b)
	default:
		return b
	}
	return 0
}

// parsePolicy reads a shared network's policy: static or fluid (any case).
func parsePolicy(s string) (SharePolicy, error) {
	switch strings.ToLower(s) {
	case "static":
		return StaticAtStart, nil
	case "fluid":
		return FluidSharing, nil
	}
	return StaticAtStart, fmt.Errorf("policy %q: want static or fluid", s)
}

// parseSamples decodes a network's measured startup and bandwidth (startup_samples,
// bandwidth_samples: repeated benchmark runs, 002 §3): the point value is the sample mean,
// kept with its standard error for NetworkBounds. A constant and samples of the same
// parameter are refused together.
func parseSamples(nn spec.Node, net map[string]spec.Node, m *Medium) {
	read := func(key, constant string, parse func(spec.Node) float64) *MeanEstimate {
		v, ok := net[key]
		if !ok {
			return nil
		}
		if net[constant].Valid() {
			v.Errorf("give %s or %s, not both", constant, key)
			return nil
		}
		items := v.List()
		if len(items) < 2 || len(items) > MaxNetSamples {
			v.Errorf("%d samples: an interval needs 2 to %d", len(items), MaxNetSamples)
			return nil
		}
		xs := make([]float64, len(items))
		for i, it := range items {
			xs[i] = parse(it)
		}
		e := sampleMean(xs)
		if math.IsInf(e.Mean, 0) || math.IsNaN(e.StdErr) || math.IsInf(e.StdErr, 0) {
			v.Errorf("the samples' mean or spread is not finite")
			return nil
		}
		return &e
	}
	st := read("startup_samples", "startup", func(n spec.Node) float64 {
		t := n.Seconds()
		if t > MaxSeconds {
			n.Errorf("startup %g s (allowed: 0 … %.4g s)", t, MaxSeconds)
		}
		return t
	})
	bw := read("bandwidth_samples", "bandwidth", func(n spec.Node) float64 {
		b := n.BytesPerSecond()
		if !(b > 0) {
			n.Errorf("bandwidth %g B/s (allowed: a finite number > 0)", b)
		}
		return b
	})
	if st == nil && bw == nil {
		return
	}
	m.Uncertainty = &NetUncertainty{Source: "samples", Startup: st, Bandwidth: bw, Line: nn.Line()}
	if st != nil {
		m.Startup = st.Mean
	}
	if bw != nil {
		m.Bandwidth = bw.Mean
	}
}

// ReadFunc reads a file a cluster file names (a network's benchmark outputs), by its path
// relative to the cluster file's directory joined already.
type ReadFunc func(path string) ([]byte, error)

// parseWorkstations decodes the workstations into c: power weights (given, or from
// benchmark times against the fastest) and background streams or logs.
func parseWorkstations(c *Cluster, list []spec.Node, read ReadFunc) {
	type bench struct {
		i int
		t float64
		n spec.Node
	}
	var benches []bench
	for _, wn := range list {
		w := Workstation{Line: wn.Line()}
		f := wn.Decode(
			spec.Text("name", &w.Name),
			spec.Key("power"), spec.Key("benchmark_time"),
			spec.Func("background", func(bs spec.Node) {
				for _, bn := range bs.List() {
					var b BgClass
					bn.Decode(spec.Float("arrival_rate", &b.ArrivalRate, spec.NonNegative), spec.Float("demand", &b.Demand, spec.NonNegative),
						spec.Func("arrivals", func(n spec.Node) { b.Arrivals = parseDist(n) }), spec.Func("demands", func(n spec.Node) { b.Demands = parseDist(n) }))
					w.Background = append(w.Background, b)
				}
			}),
			spec.Key("background_log"),
		)
		if w.Name == "" {
			wn.Errorf("a workstation needs a name")
		}
		switch wn.OneOf(f, "needs power or benchmark_time", "give power or benchmark_time, not both", "power", "benchmark_time") {
		case "power":
			w.Power = f["power"].Positive()
			if w.Power > 1 {
				f["power"].Errorf("%v: power weights are relative to the fastest workstation (≤ 1)", w.Power)
			}
		case "benchmark_time":
			benches = append(benches, bench{len(c.Workstations), f["benchmark_time"].Positive(), f["benchmark_time"]})
		}
		if bl, ok := f["background_log"]; ok {
			if f["background"].Valid() {
				bl.Errorf("give background or background_log, not both")
			}
			w.Background, w.Classes = parseBackgroundLog(bl, read)
		}
		if u := w.Utilization(); !(u < 1) {
			wn.Errorf("workstation %q: background utilization %.3g ≥ 1 saturates the CPU (allowed: Σ arrival_rate·demand < 1)", w.Name, u)
		}
		for _, o := range c.Workstations {
			if o.Name == w.Name && w.Name != "" {
				f["name"].Errorf("workstation %q defined twice", w.Name)
			}
		}
		c.Workstations = append(c.Workstations, w)
	}
	if len(benches) > 0 {
		fastest := benches[0].t
		for _, b := range benches {
			fastest = min(fastest, b.t)
		}
		for _, b := range benches {
			if b.t > 0 {
				c.Workstations[b.i].Power = fastest / b.t
				if !(c.Workstations[b.i].Power > 0) {
					b.n.Errorf("benchmark time %g s against the fastest %g s gives a power weight that underflows to 0", b.t, fastest)
				}
			}
		}
	}
}

// ParseCluster decodes a cluster file; a network's benchmark: files are refused (no reader:
// ParseClusterWith reads them).
func ParseCluster(file string, data []byte) (*Cluster, error) {
	return ParseClusterWith(file, data, nil)
}

// ParseClusterWith decodes a cluster file, reading the benchmark outputs its networks name
// with read (paths relative to the cluster file's directory).
func ParseClusterWith(file string, data []byte, read ReadFunc) (*Cluster, error) {
	if read != nil {
		dir, r := filepath.Dir(file), read
		read = func(p string) ([]byte, error) {
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			return r(p)
		}
	}
	d, root, err := spec.Parse(file, data)
	if err != nil {
		return nil, asInput(err)
	}
	c := &Cluster{File: file}
	top := root.Decode(
		spec.Text("name", &c.Name),
		spec.Text("reference", &c.Reference),
		spec.Float("reference_rate", &c.ReferenceRate, spec.Greater0),
		spec.Func("workstations", func(n spec.Node) { parseWorkstations(c, n.List(), read) }),
		spec.Key("network"), spec.Key("networks"),
	)
	c.ReferenceLine = top["reference"].Line()
	// No network: no default is invented (it used to be a silent 1e12 B/s); a program that
	// sends or receives on such a cluster is refused by Build, naming the message's line.
	if top["network"].Valid() && top["networks"].Valid() {
		top["networks"].Errorf("give network or networks, not both")
	}
	if nn := top["network"]; nn.Valid() {
		c.Network = parseMedium(nn, false, read)
	} else {
		c.Network = Medium{Name: "network"}
	}
	for _, nn := range top["networks"].List() {
		m := parseMedium(nn, true, read)
		for _, o := range c.Networks {
			if o.Name == m.Name && m.Name != "" {
				nn.Errorf("network %q defined twice", m.Name)
			}
		}
		c.Networks = append(c.Networks, m)
	}
	if top["networks"].Valid() && len(c.Networks) == 0 {
		top["networks"].Errorf("an empty list of networks")
	}
	if c.Reference != "" {
		found := false
		for _, w := range c.Workstations {
			found = found || w.Name == c.Reference
		}
		if !found {
			top["reference"].Errorf("reference workstation %q is not one of the workstations", c.Reference)
		}
	}
	if err := d.Err(); err != nil {
		return nil, asInput(err)
	}
	if len(c.Workstations) == 0 {
		return nil, asInput(&spec.Error{File: file, Line: top["workstations"].Line(), Msg: "no workstations"})
	}
	return c, nil
}

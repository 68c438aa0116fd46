package pipeline

import (
	"github.com/clusterperf/clusterperf/internal/spec"
)

// FileFormat documents the model file read by ParseModel (shown by `clusterperf help pipeline`).
const FileFormat = `A pipeline model file is YAML (or JSON). Sizes are in elements, bandwidths in elements
per second, times in seconds (latencies and fixed seconds also take 30ms, 150us, …; memory
sizes take 64MB, 1GiB, …). Ranges, so that every prediction is finite: n and block 1 … 1e15
elements, bandwidths 1e-6 … 1e15 elements/s, constants c 1e-15 … 1e6 s, latencies and fixed
times 0 … 1e9 s, p ≤ 1e9.

Either the parallel sort of 003 by its constants:

  name: parallel integer sort (003)
  n: 2e7                    # job size N, elements
  block: 65536              # block size s, elements (at most n)
  sort:
    c_q: 0.066e-6           # quicksort constant: t_proc(s) = c_q·s·ln s
    c_m: 0.04e-6            # merge constant: t_local = c_m·N/p, b_resolution = s·p/(c_m(N + s·p²))
    b_io: 0.54e6            # storage bandwidth
    l_n: 0.030              # network latency, s
    b_n: 1.2e6              # network bandwidth: b_dist = s/(l_n + s/b_n)
    b_gather: 0.387e6       # gathering bandwidth at the sink node
  memory:                   # optional: flag predictions whose data overflow a node
    node_bytes: 64MB
    bytes_per_element: 4    # a worker holds one copy of its N/p elements (p ≥ 2)
    bytes_per_element_p1: 8 # a lone node also gathers and merges: two copies (default: as above)

or any job as overlapped stages, each bounded by its slowest bandwidth, plus fixed terms:

  n: 1e8
  block: 1e6
  stages:
    - name: read
      bandwidths:
        - {name: disk, kind: constant, value: 2e6}
        - {name: network, kind: distribution, latency: 0.001, bandwidth: 1e7}
        - {name: sorting, kind: processing, c: 1e-8}        # 1/(c·ln s)
        - {name: workers, kind: per_node, value: 5e5}       # value·p
    - name: write
      bandwidths:
        - {name: disk, kind: constant, value: 2e6}
        - {name: merge, kind: merge, c: 2e-8}               # s·p/(c(N + s·p²))
  fixed:
    - {name: last block, kind: block_sort, c: 1e-8}          # c·s·ln s
    - {name: local merge, kind: local, c: 2e-8}              # c·N/p
    - {name: start-up, kind: seconds, value: 0.5}`

// ParseModel decodes a pipeline model file; errors carry the file name and line.
func ParseModel(file string, data []byte) (*Model, *SortParams, error) {
	d, root, err := spec.Parse(file, data)
	if err != nil {
		return nil, nil, err
	}
	return DecodeModel(d, root)
}

// DecodeModel is ParseModel of a file already read by spec.Parse (d, root): for a caller
// that looked at the top level first (explore tells a model's kind by its keys).
func DecodeModel(d *spec.Decoder, root spec.Node) (*Model, *SortParams, error) {
	top := root.Map("name", "n", "block", "sort", "stages", "fixed", "memory")
	m := &Model{Name: top["name"].String()}
	if !top["n"].Valid() {
		root.Errorf("missing field n (the job size in elements)")
	} else {
		m.N = top["n"].Range(1, MaxElements)
	}
	if !top["block"].Valid() {
		root.Errorf("missing field block (the block size s in elements)")
	} else {
		m.S = top["block"].Range(1, MaxElements)
	}
	var sp *SortParams
	srt, stages := top["sort"], top["stages"]
	switch {
	case srt.Valid() && stages.Valid():
		root.Errorf("give sort (the 003 sort by its constants) or stages, not both")
	case srt.Valid():
		f := srt.Map(SortParamNames()...)
		p := SortParams{N: m.N, S: m.S}
		for _, name := range SortParamNames() {
			if v, ok := f[name]; ok && name == "l_n" {
				p.LN = latency(v)
			} else if ok && (name == "c_q" || name == "c_m") {
				*(&p).field(name) = coef(v)
			} else if ok {
				*(&p).field(name) = rate(v)
			} else {
				srt.Errorf("missing constant %s", name)
			}
		}
		built := p.Model(m.Name)
		m.Stages, m.Fixed = built.Stages, built.Fixed
		sp = &p
	case stages.Valid():
		stageAt := map[string]int{} // stage name → its line: names are the tables' rows
		for _, sn := range stages.List() {
			f := sn.Map("name", "bandwidths")
			st := Stage{Name: f["name"].String()}
			if nn := f["name"]; nn.Valid() { // a stage without a name is Validate's refusal
				if line, dup := stageAt[st.Name]; dup {
					nn.Errorf("stage name %q used twice (first at line %d): each stage needs its own name", st.Name, line)
				} else {
					stageAt[st.Name] = nn.Line()
				}
			}
			for _, bn := range f["bandwidths"].List() {
				bf := bn.Map("name", "kind", "value", "latency", "bandwidth", "c")
				b := Bandwidth{Name: bf["name"].String(), Kind: BandwidthKind(bf["kind"].String())}
				if v, ok := bf["value"]; ok {
					b.Value = rate(v)
				}
				if v, ok := bf["latency"]; ok {
					b.Latency = latency(v)
				}
				if v, ok := bf["bandwidth"]; ok {
					b.Bandwidth = rate(v)
				}
				if v, ok := bf["c"]; ok {
					b.C = coef(v)
				}
				st.Bandwidths = append(st.Bandwidths, b)
			}
			m.Stages = append(m.Stages, st)
		}
		for _, fn := range top["fixed"].List() {
			ff := fn.Map("name", "kind", "value", "c")
			fx := Fixed{Name: ff["name"].String(), Kind: FixedKind(ff["kind"].String())}
			if v, ok := ff["value"]; ok {
				if fx.Value = v.Seconds(); fx.Value > MaxSeconds {
					v.Errorf("%v s is out of range; allowed 0 … %g s", fx.Value, MaxSeconds)
				}
			}
			if v, ok := ff["c"]; ok {
				if fx.C = v.Float(); fx.C != 0 {
					fx.C = coef(v)
				}
			}
			m.Fixed = append(m.Fixed, fx)
		}
	default:
		root.Errorf("needs sort (the 003 sort by its constants) or stages")
	}
	if top["fixed"].Valid() && srt.Valid() {
		top["fixed"].Errorf("fixed terms come with stages; the sort model has its own")
	}
	if mem := top["memory"]; mem.Valid() {
		f := mem.Map("node_bytes", "bytes_per_element", "bytes_per_element_p1")
		for _, k := range []string{"node_bytes", "bytes_per_element", "bytes_per_element_p1"} {
			v := f[k]
			if !v.Valid() {
				if k != "bytes_per_element_p1" {
					mem.Errorf("missing %s", k)
				}
				continue
			}
			b := v.Bytes()
			if v.IsScalar() && !(b >= 1 && b <= MaxBytes) {
				v.Errorf("%v bytes is out of range; allowed 1 … %g", b, MaxBytes)
			}
			switch k {
			case "node_bytes":
				m.Memory.NodeBytes = b
			case "bytes_per_element":
				m.Memory.BytesPerElement = b
			default:
				m.Memory.BytesPerElementP1 = b
			}
		}
	}
	if err := d.Err(); err != nil {
		return nil, nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, nil, &spec.Error{File: d.File, Msg: err.Error()}
	}
	return m, sp, nil
}

// rate reads a bandwidth in elements per second within [MinRate, MaxRate].
func rate(v spec.Node) float64 { return v.Range(MinRate, MaxRate) }

// coef reads a per-element time constant (c_q, c_m, c) within [MinCoef, MaxCoef] s.
func coef(v spec.Node) float64 { return v.Range(MinCoef, MaxCoef) }

// latency reads a per-block latency: a time (units allowed) of 0 … MaxSeconds.
func latency(v spec.Node) float64 {
	t := v.Seconds()
	if t > MaxSeconds {
		v.Errorf("%v s is out of range; allowed 0 … %g s", t, MaxSeconds)
	}
	return t
}

package pipeline

import (
	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/modelfile"
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
	doc, err := modelfile.Parse(file, data)
	if err != nil {
		return nil, nil, err
	}
	return DecodeModel(doc)
}

// The readers of a pipeline file's numbers: a bandwidth in elements per second within
// [MinRate, MaxRate], a per-element time constant (c_q, c_m, c) within [MinCoef, MaxCoef] s,
// a per-block latency or fixed time (units allowed) of 0 … MaxSeconds, a memory size
// (units allowed) of 1 … MaxBytes bytes.
var (
	rate    = spec.Between(MinRate, MaxRate)
	coef    = spec.Between(MinCoef, MaxCoef)
	latency = spec.Time.Within(0, MaxSeconds, "s")
	memory  = spec.Size.Within(1, MaxBytes, "bytes")
)

// zeroOr reads 0, or a value by r: a fixed term's c is 0 when the term has none.
func zeroOr(r spec.Reader) spec.Reader {
	return func(n spec.Node) float64 {
		if n.IsScalar() && n.Float() == 0 {
			return 0
		}
		return r(n)
	}
}

// DecodeModel is ParseModel of a file already read by modelfile.Parse: for a caller that
// looked at the top level first (explore tells a model's kind by its keys).
func DecodeModel(doc *modelfile.Doc) (*Model, *SortParams, error) {
	d, root := spec.Tree(doc)
	m := &Model{}
	top := root.Decode(
		spec.Text("name", &m.Name),
		spec.Float("n", &m.N, spec.Between(1, MaxElements)).Required("missing field n (the job size in elements)"),
		spec.Float("block", &m.S, spec.Between(1, MaxElements)).Required("missing field block (the block size s in elements)"),
		spec.Key("sort"), spec.Key("stages"), spec.Key("fixed"),
		spec.Func("memory", func(n spec.Node) { m.Memory = decodeMemory(n) }),
	)
	var sp *SortParams
	switch root.OneOf(top, "needs sort (the 003 sort by its constants) or stages", "give sort (the 003 sort by its constants) or stages, not both", "sort", "stages") {
	case "sort":
		sp = decodeSort(top["sort"], m)
		if fx, ok := top["fixed"]; ok {
			fx.Errorf("fixed terms come with stages; the sort model has its own")
		}
	case "stages":
		m.Stages = decodeStages(top["stages"])
		for _, fn := range top["fixed"].List() {
			fx := Fixed{}
			fn.Decode(spec.Text("name", &fx.Name), spec.Parsed("kind", &fx.Kind, parseFixedKind),
				spec.Float("value", &fx.Value, latency), spec.Float("c", &fx.C, zeroOr(coef)))
			m.Fixed = append(m.Fixed, fx)
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

// decodeSort reads the 003 sort's constants (sort:) and builds its stages and fixed terms
// into m.
func decodeSort(n spec.Node, m *Model) *SortParams {
	p := &SortParams{N: m.N, S: m.S}
	fields := make([]spec.Field, 0, len(SortParamNames()))
	for _, name := range SortParamNames() {
		r := rate
		switch name {
		case "l_n":
			r = latency
		case "c_q", "c_m":
			r = coef
		}
		fields = append(fields, spec.Float(name, p.field(name), r).Required("missing constant "+name))
	}
	n.Decode(fields...)
	built := p.Model(m.Name)
	m.Stages, m.Fixed = built.Stages, built.Fixed
	return p
}

// decodeStages reads the stages list; a stage's name is its tables' row, so it must be new.
func decodeStages(n spec.Node) []Stage {
	var out []Stage
	stageAt := map[string]int{} // stage name → its line
	for _, sn := range n.List() {
		var st Stage
		f := sn.Decode(spec.Text("name", &st.Name), spec.Func("bandwidths", func(bs spec.Node) {
			for _, bn := range bs.List() {
				b := Bandwidth{}
				bn.Decode(spec.Text("name", &b.Name), spec.Parsed("kind", &b.Kind, parseBandwidthKind),
					spec.Float("value", &b.Value, rate), spec.Float("latency", &b.Latency, latency),
					spec.Float("bandwidth", &b.Bandwidth, rate), spec.Float("c", &b.C, coef))
				st.Bandwidths = append(st.Bandwidths, b)
			}
		}))
		if nn, ok := f["name"]; ok { // a stage without a name is Validate's refusal
			if line, dup := stageAt[st.Name]; dup {
				nn.Errorf("stage name %q used twice (first at line %d): each stage needs its own name", st.Name, line)
			} else {
				stageAt[st.Name] = nn.Line()
			}
		}
		out = append(out, st)
	}
	return out
}

// decodeMemory reads memory: node_bytes and bytes per element (sizes with units).
func decodeMemory(n spec.Node) Memory {
	var mem Memory
	n.Decode(
		spec.Float("node_bytes", &mem.NodeBytes, memory).Required("missing node_bytes"),
		spec.Float("bytes_per_element", &mem.BytesPerElement, memory).Required("missing bytes_per_element"),
		spec.Float("bytes_per_element_p1", &mem.BytesPerElementP1, memory),
	)
	return mem
}

// parseBandwidthKind and parseFixedKind take a kind as written; Validate names the allowed
// ones for an unknown kind, at the stage or term.
func parseBandwidthKind(s string) (BandwidthKind, error) { return BandwidthKind(s), nil }
func parseFixedKind(s string) (FixedKind, error)         { return FixedKind(s), nil }

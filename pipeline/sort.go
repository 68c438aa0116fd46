package pipeline

// SortParams are the constants of 003's parallel integer sort (§4–5). Bandwidths are in
// elements per second; 003 measures c_q = 0.066e-6 s, c_m = 0.04e-6 s, b_io = 0.54e6/s,
// l_n = 30 ms, b_n = 1.2e6/s, b_gather = 0.387e6/s, and chooses s = 65536.
type SortParams struct {
	N       float64 // elements to sort
	S       float64 // block size s
	CQ      float64 // c_q: quicksort constant, t_proc(s) = c_q·s·ln s (eq. 6)
	CM      float64 // c_m: merge constant (eq. 8, 9)
	BIO     float64 // b_io: storage bandwidth
	LN      float64 // l_n: network latency, seconds
	BN      float64 // b_n: network bandwidth
	BGather float64 // b_gather: gathering bandwidth at the sink
}

// SortParamNames are the names Model files and fits use for the SortParams fields, in
// file order (a fresh slice on every call: callers may keep or change it).
func SortParamNames() []string { return []string{"c_q", "c_m", "b_io", "l_n", "b_n", "b_gather"} }

// Get and Set address a constant by its name in SortParamNames.
func (sp *SortParams) field(name string) *float64 {
	switch name {
	case "c_q":
		return &sp.CQ
	case "c_m":
		return &sp.CM
	case "b_io":
		return &sp.BIO
	case "l_n":
		return &sp.LN
	case "b_n":
		return &sp.BN
	case "b_gather":
		return &sp.BGather
	}
	return nil
}

// Model builds the general model of eqs. (4), (12)–(17):
//
//	read:  min(b_io, b_dist = s/(l_n + s/b_n), b_proc = 1/(c_q ln s))
//	fixed: t_proc(s) = c_q·s·ln s,  t_local = c_m·N/p
//	write: min(b_io, b_gather, b_resolution = s·p/(c_m·(N + s·p²)))
func (sp SortParams) Model(name string) *Model {
	return &Model{
		Name: name, N: sp.N, S: sp.S,
		Stages: []Stage{
			{Name: "read", Bandwidths: []Bandwidth{
				{Name: "storage", Kind: Constant, Value: sp.BIO},
				{Name: "distribution", Kind: Distribution, Latency: sp.LN, Bandwidth: sp.BN},
				{Name: "processing", Kind: Processing, C: sp.CQ},
			}},
			{Name: "write", Bandwidths: []Bandwidth{
				{Name: "storage", Kind: Constant, Value: sp.BIO},
				{Name: "gathering", Kind: Constant, Value: sp.BGather},
				{Name: "resolution", Kind: Merge, C: sp.CM},
			}},
		},
		Fixed: []Fixed{
			{Name: "last block", Kind: BlockSort, C: sp.CQ},
			{Name: "local merge", Kind: LocalWork, C: sp.CM},
		},
	}
}

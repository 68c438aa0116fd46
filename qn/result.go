package qn

// Status tells whether an iterative solver converged. Exact solvers report Converged with
// the number of population steps as Iterations and a zero Residual.
type Status struct {
	Converged  bool
	Iterations int
	Residual   float64 // largest relative change of a queue length at the last iteration
}

// Result is the steady-state solution of a model. Per-station quantities refer to ONE copy
// of a station group; class response times add up every copy.
type Result struct {
	Solver string
	Status Status

	Throughput   []float64 // X_c, class c completions per second
	ResponseTime []float64 // R_c, seconds per job, think time excluded

	QueueLength [][]float64 // Q[k][c], mean customers of class c at one copy of station k
	Residence   [][]float64 // R[k][c], residence time (seconds per job, all visits) at one copy
	Utilization [][]float64 // U[k][c]: per server busy fraction X_c·D/m (delay: X_c·D, mean busy servers)
}

func newResult(solver string, C, K int) *Result {
	r := &Result{Solver: solver, Throughput: make([]float64, C), ResponseTime: make([]float64, C)}
	r.QueueLength = matrix(K, C)
	r.Residence = matrix(K, C)
	r.Utilization = matrix(K, C)
	return r
}

func matrix(r, c int) [][]float64 {
	buf := make([]float64, r*c)
	m := make([][]float64, r)
	for i := range m {
		m[i] = buf[i*c : (i+1)*c : (i+1)*c]
	}
	return m
}

// SystemThroughput is Σ_c X_c.
func (r *Result) SystemThroughput() float64 {
	s := 0.0
	for _, x := range r.Throughput {
		s += x
	}
	return s
}

// SystemResponseTime is the throughput-weighted mean response time Σ X_c R_c / Σ X_c.
func (r *Result) SystemResponseTime() float64 {
	x, xr := 0.0, 0.0
	for c, xc := range r.Throughput {
		x += xc
		xr += xc * r.ResponseTime[c]
	}
	if x == 0 {
		return 0
	}
	return xr / x
}

// StationUtilization is the total utilisation of one copy of station k over all classes.
func (r *Result) StationUtilization(k int) float64 {
	s := 0.0
	for _, u := range r.Utilization[k] {
		s += u
	}
	return s
}

// StationQueueLength is the total queue length at one copy of station k.
func (r *Result) StationQueueLength(k int) float64 {
	s := 0.0
	for _, q := range r.QueueLength[k] {
		s += q
	}
	return s
}

package mpip

import (
	"context"
	"math"

	"github.com/clusterperf/clusterperf/qn"
)

// Inputs are the collected values of one run (004 appendix B, "Collected Values").
type Inputs struct {
	Label   string  `json:"label,omitempty"`
	P       int     `json:"p"`
	AppTime float64 `json:"app_time_s"`            // Σ_r AppTime, s
	MPITime float64 `json:"mpi_time_s"`            // Σ_r MPITime, s
	MPIWait float64 `json:"mpi_wait_s"`            // s
	M       float64 `json:"messages"`              // messages sent
	L       float64 `json:"mean_size_bytes"`       // bytes per message
	BW      float64 `json:"bandwidth_bytes_per_s"` // bytes/s
	Lat     float64 `json:"latency_s"`             // s
}

// InputsFrom combines a report summary with the network's latency and bandwidth.
func InputsFrom(s Summary, lat, bw float64) Inputs {
	return Inputs{Label: s.File, P: s.P, AppTime: s.AppTime, MPITime: s.MPITime, MPIWait: s.MPIWait, M: s.Messages, L: s.AvgSize, BW: bw, Lat: lat}
}

// Validate checks the inputs: every value finite, P ≥ 1, M ≥ 1, App_Time > 0,
// 0 ≤ MPI_Wait ≤ MPI_Time ≤ App_Time (to the 3–4 printed digits of 004's tables), BW > 0.
// Errors wrap fault.ErrInput.
func (in Inputs) Validate() error {
	for _, v := range []float64{in.AppTime, in.MPITime, in.MPIWait, in.M, in.L, in.BW, in.Lat} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return inputErrorf("%s: every value must be finite (App_Time %v, MPI_Time %v, MPI_Wait %v, M %v, L %v, BW %v, Lat %v)", in.Label, in.AppTime, in.MPITime, in.MPIWait, in.M, in.L, in.BW, in.Lat)
		}
	}
	switch {
	case in.P < 1:
		return inputErrorf("%s: P = %d must be ≥ 1", in.Label, in.P)
	case !(in.M >= 1):
		return inputErrorf("%s: messages M = %v must be ≥ 1", in.Label, in.M)
	case !(in.AppTime > 0) || !(in.MPITime >= 0) || !(in.MPIWait >= 0):
		return inputErrorf("%s: times must be ≥ 0 (App_Time > 0)", in.Label)
	case in.MPITime > in.AppTime*1.0001:
		return inputErrorf("%s: MPI time %.4g exceeds application time %.4g", in.Label, in.MPITime, in.AppTime)
	case in.MPIWait > in.MPITime*1.01:
		return inputErrorf("%s: MPI wait %.4g exceeds MPI time %.4g", in.Label, in.MPIWait, in.MPITime)
	case !(in.BW > 0) || !(in.Lat >= 0) || !(in.L >= 0):
		return inputErrorf("%s: bandwidth must be > 0, latency and message size ≥ 0", in.Label)
	}
	if d := in.Demands(); d.D0+d.Dk+d.Compute == 0 {
		return inputErrorf("%s: every demand of the model is 0 (MPI_Wait = MPI_Time = App_Time and no network time L/BW + Lat): nothing to model", in.Label)
	}
	return nil
}

// Demands are the 004 model inputs.
type Demands struct {
	N       int     `json:"population"`          // messages circulating: N = P
	K       int     `json:"stations"`            // P CPU queues, the switch and the computation delay: P + 2
	D0      float64 `json:"switch_delay_s"`      // L/BW + Lat
	Dk      float64 `json:"cpu_demand_s"`        // (MPI_Time − MPI_Wait)/(P·M)
	Compute float64 `json:"computation_delay_s"` // (App_Time − MPI_Time)/M
}

// Demands computes the model inputs (004 "QNM Solver Input Calculation").
func (in Inputs) Demands() Demands {
	return Demands{N: in.P, K: in.P + 2,
		D0:      in.L/in.BW + in.Lat,
		Dk:      math.Max(in.MPITime-in.MPIWait, 0) / (float64(in.P) * in.M),
		Compute: (in.AppTime - in.MPITime) / in.M}
}

// QN returns the queueing network of the 004 method: a switch delay, P identical CPU queues
// (one station group, solved once) and a computation delay, with N = P messages.
func (d Demands) QN() *qn.Model {
	return &qn.Model{
		Classes: []qn.Class{{Name: "messages", Population: d.N}},
		Stations: []qn.Station{
			{Name: "switch", Kind: qn.Delay},
			{Name: "cpu", Kind: qn.Queue, Count: d.N},
			{Name: "compute", Kind: qn.Delay},
		},
		Demand: [][]float64{{d.D0, d.Dk, d.Compute}},
	}
}

// View is an observed/modelled pair of times, s, with the relative error
// (modelled − observed)/observed.
type View struct {
	Observed float64  `json:"observed_s"`
	Model    float64  `json:"model_s"`
	RelError *float64 `json:"rel_error"` // nil (null) when observed is 0 (004 prints #DIV/0!)
}

// RateView is View for a rate, messages/s (the throughput view): the same fields, so
// View(r) converts, with the unit in its keys.
type RateView struct {
	Observed float64  `json:"observed_per_s"`
	Model    float64  `json:"model_per_s"`
	RelError *float64 `json:"rel_error"`
}

func view(obs, mod float64) View {
	v := View{Observed: obs, Model: mod}
	if obs != 0 {
		e := (mod - obs) / obs
		v.RelError = &e
	}
	return v
}

// Rel returns the relative error, NaN when undefined.
func (v RateView) Rel() float64 { return View(v).Rel() }

// Rel returns the relative error, NaN when undefined.
func (v View) Rel() float64 {
	if v.RelError == nil {
		return math.NaN()
	}
	return *v.RelError
}

// Components splits aggregate time (s) as 004's graphical views do.
type Components struct {
	SwitchDelay   float64 `json:"switch_delay_s"`   // R_0·M
	MPIContention float64 `json:"mpi_contention_s"` // (R_k − D_k)·M·P
	MPIActive     float64 `json:"mpi_active_s"`     // D_k·M·P
	Compute       float64 `json:"compute_s"`        // D_{P+1}·M
}

// Measured splits the measured aggregate time.
type Measured struct {
	MPIWait     float64 `json:"mpi_wait_s"`
	MPIActive   float64 `json:"mpi_active_s"` // MPI_Time − MPI_Wait
	Computation float64 `json:"computation_s"`
}

// Solution is the 004 model solved for one set of inputs (measured or extrapolated).
type Solution struct {
	Inputs  Inputs  `json:"inputs"`
	Demands Demands `json:"demands"`
	R       float64 `json:"response_time_s"`    // system response time, s
	R0      float64 `json:"switch_response_s"`  // s
	Rk      float64 `json:"cpu_response_s"`     // s (per CPU centre)
	RC      float64 `json:"compute_response_s"` // s
	X       float64 `json:"throughput_per_s"`   // messages/s
	U0      float64 `json:"switch_utilization"` // X·D0 (a delay: mean busy)
	Uk      float64 `json:"cpu_utilization"`
	UC      float64 `json:"compute_utilization"`

	Model Components `json:"model_components"`
}

// Result is the solved model of a measured run with 004's validation views.
type Result struct {
	Solution
	AppTime    View     `json:"app_time"`        // AT* = App_Time/P, AT = R·M/P
	MPITime    View     `json:"mpi_time"`        // MT* = MPI_Time/P, MT = R_k·M + R_0·M/P
	WaitTime   View     `json:"wait_time"`       // WT* = MPI_Wait/P, WT = M(R_k − D_k) + R_0·M/P
	Throughput RateView `json:"throughput_view"` // X* = M/AT*, X

	Measured Measured `json:"measured_components"`
}

// Solve builds and solves the 004 model of one run.
func Solve(in Inputs) (*Result, error) {
	return SolveDemands(in, in.Demands())
}

// SolveDemands solves the 004 model of one run with the given demands instead of those the
// inputs give: for reproducing a printed table whose demands differ from its inputs (004's
// CG B P = 64 erratum) and for the calibration, which varies the switch delay D_0.
func SolveDemands(in Inputs, d Demands) (*Result, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	for _, v := range []float64{d.D0, d.Dk, d.Compute} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil, inputErrorf("%s: demands must be finite and ≥ 0 (D_0 %v, D_k %v, D_{P+1} %v)", in.Label, d.D0, d.Dk, d.Compute)
		}
	}
	r, err := qn.MVASingle(context.Background(), d.QN())
	if err != nil {
		return nil, err
	}
	P, M := float64(in.P), in.M
	res := &Result{Solution: Solution{Inputs: in, Demands: d,
		R: r.ResponseTime[0], R0: r.Residence[0][0], Rk: r.Residence[1][0], RC: r.Residence[2][0],
		X: r.Throughput[0], U0: r.Utilization[0][0], Uk: r.Utilization[1][0], UC: r.Utilization[2][0]}}
	at := in.AppTime / P
	res.AppTime = view(at, res.R*M/P)
	res.MPITime = view(in.MPITime/P, res.Rk*M+res.R0*M/P)
	res.WaitTime = view(in.MPIWait/P, M*(res.Rk-d.Dk)+res.R0*M/P)
	res.Throughput = RateView(view(M/at, res.X))
	res.Model = Components{SwitchDelay: res.R0 * M, MPIContention: (res.Rk - d.Dk) * M * P, MPIActive: d.Dk * M * P, Compute: d.Compute * M}
	res.Measured = Measured{MPIWait: in.MPIWait, MPIActive: in.MPITime - in.MPIWait, Computation: in.AppTime - in.MPITime}
	return res, nil
}

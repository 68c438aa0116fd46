package mpip

// AnalysisView is one of 004's "Analysis Views" (appendix B, e.g. CG A lines 509–535 of
// 004_1b97ced196bc791e.txt): the measured times of a run, aggregate over the ranks or divided
// by P (per CPU), by M (per sent message) or by P·M (per CPU per sent message). All in s.
//
//	App_Time, MPI_Time, Non-MPI = App_Time − MPI_Time, MPI_Wait, MPI Active = MPI_Time − MPI_Wait
//
// divided by 1, P, M or P·M. The per-CPU row is the validation views' observed side (AT*, MT*,
// WT*), the per-message Non-MPI time is MsgCompute (the model's D_{P+1}) and the per-CPU per
// message MPI Active time is CPUMsgActive (the model's D_k). These are measured values: the
// only arithmetic is the division, so they are exact given the inputs.
type AnalysisView struct {
	View       string  `json:"view"`    // aggregate, per_cpu, per_message, per_cpu_per_message
	Divisor    string  `json:"divisor"` // 1, P, M, P·M
	AppTime    float64 `json:"app_time_s"`
	MPITime    float64 `json:"mpi_time_s"`
	NonMPITime float64 `json:"non_mpi_time_s"`
	MPIWait    float64 `json:"mpi_wait_s"`
	MPIActive  float64 `json:"mpi_active_s"`
}

// analysisViewNames are the views in 004's order.
var analysisViewNames = []string{"aggregate", "per_cpu", "per_message", "per_cpu_per_message"}

// AnalysisViews computes the four views of one run's collected values (004 appendix B,
// "Analysis Views": Aggregate, Per CPU, Per Sent Message, Per CPU per Sent Message).
// MPI Active is MPI_Time − MPI_Wait, not clamped: the appendix prints it as computed.
func (in Inputs) AnalysisViews() []AnalysisView {
	p, m := float64(in.P), in.M
	div := []struct {
		name string
		by   float64
	}{{"1", 1}, {"P", p}, {"M", m}, {"P·M", p * m}}
	out := make([]AnalysisView, 0, len(div))
	for i, d := range div {
		out = append(out, AnalysisView{View: analysisViewNames[i], Divisor: d.name,
			AppTime: in.AppTime / d.by, MPITime: in.MPITime / d.by, NonMPITime: (in.AppTime - in.MPITime) / d.by,
			MPIWait: in.MPIWait / d.by, MPIActive: (in.MPITime - in.MPIWait) / d.by})
	}
	return out
}

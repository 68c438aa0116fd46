package mpip

import (
	"fmt"
	"math"
	"path"
	"sort"
	"strings"
)

// collectiveOps are the MPI collectives (blocking and non-blocking) as mpiP names them.
var collectiveOps = []string{"Allgather", "Allgatherv", "Allreduce", "Alltoall", "Alltoallv", "Alltoallw", "Barrier", "Bcast",
	"Exscan", "Gather", "Gatherv", "Reduce", "Reduce_scatter", "Reduce_scatter_block", "Scan", "Scatter", "Scatterv",
	"Iallgather", "Iallgatherv", "Iallreduce", "Ialltoall", "Ialltoallv", "Ibarrier", "Ibcast", "Igather", "Igatherv",
	"Ireduce", "Ireduce_scatter", "Iscan", "Iscatter", "Iscatterv"}

// OpShare is one MPI operation of a profile, aggregated over its call sites and ranks (call
// site IDs differ between ranks under address randomisation, so sites are merged by operation).
type OpShare struct {
	Operation     string  `json:"operation"`
	Sites         int     `json:"call_sites"`
	Calls         float64 `json:"calls"` // 0 in concise reports
	TimeS         float64 `json:"time_s"`
	ShareOfMPI    float64 `json:"share_of_mpi"` // fraction of Σ MPI time
	BytesSent     float64 `json:"bytes_sent"`
	MeanSizeBytes float64 `json:"mean_size_bytes,omitempty"` // bytes per sending call
	Collective    bool    `json:"collective"`
	Wait          bool    `json:"wait"` // counted as MPI wait
}

// Imbalance compares ranks (verbose reports only): max/mean − 1 of the per-rank times, 0 for
// perfectly balanced ranks.
type Imbalance struct {
	Available        bool    `json:"available"`
	MPITimeMaxS      float64 `json:"mpi_time_max_s"`
	MPITimeMinS      float64 `json:"mpi_time_min_s"`
	MPITimeMeanS     float64 `json:"mpi_time_mean_s"`
	MPIImbalance     float64 `json:"mpi_imbalance"`     // max/mean − 1 of MPITime(r)
	ComputeMaxS      float64 `json:"compute_max_s"`     // max_r AppTime(r) − MPITime(r)
	ComputeMeanS     float64 `json:"compute_mean_s"`    // mean of the same
	ComputeImbalance float64 `json:"compute_imbalance"` // max/mean − 1 of compute time
}

// ProfileSummary describes one report without any network figures: what the 004 model takes
// from it and what tells whether that model's assumptions hold (imbalance, collectives,
// message sizes).
type ProfileSummary struct {
	File                 string   `json:"file"`
	Command              string   `json:"command"`
	Executable           string   `json:"executable"`
	Ranks                int      `json:"ranks"`
	AppTimeS             float64  `json:"app_time_s"`      // Σ_r AppTime(r)
	MPITimeS             float64  `json:"mpi_time_s"`      // Σ_r MPITime(r)
	WallTimeS            float64  `json:"wall_time_s"`     // max_r AppTime(r) (TotalApp/P for concise reports)
	MeanAppTimeS         float64  `json:"mean_app_time_s"` // AT* = Σ AppTime / P (004's observed wall time)
	MPIShare             float64  `json:"mpi_share"`       // MPI_Time / App_Time
	WaitTimeS            float64  `json:"wait_time_s"`     // Σ over the wait operations
	WaitShareOfMPI       float64  `json:"wait_share_of_mpi"`
	WaitOps              []string `json:"wait_ops"`
	CollectiveTimeS      float64  `json:"collective_time_s"`
	CollectiveShareOfMPI float64  `json:"collective_share_of_mpi"`
	Messages             float64  `json:"messages"` // M as summarised (point-to-point sends, plus collectives if asked)
	BytesSent            float64  `json:"bytes_sent"`
	MeanSizeBytes        float64  `json:"mean_size_bytes"` // L
	CollectiveCalls      float64  `json:"collective_sending_calls"`
	CollectiveBytes      float64  `json:"collective_bytes"`
	// SizeSpreadDecades is log10(largest/smallest) of the per-operation mean message sizes:
	// 004 uses one mean size L, which describes the traffic poorly beyond about one decade.
	SizeSpreadDecades float64   `json:"size_spread_decades"`
	MinOpSizeBytes    float64   `json:"min_op_mean_size_bytes"`
	MaxOpSizeBytes    float64   `json:"max_op_mean_size_bytes"`
	Top               []OpShare `json:"top_operations"`
	Imbalance         Imbalance `json:"imbalance"`
	Notes             []string  `json:"notes,omitempty"`
}

// Profile summarises a parsed report and its 004 summary s (from r.Summarize) with the top
// operations by time (top ≤ 0: all). Every number is finite for any report Parse accepts.
func Profile(r *Report, s Summary, top int) ProfileSummary {
	ps := ProfileSummary{File: r.File, Command: r.Command, Executable: executable(r.Command), Ranks: r.Ranks,
		AppTimeS: r.TotalApp, MPITimeS: r.TotalMPI, WallTimeS: r.WallTime(), WaitTimeS: s.MPIWait,
		Messages: s.Messages, BytesSent: s.Bytes, MeanSizeBytes: s.AvgSize,
		CollectiveCalls: s.CollMessages, CollectiveBytes: s.CollBytes, Notes: append([]string(nil), s.Notes...)}
	if r.Ranks > 0 {
		ps.MeanAppTimeS = r.TotalApp / float64(r.Ranks)
	}
	ps.MPIShare = frac(r.TotalMPI, r.TotalApp)
	ps.WaitShareOfMPI = frac(s.MPIWait, r.TotalMPI)
	for _, w := range s.WaitByOp {
		ps.WaitOps = append(ps.WaitOps, w.Operation)
	}
	sort.Strings(ps.WaitOps)
	isColl := set(collectiveOps)
	var ops []OpShare
	minSize, maxSize := math.Inf(1), 0.0
	for _, name := range r.OpNames() {
		o := r.Ops[name]
		sh := OpShare{Operation: name, Sites: o.Sites, Calls: o.Count, TimeS: o.TimeMS / 1000, BytesSent: o.Bytes,
			Collective: isColl[name]}
		_, sh.Wait = s.Wait(name)
		sh.ShareOfMPI = frac(sh.TimeS, r.TotalMPI)
		if o.Messages > 0 && o.Bytes > 0 {
			sh.MeanSizeBytes = o.Bytes / o.Messages
			minSize, maxSize = math.Min(minSize, sh.MeanSizeBytes), math.Max(maxSize, sh.MeanSizeBytes)
		}
		if sh.Collective {
			ps.CollectiveTimeS += sh.TimeS
		}
		ops = append(ops, sh)
	}
	ps.CollectiveShareOfMPI = frac(ps.CollectiveTimeS, r.TotalMPI)
	if maxSize > 0 {
		ps.MinOpSizeBytes, ps.MaxOpSizeBytes = minSize, maxSize
		ps.SizeSpreadDecades = math.Log10(maxSize / minSize)
	}
	if top > 0 && len(ops) > top {
		ops = ops[:top]
	}
	ps.Top = ops
	ps.Imbalance = imbalance(r)
	if !ps.Imbalance.Available {
		ps.Notes = append(ps.Notes, "per-rank times not in the report (concise): imbalance across ranks unknown")
	}
	return ps
}

func imbalance(r *Report) Imbalance {
	n := len(r.AppTime)
	if n == 0 || len(r.MPITime) != n {
		return Imbalance{}
	}
	im := Imbalance{Available: true, MPITimeMinS: math.Inf(1)}
	for i := range r.AppTime {
		m, c := r.MPITime[i], math.Max(r.AppTime[i]-r.MPITime[i], 0)
		im.MPITimeMaxS = math.Max(im.MPITimeMaxS, m)
		im.MPITimeMinS = math.Min(im.MPITimeMinS, m)
		im.MPITimeMeanS += m / float64(n)
		im.ComputeMaxS = math.Max(im.ComputeMaxS, c)
		im.ComputeMeanS += c / float64(n)
	}
	im.MPIImbalance = frac(im.MPITimeMaxS, im.MPITimeMeanS) - 1
	im.ComputeImbalance = frac(im.ComputeMaxS, im.ComputeMeanS) - 1
	if im.MPITimeMeanS == 0 {
		im.MPIImbalance = 0
	}
	if im.ComputeMeanS == 0 {
		im.ComputeImbalance = 0
	}
	return im
}

// frac is a/b, 0 when b is 0 (a share of nothing), and finite for finite inputs.
func frac(a, b float64) float64 {
	if b == 0 || math.IsNaN(a/b) || math.IsInf(a/b, 0) {
		return 0
	}
	return a / b
}

func set(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// executable is the program of an "@ Command" line: the base name of its first word.
func executable(command string) string {
	f := strings.Fields(command)
	if len(f) == 0 {
		return ""
	}
	return path.Base(f[0])
}

// ProgramCheck is the result of CheckSameProgram.
type ProgramCheck struct {
	Executables []string `json:"executables"` // distinct executables, in report order
	Mixed       bool     `json:"mixed"`
	// ArgumentsDiffer: one program run with different arguments — often a problem that
	// grows with P (weak scaling, e.g. AMG's -P process grid), when times at different P
	// are not one problem's and sizing by time (strong scaling) does not apply.
	ArgumentsDiffer bool     `json:"arguments_differ,omitempty"`
	Notes           []string `json:"notes,omitempty"`
}

// CheckSameProgram checks that reports given together come from one program: the same
// executable in their "@ Command" lines (arguments may differ: AMG's process grid -P follows
// P; a note lists such differences). Reports of different executables are refused with an
// error (wrapping fault.ErrInput) naming both commands and files, unless allowMixed, when the
// mix is reported in the notes: trends across P of different programs mean nothing (issue 16:
// hpc-mpip, NWChem and CloverLeaf together gave "2.3e-06 … 5.4e+95 s").
func CheckSameProgram(reps []*Report, allowMixed bool) (ProgramCheck, error) {
	var pc ProgramCheck
	first := map[string]*Report{}
	var ref *Report
	for _, r := range reps {
		exe := executable(r.Command)
		if exe == "" {
			pc.Notes = append(pc.Notes, fmt.Sprintf("%s: no \"@ Command\" line: cannot check that it comes from the same program", r.File))
			continue
		}
		if _, ok := first[exe]; !ok {
			first[exe] = r
			pc.Executables = append(pc.Executables, exe)
		}
		if ref == nil {
			ref = r
			continue
		}
		if exe != executable(ref.Command) {
			pc.Mixed = true
			if !allowMixed {
				return pc, inputErrorf("reports of different programs: %s runs %q but %s runs %q; give reports of one program, or --allow-mixed to compare them anyway", ref.File, strings.TrimSpace(ref.Command), r.File, strings.TrimSpace(r.Command))
			}
		} else if strings.TrimSpace(r.Command) != strings.TrimSpace(ref.Command) {
			pc.ArgumentsDiffer = true
			pc.Notes = append(pc.Notes, fmt.Sprintf("same program %s with different arguments: %s has %q, %s has %q", exe, ref.File, strings.TrimSpace(ref.Command), r.File, strings.TrimSpace(r.Command)))
		}
	}
	if pc.Mixed {
		pc.Notes = append(pc.Notes, fmt.Sprintf("--allow-mixed: reports of %d different programs (%s) compared; trends across P between programs are not a scaling of one application", len(pc.Executables), strings.Join(pc.Executables, ", ")))
	}
	return pc, nil
}

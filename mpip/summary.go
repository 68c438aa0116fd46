package mpip

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// DefaultWaitOps returns (a fresh slice of) the operations whose time counts as MPI wait
// time: completion waits, barriers, and busy polling, which can dominate (NWChem: Iprobe +
// Test are 75 % of its MPI time). See the format notes §7, method 1.
func DefaultWaitOps() []string { return slices.Clone(defaultWaitOps) }

var defaultWaitOps = []string{"Wait", "Waitall", "Waitany", "Waitsome", "Barrier", "Test", "Testall", "Testany", "Testsome", "Iprobe", "Probe"}

// BlockingCollectives returns (a fresh slice of) the collectives that move data and block
// until the other ranks arrive: named in --wait-ops, only their idle part counts as MPI wait
// (IdleSplit), the rest stays active MPI time (004's future work, the FT case: MPI_Alltoall
// waits idle without MPI_Wait).
func BlockingCollectives() []string { return slices.Clone(blockingCollectives) }

var blockingCollectives = []string{"Allgather", "Allgatherv", "Allreduce", "Alltoall", "Alltoallv", "Alltoallw", "Bcast", "Gather", "Gatherv", "Reduce", "Reduce_scatter", "Reduce_scatter_block", "Scan", "Exscan", "Scatter", "Scatterv"}

// P2PSendOps returns (a fresh slice of) the point-to-point operations whose calls count as
// messages sent.
func P2PSendOps() []string { return slices.Clone(p2pSendOps) }

var p2pSendOps = []string{"Send", "Isend", "Bsend", "Ibsend", "Rsend", "Irsend", "Ssend", "Issend", "Sendrecv", "Sendrecv_replace"}

// Summary is what the 004 method needs from a report.
type Summary struct {
	File     string   `json:"file"`
	P        int      `json:"ranks"`
	AppTime  float64  `json:"app_time_s"` // Σ_r AppTime(r), s
	MPITime  float64  `json:"mpi_time_s"` // Σ_r MPITime(r), s
	MPIWait  float64  `json:"mpi_wait_s"` // Σ over WaitOps, s
	WaitByOp []OpTime `json:"wait_by_op"` // the wait operations present, by name
	// IdleByOp: the blocking collectives named as wait operations, split into the idle part
	// counted in MPIWait and the active part left in MPI time (IdleSplit).
	IdleByOp     []IdleSplit `json:"idle_split,omitempty"`
	Messages     float64     `json:"messages"`        // M: point-to-point sends (plus collectives if asked)
	Bytes        float64     `json:"bytes"`           // their bytes
	AvgSize      float64     `json:"mean_size_bytes"` // L = Bytes/Messages
	CollMessages float64     `json:"coll_messages"`   // collective calls that sent bytes (every rank)
	CollBytes    float64     `json:"coll_bytes"`
	WallTime     float64     `json:"wall_time_s"` // max_r AppTime(r), s
	Notes        []string    `json:"notes,omitempty"`
}

// OpTime is the time of one MPI operation (Σ over ranks and call sites, s). In JSON the
// operation's name is a value, never a key (the output contract).
type OpTime struct {
	Operation string  `json:"operation"`
	TimeS     float64 `json:"time_s"` // s
}

// IdleSplit is a blocking collective's time split as 004's decomposition needs it: the
// idle part (waiting for the other ranks, counted as MPI_Wait) and the active part (the
// operation's own work, MPI_Time − MPI_Wait). Each call site's fastest call is taken as its
// active cost: idle = Σ_sites Count·(Mean − Min), active = Σ Count·Min (mpiP's Callsite
// Time statistics, * rows). A lower bound of the active part (so an upper bound of the idle
// one): even the fastest call may have waited a little, and when a site sends messages of
// different sizes (SizeVaries) its fastest call may be a smaller message.
type IdleSplit struct {
	Operation  string  `json:"operation"`
	TimeS      float64 `json:"time_s"`
	IdleS      float64 `json:"idle_s"`
	ActiveS    float64 `json:"active_s"`
	SizeVaries bool    `json:"size_varies"`
}

// Wait is the wait time of operation op (s), and whether it is one of the wait operations
// present in the report.
func (s Summary) Wait(op string) (float64, bool) {
	for _, w := range s.WaitByOp {
		if w.Operation == op {
			return w.TimeS, true
		}
	}
	return 0, false
}

// Options choose how a report is summarised.
type Options struct {
	WaitOps            []string // nil: DefaultWaitOps
	IncludeCollectives bool     // count collective sends as messages too
}

// Summarize extracts the 004 inputs from a report.
func (r *Report) Summarize(o Options) (Summary, error) {
	s := Summary{File: r.File, P: r.Ranks, AppTime: r.TotalApp, MPITime: r.TotalMPI, WallTime: r.WallTime(), WaitByOp: []OpTime{}}
	if !r.Callsites {
		return s, fmt.Errorf("%s: no Callsite Time statistics (report made with -d?): wait time and message counts cannot be taken from the top-twenty sections", r.File)
	}
	wait := o.WaitOps
	if wait == nil {
		wait = defaultWaitOps
	}
	isWait := map[string]bool{}
	for _, w := range wait {
		isWait[w] = true
	}
	isP2P := map[string]bool{}
	for _, n := range p2pSendOps {
		isP2P[n] = true
	}
	// In sorted order: the sums are then the same on every run (map order would change
	// their last bits, and the output is a contract).
	for _, name := range slices.Sorted(maps.Keys(r.Ops)) {
		op := r.Ops[name]
		if isWait[name] {
			w := op.TimeMS / 1000
			if slices.Contains(blockingCollectives, name) {
				w = op.IdleMS / 1000
				s.IdleByOp = append(s.IdleByOp, IdleSplit{Operation: name, TimeS: op.TimeMS / 1000, IdleS: w, ActiveS: (op.TimeMS - op.IdleMS) / 1000, SizeVaries: op.SizeVaries})
				s.Notes = append(s.Notes, idleNote(name, op))
			}
			s.MPIWait += w
			s.WaitByOp = append(s.WaitByOp, OpTime{Operation: name, TimeS: w}) // in name order
		}
		if op.Bytes == 0 && op.Messages == 0 {
			continue
		}
		if isP2P[name] {
			s.Messages += op.Messages
			s.Bytes += op.Bytes
		} else {
			s.CollMessages += op.Messages
			s.CollBytes += op.Bytes
		}
	}
	if o.IncludeCollectives {
		s.Messages += s.CollMessages
		s.Bytes += s.CollBytes
	}
	if r.Concise && s.Messages == 0 {
		s.Notes = append(s.Notes, "concise report: message counts are not given per call; M could not be counted")
	}
	if s.Messages == 0 {
		s.Notes = append(s.Notes, "no messages sent: M = 1 as in 004's P = 1 rows")
		s.Messages = 1
	} else {
		s.AvgSize = s.Bytes / s.Messages
	}
	if s.MPIWait > s.MPITime*1.01 {
		return s, r.waitExceeds(s)
	}
	return s, nil
}

// waitExceeds refuses wait operations that take more than the MPI time, at the line of the
// largest wait operation's largest call site (the row most likely wrong), naming the MPI Time
// row it contradicts (hostile review 7, P2-5: the refusal named no line).
func (r *Report) waitExceeds(s Summary) error {
	big := OpTime{}
	for _, w := range s.WaitByOp {
		if w.TimeS > big.TimeS {
			big = w
		}
	}
	line, where := 0, ""
	if op := r.Ops[big.Operation]; op != nil {
		line = op.Line
	}
	if r.MPILine > 0 {
		where = fmt.Sprintf(" (line %d)", r.MPILine)
	}
	return &ParseError{File: r.File, Line: line, Msg: fmt.Sprintf("inconsistent: wait operations take %.4g s (%s %.4g s, its largest call site on this line), more than the MPI time %.4g s%s",
		s.MPIWait, big.Operation, big.TimeS, s.MPITime, where)}
}

// waitOpsString lists the wait operations in a stable order, for reports.
func waitOpsString(ops []string) string {
	c := append([]string(nil), ops...)
	sort.Strings(c)
	return strings.Join(c, ",")
}

// idleNote says how a blocking collective's time was split.
func idleNote(name string, op *OpStats) string {
	n := fmt.Sprintf("%s (a blocking collective in the wait operations): %.4g s of its %.4g s counted as idle waiting (the time above each call site's fastest call), %.4g s stay active MPI time (004's future work: waiting inside MPI without MPI_Wait)",
		name, op.IdleMS/1000, op.TimeMS/1000, (op.TimeMS-op.IdleMS)/1000)
	if op.SizeVaries {
		n += "; its call sites send messages of different sizes, so the fastest call may be a smaller message and the idle part is overstated"
	}
	return n
}

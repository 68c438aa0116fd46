package mpip

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Thresholds of the explanations: a profile contradicts an assumption of 004's model when
// the measure passes its threshold.
const (
	DefaultExplainThreshold = 0.15 // |rel_error| of a view that calls for an explanation
	WaitShareLimit          = 0.5  // MPI_Wait / MPI_Time
	ImbalanceLimit          = 0.2  // max/mean − 1 of per-rank MPI or compute time
	PollingShareLimit       = 0.2  // (Iprobe + Probe + Test*) / MPI_Time
	CollectiveShareLimit    = 0.3  // collective time / MPI_Time
	SizeSpreadLimit         = 1.0  // decades between the smallest and largest per-operation mean size
	ComputeGrowthLimit      = 0.25 // growth of Σ computation time across the runs' P
)

// Finding is an assumption of 004's model that the profile contradicts, with the evidence.
type Finding struct {
	Assumption string `json:"assumption"` // imbalance, polling, collectives, message_sizes, compute_scaling
	Evidence   string `json:"evidence"`
}

// Explanation says why a validation view misses: which of 004's assumptions the profile
// contradicts, and what to do next.
type Explanation struct {
	Label     string    `json:"label"`
	P         int       `json:"p"`
	View      string    `json:"view"` // app_time, mpi_time, wait_time, throughput
	RelError  float64   `json:"rel_error"`
	Findings  []Finding `json:"findings"`
	NextSteps []string  `json:"next_steps"`
	Notes     []string  `json:"notes,omitempty"`
}

// ExplainRun is one solved run and, when it came from an mpiP report, its profile (nil for
// collected values read from CSV: then only the wait share can be judged).
type ExplainRun struct {
	Result  *Result
	Profile *ProfileSummary
}

// ExplainOptions: Threshold on |rel_error| (0: DefaultExplainThreshold); Calibrated tells
// whether the network was calibrated (else the first next step is to calibrate); Measured
// whether it came from benchmark outputs (else a next step is to measure it).
type ExplainOptions struct {
	Threshold  float64
	Calibrated bool
	Measured   bool // the network came from benchmarks (netbench): do not propose measuring it
}

// Explain returns, for every view of every run whose |rel_error| exceeds the threshold, the
// assumptions of 004's model the profile contradicts:
//   - imbalance: 004 takes MPI_Wait as contention among P identical CPU centres of balanced
//     ranks; a wait share above WaitShareLimit, or per-rank MPI or compute times spread more
//     than ImbalanceLimit, is load imbalance the model cannot produce;
//   - polling: Iprobe/Probe/Test loops count as MPI time, spinning while waiting;
//   - collectives: 004 routes point-to-point messages through one switch delay; collectives
//     above CollectiveShareLimit of MPI time follow their own algorithms (log P stages);
//   - message_sizes: one mean size L stands for all; per-operation means over more than
//     SizeSpreadLimit decades make L/BW describe no actual message;
//   - compute_scaling: 004 takes the measured computation per message; if Σ computation grows
//     across the runs by more than ComputeGrowthLimit, the work itself does not scale as a
//     fixed problem divided among P (extra work, memory effects), and extrapolating it fails;
//
// and the next steps: calibrate the network, measure it (osu_latency, osu_bw), add runs at
// the P values an extrapolation needs.
func Explain(runs []ExplainRun, o ExplainOptions) []Explanation {
	if o.Threshold <= 0 {
		o.Threshold = DefaultExplainThreshold
	}
	var ps []int
	for _, r := range runs {
		ps = append(ps, r.Result.Inputs.P)
	}
	growth, gFrom, gTo := computeGrowth(runs)
	var out []Explanation
	for _, r := range runs {
		res := r.Result
		views := []struct {
			name string
			v    View
		}{{"app_time", res.AppTime}, {"mpi_time", res.MPITime}, {"wait_time", res.WaitTime}, {"throughput", View(res.Throughput)}}
		findings, notes := findingsOf(r)
		if growth > ComputeGrowthLimit {
			findings = append(findings, Finding{"compute_scaling", fmt.Sprintf("Σ computation (App_Time − MPI_Time) grows %.0f %% from P = %d to P = %d: the work does not divide among P as the model's extrapolation assumes", 100*growth, gFrom, gTo)})
		}
		for _, v := range views {
			if v.v.RelError == nil || math.Abs(*v.v.RelError) <= o.Threshold {
				continue
			}
			e := Explanation{Label: res.Inputs.Label, P: res.Inputs.P, View: v.name, RelError: *v.v.RelError, Findings: findings, Notes: notes}
			e.NextSteps = nextSteps(o, findings, ps)
			if len(findings) == 0 {
				e.Notes = append(e.Notes, "the profile contradicts none of the checked assumptions: the network figures are the first suspect")
			}
			out = append(out, e)
		}
	}
	return out
}

func findingsOf(r ExplainRun) ([]Finding, []string) {
	in := r.Result.Inputs
	var f []Finding
	var notes []string
	if in.MPITime > 0 && in.MPIWait/in.MPITime > WaitShareLimit {
		f = append(f, Finding{"imbalance", fmt.Sprintf("MPI wait is %.0f %% of MPI time: ranks wait for each other; 004 has balanced ranks and no such waiting", 100*in.MPIWait/in.MPITime)})
	}
	p := r.Profile
	if p == nil {
		return f, append(notes, "collected values only (no mpiP profile): collectives, message sizes and per-rank imbalance not checked")
	}
	if im := p.Imbalance; im.Available {
		if im.MPIImbalance > ImbalanceLimit || im.ComputeImbalance > ImbalanceLimit {
			f = append(f, Finding{"imbalance", fmt.Sprintf("per-rank times: MPI max/mean − 1 = %.2f, computation max/mean − 1 = %.2f (limit %.2f)", im.MPIImbalance, im.ComputeImbalance, ImbalanceLimit)})
		}
	}
	poll := 0.0
	var pollOps []string
	for _, o := range p.Top {
		switch o.Operation {
		case "Iprobe", "Probe", "Test", "Testall", "Testany", "Testsome":
			poll += o.ShareOfMPI
			pollOps = append(pollOps, o.Operation)
		}
	}
	if poll > PollingShareLimit {
		f = append(f, Finding{"polling", fmt.Sprintf("%s take %.0f %% of MPI time: busy polling while waiting, counted as MPI time", strings.Join(pollOps, ", "), 100*poll)})
	}
	if p.CollectiveShareOfMPI > CollectiveShareLimit {
		f = append(f, Finding{"collectives", fmt.Sprintf("collectives take %.0f %% of MPI time; 004 models point-to-point messages through one switch delay", 100*p.CollectiveShareOfMPI)})
	}
	if p.SizeSpreadDecades > SizeSpreadLimit {
		f = append(f, Finding{"message_sizes", fmt.Sprintf("per-operation mean message sizes span %.3g … %.3g bytes (%.1f decades); one mean L = %.3g bytes stands for all", p.MinOpSizeBytes, p.MaxOpSizeBytes, p.SizeSpreadDecades, p.MeanSizeBytes)})
	}
	return f, notes
}

// computeGrowth is Σ computation at the largest P over that at the smallest, minus 1.
func computeGrowth(runs []ExplainRun) (float64, int, int) {
	var lo, hi *Inputs
	for i := range runs {
		in := &runs[i].Result.Inputs
		if in.P < 2 {
			continue
		}
		if lo == nil || in.P < lo.P {
			lo = in
		}
		if hi == nil || in.P > hi.P {
			hi = in
		}
	}
	if lo == nil || hi == nil || lo.P == hi.P {
		return 0, 0, 0
	}
	a, b := lo.AppTime-lo.MPITime, hi.AppTime-hi.MPITime
	if !(a > 0) {
		return 0, 0, 0
	}
	return b/a - 1, lo.P, hi.P
}

func nextSteps(o ExplainOptions, f []Finding, ps []int) []string {
	var s []string
	if !o.Calibrated {
		s = append(s, "calibrate the network on these runs (clusterperf mpip --calibrate) to see whether any latency and bandwidth explain them")
	}
	if !o.Measured {
		s = append(s, "measure the network: osu_latency and osu_bw between two nodes, fitted with netbench (t(n) = t_s + n/B), instead of guessed figures")
	}
	has := map[string]bool{}
	for _, x := range f {
		has[x.Assumption] = true
	}
	if has["imbalance"] || has["polling"] {
		s = append(s, "the wait is imbalance, not network contention: balance the work per rank, or model the wait as a per-rank delay; no network figure will fix this view")
	}
	if has["collectives"] {
		s = append(s, "count collectives as messages (--collectives) or model them separately (log2 P stages)")
	}
	if has["message_sizes"] {
		s = append(s, "fit the network piecewise by message size (--piecewise with --osu or --imb measurements) and weight D_0 by the size histogram")
	}
	if add := runsToAdd(ps); len(add) > 0 {
		s = append(s, fmt.Sprintf("add runs at P = %s: an extrapolation interval needs ≥ %d runs at different P", joinInts(add), MinRunsForInterval))
	}
	return s
}

// runsToAdd proposes the P values that bring the runs (P > 1) to MinRunsForInterval: powers
// of two beyond the largest measured P first, then halvings below the smallest.
func runsToAdd(ps []int) []int {
	have := map[int]bool{}
	mx, mn := 0, 0
	for _, p := range ps {
		if p > 1 {
			have[p] = true
			if p > mx {
				mx = p
			}
			if mn == 0 || p < mn {
				mn = p
			}
		}
	}
	need := MinRunsForInterval - len(have)
	var add []int
	for p := mx * 2; need > 0 && p > 0 && p <= MaxPredictP && len(add) < 2; p *= 2 {
		add = append(add, p)
		need--
	}
	for p := mn / 2; need > 0 && p >= 2; p /= 2 {
		if !have[p] {
			add = append(add, p)
			need--
		}
	}
	sort.Ints(add)
	return add
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// Solve solves a run with the calibrated network's switch delay at its mean size, giving
// 004's four validation views under the calibration.
func (c *Calibration) Solve(in Inputs) (*Result, error) {
	d := in.Demands()
	d.D0, _, _ = c.SwitchDelay(in.L)
	return SolveDemands(in, d)
}

package cube

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/mpip"
)

// MPIPath is one MPI call path's figures at the processes' master locations (the lowest-rank
// location of each process, where Score-P records MPI), summed over the processes.
type MPIPath struct {
	CallPath  string  `json:"call_path"`
	Operation string  `json:"operation"` // the region name without "MPI_", as mpiP names it
	TimeS     float64 `json:"time_s"`    // exclusive time, s
	Visits    float64 `json:"visits"`
	BytesSent float64 `json:"bytes_sent"` // Score-P's bytes_sent (0 when the profile has none)
	Wait      bool    `json:"wait"`       // one of mpip.DefaultWaitOps
	Send      bool    `json:"point_to_point_send"`
}

// sends are the point-to-point operations whose visits count as messages M (as mpiP's
// summary counts sends).
var sends = []string{"Send", "Isend", "Bsend", "Ibsend", "Ssend", "Issend", "Rsend", "Irsend", "Sendrecv", "Sendrecv_replace"}

// isMPI: a region of Score-P's MPI adapter (paradigm "mpi") named MPI_….
func isMPI(r Region) bool {
	return strings.HasPrefix(r.Name, "MPI_") && (r.Paradigm == "" || strings.EqualFold(r.Paradigm, "mpi"))
}

// masters are the positions of each process's lowest-rank location.
func (p *Profile) masters() []int {
	best := map[int]int{}
	for i, l := range p.Locations {
		if j, ok := best[l.Process]; !ok || l.Rank < p.Locations[j].Rank {
			best[l.Process] = i
		}
	}
	var out []int
	for _, i := range best {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}

// at is the stored value of metric m at call path c summed over the locations locs.
func (p *Profile) at(m *Metric, c int, locs []int) float64 {
	v := p.values[m.ID]
	if v == nil {
		return 0
	}
	L, pos, s := len(p.Locations), p.cnodePos[c], 0.0
	for _, l := range locs {
		s += v[pos*L+l]
	}
	return s
}

// exclusiveAt is Exclusive restricted to the locations locs.
func (p *Profile) exclusiveAt(m *Metric, c int, locs []int) float64 {
	s := p.at(m, c, locs)
	if m.Kind == "EXCLUSIVE" {
		return s
	}
	for _, ch := range p.CNodes[p.cnodePos[c]].Children {
		s -= p.at(m, ch, locs)
	}
	return s
}

// inclusiveAt is Inclusive restricted to the locations locs.
func (p *Profile) inclusiveAt(m *Metric, c int, locs []int) float64 {
	if m.Kind != "EXCLUSIVE" {
		return p.at(m, c, locs)
	}
	s := p.at(m, c, locs)
	for _, ch := range p.CNodes[p.cnodePos[c]].Children {
		s += p.inclusiveAt(m, ch, locs)
	}
	return s
}

// MPI is the profile's MPI time and bytes per call path and, from them, the summary package
// mpip builds from an mpiP report — the collected values of 004's queueing model: P the
// processes; App_Time the roots' inclusive time summed over the processes' master locations;
// MPI_Time the MPI call paths' exclusive time; MPI_Wait the part in mpip.DefaultWaitOps;
// M the visits of point-to-point sends; their bytes from bytes_sent (L = bytes/M).
// fault.ErrInput when the profile has no time metric or no MPI call path.
func (p *Profile) MPI() (mpip.Summary, []MPIPath, error) {
	tm := p.MetricByName("time")
	if tm == nil || !tm.HasData || tm.Extremum() != "" {
		return mpip.Summary{}, nil, fmt.Errorf("%w: %s: no time metric with data", fault.ErrInput, p.File)
	}
	vi, bs := p.MetricByName("visits"), p.MetricByName("bytes_sent")
	locs := p.masters()
	s := mpip.Summary{File: p.File, P: len(locs)}
	for _, l := range locs {
		t := 0.0
		for _, r := range p.Roots() {
			t += p.inclusiveAt(tm, r, []int{l})
		}
		s.AppTime += t
		s.WallTime = max(s.WallTime, t) // max_r App_Time(r), as mpiP's
	}
	wait := mpip.DefaultWaitOps()
	var paths []MPIPath
	for _, c := range p.CNodes {
		reg := p.RegionOf(c.ID)
		if !isMPI(reg) {
			continue
		}
		op := strings.TrimPrefix(reg.Name, "MPI_")
		mp := MPIPath{CallPath: p.Path(c.ID), Operation: op, TimeS: p.exclusiveAt(tm, c.ID, locs), Wait: slices.Contains(wait, op), Send: slices.Contains(sends, op)}
		if vi != nil && vi.HasData {
			mp.Visits = p.exclusiveAt(vi, c.ID, locs)
		}
		if bs != nil && bs.HasData {
			mp.BytesSent = p.exclusiveAt(bs, c.ID, locs)
		}
		s.MPITime += mp.TimeS
		if mp.Wait {
			s.MPIWait += mp.TimeS
			s.WaitByOp = addOp(s.WaitByOp, op, mp.TimeS)
		}
		if mp.Send {
			s.Messages += mp.Visits
			s.Bytes += mp.BytesSent
		}
		paths = append(paths, mp)
	}
	if len(paths) == 0 {
		return s, nil, fmt.Errorf("%w: %s: no MPI call paths (regions MPI_… of paradigm mpi): nothing for 004's model (was Score-P's MPI adapter on?)", fault.ErrInput, p.File)
	}
	if s.Messages > 0 {
		s.AvgSize = s.Bytes / s.Messages
	}
	s.Notes = append(s.Notes, "from a CUBE profile: times at each process's master location; M = visits of point-to-point sends, bytes from bytes_sent")
	return s, paths, nil
}

func addOp(ops []mpip.OpTime, op string, t float64) []mpip.OpTime {
	for i := range ops {
		if ops[i].Operation == op {
			ops[i].TimeS += t
			return ops
		}
	}
	return append(ops, mpip.OpTime{Operation: op, TimeS: t})
}

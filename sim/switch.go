package sim

import (
	"errors"
	"fmt"

	"github.com/clusterperf/clusterperf/qn"
)

// FileConfig returns base with what a model file holds beyond its Model: the class-switching
// routing (Config.Switch) and the station capacities (Config.Capacity), so that simulating a
// qn.ModelFile never drops either; and the stations the file declares type ps are
// simulated by processor sharing unless base.Discipline says otherwise.
func FileConfig(f *qn.ModelFile, base Config) Config {
	base.Switch = f.Switch
	if len(f.PS) > 0 {
		d := make(map[string]Discipline, len(base.Discipline)+len(f.PS))
		for name := range f.PS {
			d[name] = PS
		}
		for name, v := range base.Discipline {
			d[name] = v
		}
		base.Discipline = d
	}
	if f.Capacity != nil {
		base.Capacity = map[string]int{}
		for k, c := range f.Capacity {
			if c > 0 {
				base.Capacity[f.Model.Stations[k].Name] = c
			}
		}
	}
	return base
}

// switchRouting prepares class switching (Config.Switch): per (class, station) the
// cumulative distribution of the next (class, station) pair over C·K entries, the service
// times per visit from the switch's Service, the chain of every class and where its jobs
// start. Refused: open classes, think times, fork/join nodes, station groups, per-class
// routing matrices besides the switch.
func (s *Simulator) switchRouting() error {
	sw := s.cfg.Switch
	m := s.m
	C, K := len(m.Classes), len(m.Stations)
	if sw.Net == nil || len(sw.P) != C || len(sw.Service) != C || len(sw.Ref) != C {
		return fmt.Errorf("class switching: the switch has %d classes (or no chain network), the model %d", len(sw.P), C)
	}
	switch {
	case len(s.cfg.Routing) > 0 || len(s.cfg.ForkJoins) > 0 || len(m.ForkJoins) > 0:
		return errors.New("class switching (switch:) cannot be combined with a routing matrix (routing:) or fork/join nodes (fork_joins:)")
	case len(s.cfg.Capacity) > 0:
		return errors.New("class switching (switch:) with finite capacities (capacity:) is not supported")
	}
	for _, r := range m.Routing {
		if r != nil {
			return errors.New("class switching (switch:) with a per-class routing (routing:) in the model: give one or the other")
		}
	}
	for k, st := range m.Stations {
		if st.Copies() > 1 {
			return fmt.Errorf("class switching: station %q is a group (count %d); list its copies as stations", st.Name, st.Count)
		}
		_ = k
	}
	s.swCum = make([][][]float64, C)
	s.swFirst = make([]int, C)
	s.swStart = make([]int, C)
	for c, cl := range m.Classes {
		if cl.Open || cl.ThinkTime != 0 {
			return fmt.Errorf("class switching: class %q must be closed with no think time", cl.Name)
		}
		if len(sw.P[c]) != K || len(sw.Service[c]) != K {
			return fmt.Errorf("class switching: class %q has %d routing rows and %d service times, want %d", cl.Name, len(sw.P[c]), len(sw.Service[c]), K)
		}
		s.swCum[c] = make([][]float64, K)
		for i := 0; i < K; i++ {
			if len(sw.P[c][i]) != C {
				return fmt.Errorf("class switching: class %q, station %d: %d target classes, want %d", cl.Name, i, len(sw.P[c][i]), C)
			}
			cum := make([]float64, C*K)
			acc := 0.0
			for d := 0; d < C; d++ {
				if len(sw.P[c][i][d]) != K {
					return fmt.Errorf("class switching: class %q, station %d: %d target stations, want %d", cl.Name, i, len(sw.P[c][i][d]), K)
				}
				for j := 0; j < K; j++ {
					acc += sw.P[c][i][d][j]
					cum[d*K+j] = acc
				}
			}
			s.swCum[c][i] = cum
		}
		for k := 0; k < K; k++ {
			s.svc[c][k] = sw.Service[c][k]
		}
		// the chain's first class: its reference visits count the chain's cycles
		s.swFirst[c] = c
		for d := 0; d < c; d++ {
			if sw.Net.Chain[d] == sw.Net.Chain[c] {
				s.swFirst[c] = d
				break
			}
		}
		s.swStart[c] = -1
		for k := 0; k < K && s.swStart[c] < 0; k++ {
			if sw.Net.Visits[c][k] > 0 {
				s.swStart[c] = k
			}
		}
		if v := sw.Net.Visits[c]; sw.Ref[c] < K && v[sw.Ref[c]] > 0 {
			s.swStart[c] = sw.Ref[c]
		}
		if s.swStart[c] < 0 && cl.Population > 0 {
			return fmt.Errorf("class switching: class %q has jobs but visits no station", cl.Name)
		}
	}
	return nil
}

// switchEnter puts a class-switching job at its class's start station.
func (r *run) switchEnter(j int, first []int) {
	c := int(r.jobs[j].class)
	r.jobs[j].start = r.now
	r.arrive(first[r.s.swStart[c]], j)
}

// switchRoute moves job j, class c, just served at station k, to its next (class, station)
// pair; reaching the first class of its chain at that class's reference completes a cycle,
// counted for every class of the chain (the chain's throughput, as qn.ChainNetwork.Solve
// reports per class).
func (r *run) switchRoute(j, c, k int, first []int) {
	s := r.s
	lo := pickCum(s.swCum[c][k], r.rng.Float64())
	K := len(s.m.Stations)
	d, kk := lo/K, lo%K
	r.jobs[j].class = int32(d)
	if f := s.swFirst[d]; f == d && kk == s.cfg.Switch.Ref[d] {
		h := s.cfg.Switch.Net.Chain[d]
		for e := range s.m.Classes {
			if s.cfg.Switch.Net.Chain[e] == h {
				r.done[e]++
			}
		}
		r.rsum[d] += r.now - r.jobs[j].start
		r.jobs[j].start = r.now
	}
	r.arrive(first[kk], j)
}

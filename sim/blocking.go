package sim

import (
	"errors"
	"fmt"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
)

// blockingSetup checks and installs Config.Capacity: finite capacities with blocking after
// service (as JMT and Akyildiz's MVABLO; see internal/ctmc.BlockingNetwork): a job that
// finishes service at station i and whose destination j holds capacity(j) jobs stays at i,
// which serves no one (it is blocked), until a job leaves j; stations blocked on the same j
// move in the order they were blocked. Supported: closed classes without think time,
// single-server FCFS stations (type queue, count 1), no fork/join nodes, no class switching.
func (s *Simulator) blockingSetup() error {
	m := s.m
	s.capacity = make([]int, len(m.Stations))
	byName := map[string]int{}
	for k, st := range m.Stations {
		byName[st.Name] = k
	}
	for name, c := range s.cfg.Capacity {
		k, ok := byName[name]
		if !ok {
			return fmt.Errorf("capacity: no station named %q", name)
		}
		if c < 0 {
			return fmt.Errorf("capacity of station %q: %d, want ≥ 1 (0: unlimited)", name, c)
		}
		s.capacity[k] = c
	}
	if len(s.cfg.ForkJoins) > 0 || len(m.ForkJoins) > 0 {
		return errors.New("capacity: finite capacities with fork/join nodes are not supported")
	}
	for _, st := range m.Stations {
		if st.Kind != qn.Queue || st.Copies() != 1 || s.cfg.Discipline[st.Name] != FCFS {
			return fmt.Errorf("capacity: station %q: finite capacities are simulated for single-server FCFS stations (type queue, count 1) only", st.Name)
		}
	}
	free := 0
	for k := range m.Stations {
		if s.capacity[k] == 0 {
			free = s.closedN
			break
		}
		free += s.capacity[k]
	}
	for _, cl := range m.Classes {
		if cl.Open {
			return fmt.Errorf("capacity: class %q is open; finite capacities are simulated for closed classes only", cl.Name)
		}
		if cl.ThinkTime != 0 {
			return fmt.Errorf("capacity: class %q has a think time; with finite capacities route its jobs through the stations only", cl.Name)
		}
	}
	if s.closedN > free {
		return fmt.Errorf("capacity: %d jobs exceed the total capacity %d", s.closedN, free)
	}
	return nil
}

// blockingPlace puts every closed job at a station its class visits, in station order up to
// the capacities (the steady state does not depend on where the jobs start).
func (r *run) blockingPlace(first []int) error {
	s := r.s
	m := s.m
	for c, cl := range m.Classes {
		for i := 0; i < cl.Population; i++ {
			j := r.newJob(int32(c), -1)
			placed := false
			for k := range m.Stations {
				visited := m.Demand[c][k] > 0 || (m.Visits != nil && m.Visits[c][k] > 0)
				if st := &r.st[first[k]]; visited && (s.capacity[k] == 0 || st.n < s.capacity[k]) {
					r.arrive(first[k], j)
					placed = true
					break
				}
			}
			if !placed {
				return fmt.Errorf("%w: capacity: no room for job %d of class %q at the stations it visits", fault.ErrInput, i+1, cl.Name)
			}
		}
	}
	return nil
}

// blockingDepart is depart under finite capacities: job j has finished service at station
// si; it moves on if its destination has room (and the room it leaves unblocks the first
// station waiting for si), otherwise it blocks si. A cycle of blocked stations is a
// deadlock: fault.ErrDeadlock.
func (r *run) blockingDepart(si, j int, first []int, idx [][2]int) error {
	s := r.s
	c := int(r.jobs[j].class)
	n := r.next(c, idx[si][0]+1)
	if n == 0 { // a cycle ends (no think time): count it and go straight on
		r.done[c]++
		r.rsum[c] += r.now - r.jobs[j].start
		r.jobs[j].start = r.now
		n = r.next(c, 0)
	}
	d := first[n-1]
	dst := &r.st[d]
	if d != si && s.capacity[n-1] > 0 && dst.n >= s.capacity[n-1] {
		st := &r.st[si]
		r.account(st)
		st.blocked, st.blockedJob, st.blockedOn = true, int32(j), int32(d)
		dst.waiters = append(dst.waiters, int32(si))
		for x := d; r.st[x].blocked; {
			x = int(r.st[x].blockedOn)
			if x == si {
				return fmt.Errorf("%w: capacity: a cycle of full stations blocks each other at t = %.6g s (station %q and the stations it waits for); lower the population or raise capacities", fault.ErrDeadlock, r.now*s.scale, s.m.Stations[idx[si][0]].Name)
			}
		}
		return nil
	}
	r.leave(si, c)
	r.arrive(d, j)
	r.unblock(si)
	return nil
}

// unblock: a job left station x, so the first station blocked on x moves its job in, which
// leaves room at that station in turn.
func (r *run) unblock(x int) {
	for {
		st := &r.st[x]
		if len(st.waiters) == 0 {
			return
		}
		w := int(st.waiters[0])
		st.waiters = st.waiters[1:]
		ws := &r.st[w]
		r.account(ws)
		bj := int(ws.blockedJob)
		ws.blocked = false
		r.leave(w, int(r.jobs[bj].class))
		r.arrive(x, bj)
		x = w
	}
}

// leave removes the job in service (class c) from FCFS station si and starts the next
// waiting one.
func (r *run) leave(si, c int) {
	st := &r.st[si]
	r.account(st)
	st.n--
	st.nc[c]--
	r.serveNext(si)
}

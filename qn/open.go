package qn

import (
	"fmt"

	"github.com/clusterperf/clusterperf/queue"
)

// Open solves an open multi-class network in steady state (QSP §6.2; BGdMT §6.2):
//
//	U_k = Σ_c λ_c·D_{k,c}   (offered load, busy servers)
//	queue:        R_{k,c} = D_{k,c} / (1 − U_k)
//	multi-server: R_{k,c} = D_{k,c}·(1 + C(m, U_k) / (m − U_k))   (M/M/m, queue.ErlangC)
//	delay:        R_{k,c} = D_{k,c}
//	Q_{k,c} = λ_c·R_{k,c}
//
// Exact for product-form networks (class-independent service times at FCFS stations). A
// station with U_k/m ≥ 1 is reported as a *SaturationError naming it. Load-dependent stations
// are not supported.
func Open(m *Model) (*Result, error) {
	if err := m.solvable(); err != nil {
		return nil, err
	}
	C, K := len(m.Classes), len(m.Stations)
	for _, c := range m.Classes {
		if !c.Open {
			return nil, unsupported("the open solver needs open classes only; class %q is closed (use the mixed solver)", c.Name)
		}
	}
	res := newResult("open", C, K)
	res.Status = Status{Converged: true}
	for k, s := range m.Stations {
		if s.Kind == LoadDependent {
			return nil, unsupported("open networks with load-dependent station %q", s.Name)
		}
		u := 0.0
		for c := range m.Classes {
			u += m.Classes[c].ArrivalRate * m.Demand[c][k]
		}
		factor, perServer, err := openFactor(s, u)
		if err != nil {
			return nil, err
		}
		for c, cl := range m.Classes {
			d := m.Demand[c][k]
			r := d * factor
			res.Residence[k][c] = r
			res.QueueLength[k][c] = cl.ArrivalRate * r
			res.Utilization[k][c] = cl.ArrivalRate * d / perServer
		}
	}
	for c, cl := range m.Classes {
		res.Throughput[c] = cl.ArrivalRate
		for k, s := range m.Stations {
			res.ResponseTime[c] += float64(s.Copies()) * res.Residence[k][c]
		}
	}
	return res, nil
}

// openFactor returns R/D at a station carrying offered load u (busy servers), and the
// divisor that turns offered load into per-server utilisation.
func openFactor(s Station, u float64) (factor, perServer float64, err error) {
	switch s.Kind {
	case Delay:
		return 1, 1, nil
	case MultiServer:
		m := float64(s.Servers)
		if u/m >= 1 {
			return 0, 0, &SaturationError{Station: s.Name, Utilization: u / m}
		}
		c, err := queue.ErlangC(u, s.Servers) // u < m here
		if err != nil {
			return 0, 0, fmt.Errorf("station %q: %w", s.Name, err)
		}
		return 1 + c/(m-u), m, nil
	}
	if u >= 1 {
		return 0, 0, &SaturationError{Station: s.Name, Utilization: u}
	}
	return 1 / (1 - u), 1, nil
}

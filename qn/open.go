package qn

import (
	"fmt"
	"math"

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

// Mixed solves a network with open and closed classes (QSP §7.4; Octave's qnmix): the open
// classes' utilisation U^o_k inflates the closed classes' demands at queue stations,
// D*_{k,c} = D_{k,c}/(1 − U^o_k); the closed network is solved exactly (MVA); then the open
// classes see R_{k,o} = D_{k,o}·(1 + Q^closed_k)/(1 − U^o_k). Exact for product-form networks
// with queue and delay stations.
func Mixed(m *Model) (*Result, error) {
	if err := m.solvable(); err != nil {
		return nil, err
	}
	open, closed := m.OpenClasses(), m.ClosedClasses()
	if len(open) == 0 || len(closed) == 0 {
		return nil, unsupported("the mixed solver needs both open and closed classes")
	}
	C, K := len(m.Classes), len(m.Stations)
	uo := make([]float64, K)
	for k, s := range m.Stations {
		if s.Kind == LoadDependent || (s.Kind == MultiServer && s.Servers > 1) {
			return nil, unsupported("mixed networks with multi-server or load-dependent station %q", s.Name)
		}
		for _, c := range open {
			uo[k] += m.Classes[c].ArrivalRate * m.Demand[c][k]
		}
		if s.Kind != Delay && uo[k] >= 1 {
			return nil, &SaturationError{Station: s.Name, Utilization: uo[k]}
		}
	}
	cm := &Model{Stations: m.Stations}
	for _, c := range closed {
		cm.Classes = append(cm.Classes, m.Classes[c])
		row := make([]float64, K)
		for k, s := range m.Stations {
			row[k] = m.Demand[c][k]
			if s.Kind != Delay {
				row[k] /= 1 - uo[k]
			}
		}
		cm.Demand = append(cm.Demand, row)
	}
	var cr *Result
	var err error
	if len(closed) == 1 {
		cr, err = MVASingle(cm)
	} else {
		cr, err = MVAMulti(cm)
	}
	if err != nil {
		return nil, err
	}
	res := newResult("mixed", C, K)
	res.Status = cr.Status
	for i, c := range closed {
		res.Throughput[c] = cr.Throughput[i]
		res.ResponseTime[c] = cr.ResponseTime[i]
		for k := range m.Stations {
			res.Residence[k][c] = cr.Residence[k][i]
			res.QueueLength[k][c] = cr.QueueLength[k][i]
			res.Utilization[k][c] = cr.Throughput[i] * m.Demand[c][k]
		}
	}
	for _, c := range open {
		lam := m.Classes[c].ArrivalRate
		res.Throughput[c] = lam
		for k, s := range m.Stations {
			d := m.Demand[c][k]
			r := d
			if s.Kind != Delay {
				r = d * (1 + cr.StationQueueLength(k)) / (1 - uo[k])
			}
			res.Residence[k][c] = r
			res.QueueLength[k][c] = lam * r
			res.Utilization[k][c] = lam * d
			res.ResponseTime[c] += float64(s.Copies()) * r
		}
	}
	if math.IsNaN(res.SystemThroughput()) {
		return nil, unsupported("mixed solution is not finite")
	}
	return res, nil
}

package qn

import (
	"context"
	"math"
)

// Mixed solves a network with open and closed classes (QSP §7.4; Octave's qnmix): the open
// classes' utilisation U^o_k inflates the closed classes' demands at queue stations,
// D*_{k,c} = D_{k,c}/(1 − U^o_k); the closed network is solved exactly (MVA); then the open
// classes see R_{k,o} = D_{k,o}·(1 + Q^closed_k)/(1 − U^o_k). Exact for product-form networks
// with queue and delay stations.
//
// ctx stops it: the closed network's exact MVA looks at ctx about every million operations
// with one closed class (MVASingle), and at every slice of the population lattice with
// several from ParallelThreshold vectors (multiExact's split walk; below it the walk takes
// milliseconds). A stopped solve returns an error wrapping
// ctx's error (and fault.ErrInterrupted for one closed class).
func Mixed(ctx context.Context, m *Model) (*Result, error) {
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
		cr, err = MVASingle(ctx, cm)
	} else {
		cr, err = multiExact(ctx, cm)
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

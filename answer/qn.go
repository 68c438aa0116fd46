package answer

import (
	"fmt"
	"strings"

	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/queue"
	"github.com/clusterperf/clusterperf/report"
)

// SaturatedAt is the utilization per server from which a sweep's answer calls the
// bottleneck saturated (a stated rule, not a law: response times grow steeply beyond it).
const SaturatedAt = 0.9

// stationNames is the names of the stations ks of m, joined with " and ".
func stationNames(m *qn.Model, ks []int) string {
	var s []string
	for _, k := range ks {
		s = append(s, m.Stations[k].Name)
	}
	return strings.Join(s, " and ")
}

// Solve is the answer of one solved network r of m: the bottleneck station(s) with their
// utilization, the throughput ceiling, and N* (one closed class) or the largest
// sustainable arrival rate (open classes) against the model's own population or rate
// (qn.SaturationOf).
func Solve(m *qn.Model, r *qn.Result) report.Answer {
	var b builder
	a := &b.a
	s := qn.SaturationOf(m, r)
	x := r.SystemThroughput()
	a.Num("system_throughput_per_s", x)
	if len(s.Bottlenecks) == 0 {
		b.say("nothing saturates: every station is a delay (no queueing)", fmt.Sprintf("System throughput %s jobs/s.", g(x)))
		return b.done()
	}
	if s.Demand == 0 { // every queueing station's demand is 0: none limits throughput
		b.say("no station limits throughput: every queueing station's demand is 0", fmt.Sprintf("System throughput %s jobs/s, set by the think times alone (hostile review 8 P1-4: it said \"at most 0 jobs/s\").", g(x)))
		return b.done()
	}
	name := stationNames(m, s.Bottlenecks)
	a.Word("bottleneck", name)
	a.Num("bottleneck_utilization", s.Utilization)
	a.Num("bottleneck_demand_s", s.Demand)
	a.Num("throughput_ceiling_per_s", s.Ceiling)
	bn := "bottleneck " + name
	if len(s.Bottlenecks) > 1 {
		bn = "bottlenecks " + name + " (equal utilization)"
	}
	b.say(fmt.Sprintf("%s (%s busy)", bn, pct(s.Utilization)), fmt.Sprintf("The bottleneck is the queueing station of highest utilization per server; its demand is %s s per job (per server), so the system completes at most %s jobs/s%s.", g(s.Demand), g(s.Ceiling), mixNote(m)))
	switch {
	case s.NStar > 0:
		n := m.Classes[0].Population
		a.Num("saturation_population", s.NStar)
		a.Num("population", float64(n))
		where := "below"
		if float64(n) >= s.NStar {
			where = "above"
		}
		a.Word("population_vs_saturation", where)
		b.say(fmt.Sprintf("throughput %s of at most %s jobs/s", g(x), g(s.Ceiling)))
		b.say(SaturationWords(n, s.NStar, name))
	case s.MaxRate > 0:
		rate := 0.0
		for _, c := range m.Classes {
			rate += c.ArrivalRate
		}
		a.Num("arrival_rate_per_s", rate)
		a.Num("max_arrival_rate_per_s", s.MaxRate)
		b.say(RateWords(rate, s.MaxRate, name))
	default:
		b.say(fmt.Sprintf("throughput %s of at most %s jobs/s with this mix of classes", g(x), g(s.Ceiling)))
	}
	return b.done()
}

// SaturationWords is the solve answer's clause placing population n against the saturation
// population N* = nStar of a closed class, and its explanation (bottleneck: the station
// name(s)); the explorer's qn page says the same words.
func SaturationWords(n int, nStar float64, bottleneck string) (clause, why string) {
	where := "below"
	if float64(n) >= nStar {
		where = "above"
	}
	return fmt.Sprintf("N = %d jobs is %s the saturation point N* = %s", n, where, g(nStar)),
		fmt.Sprintf("N* = (total demand + think time)/bottleneck demand = %s jobs: beyond it more jobs only queue at %s.", g(nStar), bottleneck)
}

// RateWords is the solve answer's clause placing the arrival rate against the largest
// sustainable one of an open network, and its explanation (the explorer says the same).
func RateWords(rate, maxRate float64, bottleneck string) (clause, why string) {
	return fmt.Sprintf("arrivals %s jobs/s of at most %s sustainable (%s)", g(rate), g(maxRate), pct(rate/maxRate)),
		fmt.Sprintf("The largest sustainable arrival rate is the rate (all classes scaled alike) at which %s would be busy all the time.", bottleneck)
}

// mixNote is ", with the model's mix of classes" when m has more than one class.
func mixNote(m *qn.Model) string {
	if len(m.Classes) > 1 {
		return " with the model's mix of classes"
	}
	return ""
}

// Sweep is the answer of a what-if sweep of parameter p over the points pts of m: the
// bottleneck across the range (the same station everywhere or where it changes), and
// where it saturates: the first swept value with bottleneck utilization ≥ SaturatedAt, or
// the first without a steady state; for a population sweep of one closed class, N*.
func Sweep(m *qn.Model, p qn.SweepParam, pts []qn.SweepPoint) report.Answer {
	var b builder
	a := &b.a
	var names []string // bottleneck at each solved point, runs deduplicated
	var first, last float64
	solved := 0
	satAt, noSteady := -1.0, -1.0
	for _, pt := range pts {
		if pt.Err != nil || pt.Result == nil {
			if noSteady < 0 {
				noSteady = pt.Value
			}
			continue
		}
		mm := p.Apply(m, pt.Value)
		s := qn.SaturationOf(mm, pt.Result)
		if solved == 0 {
			first = pt.Value
		}
		last = pt.Value
		solved++
		n := "no queueing station"
		if len(s.Bottlenecks) > 0 {
			n = stationNames(mm, s.Bottlenecks)
		}
		if len(names) == 0 || names[len(names)-1] != n {
			names = append(names, n)
		}
		if satAt < 0 && len(s.Bottlenecks) > 0 && s.Utilization >= SaturatedAt {
			satAt = pt.Value
		}
	}
	label := p.Label
	if solved == 0 {
		b.say(fmt.Sprintf("no point of the sweep of %s has a steady state", label), "The network is saturated over the whole range.")
		return b.done()
	}
	a.Num("from", first)
	a.Num("to", last)
	a.Word("bottleneck", strings.Join(names, " → "))
	if len(names) == 1 {
		b.say(fmt.Sprintf("bottleneck %s over %s %s–%s", names[0], label, g(first), g(last)))
	} else {
		b.say(fmt.Sprintf("the bottleneck moves over %s %s–%s: %s", label, g(first), g(last), strings.Join(names, " → ")))
	}
	switch {
	case satAt >= 0:
		a.Num("saturates_at", satAt)
		b.say(fmt.Sprintf("bottleneck ≥ %s busy from %s = %s", pct(SaturatedAt), label, g(satAt)), fmt.Sprintf("From %s = %s the bottleneck is at least %s busy (this answer's saturation rule; response times grow steeply beyond it).", label, g(satAt), pct(SaturatedAt)))
	default:
		b.say(fmt.Sprintf("below %s busy over the range", pct(SaturatedAt)))
	}
	if p.What == "population" && len(m.Classes) == 1 {
		if ns := qn.NStar(m); ns > 0 {
			a.Num("saturation_population", ns)
			d := fmt.Sprintf("N* = (total demand + think time)/bottleneck demand = %s jobs: where the asymptotic bounds cross, the population beyond which more jobs only queue.", g(ns))
			if satAt >= 0 {
				d += fmt.Sprintf(" It and the %s utilization at %s = %s are two measures of one saturation, not two saturation points.", pct(SaturatedAt), label, g(satAt))
			}
			b.say(fmt.Sprintf("bounds' knee N* = %s", g(ns)), d)
		}
	}
	if noSteady >= 0 {
		a.Num("no_steady_state_from", noSteady)
		b.say(fmt.Sprintf("no steady state from %s = %s", label, g(noSteady)))
	}
	return b.done()
}

// g formats a number with 4 significant digits.
func g(v float64) string { return fmt.Sprintf("%.4g", v) }

// pct formats a fraction as a percentage with up to 3 significant digits.
func pct(f float64) string { return fmt.Sprintf("%.3g %%", 100*f) }

// Queue is the answer of one queueing station (package queue): its headline metrics —
// utilization per server, mean response time (and waiting time), jobs in the system, and
// the blocking or waiting probability where the model has one.
func Queue(r *queue.Result) report.Answer {
	var b builder
	a := &b.a
	a.Num("utilization", r.Utilization)
	a.Num("response_time_s", r.ResponseTime)
	a.Num("waiting_time_s", r.WaitingTime)
	a.Num("jobs_in_system", r.Jobs)
	a.Num("throughput_per_s", r.Throughput)
	if r.Servers == 0 {
		b.say(fmt.Sprintf("%s at λ = %s jobs/s: %s busy servers on average", r.Model, g(r.ArrivalRate), g(r.BusyServers)))
	} else {
		b.say(fmt.Sprintf("%s at λ = %s jobs/s: servers %s busy", r.Model, g(r.ArrivalRate), pct(r.Utilization)))
	}
	b.say(fmt.Sprintf("response time %s s (%s s waiting)", g(r.ResponseTime), g(r.WaitingTime)))
	if r.PBlock != nil {
		a.Num("p_block", *r.PBlock)
		b.say(fmt.Sprintf("%s refused", pct(*r.PBlock)))
	}
	if r.PWait != nil {
		a.Num("p_wait", *r.PWait)
		b.say(fmt.Sprintf("%s wait", pct(*r.PWait)))
	}
	b.say(fmt.Sprintf("%s jobs in the system", g(r.Jobs)))
	return b.done()
}
